//! A capture as a host of the frame protocol: each frame starts at its captured start and is
//! presented at its captured time on screen (or not at all); nothing can wait, since a capture
//! fixes when frames start. Every lane sees every captured frame; one whose loop would have
//! waited (MonoGame's wait for a whole tick) sits those frames out and is handed their time
//! with its next one.

use super::report::ReplayConfig;
use super::select::{Selection, Stream};
use super::summary::CaptureSummary;
use super::{CaptureError, Captured};
use crate::model::lane::{Lane, LaneReport};
use crate::protocol::feedback::{Displayed, LateFeedback};
use crate::protocol::frame::{FrameDone, Frames, Host, Shown, VblankCounter, Wall};
use crate::protocol::runs::{Batch, Controls, FrameRecord, LaneOutcome, Outcome, run_lanes};
use crate::util::fast::{self, period_ns_f};
use crate::view::draw::judge_as_drawn;
use std::convert::Infallible;
use std::path::Path;
use timestep_loop::{ConfigError, Pacer, Pacing};

/// Why a lane that waits for a whole tick runs open loop on a capture.
pub const WAITS_OPEN_LOOP: &str = "its loop waits for a whole tick before a frame (MonoGame), \
                                   which would move when frames start: it ran on the captured \
                                   starts, sitting out frames with less than a tick";

/// The capture's frame now showing, and the vblanks counted in its refresh.
#[derive(Debug)]
pub struct CaptureHost {
    frame: Captured,
    vblanks: VblankCounter,
    /// The capture's display times as present feedback, when a lane steps by them.
    feedback: Option<LateFeedback>,
    refresh_ns: Option<u64>,
}

impl CaptureHost {
    /// A host whose presents are counted in vblanks of `refresh_hz`, if the capture has one.
    pub fn new(refresh_hz: Option<f64>) -> CaptureHost {
        CaptureHost {
            frame: Captured {
                start_ns: 0,
                shown_ns: None,
                line: 0,
            },
            vblanks: VblankCounter::new(refresh_hz, true),
            feedback: None,
            refresh_ns: refresh_hz
                .filter(|hz| hz.is_finite() && *hz > 0.0)
                .map(|hz| fast::round(period_ns_f(hz)) as u64),
        }
    }

    /// Hands each frame's display time to the lanes `delay` frames after it was presented,
    /// as real present feedback arrives.
    pub fn give_feedback(&mut self, delay: u64) {
        self.feedback = Some(LateFeedback::new(delay));
    }

    /// The next frame to run is `frame`.
    pub fn next(&mut self, frame: Captured) {
        self.frame = frame;
    }
}

impl Wall for CaptureHost {
    /// The captured frame's start: a capture's clock.
    fn now_ns(&mut self) -> u64 {
        self.frame.start_ns
    }
    /// A capture's frames start when they started: nothing to wait for.
    fn sleep(&mut self, _ns: u64) {}
}

impl Host for CaptureHost {
    fn can_wait(&self) -> bool {
        false
    }
    fn step_time_ns(&mut self, start_ns: u64, _index: u64) -> u64 {
        start_ns
    }
    type Error = Infallible;
    fn gives_feedback(&self) -> bool {
        self.feedback.is_some()
    }
    fn displayed(&mut self, out: &mut Vec<Displayed>) {
        if let Some(feedback) = self.feedback.as_mut() {
            feedback.due(out);
        }
    }
    fn present(
        &mut self,
        frame: &FrameDone,
        _lanes: &[Lane],
        _ran: &[bool],
    ) -> Result<Option<Shown>, Infallible> {
        if let Some(feedback) = self.feedback.as_mut() {
            feedback.presented(frame.number, self.frame.shown_ns, self.refresh_ns);
        }
        Ok(self.frame.shown_ns.map(|at_ns| Shown {
            at_ns,
            vblank: self.vblanks.at(at_ns),
        }))
    }
}

/// A failure of a replay: the capture, or a lane's loop.
#[derive(Clone, Debug)]
pub enum ReplayError {
    /// The capture cannot be read or holds no frames to replay.
    Capture(CaptureError),
    /// A lane's loop cannot be built from the flags.
    Loop(ConfigError),
}

impl From<CaptureError> for ReplayError {
    fn from(e: CaptureError) -> Self {
        ReplayError::Capture(e)
    }
}

impl From<ConfigError> for ReplayError {
    fn from(e: ConfigError) -> Self {
        ReplayError::Loop(e)
    }
}

/// Every lane of `cfg` on `selection`'s frames of the capture, with final positions.
pub fn run(
    cfg: &ReplayConfig,
    selection: &Selection,
    summary: &CaptureSummary,
) -> Result<Vec<LaneReport>, ReplayError> {
    let controls = Controls::default();
    let outcome = run_with(cfg, selection, summary, controls, |_| {})?;
    Ok(outcome.lanes.into_iter().map(|l| l.report).collect())
}

/// Every lane of `cfg` on `selection`'s frames, together or, when their ropes are too big to
/// hold together, one at a time (the capture read again for each); `on_frame` sees every frame
/// every lane presents.
pub fn run_with(
    cfg: &ReplayConfig,
    selection: &Selection,
    summary: &CaptureSummary,
    controls: Controls<'_>,
    mut on_frame: impl FnMut(&FrameRecord),
) -> Result<Outcome, ReplayError> {
    run_lanes(&cfg.lanes, cfg.rope.particles, false, |batch| {
        replay_batch(cfg, batch, selection, summary, controls, &mut on_frame)
    })
}

/// The lanes `batch` of `cfg` together on the capture's frames, to its end or to the first
/// frame boundary at which `controls` say stop; `on_frame` sees each presented frame, its
/// lane numbered among all of `cfg`'s.
fn replay_batch(
    cfg: &ReplayConfig,
    batch: std::ops::Range<usize>,
    selection: &Selection,
    summary: &CaptureSummary,
    controls: Controls<'_>,
    mut on_frame: impl FnMut(&FrameRecord),
) -> Result<Batch, ReplayError> {
    let first_lane = batch.start;
    let mut lanes = batch_lanes(cfg, batch, summary, controls)?;
    let mut host = CaptureHost::new(summary.refresh_hz_estimate);
    if lanes.iter().any(Lane::takes_display_feedback) {
        host.give_feedback(cfg.feedback_delay);
    }
    let mut frames = Frames::new(Pacer::new(Pacing::Vsync, summary.refresh_hz_estimate));
    let mut stream = Stream::open(&cfg.capture, selection)?;
    let (mut first, mut last) = (None, 0);
    let mut interrupted = false;
    while let Some(frame) = stream.next_frame()? {
        if controls.stopped() {
            interrupted = true;
            break;
        }
        host.next(frame);
        // The capture's first frame is where its clock starts: it has no frame time.
        frames.anchor_once(frame.start_ns);
        first.get_or_insert(frame.start_ns);
        last = frame.start_ns;
        let Ok(done) = frames.run(&mut host, &mut lanes);
        for (i, lane) in lanes.iter().enumerate() {
            if frames.ran(i) && done.shown.is_some() {
                on_frame(&FrameRecord::of(
                    first_lane + i,
                    lane,
                    &done,
                    frames.pacer().pacing(),
                    0,
                ));
            }
        }
    }
    Ok(Batch {
        lanes: outcomes(&lanes, &frames, controls),
        interrupted,
        span_ns: last - first.unwrap_or(last),
    })
}

/// The lanes `batch` of `cfg`, made for the capture's display.
fn batch_lanes(
    cfg: &ReplayConfig,
    batch: std::ops::Range<usize>,
    summary: &CaptureSummary,
    controls: Controls<'_>,
) -> Result<Vec<Lane>, ConfigError> {
    let env = cfg.env(summary.refresh_hz_estimate);
    cfg.lanes[batch]
        .iter()
        .map(|&spec| {
            let mut lane = Lane::new(spec, &cfg.rope, &env)?;
            judge_as_drawn(&mut lane, &cfg.rope);
            lane.keep_step_starts(controls.step_starts);
            Ok(lane)
        })
        .collect()
}

/// What each lane did, a loop that would have waited marked as run open loop.
fn outcomes(lanes: &[Lane], frames: &Frames, controls: Controls<'_>) -> Vec<LaneOutcome> {
    lanes
        .iter()
        .enumerate()
        .map(|(i, lane)| {
            let mut outcome = LaneOutcome::of(lane, frames.pacer(), controls);
            if lane.policy().timing.waits_for_tick() {
                outcome.report.open_loop = Some(WAITS_OPEN_LOOP);
            }
            outcome.report.held(frames.pending_ns(i));
            outcome
        })
        .collect()
}

/// Reads `path` to check it can be replayed: chooses its frames and sums them up.
pub fn open(
    path: &Path,
    app: Option<&str>,
    swapchain: Option<&str>,
) -> Result<(Selection, CaptureSummary), CaptureError> {
    let selection = super::select::choose(path, app, swapchain)?;
    let summary = super::summary::summarise(path, &selection)?;
    Ok((selection, summary))
}
