//! One lane's report: what it did and how its loop is built, every figure measured on the
//! simulated clock.

use super::super::offscreen::Offscreen;
use super::peak_rss_kib;
use crate::lane::{Lane, LatencyStats, StepsPerFrame};
use crate::policy::Policy;
use crate::timing::{ClampOn, Pacer, Pacing, seconds};
use serde::Serialize;

/// What one lane did, every figure measured on the simulated clock.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneReport {
    /// The lane as given to `--lanes` (or `--mode`).
    pub lane: String,
    pub mode: String,
    pub frames: u64,
    pub steps: u64,
    /// Simulation time advanced.
    pub sim_time_s: f64,
    /// Timer time handed to the stepper (the sum of measured frame times).
    pub wall_time_s: f64,
    /// (S_last − S_0) − (P_last − P_0): shown simulation time against presented wall time.
    pub drift_ms: f64,
    /// Time lost to the clamp and the step cap.
    pub dropped_ms: f64,
    pub stutter_rms_ms: f64,
    pub stutter_max_ms: f64,
    pub steps_per_frame: StepsPerFrame,
    /// Frames per number of steps taken, e.g. {"16": 310, "17": 290}.
    pub steps_histogram: std::collections::BTreeMap<String, u64>,
    pub energy_start_j: f64,
    pub energy_end_j: f64,
    /// The longest spring length / rest length seen, across resets.
    pub max_stretch: f64,
    /// Whether the rope diverged at any time.
    pub exploded: bool,
    /// Simulated wall time at which the rope first diverged.
    pub exploded_at_s: Option<f64>,
    /// How many times it diverged (an exploded rope is reset after 2 s, as in the window).
    pub explosions: u64,
    /// Whether the rope is exploded at the end of the run.
    pub exploded_at_end: bool,
    /// Simulation time over measured time: 1 keeps time, below 1 is slow motion (the clamp,
    /// the cap, a resync or a slow fuzzy window dropped time).
    pub game_speed: f64,
    /// The stepper's books, in whole nanoseconds: measured + invented = consumed + dropped +
    /// remainder (the remainder can be negative under Godot's jitter fix, which carries a
    /// deficit).
    pub measured_ns: u64,
    pub consumed_ns: u64,
    pub dropped_ns: u64,
    pub invented_ns: u64,
    pub remainder_ns: i64,
    /// The lane's loop: tick, timer, rules, and the source a preset follows.
    pub policy: PolicyReport,
    /// The integrator the rope stepped with at the end, and the longest step it can take on
    /// this rope without diverging (the stability bound), s.
    pub integrator: String,
    pub stable_below_s: f64,
    /// Whether the frame times say presents are paced by a vsync (at the end of the run),
    /// the refresh rate measured while they were, and when that was first detected.
    pub vsync_detected: bool,
    pub refresh_estimate_hz: Option<f64>,
    pub detected_after_s: Option<f64>,
    /// MonitorSim's counters (see `lane::Vblanks`).
    pub double_updates: u64,
    pub irregular_frames: u64,
    pub skipped_vblanks: u64,
    pub zero_step_frames: u64,
    pub max_steps_per_vblank: u32,
    /// Ticks per vblank for the last 240 vblanks.
    pub pattern: String,
    /// Frames whose tick count was not the nearest whole number to refresh period ÷ tick.
    pub off_beat_frames: u64,
    /// For a fixed tick on a vsynced display: the time between off-beat frames predicted from
    /// the refresh and tick rates alone, and the one measured, s (null: no beat).
    pub beat_period_predicted_s: Option<f64>,
    pub beat_period_measured_s: Option<f64>,
    /// From the moment a frame samples input to the present that first shows its effect
    /// (a blending lane's lag behind its newest state counted), ms; null if nothing was shown.
    pub latency_ms: Option<LatencyStats>,
    /// The loop's pacing, its render interval at the end (adaptive; the period of a cap or of
    /// late pacing; null under vsync), and how many frames overran it.
    pub pacing: String,
    pub render_interval_ms: Option<f64>,
    pub missed_intervals: u64,
    /// The process's peak resident memory so far (Linux: VmHWM), KiB; null where unknown.
    pub peak_rss_kib: Option<u64>,
    /// FNV-1a of the final positions' and velocities' bits, hex.
    pub state_hash: String,
    /// With `--draw`: the real time one off-screen frame took to draw (mean and max), ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_ms_mean: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_ms_max: Option<f64>,
    /// With `--draw`: frames whose positions held a NaN or infinity (checked before drawing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_nonfinite_frames: Option<u64>,
}

impl LaneReport {
    pub fn new(lane: &Lane) -> Self {
        let (stepper, metrics, rope, watch) =
            (lane.stepper(), lane.metrics(), lane.rope(), lane.watch());
        let (vsync, vblanks) = (lane.vsync(), lane.vblanks());
        LaneReport {
            lane: lane.name(),
            mode: lane.mode().name().to_string(),
            frames: metrics.frames(),
            steps: stepper.steps_total(),
            sim_time_s: seconds(stepper.sim_ns()),
            wall_time_s: seconds(stepper.measured_ns()),
            // `+ 0.0` turns -0.0 into 0.0, so a table never shows "-0.000".
            drift_ms: metrics.drift_ns() as f64 * 1e-6 + 0.0,
            dropped_ms: stepper.dropped_ns() as f64 * 1e-6,
            stutter_rms_ms: metrics.stutter_rms_ns() * 1e-6,
            stutter_max_ms: metrics.stutter_max_ns() as f64 * 1e-6,
            steps_per_frame: metrics.steps_per_frame(),
            steps_histogram: metrics
                .histogram()
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
            energy_start_j: lane.energy_start_j(),
            energy_end_j: rope.energy(),
            max_stretch: f64::from(lane.max_stretch()),
            exploded: watch.explosions() > 0,
            exploded_at_s: watch.first_at_ns().map(seconds),
            explosions: watch.explosions(),
            exploded_at_end: rope.exploded(),
            game_speed: stepper.consumed_ns() as f64 / stepper.measured_ns().max(1) as f64,
            measured_ns: stepper.measured_ns(),
            consumed_ns: stepper.consumed_ns(),
            dropped_ns: stepper.dropped_ns(),
            invented_ns: stepper.invented_ns(),
            remainder_ns: stepper.remainder_ns(),
            policy: PolicyReport::new(lane.policy()),
            integrator: lane.integrator().to_string(),
            stable_below_s: rope.params().stability_limit_s(),
            vsync_detected: vsync.vsynced(),
            refresh_estimate_hz: vsync.refresh_hz(),
            detected_after_s: vsync.detected_after_ns().map(seconds),
            double_updates: vblanks.double_updates(),
            irregular_frames: vblanks.irregular_frames(),
            skipped_vblanks: vblanks.skipped_vblanks(),
            zero_step_frames: vblanks.zero_step_frames(),
            max_steps_per_vblank: vblanks.max_steps_per_vblank(),
            pattern: vblanks.pattern(),
            off_beat_frames: vblanks.off_beat_frames(),
            beat_period_predicted_s: vblanks.predicted_beat_s(),
            beat_period_measured_s: vblanks.measured_beat_s(),
            latency_ms: lane.latency().stats(),
            pacing: Pacing::Vsync.to_string(),
            render_interval_ms: None,
            missed_intervals: 0,
            peak_rss_kib: peak_rss_kib(),
            state_hash: format!("{:016x}", rope.state_hash()),
            draw_ms_mean: None,
            draw_ms_max: None,
            draw_nonfinite_frames: None,
        }
    }

    /// The pacing the lane's loop ran under.
    pub(crate) fn add_pacing(&mut self, pacer: &Pacer) {
        self.pacing = pacer.pacing().to_string();
        self.render_interval_ms = pacer.interval_ns().map(|ns| ns as f64 / 1e6);
        self.missed_intervals = pacer.missed();
    }

    /// `--draw`'s figures: the time to draw each frame (of every lane together, with several)
    /// and how many of this lane's frames held a non-finite position.
    pub(crate) fn add_drawing(&mut self, offscreen: &Offscreen, index: usize) {
        let (mean, max) = offscreen.draw_ms();
        self.draw_ms_mean = Some(mean);
        self.draw_ms_max = Some(max);
        self.draw_nonfinite_frames = Some(offscreen.nonfinite_frames(index));
    }
}

/// A lane's loop, as its report states it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyReport {
    /// All of it in one line.
    pub summary: String,
    pub tick_s: f64,
    pub timer: String,
    pub step_rule: String,
    /// The clamp, s (null: none), and whether it limits a frame's delta or the accumulator.
    pub clamp_s: Option<f64>,
    pub clamp_on: &'static str,
    /// The step cap (null: none); whole ticks past it are dropped.
    pub max_steps: Option<u32>,
    /// Glaiel's resync, with his snapping timer: an accumulator past this many frames (refresh
    /// periods) is emptied (null: never).
    pub resync_over_frames: Option<u32>,
    /// MonoGame: a frame waits until a whole tick is due.
    pub waits_for_tick: bool,
    /// "latest" or "blend".
    pub shows: &'static str,
    /// The longest integration step, s (null: the tick is integrated whole), and how many a
    /// tick takes.
    pub max_substep_s: Option<f64>,
    pub substeps_per_tick: u64,
    /// The engine source (file and version) a preset follows (null for the textbook modes).
    pub source: Option<&'static str>,
}

impl PolicyReport {
    pub fn new(p: &Policy) -> PolicyReport {
        let s = seconds;
        let t = &p.timing;
        PolicyReport {
            summary: p.to_string(),
            tick_s: s(t.dt_ns),
            timer: p.timer.to_string(),
            step_rule: p.rule_name(),
            clamp_s: t.clamp().map(s),
            clamp_on: match t.clamp_on {
                ClampOn::Delta => "delta",
                ClampOn::Accumulator => "accumulator",
            },
            max_steps: t.cap(),
            resync_over_frames: (p.timer == crate::timing::TimerKind::Snap).then_some(8),
            waits_for_tick: t.wait_for_tick,
            shows: if p.mode.blends() { "blend" } else { "latest" },
            max_substep_s: p.max_substep_ns.map(s),
            substeps_per_tick: p.substeps_per_tick(),
            source: p.preset.map(|preset| preset.source()),
        }
    }
}
