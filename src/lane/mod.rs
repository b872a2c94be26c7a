//! A lane: one rope driven by one stepping policy, with its divergence watch, its reset rule
//! and what it has recorded. The window, `simulate` and (later) `sweep` all multiply lanes:
//! the window feeds several lanes the same measured frame times and the same hand; `simulate`
//! runs each lane on its own copy of the simulated display. A lane knows nothing of panes or
//! windows.

mod latency;
mod metrics;
mod spec;
mod vblanks;

pub use latency::{Latency, LatencyStats};
pub use metrics::{Metrics, StepsPerFrame};
pub use spec::{Base, LaneSpec, parse_lanes, parse_spec};
pub use vblanks::Vblanks;

use crate::policy::{Policy, PolicyEnv, substeps};
use crate::rope::{Grab, Integrator, Rope, RopeParams};
use crate::timing::{FrameStats, Mode, Step, Stepper, Timer, TimerKind, VsyncDetector};
use crate::watch::{ExplosionWatch, Watch};
use glam::Vec2;

/// Where a presented frame landed: the vblank it was shown at and the display's period, when
/// presents wait for vblanks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vblank {
    pub index: u64,
    pub period_ns: f64,
}

/// One rope, one policy, and what it recorded.
#[derive(Clone, Debug)]
pub struct Lane {
    spec: LaneSpec,
    env: PolicyEnv,
    policy: Policy,
    rope: Rope,
    timer: Timer,
    vsync: VsyncDetector,
    stepper: Stepper,
    watch: ExplosionWatch,
    /// What the divergence watch said on the last frame.
    watched: Watch,
    metrics: Metrics,
    vblanks: Vblanks,
    latency: Latency,
    /// What the last frame did (kept while paused).
    last: FrameStats,
    energy_start_j: f64,
    /// The largest stretch over every life of the rope (a reset starts a new one).
    max_stretch: f32,
    /// `--integrator`'s choice, which a lane's `+rk4` / `+euler` overrides.
    base_integrator: Integrator,
}

impl Lane {
    pub fn new(spec: LaneSpec, params: RopeParams, env: &PolicyEnv) -> Lane {
        let rope = Rope::new(RopeParams {
            integrator: spec.integrator.unwrap_or(params.integrator),
            ..params
        });
        let policy = spec.policy(env);
        Lane {
            stepper: Stepper::new(policy.timing, policy.mode),
            timer: Timer::new(policy.timer, policy.timing.dt_ns, env.vsync_requested),
            vsync: VsyncDetector::new(env.refresh_hint_hz),
            energy_start_j: rope.energy(),
            rope,
            spec,
            env: *env,
            policy,
            watch: ExplosionWatch::default(),
            watched: Watch::Fine,
            metrics: Metrics::default(),
            vblanks: Vblanks::default(),
            latency: Latency::default(),
            last: FrameStats::default(),
            max_stretch: 1.0,
            base_integrator: params.integrator,
        }
    }

    /// A lane with `spec`'s policy that starts from this lane's rope and clock, as if it had
    /// been running all along: how the window splits one rope into four.
    pub fn fork(&self, spec: LaneSpec) -> Lane {
        let mut lane = self.clone();
        lane.respec(spec);
        lane
    }

    /// Changes the lane's policy. The rope carries on; so does the clock when the new policy
    /// steps with the same settings (a mode change), else the stepper starts afresh.
    fn respec(&mut self, spec: LaneSpec) {
        let policy = spec.policy(&self.env);
        if policy.timing == self.policy.timing {
            self.stepper.set_mode(policy.mode);
        } else {
            self.stepper = Stepper::new(policy.timing, policy.mode);
        }
        if policy.timer != self.policy.timer || policy.timing.dt_ns != self.policy.timing.dt_ns {
            self.timer = Timer::new(policy.timer, policy.timing.dt_ns, self.env.vsync_requested);
        }
        let integrator = spec.integrator.unwrap_or(self.base_integrator);
        self.rope.set_integrator(integrator);
        self.spec = spec;
        self.policy = policy;
    }

    /// The integrator the rope steps with.
    pub fn integrator(&self) -> Integrator {
        self.rope.integrator()
    }

    /// Switches the integrator (the window's `I`); the rope keeps its state. `--integrator`'s
    /// own is named by the base alone (`fixed`, not `fixed+euler`).
    pub fn set_integrator(&mut self, integrator: Integrator) {
        let other = (integrator != self.base_integrator).then_some(integrator);
        self.respec(self.spec.with_integrator(other));
    }

    /// Changes the stepping mode (a preset lane becomes that textbook mode).
    pub fn set_mode(&mut self, mode: Mode) {
        self.respec(
            LaneSpec {
                base: Base::Mode(mode),
                fuzzy: self.spec.fuzzy.filter(|_| mode.accumulates()),
                ..LaneSpec::mode(mode)
            }
            .with_timer(self.spec.timer)
            .with_integrator(self.spec.integrator),
        );
    }

    /// Changes the timer (the window's `T`); the base's own timer is named by the base alone
    /// (`fixed`, not `fixed+raw`).
    pub fn set_timer(&mut self, timer: TimerKind) {
        let own = self.spec.with_timer(None).policy(&self.env).timer;
        self.respec(self.spec.with_timer((timer != own).then_some(timer)));
    }

    /// The display's nominal rate as the loop can know it: the vsync detector starts again
    /// from it.
    pub fn set_refresh_hint(&mut self, hz: Option<f64>) {
        self.env.refresh_hint_hz = hz;
        self.vsync = VsyncDetector::new(hz);
    }

    /// How long the loop should wait before running a frame of `frame_ns` (MonoGame's rule:
    /// not before a whole tick is due).
    pub fn due_in_ns(&self, frame_ns: u64) -> u64 {
        self.stepper.due_in_ns(frame_ns)
    }

    /// One frame: `frame_ns` of measured time through the policy into the rope, then the
    /// divergence watch at `now_ns` (wall time): an exploded rope is shown for a while, then
    /// reset by [`Lane::reset`].
    pub fn advance(&mut self, frame_ns: u64, now_ns: u64) -> &FrameStats {
        self.advance_noting_steps(frame_ns, now_ns, &mut || {})
    }

    /// As [`Lane::advance`], calling `before_step` as each tick begins (the window reads its
    /// clock there, to show when steps really run).
    pub fn advance_noting_steps(
        &mut self,
        frame_ns: u64,
        now_ns: u64,
        before_step: &mut dyn FnMut(),
    ) -> &FrameStats {
        self.vsync.observe(frame_ns);
        let filtered = self.timer.filter(frame_ns, &self.vsync);
        self.stepper
            .set_resync(self.timer.resync_over_ns(&self.vsync));
        let (rope, max_substep) = (&mut self.rope, self.policy.max_substep_ns);
        self.last = self.stepper.advance(filtered, |s| {
            before_step();
            integrate(rope, s, max_substep)
        });
        self.watch_divergence(now_ns);
        &self.last
    }

    /// A frame the lane was not stepped in (the window is paused): the watch's countdown
    /// holds at `now_ns` of live time and nothing else changes.
    pub fn hold(&mut self, now_ns: u64) {
        self.watch_divergence(now_ns);
    }

    fn watch_divergence(&mut self, now_ns: u64) {
        self.watched = self.watch.check(self.rope.exploded(), now_ns);
        if self.watched == Watch::ResetNow {
            self.reset();
        }
    }

    /// The one reset rule, for an explosion and for the user's R alike: the rope goes back to
    /// its starting line, at rest, and the pending explosion is forgotten. The policy's clock
    /// carries on — simulated time, the accumulator and the books — because it belongs to the
    /// loop, not to the rope: restarting it would show up as a jump in the shown time, i.e. as
    /// stutter and drift that the loop never made.
    pub fn reset(&mut self) {
        self.max_stretch = self.max_stretch.max(self.rope.max_stretch());
        self.rope.reset();
        self.watch.clear();
        self.watched = Watch::Fine;
    }

    /// The frame just advanced, whose input was sampled at `input_ns`, became visible at
    /// `present_ns` (at `vblank`, when presents wait for vblanks): record it.
    pub fn presented(&mut self, present_ns: u64, vblank: Option<Vblank>, input_ns: u64) {
        self.metrics
            .push(present_ns, self.last.shown_ns, self.last.steps);
        let behind = self.stepper.sim_ns().saturating_sub(self.last.shown_ns);
        self.latency
            .frame(input_ns, self.last.steps, present_ns, behind);
        let tick = self.policy.timing.dt_ns as f64;
        let (index, expected) = match vblank {
            Some(v) => {
                let span = self.vblanks.span_to(v.index);
                (Some(v.index), span as f64 * v.period_ns / tick)
            }
            None => (None, self.last.measured_ns as f64 / tick),
        };
        // A loop that steps the frame time itself (variable, semi-fixed) has no tick to fall
        // out of rhythm with.
        let expected = if self.policy.mode.accumulates() {
            if let Some(v) = vblank {
                self.vblanks.set_beat(v.period_ns, tick);
            }
            expected
        } else {
            f64::from(self.last.steps)
        };
        self.vblanks.record(index, self.last.steps, expected);
    }

    /// The lane's name as the user typed it (`fixed`, later `fixed+snap`, `godot`).
    pub fn name(&self) -> String {
        self.spec.to_string()
    }
    pub fn mode(&self) -> Mode {
        self.stepper.mode()
    }
    pub fn policy(&self) -> &Policy {
        &self.policy
    }
    pub fn timer(&self) -> TimerKind {
        self.timer.kind()
    }
    pub fn vsync(&self) -> &VsyncDetector {
        &self.vsync
    }
    /// Input latency so far.
    pub fn latency(&self) -> &Latency {
        &self.latency
    }

    pub fn vblanks(&self) -> &Vblanks {
        &self.vblanks
    }
    pub fn rope(&self) -> &Rope {
        &self.rope
    }
    pub fn stepper(&self) -> &Stepper {
        &self.stepper
    }
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }
    pub fn last(&self) -> &FrameStats {
        &self.last
    }
    pub fn watch(&self) -> &ExplosionWatch {
        &self.watch
    }
    /// What the divergence watch said on the last frame (an exploded rope's countdown).
    pub fn watched(&self) -> Watch {
        self.watched
    }
    pub fn energy_start_j(&self) -> f64 {
        self.energy_start_j
    }
    /// The largest spring stretch over the whole run, across resets.
    pub fn max_stretch(&self) -> f32 {
        self.max_stretch.max(self.rope.max_stretch())
    }

    /// Shown simulation time − measured time handed to the policy so far, ms: negative when
    /// the picture lags real time (a fixed step's remainder, interpolation's one step, or time
    /// the clamp dropped).
    pub fn drift_ms(&self) -> f64 {
        (self.last.shown_ns as f64 - self.stepper.measured_ns() as f64) * 1e-6
    }

    /// Holds a particle (or lets go with `None`), as the mouse does.
    pub fn set_grab(&mut self, grab: Option<Grab>) {
        self.rope.set_grab(grab);
    }

    /// The positions to show this frame (blended where the mode blends), written into `out`.
    pub fn shown<'a>(&self, out: &'a mut Vec<Vec2>) -> &'a [Vec2] {
        self.rope.shown(self.mode(), self.last.alpha, out)
    }
}

/// Integrates one of the stepper's steps: in equal substeps no longer than `max_substep_ns`
/// when it is longer. Only the first substep of a frame's last step saves the state the blend
/// starts from.
fn integrate(rope: &mut Rope, step: Step, max_substep_ns: Option<u64>) {
    let k = substeps(step.dt_ns, max_substep_ns);
    if k == 1 {
        return rope.apply(step);
    }
    let h = (step.dt_ns as f64 / k as f64 * 1e-9) as f32;
    for i in 0..k {
        rope.step(h, step.last && i == 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::watch::RESET_AFTER_NS;

    const MS: u64 = 1_000_000;

    fn lane(mode: Mode) -> Lane {
        let timing = crate::timing::TimingConfig::new(MS, 250 * MS, None).unwrap();
        Lane::new(
            LaneSpec::mode(mode),
            RopeParams::default(),
            &PolicyEnv::textbook(timing),
        )
    }

    #[test]
    fn an_exploded_rope_is_reset_after_two_seconds_and_the_clock_carries_on() {
        let mut l = lane(Mode::Variable);
        let mut now = 0;
        // 20 Hz variable steps tear the default rope apart at once.
        while !l.rope().exploded() {
            now += 50 * MS;
            l.advance(50 * MS, now);
        }
        let exploded_at = now;
        let sim_before = l.stepper().sim_ns();
        assert!(matches!(l.watched(), Watch::Exploded { .. }));
        while now < exploded_at + RESET_AFTER_NS {
            now += 50 * MS;
            l.advance(50 * MS, now);
        }
        assert!(!l.rope().exploded(), "reset 2 s after the explosion");
        assert_eq!(l.watch().explosions(), 1);
        // The loop's clock did not restart: simulated time kept counting.
        assert!(l.stepper().sim_ns() > sim_before);
        assert!(
            l.max_stretch() > 5.0,
            "the explosion's stretch is remembered"
        );
    }

    #[test]
    fn a_fork_starts_from_the_same_state_and_clock() {
        let mut a = lane(Mode::Interpolated);
        for i in 1..=30 {
            a.advance(16_666_667, i * 16_666_667);
        }
        let b = a.fork(LaneSpec::mode(Mode::Fixed));
        assert_eq!(b.rope().state_hash(), a.rope().state_hash());
        assert_eq!(b.stepper().sim_ns(), a.stepper().sim_ns());
        assert_eq!(b.mode(), Mode::Fixed);
        assert_eq!(b.name(), "fixed");
    }

    #[test]
    fn t_cycles_a_lanes_timer_and_its_own_timer_is_not_named() {
        let mut l = lane(Mode::Fixed);
        let mut names = Vec::new();
        for _ in 0..3 {
            l.set_timer(l.timer().next());
            names.push(l.name());
        }
        assert_eq!(names, ["fixed+snap", "fixed+smooth", "fixed"]);
        assert_eq!(l.timer(), TimerKind::Raw);
        let timing = crate::timing::TimingConfig::new(MS, 250 * MS, None).unwrap();
        let spec = crate::lane::parse_spec("godot").unwrap();
        let mut godot = Lane::new(spec, RopeParams::default(), &PolicyEnv::textbook(timing));
        godot.set_timer(TimerKind::Raw);
        assert_eq!(godot.name(), "godot+raw");
        godot.set_timer(TimerKind::Smooth);
        assert_eq!(godot.name(), "godot", "Godot's own timer is its smoother");
    }

    #[test]
    fn i_toggles_the_integrator_live_keeping_the_ropes_state_and_clock() {
        let mut l = lane(Mode::Variable);
        let mut now = 0;
        // 20 ms variable steps: past Euler's bound (15.07 ms), inside RK4's (21.53 ms).
        for _ in 0..10 {
            now += 20 * MS;
            l.advance(20 * MS, now);
        }
        let (hash, sim) = (l.rope().state_hash(), l.stepper().sim_ns());
        l.set_integrator(l.integrator().next());
        assert_eq!(l.integrator(), Integrator::Rk4);
        assert_eq!(l.name(), "variable+rk4");
        assert_eq!(l.rope().state_hash(), hash, "the rope keeps its state");
        assert_eq!(l.stepper().sim_ns(), sim, "and the loop its clock");
        for _ in 0..500 {
            now += 20 * MS;
            l.advance(20 * MS, now);
        }
        assert!(!l.rope().exploded(), "RK4 holds 10 s of 20 ms steps");
        l.set_integrator(l.integrator().next());
        assert_eq!(l.name(), "variable");
        while !l.rope().exploded() && now < 20 * 1_000 * MS {
            now += 20 * MS;
            l.advance(20 * MS, now);
        }
        assert!(l.rope().exploded(), "Euler at 20 ms tears it apart");
    }
}
