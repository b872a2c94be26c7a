//! Render pacing: *when* a frame starts, and which frame time the loop is handed. Pure
//! arithmetic on nanosecond readings: the window sleeps with spin_sleep and `simulate` moves
//! its simulated clock; both ask a [`Pacer`] how long.
//!
//! - `vsync`: no waiting of our own; presents wait for the display.
//! - `cap:HZ`: frames start one period apart (deadlines advance from the last deadline, so the
//!   average is exact even when each sleep overshoots; a loop more than a period behind
//!   re-anchors at "now" instead of racing to catch up).
//! - `adaptive` (the "adaptive render interval" answer on smooth presentation): a render interval that grows to 1.2× a frame that overran it and
//!   shrinks slowly (1/64 a frame) while there is time to spare, never below 1.1× the longest of
//!   the last 60 frames. The loop waits for the interval's end, and is handed the frame time
//!   between *expected presents* (the scheduled start plus the last frame's length), so what it
//!   shows is the state at the time the frame is expected on screen, not at whenever the wait
//!   happened to end.
//! - `hold:HZ`: frames start as under `cap:HZ`, and each is presented no sooner than one period
//!   after the deadline it started at (the next frame's): on a variable-refresh display the
//!   presents are then a period apart whatever each frame cost, at a period of latency.
//! - `late` (bevy_framepace 0.22, `src/lib.rs` `framerate_limiter`, at d548dbf): sleep at the end
//!   of each frame so the next one samples input as late as possible; the limit is one period
//!   of (refresh − 0.5 Hz), and the previous frame's oversleep (lateness only) is fed back for one
//!   frame: `sleep = limit − (work + oversleep)`.

use crate::named::{Named, parse_keyword};
use crate::units::{MAX_HZ, MIN_HZ};
use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How a loop paces its frames.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Pacing {
    /// No waiting of its own: presents wait for the display.
    Vsync,
    /// Frames start one period of this rate (Hz) apart.
    Cap(f64),
    /// As `Cap`, and each frame is presented no sooner than the next one's deadline.
    Hold(f64),
    /// Seed 001's adaptive render interval.
    Adaptive,
    /// bevy_framepace: sleep at the end of each frame so input is read as late as possible.
    Late,
}

/// Why a pacing could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PacingError {
    /// `cap:` or `hold:` followed by something that is not a number.
    NotARate(String),
    /// A cap or hold outside [`MIN_HZ`, 10,000] Hz.
    CapOutOfRange(String),
    /// None of the pacings.
    Unknown(String),
}

impl fmt::Display for PacingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PacingError::NotARate(s) => {
                write!(f, "'{s}' is not cap:HZ or hold:HZ with a rate in Hz")
            }
            PacingError::CapOutOfRange(s) => {
                write!(f, "{s} must be {MIN_HZ} to {MAX_HZ} Hz")
            }
            PacingError::Unknown(s) => write!(
                f,
                "unknown pacing '{s}' (expected {})",
                Pacing::NAMES.join(", ")
            ),
        }
    }
}

impl std::error::Error for PacingError {}

/// Frames the adaptive interval remembers when it shrinks.
const RECENT: usize = 60;
/// A wake-up this late after the scheduled start still counts as on schedule (spin_sleep's
/// overshoot is microseconds).
const ON_TIME_NS: u64 = 2_000_000;

impl Pacing {
    /// The pacings as a user types them.
    pub const NAMES: [&'static str; 5] = ["vsync", "cap:HZ", "hold:HZ", "adaptive", "late"];

    /// `hz` as a cap's or a hold's rate: [`MIN_HZ`] to 10,000 Hz, or the error that
    /// quotes it as `typed`.
    pub fn rate(hz: f64, typed: &str) -> Result<f64, PacingError> {
        if (MIN_HZ..=MAX_HZ).contains(&hz) {
            Ok(hz)
        } else {
            Err(PacingError::CapOutOfRange(typed.into()))
        }
    }

    /// Its keyword, and its rate if it has one.
    fn keyword(self) -> (Keyword, Option<f64>) {
        match self {
            Pacing::Vsync => (Keyword::Vsync, None),
            Pacing::Cap(hz) => (Keyword::Cap, Some(hz)),
            Pacing::Hold(hz) => (Keyword::Hold, Some(hz)),
            Pacing::Adaptive => (Keyword::Adaptive, None),
            Pacing::Late => (Keyword::Late, None),
        }
    }
}

/// A pacing's keyword: its entry in [`Pacing::NAMES`], up to the `:` of a rated one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Vsync,
    Cap,
    Hold,
    Adaptive,
    Late,
}

impl Named for Keyword {
    const ALL: &'static [Keyword] = &[
        Keyword::Vsync,
        Keyword::Cap,
        Keyword::Hold,
        Keyword::Adaptive,
        Keyword::Late,
    ];
    const WHAT: &'static str = "pacing";
    fn name(self) -> &'static str {
        let typed = Pacing::NAMES[self as usize];
        typed.split_once(':').map_or(typed, |(keyword, _)| keyword)
    }
}

impl fmt::Display for Pacing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Padded as a whole (`{:>12}`), so a rated pacing is written out first.
        match self.keyword() {
            (keyword, None) => f.pad(keyword.name()),
            (keyword, Some(hz)) => f.pad(&format!("{}:{hz}", keyword.name())),
        }
    }
}

impl FromStr for Pacing {
    type Err = PacingError;
    /// A keyword of [`Pacing::NAMES`] (trimmed, ASCII case ignored), `cap` and `hold` with
    /// their `:HZ`; an error quotes the text lower-cased.
    fn from_str(s: &str) -> Result<Pacing, PacingError> {
        let s = s.trim().to_ascii_lowercase();
        let unknown = || PacingError::Unknown(s.clone());
        let (keyword, param) = parse_keyword::<Keyword>(&s).ok_or_else(unknown)?;
        let rate = |hz: &str| -> Result<f64, PacingError> {
            let hz: f64 = hz.parse().map_err(|_| PacingError::NotARate(s.clone()))?;
            Pacing::rate(hz, &s)
        };
        match (keyword, param) {
            (Keyword::Vsync, None) => Ok(Pacing::Vsync),
            (Keyword::Cap, Some(hz)) => rate(hz).map(Pacing::Cap),
            (Keyword::Hold, Some(hz)) => rate(hz).map(Pacing::Hold),
            (Keyword::Adaptive, None) => Ok(Pacing::Adaptive),
            (Keyword::Late, None) => Ok(Pacing::Late),
            _ => Err(unknown()),
        }
    }
}

/// Paces one loop. Call [`Pacer::begin`] when a frame starts and [`Pacer::end`] when its work
/// is done (after presenting); sleep what `end` returns.
#[derive(Clone, Debug)]
pub struct Pacer {
    pacing: Pacing,
    /// The adaptive render interval, or the cap's or late pacing's period, ns.
    interval_ns: u64,
    missed: u64,
    /// When this frame started, and the start it was scheduled for.
    start_ns: Option<u64>,
    scheduled_ns: Option<u64>,
    /// The expected present of the last frame (adaptive), and how long the last frame took.
    target_ns: Option<u64>,
    took_ns: u64,
    /// The next frame's scheduled start (adaptive, cap).
    next_ns: Option<u64>,
    /// Frame times of the last [`RECENT`] frames (adaptive).
    recent: VecDeque<u64>,
    /// bevy_framepace's state: when the last sleep ended, and its lateness.
    sleep_end_ns: Option<u64>,
    oversleep_ns: u64,
}

impl Pacer {
    /// A pacer for `pacing` on a display the loop believes runs at `refresh_hz` (the adaptive
    /// interval starts at one period of it, as the "adaptive render interval" answer starts at 1/60 s; late pacing's limit
    /// is one period of `refresh − 0.5 Hz`).
    pub fn new(pacing: Pacing, refresh_hz: Option<f64>) -> Pacer {
        let hz = refresh_hz
            .filter(|h| h.is_finite() && *h > 1.0)
            .unwrap_or(60.0);
        let period = |hz: f64| ((1e9 / hz).round() as u64).max(1);
        let interval_ns = match pacing {
            Pacing::Cap(cap) | Pacing::Hold(cap) => period(cap),
            Pacing::Late => period(hz - 0.5),
            Pacing::Vsync | Pacing::Adaptive => period(hz),
        };
        Pacer {
            pacing,
            interval_ns,
            missed: 0,
            start_ns: None,
            scheduled_ns: None,
            target_ns: None,
            took_ns: 0,
            next_ns: None,
            recent: VecDeque::with_capacity(RECENT),
            sleep_end_ns: None,
            oversleep_ns: 0,
        }
    }

    /// The pacing it keeps.
    pub fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// The render interval (adaptive), the cap's period or late pacing's limit, ns; none
    /// under vsync.
    pub fn interval_ns(&self) -> Option<u64> {
        (self.pacing != Pacing::Vsync).then_some(self.interval_ns)
    }

    /// Frames whose work ran past the interval (adaptive) or past the next deadline (cap), or
    /// past late pacing's limit.
    pub fn missed(&self) -> u64 {
        self.missed
    }

    /// A frame starts at `now_ns`, its timer having measured `measured_ns` since the last one:
    /// the frame time the loop should step by. Adaptive pacing hands the time between expected
    /// presents (scheduled start + the last frame's length); everything else hands what was
    /// measured.
    pub fn begin(&mut self, now_ns: u64, measured_ns: u64) -> u64 {
        self.start_ns = Some(now_ns);
        if self.pacing == Pacing::Late {
            // bevy_framepace: the sleep just ended; its lateness is fed back once.
            if let Some(end) = self.sleep_end_ns {
                let total = now_ns.saturating_sub(end);
                self.oversleep_ns = total.saturating_sub(self.interval_ns);
            }
            self.sleep_end_ns = Some(now_ns);
        }
        if self.pacing != Pacing::Adaptive {
            return measured_ns;
        }
        let on_schedule = self
            .next_ns
            .filter(|&next| now_ns >= next && now_ns - next <= ON_TIME_NS);
        let scheduled = on_schedule.unwrap_or(now_ns);
        let target = scheduled + self.took_ns;
        let frame = self
            .target_ns
            .map_or(measured_ns, |prev| target.saturating_sub(prev));
        self.scheduled_ns = Some(scheduled);
        self.target_ns = Some(target.max(self.target_ns.unwrap_or(0)));
        frame
    }

    /// Under `hold:HZ`, when this frame may be presented: one period after the deadline it
    /// started at (its start, for the first frame or one that started late); otherwise none.
    pub fn present_not_before_ns(&self) -> Option<u64> {
        let Pacing::Hold(_) = self.pacing else {
            return None;
        };
        let start = self.start_ns?;
        let deadline = self.next_ns.filter(|&d| d <= start).unwrap_or(start);
        Some(deadline + self.interval_ns)
    }

    /// The frame's work is done at `now_ns`: how long to wait before the next frame starts.
    pub fn end(&mut self, now_ns: u64) -> u64 {
        let start = self.scheduled_ns.or(self.start_ns).unwrap_or(now_ns);
        let took = now_ns.saturating_sub(self.start_ns.unwrap_or(now_ns));
        match self.pacing {
            Pacing::Vsync => 0,
            Pacing::Cap(_) | Pacing::Hold(_) => self.wait_for_deadline(now_ns),
            Pacing::Adaptive => {
                self.took_ns = took;
                self.adapt(took);
                let next = start + self.interval_ns;
                self.next_ns = Some(next.max(now_ns));
                next.saturating_sub(now_ns)
            }
            Pacing::Late => {
                let work = now_ns.saturating_sub(self.sleep_end_ns.unwrap_or(now_ns));
                self.missed += u64::from(work > self.interval_ns);
                self.interval_ns
                    .saturating_sub(work.saturating_add(self.oversleep_ns))
            }
        }
    }

    /// [`Pacer::end`] for a host that waits by deadline (winit's `ControlFlow::WaitUntil`):
    /// the frame's work is done at `now_ns` on the pacer's clock, which is `now` as an
    /// [`Instant`]; the next frame may start at the `Instant` returned (`now` when there is
    /// nothing to wait for).
    pub fn end_until(&mut self, now_ns: u64, now: Instant) -> Instant {
        now + Duration::from_nanos(self.end(now_ns))
    }

    /// Seed 001's interval: 1.2× a frame that overran it; otherwise 1/64 shorter each frame,
    /// never below 1.1× the longest of the last 60 frames.
    fn adapt(&mut self, took: u64) {
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(took);
        if took > self.interval_ns {
            self.missed += 1;
            self.interval_ns = took + took / 5;
        } else {
            let floor = self.recent.iter().max().map_or(0, |m| m + m / 10);
            let shrunk = self.interval_ns - self.interval_ns / 64;
            self.interval_ns = shrunk.max(floor).max(1);
        }
    }

    /// The cap: deadlines one period apart from the previous deadline; more than a period
    /// behind, start again from now.
    fn wait_for_deadline(&mut self, now_ns: u64) -> u64 {
        let period = self.interval_ns;
        let due = self.next_ns.map(|d| d.saturating_add(period));
        self.missed += u64::from(due.is_some_and(|d| now_ns > d));
        let deadline = match due {
            Some(d) if d >= now_ns.saturating_sub(period) => d,
            _ => now_ns,
        };
        self.next_ns = Some(deadline);
        deadline.saturating_sub(now_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_is_the_wait_after_the_instant_given() {
        // A 100 Hz cap: the first frame's deadline is its end (3 ms); the second, ending at
        // 5 ms, waits for 13 ms: 8 ms after the instant its work ended.
        let mut p = Pacer::new(Pacing::Cap(100.0), Some(60.0));
        let now = Instant::now();
        p.begin(0, 0);
        assert_eq!(p.end_until(3_000_000, now), now);
        p.begin(3_000_000, 3_000_000);
        let until = p.end_until(5_000_000, now);
        assert_eq!(until, now + Duration::from_millis(8));
    }

    const MS: u64 = 1_000_000;

    /// Runs `frames` frames of `work(i)` ns each under `pacer`, sleeping exactly what it asks;
    /// returns each frame's (start, frame time handed to the loop).
    fn drive(pacer: &mut Pacer, frames: usize, work: impl Fn(usize) -> u64) -> Vec<(u64, u64)> {
        let (mut now, mut last) = (0, 0);
        let mut out = Vec::new();
        for i in 0..frames {
            let handed = pacer.begin(now, now - last);
            last = now;
            out.push((now, handed));
            now += work(i);
            now += pacer.end(now);
        }
        out
    }

    #[test]
    fn a_pacing_fills_the_width_it_is_given_rate_and_all() {
        assert_eq!(format!("{:>9}|", Pacing::Vsync), "    vsync|");
        assert_eq!(format!("{:<9}|", Pacing::Cap(60.0)), "cap:60   |");
        assert_eq!(format!("{:>9}|", Pacing::Hold(59.94)), "hold:59.94|");
    }

    #[test]
    fn names_parse() {
        assert_eq!("cap:59.94".parse::<Pacing>(), Ok(Pacing::Cap(59.94)));
        assert_eq!("LATE".parse::<Pacing>(), Ok(Pacing::Late));
        assert!("cap:0".parse::<Pacing>().is_err());
        assert!("cap:".parse::<Pacing>().is_err());
        assert!(
            "sometimes"
                .parse::<Pacing>()
                .unwrap_err()
                .to_string()
                .contains("adaptive")
        );
        assert_eq!(Pacing::Cap(30.0).to_string(), "cap:30");
    }

    #[test]
    fn every_pacing_round_trips_and_every_miss_says_the_same_as_ever() {
        let all = [
            Pacing::Vsync,
            Pacing::Cap(59.94),
            Pacing::Hold(60.0),
            Pacing::Adaptive,
            Pacing::Late,
        ];
        for (pacing, typed) in all.into_iter().zip(Pacing::NAMES) {
            assert_eq!(pacing.to_string().parse::<Pacing>(), Ok(pacing));
            let keyword = typed.split(':').next().unwrap_or_default();
            assert!(pacing.to_string().starts_with(keyword), "{pacing} {typed}");
        }
        assert_eq!(" Hold:30 ".parse::<Pacing>(), Ok(Pacing::Hold(30.0)));
        let says = |typed: &str| typed.parse::<Pacing>().unwrap_err().to_string();
        let unknown = "(expected vsync, cap:HZ, hold:HZ, adaptive, late)";
        for typed in ["cap", "vsync:3", "cap :60", "Foo:Bar", ":60", ""] {
            let quoted = typed.trim().to_ascii_lowercase();
            assert_eq!(says(typed), format!("unknown pacing '{quoted}' {unknown}"));
        }
        let not_a_rate = "' is not cap:HZ or hold:HZ with a rate in Hz";
        assert_eq!(says("cap: 60"), format!("'cap: 60{not_a_rate}"));
        assert_eq!(says("hold:"), format!("'hold:{not_a_rate}"));
        assert_eq!(says("cap:60:1"), format!("'cap:60:1{not_a_rate}"));
        assert_eq!(says("CAP:1E9"), "cap:1e9 must be 1 to 10000 Hz");
        // Below one frame a second: a window would wait minutes, or for ever, for a frame.
        for slow in [
            "cap:0.01",
            "hold:0.99",
            "cap:1e-300",
            "cap:0",
            "cap:-1",
            "cap:nan",
        ] {
            assert_eq!(says(slow), format!("{slow} must be 1 to 10000 Hz"));
        }
        assert_eq!("cap:1".parse::<Pacing>(), Ok(Pacing::Cap(MIN_HZ)));
    }

    #[test]
    fn adaptive_settles_a_little_above_a_steady_cost_and_then_misses_nothing() {
        let mut p = Pacer::new(Pacing::Adaptive, Some(60.0));
        let frames = drive(&mut p, 600, |_| 20 * MS);
        let interval = p.interval_ns().unwrap();
        assert!(
            (20 * MS..=25 * MS).contains(&interval),
            "{interval} ns for a 20 ms frame"
        );
        let missed = p.missed();
        drive(&mut p, 600, |_| 20 * MS);
        assert_eq!(p.missed(), missed, "settled: no more misses");
        // Once on schedule, the loop is handed the interval itself, whatever the wake-ups.
        assert!(frames[300..].iter().all(|&(_, h)| h == interval));
    }

    #[test]
    fn late_pacing_sleeps_to_the_limit_and_feeds_back_one_frame_of_lateness() {
        let mut p = Pacer::new(Pacing::Late, Some(60.0));
        let limit = p.interval_ns().unwrap();
        assert_eq!(limit, 16_806_723, "bevy_framepace: 1 / 59.5 Hz");
        p.begin(0, 0);
        assert_eq!(p.end(5 * MS), limit - 5 * MS);
        // The sleep overshot by 50 µs: the next frame sleeps 50 µs less, once.
        p.begin(limit + 50_000, limit + 50_000);
        assert_eq!(p.end(limit + 50_000 + 5 * MS), limit - 5 * MS - 50_000);
    }

    #[test]
    fn a_cap_spaces_frame_starts_one_period_apart_from_the_last_deadline() {
        let mut p = Pacer::new(Pacing::Cap(50.0), None);
        // First frame: nothing to wait for.
        p.begin(100 * MS, 0);
        assert_eq!(p.end(100 * MS), 0);
        // The next frame took 5 ms of work: sleep the other 15.
        p.begin(100 * MS, 0);
        assert_eq!(p.end(105 * MS), 15 * MS);
        // Woke 1 ms late at 121 ms; that frame took 4 ms: the deadline is still 140 ms.
        p.begin(121 * MS, 0);
        assert_eq!(p.end(125 * MS), 15 * MS);
        // A slow frame, late by less than a period: no sleep, and the cadence is kept.
        assert_eq!(p.end(163 * MS), 0);
        assert_eq!(p.end(165 * MS), 15 * MS);
    }

    #[test]
    fn hold_presents_each_frame_at_the_next_deadline_whatever_it_cost() {
        let mut p = Pacer::new(Pacing::Hold(50.0), None);
        assert_eq!(Pacing::Hold(50.0).to_string(), "hold:50");
        assert_eq!("hold:50".parse::<Pacing>(), Ok(Pacing::Hold(50.0)));
        // Frames costing 3, 12 and 7 ms, started 20 ms apart: each may be presented 20 ms
        // after its start, which is when the next starts.
        let (mut now, mut holds) = (100 * MS, Vec::new());
        for cost in [3, 12, 7] {
            p.begin(now, 0);
            holds.push(p.present_not_before_ns());
            let shown = holds
                .last()
                .copied()
                .flatten()
                .unwrap_or(0)
                .max(now + cost * MS);
            now = shown + p.end(shown);
        }
        assert_eq!(holds, [Some(120 * MS), Some(140 * MS), Some(160 * MS)]);
        assert_eq!(p.missed(), 0);
        assert_eq!(
            Pacer::new(Pacing::Cap(50.0), None).present_not_before_ns(),
            None
        );
    }

    #[test]
    fn a_cap_keeps_its_average_and_reanchors_after_a_stall() {
        let mut p = Pacer::new(Pacing::Cap(100.0), None);
        let frames = drive(&mut p, 100, |i| if i == 50 { 300 * MS } else { 2 * MS });
        assert!(
            frames[1..50].windows(2).all(|w| w[1].0 - w[0].0 == 10 * MS),
            "one period apart"
        );
        // After the 300 ms frame it starts again from then, not with a burst.
        assert_eq!(frames[52].0 - frames[51].0, 10 * MS);
        assert_eq!(p.missed(), 1);
    }
}
