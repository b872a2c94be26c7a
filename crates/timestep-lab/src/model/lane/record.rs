//! What a lane records of its presented frames: smoothness and steps ([`Metrics`]), MonitorSim's
//! per-vblank counters ([`Vblanks`]), input latency ([`Latency`]), and when this frame's steps
//! began.

use super::{Judder, Latency, Metrics, Vblanks};
use crate::util::fast;
use timestep_loop::{Loop, Mode, Policy, Step, Tick, TimerKind, snap_to_display_mode};

/// Where a presented frame landed: the vblank it was shown at and the display's period, when
/// presents wait for vblanks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vblank {
    /// The vblank's number (only differences between them matter): on a variable-refresh
    /// display, the scanout's, so an old frame scanned again is a vblank without a new one.
    pub index: u64,
    /// The refresh period, ns; on a variable-refresh display, the mean refresh cycle since
    /// the previous present (vblanks × period is the time between them).
    pub period_ns: f64,
    /// On a variable-refresh display: the shortest and longest refresh cycle since the
    /// previous present, ns.
    pub cycles_ns: Option<(u64, u64)>,
}

impl Vblank {
    /// A vblank of a display refreshing every `period_ns`.
    pub fn fixed(index: u64, period_ns: f64) -> Vblank {
        Vblank {
            index,
            period_ns,
            cycles_ns: None,
        }
    }
}

/// The steps a frame should run by `mode`'s own step rule when its time is `ticks` ticks
/// long: `variable` one (the frame is its step), `semi-fixed` the steps of at most a tick that
/// cover it (`ticks` rounded up: 16.67 → 17), an accumulator `ticks` itself (on average, its
/// frames run the whole ticks either side). Within 10⁻⁶ of a whole number counts as that
/// number, as [`Vblanks::record`] rounds.
fn due_steps(mode: Mode, ticks: f64) -> f64 {
    match mode {
        Mode::Variable => 1.0,
        Mode::SemiFixed => (ticks - 1e-6).ceil().max(1.0),
        Mode::Fixed | Mode::Interpolated => ticks,
    }
}

/// The beat the rates predict for an accumulating loop of `policy` on a display refreshing
/// every `period_ns` ([`super::vblanks::beat_s`]), told its rate is `hint_hz`, with r the ticks
/// each vblank hands it: the period ÷ its real tick (MonoGame's is 166,667 × 100 ns, not 1/60
/// s), or, for a snapping timer, what it snaps the period to ÷ tick: `snap` to whole periods of
/// the hint's whole hertz when within 0.2 ms ([`snap_to_display_mode`]), `snap-vsync` to the
/// measured refresh rounded to whole hertz (`VsyncDetector::snap_period_ns`). At 59.94 Hz a 60
/// Hz tick then fits, and its game runs 0.1% slow instead of beating.
fn predicted_beat_s(policy: &Policy, period_ns: f64, hint_hz: Option<f64>) -> Option<f64> {
    let fed_ns = match policy.timer {
        TimerKind::Snap => snap_to_display_mode(fast::round(period_ns) as u64, hint_hz) as f64,
        TimerKind::SnapVsync => (1e9 / fast::round(1e9 / period_ns)).trunc(),
        _ => period_ns,
    };
    let r = fed_ns / policy.timing.tick_ns() as f64;
    super::vblanks::beat_s(period_ns, r, policy.timing.waits_for_tick())
}

/// What a predicted beat is worked out from: the refresh period and the hint (as bits), the
/// timer, the tick and whether the loop waits for one.
#[derive(Clone, Copy, Debug, PartialEq)]
struct BeatInputs {
    period_bits: u64,
    hint_bits: Option<u64>,
    timer: TimerKind,
    tick: Tick,
    waits: bool,
}

impl BeatInputs {
    fn of(policy: &Policy, period_ns: f64, hint_hz: Option<f64>) -> BeatInputs {
        BeatInputs {
            period_bits: period_ns.to_bits(),
            hint_bits: hint_hz.map(f64::to_bits),
            timer: policy.timer,
            tick: policy.timing.tick(),
            waits: policy.timing.waits_for_tick(),
        }
    }
}

/// A lane's books of what it showed.
#[derive(Clone, Debug)]
pub struct Record {
    metrics: Metrics,
    vblanks: Vblanks,
    latency: Latency,
    /// When each of this frame's steps began (kept only when asked for), ns.
    pub(super) step_starts: Vec<u64>,
    pub(super) keep_step_starts: bool,
    pub(super) judder: Judder,
    /// The last predicted beat and what it was worked out from: on a fixed refresh the inputs
    /// never change, so it is worked out again only when they do, not on every frame.
    beat: Option<(BeatInputs, Option<f64>)>,
    /// The longest integration step (a step's substep) taken, ns.
    longest_substep_ns: u64,
    /// The longest step the lane's integrator can take on its rope, s (infinite: unknown).
    pub(super) stable_below_s: f64,
    /// Integration steps (substeps) taken, and those longer than `stable_below_s`.
    substeps: u64,
    unstable_substeps: u64,
    /// Frames advanced, and those that dropped time (the clamp, the step cap, a resync, a slow
    /// fuzzy window), whether shown or not.
    advanced_frames: u64,
    dropping_frames: u64,
    /// Steps taken since the last presented frame: a frame never shown hands its steps on to
    /// the next one shown, whose picture jumps by all of them.
    unshown_steps: u64,
}

impl Default for Record {
    fn default() -> Self {
        Record {
            metrics: Metrics::default(),
            vblanks: Vblanks::default(),
            latency: Latency::default(),
            step_starts: Vec::new(),
            keep_step_starts: false,
            judder: Judder::default(),
            beat: None,
            longest_substep_ns: 0,
            stable_below_s: f64::INFINITY,
            substeps: 0,
            unstable_substeps: 0,
            advanced_frames: 0,
            dropping_frames: 0,
            unshown_steps: 0,
        }
    }
}

impl Record {
    /// The frame `looped` just ran, whose input was sampled at `input_ns`, became visible at
    /// `present_ns` (at `vblank`, when presents wait for vblanks).
    pub fn presented(
        &mut self,
        looped: &Loop,
        present_ns: u64,
        vblank: Option<Vblank>,
        input_ns: u64,
    ) {
        let last = looped.last_frame();
        // The steps this picture shows: its frame's and those of frames never shown before it.
        let steps = u32::try_from(std::mem::take(&mut self.unshown_steps)).unwrap_or(u32::MAX);
        self.metrics.push(present_ns, last.shown_ns, steps);
        self.judder.frame(last.shown_ns, present_ns);
        let behind = looped.stepper().sim_ns().saturating_sub(last.shown_ns);
        self.latency.frame(input_ns, last.steps, present_ns, behind);
        let tick = looped.policy().timing.tick_ns() as f64;
        let (index, span, expected) = match vblank {
            Some(v) => {
                let span = self.vblanks.span_to(v.index);
                self.vblanks.refresh(v, span);
                (Some(v.index), span, span as f64 * v.period_ns / tick)
            }
            None => (None, 1, last.measured_ns as f64 / tick),
        };
        self.vblanks.due(due_steps(looped.mode(), expected), span);
        // A loop that steps the frame time itself (variable, semi-fixed) has no tick to fall
        // out of rhythm with; a variable refresh has no beat.
        let expected = if looped.mode().accumulates() {
            if let Some(v) = vblank.filter(|v| v.cycles_ns.is_none()) {
                let beat = self.predicted_beat_s(looped, v.period_ns);
                self.vblanks.set_beat(v.period_ns, beat);
            }
            expected
        } else {
            f64::from(steps)
        };
        self.vblanks.record(index, steps, expected);
    }

    /// [`predicted_beat_s`] for `looped` at `period_ns`, worked out again only when its inputs
    /// changed.
    fn predicted_beat_s(&mut self, looped: &Loop, period_ns: f64) -> Option<f64> {
        let hint = looped.vsync().hint_hz();
        let inputs = BeatInputs::of(looped.policy(), period_ns, hint);
        match self.beat {
            Some((was, beat)) if was == inputs => beat,
            _ => {
                let beat = predicted_beat_s(looped.policy(), period_ns, hint);
                self.beat = Some((inputs, beat));
                beat
            }
        }
    }

    /// The time since the last present was the host's own: the next present starts the
    /// vblank count afresh (the vblanks in between were no frame's to show).
    pub fn after_gap(&mut self) {
        self.vblanks.forget_last();
    }

    /// `count` steps the loop handed out in a row: their substep may be the longest yet, and
    /// longer than the stability bound.
    pub(super) fn stepped(&mut self, step: Step, count: u64) {
        let substeps = step.substeps.max(1);
        // Most steps are whole (textbook modes never substep): no division for them.
        let substep = if substeps == 1 {
            step.dt_ns
        } else {
            step.dt_ns.div_ceil(substeps)
        };
        self.longest_substep_ns = self.longest_substep_ns.max(substep);
        let taken = count * substeps;
        self.substeps += taken;
        if substep as f64 * 1e-9 > self.stable_below_s {
            self.unstable_substeps += taken;
        }
    }

    /// The longest integration step taken, ns.
    pub fn longest_substep_ns(&self) -> u64 {
        self.longest_substep_ns
    }
    /// Integration steps (substeps) taken.
    pub fn substeps(&self) -> u64 {
        self.substeps
    }
    /// Integration steps longer than the integrator's stability bound on the lane's rope (0
    /// where the bound is unknown).
    pub fn unstable_substeps(&self) -> u64 {
        self.unstable_substeps
    }
    /// A frame the loop finished in `steps` steps, `dropped_ns` of whose time was dropped.
    pub(super) fn advanced(&mut self, steps: u32, dropped_ns: u64) {
        self.advanced_frames += 1;
        self.unshown_steps = self.unshown_steps.saturating_add(u64::from(steps));
        self.dropping_frames += u64::from(dropped_ns > 0);
    }
    /// Frames the loop advanced (shown or not).
    pub fn advanced_frames(&self) -> u64 {
        self.advanced_frames
    }
    /// Frames advanced that dropped time.
    pub fn dropping_frames(&self) -> u64 {
        self.dropping_frames
    }
    /// Steps taken since the last presented frame, in frames not shown (yet): with the steps
    /// the presented frames showed ([`Metrics::histogram`]), every step taken.
    pub fn unshown_steps(&self) -> u64 {
        self.unshown_steps
    }

    /// Steps, stutter and drift of the presented frames.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }
    /// MonitorSim's per-vblank counters and the beat.
    pub fn vblanks(&self) -> &Vblanks {
        &self.vblanks
    }
    /// The driven end's judder so far.
    pub fn judder(&self) -> &Judder {
        &self.judder
    }
    /// Input latency so far.
    pub fn latency(&self) -> &Latency {
        &self.latency
    }
    /// When each of the last frame's steps began, where kept, ns.
    pub fn step_starts(&self) -> &[u64] {
        &self.step_starts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use timestep_loop::{LoopSpec, PolicyEnv};

    fn policy(spec: &str) -> Policy {
        let spec = LoopSpec::parse(spec).unwrap();
        spec.policy(&PolicyEnv::default()).unwrap()
    }

    /// The beat the rates predict for `spec` at `hz`, told so, s.
    fn predicted(spec: &str, hz: f64) -> Option<f64> {
        predicted_beat_s(&policy(spec), 1e9 / hz, Some(hz))
    }

    #[test]
    fn the_beat_is_predicted_from_the_time_the_loop_is_handed_and_its_real_tick() {
        // A plain 60 Hz tick (the default env) at 59.94 Hz: 1.001 ticks a vblank, a tick more every 16.7 s.
        let at = |s: Option<f64>| s.map(|s| (s * 10.0).round() / 10.0);
        assert_eq!(at(predicted("fixed", 59.94)), Some(16.7));
        // MonoGame's tick is 166,667 × 100 ns, not 1/60 s: at 60 Hz a tick less every
        // 8,333 s, true and longer than any default run.
        assert_eq!(at(predicted("monogame", 60.0)), Some(8333.3));
        // It waits for a whole tick: with a tick longer than the refresh (119.88 Hz) every
        // frame runs one, so no frame runs a tick more or less.
        assert_eq!(predicted("monogame", 119.88), None);
        assert_eq!(at(predicted("monogame", 59.94)), Some(16.7));
        // Glaiel's timer snaps 59.94 Hz to 1/60 s: its tick fits, and its game runs slow.
        assert_eq!(predicted("glaiel", 59.94), None);
        assert_eq!(predicted("fixed+snap", 59.94), None);
        assert_eq!(predicted("fixed+snap-vsync", 59.94), None);
        assert_eq!(predicted("glaiel", 60.0), None);
        // Told nothing, it snaps to 60 Hz: a 50 Hz display's frames are not near, and beat.
        let at_50 = predicted_beat_s(&policy("glaiel"), 2e7, None);
        assert_eq!(at(at_50), Some(0.1));
    }

    #[test]
    fn a_frame_is_due_the_steps_of_its_lanes_own_rule() {
        assert_eq!(due_steps(Mode::Variable, 16.67), 1.0);
        assert_eq!(due_steps(Mode::SemiFixed, 50.0 / 3.0), 17.0);
        assert_eq!(due_steps(Mode::SemiFixed, 2.000_000_1), 2.0);
        assert_eq!(due_steps(Mode::SemiFixed, 0.5), 1.0);
        assert_eq!(due_steps(Mode::Fixed, 0.5), 0.5);
    }
}
