//! A lane: one loop (`timestep_loop::Loop`: its policy, timer, vsync detector and stepper), the
//! world it steps (a rope, with its divergence watch and reset rule; none when only timing is
//! measured), and what it recorded of its presented frames. The window, `simulate` and `sweep`
//! all multiply lanes; a lane knows nothing of panes, windows or displays.

mod judder;
mod latency;
mod metrics;
mod record;
mod report;
mod spec;
mod vblanks;
mod world;

pub use judder::{Judder, JudderStats};
pub use latency::{Latency, LatencyStats};
pub use metrics::{Metrics, StepsPerFrame};
pub use record::{Record, Vblank};
pub use report::{
    BEHIND_PERCENT, Books, DisplayReport, DrawReport, LaneReport, LaneState, PacingReport,
    PhysicsReport, PolicyReport, ShownReport, UNSTABLE_PERCENT, VblankReport, VsyncReport, as_text,
    peak_rss_kib,
};
pub use spec::{LaneError, LaneSpec, parse_lanes, parse_spec};
pub use vblanks::{RefreshInterval, TICK_COUNTERS_BELOW, Vblanks};
pub use world::World;

use crate::model::rope::{Drive, Grab, Integrator, Rope, RopeParams};
use crate::model::watch::{ExplosionWatch, Watch};
use glam::Vec2;
use timestep_loop::{
    ConfigError, FrameStats, Loop, Mode, Policy, PolicyEnv, Stepper, TimerKind, VsyncDetector,
};

/// One loop, the world it steps, and what it recorded.
#[derive(Clone, Debug)]
pub struct Lane {
    spec: LaneSpec,
    looped: Loop,
    /// The rope; `None` for a lane that measures timing only.
    world: Option<World>,
    record: Record,
}

impl Lane {
    /// A lane stepping a rope of `params` (with the lane's own integrator, if it names one).
    pub fn new(spec: LaneSpec, params: &RopeParams, env: &PolicyEnv) -> Result<Lane, ConfigError> {
        let mut lane = Lane::timing_only(spec, env)?;
        lane.world = Some(World::new(params, spec.integrator));
        lane.bound_steps(params);
        Ok(lane)
    }

    /// Measures the judder of `drive` (a lane without a rope, too: the drive is a function of
    /// time) from now on, in pixels at `px_per_m` (the hosts give the window's default view of
    /// the rope, `draw::default_px_per_m`). Until this is asked, a lane measures no judder.
    pub fn judge_drive(&mut self, drive: Drive, px_per_m: f32) {
        self.record.judder = Judder::new(drive, f64::from(px_per_m));
    }

    /// Takes the longest step the lane's integrator can take on a rope of `params` (its
    /// stability bound): a lane without a rope that often steps longer is marked unstable step.
    pub fn bound_steps(&mut self, params: &RopeParams) {
        let integrator = self.spec.integrator.unwrap_or(params.integrator);
        self.record.stable_below_s = params.stability_limit_for(integrator);
    }

    /// Drives the pin with `drive` from now on (the window's `D`), and measures its judder
    /// afresh, in pixels at `px_per_m`.
    pub fn set_drive(&mut self, drive: Drive, px_per_m: f32) {
        if let Some(world) = &mut self.world {
            world.set_drive(drive);
        }
        self.judge_drive(drive, px_per_m);
    }

    /// A lane without a rope: its loop steps, and its timing is measured, the same as with one.
    pub fn timing_only(spec: LaneSpec, env: &PolicyEnv) -> Result<Lane, ConfigError> {
        Ok(Lane {
            looped: Loop::new(spec.looped, env)?,
            spec,
            world: None,
            record: Record::default(),
        })
    }

    /// A lane with `spec`'s policy that starts from this lane's rope and clock, as if it had
    /// been running all along: how the window splits one rope into four.
    pub fn fork(&self, spec: LaneSpec) -> Result<Lane, ConfigError> {
        let mut lane = self.clone();
        lane.respec(spec)?;
        Ok(lane)
    }

    /// Changes the lane's loop and integrator. The rope carries on; so does the clock when the
    /// new policy steps with the same settings (a mode change), else the stepper starts afresh.
    /// Nothing changes if the new loop cannot be built.
    fn respec(&mut self, spec: LaneSpec) -> Result<(), ConfigError> {
        self.looped.respec(spec.looped)?;
        self.record.judder.restart_window();
        if let Some(world) = &mut self.world {
            world.set_integrator(spec.integrator);
            // The stability bound is the integrator's: steps past it are counted against it.
            let rope = world.rope();
            self.record.stable_below_s = rope.params().stability_limit_for(rope.integrator());
        }
        self.spec = spec;
        Ok(())
    }

    /// The integrator the rope steps with (None: the lane has no rope).
    pub fn integrator(&self) -> Option<Integrator> {
        self.world.as_ref().map(World::integrator)
    }

    /// Switches the integrator (the window's `I`); the rope keeps its state. The run's
    /// own is named by the base alone (`fixed`, not `fixed+euler`).
    pub fn set_integrator(&mut self, integrator: Integrator) -> Result<(), ConfigError> {
        let base = self.world.as_ref().map(World::base_integrator);
        let other = (Some(integrator) != base).then_some(integrator);
        self.respec(self.spec.with_integrator(other))
    }

    /// Changes the stepping mode (a preset lane becomes that textbook mode).
    pub fn set_mode(&mut self, mode: Mode) -> Result<(), ConfigError> {
        self.respec(self.spec.with_loop(self.spec.looped.as_mode(mode)))
    }

    /// Changes the timer (the window's `T`); the base's own timer is named by the base alone
    /// (`fixed`, not `fixed+raw`).
    pub fn set_timer(&mut self, timer: TimerKind) -> Result<(), ConfigError> {
        self.looped.set_timer(timer)?;
        self.spec = self.spec.with_loop(self.looped.spec());
        Ok(())
    }

    /// The display's nominal rate as the loop can know it: the vsync detector starts again
    /// from it.
    pub fn set_refresh_hint(&mut self, hz: Option<f64>) {
        self.looped.set_refresh_hint(hz);
    }

    /// How long the loop should wait before running a frame of `frame_ns` (MonoGame's rule:
    /// not before a whole tick is due).
    pub fn due_in_ns(&self, frame_ns: u64) -> u64 {
        self.looped.due_in_ns(frame_ns)
    }

    /// Whether to keep each step's start time (the window's strip, `simulate --trace`).
    pub fn keep_step_starts(&mut self, keep: bool) {
        self.record.keep_step_starts = keep;
    }

    /// One frame: `frame_ns` of measured time through the loop into the rope, then the
    /// divergence watch at `now_ns` (wall time): an exploded rope is shown for a while, then
    /// reset by [`Lane::reset`].
    pub fn advance(&mut self, frame_ns: u64, now_ns: u64) -> &FrameStats {
        self.advance_timed(frame_ns, now_ns, &mut |_| now_ns)
    }

    /// As [`Lane::advance`], asking `step_time` when each step begins (given how many steps of
    /// this frame came before it) where step start times are kept.
    pub fn advance_timed(
        &mut self,
        frame_ns: u64,
        now_ns: u64,
        step_time: &mut dyn FnMut(u64) -> u64,
    ) -> &FrameStats {
        self.record.step_starts.clear();
        self.looped.begin_frame_ns(frame_ns);
        let mut taken = 0;
        while let Some(run) = self.looped.next_run() {
            self.record.stepped(run.step, run.count);
            if self.record.keep_step_starts {
                let starts = (taken..taken + run.count).map(&mut *step_time);
                self.record.step_starts.extend(starts);
            }
            taken += run.count;
            if let Some(world) = &mut self.world {
                world.integrate(run);
            }
        }
        if let Some(world) = &mut self.world {
            world.watch(now_ns);
        }
        let f = self.looped.last_frame();
        // Falling behind is the clamp or the cap dropping time the loop could not run; what a
        // timer discards by its own rule (a snap's rounding, a resync) is in the books, not here.
        self.record.advanced(f.steps, f.dropped_ns);
        self.looped.last_frame()
    }

    /// A frame the lane was not stepped in (the window is paused): the watch's countdown
    /// holds at `now_ns` of live time and nothing else changes.
    pub fn hold(&mut self, now_ns: u64) {
        self.record.step_starts.clear();
        if let Some(world) = &mut self.world {
            world.watch(now_ns);
        }
    }

    /// The one reset rule, for an explosion and for the user's R alike (see [`World::reset`]):
    /// the rope starts again; the loop's clock carries on.
    pub fn reset(&mut self) {
        if let Some(world) = &mut self.world {
            world.reset();
        }
    }

    /// The time since the lane's last present was its host's own (a pause, the program
    /// setting up): the next present starts its vblank count afresh.
    pub fn after_gap(&mut self) {
        self.record.after_gap();
        self.looped.display_gap();
    }

    /// Whether the lane's loop steps by present feedback (its timer is `display`).
    pub fn takes_display_feedback(&self) -> bool {
        self.looped.timer() == TimerKind::Display
    }

    /// The number of the loop's frame last begun, which present feedback names.
    pub fn loop_frame(&self) -> Option<u64> {
        self.looped.frame()
    }

    /// Present feedback for the loop's `display` timer: its frame `frame` was shown
    /// `after_read_ns` after its clock reading (`None`: discarded).
    pub fn display_feedback(
        &mut self,
        frame: u64,
        after_read_ns: Option<u64>,
        refresh_ns: Option<u64>,
    ) {
        self.looped
            .display_feedback_ns(frame, after_read_ns, refresh_ns);
    }

    /// The frame just advanced, whose input was sampled at `input_ns`, became visible at
    /// `present_ns` (at `vblank`, when presents wait for vblanks): record it.
    pub fn presented(&mut self, present_ns: u64, vblank: Option<Vblank>, input_ns: u64) {
        self.record
            .presented(&self.looped, present_ns, vblank, input_ns);
    }

    /// The lane's name as the user typed it (`fixed`, `fixed+snap`, `godot+rk4`).
    pub fn name(&self) -> String {
        self.spec.to_string()
    }
    /// The lane's mode as the screen words it, the HUD and the panel alike: the mode
    /// (`fixed`), and for an engine's preset the preset it comes from (`fixed (unity)`).
    pub fn mode_text(&self) -> String {
        match self.spec.looped.base() {
            timestep_loop::Base::Preset(preset) => format!("{} ({preset})", self.mode()),
            timestep_loop::Base::Mode(mode) => mode.to_string(),
        }
    }

    /// The lane as named.
    pub fn spec(&self) -> LaneSpec {
        self.spec
    }
    /// Its loop.
    pub fn looped(&self) -> &Loop {
        &self.looped
    }
    /// The stepping mode now.
    pub fn mode(&self) -> Mode {
        self.looped.mode()
    }
    /// The loop's resolved rules.
    pub fn policy(&self) -> &Policy {
        self.looped.policy()
    }
    /// The loop's timer.
    pub fn timer(&self) -> TimerKind {
        self.looped.timer()
    }
    /// What the frame times say about vsync.
    pub fn vsync(&self) -> &VsyncDetector {
        self.looped.vsync()
    }
    /// The stepper and its books.
    pub fn stepper(&self) -> &Stepper {
        self.looped.stepper()
    }
    /// Time lost so far: dropped by the stepper (clamp, cap, resync, slow fuzzy window) or
    /// thrown away by the timer, ns.
    pub fn dropped_ns(&self) -> u64 {
        let discarded = self.looped.discarded_by_timer_ns();
        self.stepper().dropped_ns().saturating_add(discarded)
    }
    /// What the last frame did (kept while paused).
    pub fn last(&self) -> &FrameStats {
        self.looped.last_frame()
    }
    /// What it recorded of its presented frames.
    pub fn record(&self) -> &Record {
        &self.record
    }
    /// The world, if the lane has one.
    pub fn world(&self) -> Option<&World> {
        self.world.as_ref()
    }
    /// The rope, if the lane has one.
    pub fn rope(&self) -> Option<&Rope> {
        self.world.as_ref().map(World::rope)
    }
    /// What the divergence watch said on the last frame (an exploded rope's countdown).
    pub fn watched(&self) -> Watch {
        self.world.as_ref().map_or(Watch::Fine, World::watched)
    }
    /// The explosion watch, if the lane has a rope.
    pub fn watch(&self) -> Option<&ExplosionWatch> {
        self.world.as_ref().map(World::watch_state)
    }

    /// Shown simulation time − measured time handed to the loop so far, ms.
    pub fn drift_ms(&self) -> f64 {
        self.looped.drift_ms()
    }

    /// Holds a particle (or lets go with `None`), as the mouse does.
    pub fn set_grab(&mut self, grab: Option<Grab>) {
        if let Some(world) = &mut self.world {
            world.rope_mut().set_grab(grab);
        }
    }

    /// The positions to show this frame (blended where the mode blends), written into `out`;
    /// empty without a rope.
    pub fn shown<'a>(&self, out: &'a mut Vec<Vec2>) -> &'a [Vec2] {
        out.clear();
        if let Some(rope) = self.rope() {
            if self.mode().blends() {
                rope.blend_into(self.last().alpha as f32, out);
            } else {
                out.extend(rope.positions());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::watch::RESET_AFTER_NS;

    use timestep_loop::NS_PER_MS as MS;

    fn lane(mode: Mode) -> Lane {
        Lane::new(
            LaneSpec::mode(mode),
            &RopeParams::default(),
            &PolicyEnv::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn rope(l: &Lane) -> &Rope {
        l.rope().unwrap_or_else(|| panic!("the lane has a rope"))
    }

    #[test]
    fn an_exploded_rope_is_reset_after_two_seconds_and_the_clock_carries_on() {
        let mut l = lane(Mode::Variable);
        let mut now = 0;
        // 20 Hz variable steps tear the default rope apart at once.
        while !rope(&l).exploded() {
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
        assert!(!rope(&l).exploded(), "reset 2 s after the explosion");
        assert_eq!(l.watch().map(ExplosionWatch::explosions), Some(1));
        // The loop's clock did not restart: simulated time kept counting.
        assert!(l.stepper().sim_ns() > sim_before);
        let stretch = l.world().map_or(0.0, World::max_stretch);
        assert!(stretch > 5.0, "the explosion's stretch is remembered");
    }

    #[test]
    fn a_fork_starts_from_the_same_state_and_clock() {
        let mut a = lane(Mode::Interpolated);
        for i in 1..=30 {
            a.advance(16_666_667, i * 16_666_667);
        }
        let b = a
            .fork(LaneSpec::mode(Mode::Fixed))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rope(&b).state_hash(), rope(&a).state_hash());
        assert_eq!(b.stepper().sim_ns(), a.stepper().sim_ns());
        assert_eq!(b.mode(), Mode::Fixed);
        assert_eq!(b.name(), "fixed");
    }

    #[test]
    fn a_lane_without_a_rope_keeps_the_same_time_as_one_with() {
        let spec = parse_spec("godot").unwrap_or_else(|e| panic!("{e}"));
        let env = PolicyEnv::default();
        let mut with =
            Lane::new(spec, &RopeParams::default(), &env).unwrap_or_else(|e| panic!("{e}"));
        let mut without = Lane::timing_only(spec, &env).unwrap_or_else(|e| panic!("{e}"));
        for i in 1..=600u64 {
            let frame = 16_683_350 + (i % 7) * 100_000;
            assert_eq!(with.advance(frame, i), without.advance(frame, i));
        }
        assert!(without.rope().is_none() && with.rope().is_some());
        assert_eq!(with.stepper().sim_ns(), without.stepper().sim_ns());
    }

    #[test]
    fn what_the_accumulator_holds_at_the_end_is_not_slow_motion() {
        // Bevy's 64 Hz ticks on 11 ms frames: the accumulator ends holding 6.25 ms, part of a
        // tick, dropping nothing, so the game kept time; only dropped time is slow motion.
        let spec = parse_spec("bevy").unwrap_or_else(|e| panic!("{e}"));
        let mut l =
            Lane::timing_only(spec, &PolicyEnv::default()).unwrap_or_else(|e| panic!("{e}"));
        for i in 1..=100 {
            l.advance(11 * MS, i * 11 * MS);
        }
        let report = LaneReport::new(
            &l,
            &timestep_loop::Pacer::new(timestep_loop::Pacing::Vsync, None),
        );
        assert_eq!(report.books.dropped_ns, 0);
        assert_eq!(report.books.remainder_ns, 6_250_000, "{:?}", report.books);
        assert_eq!(report.shown.game_speed, 1.0, "{:?}", report.books);
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
        let (hash, sim) = (rope(&l).state_hash(), l.stepper().sim_ns());
        let toggle = |l: &mut Lane| {
            let next = l.integrator().map_or(Integrator::Rk4, Integrator::next);
            l.set_integrator(next).unwrap_or_else(|e| panic!("{e}"));
        };
        toggle(&mut l);
        assert_eq!(l.integrator(), Some(Integrator::Rk4));
        assert_eq!(l.name(), "variable+rk4");
        assert_eq!(rope(&l).state_hash(), hash, "the rope keeps its state");
        assert_eq!(l.stepper().sim_ns(), sim, "and the loop its clock");
        for _ in 0..500 {
            now += 20 * MS;
            l.advance(20 * MS, now);
        }
        assert!(!rope(&l).exploded(), "RK4 holds 10 s of 20 ms steps");
        toggle(&mut l);
        assert_eq!(l.name(), "variable");
        while !rope(&l).exploded() && now < 20 * 1_000 * MS {
            now += 20 * MS;
            l.advance(20 * MS, now);
        }
        assert!(rope(&l).exploded(), "Euler at 20 ms tears it apart");
    }
}
