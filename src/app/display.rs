//! What the display really did with the window's frames, as present feedback tells it (the
//! `display-feedback` crate: Wayland's presentation feedback, X11 Present, or X11's vblank
//! clock): each frame's display time on the window's clock, for the frame log, the frame
//! protocol's [`Host::displayed`](timestep_lab::protocol::frame::Host::displayed) and the HUD's
//! figures. Plain data: the window host hands it what the presenter learned.
//!
//! The HUD's figures, over the last [`RECENT`] frames displayed:
//! - the interval between display changes (PresentMon's `MsBetweenDisplayChange`: from one
//!   frame shown to the next shown, discarded frames left out);
//! - the latency from the present call to the display (PresentMon's `MsUntilDisplayed` counts
//!   from the present call too);
//! - the animation error, PresentMon's definition: for each frame displayed, the change in
//!   the simulation time it shows minus the change in display time since the frame displayed
//!   before it (0: the motion on screen keeps time with the display), as an RMS. Of the
//!   focused lane; a pause or a jump back in its simulation time starts the count afresh;
//! - frames discarded (never shown), counted since the window opened.

use display_feedback::{Presented, Source};
use std::collections::VecDeque;
use std::time::Instant;
use timestep_lab::protocol::feedback::Displayed;
use timestep_lab::protocol::frame_csv::DisplaySource;
use timestep_lab::view::draw::DisplayInfo;

/// Displayed frames the HUD's means are taken over: a second or so.
pub const RECENT: usize = 60;
/// Frames presented that are remembered for their feedback, which comes a few frames late.
const NOTED: usize = 64;
/// Feedback kept for the frame protocol until it asks (it asks only while a lane's timer
/// uses it).
const QUEUED: usize = 64;

/// One frame's display, on the window's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameDisplay {
    /// The frame: the host's [`FrameDone::number`](timestep_lab::protocol::frame::FrameDone).
    pub frame: u64,
    /// When it was shown, ns of the window's clock; `None`: discarded.
    pub at_ns: Option<u64>,
    /// When its present was called, ns, if known.
    pub called_ns: Option<u64>,
    /// The display's refresh period, ns, if known.
    pub refresh_ns: Option<u64>,
    /// Who said so.
    pub source: DisplaySource,
}

impl FrameDisplay {
    /// `p`, its `Instant`s put on the window's clock by `ns_of`.
    pub fn of(p: &Presented, ns_of: impl Fn(Instant) -> u64) -> FrameDisplay {
        FrameDisplay {
            frame: p.frame,
            at_ns: p.shown.map(&ns_of),
            called_ns: p.called.map(&ns_of),
            refresh_ns: p
                .refresh
                .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)),
            source: log_source(p.source),
        }
    }
}

/// A source, as the frame log names it.
pub fn log_source(source: Source) -> DisplaySource {
    match source {
        Source::Wayland => DisplaySource::Wayland,
        Source::X11Present => DisplaySource::X11Present,
        Source::VblankClock => DisplaySource::VblankClock,
        Source::None => DisplaySource::None,
    }
}

/// `then`, an `Instant`, on a clock that reads `now_ns` at `now`.
pub fn ns_at(then: Instant, now: Instant, now_ns: u64) -> u64 {
    let ns = |d: std::time::Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    match then.checked_duration_since(now) {
        Some(later) => now_ns.saturating_add(ns(later)),
        None => now_ns.saturating_sub(ns(now - then)),
    }
}

/// A frame presented, as remembered for its feedback.
#[derive(Clone, Copy, Debug)]
struct Note {
    frame: u64,
    /// Whether it was drawn and presented (feedback on a frame that was not is ignored).
    drawn: bool,
    /// The simulation time the focused lane showed, ns; `None` when paused.
    sim_ns: Option<u64>,
}

/// The last `n` of something, with their mean.
#[derive(Clone, Debug, Default)]
struct Recent(VecDeque<f64>);

impl Recent {
    fn push(&mut self, v: f64) {
        if self.0.len() == RECENT {
            self.0.pop_front();
        }
        self.0.push_back(v);
    }
    fn mean(&self) -> Option<f64> {
        (!self.0.is_empty()).then(|| self.0.iter().sum::<f64>() / self.0.len() as f64)
    }
    fn rms(&self) -> Option<f64> {
        (!self.0.is_empty())
            .then(|| (self.0.iter().map(|v| v * v).sum::<f64>() / self.0.len() as f64).sqrt())
    }
}

/// The window's book of display times.
#[derive(Clone, Debug)]
pub struct DisplayBook {
    source: Source,
    why: Option<String>,
    notes: VecDeque<Note>,
    /// Feedback the frame protocol has not taken yet, oldest first.
    queue: VecDeque<Displayed>,
    /// Feedback learned since the frame log last took it.
    fresh: Vec<FrameDisplay>,
    /// The last frame shown: when, and the simulation time it showed.
    last: Option<(u64, Option<u64>)>,
    intervals_ms: Recent,
    latencies_ms: Recent,
    anim_errors_ms: Recent,
    shown: u64,
    discarded: u64,
    /// The HUD's figures held while paused (see [`DisplayBook::hold_hud`]).
    held: Option<DisplayInfo>,
}

impl Default for DisplayBook {
    fn default() -> DisplayBook {
        DisplayBook {
            source: Source::None,
            why: Some("no window yet".into()),
            notes: VecDeque::new(),
            queue: VecDeque::new(),
            fresh: Vec::new(),
            last: None,
            intervals_ms: Recent::default(),
            latencies_ms: Recent::default(),
            anim_errors_ms: Recent::default(),
            shown: 0,
            discarded: 0,
            held: None,
        }
    }
}

impl DisplayBook {
    /// Where display times come from now, and why there are none.
    pub fn set_source(&mut self, source: Source, why: Option<&str>) {
        self.source = source;
        if self.why.as_deref() != why {
            self.why = why.map(str::to_string);
        }
    }

    /// Where display times come from.
    pub fn source(&self) -> Source {
        self.source
    }

    /// Frame `frame` was presented (`drawn`: it reached the present), showing the focused
    /// lane at simulation time `sim_ns` (`None`: paused).
    pub fn note(&mut self, frame: u64, drawn: bool, sim_ns: Option<u64>) {
        if self.notes.len() == NOTED {
            self.notes.pop_front();
        }
        self.notes.push_back(Note {
            frame,
            drawn,
            sim_ns,
        });
    }

    /// What the display said of one frame.
    pub fn learn(&mut self, d: FrameDisplay) {
        let note = self.notes.iter().find(|n| n.frame == d.frame).copied();
        if note.is_some_and(|n| !n.drawn) {
            return;
        }
        if self.queue.len() == QUEUED {
            self.queue.pop_front();
        }
        self.queue.push_back(Displayed {
            frame: d.frame,
            at_ns: d.at_ns,
            refresh_ns: d.refresh_ns,
        });
        if self.fresh.len() < 4 * NOTED {
            self.fresh.push(d);
        }
        let Some(at) = d.at_ns else {
            self.discarded += 1;
            return;
        };
        self.shown += 1;
        let ms = |ns: i128| ns as f64 / 1e6;
        if let Some(called) = d.called_ns {
            self.latencies_ms
                .push(ms(i128::from(at) - i128::from(called)));
        }
        let sim = note.and_then(|n| n.sim_ns);
        if let Some((then, then_sim)) = self.last {
            let shown_for = i128::from(at) - i128::from(then);
            self.intervals_ms.push(ms(shown_for));
            if let (Some(a), Some(b)) = (then_sim, sim)
                && b >= a
            {
                let error = i128::from(b - a) - shown_for;
                self.anim_errors_ms.push(ms(error));
            }
        }
        self.last = Some((at, sim));
    }

    /// Feedback for the frame protocol, oldest first, handed over once.
    pub fn take_queued(&mut self, out: &mut Vec<Displayed>) {
        out.extend(self.queue.drain(..));
    }

    /// Feedback learned since the last call, for the frame log.
    pub fn take_fresh(&mut self) -> Vec<FrameDisplay> {
        std::mem::take(&mut self.fresh)
    }

    /// Paused, the HUD's figures hold what they said when the pause began (as the frame rate
    /// does): the display goes on changing, but a frozen picture's HUD should not, or egui
    /// paints it again every frame.
    pub fn hold_hud(&mut self, paused: bool) {
        self.held = match paused {
            true => Some(self.held.take().unwrap_or_else(|| self.live_hud())),
            false => None,
        };
    }

    /// The HUD's figures (held while paused).
    pub fn hud(&self) -> DisplayInfo {
        self.held.clone().unwrap_or_else(|| self.live_hud())
    }

    /// The HUD's figures now.
    fn live_hud(&self) -> DisplayInfo {
        DisplayInfo {
            unavailable: match self.source {
                Source::None => Some(self.why.clone().unwrap_or_else(|| "unknown".into())),
                _ => None,
            },
            measured: self.source.measured(),
            interval_ms: self.intervals_ms.mean(),
            latency_ms: self.latencies_ms.mean(),
            anim_error_ms: self.anim_errors_ms.rms(),
            discarded: self.discarded,
        }
    }

    /// The report's `display` object.
    pub fn summary(&self) -> serde_json::Value {
        serde_json::json!({
            "source": self.source.name(),
            "measured": self.source.measured(),
            "why_none": self.why,
            "frames_shown": self.shown,
            "frames_discarded": self.discarded,
            "interval_ms_mean": self.intervals_ms.mean(),
            "latency_ms_mean": self.latencies_ms.mean(),
            "animation_error_ms_rms": self.anim_errors_ms.rms(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(frame: u64, at_ns: u64, called_ns: u64) -> FrameDisplay {
        FrameDisplay {
            frame,
            at_ns: Some(at_ns),
            called_ns: Some(called_ns),
            refresh_ns: Some(16_666_667),
            source: DisplaySource::Wayland,
        }
    }

    #[test]
    fn intervals_latency_and_animation_error_are_presentmons() {
        let mut book = DisplayBook::default();
        book.set_source(Source::Wayland, None);
        // Simulation time moves 16 ms a frame; the display shows them 17, 17, then 34 apart.
        for (frame, sim) in [(0, 0), (1, 16), (2, 32), (3, 48)] {
            book.note(frame, true, Some(sim * 1_000_000));
        }
        let ms = 1_000_000;
        book.learn(shown(0, 100 * ms, 64 * ms));
        book.learn(shown(1, 117 * ms, 81 * ms));
        book.learn(FrameDisplay {
            at_ns: None,
            ..shown(2, 0, 98 * ms)
        });
        book.learn(shown(3, 151 * ms, 115 * ms));
        let hud = book.hud();
        assert_eq!(hud.unavailable, None);
        assert!(hud.measured);
        assert_eq!(hud.discarded, 1);
        // Intervals 17 and 34; latencies all 36.
        assert_eq!(hud.interval_ms, Some(25.5));
        assert_eq!(hud.latency_ms, Some(36.0));
        // Errors: 16 - 17 = -1; 32 - 34 = -2 (frame 2 was never shown): rms sqrt(2.5).
        let rms = hud.anim_error_ms.unwrap_or(0.0);
        assert!((rms - 2.5f64.sqrt()).abs() < 1e-9, "{rms}");
        let mut queued = Vec::new();
        book.take_queued(&mut queued);
        assert_eq!(queued.len(), 4);
        assert_eq!(queued[2].at_ns, None);
        assert_eq!(book.take_fresh().len(), 4);
        assert!(book.take_fresh().is_empty());
    }

    #[test]
    fn a_pause_starts_the_animation_error_afresh_and_an_undrawn_frame_is_ignored() {
        let mut book = DisplayBook::default();
        book.note(0, true, Some(0));
        book.note(1, true, None);
        book.note(2, true, Some(500_000_000));
        book.note(3, false, Some(516_000_000));
        let ms = 1_000_000;
        for (f, at) in [(0, 100), (1, 117), (2, 134), (3, 151)] {
            book.learn(shown(f, at * ms, (at - 30) * ms));
        }
        assert_eq!(book.hud().anim_error_ms, None);
        assert_eq!(book.hud().interval_ms, Some(17.0));
        assert_eq!(
            book.take_fresh().len(),
            3,
            "the undrawn frame's is left out"
        );
    }

    #[test]
    fn paused_the_hud_holds_its_figures_while_the_display_goes_on() {
        let mut book = DisplayBook::default();
        book.set_source(Source::Wayland, None);
        let ms = 1_000_000;
        book.learn(shown(0, 100 * ms, 70 * ms));
        book.learn(shown(1, 117 * ms, 87 * ms));
        book.hold_hud(true);
        let held = book.hud();
        book.learn(shown(2, 150 * ms, 104 * ms));
        assert_eq!(book.hud(), held);
        book.hold_hud(true);
        assert_eq!(book.hud(), held);
        book.hold_hud(false);
        assert_eq!(book.hud().interval_ms, Some(25.0));
    }

    #[test]
    fn without_feedback_the_hud_says_why() {
        let mut book = DisplayBook::default();
        book.set_source(
            Source::None,
            Some("the compositor offers no wp_presentation"),
        );
        let hud = book.hud();
        assert_eq!(
            hud.unavailable.as_deref(),
            Some("the compositor offers no wp_presentation")
        );
        assert_eq!(book.summary()["source"], "none");
    }

    #[test]
    fn an_instant_lands_on_the_windows_clock() {
        let now = Instant::now();
        let d = std::time::Duration::from_millis(5);
        assert_eq!(ns_at(now, now, 1_000_000_000), 1_000_000_000);
        assert_eq!(ns_at(now + d, now, 1_000_000_000), 1_005_000_000);
        if let Some(before) = now.checked_sub(d) {
            assert_eq!(ns_at(before, now, 1_000_000_000), 995_000_000);
            assert_eq!(ns_at(before, now, 1), 0);
        }
    }
}
