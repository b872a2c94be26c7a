//! One lane's report: what it did and how its loop is built, every figure measured — on the
//! simulated clock in `simulate` and `sweep`, on the window's own clock in the window.

use super::{JudderStats, Lane, LatencyStats, RefreshInterval, StepsPerFrame, Vblanks, World};
use crate::model::rope::Integrator;
use crate::util::fast::{millis_f, millis_signed};
use serde::{Serialize, Serializer};
use timestep_loop::{
    ClampOn, Loop, Mode, Pacer, Pacing, Policy, SNAP_FRAMES, VsyncDetector, millis, seconds,
};

/// Writes a typed value (a mode, pacing, timer, integrator) as its name, as the command line
/// takes it: the one place a report's typed field becomes text.
pub fn as_text<T: std::fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// What one lane did, every figure measured (on the simulated clock in `simulate`, on the
/// window's own clock in the window). Built in one go by [`LaneReport::new`]; its groups are
/// flattened, so the JSON object and a sweep's CSV row have the same flat fields. Its fields
/// are typed; they become text only as it is serialised ([`as_text`], [`PolicyReport`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneReport {
    /// The lane's name: its loop and options as they would be typed (`NAME[+OPTION...]`).
    pub lane: String,
    /// The loop's mode: `variable`, `semi-fixed`, `fixed` or `interpolated`.
    #[serde(serialize_with = "as_text")]
    pub mode: Mode,
    /// Whether the lane held: "ok", "exploded" or "fallen behind" ([`LaneState`]).
    #[serde(serialize_with = "as_text")]
    pub state: LaneState,
    /// What the presented frames showed.
    #[serde(flatten)]
    pub shown: ShownReport,
    /// The loop's books: time measured, consumed, dropped and left over, ns.
    #[serde(flatten)]
    pub books: Books,
    /// What a `display` timer did with present feedback (null for the other timers).
    #[serde(flatten)]
    pub display: DisplayReport,
    /// The lane's loop: tick, timer, rules, and the source a preset follows (written as its
    /// [`PolicyReport`]).
    #[serde(serialize_with = "PolicyReport::write")]
    pub policy: Policy,
    /// Whether presents are paced by a vsync, and the refresh rate measured.
    #[serde(flatten)]
    pub vsync: VsyncReport,
    /// The per-vblank counters (MonitorSim's) and the beat.
    #[serde(flatten)]
    pub vblanks: VblankReport,
    /// From the moment a frame samples input to the present that first shows its effect
    /// (a blending lane's lag behind its newest state counted), ms; null if nothing was shown.
    pub latency_ms: Option<LatencyStats>,
    /// How the loop paced its frames.
    #[serde(flatten)]
    pub pacing: PacingReport,
    /// The rope's figures; absent for a lane that measured timing only.
    #[serde(flatten)]
    pub physics: Option<PhysicsReport>,
    /// What drawing the lane off-screen cost; None when the run did not draw.
    #[serde(flatten)]
    pub drawing: Option<DrawReport>,
    /// On a replayed capture, why this lane's loop ran open loop: its own rule would have
    /// moved when frames start, which a capture fixes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_loop: Option<&'static str>,
    /// The process's peak resident memory so far (Linux: VmHWM), KiB; null where unknown.
    pub peak_rss_kib: Option<u64>,
}

/// What became of a lane, as docs/REFERENCE.md defines it: a lane that did not hold (any
/// state but ok) is never called best, whatever its other figures say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneState {
    /// None of the others.
    Ok,
    /// The rope diverged at least once (measured: only a lane with a rope can explode).
    Exploded,
    /// A lane run without a rope (`sweep` without `--physics`) took more than
    /// [`UNSTABLE_PERCENT`]% of its integration steps longer than its integrator's stable step
    /// on this rope. Whether the rope would explode is not known: `--physics` measures it.
    UnstableStep,
    /// Simulated time fell behind the wall: more than [`BEHIND_PERCENT`]% of the frames the loop
    /// ran (shown or not) dropped time (the clamp, the step cap, a resync): slow motion, or the
    /// spiral of death.
    FallenBehind,
}

/// The share of frames, in percent, that may drop time before a lane has fallen behind (one
/// stall in a minute's run drops time in one frame of thousands).
pub const BEHIND_PERCENT: u64 = 1;

/// The share of integration steps, in percent, that may be longer than the stable step before a
/// lane without a rope is marked [`LaneState::UnstableStep`]: a lone stall, or jitter that
/// now and then crosses the bound, is not sustained (docs/REFERENCE.md compares the rule with
/// the rope's measured explosions).
pub const UNSTABLE_PERCENT: u64 = 10;

impl LaneState {
    /// The state of `lane`: exploded (or unstable step) first, then fallen behind.
    fn of(lane: &Lane) -> LaneState {
        let record = lane.record();
        let frames = record.advanced_frames();
        let unstable = record.unstable_substeps() * 100 > record.substeps() * UNSTABLE_PERCENT;
        match lane.world() {
            Some(world) if world.watch_state().explosions() > 0 => LaneState::Exploded,
            None if unstable => LaneState::UnstableStep,
            _ if record.dropping_frames() * 100 > frames * BEHIND_PERCENT => {
                LaneState::FallenBehind
            }
            _ => LaneState::Ok,
        }
    }

    /// Whether the lane held (ok).
    pub fn is_ok(self) -> bool {
        self == LaneState::Ok
    }

    /// As the JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            LaneState::Ok => "ok",
            LaneState::Exploded => "exploded",
            LaneState::UnstableStep => "unstable step",
            LaneState::FallenBehind => "fallen behind",
        }
    }
}

impl std::fmt::Display for LaneState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the presented frames showed (see `lane::Metrics`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownReport {
    /// Presented frames.
    pub frames: u64,
    /// Ticks (simulation steps) taken, in all.
    pub steps: u64,
    /// Simulation time advanced.
    pub sim_time_s: f64,
    /// The sum of measured frame times, before the timer.
    pub wall_time_s: f64,
    /// (S_last − S_1) − (P_last − P_1): shown simulation time against presented wall time,
    /// from frame 1 (frame 0 has no frame time).
    pub drift_ms: f64,
    /// Time lost to the clamp, the step cap, a resync, or thrown away by the timer.
    pub dropped_ms: f64,
    /// Of `dropped_ms`, what the timer threw away before the stepper saw it (Glaiel's
    /// extra-slow frames and snaps).
    pub discarded_by_timer_ms: f64,
    /// Frames that dropped time (shown or not).
    pub dropping_frames: u64,
    /// The longest integration step taken (a step's substep), s.
    pub longest_step_s: f64,
    /// Integration steps taken (substeps, where a tick is integrated in parts).
    pub integration_steps: u64,
    /// Integration steps longer than the integrator's stability bound on the rope.
    pub unstable_steps: u64,
    /// Root mean square of the per-frame stutter, (S_i − S_{i−1}) − (P_i − P_{i−1}), ms.
    pub stutter_rms_ms: f64,
    /// The largest per-frame stutter, in either direction, ms.
    pub stutter_max_ms: f64,
    /// With a drive: how far the driven end is shown from where steady motion would put it,
    /// pixels at the window's default scale (rms and max); null without a drive.
    pub judder_px: Option<JudderStats>,
    /// Least, mean and most steps per presented frame (a frame never shown hands its steps on
    /// to the next one shown).
    pub steps_per_frame: StepsPerFrame,
    /// Presented frames per number of steps they show, e.g. {"16": 310, "17": 290}.
    pub steps_histogram: std::collections::BTreeMap<u32, u64>,
    /// Steps taken after the last presented frame, in frames never shown: with the
    /// histogram's, every step (`steps`).
    pub steps_after_last_shown: u64,
    /// Game time kept over measured time ([`Books::game_speed`]): 1 keeps time, below 1 is
    /// slow motion (the clamp, the cap, a resync or a slow fuzzy window dropped time).
    pub game_speed: f64,
}

/// The loop's books (timer and stepper), in whole nanoseconds: measured + invented = consumed +
/// dropped + remainder. `dropped_ns` counts the clamp, the cap, resyncs and slow fuzzy windows
/// and what the timer threw away (`discarded_by_timer_ns`, of it). The remainder is the
/// accumulator and what the timer holds; it can be negative under Godot's jitter fix, which
/// carries a deficit. Under a rate's tick the crate keeps these exactly in fractions of a ns;
/// here each is rounded down and the remainder is what balances them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Books {
    /// Wall time the clock measured, ns.
    pub measured_ns: u64,
    /// Simulation time the stepper took steps of, ns.
    pub consumed_ns: u64,
    /// Time dropped, ns (the timer's discards included).
    pub dropped_ns: u64,
    /// Of `dropped_ns`, what the timer threw away before the stepper saw it, ns.
    pub discarded_by_timer_ns: u64,
    /// Time the timer added that the clock did not measure (a snap up, a fuzzy window), ns.
    pub invented_ns: u64,
    /// What the accumulator and the timer hold at the end, ns; negative under a carried deficit.
    pub remainder_ns: i64,
}

/// What a `display` timer did with present feedback; every field null for the other timers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct DisplayReport {
    /// Frames the loop ran (shown or not).
    pub frames_run: Option<u64>,
    /// Of those, frames whose time was handed on from predicted display times (the rest: as
    /// measured).
    pub predicted_frames: Option<u64>,
    /// Time handed on from predictions, ms.
    pub predicted_ms: Option<f64>,
    /// Frames present feedback came for (shown or discarded).
    pub feedback_frames: Option<u64>,
    /// Of those, frames the display discarded.
    pub discarded_frames: Option<u64>,
    /// How far predictions were from the display times feedback then brought, summed, ms:
    /// what feedback corrected.
    pub corrected_ms: Option<f64>,
    /// Predictions off by half a refresh period or more (a frame shown a vblank early or
    /// late).
    pub missed_predictions: Option<u64>,
}

impl DisplayReport {
    fn new(looped: &Loop) -> Self {
        let Some(b) = looped.display_books() else {
            return DisplayReport::default();
        };
        DisplayReport {
            frames_run: Some(looped.frame().map_or(0, |f| f + 1)),
            predicted_frames: Some(b.predicted_frames),
            predicted_ms: Some(millis(b.predicted_ns)),
            feedback_frames: Some(b.feedback),
            discarded_frames: Some(b.discarded),
            corrected_ms: Some(millis(b.corrected_ns)),
            missed_predictions: Some(b.missed),
        }
    }
}

/// Whether the frame times say presents are paced by a vsync (at the end of the run), the
/// refresh rate measured while they were, and when that was first detected.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VsyncReport {
    /// Whether presents are paced by a vsync at the end of the run.
    pub vsync_detected: bool,
    /// The refresh rate measured while they were, Hz; null if never.
    pub refresh_estimate_hz: Option<f64>,
    /// Wall time at which the vsync was first detected, s; null if never.
    pub detected_after_s: Option<f64>,
}

/// MonitorSim's counters (see `lane::Vblanks`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VblankReport {
    /// The steps (ticks) one vblank should hold by the lane's own rule, on average: refresh
    /// period ÷ tick for an accumulator, that rounded up for semi-fixed, one a frame for
    /// variable (null: no frame counted).
    pub ticks_per_vblank: Option<f64>,
    /// Frames that ran 2 ticks or more, and frames whose ticks fell outside floor/ceil of
    /// those due; null (n/a) where a vblank should hold 2 ticks or more
    /// ([`super::vblanks::TICK_COUNTERS_BELOW`]), since every frame then runs several by
    /// design.
    pub double_updates: Option<u64>,
    /// Frames whose ticks fell outside floor/ceil of those due; null where `double_updates` is.
    pub irregular_frames: Option<u64>,
    /// Vblanks that showed no new frame.
    pub skipped_vblanks: u64,
    /// Presented frames that ran no tick (a repeated picture).
    pub zero_step_frames: u64,
    /// The most ticks any one vblank's new frame ran.
    pub max_steps_per_vblank: u32,
    /// Ticks per vblank for the last 240 vblanks.
    pub pattern: String,
    /// Frames whose tick count was not the nearest whole number to refresh period ÷ tick.
    pub off_beat_frames: u64,
    /// For a fixed tick on a vsynced display: the time between off-beat frames predicted from
    /// the refresh and tick rates alone, and the one measured, s (null: no beat).
    pub beat_period_predicted_s: Option<f64>,
    /// The time between off-beat frames as measured, s (null: no beat).
    pub beat_period_measured_s: Option<f64>,
    /// The time between vblanks (scanouts, on a variable-refresh display), ms: min, mean and
    /// max; null without vsync.
    pub refresh_interval_ms: Option<RefreshInterval>,
}

/// The loop's pacing, its render interval at the end (adaptive; the period of a cap or of
/// late pacing; null under vsync), and how many frames overran it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PacingReport {
    /// The pacing: `vsync`, `cap:HZ`, `hold:HZ`, `adaptive` or `late`.
    #[serde(serialize_with = "as_text")]
    pub pacing: Pacing,
    /// The render interval at the end, ms (null under vsync).
    pub render_interval_ms: Option<f64>,
    /// Frames whose work ran past the interval or the next deadline.
    pub missed_intervals: u64,
    /// On a simulated machine: the CPU time its waits spent spinning (`--sleep spin`), ms;
    /// null where not measured.
    pub spin_cpu_ms: Option<f64>,
}

/// The rope's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhysicsReport {
    /// The rope's total energy at the start, J.
    pub energy_start_j: f64,
    /// The rope's total energy at the end of the run, J.
    pub energy_end_j: f64,
    /// The longest spring length / rest length seen, across resets.
    pub max_stretch: f64,
    /// Whether the rope diverged at any time.
    pub exploded: bool,
    /// Wall time at which the rope first diverged.
    pub exploded_at_s: Option<f64>,
    /// How many times it diverged (an exploded rope is reset after 2 s).
    pub explosions: u64,
    /// Whether the rope is exploded at the end of the run.
    pub exploded_at_end: bool,
    /// The integrator the rope stepped with at the end (`euler` or `rk4`).
    #[serde(serialize_with = "as_text")]
    pub integrator: Integrator,
    /// The longest step the integrator can take on this rope without diverging, s.
    pub stable_below_s: f64,
    /// FNV-1a of the final positions' and velocities' bits, hex.
    pub state_hash: String,
}

/// Off-screen drawing's figures: the real time one frame took to draw (mean and max, ms;
/// every lane together, with several) and the frames of this lane whose positions held a NaN
/// or infinity (checked before drawing; must be 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DrawReport {
    /// Mean real time to draw one frame off screen, ms.
    pub draw_ms_mean: f64,
    /// Longest real time to draw one frame off screen, ms.
    pub draw_ms_max: f64,
    /// Frames of this lane whose positions held a NaN or infinity; must be 0.
    pub draw_nonfinite_frames: u64,
}

impl LaneReport {
    /// Everything `lane` recorded, with its loop's `pacer` (a run that draws off screen adds
    /// what drawing cost, [`LaneReport::drawing`]).
    pub fn new(lane: &Lane, pacer: &Pacer) -> Self {
        let books = Books::new(lane.looped());
        LaneReport {
            lane: lane.name(),
            mode: lane.mode(),
            state: LaneState::of(lane),
            shown: ShownReport::new(lane, &books),
            books,
            display: DisplayReport::new(lane.looped()),
            policy: lane.policy().clone(),
            vsync: VsyncReport::new(lane.vsync()),
            vblanks: VblankReport::new(lane.record().vblanks()),
            latency_ms: lane.record().latency().stats(),
            pacing: PacingReport::new(pacer),
            physics: lane.world().map(PhysicsReport::new),
            drawing: None,
            open_loop: None,
            peak_rss_kib: peak_rss_kib(),
        }
    }
}

impl LaneReport {
    /// `held_ns` of measured time the host held for this lane at the end, unhanded, since its
    /// loop waits for a whole tick (MonoGame sat the last frames out): that loop keeps such
    /// time in its accumulator while it waits, so it is measured and left over in its books.
    pub fn held(&mut self, held_ns: u64) {
        let books = &mut self.books;
        books.measured_ns = books.measured_ns.saturating_add(held_ns);
        let held = i64::try_from(held_ns).unwrap_or(i64::MAX);
        books.remainder_ns = books.remainder_ns.saturating_add(held);
        self.shown.wall_time_s = seconds(books.measured_ns);
        self.shown.game_speed = books.game_speed();
    }
}

impl ShownReport {
    fn new(lane: &Lane, books: &Books) -> Self {
        let (stepper, metrics) = (lane.stepper(), lane.record().metrics());
        ShownReport {
            frames: metrics.frames(),
            steps: stepper.steps_total(),
            sim_time_s: seconds(stepper.sim_ns()),
            wall_time_s: seconds(lane.looped().measured_ns()),
            // `+ 0.0` turns -0.0 into 0.0, so a table never shows "-0.000".
            drift_ms: millis_signed(metrics.drift_ns()) + 0.0,
            dropped_ms: millis(lane.dropped_ns()),
            discarded_by_timer_ms: millis(lane.looped().discarded_by_timer_ns()),
            dropping_frames: lane.record().dropping_frames(),
            longest_step_s: seconds(lane.record().longest_substep_ns()),
            integration_steps: lane.record().substeps(),
            unstable_steps: lane.record().unstable_substeps(),
            stutter_rms_ms: millis_f(metrics.stutter_rms_ns()),
            stutter_max_ms: millis(metrics.stutter_max_ns()),
            judder_px: lane.record().judder().stats(),
            steps_per_frame: metrics.steps_per_frame(),
            steps_histogram: metrics.histogram(),
            steps_after_last_shown: lane.record().unshown_steps(),
            game_speed: books.game_speed(),
        }
    }
}

impl Books {
    fn new(looped: &Loop) -> Self {
        let b = looped.books();
        let den = u128::from(b.den.max(1));
        let ns = |units: u128| u64::try_from(units / den).unwrap_or(u64::MAX);
        let (measured_ns, consumed_ns, invented_ns) =
            (ns(b.measured), ns(b.consumed), ns(b.invented));
        let discarded_by_timer_ns = ns(b.discarded_by_timer);
        let dropped_ns = ns(b.dropped).saturating_add(discarded_by_timer_ns);
        let remainder = i128::from(measured_ns) + i128::from(invented_ns)
            - i128::from(consumed_ns)
            - i128::from(dropped_ns);
        Books {
            measured_ns,
            consumed_ns,
            dropped_ns,
            discarded_by_timer_ns,
            invented_ns,
            remainder_ns: remainder.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
        }
    }

    /// The game time kept over the time measured: (measured + invented − dropped) ÷ measured,
    /// which is (consumed + remainder) ÷ measured. What the accumulator holds at the end (less
    /// than a tick, not yet due) is kept, not lost: only dropped time slows the game, and only
    /// invented time speeds it up. 1 when nothing was measured.
    pub fn game_speed(&self) -> f64 {
        if self.measured_ns == 0 {
            return 1.0;
        }
        let kept = i128::from(self.measured_ns) + i128::from(self.invented_ns)
            - i128::from(self.dropped_ns);
        kept as f64 / self.measured_ns as f64
    }
}

impl VsyncReport {
    fn new(v: &VsyncDetector) -> Self {
        VsyncReport {
            vsync_detected: v.vsynced(),
            refresh_estimate_hz: v.refresh_hz(),
            detected_after_s: v.detected_after_ns().map(seconds),
        }
    }
}

impl VblankReport {
    fn new(v: &Vblanks) -> Self {
        let apply = v.tick_counters_apply();
        VblankReport {
            ticks_per_vblank: v.ticks_per_vblank(),
            double_updates: apply.then(|| v.double_updates()),
            irregular_frames: apply.then(|| v.irregular_frames()),
            skipped_vblanks: v.skipped_vblanks(),
            zero_step_frames: v.zero_step_frames(),
            max_steps_per_vblank: v.max_steps_per_vblank(),
            pattern: v.pattern(),
            off_beat_frames: v.off_beat_frames(),
            beat_period_predicted_s: v.predicted_beat_s(),
            beat_period_measured_s: v.measured_beat_s(),
            refresh_interval_ms: v.refresh_interval(),
        }
    }
}

impl PacingReport {
    fn new(pacer: &Pacer) -> Self {
        PacingReport {
            pacing: pacer.pacing(),
            render_interval_ms: pacer.interval_ns().map(millis),
            missed_intervals: pacer.missed(),
            spin_cpu_ms: None,
        }
    }
}

impl PhysicsReport {
    fn new(world: &World) -> Self {
        let (rope, watch) = (world.rope(), world.watch_state());
        PhysicsReport {
            energy_start_j: world.energy_start_j(),
            energy_end_j: rope.energy(),
            max_stretch: f64::from(world.max_stretch()),
            exploded: watch.explosions() > 0,
            exploded_at_s: watch.first_at_ns().map(seconds),
            explosions: watch.explosions(),
            exploded_at_end: rope.exploded(),
            integrator: world.integrator(),
            stable_below_s: rope.params().stability_limit_s(),
            state_hash: format!("{:016x}", rope.state_hash()),
        }
    }
}

/// A lane's loop, as its report's JSON states it: made from the typed [`Policy`] as the report
/// is serialised.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyReport {
    /// All of it in one line.
    pub summary: String,
    /// The tick, s.
    pub tick_s: f64,
    /// The timer: how it turns the clock's readings into frame times.
    pub timer: String,
    /// The step rule, as the report and the HUD say it (e.g. "whole ticks").
    pub step_rule: String,
    /// The clamp, s (null: none), and whether it limits a frame's delta or the accumulator.
    pub clamp_s: Option<f64>,
    /// What the clamp limits: "delta" (a frame's time) or "accumulator".
    pub clamp_on: &'static str,
    /// The step cap (null: none); whole ticks past it are dropped.
    pub max_steps: Option<u32>,
    /// Glaiel's resync, with his snapping timers: an accumulator past this many update ticks
    /// (`frame_timer.cpp` line 83) is emptied, and so is the first frame's (null: never).
    pub resync_over_frames: Option<u64>,
    /// MonoGame: a frame waits until a whole tick is due.
    pub waits_for_tick: bool,
    /// "latest" or "blend".
    pub shows: &'static str,
    /// The longest integration step, s (null: the tick is integrated whole), and how many a
    /// tick takes.
    pub max_substep_s: Option<f64>,
    /// How many integration steps one tick takes.
    pub substeps_per_tick: u64,
    /// The engine source (file and version) a preset follows (null for the textbook modes).
    pub source: Option<&'static str>,
}

impl PolicyReport {
    /// The report's statement of the loop `p`.
    pub fn new(p: &Policy) -> PolicyReport {
        let s = seconds;
        let t = &p.timing;
        PolicyReport {
            summary: p.to_string(),
            tick_s: s(t.tick_ns()),
            timer: p.timer.to_string(),
            step_rule: p.rule_name(),
            clamp_s: t.clamp_ns().map(s),
            clamp_on: match t.clamp_on() {
                ClampOn::Delta => "delta",
                ClampOn::Accumulator => "accumulator",
            },
            max_steps: t.max_steps(),
            resync_over_frames: p.timer.snaps().then_some(SNAP_FRAMES),
            waits_for_tick: t.waits_for_tick(),
            shows: if p.mode.blends() { "blend" } else { "latest" },
            max_substep_s: p.max_substep_ns.map(s),
            substeps_per_tick: p.substeps_per_tick(),
            source: p.preset.map(|preset| preset.source()),
        }
    }

    /// Writes `p` as its statement (a report's `policy`).
    fn write<S: Serializer>(p: &Policy, s: S) -> Result<S::Ok, S::Error> {
        PolicyReport::new(p).serialize(s)
    }
}

/// The process's peak resident set size, from /proc/self/status (Linux); None elsewhere.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
