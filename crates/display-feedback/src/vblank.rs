//! X11's display times without a connection: the vblank clock ([`VblankClock`], the vblanks
//! the Present extension's `PresentNotifyMSC` reports) and what it and the Present completions
//! say of each frame ([`X11Frames`]). `x11.rs` feeds them the server's events.
//!
//! The rules (X.Org `presentproto`, `presentproto.txt`: "PresentCompleteNotify" gives the UST,
//! microseconds, and MSC, the vblank count, of a completed `PresentPixmap` or `PresentNotifyMSC`;
//! its mode is `Skip` when a pixmap was never shown):
//!
//! - A window whose own presents go through Present gets one completion per present, in the
//!   order presented. For the first [`PROBATION`] presents nothing is reported while that is
//!   decided; the first completion makes every later frame's report its completion
//!   ([`Source::X11Present`]), matched in order to the frames presented.
//! - Otherwise (no completion in those presents) each frame is reported at the first vblank
//!   at or after its present returned ([`Source::VblankClock`]), once a vblank at or after it
//!   has been seen: an estimate from a clock. Missed vblanks (the server's events read late,
//!   its notifies fired late) are filled in by whole refresh periods. A frame whose next
//!   frame's present returned by that same vblank is reported discarded: the newer image
//!   replaced it before it was scanned out (as unthrottled presents do, Xvfb's among them).

use crate::{Presented, Source};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Vblanks kept: a second at 60 Hz, plenty to find the one after a frame a few frames late.
const KEPT: usize = 64;

/// Frames waiting for their report, at most: older ones are given up (never reported).
const WAITING: usize = 64;

/// Presents with no report while deciding whether the window's presents complete through
/// Present: a completion comes a frame or two after its present, well within six.
pub(crate) const PROBATION: u32 = 6;

/// The vblanks seen: (MSC, when), oldest first, MSC increasing.
#[derive(Clone, Debug, Default)]
pub(crate) struct VblankClock {
    seen: VecDeque<(u64, Instant)>,
}

impl VblankClock {
    /// Vblank `msc` happened `at`. A repeat of an MSC already seen (a notify for a vblank
    /// already past fires at the current one) is ignored.
    pub fn vblank(&mut self, msc: u64, at: Instant) {
        if self.seen.back().is_some_and(|&(m, _)| m >= msc) {
            return;
        }
        if self.seen.len() == KEPT {
            self.seen.pop_front();
        }
        self.seen.push_back((msc, at));
    }

    /// The newest vblank's MSC.
    pub fn last_msc(&self) -> Option<u64> {
        self.seen.back().map(|&(m, _)| m)
    }

    /// The refresh period, over the vblanks kept.
    pub fn period(&self) -> Option<Duration> {
        let (&(m0, t0), &(m1, t1)) = (self.seen.front()?, self.seen.back()?);
        let n = u32::try_from(m1.checked_sub(m0)?).ok()?;
        (n > 0).then(|| (t1 - t0) / n)
    }

    /// The first vblank at or after `t`, once one at or after it has been seen (`None`: not
    /// yet). Where vblanks between were not seen, whole periods back from the first seen.
    pub fn first_at_or_after(&self, t: Instant) -> Option<Instant> {
        let i = self.seen.iter().position(|&(_, at)| at >= t)?;
        let (mb, b) = self.seen[i];
        let period = match i.checked_sub(1).map(|j| self.seen[j]) {
            Some((ma, _)) if mb - ma == 1 => return Some(b),
            Some((ma, a)) => (b - a) / u32::try_from(mb - ma).unwrap_or(u32::MAX),
            None => match self.period() {
                Some(p) => p,
                None => return Some(b),
            },
        };
        let p = period.as_nanos();
        if p == 0 {
            return Some(b);
        }
        let back = (b - t).as_nanos() / p * p;
        Some(b - Duration::from_nanos(u64::try_from(back).unwrap_or(u64::MAX)))
    }
}

/// How X11 frames are being reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Not yet known: this many presents were made, none completed.
    Deciding(u32),
    /// From the vblank clock.
    Clock,
    /// From the completions of the window's own presents.
    Completions,
}

/// The X11 frames presented and not yet reported, and what reports them.
#[derive(Clone, Debug)]
pub(crate) struct X11Frames {
    pub clock: VblankClock,
    /// (frame, when its present returned), oldest first.
    waiting: VecDeque<(u64, Instant)>,
    mode: Mode,
}

impl Default for X11Frames {
    fn default() -> X11Frames {
        X11Frames {
            clock: VblankClock::default(),
            waiting: VecDeque::new(),
            mode: Mode::Deciding(0),
        }
    }
}

impl X11Frames {
    /// Where reports come from: the vblank clock, unless completions were seen.
    pub fn source(&self) -> Source {
        match self.mode {
            Mode::Completions => Source::X11Present,
            _ => Source::VblankClock,
        }
    }

    /// Frame `frame`'s present returned at `returned`.
    pub fn presented(&mut self, frame: u64, returned: Instant) {
        if self.waiting.len() == WAITING {
            self.waiting.pop_front();
        }
        self.waiting.push_back((frame, returned));
        if let Mode::Deciding(n) = self.mode {
            self.mode = match n + 1 {
                n if n >= PROBATION => Mode::Clock,
                n => Mode::Deciding(n),
            };
        }
    }

    /// A present of the window's completed: shown `at`, or skipped (`None`). The oldest frame
    /// waiting is the one it completes.
    pub fn completed(&mut self, at: Option<Instant>, out: &mut Vec<Presented>) {
        self.mode = Mode::Completions;
        if let Some((frame, _)) = self.waiting.pop_front() {
            out.push(Presented {
                frame,
                shown: at,
                refresh: self.clock.period(),
                source: Source::X11Present,
                called: None,
            });
        }
    }

    /// Reports, from the vblank clock, every waiting frame a vblank has been seen after:
    /// shown at that vblank, or discarded where the next frame's present returned by then.
    /// (Without a next frame yet, none will: it returns after now, and the vblank was seen.)
    pub fn estimate(&mut self, out: &mut Vec<Presented>) {
        if self.mode != Mode::Clock {
            return;
        }
        while let Some(&(frame, returned)) = self.waiting.front() {
            let Some(at) = self.clock.first_at_or_after(returned) else {
                break;
            };
            let replaced = self.waiting.get(1).is_some_and(|&(_, next)| next <= at);
            self.waiting.pop_front();
            out.push(Presented {
                frame,
                shown: (!replaced).then_some(at),
                refresh: self.clock.period(),
                source: Source::VblankClock,
                called: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Duration = Duration::from_nanos(16_666_667);

    /// A clock that saw vblanks `mscs`, vblank k at `t0 + k × P`.
    fn clock(t0: Instant, mscs: &[u64]) -> VblankClock {
        let mut c = VblankClock::default();
        for &m in mscs {
            c.vblank(m, t0 + P * u32::try_from(m).unwrap_or(0));
        }
        c
    }

    #[test]
    fn a_frame_is_shown_at_the_first_vblank_at_or_after_its_present_returned() {
        let t0 = Instant::now();
        let c = clock(t0, &[0, 1, 2, 3]);
        let at = |m: u32| t0 + P * m;
        assert_eq!(c.first_at_or_after(at(1) + P / 3), Some(at(2)));
        assert_eq!(c.first_at_or_after(at(2)), Some(at(2)), "at a vblank: that one");
        assert_eq!(c.first_at_or_after(at(3) + P / 2), None, "not seen yet");
        assert_eq!(c.period(), Some(P));
    }

    #[test]
    fn vblanks_not_seen_are_filled_in_by_whole_periods() {
        let t0 = Instant::now();
        let at = |m: u32| t0 + P * m;
        // Vblanks 3 to 9 were never read: a return just after 5 is shown at 6.
        let c = clock(t0, &[0, 1, 2, 10]);
        let got = c.first_at_or_after(at(5) + P / 4);
        let off = got.map(|g| g.max(at(6)) - g.min(at(6)));
        assert!(off.is_some_and(|d| d < Duration::from_micros(1)), "{off:?}");
        // A repeated MSC (a late notify firing at the current vblank) changes nothing.
        let mut c = clock(t0, &[0, 1, 2]);
        c.vblank(2, at(2) + P / 2);
        assert_eq!(c.last_msc(), Some(2));
        assert_eq!(c.first_at_or_after(at(1) + P / 2), Some(at(2)));
        // With only vblanks after it, the clock's period counts back.
        let c = clock(t0, &[8, 9, 10]);
        let got = c.first_at_or_after(at(6) + P / 4);
        let off = got.map(|g| g.max(at(7)) - g.min(at(7)));
        assert!(off.is_some_and(|d| d < Duration::from_micros(1)), "{off:?}");
    }

    #[test]
    fn without_completions_frames_are_estimated_from_the_clock_after_probation() {
        let t0 = Instant::now();
        let at = |m: u32| t0 + P * m;
        let mut frames = X11Frames {
            clock: clock(t0, &[0]),
            ..X11Frames::default()
        };
        let mut out = Vec::new();
        for f in 0..u64::from(PROBATION) {
            frames.presented(f, at(u32::try_from(f).unwrap_or(0)) + P / 2);
            frames.estimate(&mut out);
        }
        assert_eq!(frames.source(), Source::VblankClock);
        for m in 1..=u32::from(u8::try_from(PROBATION).unwrap_or(6)) {
            frames.clock.vblank(u64::from(m), at(m));
        }
        frames.estimate(&mut out);
        let got: Vec<(u64, Option<Instant>)> = out.iter().map(|p| (p.frame, p.shown)).collect();
        let want: Vec<(u64, Option<Instant>)> = (0..u64::from(PROBATION))
            .map(|f| (f, Some(at(u32::try_from(f + 1).unwrap_or(0)))))
            .collect();
        assert_eq!(got, want);
        assert!(out.iter().all(|p| p.source == Source::VblankClock));
        assert!(out.iter().all(|p| p.refresh == Some(P)));
    }

    #[test]
    fn a_frame_replaced_before_its_vblank_is_estimated_discarded() {
        let t0 = Instant::now();
        let at = |m: u32| t0 + P * m;
        let mut frames = X11Frames {
            clock: clock(t0, &[0, 1, 2, 3]),
            mode: Mode::Clock,
            ..X11Frames::default()
        };
        // Frames 0 and 1 both return between vblanks 1 and 2; frame 2 after vblank 2.
        frames.presented(0, at(1) + P / 4);
        frames.presented(1, at(1) + P / 2);
        frames.presented(2, at(2) + P / 2);
        let mut out = Vec::new();
        frames.estimate(&mut out);
        let got: Vec<(u64, Option<Instant>)> = out.iter().map(|p| (p.frame, p.shown)).collect();
        assert_eq!(got, [(0, None), (1, Some(at(2))), (2, Some(at(3)))]);
    }

    #[test]
    fn completions_report_the_frames_in_order_and_a_skip_as_discarded() {
        let t0 = Instant::now();
        let mut frames = X11Frames::default();
        let mut out = Vec::new();
        for f in 10..13 {
            frames.presented(f, t0);
        }
        frames.completed(Some(t0 + P), &mut out);
        frames.completed(None, &mut out);
        frames.estimate(&mut out);
        assert_eq!(frames.source(), Source::X11Present);
        let got: Vec<(u64, Option<Instant>, Source)> =
            out.iter().map(|p| (p.frame, p.shown, p.source)).collect();
        assert_eq!(
            got,
            [
                (10, Some(t0 + P), Source::X11Present),
                (11, None, Source::X11Present)
            ]
        );
        // Past probation, still completions: the clock estimates nothing.
        for f in 13..30 {
            frames.presented(f, t0);
        }
        frames.clock.vblank(1, t0 + P);
        let before = out.len();
        frames.estimate(&mut out);
        assert_eq!(out.len(), before);
    }
}
