//! Timers: what a loop does to the measured frame time before its stepper sees it.
//!
//! - `raw` hands it on as measured.
//! - `snap` is Tyler Glaiel's FrameTimingControl (`frame_timer.cpp`, commit ed335bb, 2023):
//!   a delta over 8 frames counts as one frame; a delta within 0.2 ms of k refresh periods
//!   (k = 1..8) becomes exactly that (the error is discarded); then the mean of the last 4
//!   deltas, the division's remainder carried; and an accumulator past 8 frames is emptied
//!   (a stepper rule the timer sets). It works only while vsync is detected, with the measured
//!   rate rounded to whole hertz as its frame, and otherwise hands on the raw time (the
//!   article: a strict timer when vsync is off, or speedrunners lose). Glaiel's frame is his
//!   tick (`desired`, 1/60 s); a lane's tick can be shorter, so "frames" here are refresh
//!   periods.
//! - `smooth` is Godot's DeltaSmoother ([`super::smooth`]).

use crate::named::{Named, UnknownName, next_named, parse_named};
use crate::smooth::DeltaSmoother;
use crate::vsync::VsyncDetector;
use std::fmt;
use std::str::FromStr;

/// Which timer a loop uses: what it does to the measured frame time before the stepper sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimerKind {
    /// The frame time as measured.
    Raw,
    /// Glaiel's snap to whole refresh periods and mean of four.
    Snap,
    /// Godot's DeltaSmoother.
    Smooth,
}

impl TimerKind {
    /// Every timer, in the order the window's `T` cycles them.
    pub const ALL: [TimerKind; 3] = [TimerKind::Raw, TimerKind::Snap, TimerKind::Smooth];

    /// The name a user types.
    pub fn name(self) -> &'static str {
        match self {
            TimerKind::Raw => "raw",
            TimerKind::Snap => "snap",
            TimerKind::Smooth => "smooth",
        }
    }

    /// The next timer in the order raw → snap → smooth → raw (the window's `T`).
    pub fn next(self) -> TimerKind {
        next_named(self)
    }
}

impl Named for TimerKind {
    const ALL: &'static [TimerKind] = &TimerKind::ALL;
    const WHAT: &'static str = "timer";
    fn name(self) -> &'static str {
        TimerKind::name(self)
    }
}

impl fmt::Display for TimerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for TimerKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        parse_named(s)
    }
}

/// How many refresh periods a delta may span before it counts as one (FrameTimingControl's
/// "ignore extra-slow frames"), how many a snap target may be, and how many an accumulator may
/// hold before the snapping timer's resync empties it.
pub const SNAP_FRAMES: u64 = 8;
/// A delta this close to a whole number of periods is snapped to it, ns (0.2 ms).
const SNAP_TOLERANCE_NS: u64 = 200_000;
/// Deltas averaged after snapping.
const AVERAGE_OF: usize = 4;

/// Glaiel's snap-and-average state.
#[derive(Clone, Debug)]
struct Snap {
    history: [u64; AVERAGE_OF],
    residual: u64,
}

impl Snap {
    fn new(tick_ns: u64) -> Snap {
        Snap {
            history: [tick_ns; AVERAGE_OF],
            residual: 0,
        }
    }

    /// `d_ns` snapped (to whole `period`s when given) and averaged with the last three.
    fn filter(&mut self, d_ns: u64, period: Option<u64>) -> u64 {
        let mut d = d_ns;
        if let Some(p) = period {
            if d > p.saturating_mul(SNAP_FRAMES) {
                d = p;
            }
            if let Some(k) = (1..=SNAP_FRAMES).find(|k| (k * p).abs_diff(d) < SNAP_TOLERANCE_NS) {
                d = k * p;
            }
        }
        self.history.rotate_left(1);
        self.history[AVERAGE_OF - 1] = d;
        if period.is_none() {
            return d;
        }
        let sum: u64 = self.history.iter().sum();
        let n = AVERAGE_OF as u64;
        self.residual += sum % n;
        let out = sum / n + self.residual / n;
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
}

impl Timer {
    /// `vsync_requested`: whether the loop asked for vsync (Godot's smoother works only then).
    pub fn new(kind: TimerKind, tick_ns: u64, vsync_requested: bool) -> Timer {
        Timer {
            kind,
            snap: Snap::new(tick_ns),
            smooth: DeltaSmoother::new(vsync_requested),
        }
    }

    /// Which timer this is.
    pub fn kind(&self) -> TimerKind {
        self.kind
    }

    /// The frame time the stepper sees for a measured `raw_ns`.
    pub fn filter(&mut self, raw_ns: u64, vsync: &VsyncDetector) -> u64 {
        match self.kind {
            TimerKind::Raw => raw_ns,
            TimerKind::Snap => self.snap.filter(raw_ns, snap_period(vsync)),
            TimerKind::Smooth => self.smooth.smooth(raw_ns),
        }
    }

    /// Glaiel's resync for the stepper: with the snapping timer working, an accumulator past 8
    /// frames is emptied.
    pub fn resync_over_ns(&self, vsync: &VsyncDetector) -> Option<u64> {
        match self.kind {
            TimerKind::Snap => snap_period(vsync).map(|p| p.saturating_mul(SNAP_FRAMES)),
            _ => None,
        }
    }
}

/// The frame the snapping timer snaps to, while vsync is detected or, before a verdict, assumed.
fn snap_period(vsync: &VsyncDetector) -> Option<u64> {
    vsync.assumed_period_ns()
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
            s.filter(16_700_000, p),
            16_666_666,
            "the mean of 3 ticks and a snap"
        );
        assert_eq!(
            s.filter(33_200_000, p),
            20_833_333,
            "two periods, averaged in"
        );
        // Not near any whole period: kept as measured.
        let mut s = Snap::new(TICK);
        for _ in 0..4 {
            s.filter(12_000_000, p);
        }
        assert_eq!(s.filter(12_000_000, p), 12_000_000);
        // Over 8 ticks: one tick, which then snaps to one refresh period.
        let mut s = Snap::new(TICK);
        for _ in 0..4 {
            s.filter(900_000_000, p);
        }
        assert_eq!(s.filter(900_000_000, p), 16_666_667);
    }

    #[test]
    fn the_mean_of_four_keeps_every_nanosecond_over_time() {
        let mut s = Snap::new(TICK);
        let p = Some(1_000_000_000);
        let (mut sum_in, mut sum_out) = (0u64, 0u64);
        for i in 0..1_000u64 {
            let d = 10_000_000 + i * 7 % 13;
            sum_in += d;
            sum_out += s.filter(d, p);
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

    #[test]
    fn without_vsync_a_snapping_timer_hands_on_the_raw_time() {
        let mut t = Timer::new(TimerKind::Snap, TICK, true);
        let mut not_paced = VsyncDetector::new(Some(60.0));
        for d in [
            3_000_000, 29_000_000, 7_000_000, 41_000_000, 2_000_000, 23_000_000,
        ] {
            not_paced.observe(d);
        }
        assert_eq!(not_paced.assumed_period_ns(), None);
        assert_eq!(t.filter(16_700_000, &not_paced), 16_700_000);
        assert_eq!(VsyncDetector::new(None).assumed_period_ns(), None);
        assert_eq!(
            VsyncDetector::new(Some(59.94)).assumed_period_ns(),
            Some(16_666_667)
        );
        assert_eq!(TimerKind::Raw.next(), TimerKind::Snap);
        assert_eq!("smooth".parse::<TimerKind>(), Ok(TimerKind::Smooth));
    }
}
