//! The measuring, on a [`Machine`]: what one clock read costs and how fine the clock's steps
//! are, and how late sleeps wake. [`RealWall`] is `Instant`, `std::thread::sleep` and
//! spin_sleep; the tests drive a fake clock whose sleeps overshoot by known amounts.

use super::plan::{Plan, REQUESTS_NS};
use crate::protocol::machine::Sleep;
use crate::protocol::wall::{RealWall, Wall};
use spin_sleep::SpinSleeper;
use std::sync::atomic::{AtomicBool, Ordering};

/// A wall that can wait both ways: what the probe measures.
pub trait Machine: Wall {
    /// Waits `ns` the way `how` says.
    fn sleep_as(&mut self, how: Sleep, ns: u64);
}

impl Machine for RealWall {
    fn sleep_as(&mut self, how: Sleep, ns: u64) {
        RealWall::sleep_as(self, how, ns);
    }
}

/// spin_sleep's native accuracy on this OS, ns: it sleeps natively until this close to the
/// deadline, then spins. Its setting, not a measurement: in spin_sleep 1.3,
/// `SpinSleeper::default()` takes `DEFAULT_NATIVE_SLEEP_ACCURACY`, 125 µs, off Windows
/// (`src/lib.rs`); on Windows, `sleep_accuracy()` (`src/windows.rs`) gives 700 µs with the
/// high-resolution waitable timer (Windows 10 1803 and later), else the shortest timer period
/// (`timeGetDevCaps`, usually 1 ms).
pub fn spin_threshold_ns() -> u64 {
    u64::from(SpinSleeper::default().native_accuracy_ns())
}

/// Clock reads in one batch. A batch's span over its reads is one read's cost; at this count
/// the span is far above a coarse clock's step (Windows' 100 ns).
pub const BATCH: usize = 1_000;
/// Most batches read: a long budget reads no further.
const MAX_BATCHES: usize = 100_000;

/// The clock as measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockFigures {
    /// One read, ns: the median over batches of back-to-back reads of a batch's span / reads.
    pub read_ns: f64,
    /// The smallest nonzero difference seen between two consecutive readings, ns; `None` if
    /// the clock never moved.
    pub resolution_ns: Option<u64>,
    /// Reads timed.
    pub reads: u64,
}

/// Reads the clock back to back in batches until it says `until_ns` (at least one batch), or
/// `stop` is set.
pub fn measure_clock<M: Machine>(m: &mut M, until_ns: u64, stop: &AtomicBool) -> ClockFigures {
    let mut readings = [0u64; BATCH + 1];
    let mut spans = Vec::new();
    let mut resolution: Option<u64> = None;
    loop {
        for r in readings.iter_mut() {
            *r = m.now_ns();
        }
        spans.push(readings[BATCH].saturating_sub(readings[0]));
        for pair in readings.windows(2) {
            let step = pair[1].saturating_sub(pair[0]);
            if step > 0 {
                resolution = Some(resolution.map_or(step, |r| r.min(step)));
            }
        }
        let done = readings[BATCH] >= until_ns || spans.len() >= MAX_BATCHES;
        if done || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    spans.sort_unstable();
    ClockFigures {
        read_ns: quantile(&spans, 0.5) as f64 / BATCH as f64,
        resolution_ns: resolution,
        reads: (spans.len() * BATCH) as u64,
    }
}

/// Sleeps of one length and one kind as measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overshoots {
    /// Woke − asked, ns, for each sleep in the order taken (0 for one that woke early).
    pub ns: Vec<u64>,
    /// Sleeps that woke before their request was up.
    pub early: u64,
}

/// The sleeps of one request, both kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestSleeps {
    pub request_ns: u64,
    pub native: Overshoots,
    pub spin: Overshoots,
}

/// Every request's sleeps, and whether Ctrl-C cut them short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sleeps {
    /// In [`REQUESTS_NS`] order.
    pub requests: Vec<RequestSleeps>,
    pub interrupted: bool,
}

/// Runs `plan`'s rounds of sleeps until they are done or the clock says `until_ns` (the first
/// round always completes), or `stop` is set. Each pair of sleeps is one native and one
/// spin_sleep of the same request, taken in alternating order. `on_round` hears the clock at
/// the end of each round.
pub fn measure_sleeps<M: Machine>(
    m: &mut M,
    plan: &Plan,
    until_ns: u64,
    stop: &AtomicBool,
    mut on_round: impl FnMut(u64),
) -> Sleeps {
    let order = plan.round_order();
    let mut sleeps = Sleeps {
        requests: REQUESTS_NS
            .iter()
            .map(|&request_ns| RequestSleeps {
                request_ns,
                native: Overshoots::default(),
                spin: Overshoots::default(),
            })
            .collect(),
        interrupted: false,
    };
    let mut native_first = true;
    for round in 0..plan.rounds {
        for &i in &order {
            if stop.load(Ordering::Relaxed) {
                sleeps.interrupted = true;
                return sleeps;
            }
            if round > 0 && m.now_ns() >= until_ns {
                return sleeps;
            }
            let r = &mut sleeps.requests[i];
            let kinds = if native_first {
                [Sleep::Native, Sleep::Spin]
            } else {
                [Sleep::Spin, Sleep::Native]
            };
            for how in kinds {
                let into = match how {
                    Sleep::Native => &mut r.native,
                    Sleep::Spin => &mut r.spin,
                };
                sleep_once(m, how, r.request_ns, into);
            }
            native_first = !native_first;
        }
        on_round(m.now_ns());
    }
    sleeps
}

/// One sleep of `request_ns`, timed from the reading before to the reading after.
fn sleep_once<M: Machine>(m: &mut M, how: Sleep, request_ns: u64, into: &mut Overshoots) {
    let before = m.now_ns();
    m.sleep_as(how, request_ns);
    let took = m.now_ns().saturating_sub(before);
    if took < request_ns {
        into.early += 1;
    }
    into.ns.push(took.saturating_sub(request_ns));
}

pub use crate::protocol::machine::profile::quantile;

/// How a list of durations spreads, ns, by [`quantile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spread {
    pub count: u64,
    pub median_ns: u64,
    pub p5_ns: u64,
    pub p95_ns: u64,
    pub max_ns: u64,
}

/// The spread of `values` (any order); `None` for none.
pub fn spread(values: &[u64]) -> Option<Spread> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let max_ns = *sorted.last()?;
    Some(Spread {
        count: sorted.len() as u64,
        median_ns: quantile(&sorted, 0.5),
        p5_ns: quantile(&sorted, 0.05),
        p95_ns: quantile(&sorted, 0.95),
        max_ns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::machine::{QUANTILES, SleepSample};
    use timestep_loop::{NS_PER_MS, NS_PER_S};

    /// The overshoot a fake sleep wakes with: (kind, request, how many of that kind and
    /// request came before) → ns, negative for an early wake.
    type Overshoot = fn(Sleep, u64, u64) -> i64;

    /// A clock that moves only when read (by `read_ns`) or slept on, and reads in whole
    /// `step_ns`; its sleeps last their request plus a known overshoot.
    struct Fake {
        now: u64,
        read_ns: u64,
        step_ns: u64,
        overshoot: Overshoot,
        taken: std::collections::HashMap<(u8, u64), u64>,
    }

    impl Fake {
        fn new(read_ns: u64, step_ns: u64, overshoot: Overshoot) -> Fake {
            Fake {
                now: 0,
                read_ns,
                step_ns,
                overshoot,
                taken: Default::default(),
            }
        }
    }

    impl Wall for Fake {
        fn now_ns(&mut self) -> u64 {
            let reading = self.now / self.step_ns * self.step_ns;
            self.now += self.read_ns;
            reading
        }
        fn sleep(&mut self, ns: u64) {
            self.sleep_as(Sleep::Spin, ns);
        }
    }

    impl Machine for Fake {
        fn sleep_as(&mut self, how: Sleep, ns: u64) {
            let k = self.taken.entry((how as u8, ns)).or_default();
            let over = (self.overshoot)(how, ns, *k);
            *k += 1;
            self.now = (self.now + ns).saturating_add_signed(over);
        }
    }

    /// Native sleeps overshoot by 50 µs plus a spread that depends on the request; spin
    /// sleeps by a few hundred ns.
    fn known(how: Sleep, request_ns: u64, k: u64) -> i64 {
        let wobble = (k * 7_919 + request_ns / 1_000) % 1_013;
        match how {
            Sleep::Native => 50_000 + 40 * wobble as i64,
            Sleep::Spin => 100 + wobble as i64,
        }
    }

    fn never() -> AtomicBool {
        AtomicBool::new(false)
    }

    #[test]
    fn measured_overshoots_are_exactly_the_fake_sleeps_overshoots() {
        let plan = Plan::new(NS_PER_S);
        let mut fake = Fake::new(0, 1, known);
        let sleeps = measure_sleeps(&mut fake, &plan, u64::MAX, &never(), |_| {});
        assert!(!sleeps.interrupted);
        for (i, r) in sleeps.requests.iter().enumerate() {
            assert_eq!(r.request_ns, REQUESTS_NS[i]);
            for (how, got) in [(Sleep::Native, &r.native), (Sleep::Spin, &r.spin)] {
                let n = plan.samples(i);
                let expected: Vec<u64> =
                    (0..n).map(|k| known(how, r.request_ns, k) as u64).collect();
                assert_eq!(got.ns, expected, "{how:?} {}", r.request_ns);
                assert_eq!(got.early, 0);
                let sample = SleepSample::from_overshoots(r.request_ns, got.ns.clone());
                let truth = SleepSample::from_overshoots(r.request_ns, expected);
                assert_eq!(sample, truth);
                assert_eq!(sample.samples, n);
            }
        }
        // The figures a reader sees, for the shortest request: nearest ranks of the sorted list.
        let native = &sleeps.requests[0].native.ns;
        let s = SleepSample::from_overshoots(REQUESTS_NS[0], native.clone());
        let mut sorted = native.clone();
        sorted.sort_unstable();
        let last = sorted.len() - 1;
        assert_eq!(s.p50_ns(), sorted[(0.5 * last as f64).round() as usize]);
        assert_eq!(s.p99_ns(), sorted[(0.99 * last as f64).round() as usize]);
        assert_eq!(s.max_ns(), sorted[last]);
        assert!(s.p50_ns() > 50_000 && s.max_ns() <= 50_000 + 40 * 1_012);
    }

    #[test]
    fn every_overshoot_includes_one_clock_read_as_a_loop_sees_it() {
        let plan = Plan::new(NS_PER_S);
        let mut fake = Fake::new(40, 1, known);
        let sleeps = measure_sleeps(&mut fake, &plan, u64::MAX, &never(), |_| {});
        let r = &sleeps.requests[2];
        let expected: Vec<u64> = (0..plan.samples(2))
            .map(|k| known(Sleep::Spin, r.request_ns, k) as u64 + 40)
            .collect();
        assert_eq!(r.spin.ns, expected);
    }

    #[test]
    fn an_early_wake_counts_as_no_overshoot_and_is_counted() {
        let early = |how, _, k| match how {
            Sleep::Spin if k % 4 == 0 => -3_000,
            _ => 1_000,
        };
        let plan = Plan::new(NS_PER_S);
        let mut fake = Fake::new(0, 1, early);
        let sleeps = measure_sleeps(&mut fake, &plan, u64::MAX, &never(), |_| {});
        let r = &sleeps.requests[0];
        assert_eq!(r.spin.early, plan.samples(0).div_ceil(4));
        assert_eq!(r.spin.ns[..5], [0, 1_000, 1_000, 1_000, 0]);
        assert_eq!(r.native.early, 0);
    }

    #[test]
    fn the_budget_ends_the_run_after_the_first_round_and_ctrl_c_at_once() {
        let plan = Plan::new(10 * NS_PER_S);
        let mut fake = Fake::new(0, 1, known);
        let mut rounds = Vec::new();
        let sleeps = measure_sleeps(&mut fake, &plan, NS_PER_MS, &never(), |t| rounds.push(t));
        assert_eq!(rounds.len(), 1);
        assert!(!sleeps.interrupted);
        for (i, r) in sleeps.requests.iter().enumerate() {
            assert_eq!(r.native.ns.len() as u64, plan.per_round[i]);
            assert_eq!(r.spin.ns.len() as u64, plan.per_round[i]);
        }
        let stop = AtomicBool::new(true);
        let sleeps = measure_sleeps(&mut fake, &plan, u64::MAX, &stop, |_| {});
        assert!(sleeps.interrupted);
        assert!(sleeps.requests.iter().all(|r| r.native.ns.is_empty()));
    }

    #[test]
    fn a_read_costs_the_batch_span_over_its_reads_and_the_resolution_is_the_smallest_step() {
        // A clock that reads in steps of 100 ns, 30 ns a read: one batch.
        let mut coarse = Fake::new(30, 100, known);
        let clock = measure_clock(&mut coarse, 0, &never());
        assert_eq!(clock.read_ns, 30.0);
        assert_eq!(clock.resolution_ns, Some(100));
        assert_eq!(clock.reads, BATCH as u64);
        // A nanosecond clock, 21 ns a read: the smallest step seen is one read.
        let mut fine = Fake::new(21, 1, known);
        let clock = measure_clock(&mut fine, 10 * NS_PER_MS, &never());
        assert_eq!((clock.read_ns, clock.resolution_ns), (21.0, Some(21)));
        // Batches of 1,001 readings until one ends at 10 ms or later: batch b ends at
        // b × 21,021 + 21,000 ns, so b = 475 is the last, the 476th.
        assert_eq!(clock.reads, 476 * BATCH as u64);
        let mut stuck = Fake::new(0, 1, known);
        assert_eq!(measure_clock(&mut stuck, 0, &never()).resolution_ns, None);
    }

    #[test]
    fn quantiles_follow_the_profiles_rule_and_a_spread_reads_them() {
        let values: Vec<u64> = (0..37u64).map(|i| (i * 7_919) % 1_000).collect();
        let sample = SleepSample::from_overshoots(1, values.clone());
        let mut sorted = values.clone();
        sorted.sort_unstable();
        for (q, want) in QUANTILES.iter().zip(&sample.overshoot_ns) {
            assert_eq!(quantile(&sorted, *q), *want, "q = {q}");
        }
        let s = spread(&[16, 17, 15, 40, 16, 16, 17, 16, 15, 16]).unwrap();
        // Sorted: 15 15 16 16 16 16 16 17 17 40; indices round(q · 9): 0, 5 (4.5 → 5), 9, 9.
        assert_eq!((s.count, s.p5_ns, s.median_ns), (10, 15, 16));
        assert_eq!((s.p95_ns, s.max_ns), (40, 40));
        assert_eq!(spread(&[]), None);
        assert_eq!(quantile(&[], 0.5), 0);
    }
}
