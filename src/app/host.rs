//! The window as a host of the frame protocol (`timestep_lab::protocol::frame`): its clock and sleep are a
//! [`Wall`], its present draws the session's screen into a [`Present`]er's buffer and shows it.
//! Both are traits so that the very same host runs on a scripted clock in the tests; the winit
//! handler in `app/mod.rs` supplies `Instant`, spin_sleep and the GPU.

use super::display::{DisplayBook, FrameDisplay, ns_at};
use super::pacing::FpsMeter;
use display_feedback::{Presented, Source};
use std::collections::VecDeque;
use std::time::Instant;
use timestep_lab::model::lane::Lane;
use timestep_lab::protocol::feedback::Displayed;
use timestep_lab::protocol::frame::{FrameDone, Host, Shown, VblankCounter, Wall};
use timestep_lab::util::fast::millis_f;
use timestep_lab::view::draw::{
    CaptureCaption, FrameStrip, HudInfo, Overlay, Screen, Texts, explosion_banner,
};
use timestep_loop::{NS_PER_MS, Named, millis};

/// The window's clock: a [`Wall`] that may be a capture played on the real one.
pub trait WindowWall: Wall {
    /// The real time now, which the user's hand moves in (a replayed capture's clock is not).
    fn real_ns(&mut self) -> u64 {
        self.now_ns()
    }
    /// The frame just presented: when it reached the screen, as far as this clock knows (the
    /// present's return), or `None` if it never did (a replayed frame its game never showed).
    fn shown(&mut self) -> Option<u64> {
        Some(self.now_ns())
    }
    /// What the HUD says of the clock: a replayed capture's name and the frame showing.
    fn caption(&self) -> Option<CaptureCaption> {
        None
    }
    /// Whether its readings hold the program's own pauses (a live clock does; a replayed
    /// capture's frame times are the capture's, and every one of them is a frame's).
    fn live(&self) -> bool {
        true
    }
}

/// Where the window's frames are drawn and shown.
pub trait Present {
    /// Why nothing can be shown any more (the GPU failing).
    type Error: std::error::Error;
    /// The present mode in use, as the HUD says it.
    fn present_mode(&self) -> String;
    /// Draws with `draw` (given the buffer, its width and height; it returns the frame's text,
    /// to paint over the buffer) and shows the result. `Ok(false)`: nothing could be shown
    /// this time (minimised, occluded, too large).
    fn present(
        &mut self,
        draw: &mut dyn FnMut(&mut [u8], u32, u32) -> Texts,
    ) -> Result<bool, Self::Error>;
    /// The HUD's figures for this frame (`None`: hidden), before [`Present::present`]; true
    /// when the presenter shows them itself (the window's egui HUD), so the buffer leaves
    /// their text out.
    fn hud_text(&mut self, _hud: Option<&HudInfo>) -> bool {
        false
    }
    /// The next [`Present::present`] is the host's frame `number` (present feedback names
    /// frames by it).
    fn presenting(&mut self, number: u64) {
        let _ = number;
    }
    /// What the display said of past frames since the last call (present feedback), oldest
    /// first; none by default.
    fn displayed(&mut self, out: &mut Vec<Presented>) {
        let _ = out;
    }
    /// Where display times come from, and why there are none.
    fn display_source(&self) -> (Source, Option<&str>) {
        (Source::None, Some("this presenter learns no display times"))
    }
}

/// What the window measures of itself, beside the lanes' books: frames per second, the last
/// frame time, input latency from event to present, and what the display said of the frames.
#[derive(Clone, Debug, Default)]
pub struct Meter {
    pub fps: FpsMeter,
    pub last_frame_ns: u64,
    /// Input latencies, event to present, ns: the most recent [`INPUT_MEAN_OF`].
    pub input_latency: VecDeque<u64>,
    /// Display times, as present feedback gives them.
    pub display: DisplayBook,
}

/// Inputs the HUD's mean latency is taken over.
pub const INPUT_MEAN_OF: usize = 30;

impl Meter {
    /// An input (key or mouse) reached the screen `ns` after it happened.
    pub fn input_shown(&mut self, ns: u64) {
        if self.input_latency.len() == INPUT_MEAN_OF {
            self.input_latency.pop_front();
        }
        self.input_latency.push_back(ns);
    }

    /// The HUD's input row: the last latency and the mean of the recent ones.
    pub fn input_summary(&self) -> String {
        let Some(&last) = self.input_latency.back() else {
            return String::new();
        };
        let sum: u64 = self.input_latency.iter().sum();
        let mean = sum as f64 / self.input_latency.len() as f64;
        format!("{:.1} ms, mean {:.1}", millis(last), millis_f(mean))
    }
}

/// How the lanes are laid out: the focused one alone, side by side, or over each other in
/// one pane, each in its colour (`V`, `O`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Single,
    Split,
    Overlay,
}

impl Named for View {
    const ALL: &'static [View] = &[View::Single, View::Split, View::Overlay];
    const WHAT: &'static str = "view";
    fn name(self) -> &'static str {
        match self {
            View::Single => "single",
            View::Split => "split",
            View::Overlay => "overlay",
        }
    }
}

/// What the window shows: which lanes, and what is drawn over them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewState {
    /// The lane the keys act on, and the one the single view shows.
    pub focus: usize,
    /// The [`View`], as the present reads it (see [`ViewState::layout`]): every lane side by
    /// side (the overlay too), and over each other.
    split: bool,
    pub show_hud: bool,
    pub show_help: bool,
    /// The free end's trail (`G`).
    pub trail: bool,
    overlay: bool,
    /// Paused and stepped back this many frames (`,`): the lanes are drawn as that frame
    /// showed them.
    pub rewind: usize,
    /// The control panel (`F2`).
    pub show_panel: bool,
    /// The panel stepped aside when the window grew too narrow for it, and shows again when
    /// it is wide enough (`F2` ends that).
    pub panel_aside: bool,
}

impl ViewState {
    /// How the lanes are laid out.
    pub fn layout(&self) -> View {
        match (self.split, self.overlay) {
            (_, true) => View::Overlay,
            (true, false) => View::Split,
            (false, false) => View::Single,
        }
    }

    /// Lays the lanes out as `view`.
    pub fn set_layout(&mut self, view: View) {
        (self.split, self.overlay) = (view != View::Single, view == View::Overlay);
    }

    /// The lanes on screen, by index: all of them in the split view and the overlay, the
    /// focused one otherwise.
    pub fn shown(&self, lanes: usize) -> Vec<usize> {
        if self.split || self.overlay {
            (0..lanes).collect()
        } else {
            vec![self.focus.min(lanes.saturating_sub(1))]
        }
    }
}

/// The HUD's numbers, all measured: the lanes shown, and what the window measured itself
/// (paused, what the strip holds: see [`held_rate`]).
pub fn hud_info(
    shown: &[&Lane],
    meter: &Meter,
    strip: &FrameStrip,
    view: ViewState,
    paused: bool,
    pacing: String,
    present_mode: String,
) -> HudInfo {
    let live = (meter.fps.fps(), millis(meter.last_frame_ns));
    let (fps, frame_ms) = paused.then(|| held_rate(strip)).flatten().unwrap_or(live);
    let mut hud = HudInfo {
        fps,
        frame_ms,
        paused,
        overlay: view.overlay,
        rewound: if paused { view.rewind } else { 0 },
        pacing,
        input: meter.input_summary(),
        present_mode,
        display: Some(meter.display.hud()),
        ..HudInfo::new(shown)
    };
    if paused {
        for row in &mut hud.lanes {
            row.steps = 0;
        }
    }
    hud
}

/// Paused, the HUD's frame rate and last frame time are those of the frames the strip holds
/// (their mean rate, the newest's time), as the strip and the pane labels hold them; the live
/// meter would keep changing under a frozen picture. `None` with no frame kept.
fn held_rate(strip: &FrameStrip) -> Option<(f64, f64)> {
    let (mut sum, mut n, mut last) = (0.0f64, 0u32, None);
    for (ms, _) in strip.iter().filter(|(ms, _)| ms.is_finite() && *ms > 0.0) {
        sum += f64::from(ms);
        n += 1;
        last = Some(f64::from(ms));
    }
    last.map(|last| (1e3 * f64::from(n) / sum, last))
}

/// The most real time a lesson's step cost spends in one frame: 500 ms. A frame of more ticks
/// (a capture's gap frame runs up to 65,536) costs this and runs the rest free, instead of
/// freezing the window for minutes. The spiral lesson peaks at 25 ticks × 12 ms = 300 ms,
/// under it: a cap of a few 60 Hz frames would hold that lesson at 10 ticks and stop its
/// spiral.
pub const MAX_STEP_COST_NS: u64 = 500 * NS_PER_MS;

/// One frame's window host: the session's screen and meter, a wall clock and a presenter.
pub struct WindowHost<'a, W: WindowWall, P: Present> {
    pub wall: &'a mut W,
    pub presenter: &'a mut P,
    pub screen: &'a mut Screen,
    pub meter: &'a mut Meter,
    pub vblanks: &'a mut VblankCounter,
    pub view: ViewState,
    /// The particle the mouse holds, in every rope.
    pub grabbed: Option<timestep_lab::view::draw::Grip>,
    pub help: &'a [String],
    /// The pacing line of the HUD.
    pub pacing: String,
    /// CPU time each tick costs (a lesson's), spent before presenting, ns; at most
    /// [`MAX_STEP_COST_NS`] a frame.
    pub step_cost_ns: u64,
    /// A lesson's caption, drawn over the panes.
    pub caption: &'a [String],
    /// The one-line key hint.
    pub hint: &'a str,
    /// Every lane's colour, kept while the lanes run.
    pub colours: &'a [usize],
    /// When the pacing lets the next frame start, ns of the real clock (`None`: at once):
    /// the window waits for it in its event loop, not in the frame.
    pub next_frame_ns: Option<u64>,
}

impl<W: WindowWall, P: Present> WindowHost<'_, W, P> {
    /// The real time `ticks` ticks of one frame cost: the step cost each, at most
    /// [`MAX_STEP_COST_NS`].
    fn cost_of(&self, ticks: u64) -> u64 {
        ticks
            .saturating_mul(self.step_cost_ns)
            .min(MAX_STEP_COST_NS)
    }
}

impl<W: WindowWall, P: Present> Wall for WindowHost<'_, W, P> {
    fn now_ns(&mut self) -> u64 {
        self.wall.now_ns()
    }
    fn sleep(&mut self, ns: u64) {
        if ns > 0 {
            self.wall.sleep(ns);
        }
    }
}

impl<W: WindowWall, P: Present> WindowHost<'_, W, P> {
    /// With a step cost, the ticks the lanes that ran this frame took.
    fn charge_step_cost(&mut self, lanes: &[Lane], ran: &[bool]) {
        if self.step_cost_ns > 0 {
            let ticks: u64 = lanes
                .iter()
                .zip(ran)
                .filter(|(_, ran)| **ran)
                .map(|(lane, _)| u64::from(lane.last().steps))
                .sum();
            self.wall.sleep(self.cost_of(ticks));
        }
    }

    /// The frame's steps and step starts for the strip, of the lanes `shown`. Paused, the
    /// strip holds still: it shows the frames up to the pause.
    fn push_strip(&mut self, frame: &FrameDone, lanes: &[Lane], ran: &[bool], shown: &[usize]) {
        if frame.paused {
            return;
        }
        let steps: Vec<u32> = shown
            .iter()
            .map(|&i| if ran[i] { lanes[i].last().steps } else { 0 })
            .collect();
        let starts: Vec<&[u64]> = shown
            .iter()
            .map(|&i| lanes[i].record().step_starts())
            .collect();
        self.screen.push_frame(frame.frame_ns, &steps);
        self.screen.push_step_starts(frame.start_ns, &starts);
    }

    /// What the presenter learned of past frames' display, put on the wall's clock and into
    /// the meter's book.
    fn learn_display(&mut self) {
        let mut heard = Vec::new();
        self.presenter.displayed(&mut heard);
        let (source, why) = self.presenter.display_source();
        self.meter.display.set_source(source, why);
        if heard.is_empty() {
            return;
        }
        let (now, now_ns) = (Instant::now(), self.wall.now_ns());
        for p in &heard {
            let d = FrameDisplay::of(p, |t| ns_at(t, now, now_ns));
            self.meter.display.learn(d);
        }
    }

    /// The HUD's figures for the lanes `shown`.
    fn hud(&mut self, shown: &[&Lane], paused: bool) -> HudInfo {
        let pacing = std::mem::take(&mut self.pacing);
        let mode = self.presenter.present_mode();
        HudInfo {
            capture: self.wall.caption(),
            ..hud_info(
                shown,
                self.meter,
                self.screen.strip(),
                self.view,
                paused,
                pacing,
                mode,
            )
        }
    }
}

impl<W: WindowWall, P: Present> Host for WindowHost<'_, W, P> {
    /// With a step cost, steps run back to back from the frame's start, as simulated (those
    /// past the frame's cap all at its end).
    fn step_time_ns(&mut self, start_ns: u64, index: u64) -> u64 {
        match self.step_cost_ns {
            0 => self.wall.now_ns(),
            _ => start_ns + self.cost_of(index),
        }
    }
    /// The pacing's wait is not slept here: it is noted, and the window serves its events
    /// while it waits (see `pacing::wait_before_frame`).
    fn pace(&mut self, ns: u64) {
        self.next_frame_ns = (ns > 0).then(|| self.wall.real_ns().saturating_add(ns));
    }
    /// What the presenter's feedback said since the last frame, with what the book held for
    /// the protocol.
    fn displayed(&mut self, out: &mut Vec<Displayed>) {
        self.learn_display();
        self.meter.display.take_queued(out);
    }
    /// Whether the presenter has present feedback (none: no window, or no source here).
    fn gives_feedback(&self) -> bool {
        self.presenter.display_source().0 != Source::None
    }
    /// The presenter's error, if it fails, is the frame's.
    type Error = P::Error;
    fn present(
        &mut self,
        frame: &FrameDone,
        lanes: &[Lane],
        ran: &[bool],
    ) -> Result<Option<Shown>, P::Error> {
        self.charge_step_cost(lanes, ran);
        self.meter.fps.push(frame.frame_ns);
        self.meter.last_frame_ns = frame.frame_ns;
        let shown: Vec<usize> = self.view.shown(lanes.len());
        self.push_strip(frame, lanes, ran, &shown);
        let shown_lanes: Vec<&Lane> = shown.iter().map(|&i| &lanes[i]).collect();
        let colours: Vec<usize> = shown
            .iter()
            .filter_map(|&i| self.colours.get(i))
            .copied()
            .collect();
        self.meter.display.hold_hud(frame.paused);
        // The key help hides the HUD: the help is read over everything, the HUD's bar or
        // column would cover its top.
        let hud = (self.view.show_hud && !self.view.show_help)
            .then(|| self.hud(&shown_lanes, frame.paused));
        let banner = (!self.view.split && !self.view.overlay)
            .then(|| shown_lanes.first().and_then(|l| explosion_banner(l)))
            .flatten();
        let hud_elsewhere = self.presenter.hud_text(hud.as_ref());
        let overlay = Overlay {
            hud: hud.as_ref().filter(|_| !hud_elsewhere),
            strip: self.view.show_hud,
            help: self.view.show_help.then_some(self.help),
            banner: banner.as_deref(),
            grabbed: self.grabbed,
            focused: if self.view.split || self.view.overlay {
                self.view.focus
            } else {
                0
            },
            trail: self.view.trail,
            caption: (!self.caption.is_empty()).then_some(self.caption),
            hint: Some(self.hint),
            rewind: if frame.paused { self.view.rewind } else { 0 },
            keep: !frame.paused,
            colours: Some(&colours),
        };
        // `hold:HZ`: wait for the frame's present time (before drawing, which is quick).
        if let Some(at_ns) = frame.present_not_before_ns {
            let now_ns = self.wall.now_ns();
            self.wall.sleep(at_ns.saturating_sub(now_ns));
        }
        let screen = &mut *self.screen;
        self.presenter.presenting(frame.number);
        let drawn = self
            .presenter
            .present(&mut |buffer, _, _| screen.draw(buffer, &shown_lanes, &overlay).clone())?;
        let at_ns = if drawn { self.wall.shown() } else { None };
        // The focused lane's simulation time shown, for the animation error (none paused).
        let focused = lanes.get(self.view.focus.min(lanes.len().saturating_sub(1)));
        let sim_ns = focused.filter(|_| !frame.paused).map(|l| l.last().shown_ns);
        self.meter.display.note(frame.number, drawn, sim_ns);
        self.learn_display();
        Ok(at_ns.map(|at_ns| Shown {
            at_ns,
            vblank: self.vblanks.at(at_ns),
        }))
    }
}
