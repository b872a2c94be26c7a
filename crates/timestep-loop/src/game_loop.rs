//! A [`Loop`]: everything that decides when a game's simulation steps, without the simulation.
//! A frame's measured time goes through the loop's timer (and the vsync detector the timer may
//! rely on), then its stepper, which hands out the steps to integrate, each with the substeps
//! its policy asks for.

use crate::config::ConfigError;
use crate::mode::Mode;
use crate::policy::{Policy, PolicyEnv, substeps};
use crate::spec::LoopSpec;
use crate::stepper::{FrameStats, Step, StepRun, Stepper};
use crate::timer::{Timer, TimerKind};
use crate::vsync::VsyncDetector;

/// A game loop's timing: a spec, its resolved policy, the timer, the vsync detector and the
/// stepper.
///
/// Push style, a closure per step:
/// ```
/// use timestep_loop::{Loop, LoopSpec, PolicyEnv, Preset};
/// let mut lp = Loop::new(LoopSpec::preset(Preset::Unity), &PolicyEnv::default())?;
/// let mut ticks = 0;
/// let frame = lp.advance(45_000_000, |step| {
///     assert_eq!(step.dt_ns, 20_000_000); // Unity's 50 Hz FixedUpdate
///     ticks += 1;
/// });
/// assert_eq!((ticks, frame.steps), (2, 2));
/// # Ok::<(), timestep_loop::ConfigError>(())
/// ```
///
/// Pull style, as bevy_time's `expend` in a `while` loop:
/// ```
/// use timestep_loop::{Loop, LoopSpec, Mode, PolicyEnv};
/// let mut lp = Loop::new(LoopSpec::mode(Mode::Interpolated), &PolicyEnv::default())?;
/// lp.begin_frame(2_500_000); // 2.5 ms at the default 1 ms tick
/// let mut dts = Vec::new();
/// while let Some(step) = lp.next_step() {
///     dts.push(step.dt_ns);
/// }
/// assert_eq!(dts, [1_000_000, 1_000_000]);
/// assert_eq!(lp.last_frame().alpha, 0.5); // draw previous.lerp(current, 0.5)
/// # Ok::<(), timestep_loop::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Loop {
    spec: LoopSpec,
    env: PolicyEnv,
    policy: Policy,
    timer: Timer,
    vsync: VsyncDetector,
    stepper: Stepper,
}

impl Loop {
    /// The loop `spec` names, in `env`.
    pub fn new(spec: LoopSpec, env: &PolicyEnv) -> Result<Loop, ConfigError> {
        let policy = spec.policy(env)?;
        Ok(Loop {
            stepper: Stepper::new(policy.timing, policy.mode),
            timer: Timer::new(policy.timer, policy.timing.tick_ns(), env.vsync_requested),
            vsync: VsyncDetector::new(env.refresh_hint_hz),
            spec,
            env: *env,
            policy,
        })
    }

    /// Changes the loop's spec. The clock carries on when the new policy steps with the same
    /// settings (a mode change); otherwise the stepper starts afresh. The timer starts afresh
    /// when it changes.
    pub fn respec(&mut self, spec: LoopSpec) -> Result<(), ConfigError> {
        let policy = spec.policy(&self.env)?;
        if policy.timing == self.policy.timing {
            self.stepper.set_mode(policy.mode);
        } else {
            self.stepper = Stepper::new(policy.timing, policy.mode);
        }
        let tick = policy.timing.tick_ns();
        if policy.timer != self.policy.timer || tick != self.policy.timing.tick_ns() {
            self.timer = Timer::new(policy.timer, tick, self.env.vsync_requested);
        }
        self.spec = spec;
        self.policy = policy;
        Ok(())
    }

    /// Switches to the textbook `mode` (a preset loop becomes that mode), keeping the timer.
    pub fn set_mode(&mut self, mode: Mode) -> Result<(), ConfigError> {
        self.respec(self.spec.as_mode(mode))
    }

    /// Switches the timer; the base's own timer is named by the base alone (`fixed`, not
    /// `fixed+raw`).
    pub fn set_timer(&mut self, timer: TimerKind) -> Result<(), ConfigError> {
        let own = self.spec.with_timer(None).policy(&self.env)?.timer;
        self.respec(self.spec.with_timer((timer != own).then_some(timer)))
    }

    /// The display's nominal rate as the loop can know it: the vsync detector starts again
    /// from it.
    pub fn set_refresh_hint(&mut self, hz: Option<f64>) {
        self.env.refresh_hint_hz = hz;
        self.vsync = VsyncDetector::new(hz);
    }

    /// How long to wait before running a frame of `frame_ns` (MonoGame's rule: not before a
    /// whole tick is due); 0 for every other loop.
    pub fn due_in_ns(&self, frame_ns: u64) -> u64 {
        self.stepper.due_in_ns(frame_ns)
    }

    /// One frame of `frame_ns` measured time, calling `step` for every step in order (push
    /// style). Returns what the frame did.
    pub fn advance(&mut self, frame_ns: u64, mut step: impl FnMut(Step)) -> FrameStats {
        self.begin_frame(frame_ns);
        while let Some(s) = self.next_step() {
            step(s);
        }
        *self.stepper.last_frame()
    }

    /// Starts a frame of `frame_ns` measured time (pull style): the timer filters it, then
    /// [`Loop::next_step`] hands out its steps.
    pub fn begin_frame(&mut self, frame_ns: u64) {
        self.vsync.observe(frame_ns);
        let filtered = self.timer.filter(frame_ns, &self.vsync);
        self.stepper
            .set_resync(self.timer.resync_over_ns(&self.vsync));
        self.stepper.begin_frame(filtered);
    }

    /// The frame's next step, with its substeps (equal ones no longer than the policy's
    /// longest); `None` once the frame has none left.
    pub fn next_step(&mut self) -> Option<Step> {
        let max = self.policy.max_substep_ns;
        self.stepper.next_step().map(|s| Step {
            substeps: substeps(s.dt_ns, max),
            ..s
        })
    }

    /// The frame's next steps that are alike (a fixed frame's ticks come as one run), with
    /// their substeps; `None` once the frame has none left.
    pub fn next_run(&mut self) -> Option<StepRun> {
        let max = self.policy.max_substep_ns;
        self.stepper.next_run().map(|r| StepRun {
            step: Step {
                substeps: substeps(r.step.dt_ns, max),
                ..r.step
            },
            ..r
        })
    }

    /// Takes the frame's remaining steps without handing them out (to keep time with nothing
    /// to step), and finishes it.
    pub fn finish_frame(&mut self) -> &FrameStats {
        self.stepper.finish_frame()
    }

    /// What the last finished frame did: steps, alpha, the time shown.
    pub fn last_frame(&self) -> &FrameStats {
        self.stepper.last_frame()
    }

    /// The loop as named.
    pub fn spec(&self) -> LoopSpec {
        self.spec
    }
    /// Its resolved rules.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }
    /// The surroundings it was built for.
    pub fn env(&self) -> &PolicyEnv {
        &self.env
    }
    /// The stepping mode now.
    pub fn mode(&self) -> Mode {
        self.stepper.mode()
    }
    /// The timer in use.
    pub fn timer(&self) -> TimerKind {
        self.timer.kind()
    }
    /// What the frame times say about vsync.
    pub fn vsync(&self) -> &VsyncDetector {
        &self.vsync
    }
    /// The stepper, with its books.
    pub fn stepper(&self) -> &Stepper {
        &self.stepper
    }

    /// Shown simulation time − measured time handed in so far, ms: negative when the picture
    /// lags real time (a fixed step's remainder, interpolation's one step, or time the clamp
    /// dropped).
    pub fn drift_ms(&self) -> f64 {
        let shown = self.stepper.last_frame().shown_ns as f64;
        (shown - self.stepper.measured_ns() as f64) * 1e-6
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;

    const MS: u64 = 1_000_000;

    #[test]
    fn t_cycles_the_timer_and_the_bases_own_timer_is_not_named() -> Result<(), ConfigError> {
        let env = PolicyEnv::default();
        let mut l = Loop::new(LoopSpec::mode(Mode::Fixed), &env)?;
        let mut names = Vec::new();
        for _ in 0..3 {
            l.set_timer(l.timer().next())?;
            names.push(l.spec().to_string());
        }
        assert_eq!(names, ["fixed+snap", "fixed+smooth", "fixed"]);
        let mut godot = Loop::new(LoopSpec::preset(Preset::Godot), &env)?;
        godot.set_timer(TimerKind::Raw)?;
        assert_eq!(godot.spec().to_string(), "godot+raw");
        godot.set_timer(TimerKind::Smooth)?;
        assert_eq!(
            godot.spec().to_string(),
            "godot",
            "Godot's own timer is its smoother"
        );
        Ok(())
    }

    #[test]
    fn a_mode_change_keeps_the_clock_and_a_preset_change_restarts_it() -> Result<(), ConfigError> {
        let env = PolicyEnv::default();
        let mut l = Loop::new(LoopSpec::mode(Mode::Fixed), &env)?;
        l.advance(25 * MS / 10, |_| {});
        l.set_mode(Mode::Interpolated)?;
        assert_eq!(l.stepper().sim_ns(), 2 * MS);
        l.respec(LoopSpec::preset(Preset::Bevy))?;
        assert_eq!(l.stepper().sim_ns(), 0);
        Ok(())
    }

    #[test]
    fn steps_carry_the_policys_substeps() -> Result<(), ConfigError> {
        // Bevy's 15.625 ms tick in substeps of at most 1 ms: 16 of them.
        let env = PolicyEnv {
            max_substep: crate::MaxSubstep::Set(MS),
            ..PolicyEnv::default()
        };
        let mut bevy = Loop::new(LoopSpec::preset(Preset::Bevy), &env)?;
        let mut seen = Vec::new();
        bevy.advance(40 * MS, |s| seen.push((s.dt_ns, s.substeps)));
        assert_eq!(seen, [(15_625_000, 16), (15_625_000, 16)]);
        Ok(())
    }
}
