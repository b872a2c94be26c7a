//! Running lanes over a host, the one way `simulate` and `replay` both do: the lanes in the
//! order given, batch by batch, a stop honoured at frame boundaries, and each lane's outcome
//! made the same way.
//!
//! Lanes run together, in lockstep, when they must (drawn together) or their ropes are small
//! together; otherwise one after another, so that only one rope is ever in memory (four lanes
//! of a million particles cost one rope, not four). Each lane sees the same frame times either
//! way, and ends in the same state: the lanes share nothing.

use crate::model::lane::{Lane, LaneReport, LaneSpec};
pub use crate::protocol::frame_csv::FrameRecord;
use glam::Vec2;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use timestep_loop::Pacer;

/// Lanes whose ropes hold this many particles together run in lockstep; beyond it, one at a
/// time.
pub const TOGETHER_PARTICLES: usize = 1_000_000;

/// What a caller asks of a run beyond its configuration.
#[derive(Clone, Copy, Debug, Default)]
pub struct Controls<'a> {
    /// Keep each lane's final positions; otherwise a lane's rope is dropped as soon as its
    /// report is made.
    pub keep_positions: bool,
    /// Checked at every frame boundary: once it is set, the run stops there.
    pub stop: Option<&'a AtomicBool>,
    /// Keep each step's start time (a trace writes them).
    pub step_starts: bool,
}

impl Controls<'_> {
    /// Whether the run is asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// What one lane did.
#[derive(Clone, Debug)]
pub struct LaneOutcome {
    /// Its report.
    pub report: LaneReport,
    /// The final positions, when [`Controls::keep_positions`] asked for them.
    pub positions: Option<Vec<Vec2>>,
}

impl LaneOutcome {
    /// `lane`'s report (with the pacer it ran under) and, when `controls` ask, its final
    /// positions.
    pub fn of(lane: &Lane, pacer: &Pacer, controls: Controls<'_>) -> LaneOutcome {
        let positions = controls
            .keep_positions
            .then(|| lane.rope().map(|rope| rope.positions().collect()))
            .flatten();
        LaneOutcome {
            report: LaneReport::new(lane, pacer),
            positions,
        }
    }
}

/// How far one batch of lanes got.
#[derive(Clone, Debug)]
pub struct Batch {
    /// Its lanes' outcomes, in order.
    pub lanes: Vec<LaneOutcome>,
    /// Stopped at a frame boundary before the end.
    pub interrupted: bool,
    /// The host's time it ran: from its first frame's start to its last's, ns.
    pub span_ns: u64,
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
    /// The host's time every lane ran: from the first frame's start to the last's, ns (the
    /// shortest of the batches').
    pub span_ns: u64,
}

/// Runs `lanes`, whose ropes hold `particles` each, batch by batch (see [`batches`]): `batch`
/// runs the lanes of one range together.
pub fn run_lanes<E>(
    lanes: &[LaneSpec],
    particles: usize,
    together: bool,
    mut batch: impl FnMut(Range<usize>) -> Result<Batch, E>,
) -> Result<Outcome, E> {
    let mut outcome = Outcome {
        lanes: Vec::with_capacity(lanes.len()),
        interrupted: false,
        not_run: Vec::new(),
        span_ns: 0,
    };
    for range in batches(lanes.len(), particles, together) {
        if outcome.interrupted {
            outcome.not_run.extend_from_slice(&lanes[range]);
            continue;
        }
        let first = range.start == 0;
        let ran = batch(range)?;
        outcome.lanes.extend(ran.lanes);
        outcome.interrupted = ran.interrupted;
        outcome.span_ns = if first {
            ran.span_ns
        } else {
            outcome.span_ns.min(ran.span_ns)
        };
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
