//! `timestep-rope simulate`: the window's stepping code driven by a simulated clock and display.
//!
//! The display is modelled like Tyler Glaiel's monitor simulator ("How to make your game run at
//! 60fps"): the loop reads a (noisy) timer, steps the rope, spends `render_cost` rendering, and
//! with vsync waits for the next vblank — at most one present per vblank, vblanks at exact
//! multiples of 1/Hz (so 59.94 Hz really is 16.683 ms, not 16 or 17). A stall lengthens one
//! frame's render. Everything is integer nanoseconds of simulated time; nothing reads a clock.

mod command;
mod display;
mod offscreen;
mod report;

pub use command::{config, main};

pub use display::{Display, DisplayConfig};
pub use offscreen::Offscreen;
pub use report::{ModeReport, Report, StepsPerFrame, write_dump, write_table};

use crate::rope::{Rope, RopeParams};
use crate::timing::{Mode, Stepper, TimingConfig};
use crate::watch::{ExplosionWatch, Watch};

/// One presented frame, as traced by `--trace`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameRecord {
    pub mode: Mode,
    pub frame: u64,
    /// When the frame became visible, ns of simulated wall time.
    pub present_ns: u64,
    /// The measured (noisy, unclamped) frame time handed to the stepper.
    pub frame_ns: u64,
    pub steps: u32,
    pub alpha: f64,
    /// The simulation time of the state shown.
    pub shown_ns: u64,
}

/// Running smoothness and step statistics over a stream of presented frames.
#[derive(Clone, Debug, Default)]
pub struct Metrics {
    frames: u64,
    steps_min: u32,
    steps_max: u32,
    steps_sum: u64,
    first: Option<(u64, u64)>,
    last: Option<(u64, u64)>,
    stutter_sq_sum: f64,
    stutter_max_ns: u64,
    stutter_count: u64,
    histogram: std::collections::BTreeMap<u32, u64>,
}

impl Metrics {
    /// Adds a frame presented at `present_ns` showing simulation time `shown_ns`.
    ///
    /// The very first frame has no frame time (there is no frame before it), so smoothness and
    /// drift are measured from the second frame on.
    pub fn push(&mut self, present_ns: u64, shown_ns: u64, steps: u32) {
        if self.frames == 0 {
            self.steps_min = steps;
        } else if self.first.is_none() {
            self.first = Some((present_ns, shown_ns));
        }
        self.steps_min = self.steps_min.min(steps);
        self.steps_max = self.steps_max.max(steps);
        self.steps_sum += u64::from(steps);
        *self.histogram.entry(steps).or_default() += 1;
        if let Some((p0, s0)) = self.last {
            // (S_i − S_{i−1}) − (P_i − P_{i−1}): how far the shown motion jumps ahead of or
            // lags behind the display's own progress this frame.
            let e = (shown_ns as i128 - s0 as i128) - (present_ns as i128 - p0 as i128);
            self.stutter_sq_sum += (e as f64) * (e as f64);
            self.stutter_max_ns = self.stutter_max_ns.max(e.unsigned_abs() as u64);
            self.stutter_count += 1;
        }
        if self.frames > 0 {
            self.last = Some((present_ns, shown_ns));
        }
        self.frames += 1;
    }

    pub fn frames(&self) -> u64 {
        self.frames
    }
    pub fn stutter_rms_ns(&self) -> f64 {
        if self.stutter_count == 0 {
            0.0
        } else {
            (self.stutter_sq_sum / self.stutter_count as f64).sqrt()
        }
    }
    pub fn stutter_max_ns(&self) -> u64 {
        self.stutter_max_ns
    }
    /// (S_last − S_0) − (P_last − P_0), ns.
    pub fn drift_ns(&self) -> i128 {
        match (self.first, self.last) {
            (Some((p0, s0)), Some((p1, s1))) => {
                (s1 as i128 - s0 as i128) - (p1 as i128 - p0 as i128)
            }
            _ => 0,
        }
    }
    pub fn steps_per_frame(&self) -> StepsPerFrame {
        StepsPerFrame {
            min: self.steps_min,
            mean: if self.frames == 0 {
                0.0
            } else {
                self.steps_sum as f64 / self.frames as f64
            },
            max: self.steps_max,
        }
    }
    /// How many frames took each number of steps.
    pub fn histogram(&self) -> &std::collections::BTreeMap<u32, u64> {
        &self.histogram
    }
}

/// Everything one `simulate` run needs.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub timing: TimingConfig,
    pub rope: RopeParams,
    pub display: DisplayConfig,
    pub modes: Vec<Mode>,
    /// `--draw WIDTHxHEIGHT`: rasterise every presented frame off-screen and time it.
    pub draw: Option<(u32, u32)>,
}

/// Runs one mode on the simulated display and reports what it did. `on_frame` sees every
/// presented frame (for `--trace`).
pub fn run_mode(
    cfg: &SimConfig,
    mode: Mode,
    mut on_frame: impl FnMut(&FrameRecord),
) -> (ModeReport, Rope) {
    let mut rope = Rope::new(cfg.rope);
    let mut stepper = Stepper::new(cfg.timing, mode);
    let mut display = Display::new(cfg.display.clone());
    let mut metrics = Metrics::default();
    let energy_start = rope.energy();
    // As in the window: an exploded rope is shown for 2 s (of simulated wall time), then reset.
    let mut watch = ExplosionWatch::default();
    let mut max_stretch = 1.0f32;
    let mut offscreen = cfg.draw.map(|size| Offscreen::new(&rope, size));

    while let Some(frame_ns) = display.begin_frame() {
        let stats = stepper.advance(frame_ns, |s| rope.apply(s));
        if watch.check(rope.exploded(), display.now_ns()) == Watch::ResetNow {
            max_stretch = max_stretch.max(rope.max_stretch());
            rope.reset();
        }
        if let Some(o) = offscreen.as_mut() {
            o.draw(&rope, &stepper, &stats, cfg.display.display_hz);
        }
        let present_ns = display.present();
        metrics.push(present_ns, stats.shown_ns, stats.steps);
        on_frame(&FrameRecord {
            mode,
            frame: metrics.frames() - 1,
            present_ns,
            frame_ns,
            steps: stats.steps,
            alpha: stats.alpha,
            shown_ns: stats.shown_ns,
        });
    }

    let mut report = ModeReport::new(mode, &stepper, &metrics, &rope, energy_start, &watch);
    report.max_stretch = f64::from(max_stretch.max(rope.max_stretch()));
    if let Some(o) = &offscreen {
        let (mean, max) = o.draw_ms();
        report.draw_ms_mean = Some(mean);
        report.draw_ms_max = Some(max);
        report.draw_nonfinite_frames = Some(o.nonfinite_frames());
    }
    (report, rope)
}

/// Runs every configured mode in cycle order.
pub fn run(cfg: &SimConfig, mut on_frame: impl FnMut(&FrameRecord)) -> Vec<(ModeReport, Rope)> {
    let mut modes = cfg.modes.clone();
    modes.sort_by_key(|m| Mode::ALL.iter().position(|x| x == m));
    modes.dedup();
    modes
        .into_iter()
        .map(|m| run_mode(cfg, m, &mut on_frame))
        .collect()
}
