//! Timers: what a loop does to the measured frame time before its stepper sees it.
//!
//! - `raw` hands it on as measured.
//! - `snap` is Tyler Glaiel's FrameTimingControl (`frame_timer.cpp`, commit ed335bb, 2023) as
//!   the code runs it, on every frame: a delta over 8 update ticks (`desired_frametime`, the
//!   loop's tick) counts as one tick (lines 48-50, "ignore extra-slow frames"); a delta within
//!   0.2 ms of k periods of the display mode's rate (k = 1..8) becomes exactly that (lines
//!   57-62; the error is discarded); then the mean of the last 4 deltas, the division's
//!   remainder carried (lines 65-77), the history primed with 4 ticks (line 32) and joined by
//!   every delta from the first frame's on; an accumulator past 8 ticks is emptied (lines
//!   83-92, a stepper rule the timer sets), and so is the first frame's, as `resync` starts
//!   `true` (line 37). The rate is what `SDL_GetCurrentDisplayMode` reports (lines 15-21):
//!   SDL2's `refresh_rate` is whole hertz, rounded from the mode's rate on X11 and macOS
//!   (`SDL_x11modes.c` `CalculateXRandRRefreshRate`, `SDL_cocoamodes.m`
//!   `GetDisplayModeRefreshRate`), so here the display's nominal rate the loop was given (its
//!   refresh hint) rounded to whole hertz, and 60 when it was given none, as the code assumes
//!   when SDL reports none. It detects no vsync: the frame times never change what it snaps to.
//! - `snap-vsync` is the same timer as the article describes it ("How to make your game run at
//!   60fps": a strict timer when vsync is off, or speedrunners lose): it snaps and averages only
//!   while vsync is detected (or, before a verdict, assumed from the hint), to the measured rate
//!   rounded to whole hertz, and otherwise hands the time on as measured, the history left as it
//!   was. Its two limits, extra-slow frames and the resync, apply whether or not vsync is
//!   detected (they count in update ticks and need no refresh rate).
//! - `smooth` is Godot's DeltaSmoother ([`super::smooth`]).
//! - `display` steps by predicted display times, from present feedback ([`super::display`]).
//!
//! Where one refresh period is longer than 8 update ticks (a 1 ms tick on a 60 Hz display,
//! never the case in Glaiel's own use), both count their limits in refresh periods instead, or
//! every frame would be extra slow; with no refresh rate known, in periods of 60 Hz, the rate
//! `frame_timer.cpp` assumes when the display reports none (lines 20-21).
//!
//! A timer keeps books too: what it throws away (an extra-slow frame past its one tick, a
//! snap's error down) is counted as discarded, what it adds (a snap's error up) as invented,
//! and the rest is what it holds (the average's pending quarters, the smoother's carry; less
//! the primed history the average hands out first), so that with the stepper's books
//! `measured + invented == consumed + dropped + discarded + remainder` for every timer.

use crate::display::{DisplayBooks, DisplayPredictor};
use crate::smooth::DeltaSmoother;
use crate::tick::Tick;
use crate::vsync::VsyncDetector;

crate::named_enum! {
    /// Which timer a loop uses: what it does to the measured frame time before the stepper sees
    /// it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum TimerKind as "timer" {
        /// The frame time as measured.
        Raw = "raw",
        /// Glaiel's `frame_timer.cpp`: snap to whole periods of the display mode's rate and mean
        /// of four, on every frame.
        Snap = "snap",
        /// The same while vsync is detected, the time as measured while it is not (the article's
        /// strict timer).
        SnapVsync = "snap-vsync",
        /// Godot's DeltaSmoother.
        Smooth = "smooth",
        /// Steps by when frames will be seen: the predicted display-to-display interval, from
        /// present feedback ([`crate::Loop::display_feedback`]); as measured without it.
        Display = "display",
    }
}

impl TimerKind {
    /// Whether this is one of Glaiel's snapping timers (`snap`, `snap-vsync`), which also set
    /// the stepper's resync.
    pub fn snaps(self) -> bool {
        matches!(self, TimerKind::Snap | TimerKind::SnapVsync)
    }
}

/// How many update ticks a delta may span before it counts as one (FrameTimingControl's
/// "ignore extra-slow frames"), how many refresh periods a snap target may be, and how many
/// ticks an accumulator may hold before the snapping timer's resync empties it.
pub const SNAP_FRAMES: u64 = 8;
/// The refresh rate `frame_timer.cpp` assumes when the display reports none (lines 20-21):
/// what `snap` snaps to without a refresh hint, and what `snap-vsync`'s limits count in while
/// no refresh rate is known, Hz.
const UNKNOWN_REFRESH_HZ: u64 = 60;
/// A delta this close to a whole number of periods is snapped to it, ns (0.2 ms).
const SNAP_TOLERANCE_NS: u64 = 200_000;
/// Deltas averaged after snapping.
const AVERAGE_OF: usize = 4;

/// Glaiel's snap-and-average state.
#[derive(Clone, Debug)]
struct Snap {
    /// Glaiel's `desired_frametime`: the loop's tick, ns.
    desired: u64,
    history: [u64; AVERAGE_OF],
    residual: u64,
}

/// A delta after the timer: what it hands on, and what it threw away or added on the way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Filtered {
    /// The delta handed to the stepper, ns.
    pub ns: u64,
    /// Thrown away: an extra-slow frame past its one tick, a snap's error down, ns.
    pub discarded_ns: u64,
    /// Added: a snap's error up, ns.
    pub invented_ns: u64,
}

impl Snap {
    fn new(tick_ns: u64) -> Snap {
        Snap {
            desired: tick_ns,
            history: [tick_ns; AVERAGE_OF],
            residual: 0,
        }
    }

    /// What the limits count in for a refresh period `p`: the update tick (Glaiel's
    /// `desired_frametime`, as in `frame_timer.cpp` lines 48 and 83), or the period where one
    /// period is longer than 8 ticks: a lane whose tick is that short (a 1 ms tick on a 60 Hz
    /// display) would otherwise count every frame as extra slow. Without a period (no vsync
    /// detected), the period of [`UNKNOWN_REFRESH_HZ`].
    fn unit(&self, p: Option<u64>) -> u64 {
        let p = p.unwrap_or_else(|| whole_hz_period_ns(UNKNOWN_REFRESH_HZ));
        if p > self.desired.saturating_mul(SNAP_FRAMES) {
            p
        } else {
            self.desired
        }
    }

    /// `d_ns` with an extra-slow frame cut to one unit, then snapped to whole `period`s and
    /// averaged with the last three; without a period (no vsync) handed on after the cut, the
    /// history left as it was.
    fn filter(&mut self, d_ns: u64, period: Option<u64>) -> Filtered {
        let mut out = Filtered::default();
        let mut d = d_ns;
        let unit = self.unit(period);
        if d > unit.saturating_mul(SNAP_FRAMES) {
            out.discarded_ns += d - unit;
            d = unit;
        }
        let Some(p) = period else {
            out.ns = d;
            return out;
        };
        let snapped = snap_to(d, p);
        out.discarded_ns += d.saturating_sub(snapped);
        out.invented_ns += snapped.saturating_sub(d);
        d = snapped;
        self.history.rotate_left(1);
        self.history[AVERAGE_OF - 1] = d;
        let sum: u64 = self.history.iter().sum();
        let n = AVERAGE_OF as u64;
        self.residual += sum % n;
        out.ns = sum / n + self.residual / n;
        self.residual %= n;
        out
    }
}

/// A loop's timer, with the state it keeps.
#[derive(Clone, Debug)]
pub struct Timer {
    kind: TimerKind,
    snap: Snap,
    smooth: DeltaSmoother,
    /// The `display` timer's predictor (boxed: only that timer has one, and the others stay
    /// small in the frame loop's cache).
    display: Option<Box<DisplayPredictor>>,
    /// Glaiel's `resync`, which starts `true`: the first frame the snapping timer filters
    /// empties the accumulator.
    resync: bool,
    /// Time handed in, handed on, thrown away and added, ns.
    books: TimerBooks,
}

/// A timer's running totals, ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimerBooks {
    /// Frame times handed in, as measured.
    pub measured_ns: u64,
    /// Handed on to the stepper.
    pub filtered_ns: u64,
    /// Thrown away.
    pub discarded_ns: u64,
    /// Added.
    pub invented_ns: u64,
}

impl TimerBooks {
    /// What the timer holds: handed in and added, less handed on and thrown away (its
    /// average's pending time less the primed history it handed out first; the smoother's
    /// carry), ns.
    pub fn held_ns(&self) -> i128 {
        i128::from(self.measured_ns) + i128::from(self.invented_ns)
            - i128::from(self.filtered_ns)
            - i128::from(self.discarded_ns)
    }
}

impl Timer {
    /// `vsync_requested`: whether the loop asked for vsync (Godot's smoother works only then).
    pub fn new(kind: TimerKind, tick: impl Into<Tick>, vsync_requested: bool) -> Timer {
        Timer {
            kind,
            snap: Snap::new(tick.into().ns()),
            smooth: DeltaSmoother::new(vsync_requested),
            display: (kind == TimerKind::Display).then(Box::default),
            resync: kind.snaps(),
            books: TimerBooks::default(),
        }
    }

    /// Which timer this is.
    pub fn kind(&self) -> TimerKind {
        self.kind
    }

    /// Its running totals.
    pub fn books(&self) -> TimerBooks {
        self.books
    }

    /// The frame time the stepper sees for frame number `frame` (the loop's count, which
    /// present feedback names) of a measured `raw_ns`, and what the timer threw away or added.
    pub fn filter(&mut self, frame: u64, raw_ns: u64, vsync: &VsyncDetector) -> Filtered {
        let out = match self.kind {
            TimerKind::Raw => Filtered {
                ns: raw_ns,
                ..Filtered::default()
            },
            TimerKind::Snap => self
                .snap
                .filter(raw_ns, Some(display_mode_period_ns(vsync))),
            TimerKind::SnapVsync => self.snap.filter(raw_ns, snap_period(vsync)),
            TimerKind::Smooth => Filtered {
                ns: self.smooth.smooth(raw_ns),
                ..Filtered::default()
            },
            TimerKind::Display => Filtered {
                ns: match self.display.as_mut() {
                    Some(d) => d.filter(frame, raw_ns, vsync.assumed_period_ns()),
                    None => raw_ns,
                },
                ..Filtered::default()
            },
        };
        let b = &mut self.books;
        b.measured_ns = b.measured_ns.saturating_add(raw_ns);
        b.filtered_ns = b.filtered_ns.saturating_add(out.ns);
        b.discarded_ns = b.discarded_ns.saturating_add(out.discarded_ns);
        b.invented_ns = b.invented_ns.saturating_add(out.invented_ns);
        out
    }

    /// Present feedback for the `display` timer (others ignore it): frame number `frame` was
    /// shown `after_read_ns` after its clock reading (`None`: discarded), on a display whose
    /// refresh period is `refresh_ns` when stated.
    pub fn display_feedback(
        &mut self,
        frame: u64,
        after_read_ns: Option<u64>,
        refresh_ns: Option<u64>,
    ) {
        if let Some(d) = self.display.as_mut() {
            d.feedback(frame, after_read_ns, refresh_ns);
        }
    }

    /// The `display` timer forgets what the display did (the loop's time stood still while
    /// the display's went on: a pause).
    pub fn display_gap(&mut self) {
        if let Some(d) = self.display.as_mut() {
            d.forget();
        }
    }

    /// What the `display` timer did with its feedback; `None` for the other timers.
    pub fn display_books(&self) -> Option<DisplayBooks> {
        self.display.as_ref().map(|d| d.books())
    }

    /// Whether the `display` timer hands on predictions now (false for the other timers).
    pub fn predicting(&self) -> bool {
        self.display.as_ref().is_some_and(|d| d.predicting())
    }

    /// Glaiel's resync for the stepper, ns: with a snapping timer, an accumulator past 8
    /// update ticks (8 refresh periods where a period is longer than 8 ticks, vsync detected
    /// or not) is emptied.
    pub fn resync_over_ns(&self, vsync: &VsyncDetector) -> Option<u64> {
        let period = match self.kind {
            TimerKind::Snap => Some(display_mode_period_ns(vsync)),
            TimerKind::SnapVsync => snap_period(vsync),
            _ => return None,
        };
        Some(self.snap.unit(period) * SNAP_FRAMES)
    }

    /// Whether this frame's accumulator is to be emptied whatever it holds: Glaiel's `resync`
    /// starts `true` (`frame_timer.cpp` line 37), so a snapping timer's first frame does.
    pub fn take_resync(&mut self) -> bool {
        std::mem::take(&mut self.resync)
    }
}

/// The period `snap-vsync` snaps to, while vsync is detected or, before a verdict, assumed.
fn snap_period(vsync: &VsyncDetector) -> Option<u64> {
    vsync.assumed_period_ns()
}

/// `d_ns` snapped to the first whole number k = 1..8 of `period_ns` it is within 0.2 ms of,
/// else as it is (`frame_timer.cpp` lines 57-62).
fn snap_to(d_ns: u64, period_ns: u64) -> u64 {
    (1..=SNAP_FRAMES)
        .map(|k| k.saturating_mul(period_ns))
        .find(|target| target.abs_diff(d_ns) < SNAP_TOLERANCE_NS)
        .unwrap_or(d_ns)
}

/// A frame time `d_ns` as `snap` snaps it before averaging, on a display whose nominal rate
/// the loop knows as `hint_hz`: to whole periods of [`display_mode_hz`] when within 0.2 ms.
///
/// ```
/// use timestep_loop::snap_to_display_mode;
/// // A 59.94 Hz display's frame, snapped to 1/60 s (truncated to whole ns).
/// assert_eq!(snap_to_display_mode(16_683_350, Some(59.94)), 16_666_666);
/// // A 50 Hz frame on a display the loop was told nothing of (60 Hz): not near, kept.
/// assert_eq!(snap_to_display_mode(20_000_000, None), 20_000_000);
/// ```
pub fn snap_to_display_mode(d_ns: u64, hint_hz: Option<f64>) -> u64 {
    snap_to(d_ns, whole_hz_period_ns(display_mode_hz(hint_hz)))
}

/// The display mode's rate as `SDL_GetCurrentDisplayMode` reports it, Hz, for a display whose
/// nominal rate the loop knows as `hint_hz`: whole hertz, rounded as SDL2 rounds the mode's
/// rate on X11 and macOS (59.94 Hz is 60), and 60 when the rate is unknown or rounds to 0
/// (`frame_timer.cpp` lines 15-21).
pub fn display_mode_hz(hint_hz: Option<f64>) -> u64 {
    match hint_hz.map(crate::units::round) {
        Some(hz) if hz >= 1.0 => hz.min(1e9) as u64,
        _ => UNKNOWN_REFRESH_HZ,
    }
}

/// One period of a whole-hertz rate, ns, rounded down as `frame_timer.cpp` divides its counter
/// rate by the display's (line 26).
fn whole_hz_period_ns(hz: u64) -> u64 {
    1_000_000_000 / hz.max(1)
}

/// The period `snap` snaps to: one of [`display_mode_hz`] of the loop's refresh hint.
fn display_mode_period_ns(vsync: &VsyncDetector) -> u64 {
    whole_hz_period_ns(display_mode_hz(vsync.hint_hz()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICK: u64 = 16_666_666;

    #[test]
    fn a_timer_fills_the_width_it_is_given() {
        assert_eq!(format!("{:>8}|", TimerKind::Smooth), "  smooth|");
        assert_eq!(format!("{:<8}|", TimerKind::Raw), "raw     |");
    }

    #[test]
    fn deltas_within_two_tenths_of_a_ms_of_whole_periods_snap_and_the_mean_carries_its_remainder() {
        let mut s = Snap::new(TICK);
        let p = Some(16_666_667);
        assert_eq!(
            s.filter(16_700_000, p).ns,
            16_666_666,
            "the mean of 3 ticks and a snap"
        );
        assert_eq!(
            s.filter(33_200_000, p).ns,
            20_833_333,
            "two periods, averaged in"
        );
        // Not near any whole period: kept as measured.
        let mut s = Snap::new(TICK);
        for _ in 0..4 {
            s.filter(12_000_000, p);
        }
        assert_eq!(s.filter(12_000_000, p).ns, 12_000_000);
        // Over 8 ticks: one tick, which then snaps to one refresh period.
        let mut s = Snap::new(TICK);
        for _ in 0..4 {
            s.filter(900_000_000, p);
        }
        assert_eq!(s.filter(900_000_000, p).ns, 16_666_667);
    }

    #[test]
    fn the_mean_of_four_keeps_every_nanosecond_over_time() {
        let mut s = Snap::new(TICK);
        let p = Some(1_000_000_000);
        let (mut sum_in, mut sum_out) = (0u64, 0u64);
        for i in 0..1_000u64 {
            let d = 10_000_000 + i * 7 % 13;
            sum_in += d;
            sum_out += s.filter(d, p).ns;
        }
        // Each delta goes out whole, a quarter in each of four frames: out = in, plus the
        // primed ticks' quarters (3 + 2 + 1), less the quarters of the last three deltas still
        // to come, to within the carried remainder.
        let h = s.history;
        let primed = 6 * TICK / 4;
        let pending = (3 * h[3] + 2 * h[2] + h[1]) / 4;
        assert!(
            (sum_in + primed).abs_diff(sum_out + pending) < 4,
            "{sum_in} {sum_out}"
        );
    }

    /// Frame times a detector decides are not paced by the 60 Hz display it was told of.
    fn not_paced() -> VsyncDetector {
        let mut v = VsyncDetector::new(Some(60.0));
        for d in [
            3_000_000, 29_000_000, 7_000_000, 41_000_000, 2_000_000, 23_000_000,
        ] {
            v.observe(d);
        }
        v
    }

    #[test]
    fn snap_snaps_to_the_display_modes_whole_hertz_on_every_frame_vsync_or_not() {
        // frame_timer.cpp detects no vsync: with frames no vsync paces it still snaps to the
        // display mode's rate, and the first frame's delta joins the mean (lines 57-77).
        let v = not_paced();
        assert_eq!(v.assumed_period_ns(), None, "vsync decided against");
        let mut t = Timer::new(TimerKind::Snap, TICK, true);
        let out = t.filter(0, 33_400_000, &v);
        assert_eq!(
            out.invented_ns + out.discarded_ns,
            66_668,
            "snapped to two periods"
        );
        assert_eq!(out.ns, (3 * TICK + 33_333_332) / 4, "averaged from frame 0");
        assert!(
            t.take_resync(),
            "and its accumulator emptied, as resync starts true"
        );
        // The rate is the hint rounded to whole hertz, as SDL2 reports it; 60 without one.
        assert_eq!(display_mode_hz(Some(59.94)), 60);
        assert_eq!(display_mode_hz(Some(143.9)), 144);
        assert_eq!(display_mode_hz(None), 60);
        assert_eq!(
            display_mode_hz(Some(0.4)),
            60,
            "SDL's 0 Hz is 60 (lines 20-21)"
        );
        let mut t = Timer::new(TimerKind::Snap, TICK, true);
        let at_144 = VsyncDetector::new(Some(143.9));
        assert_eq!(
            t.filter(0, 6_944_000, &at_144).invented_ns,
            444,
            "1/144 s, truncated"
        );
        assert_eq!(
            t.resync_over_ns(&at_144),
            Some(8 * TICK),
            "in ticks, not periods"
        );
        // A 1 ms tick: one period of 60 Hz is over 8 ticks, so the limits count in periods.
        let t = Timer::new(TimerKind::Snap, 1_000_000, true);
        assert_eq!(t.resync_over_ns(&v), Some(8 * 16_666_666));
    }

    #[test]
    fn without_vsync_snap_vsync_hands_on_the_raw_time() {
        let mut t = Timer::new(TimerKind::SnapVsync, TICK, true);
        let not_paced = not_paced();
        assert_eq!(not_paced.assumed_period_ns(), None);
        assert_eq!(t.filter(0, 16_700_000, &not_paced).ns, 16_700_000);
        // Its limits need no refresh rate: an extra-slow frame is still one tick, the rest
        // discarded, and the resync still empties an accumulator past 8 ticks.
        let out = t.filter(1, 900_000_000, &not_paced);
        assert_eq!((out.ns, out.discarded_ns), (TICK, 900_000_000 - TICK));
        assert_eq!(t.resync_over_ns(&not_paced), Some(8 * TICK));
        assert_eq!(VsyncDetector::new(None).assumed_period_ns(), None);
        assert_eq!(
            VsyncDetector::new(Some(59.94)).assumed_period_ns(),
            Some(16_666_666)
        );
        assert_eq!("smooth".parse::<TimerKind>(), Ok(TimerKind::Smooth));
        assert_eq!("Snap-Vsync".parse::<TimerKind>(), Ok(TimerKind::SnapVsync));
    }
}
