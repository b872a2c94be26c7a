//! `timestep-rope simulate`: lanes driven by a simulated clock and display.
//!
//! The display is modelled like Tyler Glaiel's monitor simulator ("How to make your game run at
//! 60fps"): the loop reads a (noisy) timer, steps the rope, spends `render_cost` rendering, and
//! with vsync waits for the next vblank — at most one present per vblank, vblanks at exact
//! multiples of 1/Hz (so 59.94 Hz really is 16.683 ms, not 16 or 17). A stall lengthens one
//! frame's render. Everything is integer nanoseconds of simulated time; nothing reads a clock.
//! Each lane runs on its own copy of the display, so every lane sees the same frame times.

mod command;
mod cost;
mod display;
mod offscreen;
mod report;

pub use command::main;
pub use cost::{MAX_RAMP_POINTS, Ramp, RenderCost};
pub use display::{Display, DisplayConfig, Phase, Presented, Stall};
pub use report::{ConfigReport, LaneReport, PolicyReport, peak_rss_kib};

use offscreen::Offscreen;
use report::{Report, write_dump, write_table};

use crate::lane::{Lane, LaneSpec, Vblank};
use crate::policy::{MaxSubstep, PolicyEnv};
use crate::rope::RopeParams;
use crate::timing::{Pacer, TimingConfig};

/// One presented frame of one lane, as traced by `--trace`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameRecord {
    /// The lane's index in [`SimConfig::lanes`].
    pub lane: usize,
    pub frame: u64,
    /// When the frame became visible, ns of simulated wall time.
    pub present_ns: u64,
    /// The measured (noisy, unclamped) frame time handed to the stepper.
    pub frame_ns: u64,
    pub steps: u32,
    pub alpha: f64,
    /// The simulation time of the state shown.
    pub shown_ns: u64,
    /// When the frame started (its input sampled), ns of simulated wall time; its steps ran
    /// back to back from then, `step_cost_ns` each.
    pub start_ns: u64,
    pub step_cost_ns: u64,
}

impl FrameRecord {
    /// When each of this frame's steps started, ns of simulated wall time.
    pub fn step_starts_ns(&self) -> impl Iterator<Item = u64> + '_ {
        (0..u64::from(self.steps)).map(|i| self.start_ns + i * self.step_cost_ns)
    }
}

/// Everything one `simulate` run needs, validated.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub timing: TimingConfig,
    pub rope: RopeParams,
    pub display: DisplayConfig,
    /// The lanes to run, in the order given.
    pub lanes: Vec<LaneSpec>,
    pub max_substep: MaxSubstep,
    /// `--draw WIDTHxHEIGHT`: rasterise every presented frame off-screen and time it.
    pub draw: Option<(u32, u32)>,
}

impl SimConfig {
    /// What the lanes know of the run: the flags, and the display's nominal rate as the hint a
    /// real loop would get from the OS.
    pub fn env(&self) -> PolicyEnv {
        PolicyEnv {
            timing: self.timing,
            max_substep: self.max_substep,
            vsync_requested: self.display.vsync,
            refresh_hint_hz: Some(self.display.display_hz),
        }
    }
}

/// A lane, its own copy of the simulated display, and its loop's pacing.
struct Running {
    lane: Lane,
    display: Display,
    pacer: Pacer,
    /// This frame's measured frame time, once begun; `None` when the run is over.
    frame_ns: Option<u64>,
    /// When this frame started (and sampled input), ns.
    start_ns: u64,
}

impl Running {
    /// Starts a frame: reads the timer, lets the pacing decide the frame time, waits for a
    /// tick if the loop does, and steps. `None` once the run is over.
    fn begin(&mut self) -> Option<u64> {
        let measured = self.display.begin_frame()?;
        let frame_ns = self.pacer.begin(self.display.now_ns(), measured);
        let frame_ns = self.wait_for_tick(frame_ns);
        self.start_ns = self.display.now_ns();
        self.lane.advance(frame_ns, self.start_ns);
        Some(frame_ns)
    }

    /// Presents the frame, records it, and sleeps what the pacing asks.
    fn present(&mut self) -> u64 {
        let shown = self.display.present(self.lane.last().steps);
        let period_ns = self.display.period_ns();
        let vblank = shown.vblank.map(|index| Vblank { index, period_ns });
        self.lane.presented(shown.at_ns, vblank, self.start_ns);
        let wait = self.pacer.end(self.display.now_ns());
        self.display.sleep(wait);
        shown.at_ns
    }

    /// MonoGame's loop does not run a frame before a whole tick is due: it sleeps and reads the
    /// clock again. Returns the frame's whole measured time.
    fn wait_for_tick(&mut self, mut frame_ns: u64) -> u64 {
        loop {
            let due = self.lane.due_in_ns(frame_ns);
            if due == 0 {
                return frame_ns;
            }
            frame_ns += self.display.wait(due);
        }
    }
}

/// Runs every lane of `cfg`, in the order given, frame by frame in step (each on its own copy
/// of the display, so each sees the same frame times), and reports what each did. `on_frame`
/// sees every presented frame (for `--trace`). With `--draw`, every frame of every lane is
/// rasterised: one lane as the window's single view, several as its split view.
pub fn run(cfg: &SimConfig, mut on_frame: impl FnMut(&FrameRecord)) -> Vec<(LaneReport, Lane)> {
    let mut lanes: Vec<Running> = cfg
        .lanes
        .iter()
        .map(|&spec| Running {
            lane: Lane::new(spec, cfg.rope, &cfg.env()),
            display: Display::new(cfg.display.clone()),
            pacer: Pacer::new(cfg.display.pacing, Some(cfg.display.display_hz)),
            frame_ns: None,
            start_ns: 0,
        })
        .collect();
    let mut offscreen = cfg
        .draw
        .map(|size| Offscreen::new(&cfg.rope, lanes.len(), size));
    loop {
        for r in &mut lanes {
            r.frame_ns = r.begin();
        }
        if lanes.iter().all(|r| r.frame_ns.is_none()) {
            break;
        }
        if let Some(o) = offscreen.as_mut() {
            let shown: Vec<&Lane> = lanes.iter().map(|r| &r.lane).collect();
            o.draw(&shown, cfg.display.display_hz);
        }
        for (index, r) in lanes.iter_mut().enumerate() {
            if let Some(frame_ns) = r.frame_ns {
                let start_ns = r.start_ns;
                let at_ns = r.present();
                let step_cost_ns = cfg.display.step_cost_ns;
                on_frame(&record(
                    index,
                    &r.lane,
                    frame_ns,
                    at_ns,
                    start_ns,
                    step_cost_ns,
                ));
            }
        }
    }
    lanes
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let mut report = LaneReport::new(&r.lane);
            report.add_pacing(&r.pacer);
            if let Some(o) = &offscreen {
                report.add_drawing(o, i);
            }
            (report, r.lane)
        })
        .collect()
}

/// The trace's record of the frame `lane` just presented at `present_ns`, begun at
/// `start_ns` with steps of `step_cost_ns` each.
fn record(
    index: usize,
    lane: &Lane,
    frame_ns: u64,
    present_ns: u64,
    start_ns: u64,
    step_cost_ns: u64,
) -> FrameRecord {
    let last = lane.last();
    FrameRecord {
        start_ns,
        step_cost_ns,
        lane: index,
        frame: lane.metrics().frames() - 1,
        present_ns,
        frame_ns,
        steps: last.steps,
        alpha: last.alpha,
        shown_ns: last.shown_ns,
    }
}
