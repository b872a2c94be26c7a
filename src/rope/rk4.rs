//! One classical RK4 step of the whole chain, over the same struct-of-arrays state as
//! `euler.rs` and with its spring pass.
//!
//! RK4 integrates x' = v, v' = (spring + spring-damping forces)/m + g: four evaluations of the
//! forces, at the start, twice at the midpoint and at the end, combined as (k1 + 2k2 + 2k3 +
//! k4)/6. The per-particle drag is split off and applied exactly, as in the Euler step: after
//! the RK4 step every velocity is multiplied by exp(−rate·h) (first-order splitting; the drag is
//! linear and acts on each particle alone, so this is the exact solution of its part). Pins and
//! a held particle are put back at every stage, so no stage ever sees them move. The rest rule
//! applies to the spring offsets (in the spring pass) and to the new velocities.
//!
//! Like the Euler step it is compiled for baseline x86-64, AVX2 and AVX-512 with no operation
//! reordered between them, so states are bit-identical on every build.

use super::euler::{Coefficients, LANES, Outcome, State, chunks, flush, springs};
use glam::Vec2;

/// Stage state, the weighted sum of the stages' derivatives and the spring forces, each
/// padded like the rope's arrays: allocated once per rope, reused every step.
#[derive(Clone, Debug, PartialEq)]
pub struct Scratch {
    stage: [Vec<f32>; 4],
    sum: [Vec<f32>; 4],
    fx: Vec<f32>,
    fy: Vec<f32>,
}

impl Scratch {
    pub fn new(padded: usize) -> Scratch {
        let zeros = || vec![0.0; padded];
        Scratch {
            stage: [zeros(), zeros(), zeros(), zeros()],
            sum: [zeros(), zeros(), zeros(), zeros()],
            fx: zeros(),
            fy: zeros(),
        }
    }
}

/// What holds particles in place: the pins (at rest) and a held particle (its position and
/// velocity).
pub struct Constraints<'a> {
    pub pins: &'a [(usize, Vec2)],
    pub held: Option<(usize, Vec2, Vec2)>,
}

impl Constraints<'_> {
    fn apply(&self, x: &mut [f32], y: &mut [f32], u: &mut [f32], w: &mut [f32]) {
        let pinned = self.pins.iter().map(|&(i, p)| (i, p, Vec2::ZERO));
        for (i, p, v) in pinned.chain(self.held) {
            (x[i], y[i], u[i], w[i]) = (p.x, p.y, v.x, v.y);
        }
    }
}

/// Takes one RK4 step of `s`'s state (the force arrays in `s` are not used; `scratch` has its
/// own). Pins and a held particle are the caller's to restore afterwards, as with Euler.
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
    let n = s.n;
    let len = n.div_ceil(LANES) * LANES;
    let Scratch { stage, sum, fx, fy } = scratch;
    let [sx, sy, su, sw] = stage;
    // k1, at the step's start: the forces of the state itself.
    let (worst_bits, mut bad) = springs(
        k,
        &mut State {
            n,
            x: s.x,
            y: s.y,
            vx: s.vx,
            vy: s.vy,
            fx,
            fy,
        },
    );
    let base = [&*s.x, &*s.y, &*s.vx, &*s.vy];
    let mut next = [&mut **sx, &mut **sy, &mut **su, &mut **sw];
    derive::<true, true>(k, len, n, (fx, fy), base, &mut next, sum, 1.0, 0.5 * k.dt);
    hold.apply(sx, sy, su, sw);
    // k2 and k3 at the midpoint, k4 at the end.
    for (weight, to) in [(2.0, Some(0.5)), (2.0, Some(1.0)), (1.0, None)] {
        let mut at = State {
            n,
            x: sx,
            y: sy,
            vx: su,
            vy: sw,
            fx,
            fy,
        };
        bad |= springs(k, &mut at).1;
        let mut next = [&mut **sx, &mut **sy, &mut **su, &mut **sw];
        match to {
            Some(c) => {
                derive::<false, true>(k, len, n, (fx, fy), base, &mut next, sum, weight, c * k.dt)
            }
            None => derive::<false, false>(k, len, n, (fx, fy), base, &mut next, sum, weight, 0.0),
        }
        if to.is_some() {
            hold.apply(sx, sy, su, sw);
        }
    }
    bad |= finish(k, len, n, sum, s);
    Outcome {
        worst_stretch: f32::from_bits(worst_bits),
        diverged: bad,
    }
}

/// One stage, whose state is `stage` (the step's start, `base`, for the first): its
/// derivative — velocity; force/m + gravity — goes into the sum (the first stage starts it;
/// later ones add `weight` times theirs), and unless this is the last stage, `stage` becomes
/// the next one, `base + h·derivative`. Branch-free inner loop: `FIRST` and `NEXT` are
/// constants.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn derive<const FIRST: bool, const NEXT: bool>(
    k: &Coefficients,
    len: usize,
    n: usize,
    (fx, fy): (&[f32], &[f32]),
    base: [&[f32]; 4],
    stage: &mut [&mut [f32]; 4],
    sum: &mut [Vec<f32>; 4],
    weight: f32,
    h: f32,
) {
    let (fx_in, fx_out) = (chunks(&fx[1..=len]), chunks(&fx[..len]));
    let (fy_in, fy_out) = (chunks(&fy[1..=len]), chunks(&fy[..len]));
    let [bx, by, bu, bw] = base.map(|b| chunks(&b[..len]));
    let [sx, sy, su, sw] = stage;
    let (sx, sy) = (
        sx[..len].as_chunks_mut::<LANES>().0,
        sy[..len].as_chunks_mut::<LANES>().0,
    );
    let (su, sw) = (
        su[..len].as_chunks_mut::<LANES>().0,
        sw[..len].as_chunks_mut::<LANES>().0,
    );
    let [ax, ay, au, aw] = sum;
    let (ax, ay) = (
        ax[..len].as_chunks_mut::<LANES>().0,
        ay[..len].as_chunks_mut::<LANES>().0,
    );
    let (au, aw) = (
        au[..len].as_chunks_mut::<LANES>().0,
        aw[..len].as_chunks_mut::<LANES>().0,
    );
    // Each chunk is read into registers, worked on whole and written back whole: with a dozen
    // arrays in play, element-wise stores would leave the compiler unsure they do not alias.
    for c in 0..len / LANES {
        let (vx, vy) = if FIRST {
            (bu[c], bw[c])
        } else {
            (su[c], sw[c])
        };
        let real = |l: usize| c * LANES + l < n;
        let du: [f32; LANES] = std::array::from_fn(|l| {
            let a = (fx_in[c][l] - fx_out[c][l]) * k.inv_mass;
            if real(l) { a } else { 0.0 }
        });
        let dw: [f32; LANES] = std::array::from_fn(|l| {
            let a = (fy_in[c][l] - fy_out[c][l]) * k.inv_mass + k.gravity;
            if real(l) { a } else { 0.0 }
        });
        let (bxc, byc, buc, bwc) = (bx[c], by[c], bu[c], bw[c]);
        if FIRST {
            (ax[c], ay[c], au[c], aw[c]) = (vx, vy, du, dw);
        } else {
            let add = |acc: [f32; LANES], d: [f32; LANES]| -> [f32; LANES] {
                std::array::from_fn(|l| acc[l] + weight * d[l])
            };
            ax[c] = add(ax[c], vx);
            ay[c] = add(ay[c], vy);
            au[c] = add(au[c], du);
            aw[c] = add(aw[c], dw);
        }
        if NEXT {
            let ahead = |b: [f32; LANES], d: [f32; LANES]| -> [f32; LANES] {
                std::array::from_fn(|l| b[l] + h * d[l])
            };
            sx[c] = ahead(bxc, vx);
            sy[c] = ahead(byc, vy);
            su[c] = ahead(buc, du);
            sw[c] = ahead(bwc, dw);
        }
    }
}

/// The step's end: x += h/6·Σ, v = (v + h/6·Σ)·exp(−rate·h), the rest rule on v. Returns
/// whether any position is not finite.
#[inline(always)]
fn finish(k: &Coefficients, len: usize, n: usize, sum: &[Vec<f32>; 4], s: State<'_>) -> bool {
    let sixth = k.dt / 6.0;
    let [ax, ay, au, aw] = sum.each_ref().map(|a| chunks(&a[..len]));
    let x = s.x[..len].as_chunks_mut::<LANES>().0;
    let y = s.y[..len].as_chunks_mut::<LANES>().0;
    let vx = s.vx[..len].as_chunks_mut::<LANES>().0;
    let vy = s.vy[..len].as_chunks_mut::<LANES>().0;
    let mut bad = false;
    for c in 0..len / LANES {
        let real = |l: usize| c * LANES + l < n;
        let (xc, yc, uc, wc) = (x[c], y[c], vx[c], vy[c]);
        let (axc, ayc, auc, awc) = (ax[c], ay[c], au[c], aw[c]);
        let nx: [f32; LANES] = std::array::from_fn(|l| xc[l] + sixth * axc[l]);
        let ny: [f32; LANES] = std::array::from_fn(|l| yc[l] + sixth * ayc[l]);
        let u: [f32; LANES] =
            std::array::from_fn(|l| flush((uc[l] + sixth * auc[l]) * k.decay, k.floor_speed));
        let w: [f32; LANES] =
            std::array::from_fn(|l| flush((wc[l] + sixth * awc[l]) * k.decay, k.floor_speed));
        x[c] = std::array::from_fn(|l| if real(l) { nx[l] } else { xc[l] });
        y[c] = std::array::from_fn(|l| if real(l) { ny[l] } else { yc[l] });
        vx[c] = std::array::from_fn(|l| if real(l) { u[l] } else { uc[l] });
        vy[c] = std::array::from_fn(|l| if real(l) { w[l] } else { wc[l] });
        for l in 0..LANES {
            bad |= real(l) & !(nx[l].is_finite() & ny[l].is_finite());
        }
    }
    bad
}
