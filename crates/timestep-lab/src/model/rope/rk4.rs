//! One classical RK4 step of the whole chain, over the same struct-of-arrays state as
//! `euler.rs` and with its spring formula.
//!
//! RK4 integrates x' = v, v' = (spring + spring-damping forces)/m + g: four evaluations of the
//! forces, at the start, twice at the midpoint and at the end, combined as (k1 + 2k2 + 2k3 +
//! k4)/6. The per-particle drag is split off and applied exactly, as in the Euler step: after
//! the RK4 step every velocity is multiplied by exp(−rate·h) (first-order splitting; the drag is
//! linear and acts on each particle alone, so this is the exact solution of its part). Pins and
//! a held particle are put back at every stage, so no stage ever sees them move. The rest rule
//! applies to the spring offsets (in the spring formula) and to the new velocities.
//!
//! Each stage is one pass: a chunk's springs are worked out in registers and turned into
//! accelerations at once (the last spring's force carried to the next chunk), so no force array
//! is written and read back. Stages alternate between two buffers, and the last stage writes the
//! step's result straight into the rope: four passes in all, which matters once the rope no
//! longer fits in cache.
//!
//! Like the Euler step it is compiled for baseline x86-64, AVX2 and AVX-512 with no operation
//! reordered between them, so states are bit-identical on every build.

use super::euler::{Coefficients, LANES, Outcome, State, chunks, flush, spring};
use super::params::EXPLODE_STRETCH;
use glam::Vec2;

type Chunk = [f32; LANES];

/// Two stage buffers and the weighted sum of the stages' derivatives (x, y, vx, vy each),
/// padded like the rope's arrays: allocated once per rope, reused every step.
#[derive(Clone, Debug, PartialEq)]
pub struct Scratch {
    stage: [[Vec<f32>; 4]; 2],
    sum: [Vec<f32>; 4],
}

impl Scratch {
    pub fn new(padded: usize) -> Scratch {
        let four = || std::array::from_fn(|_| vec![0.0; padded]);
        Scratch {
            stage: [four(), four()],
            sum: four(),
        }
    }
}

/// What holds particles in place: the pins and a held particle (each its position and
/// velocity: a driven pin moves).
pub struct Constraints<'a> {
    pub pins: &'a [(usize, Vec2, Vec2)],
    pub held: Option<(usize, Vec2, Vec2)>,
}

impl Constraints<'_> {
    fn apply(&self, [x, y, u, w]: &mut [Vec<f32>; 4]) {
        for &(i, p, v) in self.pins.iter().chain(&self.held) {
            (x[i], y[i], u[i], w[i]) = (p.x, p.y, v.x, v.y);
        }
    }
}

/// Takes one RK4 step of `s`'s state (the force arrays in `s` are not used). Pins and a held
/// particle are the caller's to restore afterwards, as with Euler.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl+avx512bw+avx512dq+avx2+fma",
    "x86_64+avx2+fma"
))]
pub fn step(
    k: &Coefficients,
    s: State<'_>,
    scratch: &mut Scratch,
    hold: &Constraints<'_>,
) -> Outcome {
    let Scratch { stage, sum } = scratch;
    let [a, b] = stage;
    let mut watch = Watch::default();
    let base = [s.x, s.y, s.vx, s.vy];
    // k1 at the step's start, k2 and k3 at the midpoint, k4 at the end.
    let half = 0.5 * k.dt;
    pass::<true>(
        k,
        s.n,
        &mut watch,
        view(&base),
        view(&base),
        sum,
        a,
        1.0,
        half,
    );
    hold.apply(a);
    pass::<false>(k, s.n, &mut watch, view(a), view(&base), sum, b, 2.0, half);
    hold.apply(b);
    pass::<false>(k, s.n, &mut watch, view(b), view(&base), sum, a, 2.0, k.dt);
    hold.apply(a);
    last(k, s.n, &mut watch, view(a), sum, base);
    Outcome {
        worst_stretch: f32::from_bits(watch.worst_bits),
        diverged: watch.bad,
    }
}

fn view<T: AsRef<[f32]>>(arrays: &[T; 4]) -> [&[f32]; 4] {
    arrays.each_ref().map(AsRef::as_ref)
}

/// What the passes saw: the largest stretch at the step's start (as bits, see
/// `euler::springs`) and whether anything diverged at any stage.
#[derive(Default)]
struct Watch {
    worst_bits: u32,
    bad: bool,
}

/// The accelerations of chunk `c` of the stage `at`: each spring's force from `euler::spring`,
/// particle i's net force f[i] − f[i−1] (f[i] the pull of spring i on particle i; `carry`
/// holds the previous chunk's last spring), over m, plus gravity. Padding gets zero. With
/// `START`, the stretches feed the watch's worst.
#[inline(always)]
fn accelerations<const START: bool>(
    k: &Coefficients,
    n: usize,
    c: usize,
    at: &[&[f32]; 4],
    carry: &mut [f32; 2],
    watch: &mut Watch,
) -> (Chunk, Chunk) {
    let springs = n.saturating_sub(1);
    let i0 = c * LANES;
    let here = |a: &[f32]| -> Chunk { chunks(&a[i0..i0 + LANES])[0] };
    let ahead = |a: &[f32]| -> Chunk { chunks(&a[i0 + 1..=i0 + LANES])[0] };
    let (ax, ay, au, aw) = (here(at[0]), here(at[1]), here(at[2]), here(at[3]));
    let (bx, by, bu, bw) = (ahead(at[0]), ahead(at[1]), ahead(at[2]), ahead(at[3]));
    let mut fx = [0.0; LANES];
    let mut fy = [0.0; LANES];
    let mut bad = false;
    let mut worst = 0u32;
    for l in 0..LANES {
        let d = (bx[l] - ax[l], by[l] - ay[l]);
        let dv = (bu[l] - au[l], bw[l] - aw[l]);
        let (f, stretch) = spring(k, d, dv, i0 + l < springs);
        (fx[l], fy[l]) = f;
        bad |= stretch.is_nan() | (stretch > EXPLODE_STRETCH);
        worst = worst.max(stretch.to_bits());
    }
    watch.bad |= bad;
    if START {
        watch.worst_bits = watch.worst_bits.max(worst);
    }
    let px = shifted(&fx, carry[0]);
    let py = shifted(&fy, carry[1]);
    let mask = |l: usize, a: f32| if i0 + l < n { a } else { 0.0 };
    let du = zip(&fx, &px, |l, f, p| mask(l, (f - p) * k.inv_mass));
    let dw = zip(&fy, &py, |l, f, p| {
        mask(l, (f - p) * k.inv_mass + k.gravity)
    });
    *carry = [fx[LANES - 1], fy[LANES - 1]];
    (du, dw)
}

/// Mutable chunk views of four padded arrays, cut to `len`.
fn chunked<T: AsMut<[f32]>>(arrays: &mut [T; 4], len: usize) -> [&mut [Chunk]; 4] {
    arrays
        .each_mut()
        .map(|a| a.as_mut()[..len].as_chunks_mut::<LANES>().0)
}

/// One stage but the last: the derivative of the stage `at` — velocity; acceleration — goes
/// into the sum (the first stage, `FIRST`, starts it; later ones add `weight` times theirs) and
/// `next` becomes `base + h·derivative`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn pass<const FIRST: bool>(
    k: &Coefficients,
    n: usize,
    watch: &mut Watch,
    at: [&[f32]; 4],
    base: [&[f32]; 4],
    sum: &mut [Vec<f32>; 4],
    next: &mut [Vec<f32>; 4],
    weight: f32,
    h: f32,
) {
    let len = n.div_ceil(LANES) * LANES;
    let [sx, sy, su, sw] = chunked(sum, len);
    let [nx, ny, nu, nw] = chunked(next, len);
    let [bx, by, bu, bw] = base.map(|b| chunks(&b[..len]));
    let (vu, vw) = (chunks(&at[2][..len]), chunks(&at[3][..len]));
    let mut carry = [0.0; 2];
    // Each chunk is read into registers, worked on whole and written back whole: with a dozen
    // arrays in play, element-wise stores would leave the compiler unsure they do not alias.
    for c in 0..len / LANES {
        let (du, dw) = accelerations::<FIRST>(k, n, c, &at, &mut carry, watch);
        let (u, w) = (vu[c], vw[c]);
        if FIRST {
            (sx[c], sy[c], su[c], sw[c]) = (u, w, du, dw);
        } else {
            let add = |_, acc: f32, d: f32| acc + weight * d;
            (sx[c], sy[c]) = (zip(&sx[c], &u, add), zip(&sy[c], &w, add));
            (su[c], sw[c]) = (zip(&su[c], &du, add), zip(&sw[c], &dw, add));
        }
        let ahead = |_, b: f32, d: f32| b + h * d;
        (nx[c], ny[c]) = (zip(&bx[c], &u, ahead), zip(&by[c], &w, ahead));
        (nu[c], nw[c]) = (zip(&bu[c], &du, ahead), zip(&bw[c], &dw, ahead));
    }
}

/// The last stage, written straight into the rope: with Σ the sum plus this stage's
/// derivative, x += h/6·Σ and v = (v + h/6·Σ)·exp(−rate·h), the rest rule on v. Padding keeps
/// its state; a position that is not finite marks the step diverged.
#[inline(always)]
fn last(
    k: &Coefficients,
    n: usize,
    watch: &mut Watch,
    at: [&[f32]; 4],
    sum: &[Vec<f32>; 4],
    mut base: [&mut [f32]; 4],
) {
    let len = n.div_ceil(LANES) * LANES;
    let sixth = k.dt / 6.0;
    let [sx, sy, su, sw] = sum.each_ref().map(|a| chunks(&a[..len]));
    let (vu, vw) = (chunks(&at[2][..len]), chunks(&at[3][..len]));
    let [x, y, u, w] = chunked(&mut base, len);
    let mut carry = [0.0; 2];
    for c in 0..len / LANES {
        let (du, dw) = accelerations::<false>(k, n, c, &at, &mut carry, watch);
        // Σ = the sum so far plus this stage's derivative (its weight is 1).
        let total = |_, acc: f32, d: f32| acc + d;
        let (tx, ty) = (zip(&sx[c], &vu[c], total), zip(&sy[c], &vw[c], total));
        let (tu, tw) = (zip(&su[c], &du, total), zip(&sw[c], &dw, total));
        let (xc, yc, uc, wc) = (x[c], y[c], u[c], w[c]);
        let drift = |_, p: f32, t: f32| p + sixth * t;
        let (nx, ny) = (zip(&xc, &tx, drift), zip(&yc, &ty, drift));
        let settle = |_, v: f32, t: f32| flush((v + sixth * t) * k.decay, k.floor_speed);
        let (nu, nw) = (zip(&uc, &tu, settle), zip(&wc, &tw, settle));
        let keep = |l: usize, new: f32, old: f32| if c * LANES + l < n { new } else { old };
        (x[c], y[c]) = (zip(&nx, &xc, keep), zip(&ny, &yc, keep));
        (u[c], w[c]) = (zip(&nu, &uc, keep), zip(&nw, &wc, keep));
        let mut bad = false;
        for l in 0..LANES {
            bad |= (c * LANES + l < n) & !(nx[l].is_finite() & ny[l].is_finite());
        }
        watch.bad |= bad;
    }
}

/// `f(lane, a, b)` for every lane.
#[inline(always)]
fn zip(a: &Chunk, b: &Chunk, f: impl Fn(usize, f32, f32) -> f32) -> Chunk {
    let mut out = [0.0; LANES];
    for l in 0..LANES {
        out[l] = f(l, a[l], b[l]);
    }
    out
}

/// `f` moved up one lane, `first` in lane 0.
#[inline(always)]
fn shifted(f: &Chunk, first: f32) -> Chunk {
    let mut out = [first; LANES];
    out[1..].copy_from_slice(&f[..LANES - 1]);
    out
}
