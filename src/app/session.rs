//! The window's state and rules, without the window: what each [`Action`] does, how a frame
//! runs every lane through the frame protocol, the mouse, the views (one lane, or the split
//! view of up to four), and what the HUD shows. The winit handler in `app/mod.rs` only forwards
//! events here and supplies the clock and the GPU; everything here is plain data, tested
//! without a display.
//!
//! Every lane is fed the same measured frame times and the same hand, so every difference on
//! screen between lanes comes from the loop alone.

use super::bindings::{Action, help_lines, picks};
use super::config::{DEFAULT_CAPTION, WindowConfig};
use super::display::{FrameDisplay, log_source};
use super::drag::Hand;
use super::host::{Meter, Present, View, ViewState, WindowHost, WindowWall};
use super::pacing::{cap_down, cap_up, next_pacing};
use glam::Vec2;
use knobs::Setting;
use timestep_lab::model::lane::{Lane, LaneReport, LaneSpec};
use timestep_lab::model::rope::{Drive, RopeParams};
use timestep_lab::protocol::frame::{FrameDone, Frames, VblankCounter};
use timestep_lab::protocol::frame_csv::{DisplaySource, FrameRecord};
use timestep_lab::view::draw::{
    Arrangement, Grip, Screen, alike_tip, default_px_per_m, judge_as_drawn, lane_colours,
    pacing_summary,
};
use timestep_lab::view::lessons::{LESSONS, Lesson, NoLesson};
use timestep_loop::{ConfigError, Mode, Named, Pacer, Pacing, PolicyEnv};

/// The stall the `S` key injects.
pub const STALL_NS: u64 = 300_000_000;

/// The pacing for a cap from `[` `]`: none is vsync.
fn capped(cap: Option<f64>) -> Pacing {
    cap.map_or(Pacing::Vsync, Pacing::Cap)
}

/// A change the session refused (a key's, or the panel's): the lanes are as they were, and
/// the screen says why until the next change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A lane's loop cannot take it (a clamp below the tick).
    #[error(transparent)]
    Loop(#[from] ConfigError),
    /// An integrator for a lane without a rope.
    #[error("the lane has no rope to integrate")]
    NoRope,
    /// A lesson number there is no lesson for.
    #[error(transparent)]
    NoLesson(#[from] NoLesson),
}

/// The lanes the window was launched with cannot be built: the loop refuses them.
#[derive(Debug, thiserror::Error)]
#[error("--lanes: {0}")]
pub struct BadLanes(ConfigError);

/// What one frame did, for the frame log and the caller.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameReport {
    pub frame: FrameDone,
    /// One row per lane shown (all of them in the split view, the one shown otherwise).
    pub rows: Vec<FrameRecord>,
    /// When the pacing lets the next frame start, ns of the real clock (`None`: at once).
    pub next_frame_ns: Option<u64>,
    /// What the display said of past frames since the last frame (present feedback).
    pub displayed: Vec<FrameDisplay>,
    /// Where display times come from now.
    pub display_source: DisplaySource,
}

/// Requests a frame acts on once.
#[derive(Clone, Copy, Debug, Default)]
struct Requests {
    stall: bool,
    quit: bool,
    /// Paused: run one frame (`.` at the newest frame kept).
    step: bool,
}

#[derive(Debug)]
pub struct Session {
    lanes: Vec<Lane>,
    frames: Frames,
    view: ViewState,
    screen: Screen,
    hand: Hand,
    meter: Meter,
    vblanks: VblankCounter,
    /// What the loop asked of the display: vsync, and the refresh rate the OS reports.
    vsync: bool,
    refresh_hz: Option<f64>,
    requests: Requests,
    /// The rope every lane steps (its drive changes with `D` and the lessons).
    rope: RopeParams,
    /// The lesson showing (1-based), its caption (with its notice, if it shows), and the CPU
    /// time its ticks cost.
    lesson: Option<usize>,
    caption: Vec<String>,
    /// Whether the caption ends in the lesson's notice (the frame rate is too low for it).
    notice: bool,
    step_cost_ns: u64,
    /// The plain view as launched, which leaving a lesson goes back to.
    home: Home,
    /// Why the last change was refused, until the next change.
    refused: Option<Refused>,
    /// How many of the next frames start the loop's clock afresh (see
    /// [`Session::start_clock_afresh`]).
    fresh_clock: u8,
    /// Each lane's colour, picked by the lanes' names when they are made and kept while
    /// they run: a lane keeps it whatever mode the keys give it and whichever view shows it.
    colours: Vec<usize>,
}

/// What the window was launched with: its lanes, loop, rope and pacing.
#[derive(Clone, Debug)]
struct Home {
    lanes: Vec<LaneSpec>,
    env: PolicyEnv,
    rope: RopeParams,
    pacing: Pacing,
    /// Whether its lanes were overlaid.
    overlay: bool,
}

/// Each of `lanes`' colours, by their names (see [`lane_colours`]).
fn colours_of(lanes: &[Lane]) -> Vec<usize> {
    let names: Vec<String> = lanes.iter().map(Lane::name).collect();
    lane_colours(&names)
}

/// `specs`' lanes on ropes of `rope`, each keeping when its steps start (the strip shows it).
fn build_lanes(
    specs: &[LaneSpec],
    rope: &RopeParams,
    env: &PolicyEnv,
) -> Result<Vec<Lane>, timestep_loop::ConfigError> {
    specs
        .iter()
        .map(|&spec| {
            let mut lane = Lane::new(spec, rope, env)?;
            judge_as_drawn(&mut lane, rope);
            lane.keep_step_starts(true);
            Ok(lane)
        })
        .collect()
}

/// Whether the control panel is shown at launch in a window `width` pixels wide: where it
/// leaves the panes at least twice its own width (narrower, the split view's four panes are
/// too narrow for their labels and a lesson's panes shrink under its caption; it starts hidden
/// and the key hint names `F2`, which shows it).
fn panel_starts_shown(width: u32) -> bool {
    width as f32 >= 3.0 * knobs::PANEL_WIDTH
}

/// The view of `lanes` lanes launched, in a lesson or left as they were made: several side by
/// side (`overlay`: over each other in one pane), one alone.
fn view_of(lanes: usize, overlay: bool) -> View {
    match (lanes > 1, overlay) {
        (false, _) => View::Single,
        (true, false) => View::Split,
        (true, true) => View::Overlay,
    }
}

/// `a` with `view`'s lanes (of `lanes`) and what it draws over them.
fn arranged(a: Arrangement, view: &ViewState, lanes: usize) -> Arrangement {
    Arrangement {
        lanes: view.shown(lanes).len(),
        split: view.layout() != View::Single,
        hud: view.show_hud,
        overlay: view.layout() == View::Overlay,
        ..a
    }
}

impl Session {
    /// A session for `cfg`'s lanes in a `width × height` buffer: the split view when there are
    /// several. Its clock starts at 0 (see [`Session::restart_clock`]).
    pub fn new(cfg: &WindowConfig, width: u32, height: u32) -> Result<Session, BadLanes> {
        let env = cfg.env(None);
        let lanes = build_lanes(&cfg.lanes, &cfg.rope, &env).map_err(BadLanes)?;
        let mut view = ViewState::default();
        (view.show_hud, view.show_panel) = (true, panel_starts_shown(width));
        view.set_layout(view_of(lanes.len(), cfg.overlay));
        let start = Arrangement {
            size: (width, height),
            lanes: 0,
            split: false,
            hud: true,
            overlay: false,
            panel: 0,
            bar: 0,
        };
        let arrangement = arranged(start, &view, lanes.len());
        let mut frames = Frames::new(Pacer::new(cfg.pacing, None));
        frames.anchor(0);
        Ok(Session {
            screen: Screen::new(&cfg.rope, arrangement),
            lanes,
            frames,
            view,
            hand: Hand::default(),
            meter: Meter::default(),
            vblanks: VblankCounter::new(None, cfg.vsync),
            vsync: cfg.vsync,
            refresh_hz: None,
            requests: Requests::default(),
            rope: cfg.rope,
            lesson: None,
            caption: Vec::new(),
            notice: false,
            step_cost_ns: 0,
            home: Home {
                lanes: cfg.lanes.clone(),
                env,
                rope: cfg.rope,
                pacing: cfg.pacing,
                overlay: cfg.overlay,
            },
            refused: None,
            fresh_clock: 0,
            colours: Vec::new(),
        })
        .map(|mut session| {
            if let Some(n) = cfg.lesson {
                session.refused = session.start_lesson(n).err();
            }
            session.colours = colours_of(&session.lanes);
            session.arrange();
            session
        })
    }

    /// Lesson `n` (1-based; any other number is refused, and nothing changes): its lanes,
    /// tick, pacing, drive, step cost and trail, and its caption. The window's clock carries
    /// on; the lanes start afresh, as the lesson says.
    pub fn start_lesson(&mut self, n: usize) -> Result<(), Refused> {
        let lesson = Lesson::number(n)?;
        let rope = RopeParams {
            drive: lesson.drive,
            ..self.rope
        };
        let env = PolicyEnv::textbook(lesson.timing())
            .with_max_substep(lesson.max_substep())
            .with_vsync_requested(self.vsync)
            .with_refresh_hint(self.refresh_hz);
        self.replace_lanes(build_lanes(&lesson.lane_specs(), &rope, &env)?);
        self.rope = rope;
        self.screen.set_params(&rope);
        self.view.focus = 0;
        self.view.set_layout(view_of(self.lanes.len(), false));
        self.view.trail = lesson.trail;
        self.set_pacing(lesson.pacing);
        self.step_cost_ns = lesson.step_cost_ns;
        self.lesson = Some(n);
        self.caption = lesson.caption_lines(n);
        self.notice = false;
        self.arrange();
        Ok(())
    }

    /// Leaves the lesson showing for the plain view the window was launched with: its lanes
    /// afresh, its rope, pacing and trail. The window's clock carries on.
    fn leave_lesson(&mut self) -> Result<(), Refused> {
        let home = self.home.clone();
        let env = home.env.with_refresh_hint(self.refresh_hz);
        self.replace_lanes(build_lanes(&home.lanes, &home.rope, &env)?);
        self.rope = home.rope;
        self.screen.set_params(&home.rope);
        self.view.focus = 0;
        self.view
            .set_layout(view_of(self.lanes.len(), home.overlay));
        self.view.trail = false;
        self.set_pacing(home.pacing);
        self.step_cost_ns = 0;
        self.lesson = None;
        self.caption.clear();
        self.notice = false;
        self.arrange();
        Ok(())
    }

    /// L and Shift+L: the next lesson or the one before; past either end of the list, the
    /// plain view (a way out), and from the plain view the first or the last lesson.
    fn step_lesson(&mut self, forward: bool) -> Result<(), Refused> {
        let count = LESSONS.len();
        let next = match (self.lesson, forward) {
            (None, true) => Some(1),
            (None, false) => Some(count),
            (Some(n), true) => (n < count).then_some(n + 1),
            (Some(n), false) => (n > 1).then(|| n - 1),
        };
        match next {
            Some(n) => self.start_lesson(n),
            None => self.leave_lesson(),
        }
    }

    /// Esc: closes the help if it is open, else leaves the lesson showing, else quits.
    fn back(&mut self) -> Result<(), Refused> {
        if self.view.show_help {
            self.view.show_help = false;
        } else if self.lesson.is_some() {
            self.leave_lesson()?;
        } else {
            self.requests.quit = true;
        }
        Ok(())
    }

    /// The one-line hint on screen: which keys open the help and the lessons, and in a lesson
    /// how to move on or leave.
    pub fn hint(&self) -> String {
        if let Some(refused) = &self.refused {
            return format!("not changed: {refused}");
        }
        if self.paused() {
            return "P: resume  ,: frame back  .: frame on  F1: keys".into();
        }
        match self.lesson {
            Some(_) => {
                "L: next lesson  Shift+L: back  Esc: leave the lesson  F1: keys  F2: panel".into()
            }
            None => self.alike_tip().unwrap_or_else(|| {
                let lanes = if self.lanes.len() > 1 {
                    "  Tab: lane"
                } else {
                    ""
                };
                format!(
                    "F1: keys  F2: panel  L: lessons  M: mode{lanes}  V: split  P: pause  Esc: quit"
                )
            }),
        }
    }

    /// The hint when the lanes on screen tick far faster than the frames come, so their loops
    /// look alike (see `alike_tip`), once the frame rate has settled.
    fn alike_tip(&self) -> Option<String> {
        let fps = self.meter.fps.settled_fps().filter(|f| *f > 0.0)?;
        let shown = self.view.shown(self.lanes.len());
        let lanes = shown.iter().filter_map(|&i| self.lanes.get(i));
        let tip = alike_tip(lanes, (1e9 / fps) as u64)?;
        Some(format!("{tip}  F1: keys"))
    }

    /// Every rope's drive is `drive` from now on (`D`, the panel, a lesson's).
    fn set_drive(&mut self, drive: Drive) {
        self.rope.drive = drive;
        for lane in &mut self.lanes {
            lane.set_drive(self.rope.drive, default_px_per_m(&self.rope));
        }
        self.screen.set_params(&self.rope);
    }

    /// The window's clock reads `now_ns`: setting up took a while, and that is not a frame.
    pub fn restart_clock(&mut self, now_ns: u64) {
        self.frames.anchor(now_ns);
    }

    /// The next `frames` frames each start the loop's clock afresh: the time before each is
    /// the program's own (setting up new lanes, a new size, the first presents), not the
    /// loop's, so it is handed to no lane and shows in no lane's books. Each such frame
    /// measures only from its own start (well under a millisecond).
    ///
    /// Leaving the spiral lesson handed the next lesson's fresh lanes the 370 ms its last
    /// frame spent, and they counted 93.5 ms of it dropped; the first two frames at launch
    /// measure the first presents (87 to 219 ms under llvmpipe here). A replayed capture's
    /// clock is left alone: its frame times are the capture's.
    pub fn start_clock_afresh(&mut self, frames: u8) {
        self.fresh_clock = self.fresh_clock.max(frames);
    }

    /// `lanes` take the place of the lanes running: the hand lets go, the frames kept and the
    /// strip start over, and the new lanes' first frame is measured from its own start (see
    /// [`Session::start_clock_afresh`]).
    fn replace_lanes(&mut self, lanes: Vec<Lane>) {
        self.lanes = lanes;
        self.colours = colours_of(&self.lanes);
        self.view.focus = self.view.focus.min(self.lanes.len().saturating_sub(1));
        self.hand.drop_held();
        self.screen.start_over();
        self.start_clock_afresh(1);
    }

    /// The lane the keys act on (the one the single view shows).
    pub fn focused(&self) -> &Lane {
        &self.lanes[self.view.focus]
    }
    /// The cap the pacing holds, if it is one.
    pub fn fps_cap(&self) -> Option<f64> {
        match self.pacing() {
            Pacing::Cap(hz) => Some(hz),
            _ => None,
        }
    }
    /// How frames are paced.
    pub fn pacing(&self) -> Pacing {
        self.frames.pacer().pacing()
    }
    /// Paces frames with `pacing` from now on.
    fn set_pacing(&mut self, pacing: Pacing) {
        self.frames.set_pacer(Pacer::new(pacing, self.refresh_hz));
    }
    pub fn quit_requested(&self) -> bool {
        self.requests.quit
    }

    /// The window title: the lesson, if one is showing, the view and the lanes in it.
    pub fn title(&self) -> String {
        let dash = match self.lesson {
            Some(n) => format!("timestep-rope \u{2014} lesson {n} \u{2014}"),
            None => "timestep-rope \u{2014}".to_string(),
        };
        if self.view.layout() != View::Single {
            let names: Vec<String> = self.lanes.iter().map(Lane::name).collect();
            let view = if self.overlay() {
                "overlay"
            } else {
                "split view"
            };
            format!("{dash} {view}: {}", names.join(" | "))
        } else if self.lanes.len() > 1 {
            let (n, all) = (self.view.focus + 1, self.lanes.len());
            format!(
                "{dash} {} (lane {n} of {all}; V: split view)",
                self.focused().name()
            )
        } else {
            format!("{dash} {}", self.focused().name())
        }
    }

    /// Does what `action` asks. A change a lane cannot make leaves the lane as it was, and
    /// the screen says why until the next change ([`Session::refused`]).
    pub fn handle_action(&mut self, action: Action) {
        self.apply(knobs::Change::Action(action));
    }

    /// The plain launch's caption (see [`DEFAULT_CAPTION`]) while its lanes are
    /// overlaid, outside a lesson; else none.
    fn plain_caption(&self) -> Vec<String> {
        match self.lesson.is_none() && self.home.overlay && self.overlay() {
            true => DEFAULT_CAPTION.map(String::from).to_vec(),
            false => Vec::new(),
        }
    }

    /// Why the last change (a key's or the panel's) was refused, if it was.
    pub fn refused(&self) -> Option<&Refused> {
        self.refused.as_ref()
    }

    /// Does what `action` asks, or says why the lane refuses it (none does today but a lane
    /// without a rope asked for an integrator: every policy involved was built once already).
    fn act(&mut self, action: Action) -> Result<(), Refused> {
        let lane = self.focused();
        match action {
            Action::CycleMode => self.set(Setting::Mode(cycled(lane.mode())))?,
            Action::Pick(i) => self.pick(i)?,
            Action::NextLane => self.step_focus(1),
            Action::PreviousLane => self.step_focus(self.lanes.len().saturating_sub(1)),
            Action::ToggleSplit => self.toggle_split()?,
            Action::CycleTimer => self.set(Setting::Timer(cycled(lane.timer())))?,
            Action::Reset => self.reset(),
            Action::Pause => self.set(Setting::Paused(!self.paused()))?,
            Action::FrameBack => self.step_frame(-1),
            Action::FrameOn => self.step_frame(1),
            Action::ToggleOverlay => self.set_overlay(!self.overlay())?,
            Action::Stall => self.requests.stall = true,
            Action::CapDown => self.set(Setting::Pacing(capped(cap_down(self.fps_cap()))))?,
            Action::CapUp => self.set(Setting::Pacing(capped(cap_up(self.fps_cap()))))?,
            Action::TickShorter => self.step_tick(false)?,
            Action::TickLonger => self.step_tick(true)?,
            Action::CyclePacing => self.set(Setting::Pacing(next_pacing(self.pacing())))?,
            Action::ToggleIntegrator => {
                let now = lane.integrator().ok_or(Refused::NoRope)?;
                self.set(Setting::Integrator(now.next()))?;
            }
            Action::ToggleHud => {
                self.view.show_hud = !self.view.show_hud;
                // The rope may use the HUD's column while the HUD is hidden.
                self.arrange();
            }
            Action::CycleDrive => self.set(Setting::Drive(self.rope.drive.next()))?,
            Action::ToggleTrail => self.set(Setting::Trail(!self.view.trail))?,
            Action::NextLesson => self.step_lesson(true)?,
            Action::PreviousLesson => self.step_lesson(false)?,
            Action::ToggleHelp => self.view.show_help = !self.view.show_help,
            Action::TogglePanel => {
                self.view.show_panel = !self.view.show_panel;
                self.view.panel_aside = false;
            }
            Action::Back => self.back()?,
            Action::Quit => self.requests.quit = true,
        }
        Ok(())
    }

    /// Lane `i` steps in `mode` from now on; a rope that exploded under the old mode starts
    /// afresh, so the new mode is never labelled with the old one's explosion (the trial read
    /// "fixed - EXPLODED" after `M` on an exploded variable lane).
    fn set_mode_of(&mut self, i: usize, mode: Mode) -> Result<(), ConfigError> {
        let lane = &mut self.lanes[i];
        lane.set_mode(mode)?;
        if lane.rope().is_some_and(|r| r.exploded()) {
            lane.reset();
        }
        Ok(())
    }

    /// Tab and Shift+Tab: the focus `by` lanes on, round the lanes (the single view shows the
    /// lane focused).
    fn step_focus(&mut self, by: usize) {
        self.view.focus = (self.view.focus + by) % self.lanes.len().max(1);
        self.arrange();
    }

    /// 1 to 4: that mode for the one lane; with several lanes, that lane alone (in the split
    /// view: maximised).
    fn pick(&mut self, i: usize) -> Result<(), ConfigError> {
        if self.lanes.len() == 1 {
            if let Some(&mode) = Mode::ALL.get(i) {
                self.set_mode_of(0, mode)?;
            }
        } else if i < self.lanes.len() {
            self.view.focus = i;
            self.view.set_layout(View::Single);
            self.arrange();
        }
        Ok(())
    }

    /// The help overlay's lines when it is open (else none): keys 1 to 4 say what they
    /// show among the lanes running now.
    pub(crate) fn help(&self) -> Vec<String> {
        if !self.view.show_help {
            return Vec::new();
        }
        let names: Vec<String> = self.lanes.iter().map(Lane::name).collect();
        help_lines(&picks(&names))
    }

    /// Whether frames are paused (`P`): no lane steps, and `,` and `.` step through the
    /// frames kept.
    pub fn paused(&self) -> bool {
        self.frames.paused()
    }

    /// Pauses, or resumes from the newest frame.
    pub fn set_paused(&mut self, paused: bool) {
        self.frames.set_paused(paused);
        self.view.rewind = 0;
    }

    /// How many frames back from the newest the paused picture is.
    pub fn rewound(&self) -> usize {
        self.view.rewind
    }

    /// `,` (`by` < 0) and `.` (`by` > 0): pauses if running; paused, shows the frame `by`
    /// frames later among those kept, and past the newest runs one frame more (its frame
    /// time is measured as any frame's).
    pub fn step_frame(&mut self, by: i32) {
        if !self.paused() {
            self.set_paused(true);
            return;
        }
        let oldest = self.screen.kept_frames().saturating_sub(1);
        let back = i64::try_from(self.rewound()).unwrap_or(i64::MAX) - i64::from(by);
        if back < 0 {
            self.view.rewind = 0;
            self.requests.step = true;
        } else {
            self.view.rewind = usize::try_from(back).unwrap_or(0).min(oldest);
        }
    }

    /// Whether the lanes are overlaid in one pane.
    pub fn overlay(&self) -> bool {
        self.view.layout() == View::Overlay
    }

    /// O: every lane drawn over each other in one pane, each in its colour, or not (the
    /// split view). One lane becomes the four modes first, as for the split view.
    pub fn set_overlay(&mut self, on: bool) -> Result<(), Refused> {
        if on && self.lanes.len() == 1 {
            self.fork_every_mode()?;
        }
        self.view.set_layout(view_of(self.lanes.len(), on));
        self.arrange();
        Ok(())
    }

    /// One lane becomes the four modes, each starting from this rope and this clock, so they
    /// part ways from one state before your eyes; the one that was showing keeps the focus.
    fn fork_every_mode(&mut self) -> Result<(), Refused> {
        let current = self.lanes[0].mode();
        let integrator = self.lanes[0].integrator();
        let forks: Result<Vec<Lane>, _> = LaneSpec::every_mode()
            .into_iter()
            .map(|spec| {
                let mut lane = self.lanes[0].fork(spec)?;
                if let Some(i) = integrator {
                    lane.set_integrator(i)?;
                }
                Ok::<Lane, timestep_loop::ConfigError>(lane)
            })
            .collect();
        self.replace_lanes(forks?);
        self.view.focus = Mode::ALL.iter().position(|&m| m == current).unwrap_or(0);
        Ok(())
    }

    /// V: the split view and back (from the overlay: the split view). One lane becomes the
    /// four modes first (see [`Session::fork_every_mode`]).
    fn toggle_split(&mut self) -> Result<(), Refused> {
        let view = match self.view.layout() {
            View::Overlay => View::Split,
            _ if self.lanes.len() == 1 => {
                self.fork_every_mode()?;
                view_of(self.lanes.len(), false)
            }
            View::Single => View::Split,
            View::Split => View::Single,
        };
        self.view.set_layout(view);
        self.arrange();
        Ok(())
    }

    /// The display's refresh rate as the OS reports it (it can be missing or wrong): every
    /// lane's vsync detector starts again from it, the pacing plans with it, and presents are
    /// counted in its vblanks.
    pub fn set_refresh_hint(&mut self, hz: Option<f64>) {
        for lane in &mut self.lanes {
            lane.set_refresh_hint(hz);
        }
        self.refresh_hz = hz;
        self.vblanks = VblankCounter::new(hz, self.vsync);
        self.set_pacing(self.pacing());
    }

    /// R: every rope back to its starting line, by each lane's reset rule.
    pub fn reset(&mut self) {
        for lane in &mut self.lanes {
            lane.reset();
        }
        self.hand.drop_held();
    }

    /// The window opened `width × height` pixels large: the panel shows or not as it would
    /// for a session made at that size (see [`panel_starts_shown`]), and the first two frames
    /// (whose presents set the GPU up) are not the loop's (see
    /// [`Session::start_clock_afresh`]).
    pub fn opened(&mut self, width: u32, height: u32) {
        self.view.show_panel = panel_starts_shown(width);
        self.resize(width, height);
        self.start_clock_afresh(2);
    }

    /// The buffer is `width × height` pixels now; the ropes keep their proportions. The
    /// frames of a resize come as fast as the window redraws, not at the display's rate:
    /// every lane's refresh estimate starts again (so a drag's frames never make it).
    pub fn resize(&mut self, width: u32, height: u32) {
        let a = self.screen.arrangement();
        if a.size != (width, height) {
            self.panel_for_width(width);
            for lane in &mut self.lanes {
                lane.set_refresh_hint(self.refresh_hz);
            }
            // The surface and the buffer are made anew at the new size: not the loop's time.
            self.start_clock_afresh(1);
        }
        self.screen.arrange(Arrangement {
            size: (width, height),
            ..a
        });
    }

    /// The panel steps aside when the window becomes too narrow for it and the panes (see
    /// [`panel_starts_shown`]: shrunk to 360 px, it covered every rope), and comes back when
    /// the window is wide enough again, unless `F2` has hidden or shown it since.
    fn panel_for_width(&mut self, width: u32) {
        let fits = panel_starts_shown(width);
        let v = &mut self.view;
        if v.show_panel && !fits {
            (v.show_panel, v.panel_aside) = (false, true);
        } else if v.panel_aside && fits {
            (v.show_panel, v.panel_aside) = (true, false);
        }
    }

    /// What the window's egui covers now, pixels: `panel` along the right edge (0: hidden),
    /// and `bar` at the top, the HUD's bar (0: none drawn). The panes are laid out clear of
    /// both.
    pub fn set_covered(&mut self, panel: u32, bar: u32) {
        let a = self.screen.arrangement();
        self.screen.arrange(Arrangement { panel, bar, ..a });
    }

    fn arrange(&mut self) {
        let a = self.screen.arrangement();
        if self.lesson.is_none() {
            self.caption = self.plain_caption();
        }
        self.screen.set_caption(&self.caption);
        self.screen
            .arrange(arranged(a, &self.view, self.lanes.len()));
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

    /// Left button down: grabs the particle nearest the cursor in the pane under it (in the
    /// overlay, of the rope nearest it); the same particle of every rope follows the mouse
    /// from then on.
    pub fn press(&mut self, now_ns: u64) -> bool {
        let layout = self.screen.layout();
        let Some(px) = self.hand.cursor_px() else {
            return false;
        };
        let Some(pane) = layout.pane_at(px) else {
            return false;
        };
        let lane_of = |pane: usize| match self.view.layout() != View::Single {
            true => pane.min(self.lanes.len() - 1),
            false => self.view.focus,
        };
        // The overlay's panes share one area, each rope hung apart: the nearest rope's.
        let nearest = |i: &usize| {
            let view = &layout.views[*i];
            let rope = self.lanes[lane_of(*i)].rope();
            let d = rope.map(|r| r.positions().map(|p| view.to_screen(p).distance(px)));
            d.and_then(|d| d.min_by(f32::total_cmp))
                .unwrap_or(f32::INFINITY)
        };
        let area = layout.areas[pane];
        let shared = (0..layout.areas.len()).filter(|&i| layout.areas[i] == area);
        let pane = shared
            .min_by(|a, b| nearest(a).total_cmp(&nearest(b)))
            .unwrap_or(pane);
        let view = layout.views[pane];
        match self.lanes[lane_of(pane)].rope() {
            Some(rope) => self.hand.press(rope, view, now_ns),
            None => false,
        }
    }

    /// Left button up: every rope lets go with the drag's velocity (a fling).
    pub fn release(&mut self, now_ns: u64) {
        let Some(rope) = self.lanes[self.view.focus].rope() else {
            return;
        };
        if let Some(fling) = self.hand.release(now_ns, |i| rope.position(i)) {
            for lane in &mut self.lanes {
                lane.set_grab(Some(fling));
                lane.set_grab(None);
            }
        }
    }

    /// One frame through the frame protocol: the `S` key's stall first (a real stall: the loop
    /// blocks, the next frame measures it, the clamp cuts it), the hand's grab, then every lane
    /// advanced on `wall`'s clock, drawn and shown by `presenter`, and recorded. `input_at` is
    /// when the first key or mouse event this frame answers happened. An error is the
    /// presenter's, for the caller to report: the frame is not shown or logged.
    pub fn frame<W: WindowWall, P: Present>(
        &mut self,
        wall: &mut W,
        presenter: &mut P,
        input_at: Option<u64>,
    ) -> Result<FrameReport, P::Error> {
        if std::mem::take(&mut self.requests.stall) {
            wall.sleep(STALL_NS);
        }
        // `.` at the newest frame: this one frame runs.
        let stepping = std::mem::take(&mut self.requests.step) && self.paused();
        if stepping {
            self.frames.set_paused(false);
        }
        let grab = self.hand.grab(wall.real_ns());
        if !self.frames.paused()
            && let Some(grab) = grab
        {
            for lane in &mut self.lanes {
                lane.set_grab(Some(grab));
            }
        }
        let grabbed = self.hand.held().map(|index| Grip {
            index,
            pull: grab.map(|g| g.target),
        });
        // A replayed capture's frame times are all frames': none is the program's pause.
        if self.fresh_clock > 0 {
            self.fresh_clock -= 1;
            if wall.live() {
                self.frames.restart();
            }
        }
        let hint = self.hint();
        let help = self.help();
        let mut host = WindowHost {
            pacing: pacing_summary(self.frames.pacer()),
            wall,
            presenter,
            screen: &mut self.screen,
            meter: &mut self.meter,
            vblanks: &mut self.vblanks,
            view: self.view,
            grabbed,
            help: &help,
            step_cost_ns: self.step_cost_ns,
            caption: &self.caption,
            hint: &hint,
            colours: &self.colours,
            next_frame_ns: None,
        };

        let frame = self.frames.run(&mut host, &mut self.lanes);
        let next_frame_ns = host.next_frame_ns;
        if stepping {
            self.frames.set_paused(true);
        }
        let frame = frame?;
        self.lesson_notice();
        let input_ns = match (input_at, frame.shown) {
            (Some(at), Some(shown)) => {
                let latency = shown.at_ns.saturating_sub(at);
                self.meter.input_shown(latency);
                Some(latency)
            }
            _ => None,
        };
        let rows = self
            .view
            .shown(self.lanes.len())
            .into_iter()
            .map(|i| self.row(i, &frame, input_ns))
            .collect();
        Ok(FrameReport {
            frame,
            rows,
            next_frame_ns,
            displayed: self.meter.display.take_fresh(),
            display_source: log_source(self.meter.display.source()),
        })
    }

    /// The lesson's caption ends in its notice while the measured frame rate is too low for
    /// its point (see `Lesson::notice`), and no longer once it is not.
    fn lesson_notice(&mut self) {
        let (Some(n), Some(fps)) = (self.lesson, self.meter.fps.settled_fps()) else {
            return;
        };
        let Ok(lesson) = Lesson::number(n) else {
            return;
        };
        let notice = lesson.notice(fps, self.notice);
        if notice.is_none() && !self.notice {
            return;
        }
        self.caption = lesson.caption_lines(n);
        self.caption.extend(notice.iter().flatten().cloned());
        if self.notice != notice.is_some() {
            self.notice = notice.is_some();
            self.arrange();
        }
    }

    /// The frame log's row for lane `i`: its frame record, the latency of the input shown.
    fn row(&self, i: usize, frame: &FrameDone, input_ns: Option<u64>) -> FrameRecord {
        let mut record = FrameRecord::of(i, &self.lanes[i], frame, self.pacing(), 0);
        if !self.frames.ran(i) {
            record.steps = 0;
        }
        record.input_ns = input_ns;
        record
    }

    /// What the display said of the frames, for the report (`window.display`).
    pub fn display_summary(&self) -> serde_json::Value {
        self.meter.display.summary()
    }

    /// Every lane's report, as `simulate` gives it: its books kept on the window's clock.
    pub fn reports(&self) -> Vec<LaneReport> {
        self.lanes
            .iter()
            .map(|lane| LaneReport::new(lane, self.frames.pacer()))
            .collect()
    }
}

/// The knobs the panel shows and the settings they and the keys set.
pub mod knobs;
/// Lanes whose step their rope cannot take: what the screen says, and the panel's fixes.
pub mod stability;

/// The value after `value` in `T::ALL`, wrapping round: how the window's keys cycle a mode
/// (`M`, Space) and a timer (`T`).
fn cycled<T: Named + PartialEq>(value: T) -> T {
    let after = T::ALL.iter().position(|&v| v == value).map_or(0, |i| i + 1);
    T::ALL
        .get(after % T::ALL.len().max(1))
        .copied()
        .unwrap_or(value)
}

#[cfg(test)]
mod hand_tests;
#[cfg(test)]
pub(crate) mod tests;
