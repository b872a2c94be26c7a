//! Vsync detection from measured frame times alone, with hysteresis.
//!
//! Reimplemented from the rules of Tyler Glaiel's SDL-Frame-Pacing-Sample (2024,
//! `FramePacing.cpp` 248-316, commit 7f9984d): each frame time is snapped to a whole number of
//! refresh periods (with a decaying error term, so one long-short pair is not a glitch), and the
//! sum of (measured − snapped) over the last 128 frames is the drift. Presents are paced by a
//! vsync while |drift| stays under 5 ms; it takes a net 16 good frames to decide they are and a
//! net 4 bad ones to decide they no longer are.
//!
//! Differences, each because the sample can ask the OS what we must find out: the sample takes
//! the period from SDL's reported refresh rate; here the display's nominal rate is only a hint
//! (it can be missing or wrong), so without one — or when it has not explained the frame times
//! for 256 frames — the period is the median of the recent frame times. A good frame must also
//! be, on its own, within an eighth of a period of a whole number of periods (the drift alone is
//! fooled by random frame times). The sample starts in the
//! vsynced state with a 100 ms threshold until its ring is full; here detection starts undecided
//! and must earn the 16 good frames at 5 ms once the ring holds 64 frames, so that
//! `detected_after` means something (about 1.3 s at 60 Hz), while a net 4 bad frames decide
//! against it at once. Until it is decided, a loop that was given the display's rate may assume
//! it, as the sample does ([`VsyncDetector::assumed_period_ns`]).

use crate::units::{MIN_HZ, round};

/// Frames of history.
const RING: usize = 128;
/// Drift under this many ns is a good frame.
const DRIFT_LIMIT_NS: i64 = 5_000_000;
/// A good frame is also within an eighth of a period (and at least this) of whole periods.
const FRAME_TOLERANCE_NS: i64 = 500_000;
/// Net good frames to decide presents are paced; net bad ones to decide they are not.
const ENTER: u32 = 16;
const LEAVE: u32 = 4;
/// Frames without detection before the period is measured again from the frame times.
const RETRY_AFTER: u32 = 256;
/// Frames whose median gives the period when there is no hint.
const LEARN: usize = 16;
/// The longest frame time the ring counts, ns (about 73 years): room in an i64 for the error
/// term and a frame's periods; a frame longer counts as this long.
const LONGEST_FRAME_NS: u64 = i64::MAX as u64 / 4;
/// Frames in the ring before good ones count towards detection: over fewer, a drift of random
/// frame times has not had room to grow, and a short lucky run would look paced.
const ENTER_AFTER: usize = 64;

/// What the frame times say about vsync.
#[derive(Clone, Debug)]
pub struct VsyncDetector {
    /// The display's nominal rate the loop was given, Hz.
    hint_hz: Option<f64>,
    hint_ns: Option<u64>,
    period_ns: Option<u64>,
    learning: Vec<u64>,
    err_ns: i64,
    /// Per slot: (snapped ns, measured ns, periods).
    ring: Vec<(u64, u64, u64)>,
    next: usize,
    drift_ns: i128,
    measured_ns: u128,
    periods: u64,
    vsynced: bool,
    /// Whether a verdict has been reached (either way).
    decided: bool,
    counter: u32,
    /// Bad frames seen before any verdict (a net 4 decide against vsync).
    bad_before_verdict: u32,
    undecided_for: u32,
    elapsed_ns: u64,
    detected_after_ns: Option<u64>,
    /// The refresh rate last measured while vsynced, Hz.
    /// The whole periods and the time they were measured over, last seen while vsynced.
    refresh: Option<(u64, u128)>,
}

impl VsyncDetector {
    /// `hint_hz`: the display's nominal rate, if the loop can know it.
    pub fn new(hint_hz: Option<f64>) -> VsyncDetector {
        let hint_hz = hint_hz.filter(|hz| hz.is_finite() && *hz > 0.0);
        let hint_ns = hint_hz
            .map(|hz| (1e9 / hz).round() as u64)
            .filter(|&ns| ns > 0);
        VsyncDetector {
            hint_hz: hint_ns.and(hint_hz),
            hint_ns,
            period_ns: hint_ns,
            learning: Vec::with_capacity(LEARN),
            err_ns: 0,
            ring: Vec::with_capacity(RING),
            next: 0,
            drift_ns: 0,
            measured_ns: 0,
            periods: 0,
            vsynced: false,
            decided: false,
            counter: 0,
            bad_before_verdict: 0,
            undecided_for: 0,
            elapsed_ns: 0,
            detected_after_ns: None,
            refresh: None,
        }
    }

    /// Whether presents are paced by a vsync, as far as the frame times say.
    pub fn vsynced(&self) -> bool {
        self.vsynced
    }

    /// The refresh rate measured while vsynced (measured time over whole periods), Hz.
    pub fn refresh_hz(&self) -> Option<f64> {
        self.refresh
            .map(|(periods, measured)| 1e9 * periods as f64 / measured as f64)
    }

    /// The refresh period a snapping timer snaps to: the measured rate rounded to a whole
    /// number of hertz, as operating systems report it (59.94 Hz snaps to 1/60 s).
    pub fn snap_period_ns(&self) -> Option<u64> {
        whole_hz_period(self.refresh_hz()?)
    }

    /// The period a loop may act on: the measured one (in whole hertz) while vsync is
    /// detected; the hint's, before a verdict (as the SDL sample starts out assuming vsync);
    /// none once the frame times have said presents are not paced.
    pub fn assumed_period_ns(&self) -> Option<u64> {
        if self.vsynced {
            self.snap_period_ns()
        } else if self.decided {
            None
        } else {
            whole_hz_period(1e9 / self.hint_ns? as f64)
        }
    }

    /// Whether the frame times have said either way yet (too few, and they have not).
    pub fn decided(&self) -> bool {
        self.decided
    }

    /// Measured time until vsync was first detected.
    pub fn detected_after_ns(&self) -> Option<u64> {
        self.detected_after_ns
    }

    /// One measured frame time.
    pub fn observe(&mut self, d_ns: u64) {
        self.elapsed_ns = self.elapsed_ns.saturating_add(d_ns);
        if d_ns == 0 {
            return;
        }
        let Some(period) = self.period_ns.or_else(|| self.learn(d_ns)) else {
            return;
        };
        // A vsynced present cannot come faster than the display the loop was told about: a
        // period measured shorter than the hint's is frames not paced by it (a loop without
        // vsync rendering faster than the display), never a faster display.
        let good = self.snap(d_ns, period) && !self.faster_than_hint(period);
        self.decide(good);
        if self.vsynced && self.periods > 0 {
            self.refresh = Some((self.periods, self.measured_ns));
        }
        if !self.vsynced {
            self.undecided_for += 1;
            if self.undecided_for >= RETRY_AFTER {
                self.remeasure();
            }
        }
    }

    /// Whether `period_ns` is shorter than the hint's by more than 1 % (59.94 Hz against a
    /// nominal 60 is not).
    fn faster_than_hint(&self, period_ns: u64) -> bool {
        self.hint_ns
            .is_some_and(|hint| u128::from(period_ns) * 100 < u128::from(hint) * 99)
    }

    /// Without a hint: the median of the first frame times becomes the period.
    fn learn(&mut self, d_ns: u64) -> Option<u64> {
        self.learning.push(d_ns);
        if self.learning.len() < LEARN {
            return None;
        }
        self.period_ns = a_refresh(median(&mut self.learning));
        if self.period_ns.is_none() {
            // Frames further apart than any display refreshes: not paced by one. Learn again
            // from the next frames, in case they come faster.
            self.learning.clear();
            self.decided = true;
        }
        self.period_ns
    }

    /// The period has not explained the frame times for a while: measure it again from the
    /// last ring of them, and start over.
    fn remeasure(&mut self) {
        let mut recent: Vec<u64> = self.ring.iter().map(|&(_, d, _)| d).collect();
        if !recent.is_empty() {
            self.period_ns = a_refresh(median(&mut recent));
        }
        self.ring.clear();
        self.next = 0;
        self.drift_ns = 0;
        self.measured_ns = 0;
        self.periods = 0;
        self.err_ns = 0;
        self.counter = 0;
        self.undecided_for = 0;
    }

    /// Snaps one frame time to whole periods, updates the ring, and says whether the drift is
    /// still small.
    fn snap(&mut self, d_ns: u64, period: u64) -> bool {
        // One clamped frame time for everything the ring holds: its periods, its drift and
        // its measured time alike, or a frame past the clamp would count its full length
        // over the clamped length's periods and skew the measured rate.
        let d = d_ns.min(LONGEST_FRAME_NS) as i64;
        let p = period as i64;
        let n = round((d + self.err_ns) as f64 / p as f64).max(0.0) as i64;
        let snapped = n * p;
        self.err_ns = self.err_ns / 2 + (d - snapped);
        let slot = (snapped as u64, d as u64, n as u64);
        if self.ring.len() < RING {
            self.ring.push(slot);
        } else {
            let (old_s, old_d, old_n) = std::mem::replace(&mut self.ring[self.next], slot);
            self.drift_ns -= i128::from(old_d) - i128::from(old_s);
            self.measured_ns -= u128::from(old_d);
            self.periods -= old_n;
        }
        self.next = (self.next + 1) % RING;
        self.drift_ns += i128::from(slot.1) - i128::from(slot.0);
        self.measured_ns += u128::from(slot.1);
        self.periods += slot.2;
        // The sample's drift alone is fooled by frame times of random length: its decaying
        // error term makes the snapped sum track any measured sum. A paced frame is also, on
        // its own, close to a whole number (at least one) of periods.
        let whole = round(d as f64 / p as f64) as i64;
        let near = whole >= 1 && (d - whole * p).abs() < (p / 8).max(FRAME_TOLERANCE_NS);
        near && self.drift_ns.abs() < i128::from(DRIFT_LIMIT_NS)
    }

    /// Hysteresis: a net 16 good frames to enter (once the ring holds 64), a net 4 bad ones
    /// to leave (or, undecided, to decide against).
    fn decide(&mut self, good: bool) {
        if !self.decided && !good {
            self.bad_before_verdict += 1;
            if self.bad_before_verdict >= LEAVE {
                self.decided = true;
            }
        }
        let good = good && (self.vsynced || self.ring.len() >= ENTER_AFTER);
        let towards = if self.vsynced { !good } else { good };
        self.counter = if towards {
            self.counter + 1
        } else {
            self.counter.saturating_sub(1)
        };
        let needed = if self.vsynced { LEAVE } else { ENTER };
        if self.counter >= needed {
            self.vsynced = !self.vsynced;
            self.decided = true;
            self.counter = 0;
            self.undecided_for = 0;
            if self.vsynced && self.detected_after_ns.is_none() {
                self.detected_after_ns = Some(self.elapsed_ns);
            }
        }
    }

    /// The hint the detector was given, ns.
    pub fn hint_ns(&self) -> Option<u64> {
        self.hint_ns
    }

    /// The hint the detector was given, Hz (the display's nominal rate, as the loop knows it).
    pub fn hint_hz(&self) -> Option<f64> {
        self.hint_hz
    }
}

/// One period of `hz` rounded to whole hertz, in whole ns rounded down, as FrameTimingControl
/// divides its counter rate by the display's (`frame_timer.cpp` line 26).
fn whole_hz_period(hz: f64) -> Option<u64> {
    let hz = hz.round();
    (hz >= MIN_HZ).then(|| (1e9 / hz) as u64)
}

/// `period_ns` if a display can refresh that slowly (at [`MIN_HZ`] or faster), else none: frames
/// twenty minutes apart are no display's refresh.
fn a_refresh(period_ns: u64) -> Option<u64> {
    (period_ns as f64 <= 1e9 / MIN_HZ).then_some(period_ns)
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frame times of a display at `hz` read through a timer with ±`noise_ns`.
    fn paced(hz: f64, noise_ns: i64, frames: usize, seed: u64) -> Vec<u64> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut last = 0i64;
        (1..=frames)
            .map(|k| {
                let t = (k as f64 * 1e9 / hz) as i64 + rng.i64(-noise_ns..=noise_ns);
                let d = (t - last).max(0);
                last = t;
                d as u64
            })
            .collect()
    }

    fn run(hint: Option<f64>, frames: &[u64]) -> VsyncDetector {
        let mut v = VsyncDetector::new(hint);
        for &d in frames {
            v.observe(d);
        }
        v
    }

    #[test]
    fn a_paced_display_is_detected_quickly_with_or_without_a_hint() {
        for (hz, hint) in [
            (59.94, Some(59.94)),
            (144.0, Some(144.0)),
            (59.94, Some(60.0)),
            (75.0, None),
        ] {
            let v = run(hint, &paced(hz, 83_000, 600, 1));
            assert!(v.vsynced(), "{hz} Hz, hint {hint:?}");
            let after = v.detected_after_ns().unwrap_or(u64::MAX);
            assert!(after < 2_000_000_000, "{hz} Hz took {after} ns");
            let est = v.refresh_hz().unwrap_or(0.0);
            assert!((est - hz).abs() < 0.01, "{hz} Hz measured as {est}");
        }
        assert_eq!(
            run(Some(59.94), &paced(59.94, 0, 100, 1)).snap_period_ns(),
            Some(16_666_666)
        );
    }

    #[test]
    fn a_hint_faster_than_the_frames_is_replaced_by_what_they_say() {
        // Told 60 Hz, the display runs at 50 (the OS is wrong, or the mode changed).
        let v = run(Some(60.0), &paced(50.0, 83_000, 2_000, 2));
        assert!(v.vsynced());
        assert!((v.refresh_hz().unwrap_or(0.0) - 50.0).abs() < 0.01);
    }

    #[test]
    fn frames_faster_than_the_hinted_display_are_never_called_vsynced() {
        // Vsync off, a steady 7 ms render on a 60 Hz display: as steady as a 143 Hz display's
        // frames, but a vsynced present cannot come faster than the display it was told of.
        let steady = vec![7_000_000; 5_000];
        let v = run(Some(60.0), &steady);
        assert!(!v.vsynced() && v.decided() && v.detected_after_ns().is_none());
        // Without a hint nothing says it is not a 143 Hz display.
        assert!(run(None, &steady).vsynced());
        // Paced 75 Hz against a 60 Hz hint is the same: not paced by what it was told of.
        assert!(!run(Some(60.0), &paced(75.0, 83_000, 2_000, 2)).vsynced());
    }

    #[test]
    fn a_frame_past_the_longest_leaves_the_measured_rate_as_the_display_gave_it() {
        // A capture's one display time between 2^61 and 2^62 ns: the ring once counted that
        // frame's full length over its clamped length's periods, and a 60 Hz display read
        // 46.117 Hz.
        for huge in [(1u64 << 61) + (1 << 60), (1 << 62) - 1, u64::MAX] {
            let mut frames = paced(60.0, 83_000, 300, 4);
            frames.push(huge);
            let v = run(Some(60.0), &frames);
            let hz = v.refresh_hz().unwrap_or(0.0);
            assert!((hz - 60.0).abs() < 0.01, "{huge}: {hz} Hz");
        }
    }

    #[test]
    fn frames_further_apart_than_the_slowest_display_are_no_refresh() {
        // Twenty minutes apart, as steady as a clock: once read as a 0.00 Hz display.
        let v = run(None, &[1_200_000_000_000; 500]);
        assert!(!v.vsynced() && v.decided() && v.refresh_hz().is_none());
        // One frame a second is the slowest display there is, and still one.
        assert!(run(None, &paced(1.0, 0, 300, 5)).vsynced());
    }

    #[test]
    fn unpaced_frames_of_varying_length_are_never_called_vsynced() {
        let mut rng = fastrand::Rng::with_seed(3);
        let frames: Vec<u64> = (0..5_000).map(|_| rng.u64(5_000_000..25_000_000)).collect();
        for hint in [Some(60.0), None] {
            let v = run(hint, &frames);
            assert!(!v.vsynced() && v.detected_after_ns().is_none(), "{hint:?}");
        }
    }
}
