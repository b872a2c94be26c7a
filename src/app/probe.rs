//! `probe --window`: how presents are paced in each present mode the surface offers. A small
//! window presents the cleared buffer through the window's own `Gpu`, as fast as the mode
//! lets it, for a while in each mode; each interval is from one present returning to the next.
//! The figures are summed up by `timestep_lab::analyses::probe`; nothing here but the window and the clock.

use super::gpu::{Gpu, Presented};
use super::{WindowError, preflight};
use crate::failure::Failure;
use pixels::wgpu::PresentMode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
    ) -> Result<Presents, Failure> {
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
        };
        if let Err(e) = self.event_loop.run_app(&mut prober) {
            prober.error.get_or_insert(WindowError::EventLoop(e));
        }
        if let Some(e) = prober.error {
            return Err(Failure::machine(e));
        }
        Ok(Presents {
            size: (SIZE.width, SIZE.height),
            modes: prober.runs,
            interrupted: prober.interrupted,
        })
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
        self.started_ns = self.clock.now_ns();
        self.last_ns = None;
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
        let presented = match gpu.render(None) {
            Ok(p) => p,
            Err(e) => return self.fail(event_loop, e),
        };
        let now = self.clock.now_ns();
        match presented {
            Presented::Yes => {
                if let Some(last) = self.last_ns.replace(now) {
                    run.intervals_ns.push(now - last);
                }
            }
            Presented::Skipped => run.skipped += 1,
        }
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
        self.gpu = None;
        self.window = None;
    }
}
