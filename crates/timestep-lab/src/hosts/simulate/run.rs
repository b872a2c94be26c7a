//! Running the lanes on the simulated display: each on its own copy of it, frame by frame,
//! batched as [`crate::protocol::runs`] batches every host's lanes (drawn lanes always together).

use super::offscreen::Offscreen;
use super::{Display, SimConfig};
use crate::model::lane::{Lane, LaneReport, LaneSpec};
use crate::protocol::frame::{FrameDone, Frames};
use crate::protocol::runs::{Batch, Controls, FrameRecord, LaneOutcome, Outcome, run_lanes};
use crate::view::draw::judge_as_drawn;
use glam::Vec2;
use std::ops::Range;
use timestep_loop::{ConfigError, Pacer, millis};

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

/// Runs the lanes of `cfg` in the order given, batch by batch (see [`crate::protocol::runs::batches`]); `on_frame`
/// sees every presented frame. With `--draw`, every frame of every lane is rasterised: one lane
/// as the window's single view, several as its split view.
pub fn run_with(
    cfg: &SimConfig,
    controls: Controls<'_>,
    mut on_frame: impl FnMut(&FrameRecord),
) -> Result<Outcome, ConfigError> {
    let together = cfg.draw.is_some();
    run_lanes(&cfg.lanes, cfg.rope.particles, together, |batch| {
        run_batch(cfg, batch, &mut on_frame, controls)
    })
}

/// Runs the lanes `batch` of `cfg` in lockstep to the end, or to the first frame boundary at
/// which `stopped` says so (then `true`).
fn run_batch(
    cfg: &SimConfig,
    batch: Range<usize>,
    on_frame: &mut impl FnMut(&FrameRecord),
    controls: Controls<'_>,
) -> Result<Batch, ConfigError> {
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
        if controls.stopped() {
            interrupted = true;
            break;
        }
        let mut any = false;
        for (i, r) in lanes.iter_mut().enumerate() {
            if let Some(done) = r.frame() {
                any = true;
                let (pacing, step_cost_ns) = (r.frames.pacer().pacing(), cfg.display.step_cost_ns);
                on_frame(&FrameRecord::of(
                    first + i,
                    &r.lane[0],
                    &done,
                    pacing,
                    step_cost_ns,
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
    let span_ns = lanes.first().map_or(0, Running::span_ns);
    let done = lanes
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let mut outcome = LaneOutcome::of(&r.lane[0], r.frames.pacer(), controls);
            outcome.report.drawing = offscreen.as_ref().map(|o| o.report(i));
            outcome.report.pacing.spin_cpu_ms = Some(millis(r.display.spun_ns()));
            outcome
        })
        .collect();
    Ok(Batch {
        lanes: done,
        interrupted,
        span_ns,
    })
}

/// A lane on its own copy of the simulated display, with its loop's pacing.
struct Running {
    /// The one lane (a slice, as frames run lanes).
    lane: [Lane; 1],
    display: Display,
    frames: Frames,
    first_start_ns: Option<u64>,
    last_start_ns: u64,
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
            lane.bound_steps(&cfg.rope);
            lane
        };
        judge_as_drawn(&mut lane, &cfg.rope);
        lane.keep_step_starts(controls.step_starts);
        let mut display = Display::new(cfg.display.clone());
        if lane.takes_display_feedback() {
            display.give_feedback();
        }
        let mut frames = Frames::new(Pacer::new(cfg.display.pacing, Some(cfg.display.display_hz)));
        frames.anchor(display.start_ns());
        Ok(Running {
            lane: [lane],
            display,
            frames,
            first_start_ns: None,
            last_start_ns: 0,
        })
    }

    /// One frame, unless the run is over.
    fn frame(&mut self) -> Option<FrameDone> {
        if self.display.finished() {
            return None;
        }
        let Ok(done) = self.frames.run(&mut self.display, &mut self.lane);
        self.first_start_ns.get_or_insert(done.start_ns);
        self.last_start_ns = done.start_ns;
        Some(done)
    }

    /// The simulated time it ran: from its first frame's start to its last's, ns.
    fn span_ns(&self) -> u64 {
        self.last_start_ns - self.first_start_ns.unwrap_or(self.last_start_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::simulate::DisplayConfig;
    use crate::model::lane::parse_spec;
    use crate::model::rope::RopeParams;
    use timestep_loop::TimingConfig;

    /// `lanes` on a 60 Hz display for 2 s, a 1 ms tick, no rope.
    fn reports(lanes: &str) -> Vec<LaneReport> {
        let cfg = SimConfig {
            timing: TimingConfig::textbook(1_000_000, 250_000_000, None).unwrap_or_default(),
            rope: RopeParams::default(),
            display: DisplayConfig {
                display_hz: 60.0,
                duration_ns: 2_000_000_000,
                ..Default::default()
            },
            lanes: lanes.split(',').map(|l| parse_spec(l).unwrap()).collect(),
            max_substep: Default::default(),
            draw: None,
            physics: false,
        };
        let outcome = run_with(&cfg, Controls::default(), |_| {});
        outcome
            .unwrap()
            .lanes
            .into_iter()
            .map(|l| l.report)
            .collect()
    }

    #[test]
    fn ticks_per_vblank_are_the_steps_a_vblank_should_hold_by_the_lanes_own_rule() {
        // Variable steps once a frame; semi-fixed in 16 ticks and a sliver of 0.67 ms; an
        // accumulator in 16 or 17 whole ticks, 16.67 on average. Not 16.67 for all three.
        let lanes = reports("variable,semi-fixed,fixed");
        let due: Vec<f64> = lanes
            .iter()
            .map(|l| l.vblanks.ticks_per_vblank.unwrap())
            .collect();
        assert_eq!(due[..2], [1.0, 17.0]);
        assert!((due[2] - 50.0 / 3.0).abs() < 1e-6, "{due:?}");
        // One thing for every lane: what each frame (one a vblank) ran, on average.
        for l in &lanes {
            let v = &l.vblanks;
            assert_eq!(v.skipped_vblanks, 0);
            let ran = &l.shown.steps_per_frame;
            let counted = (ran.mean * 120.0 - f64::from(ran.min)) / 119.0; // frame 0 is not
            assert!(
                (counted - v.ticks_per_vblank.unwrap()).abs() < 0.01,
                "{}",
                l.lane
            );
            assert!(f64::from(v.max_steps_per_vblank) >= v.ticks_per_vblank.unwrap());
        }
        // A frame of one step never runs two: variable's tick counters apply, and are 0.
        assert_eq!(lanes[0].vblanks.double_updates, Some(0));
        assert_eq!(lanes[1].vblanks.double_updates, None);
    }
}
