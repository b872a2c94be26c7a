//! The window's state and rules, without the window: what each [`Action`] does, how a frame
//! advances every lane, the mouse, the views (one lane, or the split view of up to four), and
//! what the HUD shows. The winit handler in `app/mod.rs` only reads the clock, forwards events
//! here, and presents; everything here is plain data and tested without a display.
//!
//! Every lane is fed the same measured frame times and the same hand, so every difference on
//! screen between lanes comes from the loop alone.

use super::bindings::{Action, help_lines};
use super::drag::Hand;
use super::output::FrameRow;
use super::pacing::{FpsMeter, cap_down, cap_up};
use crate::cli::WindowConfig;
use crate::draw::{
    FrameStrip, HudInfo, LanePanes, Layout, Renderer, Scene, explosion_banner, pacing_summary,
};
use crate::lane::{Lane, LaneSpec};
use crate::policy::PolicyEnv;
use crate::rope::RopeParams;
use crate::timing::{Mode, Pacing, seconds};
use glam::Vec2;

/// The stall the `S` key injects.
pub const STALL_NS: u64 = 300_000_000;
/// Inputs the HUD's mean latency is taken over.
const INPUT_MEAN_OF: usize = 30;

/// The pacing for a cap from `[` `]`: none is vsync.
fn capped(cap: Option<f64>) -> Pacing {
    cap.map_or(Pacing::Vsync, Pacing::Cap)
}

/// What one frame did, for the frame log and the caller.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameReport {
    pub now_ns: u64,
    pub frame_ns: u64,
    pub paused: bool,
    /// One row per lane shown (all of them in the split view, the one shown otherwise).
    pub rows: Vec<FrameRow>,
}

#[derive(Debug)]
pub struct Session {
    params: RopeParams,
    lanes: Vec<Lane>,
    /// The lane the keys act on, and the one the single view shows.
    focus: usize,
    /// Every lane side by side, or the focused one alone.
    split: bool,
    layout: Layout,
    size: (u32, u32),
    renderer: Renderer,
    panes: LanePanes,
    help: Vec<String>,
    strip: FrameStrip,
    fps: FpsMeter,
    last_frame_ns: u64,
    /// Wall time spent paused, ns: the lanes' divergence watches are handed wall time minus
    /// this, so a paused explosion's countdown holds.
    paused_ns: u64,
    paused: bool,
    show_hud: bool,
    show_help: bool,
    pacing: Pacing,
    /// What the window's pacer measured, for the HUD.
    pacing_status: (Option<u64>, u64),
    /// Input latencies, event to present, ns: the most recent ones (for the HUD's mean).
    input_latency: std::collections::VecDeque<u64>,
    /// When each step of each lane began this frame, ns (the window's clock).
    step_starts: Vec<Vec<u64>>,
    stall_requested: bool,
    quit_requested: bool,
    hand: Hand,
}

impl Session {
    /// A session for `cfg`'s lanes in a `width × height` buffer: the split view when there are
    /// several.
    pub fn new(cfg: &WindowConfig, width: u32, height: u32) -> Session {
        let env = PolicyEnv {
            timing: cfg.timing,
            max_substep: cfg.max_substep,
            vsync_requested: cfg.vsync,
            refresh_hint_hz: None,
        };
        let lanes: Vec<Lane> = cfg
            .lanes
            .iter()
            .map(|&spec| Lane::new(spec, cfg.rope, &env))
            .collect();
        let mut s = Session {
            params: cfg.rope,
            split: lanes.len() > 1,
            lanes,
            focus: 0,
            layout: Layout::single(&cfg.rope, width, height, true),
            size: (width, height),
            renderer: Renderer::new(),
            panes: LanePanes::default(),
            help: help_lines(),
            strip: FrameStrip::new(300),
            fps: FpsMeter::default(),
            last_frame_ns: 0,
            paused_ns: 0,
            paused: false,
            show_hud: true,
            show_help: false,
            pacing: cfg.pacing,
            pacing_status: (None, 0),
            input_latency: std::collections::VecDeque::new(),
            step_starts: Vec::new(),
            stall_requested: false,
            quit_requested: false,
            hand: Hand::default(),
        };
        s.relayout();
        s
    }

    /// The lane the keys act on (the one the single view shows).
    pub fn focused(&self) -> &Lane {
        &self.lanes[self.focus]
    }
    /// The cap the pacing holds, if it is one.
    pub fn fps_cap(&self) -> Option<f64> {
        match self.pacing {
            Pacing::Cap(hz) => Some(hz),
            _ => None,
        }
    }
    pub fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// What the pacer measured this frame: its interval and how many frames missed it.
    pub fn set_pacing_status(&mut self, interval_ns: Option<u64>, missed: u64) {
        self.pacing_status = (interval_ns, missed);
    }

    /// An input (key or mouse) reached the screen `ns` after it happened.
    pub fn input_shown(&mut self, ns: u64) {
        if self.input_latency.len() == INPUT_MEAN_OF {
            self.input_latency.pop_front();
        }
        self.input_latency.push_back(ns);
    }
    pub fn quit_requested(&self) -> bool {
        self.quit_requested
    }
    /// The `S` key's stall, once: the caller blocks for [`STALL_NS`] before its next clock
    /// reading, so the stall is a real long frame that the clamp then cuts.
    pub fn take_stall(&mut self) -> bool {
        std::mem::take(&mut self.stall_requested)
    }

    /// The window title: the view and the lanes in it.
    pub fn title(&self) -> String {
        let dash = "timestep-rope \u{2014}";
        if self.split {
            let names: Vec<String> = self.lanes.iter().map(Lane::name).collect();
            format!("{dash} split view: {}", names.join(" | "))
        } else if self.lanes.len() > 1 {
            let (n, all) = (self.focus + 1, self.lanes.len());
            format!(
                "{dash} {} (lane {n} of {all}; V: split view)",
                self.focused().name()
            )
        } else {
            format!("{dash} {}", self.focused().name())
        }
    }

    pub fn handle_action(&mut self, action: Action) {
        match action {
            Action::CycleMode => self.next(),
            Action::Pick(i) => self.pick(i),
            Action::ToggleSplit => self.toggle_split(),
            Action::CycleTimer => {
                let lane = &mut self.lanes[self.focus];
                lane.set_timer(lane.timer().next());
            }
            Action::Reset => self.reset(),
            Action::Pause => self.paused = !self.paused,
            Action::Stall => self.stall_requested = true,
            Action::CapDown => self.pacing = capped(cap_down(self.fps_cap())),
            Action::CapUp => self.pacing = capped(cap_up(self.fps_cap())),
            Action::CyclePacing => self.pacing = self.pacing.next(),
            Action::ToggleIntegrator => {
                let lane = &mut self.lanes[self.focus];
                lane.set_integrator(lane.integrator().next());
            }
            Action::ToggleHud => {
                self.show_hud = !self.show_hud;
                // The rope may use the HUD's column while the HUD is hidden.
                self.relayout();
            }
            Action::ToggleHelp => self.show_help = !self.show_help,
            Action::Quit => self.quit_requested = true,
        }
    }

    /// M / Space: the next mode of the one lane, or the next of several lanes.
    fn next(&mut self) {
        if self.lanes.len() == 1 {
            let lane = &mut self.lanes[0];
            lane.set_mode(lane.mode().next());
        } else {
            self.focus = (self.focus + 1) % self.lanes.len();
        }
    }

    /// 1 to 4: that mode for the one lane; with several lanes, that lane alone (in the split
    /// view: maximised).
    fn pick(&mut self, i: usize) {
        if self.lanes.len() == 1 {
            if let Some(&mode) = Mode::ALL.get(i) {
                self.lanes[0].set_mode(mode);
            }
        } else if i < self.lanes.len() {
            self.focus = i;
            self.split = false;
            self.relayout();
        }
    }

    /// V: the split view and back. One lane becomes the four modes first, each starting from
    /// this rope and this clock, so they part ways from one state before your eyes.
    fn toggle_split(&mut self) {
        if self.lanes.len() == 1 {
            let current = self.lanes[0].mode();
            let integrator = self.lanes[0].integrator();
            self.lanes = LaneSpec::every_mode()
                .into_iter()
                .map(|spec| {
                    let mut lane = self.lanes[0].fork(spec);
                    lane.set_integrator(integrator);
                    lane
                })
                .collect();
            self.focus = Mode::ALL.iter().position(|&m| m == current).unwrap_or(0);
            self.split = true;
        } else {
            self.split = !self.split;
        }
        self.strip.clear();
        self.relayout();
    }

    /// The display's refresh rate as the OS reports it (it can be missing or wrong): every lane's
    /// vsync detector starts again from it.
    pub fn set_refresh_hint(&mut self, hz: Option<f64>) {
        for lane in &mut self.lanes {
            lane.set_refresh_hint(hz);
        }
    }

    /// R: every rope back to its starting line, by each lane's reset rule.
    pub fn reset(&mut self) {
        for lane in &mut self.lanes {
            lane.reset();
        }
        self.hand.drop_held();
    }

    /// The buffer is `width × height` pixels now; the ropes keep their proportions.
    pub fn resize(&mut self, width: u32, height: u32) {
        self.size = (width, height);
        self.relayout();
    }

    fn relayout(&mut self) {
        let (w, h) = self.size;
        self.layout = if self.split {
            Layout::split(&self.params, w, h, self.lanes.len(), self.show_hud)
        } else {
            Layout::single(&self.params, w, h, self.show_hud)
        };
    }

    /// The lanes on screen: all of them in the split view, the focused one otherwise, with
    /// their indices.
    fn shown(&self) -> Vec<(usize, &Lane)> {
        if self.split {
            self.lanes.iter().enumerate().collect()
        } else {
            vec![(self.focus, &self.lanes[self.focus])]
        }
    }

    /// The cursor moved to `px` (buffer pixels, which are the window's physical pixels).
    pub fn cursor_moved(&mut self, px: Vec2, now_ns: u64) {
        self.hand.moved(px, now_ns);
    }

    /// Whether a particle is held (a mouse move is then input the picture answers).
    pub fn dragging(&self) -> bool {
        self.hand.held().is_some()
    }

    pub fn cursor_left(&mut self) {
        self.hand.left();
    }

    /// Left button down: grabs the particle nearest the cursor in the pane under it; the same
    /// particle of every rope follows the mouse from then on.
    pub fn press(&mut self, now_ns: u64) -> bool {
        let Some(pane) = self.hand.cursor_px().and_then(|px| self.layout.pane_at(px)) else {
            return false;
        };
        let lane = if self.split { pane } else { self.focus };
        let view = self.layout.views[pane];
        self.hand.press(self.lanes[lane].rope(), view, now_ns)
    }

    /// Left button up: every rope lets go with the drag's velocity (a fling).
    pub fn release(&mut self, now_ns: u64) {
        let rope = self.lanes[self.focus].rope();
        if let Some(fling) = self.hand.release(now_ns, |i| rope.position(i)) {
            for lane in &mut self.lanes {
                lane.set_grab(Some(fling));
                lane.set_grab(None);
            }
        }
    }

    /// One frame: `frame_ns` measured since the last frame, `now_ns` the clock reading; every
    /// lane gets the same. Paused, the frame's time is discarded, so resuming is not one giant
    /// frame.
    #[cfg(test)]
    pub fn advance(&mut self, frame_ns: u64, now_ns: u64) -> FrameReport {
        self.advance_timed(frame_ns, now_ns, &mut || now_ns)
    }

    /// As [`Session::advance`], reading `clock` as each step begins, so the frame log and the
    /// strip can show when steps really run.
    pub fn advance_timed(
        &mut self,
        frame_ns: u64,
        now_ns: u64,
        clock: &mut dyn FnMut() -> u64,
    ) -> FrameReport {
        self.fps.push(frame_ns);
        self.last_frame_ns = frame_ns;
        if self.paused {
            // Hold the divergence countdowns too: a paused explosion stays to be looked at.
            self.paused_ns = self.paused_ns.saturating_add(frame_ns);
        }
        let live_ns = now_ns.saturating_sub(self.paused_ns);
        let grab = self.hand.grab(now_ns);
        self.step_starts.resize(self.lanes.len(), Vec::new());
        for (lane, starts) in self.lanes.iter_mut().zip(&mut self.step_starts) {
            starts.clear();
            if self.paused {
                lane.hold(live_ns);
            } else {
                if grab.is_some() {
                    lane.set_grab(grab);
                }
                lane.advance_noting_steps(frame_ns, live_ns, &mut || starts.push(clock()));
            }
        }
        let steps: Vec<u32> = self.shown().iter().map(|(_, l)| self.steps(l)).collect();
        self.strip.push(frame_ns as f32 * 1e-6, &steps);
        let starts: Vec<&[u64]> = self
            .shown()
            .iter()
            .map(|&(i, _)| self.step_starts[i].as_slice())
            .collect();
        self.strip.step_times.push(now_ns, &starts);
        let rows = self
            .shown()
            .iter()
            .map(|&(i, l)| self.row(i, l, now_ns, frame_ns))
            .collect();
        FrameReport {
            now_ns,
            frame_ns,
            paused: self.paused,
            rows,
        }
    }

    /// Steps the lane took this frame (none while paused).
    fn steps(&self, lane: &Lane) -> u32 {
        if self.paused { 0 } else { lane.last().steps }
    }

    fn row(&self, index: usize, lane: &Lane, now_ns: u64, frame_ns: u64) -> FrameRow {
        let starts = &self.step_starts[index];
        FrameRow {
            pacing: self.pacing.to_string(),
            step_starts_ms: starts.iter().map(|&ns| ns as f64 / 1e6).collect(),
            input_ms: None,
            wall_s: seconds(now_ns),
            frame_ms: frame_ns as f64 * 1e-6,
            lane: lane.name(),
            steps: self.steps(lane),
            alpha: lane.last().alpha,
            drift_ms: lane.drift_ms(),
            exploded: lane.rope().exploded(),
        }
    }

    /// The single view's banner: the focused lane's explosion countdown (in the split view
    /// each pane's label says it instead).
    pub fn banner(&self) -> Option<String> {
        if self.split {
            None
        } else {
            explosion_banner(self.focused())
        }
    }

    /// The HUD's input row: the last latency and the mean of the recent ones.
    fn input_summary(&self) -> String {
        let Some(&last) = self.input_latency.back() else {
            return String::new();
        };
        let mean = self.input_latency.iter().sum::<u64>() as f64 / self.input_latency.len() as f64;
        format!("{:.1} ms, mean {:.1}", last as f64 / 1e6, mean / 1e6)
    }

    /// The HUD's numbers, all measured.
    pub fn hud(&self, present_mode: &str) -> HudInfo {
        let shown: Vec<&Lane> = self.shown().into_iter().map(|(_, l)| l).collect();
        let mut hud = HudInfo {
            fps: self.fps.fps(),
            frame_ms: self.last_frame_ns as f64 * 1e-6,
            paused: self.paused,
            pacing: pacing_summary(self.pacing, self.pacing_status.0, self.pacing_status.1),
            input: self.input_summary(),
            present_mode: present_mode.to_string(),
            ..HudInfo::new(&shown)
        };
        if self.paused {
            for row in &mut hud.lanes {
                row.steps = 0;
            }
        }
        hud
    }

    /// Draws this frame into an RGBA8 buffer of `width × height`: each lane shown, blended
    /// where its mode blends.
    pub fn draw(&mut self, frame: &mut [u8], width: u32, height: u32, present_mode: &str) {
        let hud = self.show_hud.then(|| self.hud(present_mode));
        let banner = self.banner();
        let shown: Vec<&Lane> = if self.split {
            self.lanes.iter().collect()
        } else {
            vec![&self.lanes[self.focus]]
        };
        let focus = if self.split { self.focus } else { 0 };
        let panes = self
            .panes
            .build(&shown, &self.layout, self.hand.held(), focus);
        let scene = Scene {
            panes: &panes,
            hud: hud.as_ref(),
            strip: self.show_hud.then_some(&self.strip),
            help: self.show_help.then_some(self.help.as_slice()),
            banner: banner.as_deref(),
        };
        self.renderer.draw(frame, width, height, &scene);
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
