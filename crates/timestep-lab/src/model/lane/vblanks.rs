//! Tyler Glaiel's MonitorSim counters, per vblank, and the beat: how often a fixed tick falls
//! out of step with the refresh, predicted and measured.

use super::Vblank;
use crate::util::fast::{self, millis_f, seconds_f};
use timestep_loop::millis;

/// How many vblanks the pattern keeps.
pub const PATTERN_VBLANKS: usize = 240;

/// Tyler Glaiel's MonitorSim counters, kept per vblank beside stutter and drift: how many ticks
/// each new frame ran, and the vblanks that showed no new frame. Without vsync each presented
/// frame counts as a vblank.
#[derive(Clone, Debug, Default)]
pub struct Vblanks {
    last: Option<u64>,
    frames: u64,
    double_updates: u64,
    irregular_frames: u64,
    skipped_vblanks: u64,
    zero_step_frames: u64,
    max_steps_per_vblank: u32,
    /// Ticks per vblank, the last [`PATTERN_VBLANKS`] of them (0 for a vblank without a new
    /// frame).
    pattern: std::collections::VecDeque<u32>,
    /// Frames whose tick count is not the nearest whole number to the ticks they should hold.
    off_beat_frames: u64,
    /// The vblanks of the first and the last off-beat frame shown at one, and how many were.
    off_beats: Option<(u64, u64, u64)>,
    /// The refresh period, ns, of a fixed-tick loop on a vsynced display, and the beat its
    /// rates predict, s.
    beat: Option<(f64, Option<f64>)>,
    /// The refresh cycles seen between presents (the first present's excluded: nothing came
    /// before it).
    cycles: Option<Cycles>,
    /// The steps the counted frames should have run by the lane's own rule, summed, and the
    /// vblanks they spanned: their ratio is [`Vblanks::ticks_per_vblank`].
    due_ticks: f64,
    spanned_vblanks: u64,
}

/// A vblank should hold fewer ticks than this for the tick counters (double updates, irregular
/// frames) to mean something: at 2 or more, every frame runs 2 ticks or more by design, so
/// each would be a "double update" (docs/REFERENCE.md, "Per-vblank counters", defends it).
pub const TICK_COUNTERS_BELOW: f64 = 2.0;

/// The beat period the rates predict, s: how often a frame runs a tick more or less than the
/// nearest whole number to those due, for a loop handed r ticks a vblank of `period_ns`, one
/// frame a vblank: one frame in 1 / |r − round(r)| (59.94 Hz and a 60 Hz tick: every
/// 16.7 s). A loop that `waits` for a whole tick (MonoGame) shows no frame with r below 1:
/// each then runs one tick and spans a = floor(1/r) vblanks or, a share q = 1/r − a of them,
/// a + 1; the off-beat ones are those spans whose a·r or (a + 1)·r does not round to 1
/// (119.88 Hz and a 60 Hz tick: none). `None` when no frame is off beat (to 10⁻⁶: a tick that
/// divides the period).
pub fn beat_s(period_ns: f64, r: f64, waits: bool) -> Option<f64> {
    let (frame_ns, off_share) = if waits && r < 1.0 {
        let x = 1.0 / r;
        let (a, q) = (fast::floor(x), x - fast::floor(x));
        let off = |k: f64| fast::round(k * r) != 1.0;
        let share = f64::from(u8::from(off(a))) * (1.0 - q) + f64::from(u8::from(off(a + 1.0))) * q;
        (x * period_ns, share)
    } else {
        (period_ns, (r - fast::round(r)).abs())
    };
    (off_share > 1e-6).then(|| seconds_f(frame_ns / off_share))
}

/// Refresh cycles: the shortest, the longest, and their count and sum.
#[derive(Clone, Copy, Debug)]
struct Cycles {
    shortest_ns: u64,
    longest_ns: u64,
    count: u64,
    total_ns: f64,
}

/// The refresh interval over a run, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct RefreshInterval {
    /// Shortest time between vblanks, ms.
    pub min: f64,
    /// Mean time between vblanks, ms.
    pub mean: f64,
    /// Longest time between vblanks, ms.
    pub max: f64,
}

impl Vblanks {
    /// Counts from the next present as from a first (see [`Vblanks::span_to`]).
    pub fn forget_last(&mut self) {
        self.last = None;
    }

    /// Vblanks from the last present to vblank `index` (1 for the first present).
    pub fn span_to(&self, index: u64) -> u64 {
        self.last
            .map_or(1, |last| index.saturating_sub(last).max(1))
    }

    /// The refresh cycles up to `vblank`, `span` of them since the previous present.
    pub fn refresh(&mut self, vblank: Vblank, span: u64) {
        if self.last.is_none() {
            return;
        }
        let period = fast::round(vblank.period_ns) as u64;
        let (shortest_ns, longest_ns) = vblank.cycles_ns.unwrap_or((period, period));
        let total_ns = span as f64 * vblank.period_ns;
        self.cycles = Some(match self.cycles {
            None => Cycles {
                shortest_ns,
                longest_ns,
                count: span,
                total_ns,
            },
            Some(c) => Cycles {
                shortest_ns: c.shortest_ns.min(shortest_ns),
                longest_ns: c.longest_ns.max(longest_ns),
                count: c.count.saturating_add(span),
                total_ns: c.total_ns + total_ns,
            },
        });
    }

    /// The refresh interval between vblanks: min, mean and max, ms (null without vblanks).
    pub fn refresh_interval(&self) -> Option<RefreshInterval> {
        let c = self.cycles?;
        Some(RefreshInterval {
            min: millis(c.shortest_ns),
            mean: millis_f(c.total_ns / c.count.max(1) as f64),
            max: millis(c.longest_ns),
        })
    }

    /// The frame about to be recorded spans `vblanks` vblanks and should run `due` steps by the
    /// lane's own rule (an accumulator: their time ÷ its tick); frame 0 is not counted.
    pub fn due(&mut self, due: f64, vblanks: u64) {
        if self.frames > 0 {
            self.due_ticks += due;
            self.spanned_vblanks = self.spanned_vblanks.saturating_add(vblanks);
        }
    }

    /// The steps (ticks) one vblank should hold by the lane's own rule, on average over the
    /// counted frames: for an accumulator refresh period ÷ tick (the mean refresh cycle on a
    /// VRR panel, the mean frame time where presents have no vblank), for `semi-fixed` that
    /// rounded up, for `variable` one a frame; `None` before a frame is counted.
    pub fn ticks_per_vblank(&self) -> Option<f64> {
        (self.spanned_vblanks > 0).then(|| self.due_ticks / self.spanned_vblanks as f64)
    }

    /// Whether the tick counters (double updates, irregular frames) mean something: a vblank
    /// should hold fewer than [`TICK_COUNTERS_BELOW`] ticks (to 10⁻⁶, as `record` rounds), or
    /// nothing was counted.
    pub fn tick_counters_apply(&self) -> bool {
        self.ticks_per_vblank()
            .is_none_or(|r| r < TICK_COUNTERS_BELOW - 1e-6)
    }

    /// A new frame with `ticks` ticks, shown at vblank `index` (if presents wait for vblanks),
    /// when `expected` ticks would have kept exact time (its vblanks × period ÷ tick).
    pub fn record(&mut self, index: Option<u64>, ticks: u32, expected: f64) {
        if let (Some(i), Some(last)) = (index, self.last) {
            self.skip(i.saturating_sub(last).saturating_sub(1));
        }
        if self.frames > 0 {
            self.double_updates += u64::from(ticks >= 2);
            self.zero_step_frames += u64::from(ticks == 0);
            let t = f64::from(ticks);
            // A tick that is the period to the nearest ns (`60hz`) expects exactly one.
            let near = fast::round(expected);
            let expected = if (expected - near).abs() < 1e-6 {
                near
            } else {
                expected
            };
            let (floor, ceil) = (fast::floor(expected), fast::ceil(expected));
            self.irregular_frames += u64::from(t < floor || t > ceil);
            if t != fast::round(expected) {
                self.off_beat(index);
            }
            self.max_steps_per_vblank = self.max_steps_per_vblank.max(ticks);
            self.push(ticks);
        }
        self.frames += 1;
        self.last = index.or(self.last);
    }

    /// A fixed-tick loop on a vsynced display: its refresh period, ns, and the beat its rates
    /// predict (`beat_s`), s.
    pub fn set_beat(&mut self, period_ns: f64, predicted_s: Option<f64>) {
        self.beat = Some((period_ns, predicted_s));
    }

    /// The beat period predicted from the refresh and tick rates alone (`beat_s`), s; `None`
    /// without a fixed tick and vsync, or where they predict none. It may be longer than the
    /// run.
    pub fn predicted_beat_s(&self) -> Option<f64> {
        self.beat?.1
    }

    /// The beat period measured: the mean time between successive off-beat frames (the
    /// vblanks from the first to the last, over the gaps between them), s. `None` with fewer
    /// than two (a lone one, such as a loop's first frames, is no rhythm), or without vsync.
    pub fn measured_beat_s(&self) -> Option<f64> {
        let (period, _) = self.beat?;
        let (first, last, count) = self.off_beats?;
        (count >= 2)
            .then(|| seconds_f(last.saturating_sub(first) as f64 * period / (count - 1) as f64))
    }

    /// A frame whose tick count was off the nearest whole number, shown at vblank `index`.
    fn off_beat(&mut self, index: Option<u64>) {
        self.off_beat_frames += 1;
        if let Some(i) = index {
            self.off_beats = Some(match self.off_beats {
                None => (i, i, 1),
                Some((first, _, count)) => (first, i, count.saturating_add(1)),
            });
        }
    }

    /// Frames whose tick count was off the nearest whole number to the ticks they should hold.
    pub fn off_beat_frames(&self) -> u64 {
        self.off_beat_frames
    }

    /// `count` vblanks that showed no new frame: counted by arithmetic, and at most
    /// [`PATTERN_VBLANKS`] zeros pushed to the pattern (the rest would fall off it anyway).
    fn skip(&mut self, count: u64) {
        self.skipped_vblanks = self.skipped_vblanks.saturating_add(count);
        let shown = count.min(PATTERN_VBLANKS as u64);
        if shown == PATTERN_VBLANKS as u64 {
            self.pattern.clear();
        }
        for _ in 0..shown {
            self.push(0);
        }
    }

    fn push(&mut self, ticks: u32) {
        if self.pattern.len() == PATTERN_VBLANKS {
            self.pattern.pop_front();
        }
        self.pattern.push_back(ticks);
    }

    /// Vblanks whose new frame ran two ticks or more (MonitorSim's "double updates").
    pub fn double_updates(&self) -> u64 {
        self.double_updates
    }
    /// Frames whose tick count is outside floor/ceil of their vblanks × period ÷ tick: the
    /// same idea for any tick.
    pub fn irregular_frames(&self) -> u64 {
        self.irregular_frames
    }
    /// Vblanks that showed no new frame.
    pub fn skipped_vblanks(&self) -> u64 {
        self.skipped_vblanks
    }
    /// Presented frames that ran no tick (a repeated picture).
    pub fn zero_step_frames(&self) -> u64 {
        self.zero_step_frames
    }
    /// The most ticks any one vblank's new frame ran.
    pub fn max_steps_per_vblank(&self) -> u32 {
        self.max_steps_per_vblank
    }

    /// Ticks per vblank for the last 240 vblanks, as MonitorSim prints them (`0101111201…`),
    /// or comma-separated when any count is above 9.
    pub fn pattern(&self) -> String {
        if self.pattern.iter().all(|&n| n <= 9) {
            self.pattern
                .iter()
                .map(|n| char::from(b'0' + *n as u8))
                .collect()
        } else {
            let counts: Vec<String> = self.pattern.iter().map(u32::to_string).collect();
            counts.join(",")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vblank_counters_follow_monitorsim() {
        let mut v = Vblanks::default();
        v.record(Some(1), 0, 1.0); // the first frame is not counted
        v.record(Some(2), 1, 1.0);
        v.record(Some(3), 2, 1.0); // a double update
        v.record(Some(5), 1, 2.0); // one vblank skipped, and too few ticks for two vblanks
        v.record(Some(6), 0, 1.0); // a repeated picture
        assert_eq!(v.pattern(), "12010");
        assert_eq!(v.double_updates(), 1);
        assert_eq!(v.skipped_vblanks(), 1);
        assert_eq!(v.zero_step_frames(), 1);
        assert_eq!(v.irregular_frames(), 3);
        assert_eq!(v.max_steps_per_vblank(), 2);
        v.record(Some(7), 12, 1.0);
        assert!(v.pattern().ends_with(",0,12"), "{}", v.pattern());
    }

    #[test]
    fn tick_counters_apply_only_while_a_vblank_should_hold_fewer_than_two_ticks() {
        // A 60 Hz tick on a 60 Hz display: one tick a vblank.
        let mut v = Vblanks::default();
        for i in 0..4 {
            v.due(1.0, 1);
            v.record(Some(i), 1, 1.0);
        }
        assert_eq!(v.ticks_per_vblank(), Some(1.0));
        assert!(v.tick_counters_apply());
        // A 1 ms tick on a 60 Hz display: 16.67 a vblank, so every frame "double updates".
        let mut v = Vblanks::default();
        assert!(v.tick_counters_apply(), "nothing counted yet");
        for i in 0..4 {
            v.due(50.0 / 3.0, 1);
            v.record(Some(i), 17, 50.0 / 3.0);
        }
        assert!((v.ticks_per_vblank().unwrap() - 50.0 / 3.0).abs() < 1e-9);
        assert!(!v.tick_counters_apply());
        // Exactly two a vblank (a 120 Hz tick at 60 Hz), within 10⁻⁶: every frame runs two.
        let mut v = Vblanks::default();
        for i in 0..4 {
            v.due(1.999_999_96, 1);
            v.record(Some(i), 2, 2.0);
        }
        assert!(!v.tick_counters_apply());
    }

    #[test]
    fn a_huge_gap_between_vblanks_is_counted_not_walked() {
        let mut v = Vblanks::default();
        v.record(Some(1), 1, 1.0);
        v.record(Some(2), 1, 1.0);
        // A frame shown 1e10 s later on a 60 Hz display: 6e11 vblanks skipped.
        let far = 600_000_000_002;
        v.record(Some(far), 3, 1.0);
        assert_eq!(v.skipped_vblanks(), far - 3);
        assert_eq!(v.pattern.len(), PATTERN_VBLANKS);
        assert!(v.pattern().ends_with("003"), "{}", v.pattern());
        assert_eq!(
            v.pattern.iter().filter(|&&n| n == 0).count(),
            PATTERN_VBLANKS - 1
        );
        // And one at the end of time saturates instead of wrapping.
        v.record(Some(u64::MAX), 1, 1.0);
        assert_eq!(v.skipped_vblanks(), u64::MAX - 4);
    }

    #[test]
    fn the_beat_is_predicted_from_the_rates_and_measured_from_the_off_beat_frames() {
        // A tick of 10 ms on a 12 ms refresh: 1.2 ticks a vblank, so one frame in five holds 2.
        let mut v = Vblanks::default();
        v.set_beat(12e6, beat_s(12e6, 1.2, false));
        for i in 0..=500 {
            v.record(Some(i), if i % 5 == 4 { 2 } else { 1 }, 1.2);
        }
        let predicted = v.predicted_beat_s().unwrap();
        assert!((predicted - 0.060).abs() < 1e-12, "{predicted}");
        assert_eq!(v.off_beat_frames(), 100);
        let measured = v.measured_beat_s().unwrap();
        assert!((measured - 0.060).abs() < 1e-12, "{measured}");
        // A tick that divides the period has no beat; without vsync there is none to measure.
        assert_eq!(beat_s(20e6, 2.0, false), None);
        assert_eq!(Vblanks::default().measured_beat_s(), None);
    }

    #[test]
    fn the_beat_measured_is_the_time_between_off_beat_frames_and_needs_two() {
        // A 60 Hz tick at 59.94 Hz: a frame of 2 ticks every 1,000 vblanks; 3,600 in a run.
        let period = 1e9 / 59.94;
        let beat = |off_beat: &[u64]| {
            let mut v = Vblanks::default();
            v.set_beat(period, beat_s(period, 1.001, false));
            for i in 0..3_600 {
                let ticks = if off_beat.contains(&i) { 2 } else { 1 };
                v.record(Some(i), ticks, 1.001);
            }
            v.measured_beat_s()
        };
        // Three in the run are 1,000 vblanks apart (not the run over three: 20 s).
        let measured = beat(&[1_000, 2_000, 3_000]).unwrap();
        assert!(
            (measured - 1_000.0 * period * 1e-9).abs() < 1e-9,
            "{measured}"
        );
        // One is no rhythm (a loop's first frames, or a beat longer than the run), nor none.
        assert_eq!(beat(&[2]), None);
        assert_eq!(beat(&[]), None);
    }
}
