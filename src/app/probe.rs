//! `probe --window`: how presents are paced in each present mode the surface offers. A small
//! window presents the cleared buffer through the window's own `Gpu`, as fast as the mode
//! lets it, for a while in each mode; each interval is from one present returning to the next.
//! The figures are summed up by `timestep_lab::analyses::probe`; nothing here but the window and the clock.
//!
//! Where the display says when frames were shown (present feedback: Wayland's presentation
//! feedback, X11 Present, or X11's vblank clock, estimated; the `display-feedback` crate), each
//! mode's frames are counted shown or discarded, with the intervals between display changes
//! and the latency from the present call to the display ([`DisplayRuns`]).

use super::gpu::{Gpu, Presented};
use super::{WindowError, preflight};
use crate::failure::Failure;
use display_feedback::{Feedback, Source};
use pixels::wgpu::PresentMode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use timestep_lab::analyses::probe::{PresentRun, Presents};
use timestep_loop::{Clock, SystemClock};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

/// The window's size, physical pixels: small, so the presents' pacing shows rather than the
/// cost of drawing (under a software renderer most of all).
const SIZE: PhysicalSize<u32> = PhysicalSize::new(640, 400);

/// What the display said of each mode's presents.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayRuns {
    /// Where the times came from (at the end of the probe).
    pub source: Source,
    /// Why there were none, if there were none.
    pub why: Option<String>,
    /// One per mode started, in the order of [`Presents::modes`].
    pub modes: Vec<DisplayRun>,
}

/// What the display said of one mode's presents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DisplayRun {
    /// Frames presented in the mode.
    pub presented: u64,
    /// Of those, frames the display said it showed, and said it discarded (the rest: no word,
    /// as the last few before the probe moved on).
    pub shown: u64,
    pub discarded: u64,
    /// Between consecutive frames shown, ns.
    pub intervals_ns: Vec<u64>,
    /// From each shown frame's present call to its display, ns.
    pub latencies_ns: Vec<u64>,
    /// Where the mode's times came from.
    pub source: Option<Source>,
    /// The last frame shown: its number and when.
    last_shown: Option<(u64, Instant)>,
}

/// Frames by number: mode `i` presented those from `first[i]` on.
fn mode_of(first: &[u64], frame: u64) -> Option<usize> {
    first.iter().rposition(|&f| f <= frame)
}

/// A display to probe: the event loop, made before anything is measured so a machine without
/// a display fails at once, as the window does.
pub struct PresentProbe {
    event_loop: EventLoop<()>,
}

impl PresentProbe {
    /// The event loop, or one line saying there is no display (exit status 1).
    pub fn open() -> Result<PresentProbe, Failure> {
        let event_loop = preflight().map_err(Failure::machine)?;
        Ok(PresentProbe { event_loop })
    }

    /// Opens the window and presents `per_mode_ns` in each mode; `on_mode` hears each mode as
    /// it starts (its index, how many, its name). Stops early when `stop` is set.
    pub fn run(
        self,
        per_mode_ns: u64,
        stop: &AtomicBool,
        on_mode: &mut dyn FnMut(usize, usize, &str),
    ) -> Result<(Presents, DisplayRuns), Failure> {
        let mut prober = Prober {
            per_mode_ns,
            stop,
            on_mode,
            clock: SystemClock::new(),
            window: None,
            gpu: None,
            modes: Vec::new(),
            runs: Vec::new(),
            started_ns: 0,
            last_ns: None,
            error: None,
            interrupted: false,
            source: Source::None,
            why: Some("no window".into()),
            feedback: None,
            frame: 0,
            first_frames: Vec::new(),
            display: Vec::new(),
            heard: Vec::new(),
        };
        if let Err(e) = self.event_loop.run_app(&mut prober) {
            prober.error.get_or_insert(WindowError::EventLoop(e));
        }
        if let Some(e) = prober.error {
            return Err(Failure::machine(e));
        }
        let display = DisplayRuns {
            source: prober.source,
            why: prober.why.take(),
            modes: prober.display,
        };
        let presents = Presents {
            size: (SIZE.width, SIZE.height),
            modes: prober.runs,
            interrupted: prober.interrupted,
        };
        Ok((presents, display))
    }
}

/// The window while it presents.
struct Prober<'a> {
    per_mode_ns: u64,
    stop: &'a AtomicBool,
    on_mode: &'a mut dyn FnMut(usize, usize, &str),
    clock: SystemClock,
    window: Option<Arc<Window>>,
    gpu: Option<Gpu>,
    modes: Vec<PresentMode>,
    /// One per mode started.
    runs: Vec<PresentRun>,
    /// When the current mode started, ns of `clock`.
    started_ns: u64,
    /// When the last present returned, in the current mode.
    last_ns: Option<u64>,
    /// The first failure, which ends the probe.
    error: Option<WindowError>,
    interrupted: bool,
    /// Where display times came from, and why there were none.
    source: Source,
    why: Option<String>,
    /// When the frames were shown; dropped before the window.
    feedback: Option<Feedback>,
    /// The next frame's number.
    frame: u64,
    /// The first frame of each mode started.
    first_frames: Vec<u64>,
    /// What the display said, per mode started.
    display: Vec<DisplayRun>,
    heard: Vec<display_feedback::Presented>,
}

impl Prober<'_> {
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: impl Into<WindowError>) {
        self.error.get_or_insert(error.into());
        event_loop.exit();
    }

    /// Starts mode `i` of the surface's.
    fn start_mode(&mut self, i: usize) {
        let Some(gpu) = self.gpu.as_mut() else {
            return;
        };
        let mode = self.modes[i];
        gpu.set_present_mode(mode);
        let name = format!("{mode:?}");
        (self.on_mode)(i, self.modes.len(), &name);
        self.runs.push(PresentRun {
            mode: name,
            intervals_ns: Vec::new(),
            skipped: 0,
        });
        self.first_frames.push(self.frame);
        self.display.push(DisplayRun::default());
        self.started_ns = self.clock.now_ns();
        self.last_ns = None;
    }

    /// What the display said since the last poll, counted in the mode each frame was in.
    fn poll_feedback(&mut self) {
        let Some(feedback) = self.feedback.as_mut() else {
            return;
        };
        self.heard.clear();
        feedback.poll(&mut self.heard);
        (self.source, self.why) = (feedback.source(), feedback.why().map(str::to_string));
        for p in &self.heard {
            let Some(run) =
                mode_of(&self.first_frames, p.frame).and_then(|i| self.display.get_mut(i))
            else {
                continue;
            };
            run.source = Some(p.source);
            let Some(shown) = p.shown else {
                run.discarded += 1;
                continue;
            };
            run.shown += 1;
            let ns = |d: std::time::Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
            if let Some(called) = p.called {
                run.latencies_ns
                    .push(ns(shown.saturating_duration_since(called)));
            }
            if let Some((_, then)) = run.last_shown {
                run.intervals_ns
                    .push(ns(shown.saturating_duration_since(then)));
            }
            run.last_shown = Some((p.frame, shown));
        }
    }

    /// One present; the next mode, or the end, once this one has had its time.
    fn present(&mut self, event_loop: &ActiveEventLoop) {
        if self.stop.load(Ordering::Relaxed) {
            self.interrupted = true;
            return event_loop.exit();
        }
        let (Some(gpu), Some(run)) = (self.gpu.as_mut(), self.runs.last_mut()) else {
            return;
        };
        let number = self.frame;
        self.frame += 1;
        if let Some(feedback) = self.feedback.as_mut() {
            feedback.before_present(number);
        }
        let presented = match gpu.render(None) {
            Ok(p) => p,
            Err(e) => return self.fail(event_loop, e),
        };
        let returned = Instant::now();
        let now = self.clock.now_ns();
        match presented {
            Presented::Yes => {
                if let Some(last) = self.last_ns.replace(now) {
                    run.intervals_ns.push(now - last);
                }
                if let Some(feedback) = self.feedback.as_mut() {
                    feedback.after_present(number, returned);
                }
                if let Some(d) = self.display.last_mut() {
                    d.presented += 1;
                }
            }
            Presented::Skipped => run.skipped += 1,
        }
        self.poll_feedback();
        if now - self.started_ns >= self.per_mode_ns {
            match self.runs.len() {
                n if n < self.modes.len() => self.start_mode(n),
                _ => event_loop.exit(),
            }
        }
    }
}

impl ApplicationHandler for Prober<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let attributes = Window::default_attributes()
            .with_title("timestep-rope probe: presents")
            .with_inner_size(SIZE)
            .with_resizable(false);
        let window = match event_loop.create_window(attributes) {
            Ok(w) => Arc::new(w),
            Err(e) => return self.fail(event_loop, WindowError::Open(e)),
        };
        let size = window.inner_size();
        let gpu = match Gpu::new(Arc::clone(&window), size.width, size.height, true) {
            Ok(gpu) => gpu,
            Err(e) => return self.fail(event_loop, e),
        };
        self.modes = gpu.present_modes();
        self.gpu = Some(gpu);
        self.feedback = Some(Feedback::new(Arc::clone(&window)));
        self.window = Some(window);
        if self.modes.is_empty() {
            return self.fail(event_loop, WindowError::NoPresentMode);
        }
        self.start_mode(0);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested | WindowEvent::Destroyed => {
                self.interrupted = true;
                event_loop.exit();
            }
            WindowEvent::RedrawRequested => self.present(event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        // The last frames' feedback, if it has come; then it goes before the window.
        self.poll_feedback();
        self.feedback = None;
        self.gpu = None;
        self.window = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_is_counted_in_the_mode_its_frame_was_presented_in() {
        let first = [0, 180, 400];
        assert_eq!(mode_of(&first, 0), Some(0));
        assert_eq!(mode_of(&first, 179), Some(0));
        assert_eq!(mode_of(&first, 180), Some(1));
        assert_eq!(mode_of(&first, 9_999), Some(2));
        assert_eq!(mode_of(&[5], 4), None);
    }
}
