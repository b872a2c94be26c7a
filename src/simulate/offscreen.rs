//! `simulate --draw`: every presented frame rasterised off-screen with the window's drawing
//! code (same `Renderer`, view, HUD and strip), timed on the real clock.

use crate::draw::{FrameStrip, HudInfo, Renderer, RopeLook, Scene, View};
use crate::rope::Rope;
use crate::timing::{FrameStats, Stepper};
use glam::Vec2;
use std::time::Instant;

/// An off-screen frame and what drawing into it has cost so far.
pub struct Offscreen {
    width: u32,
    height: u32,
    frame: Vec<u8>,
    renderer: Renderer,
    view: View,
    strip: FrameStrip,
    pinned: Vec<usize>,
    blended: Vec<Vec2>,
    draws: u64,
    total_ns: u128,
    max_ns: u128,
    /// Frames that would have handed a non-finite position to the renderer (must stay 0).
    nonfinite_frames: u64,
}

impl Offscreen {
    pub fn new(rope: &Rope, (width, height): (u32, u32)) -> Self {
        Offscreen {
            width,
            height,
            frame: vec![0; width as usize * height as usize * 4],
            renderer: Renderer::new(),
            view: View::for_rope(rope.params(), width, height),
            strip: FrameStrip::new(300),
            pinned: rope.pinned_indices(),
            blended: Vec::with_capacity(rope.len()),
            draws: 0,
            total_ns: 0,
            max_ns: 0,
            nonfinite_frames: 0,
        }
    }

    /// Draws what the window would show for this frame and times it: blend (interpolated mode),
    /// clear, rope, particles, HUD and strip.
    pub fn draw(&mut self, rope: &Rope, stepper: &Stepper, stats: &FrameStats, display_hz: f64) {
        let start = Instant::now();
        let positions = rope.shown(stepper.mode(), stats.alpha, &mut self.blended);
        if !positions.iter().all(|p| p.is_finite()) {
            self.nonfinite_frames += 1;
        }
        let frame_ms = stats.measured_ns as f64 * 1e-6;
        self.strip.push(frame_ms as f32, stats.steps);
        let hud = HudInfo {
            fps: display_hz,
            frame_ms,
            steps: stats.steps,
            alpha: stats.alpha,
            drift_ms: (stats.shown_ns as f64 - stepper.measured_ns() as f64) * 1e-6,
            present_mode: "simulated".into(),
            ..HudInfo::new(stepper, rope)
        };
        let scene = Scene {
            rope: RopeLook {
                positions,
                pinned: &self.pinned,
                grabbed: None,
                exploded: rope.exploded(),
            },
            view: &self.view,
            hud: Some(&hud),
            strip: Some(&self.strip),
            help: None,
            banner: None,
        };
        self.renderer
            .draw(&mut self.frame, self.width, self.height, &scene);
        let ns = start.elapsed().as_nanos();
        self.draws += 1;
        self.total_ns += ns;
        self.max_ns = self.max_ns.max(ns);
    }

    /// Mean and max draw time, ms.
    pub fn draw_ms(&self) -> (f64, f64) {
        let mean = if self.draws == 0 {
            0.0
        } else {
            self.total_ns as f64 / self.draws as f64
        };
        (mean * 1e-6, self.max_ns as f64 * 1e-6)
    }

    /// How many frames would have drawn a non-finite position.
    pub fn nonfinite_frames(&self) -> u64 {
        self.nonfinite_frames
    }

    /// The last frame drawn, RGBA8.
    pub fn frame(&self) -> &[u8] {
        &self.frame
    }
}
