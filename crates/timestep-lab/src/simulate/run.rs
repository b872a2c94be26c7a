//! Running the lanes: each on its own copy of the simulated display, frame by frame.
//!
//! Lanes run together, in lockstep, when they are drawn together (`--draw`) or their ropes are
//! small together; otherwise one after another, so that only one rope is ever in memory (four
//! lanes of a million particles cost one rope, not four). Each lane sees the same frame times
//! either way, and ends in the same state: the lanes share nothing.

use super::offscreen::Offscreen;
use super::{Display, FrameRecord, SimConfig};
use crate::frame::{FrameDone, Frames};
use crate::lane::LaneReport;
use crate::lane::{Lane, LaneSpec};
use glam::Vec2;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use timestep_loop::{ConfigError, Pacer, millis};

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
    /// Keep each step's start time (`--trace` writes them).
    pub step_starts: bool,
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
pub fn run(
    cfg: &SimConfig,
    on_frame: impl FnMut(&FrameRecord),
) -> Result<Vec<(LaneReport, Vec<Vec2>)>, ConfigError> {
    let controls = Controls {
        keep_positions: true,
        stop: None,
        step_starts: true,
    };
    let outcome = run_with(cfg, controls, on_frame)?;
    Ok(outcome
        .lanes
        .into_iter()
        .map(|l| (l.report, l.positions.unwrap_or_default()))
        .collect())
}

/// Runs the lanes of `cfg` in the order given, batch by batch (see [`batches`]); `on_frame`
/// sees every presented frame. With `--draw`, every frame of every lane is rasterised: one lane
/// as the window's single view, several as its split view.
pub fn run_with(
    cfg: &SimConfig,
    controls: Controls<'_>,
    mut on_frame: impl FnMut(&FrameRecord),
) -> Result<Outcome, ConfigError> {
    let stopped = || controls.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut outcome = Outcome {
        lanes: Vec::with_capacity(cfg.lanes.len()),
        interrupted: false,
        not_run: Vec::new(),
    };
    for batch in batches(cfg.lanes.len(), cfg.rope.particles, cfg.draw.is_some()) {
        if outcome.interrupted {
            outcome.not_run.extend_from_slice(&cfg.lanes[batch]);
            continue;
        }
        let (lanes, interrupted) = run_batch(cfg, batch, &stopped, &mut on_frame, controls)?;
        outcome.lanes.extend(lanes);
        outcome.interrupted = interrupted;
    }
    Ok(outcome)
}

/// `lanes` lanes of ropes of `particles` run together when `together` says they must (drawn
/// together) or their ropes are small together (at most [`TOGETHER_PARTICLES`]); otherwise
/// each alone.
pub fn batches(lanes: usize, particles: usize, together: bool) -> Vec<Range<usize>> {
    if together || lanes.saturating_mul(particles) <= TOGETHER_PARTICLES {
        std::iter::once(0..lanes).collect()
    } else {
        (0..lanes).map(|i| i..i + 1).collect()
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
) -> Result<(Vec<LaneOutcome>, bool), ConfigError> {
    let first = batch.start;
    let mut lanes = cfg.lanes[batch]
        .iter()
        .map(|&spec| Running::new(cfg, spec, controls))
        .collect::<Result<Vec<Running>, ConfigError>>()?;
    let mut offscreen = cfg
        .draw
        .map(|size| Offscreen::new(&cfg.rope, lanes.len(), size));
    let mut interrupted = false;
    loop {
        if stopped() {
            interrupted = true;
            break;
        }
        let mut any = false;
        for (i, r) in lanes.iter_mut().enumerate() {
            if let Some(done) = r.frame() {
                any = true;
                on_frame(&record(
                    first + i,
                    &r.lane[0],
                    &done,
                    cfg.display.step_cost_ns,
                ));
            }
        }
        if !any {
            break;
        }
        if let Some(o) = offscreen.as_mut() {
            let shown: Vec<&Lane> = lanes.iter().map(|r| &r.lane[0]).collect();
            o.draw(&shown, cfg.display.display_hz);
        }
    }
    let done = lanes
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let lane = &r.lane[0];
            let drawing = offscreen.as_ref().map(|o| o.report(i));
            let mut report = LaneReport::new(lane, r.frames.pacer(), drawing);
            report.pacing.spin_cpu_ms = Some(millis(r.display.spun_ns()));
            let positions = controls
                .keep_positions
                .then(|| lane.rope().map(|rope| rope.positions().collect()))
                .flatten();
            LaneOutcome { report, positions }
        })
        .collect();
    Ok((done, interrupted))
}

/// A lane on its own copy of the simulated display, with its loop's pacing.
struct Running {
    /// The one lane (a slice, as frames run lanes).
    lane: [Lane; 1],
    display: Display,
    frames: Frames,
}

impl Running {
    fn new(
        cfg: &SimConfig,
        spec: LaneSpec,
        controls: Controls<'_>,
    ) -> Result<Running, ConfigError> {
        let mut lane = if cfg.physics {
            Lane::new(spec, &cfg.rope, &cfg.env())?
        } else {
            let mut lane = Lane::timing_only(spec, &cfg.env())?;
            lane.judge_drive(&cfg.rope);
            lane.bound_steps(&cfg.rope);
            lane
        };
        lane.keep_step_starts(controls.step_starts);
        let display = Display::new(cfg.display.clone());
        let mut frames = Frames::new(Pacer::new(cfg.display.pacing, Some(cfg.display.display_hz)));
        frames.anchor(display.start_ns());
        Ok(Running {
            lane: [lane],
            display,
            frames,
        })
    }

    /// One frame, unless the run is over.
    fn frame(&mut self) -> Option<FrameDone> {
        (!self.display.finished()).then(|| self.frames.run(&mut self.display, &mut self.lane))
    }
}

/// The trace's record of the frame `lane` just ran and presented.
fn record(index: usize, lane: &Lane, done: &FrameDone, step_cost_ns: u64) -> FrameRecord {
    let last = lane.last();
    FrameRecord {
        start_ns: done.start_ns,
        step_cost_ns,
        lane: index,
        frame: lane.record().metrics().frames().saturating_sub(1),
        present_ns: done.shown.map_or(done.start_ns, |s| s.at_ns),
        frame_ns: done.frame_ns,
        steps: last.steps,
        alpha: last.alpha,
        shown_ns: last.shown_ns,
        step_starts_ns: lane.record().step_starts().to_vec(),
    }
}
