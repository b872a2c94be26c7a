//! Running the lanes: each on its own copy of the simulated display, frame by frame.
//!
//! Lanes run together, in lockstep, when they are drawn together (`--draw`) or their ropes are
//! small together; otherwise one after another, so that only one rope is ever in memory (four
//! lanes of a million particles cost one rope, not four). Each lane sees the same frame times
//! either way, and ends in the same state: the lanes share nothing.

use super::offscreen::Offscreen;
use super::{Display, FrameRecord, LaneReport, SimConfig};
use crate::lane::{Lane, LaneSpec, Vblank};
use crate::timing::Pacer;
use glam::Vec2;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

/// Lanes whose ropes hold this many particles together run in lockstep; beyond it, one at a
/// time.
pub const TOGETHER_PARTICLES: usize = 1_000_000;

/// What a caller asks of a run beyond its config.
#[derive(Clone, Copy, Debug, Default)]
pub struct Controls<'a> {
    /// Keep each lane's final positions (`--dump-state`); otherwise a lane's rope is dropped as
    /// soon as its report is made.
    pub keep_positions: bool,
    /// Checked at every frame boundary: once it is set, the run stops there.
    pub stop: Option<&'a AtomicBool>,
}

/// What one lane did.
#[derive(Clone, Debug)]
pub struct LaneOutcome {
    pub report: LaneReport,
    /// The final positions, when [`Controls::keep_positions`] asked for them.
    pub positions: Option<Vec<Vec2>>,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// One per lane that ran, in the order given.
    pub lanes: Vec<LaneOutcome>,
    /// Stopped at a frame boundary before the end.
    pub interrupted: bool,
    /// Lanes that never started (a one-at-a-time run stopped before their turn).
    pub not_run: Vec<LaneSpec>,
}

/// Runs every lane of `cfg` and reports each with its final positions. `on_frame` sees every
/// presented frame (for `--trace`). See [`run_with`].
pub fn run(cfg: &SimConfig, on_frame: impl FnMut(&FrameRecord)) -> Vec<(LaneReport, Vec<Vec2>)> {
    let controls = Controls {
        keep_positions: true,
        stop: None,
    };
    run_with(cfg, controls, on_frame)
        .lanes
        .into_iter()
        .map(|l| (l.report, l.positions.unwrap_or_default()))
        .collect()
}

/// Runs the lanes of `cfg` in the order given, batch by batch (see [`batches`]); `on_frame`
/// sees every presented frame. With `--draw`, every frame of every lane is rasterised: one lane
/// as the window's single view, several as its split view.
pub fn run_with(
    cfg: &SimConfig,
    controls: Controls<'_>,
    mut on_frame: impl FnMut(&FrameRecord),
) -> Outcome {
    let stopped = || controls.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut outcome = Outcome {
        lanes: Vec::with_capacity(cfg.lanes.len()),
        interrupted: false,
        not_run: Vec::new(),
    };
    for batch in batches(cfg) {
        if outcome.interrupted {
            outcome.not_run.extend_from_slice(&cfg.lanes[batch]);
            continue;
        }
        let (lanes, interrupted) = run_batch(cfg, batch, &stopped, &mut on_frame, controls);
        outcome.lanes.extend(lanes);
        outcome.interrupted = interrupted;
    }
    outcome
}

/// The lanes run together: all of them with `--draw` or when their ropes are small together
/// (at most [`TOGETHER_PARTICLES`]); otherwise each alone.
pub fn batches(cfg: &SimConfig) -> Vec<Range<usize>> {
    let n = cfg.lanes.len();
    if cfg.draw.is_some() || n.saturating_mul(cfg.rope.particles) <= TOGETHER_PARTICLES {
        std::iter::once(0..n).collect()
    } else {
        (0..n).map(|i| i..i + 1).collect()
    }
}

/// Runs the lanes `batch` of `cfg` in lockstep to the end, or to the first frame boundary at
/// which `stopped` says so (then `true`).
fn run_batch(
    cfg: &SimConfig,
    batch: Range<usize>,
    stopped: &impl Fn() -> bool,
    on_frame: &mut impl FnMut(&FrameRecord),
    controls: Controls<'_>,
) -> (Vec<LaneOutcome>, bool) {
    let first = batch.start;
    let mut lanes: Vec<Running> = cfg.lanes[batch]
        .iter()
        .map(|&spec| Running::new(cfg, spec))
        .collect();
    let mut offscreen = cfg
        .draw
        .map(|size| Offscreen::new(&cfg.rope, lanes.len(), size));
    let mut interrupted = false;
    loop {
        if stopped() {
            interrupted = true;
            break;
        }
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
        for (i, r) in lanes.iter_mut().enumerate() {
            if let Some(frame_ns) = r.frame_ns {
                let start_ns = r.start_ns;
                let at_ns = r.present();
                let step_cost_ns = cfg.display.step_cost_ns;
                let index = first + i;
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
    let done = lanes
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let mut report = LaneReport::new(&r.lane);
            report.add_pacing(&r.pacer);
            if let Some(o) = &offscreen {
                report.add_drawing(o, i);
            }
            let positions = controls
                .keep_positions
                .then(|| r.lane.rope().positions().collect());
            LaneOutcome { report, positions }
        })
        .collect();
    (done, interrupted)
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
    fn new(cfg: &SimConfig, spec: LaneSpec) -> Running {
        Running {
            lane: Lane::new(spec, cfg.rope, &cfg.env()),
            display: Display::new(cfg.display.clone()),
            pacer: Pacer::new(cfg.display.pacing, Some(cfg.display.display_hz)),
            frame_ns: None,
            start_ns: 0,
        }
    }

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
