//! Godot's physics jitter fix: how many fixed ticks each frame runs, chosen so that the tick
//! counts of every window of the last 12 frames stay "typical", borrowing or lending up to
//! `J` ticks of time to get there, with the difference carried as a deficit so that game
//! time stays within `J` ticks of wall time.
//!
//! Reimplemented from the rules of Godot 4.3-stable `main/main_timer_sync.cpp`
//! (`MainTimerSync::advance_core` 342-422, `get_average_physics_steps` 318-339,
//! `advance_checked` 425-498; `CONTROL_STEPS` = 12 in `main_timer_sync.h`), in integer
//! units of `1/den` ns (the tick's [`Tick`] units, exact for a rate's tick) where Godot uses
//! `f64` seconds. The header explains the 12: it is what 60 ticks
//! on a 144 Hz display need (5 ticks in every 12 frames).

use crate::tick::{Tick, div_euclid, signed_to_f64};
use crate::units::round;

/// Frames of history (`CONTROL_STEPS`).
pub const CONTROL_STEPS: usize = 12;

/// The jitter fix's state for one lane. Times are in units of `1/den` ns, `den` the tick's.
#[derive(Clone, Debug, PartialEq)]
pub struct JitterFix {
    /// Units in a ns.
    den: i128,
    tick_ns: i128,
    /// `J × tick`: how far game time may be from wall time.
    j_ns: i128,
    /// Game time not yet consumed by ticks (`time_accum`): in [0, tick] after a frame.
    accum_ns: i128,
    /// Wall time not yet handed out (`time_deficit`), signed.
    deficit_ns: i128,
    /// Ticks run in the last i + 1 frames (index 0: the latest frame).
    accumulated: [i128; CONTROL_STEPS],
    /// The lower bound `accumulated[i]` is expected to keep to (or one above it).
    typical: [i128; CONTROL_STEPS],
}

impl JitterFix {
    /// `permille` is Godot's `physics_jitter_fix` in thousandths (0.5 is 500).
    pub fn new(tick: impl Into<Tick>, permille: u32) -> JitterFix {
        let tick = tick.into();
        let tick_ns = tick.in_units() as i128;
        let start: [i128; CONTROL_STEPS] = std::array::from_fn(|i| i as i128);
        JitterFix {
            den: i128::from(tick.den()),
            tick_ns,
            j_ns: tick_ns * i128::from(permille) / 1000,
            accum_ns: 0,
            deficit_ns: 0,
            accumulated: start,
            typical: start,
        }
    }

    /// Game time already past the last tick, as a fraction of a tick, in [0, 1]
    /// (`interpolation_fraction`).
    pub fn fraction(&self) -> f64 {
        signed_to_f64(self.accum_ns) / signed_to_f64(self.tick_ns)
    }

    /// `time_accum`, ns (rounded down): in [0, tick] between frames.
    pub fn accum_ns(&self) -> i64 {
        self.ns(self.accum_ns)
    }

    /// Everything measured and not yet consumed by a tick: `time_accum + time_deficit`, ns
    /// (rounded down).
    pub fn remainder_ns(&self) -> i64 {
        self.ns(self.remainder_units())
    }

    /// `time_accum` in units of 1/den ns, exactly.
    pub fn accum_units(&self) -> i128 {
        self.accum_ns
    }

    /// [`JitterFix::remainder_ns`] in units of 1/den ns, exactly.
    pub fn remainder_units(&self) -> i128 {
        self.accum_ns + self.deficit_ns
    }

    fn ns(&self, units: i128) -> i64 {
        div_euclid(units, self.den).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }

    /// One frame of `dt_ns` measured time (`advance_checked`): the ticks to run.
    pub fn advance(&mut self, dt_ns: u64) -> u64 {
        let raw = i128::from(dt_ns) * self.den;
        // Godot keeps the output step above max(dt / 8, 1 µs), in an f32.
        let min_out = (raw / 8).max(1_000 * self.den);
        let dt = raw + self.deficit_ns;
        let accum_before = self.accum_ns;
        let mut n = self.core(dt);
        // `k`: the process step that would leave exactly the ticks' worth of time consumed.
        let k = n * self.tick_ns - accum_before;
        let mut step = dt;
        let (windows, low, high) = self.average_steps();
        if windows > 3 {
            step = clamp_step(step, low, high);
        }
        step = clamp_step(step, dt - self.j_ns, dt + self.j_ns);
        step = clamp_step(step, k, k + self.tick_ns);
        step = step.max(min_out);
        self.accum_ns = step - k;
        if self.accum_ns > self.tick_ns {
            let extra = div_euclid(self.accum_ns, self.tick_ns);
            self.accum_ns -= extra * self.tick_ns;
            n += extra;
        }
        self.deficit_ns = dt - step;
        u64::try_from(n.max(0)).unwrap_or(u64::MAX)
    }

    /// `advance_core`: ticks for `dt` (deficit included), held to the typical counts of every
    /// window of the history when that costs at most `J` ticks of time.
    fn core(&mut self, dt: i128) -> i128 {
        self.accum_ns += dt;
        let tick = self.tick_ns;
        let mut n = div_euclid(self.accum_ns, tick);
        let (mut lo, mut hi) = (self.typical[0], self.typical[0] + 1);
        let mut retune = false;
        for i in 0..CONTROL_STEPS - 1 {
            let need = self.typical[i + 1] - self.accumulated[i];
            if need > hi || need + 1 < lo {
                retune = true;
                break;
            }
            lo = lo.max(need);
            hi = hi.min(need + 1);
        }
        if n < lo {
            let most = div_euclid(self.accum_ns + self.j_ns, tick);
            (n, retune) = if most < lo {
                (most, true)
            } else {
                (lo, retune)
            };
        } else if n > hi {
            let least = div_euclid(self.accum_ns - self.j_ns, tick);
            (n, retune) = if least > hi {
                (least, true)
            } else {
                (hi, retune)
            };
        }
        let n = n.max(0);
        self.accum_ns -= n * tick;
        for i in (0..CONTROL_STEPS - 1).rev() {
            self.accumulated[i + 1] = self.accumulated[i] + n;
        }
        self.accumulated[0] = n;
        if retune {
            for (t, a) in self.typical.iter_mut().zip(&self.accumulated) {
                *t = (*t).clamp(a - 1, *a);
            }
        }
        n
    }

    /// `get_average_physics_steps`: over how many frames the typical counts agree, and the
    /// range of time per frame they allow, ns.
    fn average_steps(&self) -> (usize, i128, i128) {
        let tick = signed_to_f64(self.tick_ns);
        let mut low = signed_to_f64(self.typical[0]);
        let mut high = low + 1.0;
        let ns = |steps: f64| whole(round(steps * tick));
        for i in 1..CONTROL_STEPS {
            let frames = (i + 1) as f64;
            let a = signed_to_f64(self.typical[i]) / frames;
            if a > high {
                return (i, ns(low), ns(high));
            }
            low = low.max(a);
            let b = signed_to_f64(self.typical[i] + 1) / frames;
            if b < low {
                return (i, ns(low), ns(high));
            }
            high = high.min(b);
        }
        (CONTROL_STEPS, ns(low), ns(high))
    }
}

/// `x as i128` for a whole `x` (saturating), through `i64` where it fits: the 128-bit
/// conversion is a library call.
fn whole(x: f64) -> i128 {
    // Within ±2^62 the i64 conversion is exact, as the i128 one is.
    if x.abs() < 4.611_686_018_427_388e18 {
        i128::from(x as i64)
    } else {
        x as i128
    }
}

/// Godot's `clamp_process_step`: `lo` if below, else `hi` if above (the later clamp wins).
fn clamp_step(x: i128, lo: i128, hi: i128) -> i128 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICK: u64 = 16_666_667;

    #[test]
    fn without_the_fix_it_is_a_plain_accumulator() {
        let mut j = JitterFix::new(TICK, 0);
        let mut total = 0;
        for frame in [10_000_000u64, 20_000_000, 16_000_000, 40_000_000] {
            total += frame;
            j.advance(frame);
        }
        assert_eq!(j.remainder_ns(), (total % TICK) as i64);
        assert_eq!(j.deficit_ns, 0);
    }

    #[test]
    fn sixty_ticks_on_144_hz_settle_to_exactly_five_in_every_twelve_frames() {
        // Timer noise of ±1 ms on every frame: a plain accumulator breaks the rhythm, the fix
        // holds it (Godot's header: 12 frames is what 144 Hz with 60 ticks needs).
        let mut j = JitterFix::new(TICK, 500);
        let period = 1e9 / 144.0;
        let mut rng = fastrand::Rng::with_seed(9);
        let (mut last, mut counts) = (0u64, Vec::new());
        for k in 1..20_000u64 {
            let t = (k as f64 * period) as i64 + rng.i64(-1_000_000..=1_000_000);
            let t = (t.max(0) as u64).max(last);
            counts.push(j.advance(t - last));
            last = t;
            assert!(
                j.deficit_ns.abs() <= j.j_ns,
                "the deficit stays within J ticks"
            );
            assert!((0.0..=1.0).contains(&j.fraction()));
        }
        let windows: Vec<u64> = counts
            .windows(12)
            .skip(1_000)
            .map(|w| w.iter().sum())
            .collect();
        assert!(windows.iter().all(|&w| w == 5), "{:?}", &windows[..40]);
    }
}
