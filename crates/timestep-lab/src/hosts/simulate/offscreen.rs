//! Off-screen drawing (`simulate --draw`): every presented frame rasterised with the window's drawing code
//! (the same [`Screen`], HUD and strip) — one lane as the single view, several as the split
//! view — timed on the real clock.

use crate::model::lane::DrawReport;
use crate::model::lane::Lane;
use crate::model::rope::RopeParams;
use crate::util::fast::millis_f;
use crate::view::draw::{Arrangement, HudInfo, Overlay, Screen, explosion_banner};
use std::time::Instant;
use timestep_loop::millis;

/// An off-screen frame and what drawing into it has cost so far.
pub struct Offscreen {
    frame: Vec<u8>,
    screen: Screen,
    draws: u64,
    total_ns: u128,
    max_ns: u128,
    /// Frames that would have handed a non-finite position to the renderer, per lane (must
    /// stay 0).
    nonfinite_frames: Vec<u64>,
}

impl Offscreen {
    pub fn new(params: &RopeParams, lanes: usize, (width, height): (u32, u32)) -> Self {
        let arrangement = Arrangement {
            size: (width, height),
            lanes,
            split: lanes > 1,
            hud: true,
            overlay: false,
            panel: 0,
            bar: 0,
        };
        Offscreen {
            frame: vec![0; width as usize * height as usize * 4],
            screen: Screen::new(params, arrangement),
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
        self.screen.push_frame(frame_ns, &steps);
        let hud = HudInfo {
            fps: display_hz,
            frame_ms: millis(frame_ns),
            present_mode: "simulated".into(),
            ..HudInfo::new(lanes)
        };
        let banner = (lanes.len() == 1)
            .then(|| explosion_banner(first))
            .flatten();
        // A driven rope leaves its trail, so judder shows in the frames drawn.
        let driven = lanes.iter().any(|l| l.record().judder().drive().is_on());
        let overlay = Overlay {
            hud: Some(&hud),
            strip: true,
            banner: banner.as_deref(),
            trail: driven,
            keep: true,
            ..Overlay::default()
        };
        self.screen.draw(&mut self.frame, lanes, &overlay);
        for (i, count) in self.nonfinite_frames.iter_mut().enumerate() {
            if !self.screen.drawn(i).iter().all(|p| p.is_finite()) {
                *count += 1;
            }
        }
        let ns = start.elapsed().as_nanos();
        self.draws += 1;
        self.total_ns += ns;
        self.max_ns = self.max_ns.max(ns);
    }

    /// What drawing has cost so far (mean and max, ms), and how many frames would have drawn
    /// a non-finite position of lane `i`.
    pub fn report(&self, i: usize) -> DrawReport {
        let mean = if self.draws == 0 {
            0.0
        } else {
            self.total_ns as f64 / self.draws as f64
        };
        DrawReport {
            draw_ms_mean: millis_f(mean),
            draw_ms_max: millis_f(self.max_ns as f64),
            draw_nonfinite_frames: self.nonfinite_frames.get(i).copied().unwrap_or(0),
        }
    }
}
