//! `simulate --draw`: every presented frame rasterised off-screen with the window's drawing
//! code (same `Renderer`, layout, HUD and strip) — one lane as the single view, several as the
//! split view — timed on the real clock.

use crate::draw::{FrameStrip, HudInfo, LanePanes, Layout, Renderer, Scene, explosion_banner};
use crate::lane::Lane;
use crate::rope::RopeParams;
use std::time::Instant;

/// An off-screen frame and what drawing into it has cost so far.
pub struct Offscreen {
    width: u32,
    height: u32,
    frame: Vec<u8>,
    renderer: Renderer,
    layout: Layout,
    panes: LanePanes,
    strip: FrameStrip,
    draws: u64,
    total_ns: u128,
    max_ns: u128,
    /// Frames that would have handed a non-finite position to the renderer, per lane (must
    /// stay 0).
    nonfinite_frames: Vec<u64>,
}

impl Offscreen {
    pub fn new(params: &RopeParams, lanes: usize, (width, height): (u32, u32)) -> Self {
        let layout = if lanes > 1 {
            Layout::split(params, width, height, lanes, true)
        } else {
            Layout::single(params, width, height, true)
        };
        Offscreen {
            width,
            height,
            frame: vec![0; width as usize * height as usize * 4],
            renderer: Renderer::new(),
            layout,
            panes: LanePanes::default(),
            strip: FrameStrip::new(300),
            draws: 0,
            total_ns: 0,
            max_ns: 0,
            nonfinite_frames: vec![0; lanes],
        }
    }

    /// Draws what the window would show of `lanes` this frame and times it: blend, clear,
    /// ropes, HUD and strip.
    pub fn draw(&mut self, lanes: &[&Lane], display_hz: f64) {
        let start = Instant::now();
        let Some(first) = lanes.first() else {
            return;
        };
        let frame_ns = first.last().measured_ns;
        let steps: Vec<u32> = lanes.iter().map(|l| l.last().steps).collect();
        self.strip.push(frame_ns as f32 * 1e-6, &steps);
        let hud = HudInfo {
            fps: display_hz,
            frame_ms: frame_ns as f64 * 1e-6,
            present_mode: "simulated".into(),
            ..HudInfo::new(lanes)
        };
        let banner = (lanes.len() == 1)
            .then(|| explosion_banner(first))
            .flatten();
        let panes = self.panes.build(lanes, &self.layout, None, 0);
        for (count, pane) in self.nonfinite_frames.iter_mut().zip(&panes) {
            if !pane.rope.positions.iter().all(|p| p.is_finite()) {
                *count += 1;
            }
        }
        let scene = Scene {
            panes: &panes,
            hud: Some(&hud),
            strip: Some(&self.strip),
            help: None,
            banner: banner.as_deref(),
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

    /// How many frames would have drawn a non-finite position of lane `i`.
    pub fn nonfinite_frames(&self, i: usize) -> u64 {
        self.nonfinite_frames.get(i).copied().unwrap_or(0)
    }
}
