//! A preset in a real window: Godot's loop in a winit 0.30 `ApplicationHandler`, each frame
//! started when the [`Pacer`] says, through `ControlFlow::WaitUntil`. Nothing is drawn (no
//! GPU); the window's title shows the blended position and what the frame times say of vsync.
//!
//! ```sh
//! cargo run --release -p timestep-loop --example winit
//! ```
//!
//! **What "vsynced" can and cannot tell.** The [`VsyncDetector`](timestep_loop::VsyncDetector)
//! sees frame times only: frames that come a steady whole number of refresh periods apart read
//! as vsynced, whatever paced them. Here a software cap at 60 Hz paces the frames, and on a
//! quiet machine it reads as vsynced though no display paced anything; a real vsynced present
//! reads the same. It cannot tell which paced the frames, nor whether a frame was shown; it
//! can tell that frames are *not* paced by a display (they drift off whole periods), and a
//! loop may then stop trusting the display's rate (Glaiel's snapping timer does).

use std::time::{Duration, Instant};
use timestep_loop::{Loop, Pacer, Pacing, Preset};
use winit::application::ApplicationHandler;
use winit::event::{StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

/// The game: its loop and pacer, its world (a point moving at 1 unit a second), and the window.
struct Game {
    lp: Loop,
    pacer: Pacer,
    /// The pacer's clock starts here; the last frame started at `last`.
    start: Instant,
    last: Instant,
    previous: f64,
    current: f64,
    window: Option<Window>,
}

/// `t` on the pacer's clock: whole ns since `start`.
fn ns_since(start: Instant, t: Instant) -> u64 {
    u64::try_from(t.duration_since(start).as_nanos()).unwrap_or(u64::MAX)
}

impl Game {
    fn new() -> Game {
        let now = Instant::now();
        Game {
            lp: Loop::preset(Preset::Godot),
            pacer: Pacer::new(Pacing::Cap(60.0), Some(60.0)),
            start: now,
            last: now,
            previous: 0.0,
            current: 0.0,
            window: None,
        }
    }

    /// One frame: step the loop by the time since the last, show the blended state, and wait
    /// until the pacer's deadline for the next.
    fn frame(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let measured = now.duration_since(self.last);
        self.last = now;
        let paced = self
            .pacer
            .begin(ns_since(self.start, now), measured.as_nanos() as u64);
        self.lp.begin_frame(Duration::from_nanos(paced));
        while let Some(step) = self.lp.next_step() {
            self.previous = self.current;
            self.current += step.dt_s(); // the update: one tick
        }
        let alpha = self.lp.last_frame().alpha;
        let shown = self.previous + (self.current - self.previous) * alpha;
        if let Some(window) = &self.window {
            let vsync = if self.lp.vsync().vsynced() {
                "reads as vsynced"
            } else {
                "not vsynced"
            };
            window.set_title(&format!("x = {shown:.3}, {vsync}"));
        }
        let done = Instant::now();
        let next = self.pacer.end_until(ns_since(self.start, done), done);
        event_loop.set_control_flow(ControlFlow::WaitUntil(next));
    }
}

impl ApplicationHandler for Game {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        match event_loop.create_window(Window::default_attributes().with_title("timestep-loop")) {
            Ok(window) => {
                window.request_redraw();
                self.window = Some(window);
            }
            Err(e) => {
                eprintln!("winit example: no window: {e}");
                event_loop.exit();
            }
        }
    }

    fn new_events(&mut self, _event_loop: &ActiveEventLoop, cause: StartCause) {
        // The pacer's deadline came: the next frame may start.
        if let StartCause::ResumeTimeReached { .. } = cause
            && let Some(window) = &self.window
        {
            window.request_redraw();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => self.frame(event_loop),
            _ => {}
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let event_loop = EventLoop::new()?;
    event_loop.run_app(&mut Game::new())?;
    Ok(())
}
