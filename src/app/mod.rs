//! The live window: a winit 0.30 `ApplicationHandler` around [`session::Session`].
//!
//! The only module that touches winit, pixels or wgpu. Each redraw runs one frame of the frame
//! protocol (`timestep_lab::protocol::frame`) through the session, with this window as its host: the clock is
//! `Instant` (a [`timestep_loop::SystemClock`], as every timestamp here is), sleeps are spin_sleep's, and the
//! present draws into pixels' buffer and presents it; then the frame is logged. Everything
//! with rules in it lives in the pure modules: `bindings` (keys → actions), `session` (what
//! actions and frames do), `host` (the window as a host, on any clock), `pacing` (the cap
//! keys, fps), `drag` (the mouse and its fling), `output` (frame log, screenshot, error
//! lines); `gpu` presents. `probe` is `probe --window`: presents in each present mode,
//! timed.

mod bindings;
mod config;
mod display;
mod drag;
mod gpu;
mod gui;
mod host;
mod labels;
mod output;
mod pacing;
mod panel;
pub mod probe;
mod replay;
mod session;

use bindings::lookup;
pub use config::{CaptureChoice, DEFAULT_LANES, WindowConfig};
use gpu::backend_problem;
use session::Session;

use crate::failure::Failure;
use crate::messages::{self, chain};
use display_feedback::{Feedback, Source};
use glam::Vec2;
use gpu::{Gpu, GpuError, Presented};
use gui::Gui;
use host::{Present, WindowWall};
use output::{AtExit, FrameCost, OutputError, Outputs};
use replay::CaptureWall;
use session::knobs::PanelView;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use timestep_lab::hosts::replay::CaptureError;
use timestep_lab::protocol::wall::{RealWall, Wall};
use timestep_lab::view::draw::Texts;
use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::error::{EventLoopError, OsError};
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, PhysicalKey};
use winit::window::{Window, WindowId};

/// The window's starting size in logical pixels, on a screen that holds it.
const START_SIZE: LogicalSize<u32> = LogicalSize::new(
    timestep_lab::view::draw::DEFAULT_SIZE.0,
    timestep_lab::view::draw::DEFAULT_SIZE.1,
);
/// The smallest the window can be made, logical pixels.
const MIN_SIZE: LogicalSize<u32> = LogicalSize::new(160, 120);
/// The share of a smaller screen the window starts at (room for a taskbar and a title bar).
const SCREEN_SHARE: f64 = 0.9;

/// The window's starting size on a monitor of `monitor` physical pixels at `scale_factor`:
/// [`START_SIZE`] where it fits, else shrunk, in proportion, to [`SCREEN_SHARE`] of the
/// monitor's width or height (whichever is tighter), never below [`MIN_SIZE`]. With no
/// monitor known, [`START_SIZE`].
fn start_size(monitor: Option<(PhysicalSize<u32>, f64)>) -> LogicalSize<u32> {
    let Some((size, scale)) = monitor.filter(|(s, f)| s.width > 0 && s.height > 0 && *f > 0.0)
    else {
        return START_SIZE;
    };
    let screen: LogicalSize<f64> = size.to_logical(scale);
    let (w, h) = (f64::from(START_SIZE.width), f64::from(START_SIZE.height));
    if w <= screen.width && h <= screen.height {
        return START_SIZE;
    }
    let shrink = (SCREEN_SHARE * screen.width / w).min(SCREEN_SHARE * screen.height / h);
    LogicalSize::new(
        ((w * shrink) as u32).max(MIN_SIZE.width),
        ((h * shrink) as u32).max(MIN_SIZE.height),
    )
}
/// How long past `--exit-after` to wait for a first frame when `--screenshot` needs one.
const FIRST_FRAME_GRACE_NS: u64 = 10_000_000_000;

/// Runs the window until the user quits. Returns the process exit status: 0 for a normal
/// quit (Esc, Q, closing the window, `--exit-after`); 130 for Ctrl-C in its terminal, SIGTERM
/// or SIGHUP, which quit as Esc does (the files are written); a failure is an unwritable output path
/// (status 2, checked before any window opens), or the window or GPU failing (status 1; said
/// as it happens, while the window winds down, and no file is replaced).
pub fn run(cfg: WindowConfig) -> Result<ExitCode, Failure> {
    let outputs = Outputs::open(
        cfg.screenshot.as_deref(),
        cfg.frame_log.as_deref(),
        cfg.report.as_deref(),
    );
    let outputs = outputs.map_err(Failure::usage)?;
    // A failure from here on drops `outputs`: every target is left as it was.
    let (clock, replay_refresh) = window_clock(&cfg).map_err(Failure::usage)?;
    let session =
        Session::new(&cfg, START_SIZE.width, START_SIZE.height).map_err(Failure::usage)?;
    // A tick the rope cannot take is said at launch, with what to do instead.
    for line in session.stability_warnings() {
        messages::warning(&line);
    }
    let event_loop = preflight().map_err(Failure::machine)?;
    let mut app = App {
        session,
        clock,
        replay_refresh,
        vsync: cfg.vsync,
        exit_after_ns: cfg.exit_after_ns,
        input_at: None,
        window: None,
        gpu: None,
        gui: None,
        feedback: None,
        cost: FrameCost::default(),
        titled: None,
        shift: false,
        presented: false,
        outputs,
        status: 0,
        finished: false,
        oversize_reported: false,
        serve_until: None,
        next_frame_ns: None,
        served_at: None,
    };
    crate::interrupt::install();
    if let Err(e) = event_loop.run_app(&mut app) {
        app.fail(WindowError::EventLoop(e));
    }
    app.finish();
    if app.status == 0 && interrupted() {
        return Ok(crate::interrupt::status(true));
    }
    Ok(ExitCode::from(app.status))
}

/// Whether Ctrl-C was pressed in the window's terminal.
fn interrupted() -> bool {
    crate::interrupt::flag().load(std::sync::atomic::Ordering::Relaxed)
}

/// The window's clock: the real one, or `--replay`'s capture played on it (read and checked
/// here, before any window opens), with the refresh rate the capture's display changes say.
fn window_clock(cfg: &WindowConfig) -> Result<(WindowClock, Option<Option<f64>>), CaptureError> {
    let real = RealWall::new(cfg.sleep);
    let Some(capture) = &cfg.replay else {
        return Ok((WindowClock::Live(real), None));
    };
    let (selection, summary) = timestep_lab::hosts::replay::open(
        &capture.path,
        capture.app.as_deref(),
        capture.swapchain.as_deref(),
    )?;
    let refresh = summary.refresh_hz_estimate;
    let wall = CaptureWall::open(real, &capture.path, selection, &summary)?;
    Ok((WindowClock::Capture(Box::new(wall)), Some(refresh)))
}

/// Why no window can open, found before one is tried: one line saying what to do instead.
#[derive(Debug, thiserror::Error)]
pub enum NoWindow {
    /// No display is named (the reason, as [`missing_display`] gives it).
    #[error("{}", no_display(.0))]
    NoDisplay(&'static str),
    /// winit could not reach a display.
    #[error("{}", no_display(&chain("winit", .0)))]
    EventLoop(EventLoopError),
    /// No graphics backend to look in for an adapter.
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

/// The line for "no display", for the reason `why`.
fn no_display(why: &str) -> String {
    format!(
        "no display found ({why}): run it under a desktop, or headless with \
         xvfb-run -a timestep-rope, or use 'timestep-rope simulate' for the numbers"
    )
}

/// Checks there is a display and a usable wgpu backend, and makes the event loop.
fn preflight() -> Result<EventLoop<()>, NoWindow> {
    if let Some(why) = missing_display() {
        return Err(NoWindow::NoDisplay(why));
    }
    // wgpu looks only at the backends WGPU_BACKEND names; if this build has none of
    // them there is no adapter to find, and wgpu's own error would not say why.
    if let Some(problem) = backend_problem(std::env::var("WGPU_BACKEND").ok().as_deref()) {
        return Err(problem.into());
    }
    EventLoop::new().map_err(NoWindow::EventLoop)
}

/// The window failing once it runs: one line, exit status 1.
#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    /// The OS would not make the window.
    #[error("{}", chain("cannot open a window", .0))]
    Open(OsError),
    /// winit's event loop stopped with an error.
    #[error("{}", chain("the event loop failed", .0))]
    EventLoop(EventLoopError),
    /// The GPU failed: setting up, resizing or presenting.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A replayed capture's next frame cannot be read.
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// The surface offers no present mode to probe.
    #[error("the surface offers no present mode")]
    NoPresentMode,
    /// The frame log, the screenshot or the report cannot be written.
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Why no window can open, checked before winit tries (its own error names only the
/// variables). `None` where a display may exist.
fn missing_display() -> Option<&'static str> {
    if !cfg!(all(
        unix,
        not(target_os = "macos"),
        not(target_os = "ios"),
        not(target_os = "android")
    )) {
        return None;
    }
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if set("DISPLAY") || set("WAYLAND_DISPLAY") || set("WAYLAND_SOCKET") {
        None
    } else {
        Some("DISPLAY is not set")
    }
}

impl WindowWall for RealWall {}

/// The window's clock: the real one, or a capture played on it (`--replay`).
enum WindowClock {
    Live(RealWall),
    Capture(Box<CaptureWall<RealWall>>),
}

impl Wall for WindowClock {
    fn now_ns(&mut self) -> u64 {
        match self {
            WindowClock::Live(w) => w.now_ns(),
            WindowClock::Capture(c) => c.now_ns(),
        }
    }
    fn sleep(&mut self, ns: u64) {
        match self {
            WindowClock::Live(w) => w.sleep(ns),
            WindowClock::Capture(c) => c.sleep(ns),
        }
    }
}

impl WindowWall for WindowClock {
    fn real_ns(&mut self) -> u64 {
        match self {
            WindowClock::Live(w) => w.real_ns(),
            WindowClock::Capture(c) => c.real_ns(),
        }
    }
    fn shown(&mut self) -> Option<u64> {
        match self {
            WindowClock::Live(w) => w.shown(),
            WindowClock::Capture(c) => c.shown(),
        }
    }
    fn caption(&self) -> Option<timestep_lab::view::draw::CaptureCaption> {
        match self {
            WindowClock::Live(w) => w.caption(),
            WindowClock::Capture(c) => c.caption(),
        }
    }
    fn live(&self) -> bool {
        match self {
            WindowClock::Live(w) => w.live(),
            WindowClock::Capture(c) => c.live(),
        }
    }
}

/// The GPU as the session's presenter, for one frame: nothing is drawn into a window that is
/// minimised or larger than the GPU can draw, and a surface with no image skips the frame.
struct GpuPresent<'a> {
    gpu: &'a mut Gpu,
    /// The panel and the HUD's text, drawn over the frame.
    gui: Option<&'a mut Gui>,
    window: &'a Window,
    /// The session as the panel shows it, taken before the frame.
    view: &'a PanelView,
    /// This frame's HUD figures, for the egui HUD.
    hud: Option<timestep_lab::view::draw::HudInfo>,
    cost: &'a mut FrameCost,
    fits: bool,
    presented: &'a mut bool,
    /// When the window's frames were shown (present feedback), if there is a window.
    feedback: Option<&'a mut Feedback>,
    /// The host's number of the frame being presented.
    number: Option<u64>,
}

impl Present for GpuPresent<'_> {
    type Error = GpuError;

    fn present_mode(&self) -> String {
        self.gpu.present_mode().to_string()
    }

    fn hud_text(&mut self, hud: Option<&timestep_lab::view::draw::HudInfo>) -> bool {
        self.hud = hud.cloned();
        self.gui.is_some()
    }

    fn presenting(&mut self, number: u64) {
        self.number = Some(number);
    }

    fn displayed(&mut self, out: &mut Vec<display_feedback::Presented>) {
        if let Some(feedback) = self.feedback.as_deref_mut() {
            feedback.poll(out);
        }
    }

    fn display_source(&self) -> (Source, Option<&str>) {
        match self.feedback.as_deref() {
            Some(f) => (f.source(), f.why()),
            None => (Source::None, Some("no window")),
        }
    }

    fn present(
        &mut self,
        draw: &mut dyn FnMut(&mut [u8], u32, u32) -> Texts,
    ) -> Result<bool, GpuError> {
        if !self.fits {
            // Keep simulating, draw nothing, and do not spin the CPU.
            std::thread::sleep(Duration::from_millis(10));
            return Ok(false);
        }
        let (w, h) = self.gpu.size();
        let started = Instant::now();
        let texts = draw(self.gpu.frame_mut(), w, h);
        let drawn = Instant::now();
        if let Some(gui) = self.gui.as_deref_mut() {
            gui.prepare(self.window, self.view, self.hud.as_ref(), &texts);
        }
        let prepared = Instant::now();
        // Wayland's feedback request must precede the commit Mesa makes inside the present.
        let number = self.number.take();
        if let (Some(feedback), Some(n)) = (self.feedback.as_deref_mut(), number) {
            feedback.before_present(n);
        }
        let rendered = self.gpu.render(self.gui.as_deref_mut());
        let returned = Instant::now();
        let ns = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.cost.frames += 1;
        self.cost.draw_ns += ns(drawn - started);
        self.cost.ui_ns += ns(prepared - drawn);
        self.cost.render_ns += ns(prepared.elapsed());
        self.cost.window_px += u64::from(w) * u64::from(h);
        if let Some(px) = self.gui.as_deref_mut().and_then(Gui::take_painted) {
            self.cost.ui_paints += 1;
            self.cost.ui_painted_px += px;
        }
        match rendered? {
            Presented::Yes => {
                *self.presented = true;
                if let (Some(feedback), Some(n)) = (self.feedback.as_deref_mut(), number) {
                    feedback.after_present(n, returned);
                }
                Ok(true)
            }
            Presented::Skipped => {
                // The surface had no image (occluded, timed out, or out of date even after
                // reconfiguring to the window's size): try again shortly, without spinning.
                std::thread::sleep(Duration::from_millis(5));
                Ok(false)
            }
        }
    }
}

struct App {
    session: Session,
    clock: WindowClock,
    vsync: bool,
    exit_after_ns: Option<u64>,
    /// With `--replay`: the refresh rate the capture's display changes say (none: not paced).
    replay_refresh: Option<Option<f64>>,
    /// The first key or mouse event not yet used by a frame, ns of the clock.
    input_at: Option<u64>,
    window: Option<Arc<Window>>,
    gpu: Option<Gpu>,
    /// egui: the control panel over the frame.
    gui: Option<Gui>,
    /// When the window's frames were really shown; dropped before the window (it uses the
    /// window's display connection).
    feedback: Option<Feedback>,
    /// What drawing, the UI and rendering cost, for the report.
    cost: FrameCost,
    /// What the title says.
    titled: Option<String>,
    shift: bool,
    /// Whether any frame has been presented (there is something to screenshot).
    presented: bool,
    outputs: Outputs,
    status: u8,
    finished: bool,
    /// The window is (or was last) larger than the GPU can draw, and that has been said.
    oversize_reported: bool,
    /// The next frame is not due yet (the pacing's wait, or a replayed capture's next frame):
    /// the event loop serves events until then, a slice of at most
    /// [`pacing::WAIT_SLICE_NS`], before the next redraw.
    serve_until: Option<Instant>,
    /// When the pacing lets the next frame start, ns of [`App::now_ns`]'s clock.
    next_frame_ns: Option<u64>,
    /// When the event loop last came round, once a frame was shown (for the report's
    /// `longest_unserved_ms`).
    served_at: Option<Instant>,
}

impl App {
    /// A fatal error: one line, exit status 1 (the first error wins).
    fn fail(&mut self, error: impl Into<WindowError>) {
        if self.status == 0 {
            messages::error(&error.into().to_string());
            self.status = messages::EXIT_FAILURE;
        }
    }

    fn fail_and_exit(&mut self, event_loop: &ActiveEventLoop, error: impl Into<WindowError>) {
        self.fail(error);
        event_loop.exit();
    }

    /// Writes the screenshot, the report and the frame log, and makes them their targets'
    /// content unless the run failed; once, at exit.
    fn finish(&mut self) {
        if std::mem::replace(&mut self.finished, true) {
            return;
        }
        // The screenshot is what the window shows: the frame and the panel, read back.
        let captured = match &mut self.gpu {
            Some(gpu) if self.presented && self.outputs.screenshot.is_some() => {
                match gpu.capture(self.gui.as_mut()) {
                    Ok(rgba) => Some(rgba),
                    Err(e) => {
                        messages::warning(&format!("{e}; the screenshot has no panel"));
                        None
                    }
                }
            }
            _ => None,
        };
        let frame = match &self.gpu {
            Some(gpu) if self.presented => {
                let (w, h) = gpu.size();
                Some((captured.as_deref().unwrap_or(gpu.frame()), w, h))
            }
            _ => None,
        };
        let at_exit = AtExit {
            reports: self.session.reports(),
            cost: self.cost,
            display: self.session.display_summary(),
            frame,
        };
        let outputs = std::mem::take(&mut self.outputs);
        if let Err(e) = outputs.finish(at_exit, self.status == 0) {
            self.fail(WindowError::Output(e));
        }
    }

    fn now_ns(&mut self) -> u64 {
        self.clock.real_ns()
    }

    fn resize(&mut self, event_loop: &ActiveEventLoop, width: u32, height: u32) {
        let Some(gpu) = &mut self.gpu else {
            return;
        };
        // A minimised window is 0×0 and a surface cannot be; nor can it be larger than the
        // GPU's largest texture. Either way the buffer keeps its size until the window fits.
        if gpu.size() == (width, height) || !gpu.fits(width, height) {
            return;
        }
        match gpu.resize(width, height) {
            Ok(()) => {
                self.session.resize(width, height);
                if let (Some(gui), Some(window)) = (&mut self.gui, &self.window) {
                    gui.resize(width, height, window.scale_factor() as f32);
                }
            }
            Err(e) => self.fail_and_exit(event_loop, e),
        }
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let Some(window) = self.window.clone() else {
            return;
        };
        if !self.paced() {
            return;
        }
        let size = window.inner_size();
        let (w, h) = (size.width, size.height);
        let fits = self.gpu.as_ref().is_some_and(|gpu| gpu.fits(w, h));
        if fits {
            self.oversize_reported = false;
            self.resize(event_loop, w, h);
            if self.status != 0 {
                return; // the resize failed; the loop is exiting
            }
        } else if w > 0 && h > 0 && !std::mem::replace(&mut self.oversize_reported, true) {
            // An oversized window is reported once, not every frame.
            messages::warning(&format!(
                "the window is {w}x{h}, larger than the GPU can draw; the picture stays still \
                 until the window is smaller"
            ));
        }
        let Some(gpu) = &mut self.gpu else {
            return;
        };
        let view = self.session.panel_view();
        let mut presenter = GpuPresent {
            gpu,
            gui: self.gui.as_mut(),
            window: &window,
            view: &view,
            hud: None,
            cost: &mut self.cost,
            fits,
            presented: &mut self.presented,
            feedback: self.feedback.as_mut(),
            number: None,
        };
        if let WindowClock::Capture(capture) = &mut self.clock {
            match capture.wait_ns() {
                Err(e) => return self.fail_and_exit(event_loop, e),
                Ok(0) => capture.ran(),
                Ok(ns) => return self.serve_for(ns),
            }
        }
        // Events that arrived before this frame began are this frame's input.
        let input_at = self.input_at.take();
        let report = match self
            .session
            .frame(&mut self.clock, &mut presenter, input_at)
        {
            Ok(report) => report,
            Err(e) => return self.fail_and_exit(event_loop, e),
        };
        self.next_frame_ns = report.next_frame_ns;
        // What the panel changed applies from the next frame on.
        if let Some(gui) = &mut self.gui {
            for change in gui.take_changes() {
                self.session.apply(change);
            }
            // Why the last change, a key's or the panel's, was refused.
            gui.refused(self.session.refused().map(ToString::to_string));
            if self.session.quit_requested() {
                event_loop.exit();
            }
            self.session.set_covered(gui.panel_px(), gui.bar_px());
        }
        let title = self.session.title();
        if self.titled.as_ref() != Some(&title) {
            window.set_title(&title);
            self.titled = Some(title);
        }
        if let Some(log) = &mut self.outputs.frame_log
            && let Err(e) = log.frame(
                report.frame.number,
                &report.rows,
                &report.displayed,
                report.display_source,
            )
        {
            self.fail_and_exit(event_loop, WindowError::Output(e.into()));
        }
    }

    /// Whether the pacing lets the next frame run now. A long wait is served in the event
    /// loop, a slice at a time (false: not yet); the last slice is slept here, precisely.
    fn paced(&mut self) -> bool {
        let Some(due) = self.next_frame_ns else {
            return true;
        };
        // A frame after --exit-after is not started (unless a screenshot still needs one).
        let exit_at = self.exit_after_ns.filter(|_| self.frame_ready());
        match pacing::wait_before_frame(self.now_ns(), due, exit_at) {
            pacing::Wait::Serve(ns) => {
                self.serve_for(ns);
                false
            }
            pacing::Wait::ThenRun(ns) => {
                self.next_frame_ns = None;
                self.clock.sleep(ns);
                true
            }
        }
    }

    /// Whether the window may exit: a screenshot needs a frame, so it waits for the first one
    /// (within reason).
    fn frame_ready(&self) -> bool {
        self.presented || self.outputs.screenshot.is_none()
    }

    /// The event loop waits up to `ns` (at most [`pacing::WAIT_SLICE_NS`]), serving events,
    /// before the next redraw.
    fn serve_for(&mut self, ns: u64) {
        let slice = Duration::from_nanos(ns.min(pacing::WAIT_SLICE_NS));
        self.serve_until = Some(Instant::now() + slice);
    }

    /// A key or mouse event happened now: the next frame uses it. Its latency is counted on
    /// the frames' clock: a replayed capture's, from the start of its frame playing.
    fn input(&mut self) {
        let now = self.clock.now_ns();
        self.input_at.get_or_insert(now);
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let monitor = event_loop
            .primary_monitor()
            .or_else(|| event_loop.available_monitors().next())
            .map(|m| (m.size(), m.scale_factor()));
        let attributes = Window::default_attributes()
            .with_title(self.session.title())
            .with_inner_size(start_size(monitor))
            .with_min_inner_size(MIN_SIZE);
        let window = match event_loop.create_window(attributes) {
            Ok(w) => Arc::new(w),
            Err(e) => {
                return self.fail_and_exit(event_loop, WindowError::Open(e));
            }
        };
        let size = window.inner_size();
        match Gpu::new(Arc::clone(&window), size.width, size.height, self.vsync) {
            Ok(gpu) => {
                self.session.opened(gpu.size().0, gpu.size().1);
                let (device, format) = gpu.device_and_format();
                let max_side = device.limits().max_texture_dimension_2d;
                self.gui = Some(Gui::new(&window, device, format, max_side));
                self.gpu = Some(gpu);
            }
            Err(e) => return self.fail_and_exit(event_loop, e),
        }
        self.feedback = Some(Feedback::new(Arc::clone(&window)));
        self.titled = Some(self.session.title());
        let refresh_hz = window
            .current_monitor()
            .and_then(|m| m.refresh_rate_millihertz())
            .map(|mhz| f64::from(mhz) / 1000.0);
        // A replayed capture's display is the one its refresh is counted in.
        let refresh_hz = self.replay_refresh.unwrap_or(refresh_hz);
        self.session.set_refresh_hint(refresh_hz);
        self.window = Some(window);
        // Setting up took a while; that is not a frame.
        let now = self.clock.now_ns();
        self.session.restart_clock(now);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        // egui sees every event first; what it uses (a key in a field) goes no further.
        let used = match (&mut self.gui, &self.window) {
            (Some(gui), Some(window)) => gui.on_event(window, &event),
            _ => false,
        };
        let over_panel = self.gui.as_ref().is_some_and(Gui::wants_pointer);
        match event {
            WindowEvent::CloseRequested | WindowEvent::Destroyed => event_loop.exit(),
            WindowEvent::Resized(size) => self.resize(event_loop, size.width, size.height),
            WindowEvent::ScaleFactorChanged { .. } => {
                if let Some(size) = self.window.as_ref().map(|w| w.inner_size()) {
                    self.resize(event_loop, size.width, size.height);
                }
            }
            WindowEvent::ModifiersChanged(m) => self.shift = m.state().shift_key(),
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                // Synthetic presses are keys already held when the window gained focus.
                if event.state != ElementState::Pressed || event.repeat || is_synthetic || used {
                    return;
                }
                let code = match event.physical_key {
                    PhysicalKey::Code(code) => Some(code),
                    PhysicalKey::Unidentified(_) => None,
                };
                let text = match &event.logical_key {
                    Key::Character(s) => Some(s.as_str()),
                    _ => None,
                };
                if let Some(action) = lookup(code, self.shift, text) {
                    self.input();
                    self.session.handle_action(action);
                    if self.session.quit_requested() {
                        event_loop.exit();
                    }
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                // Physical pixels, and the buffer is the window's physical size: 1:1.
                let now = self.now_ns();
                let px = Vec2::new(position.x as f32, position.y as f32);
                if self.session.dragging() {
                    self.input();
                }
                self.session.cursor_moved(px, now);
            }
            WindowEvent::CursorLeft { .. } => self.session.cursor_left(),
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                self.input();
                let now = self.now_ns();
                match state {
                    // A press on the panel is the panel's, not a grab.
                    ElementState::Pressed if over_panel => {}
                    ElementState::Pressed => {
                        self.session.press(now);
                    }
                    ElementState::Released => self.session.release(now),
                }
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        if let Some(then) = std::mem::replace(&mut self.served_at, self.presented.then_some(now)) {
            let ns = u64::try_from((now - then).as_nanos()).unwrap_or(u64::MAX);
            self.cost.longest_unserved_ns = self.cost.longest_unserved_ns.max(ns);
        }
        if interrupted() {
            event_loop.exit();
            return;
        }
        if let Some(limit) = self.exit_after_ns {
            let now = self.now_ns();
            let frame_ready = self.frame_ready();
            if now >= limit && (frame_ready || now >= limit.saturating_add(FIRST_FRAME_GRACE_NS)) {
                event_loop.exit();
                return;
            }
        }
        // The next frame is not due yet: wait for it, or for an event.
        if let Some(until) = self.serve_until.take() {
            event_loop.set_control_flow(ControlFlow::WaitUntil(until));
            return;
        }
        event_loop.set_control_flow(ControlFlow::Wait);
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        // The screenshot needs the GPU's buffer, so it is written before the GPU goes.
        self.finish();
        // Present feedback uses the window's display connection: it goes first.
        self.feedback = None;
        self.gui = None;
        self.gpu = None;
        self.window = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_starts_at_its_size_where_it_fits_and_smaller_on_a_smaller_screen() {
        let on = |w, h, scale| start_size(Some((PhysicalSize::new(w, h), scale)));
        assert_eq!(start_size(None), START_SIZE);
        assert_eq!(on(1920, 1080, 1.0), START_SIZE);
        assert_eq!(on(1280, 800, 1.0), START_SIZE);
        assert_eq!(on(3840, 2160, 2.0), START_SIZE);
        // A 1366x768 laptop: 90% of its height, in proportion.
        assert_eq!(on(1366, 768, 1.0), LogicalSize::new(1105, 691));
        // A 1920x1080 screen at 200%: 960x540 logical.
        let hidpi = on(1920, 1080, 2.0);
        assert!(hidpi.width <= 960 && hidpi.height <= 540, "{hidpi:?}");
        assert_eq!(on(100, 50, 1.0), MIN_SIZE);
        assert_eq!(on(0, 0, 1.0), START_SIZE);
        assert_eq!(on(1280, 800, f64::NAN), START_SIZE);
    }
}
