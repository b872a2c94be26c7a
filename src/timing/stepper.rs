//! The stepper: a frame's measured time in, the steps to integrate out, with every
//! nanosecond accounted for.

use super::config::{ClampOn, StepRule, TimingConfig};
use super::jitter::JitterFix;
use super::mode::Mode;

/// One step the caller must integrate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The step's length in ns (always the tick in fixed and interpolated modes).
    pub dt_ns: u64,
    /// True for the last step of the frame: only its starting state is needed for blending.
    pub last: bool,
}

impl Step {
    /// The step's length in seconds, as the rope integrates it (correctly rounded to `f32`).
    pub fn dt_s(&self) -> f32 {
        (self.dt_ns as f64 * 1e-9) as f32
    }
}

/// What one frame did, returned by [`Stepper::advance`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// The frame time as measured, before the clamp.
    pub measured_ns: u64,
    /// The frame time after the clamp.
    pub clamped_ns: u64,
    /// Steps (ticks) taken this frame.
    pub steps: u32,
    /// Time integrated this frame.
    pub consumed_ns: u64,
    /// Time lost this frame to the clamp, the step cap, a resync or a slow fuzzy window.
    pub dropped_ns: u64,
    /// Time a fuzzy window ticked without having it, this frame.
    pub invented_ns: u64,
    /// How far game time is past the last tick, as a fraction of a tick: the blend factor where
    /// the mode blends, and how far the shown state lags real time where it does not. 0 in
    /// variable and semi-fixed modes.
    pub alpha: f64,
    /// The simulation time of the state shown this frame, in ns: the current state's time, or
    /// where the mode blends `t_previous + accumulator` (exactly `lerp(t_prev, t_cur, alpha)`).
    pub shown_ns: u64,
    /// True when the step cap cut this frame short.
    pub capped: bool,
}

/// Turns frame times into steps for the current [`Mode`], by the config's rules.
///
/// The design follows bevy_time's `Time<Fixed>` (accumulate, then expend whole steps), with two
/// differences that matter for a measuring tool: time thrown away by the clamp, the step cap or
/// a resync is counted in [`Stepper::dropped_ns`] rather than lost silently, and the books
/// balance after every frame: `measured + invented == consumed + dropped + remainder`.
#[derive(Clone, Debug)]
pub struct Stepper {
    config: TimingConfig,
    mode: Mode,
    accumulator_ns: u64,
    /// Godot's jitter fix, when that is the rule: it keeps its own accumulator.
    jitter: Option<JitterFix>,
    /// Glaiel's resync: an accumulator holding more than this is emptied (the time dropped)
    /// instead of caught up. Set frame by frame by the snapping timer, which knows the frame.
    resync_over_ns: Option<u64>,
    /// Time of the current state.
    sim_ns: u64,
    /// Time of the state before the last step (the blend's `previous`).
    prev_sim_ns: u64,
    steps_total: u64,
    measured_total_ns: u64,
    consumed_total_ns: u64,
    dropped_total_ns: u64,
    invented_total_ns: u64,
}

/// What happened to a frame's time on its way in.
#[derive(Clone, Copy, Default)]
struct Admitted {
    /// Time the rule may tick with (for the jitter fix, which keeps its own accumulator).
    ns: u64,
    clamped_ns: u64,
    dropped_ns: u64,
}

impl Stepper {
    pub fn new(config: TimingConfig, mode: Mode) -> Self {
        let jitter = match config.rule {
            StepRule::JitterFix { permille } => Some(JitterFix::new(config.dt_ns, permille)),
            _ => None,
        };
        Stepper {
            config,
            mode,
            accumulator_ns: 0,
            jitter,
            resync_over_ns: None,
            sim_ns: 0,
            prev_sim_ns: 0,
            steps_total: 0,
            measured_total_ns: 0,
            consumed_total_ns: 0,
            dropped_total_ns: 0,
            invented_total_ns: 0,
        }
    }

    pub fn config(&self) -> &TimingConfig {
        &self.config
    }
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// Switches mode. The accumulator's remainder is kept: variable and semi-fixed consume it on
    /// their next frame, so no time is lost or invented by switching.
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }
    /// Sets Glaiel's resync (an accumulator holding more than this is emptied), or none.
    pub fn set_resync(&mut self, over_ns: Option<u64>) {
        self.resync_over_ns = over_ns;
    }
    pub fn accumulator_ns(&self) -> u64 {
        self.accumulator_ns
    }
    /// Measured time not yet consumed by a step (for the jitter fix: its accumulator plus its
    /// carried deficit, which can be negative).
    pub fn remainder_ns(&self) -> i64 {
        match &self.jitter {
            Some(j) => j.remainder_ns(),
            None => self.accumulator_ns.min(i64::MAX as u64) as i64,
        }
    }
    /// Simulation time of the current state.
    pub fn sim_ns(&self) -> u64 {
        self.sim_ns
    }
    pub fn steps_total(&self) -> u64 {
        self.steps_total
    }
    /// Sum of all frame times handed in, before the clamp.
    pub fn measured_ns(&self) -> u64 {
        self.measured_total_ns
    }
    /// Time integrated so far (equals [`Stepper::sim_ns`]).
    pub fn consumed_ns(&self) -> u64 {
        self.consumed_total_ns
    }
    /// Time lost to the clamp, the step cap, resyncs and slow fuzzy windows so far.
    pub fn dropped_ns(&self) -> u64 {
        self.dropped_total_ns
    }
    /// Time fuzzy windows ticked without having it, so far.
    pub fn invented_ns(&self) -> u64 {
        self.invented_total_ns
    }

    /// How long the loop should wait before running a frame of `frame_ns`, ns: above zero only
    /// for MonoGame's rule, while less than a tick has accumulated (the loop sleeps, reads the
    /// clock again and adds what it measured).
    pub fn due_in_ns(&self, frame_ns: u64) -> u64 {
        if !(self.config.wait_for_tick && self.mode.accumulates()) {
            return 0;
        }
        let have = self.accumulator_ns.saturating_add(frame_ns);
        self.config.dt_ns.saturating_sub(have)
    }

    /// Advances by one frame of `frame_ns` measured time, calling `step` for every step to take,
    /// in order. Returns what the frame did.
    pub fn advance(&mut self, frame_ns: u64, mut step: impl FnMut(Step)) -> FrameStats {
        let admitted = self.admit(frame_ns);
        // Every step goes through `take` so the bookkeeping cannot differ between modes.
        let mut frame = FrameCount::default();
        let cut_ns = match self.mode {
            Mode::Variable => self.steps_variable(&mut frame, &mut step),
            Mode::SemiFixed => self.steps_semi_fixed(&mut frame, &mut step),
            Mode::Fixed | Mode::Interpolated => match self.config.rule {
                StepRule::Whole => self.steps_fixed(&mut frame, &mut step),
                StepRule::Fuzzy {
                    above_ns,
                    consume_ns,
                } => self.steps_fuzzy(above_ns, consume_ns, &mut frame, &mut step),
                StepRule::JitterFix { .. } => self.steps_jitter(admitted.ns, &mut frame, &mut step),
            },
        };
        let dropped = admitted.dropped_ns + frame.dropped + cut_ns.unwrap_or(0);
        let (alpha, shown_ns) = self.shown();

        // Frame times that come from a clock cannot sum past u64::MAX ns (584 years); anything
        // else saturates instead of wrapping, and the stepper never panics on its input.
        self.steps_total += u64::from(frame.steps);
        self.measured_total_ns = self.measured_total_ns.saturating_add(frame_ns);
        self.consumed_total_ns = self.consumed_total_ns.saturating_add(frame.consumed);
        self.dropped_total_ns = self.dropped_total_ns.saturating_add(dropped);
        self.invented_total_ns = self.invented_total_ns.saturating_add(frame.invented);

        FrameStats {
            measured_ns: frame_ns,
            clamped_ns: admitted.clamped_ns,
            steps: frame.steps,
            consumed_ns: frame.consumed,
            dropped_ns: dropped,
            invented_ns: frame.invented,
            alpha,
            shown_ns,
            capped: cut_ns.is_some(),
        }
    }

    /// The frame's time in: clamped (the delta, or the accumulator), then resynced if the
    /// accumulator holds too many ticks. The jitter fix takes the clamped time itself.
    fn admit(&mut self, frame_ns: u64) -> Admitted {
        let cfg = self.config;
        let clamped = match cfg.clamp_on {
            ClampOn::Delta => frame_ns.min(cfg.clamp_ns),
            ClampOn::Accumulator => frame_ns,
        };
        let mut dropped = frame_ns - clamped;
        if self.jitter.is_some() && self.mode.accumulates() {
            return Admitted {
                ns: clamped,
                clamped_ns: clamped,
                dropped_ns: dropped,
            };
        }
        self.accumulator_ns = self.accumulator_ns.saturating_add(clamped);
        if cfg.clamp_on == ClampOn::Accumulator && self.accumulator_ns > cfg.clamp_ns {
            dropped += self.accumulator_ns - cfg.clamp_ns;
            self.accumulator_ns = cfg.clamp_ns;
        }
        if let Some(limit) = self.resync_over_ns
            && self.mode.accumulates()
            && self.accumulator_ns > limit
        {
            dropped += std::mem::take(&mut self.accumulator_ns);
        }
        Admitted {
            ns: clamped,
            clamped_ns: clamped,
            dropped_ns: dropped,
        }
    }

    /// One step of everything available (the clamped frame plus any remainder left by a
    /// previous fixed mode). A zero-length frame takes no step. Never capped.
    fn steps_variable(
        &mut self,
        frame: &mut FrameCount,
        step: &mut impl FnMut(Step),
    ) -> Option<u64> {
        let all = self.accumulator_ns;
        if all > 0 {
            self.take(frame, all, true, step);
        }
        None
    }

    /// Steps of `min(remaining, dt)` until the frame is used up; at the cap, the rest is cut
    /// (returned).
    fn steps_semi_fixed(
        &mut self,
        frame: &mut FrameCount,
        step: &mut impl FnMut(Step),
    ) -> Option<u64> {
        let cfg = self.config;
        while self.accumulator_ns > 0 {
            if frame.steps == cfg.max_steps {
                return Some(std::mem::take(&mut self.accumulator_ns));
            }
            let h = self.accumulator_ns.min(cfg.dt_ns);
            let last = h == self.accumulator_ns || frame.steps + 1 == cfg.max_steps;
            self.take(frame, h, last, step);
        }
        None
    }

    /// Whole dt steps while the accumulator holds one. The spiral-of-death guard: whole steps
    /// past the cap are cut (returned); the sub-dt remainder is kept so alpha stays continuous.
    fn steps_fixed(&mut self, frame: &mut FrameCount, step: &mut impl FnMut(Step)) -> Option<u64> {
        let cfg = self.config;
        let whole = self.accumulator_ns / cfg.dt_ns;
        let n = whole.min(u64::from(cfg.max_steps));
        let cut = (whole > n).then(|| (whole - n) * cfg.dt_ns);
        self.accumulator_ns -= cut.unwrap_or(0);
        for i in 0..n {
            self.take(frame, cfg.dt_ns, i + 1 == n, step);
        }
        cut
    }

    /// Glaiel's fuzzy window: a tick while the accumulator is above `above`, each taking
    /// `consume` off it and never leaving it below zero. Time a tick had without measuring it
    /// is counted as invented; time a tick consumed beyond its own length, as dropped.
    fn steps_fuzzy(
        &mut self,
        above: u64,
        consume: u64,
        frame: &mut FrameCount,
        step: &mut impl FnMut(Step),
    ) -> Option<u64> {
        let cfg = self.config;
        while self.accumulator_ns > above {
            if frame.steps == cfg.max_steps {
                let cut = self.accumulator_ns - self.accumulator_ns % cfg.dt_ns;
                self.accumulator_ns -= cut;
                return Some(cut);
            }
            let after = self.accumulator_ns.saturating_sub(consume);
            frame.invented += consume.saturating_sub(self.accumulator_ns);
            frame.dropped += consume.saturating_sub(cfg.dt_ns);
            let last = after <= above || frame.steps + 1 == cfg.max_steps;
            self.tick(frame, cfg.dt_ns, last, step);
            self.accumulator_ns = after;
        }
        None
    }

    /// Godot's jitter fix decides the ticks for the frame's `ns`; the cap then drops whole
    /// ticks past it, as `Main::iteration` does (Godot 4.3 `main/main.cpp` 4031-4035).
    fn steps_jitter(
        &mut self,
        ns: u64,
        frame: &mut FrameCount,
        step: &mut impl FnMut(Step),
    ) -> Option<u64> {
        let cfg = self.config;
        let wanted = self.jitter.as_mut().map_or(0, |j| j.advance(ns));
        let n = wanted.min(u64::from(cfg.max_steps));
        for i in 0..n {
            self.tick(frame, cfg.dt_ns, i + 1 == n, step);
        }
        (wanted > n).then(|| (wanted - n) * cfg.dt_ns)
    }

    /// Alpha and the simulation time of the state shown: in accumulating modes the time past
    /// the last tick as a fraction of it, and for a blending mode `t_previous + that time`
    /// (exactly `lerp(t_prev, t_cur, alpha)`); otherwise 0 and the current state's time.
    fn shown(&self) -> (f64, u64) {
        if !self.mode.accumulates() {
            return (0.0, self.sim_ns);
        }
        let past_ns = match &self.jitter {
            Some(j) => j.accum_ns().max(0) as u64,
            None => self.accumulator_ns,
        };
        let alpha = past_ns as f64 / self.config.dt_ns as f64;
        if self.mode.blends() {
            (alpha, self.prev_sim_ns + past_ns)
        } else {
            (alpha, self.sim_ns)
        }
    }

    /// A step of `dt_ns` taken out of the accumulator.
    fn take(
        &mut self,
        frame: &mut FrameCount,
        dt_ns: u64,
        last: bool,
        step: &mut impl FnMut(Step),
    ) {
        self.tick(frame, dt_ns, last, step);
        self.accumulator_ns -= dt_ns;
    }

    /// A step of `dt_ns` of simulated time (the accumulator is the caller's to adjust).
    fn tick(
        &mut self,
        frame: &mut FrameCount,
        dt_ns: u64,
        last: bool,
        step: &mut impl FnMut(Step),
    ) {
        step(Step { dt_ns, last });
        self.prev_sim_ns = self.sim_ns;
        self.sim_ns += dt_ns;
        frame.steps += 1;
        frame.consumed += dt_ns;
    }
}

#[derive(Default)]
struct FrameCount {
    steps: u32,
    consumed: u64,
    dropped: u64,
    invented: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn stepper(mode: Mode, dt: u64, clamp: u64, cap: Option<u32>) -> Stepper {
        Stepper::new(TimingConfig::new(dt, clamp, cap).unwrap(), mode)
    }

    fn advance(s: &mut Stepper, frame: u64) -> (FrameStats, Vec<Step>) {
        let mut v = Vec::new();
        let f = s.advance(frame, |st| v.push(st));
        (f, v)
    }

    #[test]
    fn seven_seconds_at_a_two_second_step_is_three_steps_and_one_second_left() {
        let mut s = stepper(Mode::Fixed, 2_000 * MS, 10_000 * MS, None);
        let (f, steps) = advance(&mut s, 7_000 * MS);
        assert_eq!(f.steps, 3);
        assert_eq!(steps.iter().map(|s| s.dt_ns).sum::<u64>(), 6_000 * MS);
        assert_eq!(s.accumulator_ns(), 1_000 * MS);
        assert_eq!(f.alpha, 0.5);
        assert!(steps[2].last && !steps[0].last);
    }

    #[test]
    fn variable_takes_one_step_of_the_clamped_frame() {
        let mut s = stepper(Mode::Variable, MS, 250 * MS, None);
        let (f, steps) = advance(&mut s, 16_666_667);
        assert_eq!(
            steps,
            vec![Step {
                dt_ns: 16_666_667,
                last: true
            }]
        );
        assert_eq!(f.alpha, 0.0);
        let (f, steps) = advance(&mut s, 0);
        assert!(steps.is_empty());
        assert_eq!(f.steps, 0);
    }

    #[test]
    fn semi_fixed_ends_each_frame_with_the_sliver_that_is_left() {
        let mut s = stepper(Mode::SemiFixed, MS, 250 * MS, None);
        let (_, steps) = advance(&mut s, 2_500_000);
        let dts: Vec<u64> = steps.iter().map(|s| s.dt_ns).collect();
        assert_eq!(dts, vec![MS, MS, 500_000]);
        assert_eq!(s.accumulator_ns(), 0);
        assert!(steps[2].last);
    }

    #[test]
    fn interpolated_shows_the_previous_state_time_plus_the_remainder() {
        let mut s = stepper(Mode::Interpolated, 10 * MS, 250 * MS, None);
        let (f, _) = advance(&mut s, 25 * MS);
        // Two steps: current at 20 ms, previous at 10 ms, 5 ms left: shows 15 ms.
        assert_eq!(s.sim_ns(), 20 * MS);
        assert_eq!(f.shown_ns, 15 * MS);
        assert_eq!(f.alpha, 0.5);
    }

    #[test]
    fn a_long_frame_is_clamped_and_the_excess_reported_as_dropped() {
        let mut s = stepper(Mode::Fixed, MS, 250 * MS, None);
        let (f, _) = advance(&mut s, 5_000 * MS);
        assert_eq!(f.steps, 250);
        assert_eq!(f.dropped_ns, 4_750 * MS);
        assert_eq!(s.sim_ns(), 250 * MS);
    }

    #[test]
    fn the_step_cap_drops_whole_steps_and_keeps_the_remainder() {
        let mut s = stepper(Mode::Fixed, MS, 250 * MS, Some(10));
        let (f, _) = advance(&mut s, 25_500_000);
        assert_eq!(f.steps, 10);
        assert!(f.capped);
        assert_eq!(f.dropped_ns, 15 * MS);
        assert_eq!(s.accumulator_ns(), 500_000);
        let mut semi = stepper(Mode::SemiFixed, MS, 250 * MS, Some(10));
        let (f, _) = advance(&mut semi, 25_500_000);
        assert_eq!(f.steps, 10);
        assert_eq!(f.dropped_ns, 15_500_000);
    }

    #[test]
    fn switching_to_variable_consumes_the_fixed_remainder() {
        let mut s = stepper(Mode::Fixed, 10 * MS, 250 * MS, None);
        advance(&mut s, 15 * MS);
        s.set_mode(Mode::Variable);
        let (_, steps) = advance(&mut s, 16 * MS);
        assert_eq!(steps[0].dt_ns, 21 * MS);
        assert_eq!(
            s.consumed_ns() + s.dropped_ns() + s.accumulator_ns(),
            s.measured_ns()
        );
    }

    #[test]
    fn config_rejects_a_zero_dt_a_clamp_below_dt_and_a_zero_cap() {
        assert!(TimingConfig::new(0, MS, None).is_err());
        assert!(TimingConfig::new(MS, MS / 2, None).is_err());
        assert!(TimingConfig::new(MS, MS, Some(0)).is_err());
        assert_eq!(
            TimingConfig::new(MS, 250 * MS, None).unwrap().max_steps,
            250
        );
    }

    fn books_balance(s: &Stepper) {
        let left = i128::from(s.measured_ns()) + i128::from(s.invented_ns());
        let right =
            i128::from(s.consumed_ns()) + i128::from(s.dropped_ns()) + i128::from(s.remainder_ns());
        assert_eq!(
            left, right,
            "measured + invented == consumed + dropped + remainder"
        );
    }

    fn with(config: TimingConfig, mode: Mode) -> Stepper {
        Stepper::new(config, mode)
    }

    const TICK: u64 = 16_666_667;

    #[test]
    fn a_fuzzy_window_ticks_on_a_slightly_short_frame_and_counts_the_time_it_invented() {
        let cfg = TimingConfig {
            rule: StepRule::Fuzzy {
                above_ns: TICK * 60 / 62,
                consume_ns: TICK,
            },
            ..TimingConfig::new(TICK, 250 * MS, None).unwrap()
        };
        let mut s = with(cfg, Mode::Fixed);
        // 16.5 ms is short of a tick but above 1/62 s: one tick, and 0.17 ms invented.
        let (f, _) = advance(&mut s, 16_500_000);
        assert_eq!(f.steps, 1);
        assert_eq!(s.accumulator_ns(), 0, "never below zero");
        assert_eq!(f.invented_ns, TICK - 16_500_000);
        // 15 ms is below 1/62 s: no tick.
        let (f, _) = advance(&mut s, 15_000_000);
        assert_eq!(f.steps, 0);
        books_balance(&s);
    }

    #[test]
    fn a_slow_fuzzy_window_drops_what_each_tick_consumes_beyond_itself() {
        // 59-61: tick while acc > 1/61 s, take 1/59 s: one tick per 59.94 Hz frame, so the game
        // runs at the display's rate (59.94/60).
        let cfg = TimingConfig {
            rule: StepRule::Fuzzy {
                above_ns: TICK * 60 / 61,
                consume_ns: TICK * 60 / 59,
            },
            ..TimingConfig::new(TICK, 250 * MS, None).unwrap()
        };
        let mut s = with(cfg, Mode::Fixed);
        for _ in 0..600 {
            let (f, _) = advance(&mut s, 16_683_350);
            assert_eq!(f.steps, 1, "one tick per 59.94 Hz frame, never two");
        }
        // Each tick consumes 1/59 s: the 0.28 ms beyond its own length is dropped, and the
        // 0.27 ms beyond the frame it had is invented (the accumulator stops at zero).
        let consume = TICK * 60 / 59;
        assert_eq!(s.dropped_ns(), 600 * (consume - TICK));
        assert_eq!(s.invented_ns(), 600 * (consume - 16_683_350));
        books_balance(&s);
    }

    #[test]
    fn monogame_clamps_the_accumulator_and_waits_for_a_whole_tick() {
        let cfg = TimingConfig {
            dt_ns: 16_666_700,
            clamp_ns: 500 * MS,
            clamp_on: ClampOn::Accumulator,
            max_steps: u32::MAX,
            rule: StepRule::Whole,
            wait_for_tick: true,
        };
        let mut s = with(cfg, Mode::Fixed);
        assert_eq!(s.due_in_ns(10 * MS), 6_666_700, "sleep until a tick is due");
        assert_eq!(s.due_in_ns(17 * MS), 0);
        // A 1 s stall: the accumulator holds 500 ms, which is 29 ticks (MonoGame Game.cs Tick).
        let (f, _) = advance(&mut s, 1_000 * MS);
        assert_eq!(f.steps, 29);
        assert_eq!(f.dropped_ns, 500 * MS);
        assert_eq!(s.accumulator_ns(), 500 * MS - 29 * 16_666_700);
        books_balance(&s);
    }

    #[test]
    fn an_accumulator_past_its_resync_limit_is_emptied_and_the_time_dropped() {
        let cfg = TimingConfig {
            clamp_ns: u64::MAX,
            max_steps: u32::MAX,
            ..TimingConfig::new(TICK, TICK, None).unwrap()
        };
        let mut s = with(cfg, Mode::Fixed);
        s.set_resync(Some(8 * TICK));
        let (f, _) = advance(&mut s, 8 * TICK);
        assert_eq!(f.steps, 8, "exactly 8 ticks is not past the limit");
        let (f, _) = advance(&mut s, 8 * TICK + 1);
        assert_eq!(
            (f.steps, f.dropped_ns),
            (0, 8 * TICK + 1),
            "past it: resynced to zero"
        );
        books_balance(&s);
    }

    #[test]
    fn the_jitter_fix_never_loses_time_and_the_cap_drops_whole_ticks() {
        let cfg = TimingConfig {
            rule: StepRule::JitterFix { permille: 500 },
            clamp_ns: u64::MAX,
            max_steps: 8,
            ..TimingConfig::new(TICK, TICK, None).unwrap()
        };
        let mut s = with(cfg, Mode::Interpolated);
        for _ in 0..100 {
            advance(&mut s, 6_944_444);
            books_balance(&s);
        }
        // A 1 s stall asks for about 60 ticks; Godot runs 8 and drops the rest for good.
        let (f, _) = advance(&mut s, 1_000 * MS);
        assert_eq!(f.steps, 8);
        assert_eq!(f.dropped_ns % TICK, 0, "whole ticks");
        assert!(
            (50..=52).contains(&(f.dropped_ns / TICK)),
            "{}",
            f.dropped_ns / TICK
        );
        books_balance(&s);
    }
}
