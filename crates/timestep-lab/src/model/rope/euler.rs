//! One semi-implicit (symplectic) Euler step of the whole chain, over struct-of-arrays state.
//!
//! Two loops over separate x and y `f32` arrays: every spring's force into a zero-padded array,
//! then velocity and position per particle. The arrays are padded to a whole number of
//! [`LANES`], and both loops walk them in fixed-size chunks, so the compiler fills whole vector
//! registers — sixteen particles at a time with AVX-512, eight with AVX2 — with no scalar tail,
//! which matters for the default 16-particle rope as much as for a long one. Padding lanes are
//! masked out of every result. (Doing both loops chunk by chunk, forces kept in registers, was
//! measured: 5 % faster at 16 particles and twice as slow at 1,024.)
//!
//! The loops are compiled for baseline x86-64, AVX2 and AVX-512, and picked at run time. No
//! operation is fused or reordered differently between them (Rust never contracts `a * b + c`
//! into an FMA on its own; `sqrt` and `/` are correctly rounded everywhere), so every build
//! gives bit-identical states: `tests/physics.rs` checks the dispatched step against a plain
//! scalar loop.

use super::params::{EXPLODE_STRETCH, RopeParams};

/// Particles per chunk: arrays are padded to a multiple of this.
pub const LANES: usize = 16;

/// The length the state arrays are padded to for `n` particles: room for every spring's
/// second particle and the force array's end sentinel, in whole chunks.
pub fn padded_len(n: usize) -> usize {
    (n.div_ceil(LANES) + 1) * LANES
}

/// The state the step reads and writes, as separate component arrays, each
/// [`padded_len`]`(n)` long; entries from `n` on are padding.
pub struct State<'a> {
    pub n: usize,
    pub x: &'a mut [f32],
    pub y: &'a mut [f32],
    pub vx: &'a mut [f32],
    pub vy: &'a mut [f32],
    /// Scratch for the spring forces.
    pub fx: &'a mut [f32],
    pub fy: &'a mut [f32],
}

/// What the step saw: the largest spring stretch at its start and whether anything diverged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub worst_stretch: f32,
    pub diverged: bool,
}

/// The per-step constants, worked out once per step rather than per particle.
#[derive(Clone, Copy, Debug)]
pub struct Coefficients {
    k: f32,
    c: f32,
    rest: f32,
    inv_rest: f32,
    pub(super) floor_len: f32,
    pub(super) floor_speed: f32,
    pub(super) dt: f32,
    kick: f32,
    gravity_dv: f32,
    pub(super) decay: f32,
    /// 1/m and gravity's acceleration, m/s² (RK4 evaluates accelerations, not kicks).
    pub(super) inv_mass: f32,
    pub(super) gravity: f32,
}

impl Coefficients {
    pub fn new(p: &RopeParams, dt: f32) -> Self {
        Coefficients {
            k: p.stiffness_n_per_m,
            c: p.spring_damping_n_s_per_m,
            rest: p.rest_length_m,
            inv_rest: 1.0 / p.rest_length_m,
            floor_len: p.rest_length_floor_m(),
            floor_speed: p.rest_speed_floor_m_per_s(),
            dt,
            kick: (1.0 / p.particle_mass_kg) * dt,
            gravity_dv: -p.gravity_m_per_s2 * dt,
            // The drag's velocity factor for one step: exactly exp(−rate · dt).
            decay: (-p.damping_per_s * dt).exp(),
            inv_mass: 1.0 / p.particle_mass_kg,
            gravity: -p.gravity_m_per_s2,
        }
    }
}

/// `v`, or zero when its magnitude is below `floor` (the rest rule, see
/// [`super::REST_FRACTION`]; NaN is kept, so a diverging rope is still seen to diverge).
#[inline(always)]
pub(super) fn flush(v: f32, floor: f32) -> f32 {
    if v.abs() < floor { 0.0 } else { v }
}

/// Takes one step. Pins and a held particle are the caller's to restore afterwards.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl+avx512bw+avx512dq+avx2+fma",
    "x86_64+avx2+fma"
))]
pub fn step(k: &Coefficients, s: State<'_>) -> Outcome {
    let mut s = s;
    let (worst_bits, bad_spring) = springs(k, &mut s);
    let bad_particle = kick_and_drift(k, s);
    Outcome {
        worst_stretch: f32::from_bits(worst_bits),
        diverged: bad_spring | bad_particle,
    }
}

/// Pass 1: the force spring j (particles j, j+1) pulls particle j with, into f[j + 1], for
/// every spring; f[0] and every entry from f[n] on stay zero, so particle i's net spring force
/// is f[i + 1] − f[i] with no special cases at the ends. Returns the largest stretch's bits and
/// whether any spring diverged.
///
/// The reductions are integer so they do not pin the loop to scalar order: the bits of
/// non-negative floats order exactly like the floats, and an integer max or OR can be done in
/// any order (a float max or sum could not).
#[inline(always)]
pub(super) fn springs(k: &Coefficients, s: &mut State<'_>) -> (u32, bool) {
    let springs = s.n.saturating_sub(1);
    let len = springs.div_ceil(LANES) * LANES;
    let (xa, xb) = (chunks(&s.x[..len]), chunks(&s.x[1..=len]));
    let (ya, yb) = (chunks(&s.y[..len]), chunks(&s.y[1..=len]));
    let (ua, ub) = (chunks(&s.vx[..len]), chunks(&s.vx[1..=len]));
    let (wa, wb) = (chunks(&s.vy[..len]), chunks(&s.vy[1..=len]));
    let fx = s.fx[1..=len].as_chunks_mut::<LANES>().0;
    let fy = s.fy[1..=len].as_chunks_mut::<LANES>().0;
    let mut worst_bits = 0u32;
    let mut bad = false;
    for c in 0..len / LANES {
        for l in 0..LANES {
            let real = c * LANES + l < springs;
            let d = (xb[c][l] - xa[c][l], yb[c][l] - ya[c][l]);
            let dv = (ub[c][l] - ua[c][l], wb[c][l] - wa[c][l]);
            let (f, stretch) = spring(k, d, dv, real);
            bad |= stretch.is_nan() | (stretch > EXPLODE_STRETCH);
            worst_bits = worst_bits.max(stretch.to_bits());
            (fx[c][l], fy[c][l]) = f;
        }
    }
    (worst_bits, bad)
}

/// One spring from its end-to-end offset `d` and the difference of its ends' velocities
/// `dv`: the force it pulls its first particle with, and its stretch (both zero unless it is
/// `real`, not padding). Shared by the Euler and RK4 steps, so both see the same spring.
#[inline(always)]
pub(super) fn spring(
    k: &Coefficients,
    d: (f32, f32),
    dv: (f32, f32),
    real: bool,
) -> ((f32, f32), f32) {
    let dx = flush(d.0, k.floor_len);
    let dy = flush(d.1, k.floor_len);
    let length = (dx * dx + dy * dy).sqrt();
    let stretch = if real { length * k.inv_rest } else { 0.0 };
    // The damping term's numerator, c·(Δv·d), does not wait for the square root and the
    // division: dividing by the length once at the end keeps the chain from the positions to
    // the force short, which is what a small rope's step waits on.
    let damping = k.c * (dv.0 * dx + dv.1 * dy);
    let inv_len = if length > 0.0 { 1.0 / length } else { 0.0 };
    let (ux, uy) = (dx * inv_len, dy * inv_len);
    let pull = k.k * (length - k.rest) + damping * inv_len;
    let f = if real {
        (ux * pull, uy * pull)
    } else {
        (0.0, 0.0)
    };
    (f, stretch)
}

/// Pass 2: semi-implicit Euler — velocity first, then position with the new velocity — with
/// the drag applied exactly as exp(−rate·dt) and the rest rule on the new velocity. Padding
/// particles keep their state. Returns whether any position is not finite.
///
/// Chunks wholly of real particles are stored whole; only the last, part padding, chooses lane
/// by lane. (A store that keeps some lanes compiles to a masked store, which AMD's cores run
/// many times slower than a plain one; the default rope is one whole chunk.)
#[inline(always)]
fn kick_and_drift(k: &Coefficients, s: State<'_>) -> bool {
    let n = s.n;
    let len = n.div_ceil(LANES) * LANES;
    let (fx_in, fx_out) = (chunks(&s.fx[1..=len]), chunks(&s.fx[..len]));
    let (fy_in, fy_out) = (chunks(&s.fy[1..=len]), chunks(&s.fy[..len]));
    let x = s.x[..len].as_chunks_mut::<LANES>().0;
    let y = s.y[..len].as_chunks_mut::<LANES>().0;
    let vx = s.vx[..len].as_chunks_mut::<LANES>().0;
    let vy = s.vy[..len].as_chunks_mut::<LANES>().0;
    let mut bad = false;
    for c in 0..len / LANES {
        let whole = (c + 1) * LANES <= n;
        for l in 0..LANES {
            let u = (vx[c][l] + (fx_in[c][l] - fx_out[c][l]) * k.kick) * k.decay;
            let w = (vy[c][l] + k.gravity_dv + (fy_in[c][l] - fy_out[c][l]) * k.kick) * k.decay;
            let (u, w) = (flush(u, k.floor_speed), flush(w, k.floor_speed));
            let (nx, ny) = (x[c][l] + u * k.dt, y[c][l] + w * k.dt);
            if whole {
                (vx[c][l], vy[c][l], x[c][l], y[c][l]) = (u, w, nx, ny);
                bad |= !(nx.is_finite() & ny.is_finite());
            } else {
                let real = c * LANES + l < n;
                vx[c][l] = if real { u } else { vx[c][l] };
                vy[c][l] = if real { w } else { vy[c][l] };
                x[c][l] = if real { nx } else { x[c][l] };
                y[c][l] = if real { ny } else { y[c][l] };
                bad |= real & !(nx.is_finite() & ny.is_finite());
            }
        }
    }
    bad
}

/// `s` as whole chunks of [`LANES`] (its length is always a multiple).
#[inline(always)]
pub(super) fn chunks(s: &[f32]) -> &[[f32; LANES]] {
    s.as_chunks::<LANES>().0
}
