//! A [`Loop`]: everything that decides when a game's simulation steps, without the simulation.
//! A frame's measured time goes through the loop's timer (and the vsync detector the timer may
//! rely on), then its stepper, which hands out the steps to integrate, each with the substeps
//! its policy asks for.

use crate::config::{ConfigError, TimingConfig};
use crate::mode::Mode;
use crate::policy::{Policy, PolicyEnv, substeps};
use crate::preset::Preset;
use crate::spec::LoopSpec;
use crate::stepper::{Books, FrameStats, Step, StepRun, Stepper};
use crate::tick::Tick;
use crate::timer::{Timer, TimerBooks, TimerKind};
use crate::vsync::VsyncDetector;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// [`Loop::textbook`]'s clamp on a frame's time, ns (Fix Your Timestep's 0.25 s).
const TEXTBOOK_CLAMP_NS: u64 = 250_000_000;

/// `d` in whole ns, `u64::MAX` past 584 years.
fn whole_ns(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// A game loop's timing: a spec, its resolved policy, the timer, the vsync detector and the
/// stepper.
///
/// Push style, a closure per step:
/// ```
/// use timestep_loop::{Loop, LoopSpec, PolicyEnv, Preset};
/// let mut lp = Loop::new(LoopSpec::preset(Preset::Unity), &PolicyEnv::default())?;
/// let mut ticks = 0;
/// let frame = lp.advance_ns(45_000_000, |step| {
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
/// lp.begin_frame_ns(41_666_667); // 2.5 ticks of the default 60 Hz tick
/// let mut dts = Vec::new();
/// while let Some(step) = lp.next_step() {
///     dts.push(step.dt_ns);
/// }
/// assert_eq!(dts, [16_666_667, 16_666_667]);
/// assert!((lp.last_frame().alpha - 0.5).abs() < 1e-6); // draw previous.lerp(current, 0.5)
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
    /// The books of timers this loop has replaced since its stepper started, what each held
    /// when it went counted as discarded (or, held short, invented).
    retired: TimerBooks,
    /// The last step length asked for, the longest substep then and its substeps: a frame's
    /// ticks are all one length, so the division is done when either changes, not every run.
    substeps_memo: (u64, Option<u64>, u64),
    /// Frames begun so far: the next frame's number.
    frames: u64,
    /// [`Loop::begin_frame_at`]'s recent readings, by frame number, for present feedback given
    /// as `Instant`s.
    reads: VecDeque<(u64, Instant)>,
}

/// Readings [`Loop::begin_frame_at`] keeps for feedback: feedback on older frames is ignored.
const READS_KEPT: usize = 64;

impl Loop {
    /// Engine `preset`'s loop as it ships (its tick, clamp, cap, timer and rule), each tick
    /// integrated whole, vsync requested, no refresh hint.
    pub fn preset(preset: Preset) -> Loop {
        // Every preset's own numbers make a valid policy (tested for each preset).
        Loop::new(LoopSpec::preset(preset), &PolicyEnv::default())
            .expect("a preset's own numbers make a valid loop")
    }

    /// The textbook `mode` ("Fix Your Timestep") at `tick` (whole ns, a [`Duration`] or a
    /// [`Tick`] of a rate), frames clamped to 250 ms, at most `ceil(250 ms / tick)` ticks a
    /// frame, raw timer, each tick integrated whole. A tick over 250 ms is refused.
    pub fn textbook(mode: Mode, tick: impl Into<Tick>) -> Result<Loop, ConfigError> {
        let timing = TimingConfig::textbook(tick, TEXTBOOK_CLAMP_NS, None)?;
        Loop::new(LoopSpec::mode(mode), &PolicyEnv::textbook(timing))
    }

    /// [`Loop::textbook`] at a tick of exactly one period of `hz` (60: sixty ticks are exactly
    /// one second).
    pub fn textbook_hz(mode: Mode, hz: u64) -> Result<Loop, ConfigError> {
        Loop::textbook(mode, Tick::per_second(hz).ok_or(ConfigError::ZeroTick)?)
    }

    /// The loop `spec` names, in `env`.
    pub fn new(spec: LoopSpec, env: &PolicyEnv) -> Result<Loop, ConfigError> {
        let policy = spec.policy(env)?;
        Ok(Loop {
            stepper: Stepper::new(policy.timing, policy.mode),
            timer: Timer::new(policy.timer, policy.timing.tick(), env.vsync_requested),
            retired: TimerBooks::default(),
            substeps_memo: (0, None, 1),
            frames: 0,
            reads: VecDeque::new(),
            vsync: VsyncDetector::new(env.refresh_hint_hz),
            spec,
            env: *env,
            policy,
        })
    }

    /// Changes the loop's spec. The clock carries on when the new policy steps with the same
    /// settings (a mode change); otherwise the stepper and the timer start afresh (and so do
    /// the books). The timer starts afresh when it changes: what the old one held is counted
    /// as discarded.
    pub fn respec(&mut self, spec: LoopSpec) -> Result<(), ConfigError> {
        let policy = spec.policy(&self.env)?;
        let fresh = || Timer::new(policy.timer, policy.timing.tick(), self.env.vsync_requested);
        if policy.timing != self.policy.timing {
            self.stepper = Stepper::new(policy.timing, policy.mode);
            self.timer = fresh();
            self.retired = TimerBooks::default();
        } else {
            self.stepper.set_mode(policy.mode);
            if policy.timer != self.policy.timer {
                let old = std::mem::replace(&mut self.timer, fresh());
                self.retire(old.books());
            }
        }
        self.spec = spec;
        self.policy = policy;
        Ok(())
    }

    /// Steps by `mode` from now on, keeping the timer and the clock. A preset keeps its rules
    /// where it can ([`LoopSpec::with_mode`]: fixed or interpolated); variable and semi-fixed
    /// make it that textbook mode.
    pub fn set_mode(&mut self, mode: Mode) -> Result<(), ConfigError> {
        self.respec(self.spec.with_mode(mode))
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

    /// One frame of `frame` measured time, calling `step` for every step in order (push
    /// style). Returns what the frame did. Whole nanoseconds count; a frame past 584 years is
    /// taken as `u64::MAX` ns.
    pub fn advance(&mut self, frame: Duration, step: impl FnMut(Step)) -> FrameStats {
        self.advance_ns(whole_ns(frame), step)
    }

    /// [`Loop::advance`] with the frame time in whole ns.
    pub fn advance_ns(&mut self, frame_ns: u64, mut step: impl FnMut(Step)) -> FrameStats {
        self.begin_frame_ns(frame_ns);
        while let Some(s) = self.next_step() {
            step(s);
        }
        *self.stepper.last_frame()
    }

    /// Starts a frame of `frame` measured time (pull style): the timer filters it, then
    /// [`Loop::next_step`] hands out its steps.
    pub fn begin_frame(&mut self, frame: Duration) {
        self.begin_frame_ns(whole_ns(frame));
    }

    /// Starts a frame whose clock was read at `now` (pull style): its time is measured from
    /// the last such reading (the first frame's is 0), and the reading kept, so that present
    /// feedback can be given as [`Instant`]s ([`Loop::display_feedback`]).
    pub fn begin_frame_at(&mut self, now: Instant) {
        let since = self
            .reads
            .back()
            .map(|(_, then)| now.saturating_duration_since(*then));
        if self.reads.len() == READS_KEPT {
            self.reads.pop_front();
        }
        self.reads.push_back((self.frames, now));
        self.begin_frame(since.unwrap_or_default());
    }

    /// [`Loop::begin_frame`] with the frame time in whole ns.
    pub fn begin_frame_ns(&mut self, frame_ns: u64) {
        let frame = self.frames;
        self.frames += 1;
        self.vsync.observe(frame_ns);
        let filtered = self.timer.filter(frame, frame_ns, &self.vsync);
        self.stepper
            .set_resync(self.timer.resync_over_ns(&self.vsync));
        if self.timer.take_resync() {
            self.stepper.resync_next_frame();
        }
        self.stepper.begin_frame(filtered.ns);
        self.stepper.note_discarded_by_timer(filtered.discarded_ns);
    }

    /// The number of the frame last begun (from 0), which present feedback names; `None`
    /// before the first.
    pub fn frame(&self) -> Option<u64> {
        self.frames.checked_sub(1)
    }

    /// Present feedback for the `display` timer (the others ignore it), as a game gets it:
    /// frame `frame` (as [`Loop::frame`] numbered it, begun by [`Loop::begin_frame_at`]) was
    /// shown at `shown` (`None`: the display discarded it), on a display whose refresh period
    /// is `refresh` when it states one. Feedback arrives late, a frame or more; feedback on a
    /// frame not begun that way, or long gone, is ignored.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use timestep_loop::{Loop, LoopSpec, Mode, PolicyEnv, TimerKind};
    /// let spec = LoopSpec::mode(Mode::Interpolated).with_timer(Some(TimerKind::Display));
    /// let mut lp = Loop::new(spec, &PolicyEnv::default())?;
    /// let refresh = Duration::from_nanos(16_683_350); // 59.94 Hz
    /// let start = Instant::now();
    /// for i in 0..60u32 {
    ///     // Frames read 0, 1.5 or 3 ms late, each shown two vblanks after its own.
    ///     let noise = Duration::from_micros(u64::from(i % 3) * 1_500);
    ///     lp.begin_frame_at(start + refresh * i + noise);
    ///     while lp.next_step().is_some() {}
    ///     if let Some(seen) = i.checked_sub(2) {
    ///         let shown = start + refresh * (seen + 2) + Duration::from_millis(5);
    ///         lp.display_feedback(u64::from(seen), Some(shown), Some(refresh));
    ///     }
    /// }
    /// // Every frame now advances the simulation by one refresh period, however noisy the
    /// // reads: as the display will show it.
    /// assert_eq!(lp.display_books().map(|b| b.predicted_frames > 50), Some(true));
    /// # Ok::<(), timestep_loop::ConfigError>(())
    /// ```
    pub fn display_feedback(
        &mut self,
        frame: u64,
        shown: Option<Instant>,
        refresh: Option<Duration>,
    ) {
        let Some((_, read)) = self.reads.iter().find(|(f, _)| *f == frame) else {
            return;
        };
        let after = shown.map(|at| whole_ns(at.saturating_duration_since(*read)));
        self.display_feedback_ns(frame, after, refresh.map(whole_ns));
    }

    /// [`Loop::display_feedback`] in ns, for loops fed frame times rather than readings:
    /// frame `frame` was shown `after_read_ns` after its clock reading was taken.
    pub fn display_feedback_ns(
        &mut self,
        frame: u64,
        after_read_ns: Option<u64>,
        refresh_ns: Option<u64>,
    ) {
        if frame < self.frames {
            self.timer
                .display_feedback(frame, after_read_ns, refresh_ns);
        }
    }

    /// The loop's time stood still while the display's went on (a pause): the `display`
    /// timer forgets what the display did, and predicts again once feedback resumes.
    pub fn display_gap(&mut self) {
        self.timer.display_gap();
    }

    /// What the `display` timer did with its feedback; `None` for the other timers.
    pub fn display_books(&self) -> Option<crate::DisplayBooks> {
        self.timer.display_books()
    }

    /// Whether the `display` timer hands on predicted display intervals now (rather than the
    /// measured time); false for the other timers.
    pub fn predicting_display(&self) -> bool {
        self.timer.predicting()
    }

    /// Adds a replaced timer's books to the retired ones, what it held counted as discarded
    /// (held short: invented).
    fn retire(&mut self, old: TimerBooks) {
        let held = old.held_ns();
        let r = &mut self.retired;
        r.measured_ns = r.measured_ns.saturating_add(old.measured_ns);
        r.filtered_ns = r.filtered_ns.saturating_add(old.filtered_ns);
        let lost = u64::try_from(held.max(0)).unwrap_or(u64::MAX);
        let short = u64::try_from((-held).max(0)).unwrap_or(u64::MAX);
        r.discarded_ns = r.discarded_ns.saturating_add(old.discarded_ns + lost);
        r.invented_ns = r.invented_ns.saturating_add(old.invented_ns + short);
    }

    /// The timers' books since the stepper started.
    fn timer_books(&self) -> TimerBooks {
        let (r, t) = (self.retired, self.timer.books());
        TimerBooks {
            measured_ns: r.measured_ns.saturating_add(t.measured_ns),
            filtered_ns: r.filtered_ns.saturating_add(t.filtered_ns),
            discarded_ns: r.discarded_ns.saturating_add(t.discarded_ns),
            invented_ns: r.invented_ns.saturating_add(t.invented_ns),
        }
    }

    /// The loop's books, exactly, timer and stepper together: they balance after every frame
    /// for every timer, `measured + invented == consumed + dropped + discarded_by_timer +
    /// remainder` (the remainder holds what the timer holds as well as the accumulator).
    pub fn books(&self) -> Books {
        let (s, t) = (self.stepper.books(), self.timer_books());
        let den = u128::from(s.den);
        Books {
            measured: u128::from(t.measured_ns) * den,
            invented: s.invented + u128::from(t.invented_ns) * den,
            discarded_by_timer: u128::from(t.discarded_ns) * den,
            remainder: s.remainder + t.held_ns() * den as i128,
            ..s
        }
    }

    /// Frame times handed in so far, as measured (before the timer), ns.
    pub fn measured_ns(&self) -> u64 {
        self.timer_books().measured_ns
    }

    /// Time the timer threw away so far, ns (Glaiel's extra-slow frames; snaps' errors).
    pub fn discarded_by_timer_ns(&self) -> u64 {
        self.timer_books().discarded_ns
    }

    /// The frame's next step, with its substeps (equal ones no longer than the policy's
    /// longest); `None` once the frame has none left.
    pub fn next_step(&mut self) -> Option<Step> {
        let s = self.stepper.next_step()?;
        Some(Step {
            substeps: self.substeps(s.dt_ns),
            ..s
        })
    }

    /// The frame's next steps that are alike (a fixed frame's ticks come as one run), with
    /// their substeps; `None` once the frame has none left.
    pub fn next_run(&mut self) -> Option<StepRun> {
        let r = self.stepper.next_run()?;
        Some(StepRun {
            step: Step {
                substeps: self.substeps(r.step.dt_ns),
                ..r.step
            },
            ..r
        })
    }

    /// [`substeps`] of a step of `dt_ns` under the policy's longest substep.
    fn substeps(&mut self, dt_ns: u64) -> u64 {
        let max = self.policy.max_substep_ns;
        let (dt, was_max, n) = self.substeps_memo;
        if (dt, was_max) == (dt_ns, max) {
            return n;
        }
        let n = substeps(dt_ns, max);
        self.substeps_memo = (dt_ns, max, n);
        n
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
    /// dropped or the timer threw away).
    pub fn drift_ms(&self) -> f64 {
        let shown = self.stepper.last_frame().shown_ns as f64;
        (shown - self.measured_ns() as f64) * 1e-6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn a_frame_as_a_duration_steps_as_its_whole_ns() -> Result<(), ConfigError> {
        let mut by_ns = Loop::textbook_hz(Mode::Interpolated, 60)?;
        let mut by_duration = by_ns.clone();
        for k in 0..100u64 {
            let ns = 16_000_000 + k * 17_317;
            let a = by_ns.advance_ns(ns, |_| {});
            let b = by_duration.advance(Duration::from_nanos(ns), |_| {});
            assert_eq!(a, b);
        }
        // Past 584 years a frame is u64::MAX ns.
        let mut huge = Loop::preset(Preset::Bevy);
        let mut max = huge.clone();
        assert_eq!(
            huge.advance(Duration::MAX, |_| {}),
            max.advance_ns(u64::MAX, |_| {})
        );
        Ok(())
    }

    #[test]
    fn one_line_loops_integrate_ticks_whole() -> Result<(), ConfigError> {
        // A 60 Hz textbook loop: sixty ticks are exactly one second, each one whole step.
        let mut lp = Loop::textbook_hz(Mode::Interpolated, 60)?;
        let mut seen = Vec::new();
        for _ in 0..5 {
            lp.advance(Duration::from_millis(200), |s| {
                seen.push((s.dt(), s.substeps))
            });
        }
        assert_eq!(seen.len(), 60);
        assert!(
            seen.iter()
                .all(|&(dt, n)| n == 1 && dt.as_nanos() / 1000 == 16_666)
        );
        assert_eq!(lp.stepper().sim_ns(), 1_000_000_000);
        assert_eq!(
            Loop::textbook_hz(Mode::Fixed, 0).err(),
            Some(ConfigError::ZeroTick)
        );
        assert!(Loop::textbook(Mode::Fixed, Duration::from_millis(300)).is_err());
        // Presets as they ship: no substeps unless asked.
        for p in Preset::ALL {
            let mut lp = Loop::preset(p);
            assert_eq!(lp.policy().substeps_per_tick(), 1, "{p:?}");
            lp.advance(Duration::from_millis(100), |s| assert_eq!(s.substeps, 1));
        }
        Ok(())
    }

    #[test]
    fn textbook_env_and_default_env_agree() {
        assert_eq!(
            PolicyEnv::default(),
            PolicyEnv::textbook(crate::TimingConfig::default())
        );
    }

    #[test]
    fn a_steps_seconds_in_f64_keep_an_hour_to_a_microsecond() {
        // An hour of 60 Hz ticks summed as `dt_s()`: f64 holds it; the f32 this crate used to
        // hand out, widened back, drifts by over 100 µs.
        let step = Step {
            dt_ns: 16_666_667,
            last: true,
            substeps: 1,
        };
        let (mut wide, mut narrow) = (0.0_f64, 0.0_f64);
        for _ in 0..216_000 {
            wide += step.dt_s();
            narrow += f64::from(step.dt_s() as f32);
        }
        let exact = 216_000.0 * 16_666_667e-9;
        assert!((wide - exact).abs() < 1e-6, "{wide}");
        assert!((narrow - exact).abs() > 100e-6, "{narrow}");
    }

    #[test]
    fn a_set_timer_names_it_and_the_bases_own_timer_is_not_named() -> Result<(), ConfigError> {
        let env = PolicyEnv::default();
        let mut l = Loop::new(LoopSpec::mode(Mode::Fixed), &env)?;
        let mut names = Vec::new();
        for timer in [TimerKind::Snap, TimerKind::Smooth, TimerKind::Raw] {
            l.set_timer(timer)?;
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
        let mut l = Loop::textbook(Mode::Fixed, MS)?;
        l.advance_ns(25 * MS / 10, |_| {});
        l.set_mode(Mode::Interpolated)?;
        assert_eq!(l.stepper().sim_ns(), 2 * MS);
        l.respec(LoopSpec::preset(Preset::Bevy))?;
        assert_eq!(l.stepper().sim_ns(), 0);
        Ok(())
    }

    #[test]
    fn a_presets_mode_change_keeps_its_rules_and_its_clock() -> Result<(), ConfigError> {
        let mut bevy = Loop::preset(Preset::Bevy);
        bevy.advance_ns(40 * MS, |_| {});
        bevy.set_mode(Mode::Interpolated)?;
        assert_eq!(bevy.spec().to_string(), "bevy+interpolated");
        assert_eq!(bevy.stepper().sim_ns(), 31_250_000, "the clock carries on");
        assert_eq!(bevy.policy().timing.tick_ns(), 15_625_000);
        assert_eq!(bevy.last_frame().steps, 2);
        bevy.set_mode(Mode::Fixed)?;
        assert_eq!(bevy.spec(), LoopSpec::preset(Preset::Bevy));
        bevy.set_mode(Mode::Variable)?;
        assert_eq!(bevy.spec(), LoopSpec::mode(Mode::Variable));
        Ok(())
    }

    #[test]
    fn steps_carry_the_policys_substeps() -> Result<(), ConfigError> {
        // Bevy's 15.625 ms tick in substeps of at most 1 ms: 16 of them.
        let env = PolicyEnv::default().with_max_substep(crate::MaxSubstep::Set(MS));
        let mut bevy = Loop::new(LoopSpec::preset(Preset::Bevy), &env)?;
        let mut seen = Vec::new();
        bevy.advance_ns(40 * MS, |s| seen.push((s.dt_ns, s.substeps)));
        assert_eq!(seen, [(15_625_000, 16), (15_625_000, 16)]);
        Ok(())
    }

    /// Ticks per frame by the rules of Tyler Glaiel's FrameTimingControl (`frame_timer.cpp`,
    /// ed335bb) for `deltas` on a display of `hz`, counter rate 1e9: the tick is
    /// `desired_frametime` = 1e9 / 60 truncated (line 9); a delta over 8 ticks becomes one
    /// (48-50); within 0.2 ms (12) of k × (1e9 / hz truncated), k = 1..8, it becomes that
    /// (24-27, 57-62); the mean of the last 4, history primed with ticks, the remainder
    /// carried (32, 65-77); an accumulator past 8 ticks is emptied, and so is the first
    /// frame's: `resync` starts true (37, 83-92); then whole ticks (100-107).
    fn glaiel_ticks(deltas: &[u64], hz: u64) -> Vec<u64> {
        let desired = 1_000_000_000 / 60;
        let period = 1_000_000_000 / hz;
        let (mut history, mut residual) = ([desired; 4], 0);
        let (mut acc, mut resync) = (0, true);
        let mut ticks = Vec::new();
        for &delta in deltas {
            let mut d = if delta > desired * 8 { desired } else { delta };
            if let Some(k) = (1..=8).find(|k| (k * period).abs_diff(d) < 200_000) {
                d = k * period;
            }
            history.rotate_left(1);
            history[3] = d;
            let sum: u64 = history.iter().sum();
            residual += sum % 4;
            acc += sum / 4 + residual / 4;
            residual %= 4;
            if acc > desired * 8 || std::mem::take(&mut resync) {
                acc = 0;
            }
            ticks.push(acc / desired);
            acc %= desired;
        }
        ticks
    }

    /// Frame times of a steady display of `hz` on a clock of whole ns, `stalls` added.
    fn display(hz: u64, frames: u64, stall: Option<(u64, u64)>) -> Vec<u64> {
        let end = |k: u64| (k * 1_000_000_000 + hz / 2) / hz;
        (1..=frames)
            .map(|k| {
                let extra = stall.filter(|&(at, _)| at == k).map_or(0, |(_, ns)| ns);
                end(k) - end(k - 1) + extra
            })
            .collect()
    }

    fn ticks_of(lp: &mut Loop, deltas: &[u64]) -> Vec<u64> {
        deltas
            .iter()
            .map(|&d| u64::from(lp.advance_ns(d, |_| {}).steps))
            .collect()
    }

    #[test]
    fn glaiel_ticks_as_frame_timer_cpp_at_any_refresh_rate() -> Result<(), ConfigError> {
        // Its limits are 8 update ticks (133 ms), not 8 refresh periods: at 480 Hz a lane
        // that resyncs past 8 periods (16.7 ms) never ticks; at 144 Hz it throws away a
        // 107 ms hitch. And `resync` starts true: the first frame runs no tick.
        let cases = [
            (60, 600, None),
            (144, 5_761, None),
            (144, 1_440, Some((700, 100_000_000))),
            (480, 4_800, None),
            (1_000, 10_000, None),
        ];
        for (hz, frames, stall) in cases {
            let env = PolicyEnv {
                refresh_hint_hz: Some(hz as f64),
                ..PolicyEnv::default()
            };
            let mut lp = Loop::new(LoopSpec::preset(Preset::Glaiel), &env)?;
            let deltas = display(hz, frames, stall);
            let ours = ticks_of(&mut lp, &deltas);
            let expected = glaiel_ticks(&deltas, hz);
            let differ = ours.iter().zip(&expected).filter(|(a, b)| a != b).count();
            assert_eq!(differ, 0, "{hz} Hz {stall:?}: {differ} frames differ");
            assert_eq!(expected[0], 0, "the first frame resyncs");
            let total: u64 = ours.iter().sum();
            let seconds = deltas.iter().sum::<u64>() / 16_666_666;
            assert!(total + 3 >= seconds, "{hz} Hz: {total} ticks of {seconds}");
        }
        Ok(())
    }

    #[test]
    fn a_stall_the_snapping_timer_throws_away_is_counted_as_discarded() -> Result<(), ConfigError> {
        // Glaiel's loop on a 60 Hz display, stalled for 10 s: his timer hands on one tick for
        // it, and the 10 s it threw away are in the books, not lost from them.
        let env = PolicyEnv {
            refresh_hint_hz: Some(60.0),
            ..PolicyEnv::default()
        };
        let mut lp = Loop::new(LoopSpec::preset(Preset::Glaiel), &env)?;
        let deltas = display(60, 900, Some((300, 10_000_000_000)));
        ticks_of(&mut lp, &deltas);
        let discarded = lp.discarded_by_timer_ns();
        assert!(
            (10_000_000_000..=10_001_000_000).contains(&discarded),
            "{discarded}"
        );
        let b = lp.books();
        assert!(b.balance(), "{b:?}");
        let lost = b.dropped + b.discarded_by_timer;
        assert!(b.consumed + lost + 100_000_000 > b.measured, "{b:?}");
        Ok(())
    }

    #[test]
    fn a_stall_with_no_refresh_known_runs_at_most_eight_ticks_the_rest_in_the_books()
    -> Result<(), ConfigError> {
        // Glaiel's loop told no refresh rate, on frames no vsync paces (1 to 40 ms, then 20
        // minutes apart): his limits count in update ticks and need no refresh rate, so a
        // 20-minute stall is one tick to the timer, not 72,000 for the stepper.
        let mut lp = Loop::new(LoopSpec::preset(Preset::Glaiel), &PolicyEnv::default())?;
        let mut deltas: Vec<u64> = (0..300).map(|k| (1 + k * 7 % 40) * MS).collect();
        deltas.extend([1_200_000 * MS; 20]);
        let ticks = ticks_of(&mut lp, &deltas);
        assert_eq!(lp.vsync().assumed_period_ns(), None, "no refresh known");
        let most = ticks.iter().copied().max().unwrap_or(0);
        assert!(
            most <= crate::timer::SNAP_FRAMES,
            "{most} ticks in one frame"
        );
        let b = lp.books();
        assert!(b.balance(), "{b:?}");
        // Each stall past its one tick, exactly: thrown away by the timer and in its books.
        let tick = 1_000_000_000 / 60;
        assert_eq!(lp.discarded_by_timer_ns(), 20 * (1_200_000 * MS - tick));
        Ok(())
    }

    #[test]
    fn the_books_balance_for_every_timer_mode_and_preset() -> Result<(), ConfigError> {
        // Seeded frame sequences (steady rates, jitter, stalls, zero and 1 ms frames) through
        // every base with every timer, with and without a refresh hint: after every frame,
        // measured + invented == consumed + dropped + discarded_by_timer + remainder, exactly,
        // and what a timer holds stays within a few frames.
        let bases = LoopSpec::every_mode()
            .into_iter()
            .chain(LoopSpec::every_preset())
            .chain(LoopSpec::every_timer());
        let specs: Vec<LoopSpec> = bases
            .flat_map(|b| TimerKind::ALL.map(|t| b.with_timer(Some(t))))
            .collect();
        for seed in 0..6u64 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let period =
                [16_666_667u64, 6_944_444, 16_683_350, 20_000_000, 1_000_000][rng.usize(..5)];
            let frames: Vec<u64> = (0..1_500)
                .map(|_| match rng.u32(..100) {
                    0 => 10_000_000_000,
                    1 => rng.u64(100_000_000..1_000_000_000),
                    2 => 0,
                    3..=20 => period + rng.u64(0..4_000_000) - 2_000_000.min(period),
                    _ => period,
                })
                .collect();
            for hint in [None, Some(1e9 / period as f64)] {
                let env = PolicyEnv {
                    refresh_hint_hz: hint,
                    ..PolicyEnv::default()
                };
                for &spec in &specs {
                    let mut lp = Loop::new(spec, &env)?;
                    for &f in &frames {
                        lp.advance_ns(f, |_| {});
                        let b = lp.books();
                        assert!(b.balance(), "{spec} seed {seed}: {b:?}");
                    }
                    let held = lp.timer_books().held_ns();
                    assert!(held.abs() < 4 * 10_000_000_000, "{spec}: holds {held}");
                }
            }
        }
        Ok(())
    }

    #[test]
    fn godot_without_the_jitter_fix_ticks_as_its_accumulator_of_1_60_s() -> Result<(), ConfigError>
    {
        // Godot 4.3 `main/main_timer_sync.cpp` `advance_core` (342-422) with
        // physics_jitter_fix 0: `time_accum += dt`, then floor(time_accum / physics_step) ticks
        // with physics_step 1.0 / 60 (`main.cpp`), on frame times in whole µs (its clock). After
        // a frame ending at t µs: floor(t × 60 / 1e6) ticks, the 8-a-frame cap out of reach.
        let mut lp = Loop::new(
            LoopSpec::preset(Preset::Godot)
                .with_timer(Some(TimerKind::Raw))
                .with_jitter_fix(0.0)
                .map_err(|_| ConfigError::ZeroTick)?,
            &PolicyEnv::default(),
        )?;
        let end_us = |k: u64| (k * 1_000_000 + 72) / 144;
        let mut ticks = 0;
        for k in 1..=5_761 {
            ticks += u64::from(
                lp.advance_ns((end_us(k) - end_us(k - 1)) * 1_000, |_| {})
                    .steps,
            );
            assert_eq!(ticks, end_us(k) * 60 / 1_000_000, "frame {k}");
        }
        Ok(())
    }

    #[test]
    fn monogame_runs_a_frame_only_with_a_whole_tick_and_clamps_its_accumulator()
    -> Result<(), ConfigError> {
        // MonoGame 3.8.4 `MonoGame.Framework/Game.cs` `Tick()`: add the time since the last
        // call; below TargetElapsedTime (166,667 × 100 ns) sleep and retry (`RetryTick`); clamp
        // the accumulator to MaxElapsedTime (500 ms); then whole ticks while it holds one. A
        // host retries by adding the next frame's time while `due_in_ns` says wait.
        let target = 16_666_700u64;
        let mut lp = Loop::new(LoopSpec::preset(Preset::MonoGame), &PolicyEnv::default())?;
        let mut deltas = display(144, 2_000, Some((1_000, 2_000_000_000)));
        deltas.extend(display(240, 2_000, None));
        let (mut acc, mut pending) = (0u64, 0u64);
        for d in deltas {
            pending += d;
            let due = lp.due_in_ns(pending);
            acc += d;
            if acc < target {
                assert!(due > 0, "MonoGame sleeps and retries");
                continue;
            }
            assert_eq!(due, 0);
            acc = acc.min(500_000_000);
            let expected = acc / target;
            acc %= target;
            let f = lp.advance_ns(std::mem::take(&mut pending), |_| {});
            assert_eq!(u64::from(f.steps), expected);
        }
        assert!(lp.books().balance());
        Ok(())
    }

    #[test]
    fn a_snapping_timer_on_a_tick_shorter_than_the_refresh_keeps_time() -> Result<(), ConfigError> {
        // fixed+snap at the default 1 ms tick on a 60 Hz display: 8 ticks are 8 ms, shorter
        // than every frame, so the limits count in refresh periods (133 ms) there: nothing is
        // thrown away or resynced, and a 100 ms hitch is kept.
        let env = PolicyEnv {
            refresh_hint_hz: Some(60.0),
            ..PolicyEnv::default()
        };
        let mut lp = Loop::new(
            LoopSpec::mode(Mode::Fixed).with_timer(Some(TimerKind::Snap)),
            &env,
        )?;
        let deltas = display(60, 600, Some((300, 100_000_000)));
        ticks_of(&mut lp, &deltas);
        let b = lp.books();
        assert!(b.balance(), "{b:?}");
        assert!(lp.discarded_by_timer_ns() < 1_000, "{b:?}");
        // Only the first frame's resync drops anything.
        assert!(lp.stepper().dropped_ns() <= 16_666_667, "{b:?}");
        Ok(())
    }
}
