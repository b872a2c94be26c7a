//! The window's state and rules, without the window: what each [`Action`] does, how a frame
//! advances the stepper and the rope, mouse grabs, the divergence countdown, and what the HUD
//! shows. The winit handler in `app/mod.rs` only reads the clock, forwards events here, and
//! presents; everything here is plain data and tested without a display.

use super::bindings::{Action, help_lines};
use super::drag::DragVelocity;
use super::output::FrameRow;
use super::pacing::{FpsMeter, cap_down, cap_up};
use crate::draw::{FrameStrip, HudInfo, Renderer, RopeLook, Scene, View};
use crate::rope::{Grab, Rope, RopeParams};
use crate::timing::{FrameStats, Mode, Stepper, TimingConfig};
use crate::watch::{ExplosionWatch, Watch};
use glam::Vec2;

/// How close (in screen pixels) a press must be to a particle to grab it.
pub const GRAB_RADIUS_PX: f32 = 20.0;
/// The stall the `S` key injects.
pub const STALL_NS: u64 = 300_000_000;

/// A particle held by the mouse.
#[derive(Clone, Debug)]
struct Held {
    index: usize,
    velocity: DragVelocity,
}

/// What one frame did, for the frame log and the caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameReport {
    pub now_ns: u64,
    pub frame_ns: u64,
    pub steps: u32,
    pub alpha: f64,
    pub mode: Mode,
    pub drift_ms: f64,
    pub paused: bool,
    /// Whether the rope shown this frame is exploded (after any automatic reset).
    pub exploded: bool,
}

impl FrameReport {
    pub fn row(&self) -> FrameRow {
        FrameRow {
            wall_s: self.now_ns as f64 * 1e-9,
            frame_ms: self.frame_ns as f64 * 1e-6,
            steps: self.steps,
            alpha: self.alpha,
            mode: self.mode.name(),
            drift_ms: self.drift_ms,
            exploded: self.exploded,
        }
    }
}

#[derive(Debug)]
pub struct Session {
    rope: Rope,
    stepper: Stepper,
    view: View,
    renderer: Renderer,
    /// The positions last drawn: the blend in interpolated mode, the latest state otherwise.
    shown: Vec<Vec2>,
    pinned: Vec<usize>,
    help: Vec<String>,
    strip: FrameStrip,
    fps: FpsMeter,
    /// The last frame's stepper result (kept while paused).
    last: FrameStats,
    last_frame_ns: u64,
    /// Sum of the frame times handed to the stepper since the last reset.
    running_ns: u64,
    /// The divergence rule shared with `simulate`: show an exploded rope for 2 s, then reset.
    watch: ExplosionWatch,
    /// Wall time spent paused, ns: the watch is handed wall time minus this, so a paused
    /// explosion's countdown holds.
    paused_ns: u64,
    banner: Option<String>,
    paused: bool,
    show_hud: bool,
    show_help: bool,
    fps_cap: Option<f64>,
    stall_requested: bool,
    quit_requested: bool,
    cursor_px: Option<Vec2>,
    held: Option<Held>,
}

impl Session {
    pub fn new(
        params: RopeParams,
        timing: TimingConfig,
        mode: Mode,
        fps_cap: Option<f64>,
        width: u32,
        height: u32,
    ) -> Session {
        let rope = Rope::new(params);
        let pinned = rope.pinned_indices();
        Session {
            view: View::for_rope(&params, width, height),
            stepper: Stepper::new(timing, mode),
            rope,
            renderer: Renderer::new(),
            shown: Vec::new(),
            pinned,
            help: help_lines(),
            strip: FrameStrip::new(300),
            fps: FpsMeter::default(),
            last: FrameStats::default(),
            last_frame_ns: 0,
            running_ns: 0,
            watch: ExplosionWatch::default(),
            paused_ns: 0,
            banner: None,
            paused: false,
            show_hud: true,
            show_help: false,
            fps_cap,
            stall_requested: false,
            quit_requested: false,
            cursor_px: None,
            held: None,
        }
    }

    pub fn mode(&self) -> Mode {
        self.stepper.mode()
    }
    pub fn paused(&self) -> bool {
        self.paused
    }
    pub fn fps_cap(&self) -> Option<f64> {
        self.fps_cap
    }
    pub fn quit_requested(&self) -> bool {
        self.quit_requested
    }
    pub fn hud_shown(&self) -> bool {
        self.show_hud
    }
    pub fn help_shown(&self) -> bool {
        self.show_help
    }
    pub fn rope(&self) -> &Rope {
        &self.rope
    }
    pub fn stepper(&self) -> &Stepper {
        &self.stepper
    }
    pub fn view(&self) -> &View {
        &self.view
    }
    /// The `S` key's stall, once: the caller blocks for [`STALL_NS`] before its next clock
    /// reading, so the stall is a real long frame that the clamp then cuts.
    pub fn take_stall(&mut self) -> bool {
        std::mem::take(&mut self.stall_requested)
    }

    /// The window title for the current mode.
    pub fn title(&self) -> String {
        format!("timestep-rope \u{2014} {}", self.mode())
    }

    pub fn handle_action(&mut self, action: Action) {
        match action {
            Action::CycleMode => self.stepper.set_mode(self.stepper.mode().next()),
            Action::SetMode(mode) => self.stepper.set_mode(mode),
            Action::Reset => self.reset(),
            Action::Pause => self.paused = !self.paused,
            Action::Stall => self.stall_requested = true,
            Action::CapDown => self.fps_cap = cap_down(self.fps_cap),
            Action::CapUp => self.fps_cap = cap_up(self.fps_cap),
            Action::ToggleHud => {
                self.show_hud = !self.show_hud;
                // The rope may use the HUD's column while the HUD is hidden.
                self.resize(self.view.width, self.view.height);
            }
            Action::ToggleHelp => self.show_help = !self.show_help,
            Action::Quit => self.quit_requested = true,
        }
    }

    /// The rope back to its starting line; simulation time and drift restart at zero (the
    /// stepper's totals, e.g. dropped time, are kept).
    pub fn reset(&mut self) {
        self.rope.reset();
        self.stepper.reset_sim_time();
        self.running_ns = 0;
        self.last = FrameStats::default();
        self.watch.clear();
        self.banner = None;
        self.held = None;
    }

    /// The buffer is `width × height` pixels now; the rope keeps its proportions.
    pub fn resize(&mut self, width: u32, height: u32) {
        self.view = if self.show_hud {
            View::for_rope(self.rope.params(), width, height)
        } else {
            View::for_rope_without_hud(self.rope.params(), width, height)
        };
    }

    /// The cursor moved to `px` (buffer pixels, which are the window's physical pixels).
    pub fn cursor_moved(&mut self, px: Vec2, now_ns: u64) {
        self.cursor_px = Some(px);
        let world = self.view.to_world(px);
        if let Some(held) = &mut self.held {
            held.velocity.push(now_ns, world);
        }
    }

    pub fn cursor_left(&mut self) {
        self.cursor_px = None;
    }

    /// Left button down: grab the nearest free particle within [`GRAB_RADIUS_PX`].
    pub fn press(&mut self, now_ns: u64) -> bool {
        let Some(px) = self.cursor_px else {
            return false;
        };
        let world = self.view.to_world(px);
        let radius_m = GRAB_RADIUS_PX / self.view.scale.max(f32::MIN_POSITIVE);
        let Some(index) = self.rope.nearest_free(world, radius_m) else {
            return false;
        };
        let mut velocity = DragVelocity::default();
        velocity.start(now_ns, world);
        self.held = Some(Held { index, velocity });
        true
    }

    /// Left button up: let go, with the drag's velocity (a fling).
    pub fn release(&mut self, now_ns: u64) {
        if let Some(held) = self.held.take() {
            let target = self
                .cursor_px
                .map(|px| self.view.to_world(px))
                .unwrap_or_else(|| self.rope.position(held.index));
            let velocity = held.velocity.velocity(now_ns);
            self.rope.set_grab(Some(Grab {
                index: held.index,
                target,
                velocity,
            }));
            self.rope.set_grab(None);
        }
    }

    pub fn grabbed(&self) -> Option<usize> {
        self.held.as_ref().map(|h| h.index)
    }

    /// One frame: `frame_ns` measured since the last frame, `now_ns` the clock reading.
    /// Paused, the frame's time is discarded, so resuming is not one giant frame.
    pub fn advance(&mut self, frame_ns: u64, now_ns: u64) -> FrameReport {
        self.fps.push(frame_ns);
        self.last_frame_ns = frame_ns;
        let steps = if self.paused {
            // Hold the divergence countdown too: a paused explosion stays to be looked at.
            self.paused_ns = self.paused_ns.saturating_add(frame_ns);
            0
        } else {
            self.hold_grab(now_ns);
            let rope = &mut self.rope;
            self.last = self.stepper.advance(frame_ns, |s| rope.apply(s));
            self.running_ns += frame_ns;
            self.last.steps
        };
        self.watch_divergence(now_ns);
        self.strip.push(frame_ns as f32 * 1e-6, steps);
        FrameReport {
            now_ns,
            frame_ns,
            steps,
            alpha: self.last.alpha,
            mode: self.mode(),
            drift_ms: self.drift_ms(),
            paused: self.paused,
            exploded: self.rope.exploded(),
        }
    }

    /// How many times the rope has exploded since the window opened.
    pub fn explosions(&self) -> u64 {
        self.watch.explosions()
    }

    /// Shown simulation time − measured running time, ms.
    pub fn drift_ms(&self) -> f64 {
        (self.last.shown_ns as f64 - self.running_ns as f64) * 1e-6
    }

    fn hold_grab(&mut self, now_ns: u64) {
        let Some(held) = &self.held else {
            return;
        };
        let Some(px) = self.cursor_px else {
            return;
        };
        let grab = Grab {
            index: held.index,
            target: self.view.to_world(px),
            velocity: held.velocity.velocity(now_ns),
        };
        self.rope.set_grab(Some(grab));
    }

    fn watch_divergence(&mut self, now_ns: u64) {
        let live_ns = now_ns.saturating_sub(self.paused_ns);
        match self.watch.check(self.rope.exploded(), live_ns) {
            Watch::Fine => self.banner = None,
            Watch::ResetNow => self.reset(),
            Watch::Exploded { left_ns } => {
                let left_s = left_ns as f64 * 1e-9;
                self.banner = Some(format!("EXPLODED - resetting in {left_s:.1} s (R now)"));
            }
        }
    }

    pub fn banner(&self) -> Option<&str> {
        self.banner.as_deref()
    }

    /// The HUD's numbers, all measured.
    pub fn hud(&self, present_mode: &str) -> HudInfo {
        HudInfo {
            fps: self.fps.fps(),
            frame_ms: self.last_frame_ns as f64 * 1e-6,
            steps: if self.paused { 0 } else { self.last.steps },
            alpha: self.last.alpha,
            drift_ms: self.drift_ms(),
            paused: self.paused,
            fps_cap: self.fps_cap,
            present_mode: present_mode.to_string(),
            ..HudInfo::new(&self.stepper, &self.rope)
        }
    }

    /// Draws this frame into an RGBA8 buffer of `width × height`: the blended rope in
    /// interpolated mode, the latest state otherwise.
    pub fn draw(&mut self, frame: &mut [u8], width: u32, height: u32, present_mode: &str) {
        let hud = self.show_hud.then(|| self.hud(present_mode));
        let positions = self
            .rope
            .shown(self.mode(), self.last.alpha, &mut self.shown);
        // The rope replaces non-finite values the moment it explodes, so no NaN reaches the
        // renderer (which would skip it anyway): check that promise in debug builds.
        debug_assert!(
            positions.iter().all(|p| p.is_finite()),
            "a non-finite position was about to be drawn"
        );
        let scene = Scene {
            rope: RopeLook {
                positions,
                pinned: &self.pinned,
                grabbed: self.held.as_ref().map(|h| h.index),
                exploded: self.rope.exploded(),
            },
            view: &self.view,
            hud: hud.as_ref(),
            strip: self.show_hud.then_some(&self.strip),
            help: self.show_help.then_some(self.help.as_slice()),
            banner: self.banner.as_deref(),
        };
        self.renderer.draw(frame, width, height, &scene);
    }

    /// The positions the last [`Session::draw`] handed to the renderer: the blend in
    /// interpolated mode, the rope's latest state otherwise.
    pub fn drawn_positions(&self) -> &[Vec2] {
        &self.shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rope::Pin;
    use crate::watch::RESET_AFTER_NS;

    const MS: u64 = 1_000_000;

    fn session(mode: Mode) -> Session {
        let timing = TimingConfig::new(MS, 250 * MS, None).unwrap();
        Session::new(RopeParams::default(), timing, mode, None, 1280, 800)
    }

    #[test]
    fn the_mode_key_cycles_through_all_four_modes_and_the_title_follows() {
        let mut s = session(Mode::Variable);
        let mut titles = vec![s.title()];
        for _ in 0..4 {
            s.handle_action(Action::CycleMode);
            titles.push(s.title());
        }
        assert_eq!(
            titles,
            [
                "timestep-rope — variable",
                "timestep-rope — semi-fixed",
                "timestep-rope — fixed",
                "timestep-rope — interpolated",
                "timestep-rope — variable",
            ]
        );
        s.handle_action(Action::SetMode(Mode::SemiFixed));
        assert_eq!(s.mode(), Mode::SemiFixed);
    }

    #[test]
    fn a_frame_in_fixed_mode_takes_whole_steps_and_reports_them() {
        let mut s = session(Mode::Fixed);
        let r = s.advance(16_500_000, 16_500_000);
        assert_eq!(r.steps, 16);
        assert_eq!(r.alpha, 0.5);
        assert_eq!(s.rope().steps(), 16);
        // Fixed shows the current state at 16 ms after 16.5 ms of running.
        assert!((r.drift_ms - -0.5).abs() < 1e-9, "{}", r.drift_ms);
        assert_eq!(r.row().csv(), "0.016500,16.500,16,0.5000,fixed,-0.500,0");
    }

    #[test]
    fn paused_frames_do_not_step_and_their_time_is_discarded() {
        let mut s = session(Mode::Fixed);
        s.advance(10 * MS, 10 * MS);
        s.handle_action(Action::Pause);
        let r = s.advance(5_000 * MS, 5_010 * MS);
        assert_eq!((r.steps, r.paused), (0, true));
        assert_eq!(s.rope().steps(), 10);
        s.handle_action(Action::Pause);
        let r = s.advance(10 * MS, 5_020 * MS);
        assert_eq!(r.steps, 10);
        assert_eq!(
            s.stepper().dropped_ns(),
            0,
            "pausing must not look like a stall"
        );
        assert_eq!(r.drift_ms, 0.0);
    }

    #[test]
    fn the_window_steps_the_rope_bit_for_bit_as_simulate_does() {
        use crate::simulate::{Display, DisplayConfig, SimConfig, run_mode};
        let display = DisplayConfig {
            display_hz: 59.94,
            jitter_ns: MS / 2,
            duration_ns: 3_000 * MS,
            ..Default::default()
        };
        for mode in [Mode::Fixed, Mode::SemiFixed, Mode::Variable] {
            let cfg = SimConfig {
                timing: TimingConfig::new(MS, 250 * MS, None).unwrap(),
                rope: RopeParams::default(),
                display: display.clone(),
                modes: vec![mode],
                draw: None,
            };
            let (report, _) = run_mode(&cfg, mode, |_| {});
            // The same frame times, through the window's session instead.
            let mut s = session(mode);
            let mut d = Display::new(display.clone());
            let mut now = 0;
            while let Some(frame) = d.begin_frame() {
                now += frame;
                s.advance(frame, now);
                d.present();
            }
            let hash = format!("{:016x}", s.rope().state_hash());
            assert_eq!(hash, report.state_hash, "{mode}");
        }
    }

    #[test]
    fn hiding_the_hud_gives_the_rope_its_column_and_showing_it_takes_it_back() {
        let mut s = session(Mode::Fixed);
        let beside = *s.view();
        s.handle_action(Action::ToggleHud);
        assert!(!s.hud_shown());
        assert!(
            s.view().scale > beside.scale,
            "the rope grows into the HUD's column"
        );
        s.handle_action(Action::ToggleHud);
        assert_eq!(*s.view(), beside);
    }

    #[test]
    fn reset_restarts_the_rope_and_the_drift() {
        let mut s = session(Mode::Variable);
        s.advance(300 * MS, 300 * MS);
        assert!(s.drift_ms() < 0.0, "the clamp dropped 50 ms");
        s.handle_action(Action::Reset);
        assert_eq!(s.rope().steps(), 0);
        assert_eq!(s.drift_ms(), 0.0);
        assert_eq!(s.stepper().dropped_ns(), 50 * MS, "totals are kept");
    }

    #[test]
    fn stall_hud_help_quit_and_cap_actions_set_their_flags() {
        let mut s = session(Mode::Fixed);
        assert!(!s.take_stall());
        s.handle_action(Action::Stall);
        assert!(s.take_stall());
        assert!(!s.take_stall(), "one stall per press");
        s.handle_action(Action::ToggleHud);
        assert!(!s.hud_shown());
        s.handle_action(Action::ToggleHelp);
        assert!(s.help_shown());
        s.handle_action(Action::CapUp);
        s.handle_action(Action::CapUp);
        assert_eq!(s.fps_cap(), Some(50.0));
        s.handle_action(Action::CapDown);
        assert_eq!(s.fps_cap(), Some(30.0));
        assert!(!s.quit_requested());
        s.handle_action(Action::Quit);
        assert!(s.quit_requested());
    }

    #[test]
    fn an_exploded_rope_counts_down_and_resets_two_wall_seconds_later() {
        // 60 ms variable steps are far past this rope's ~15 ms stability limit.
        let timing = TimingConfig::new(MS, 250 * MS, None).unwrap();
        let params = RopeParams {
            pin: Pin::One,
            damping_per_s: 0.0,
            ..RopeParams::default()
        };
        let mut s = Session::new(params, timing, Mode::Variable, None, 800, 600);
        let mut now = 0;
        while !s.rope().exploded() {
            now += 60 * MS;
            s.advance(60 * MS, now);
            assert!(now < 60_000 * MS, "never exploded");
        }
        let exploded_at = now;
        assert_eq!(s.banner(), Some("EXPLODED - resetting in 2.0 s (R now)"));
        now += 600 * MS;
        s.advance(60 * MS, now);
        assert_eq!(s.banner(), Some("EXPLODED - resetting in 1.4 s (R now)"));
        assert!(s.hud("").exploded);
        s.advance(60 * MS, exploded_at + RESET_AFTER_NS);
        assert!(!s.rope().exploded());
        assert_eq!(s.banner(), None);
    }

    #[test]
    fn r_resets_an_exploded_rope_at_once() {
        let mut s = session(Mode::Variable);
        let mut now = 0;
        while !s.rope().exploded() && now < 60_000 * MS {
            now += 100 * MS;
            s.advance(100 * MS, now);
        }
        assert!(s.rope().exploded());
        s.advance(100 * MS, now + 1_500 * MS);
        assert_eq!(s.banner(), Some("EXPLODED - resetting in 0.5 s (R now)"));
        s.handle_action(Action::Reset);
        assert!(!s.rope().exploded());
        now += 1_500 * MS + MS;
        let r = s.advance(MS, now);
        assert_eq!(s.banner(), None);
        assert!(!r.exploded);
        // The pending countdown was cleared: the next explosion gets its full 2 s.
        while !s.rope().exploded() && now < 120_000 * MS {
            now += 100 * MS;
            s.advance(100 * MS, now);
        }
        assert_eq!(s.banner(), Some("EXPLODED - resetting in 2.0 s (R now)"));
        assert_eq!(s.explosions(), 2);
    }

    #[test]
    fn a_paused_explosion_keeps_its_countdown_until_resumed() {
        let mut s = session(Mode::Variable);
        let mut now = 0;
        while !s.rope().exploded() && now < 60_000 * MS {
            now += 100 * MS;
            s.advance(100 * MS, now);
        }
        now += 500 * MS;
        s.advance(500 * MS, now);
        assert_eq!(s.banner(), Some("EXPLODED - resetting in 1.5 s (R now)"));
        s.handle_action(Action::Pause);
        for _ in 0..100 {
            now += 100 * MS;
            let r = s.advance(100 * MS, now);
            assert!(r.exploded && r.paused);
        }
        assert_eq!(s.banner(), Some("EXPLODED - resetting in 1.5 s (R now)"));
        s.handle_action(Action::Pause);
        now += 1_000 * MS;
        s.advance(1_000 * MS, now);
        assert_eq!(s.banner(), Some("EXPLODED - resetting in 0.5 s (R now)"));
        now += 500 * MS;
        let r = s.advance(500 * MS, now);
        assert!(!r.exploded && s.banner().is_none());
    }

    #[test]
    fn variable_mode_at_20_hz_explodes_resets_and_never_draws_a_non_finite_position() {
        // 50 ms variable steps, far past the 15 ms stability limit: the window's own
        // divergence demo, ten seconds of it, every frame drawn.
        let mut s = session(Mode::Variable);
        let (w, h) = (160, 100);
        s.resize(w, h);
        let mut frame = vec![0u8; (w * h * 4) as usize];
        let mut exploded_frames = 0;
        let mut resets = 0;
        let mut was_exploded = false;
        for i in 1..=200u64 {
            let r = s.advance(50 * MS, i * 50 * MS);
            assert!(r.drift_ms.is_finite() && r.alpha.is_finite(), "{r:?}");
            s.draw(&mut frame, w, h, "Fifo (vsync)");
            let drawn = s.drawn_positions();
            assert_eq!(drawn.len(), s.rope().len());
            assert!(
                drawn.iter().all(|p| p.is_finite()),
                "frame {i} drew a non-finite position: {drawn:?}"
            );
            assert_eq!(r.exploded, s.rope().exploded());
            assert_eq!(r.exploded, s.banner().is_some());
            exploded_frames += usize::from(r.exploded);
            resets += usize::from(was_exploded && !r.exploded);
            was_exploded = r.exploded;
        }
        assert!(s.explosions() >= 3, "only {} explosions", s.explosions());
        assert!(resets >= 3, "only {resets} automatic resets");
        // Each explosion is shown for 2 s = 40 frames before its reset.
        assert!(
            exploded_frames >= 40 * resets,
            "{exploded_frames} exploded frames"
        );
        // Interpolated mode blends previous and current: finite too, also right after a reset.
        s.handle_action(Action::SetMode(Mode::Interpolated));
        for i in 201..=260u64 {
            s.advance(50 * MS, i * 50 * MS);
            s.draw(&mut frame, w, h, "Fifo (vsync)");
            assert!(s.drawn_positions().iter().all(|p| p.is_finite()));
        }
    }

    #[test]
    fn dragging_a_particle_moves_it_and_releasing_flings_it() {
        let mut s = session(Mode::Fixed);
        let end = s.rope().len() - 1;
        let at = s.view().to_screen(s.rope().position(end));
        s.cursor_moved(at + Vec2::new(5.0, 5.0), 0);
        assert!(s.press(0));
        assert_eq!(s.grabbed(), Some(end));
        // Drag 100 px right over 40 ms, in 4 ms steps, stepping the rope as we go.
        let mut now = 0;
        for i in 1..=10 {
            now = i * 4 * MS;
            s.cursor_moved(at + Vec2::new(5.0 + 10.0 * i as f32, 5.0), now);
            s.advance(4 * MS, now);
        }
        let target = s.view().to_world(at + Vec2::new(105.0, 5.0));
        assert!((s.rope().position(end) - target).length() < 1e-4);
        s.release(now);
        assert_eq!(s.grabbed(), None);
        assert!(s.rope().grab().is_none());
        assert!(s.rope().velocity(end).x > 1.0, "{}", s.rope().velocity(end));
    }

    #[test]
    fn a_press_far_from_the_rope_grabs_nothing_and_pins_cannot_be_grabbed() {
        let mut s = session(Mode::Fixed);
        s.cursor_moved(Vec2::new(1.0, 790.0), 0);
        assert!(!s.press(0));
        let pin = s.view().to_screen(s.rope().position(0));
        s.cursor_moved(pin, 0);
        assert_ne!(s.press(0).then(|| s.grabbed()).flatten(), Some(0));
    }

    #[test]
    fn the_hud_reports_what_was_measured() {
        let mut s = session(Mode::Interpolated);
        s.advance(16_500_000, 16_500_000);
        let hud = s.hud("Fifo (vsync)");
        assert_eq!(hud.mode, Some(Mode::Interpolated));
        assert_eq!((hud.steps, hud.dt_ns, hud.max_steps), (16, MS, 250));
        assert!((hud.frame_ms - 16.5).abs() < 1e-9);
        assert_eq!(hud.alpha, 0.5);
        assert_eq!(hud.present_mode, "Fifo (vsync)");
        assert_eq!(hud.particles, RopeParams::default().particles);
        assert!(hud.fps > 60.0 && hud.fps < 61.0);
        // Interpolated shows t_prev + accumulator = 15.5 ms at 16.5 ms of running.
        assert!((hud.drift_ms + 1.0).abs() < 1e-9, "{}", hud.drift_ms);
    }

    #[test]
    fn drawing_with_any_buffer_size_does_not_panic() {
        let mut s = session(Mode::Interpolated);
        s.advance(16 * MS, 16 * MS);
        let mut frame = vec![0u8; 64 * 48 * 4];
        s.resize(64, 48);
        s.draw(&mut frame, 64, 48, "Fifo (vsync)");
        s.draw(&mut [], 0, 0, "Fifo (vsync)");
        s.draw(&mut frame, 10, 10, "mismatch");
    }
}
