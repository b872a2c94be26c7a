//! When the rope is stepped: the four stepping modes, the clamp, the step cap and the
//! integer-nanosecond accumulator.
//!
//! Everything here works on explicit durations; nothing reads a clock. The window feeds it
//! `Instant` differences, `simulate` feeds it a simulated display's, and both get exactly the
//! same stepping. Time is kept in whole nanoseconds (`u64`): with floats, `accumulator -= dt`
//! leaves rounding residue that makes fixed stepping drift over hours; with integers,
//! `steps == consumed / dt` holds exactly, forever (a `u64` of nanoseconds lasts 584 years).

mod clock;
mod duration;
mod mode;

pub use clock::{Clock, FrameClock, SystemClock};
pub use duration::{MAX_DURATION_NS, format_duration, parse_duration};
pub use mode::{Mode, one_of};

/// The stepper's fixed settings. Build with [`TimingConfig::new`], which checks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimingConfig {
    /// The fixed step, in ns.
    pub dt_ns: u64,
    /// Frame times above this are clamped to it before any mode sees them, in ns.
    pub clamp_ns: u64,
    /// At most this many steps per frame; time beyond it is dropped.
    pub max_steps: u32,
}

impl TimingConfig {
    /// `max_steps: None` means `clamp / dt` (at least 1): enough to consume a clamped frame.
    pub fn new(dt_ns: u64, clamp_ns: u64, max_steps: Option<u32>) -> Result<Self, String> {
        if dt_ns == 0 {
            return Err("--dt must be greater than zero".into());
        }
        if clamp_ns < dt_ns {
            return Err(format!(
                "--clamp ({}) must be at least --dt ({})",
                format_duration(clamp_ns),
                format_duration(dt_ns)
            ));
        }
        let default_steps = u32::try_from(clamp_ns / dt_ns).unwrap_or(u32::MAX).max(1);
        let max_steps = max_steps.unwrap_or(default_steps);
        if max_steps == 0 {
            return Err("--max-steps must be at least 1".into());
        }
        Ok(TimingConfig {
            dt_ns,
            clamp_ns,
            max_steps,
        })
    }

    /// The fixed step in seconds.
    pub fn dt_s(&self) -> f64 {
        self.dt_ns as f64 * 1e-9
    }
}

/// One step the caller must integrate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The step's length in ns (always `dt` in fixed and interpolated modes).
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
    /// Steps taken this frame.
    pub steps: u32,
    /// Time integrated this frame.
    pub consumed_ns: u64,
    /// Time lost this frame to the clamp or the step cap.
    pub dropped_ns: u64,
    /// `accumulator / dt`, in [0, 1): the blend factor in interpolated mode, and how far the
    /// shown state lags real time in fixed mode. 0 in variable and semi-fixed modes.
    pub alpha: f64,
    /// The simulation time of the state shown this frame, in ns: the current state's time, or
    /// in interpolated mode `t_previous + accumulator` (exactly `lerp(t_prev, t_cur, alpha)`).
    pub shown_ns: u64,
    /// True when the step cap cut this frame short.
    pub capped: bool,
}

/// Turns frame times into steps for the current [`Mode`].
///
/// The design follows bevy_time's `Time<Fixed>` (accumulate, then expend whole steps), with two
/// differences that matter for a measuring tool: time thrown away by the clamp or the step cap
/// is counted in [`Stepper::dropped_ns`] rather than lost silently, and the invariant
/// `consumed + dropped + accumulator == measured` holds after every frame.
#[derive(Clone, Debug)]
pub struct Stepper {
    config: TimingConfig,
    mode: Mode,
    accumulator_ns: u64,
    /// Time of the current state.
    sim_ns: u64,
    /// Time of the state before the last step (the blend's `previous`).
    prev_sim_ns: u64,
    steps_total: u64,
    measured_total_ns: u64,
    consumed_total_ns: u64,
    dropped_total_ns: u64,
}

impl Stepper {
    pub fn new(config: TimingConfig, mode: Mode) -> Self {
        Stepper {
            config,
            mode,
            accumulator_ns: 0,
            sim_ns: 0,
            prev_sim_ns: 0,
            steps_total: 0,
            measured_total_ns: 0,
            consumed_total_ns: 0,
            dropped_total_ns: 0,
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
    pub fn accumulator_ns(&self) -> u64 {
        self.accumulator_ns
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
    /// Time integrated so far (equals [`Stepper::sim_ns`] unless the simulation was reset).
    pub fn consumed_ns(&self) -> u64 {
        self.consumed_total_ns
    }
    /// Time lost to the clamp and the step cap so far.
    pub fn dropped_ns(&self) -> u64 {
        self.dropped_total_ns
    }

    /// Advances by one frame of `frame_ns` measured time, calling `step` for every step to take,
    /// in order. Returns what the frame did.
    pub fn advance(&mut self, frame_ns: u64, mut step: impl FnMut(Step)) -> FrameStats {
        let clamped = frame_ns.min(self.config.clamp_ns);
        self.accumulator_ns += clamped;
        // Every step goes through `take` so the bookkeeping cannot differ between modes.
        let mut frame = FrameCount::default();
        let cut_ns = match self.mode {
            Mode::Variable => self.steps_variable(&mut frame, &mut step),
            Mode::SemiFixed => self.steps_semi_fixed(&mut frame, &mut step),
            Mode::Fixed | Mode::Interpolated => self.steps_fixed(&mut frame, &mut step),
        };
        let dropped = frame_ns - clamped + cut_ns.unwrap_or(0);
        let (alpha, shown_ns) = self.shown();

        // Frame times that come from a clock cannot sum past u64::MAX ns (584 years); anything
        // else saturates instead of wrapping, and the stepper never panics on its input.
        self.steps_total += u64::from(frame.steps);
        self.measured_total_ns = self.measured_total_ns.saturating_add(frame_ns);
        self.consumed_total_ns += frame.consumed;
        self.dropped_total_ns = self.dropped_total_ns.saturating_add(dropped);

        FrameStats {
            measured_ns: frame_ns,
            clamped_ns: clamped,
            steps: frame.steps,
            consumed_ns: frame.consumed,
            dropped_ns: dropped,
            alpha,
            shown_ns,
            capped: cut_ns.is_some(),
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

    /// Alpha and the simulation time of the state shown: in accumulating modes
    /// `accumulator / dt`, and for a blending mode `t_previous + accumulator` (exactly
    /// `lerp(t_prev, t_cur, alpha)`); otherwise 0 and the current state's time.
    fn shown(&self) -> (f64, u64) {
        if !self.mode.accumulates() {
            return (0.0, self.sim_ns);
        }
        let alpha = self.accumulator_ns as f64 / self.config.dt_ns as f64;
        if self.mode.blends() {
            (alpha, self.prev_sim_ns + self.accumulator_ns)
        } else {
            (alpha, self.sim_ns)
        }
    }

    fn take(
        &mut self,
        frame: &mut FrameCount,
        dt_ns: u64,
        last: bool,
        step: &mut impl FnMut(Step),
    ) {
        step(Step { dt_ns, last });
        self.prev_sim_ns = self.sim_ns;
        self.sim_ns += dt_ns;
        self.accumulator_ns -= dt_ns;
        frame.steps += 1;
        frame.consumed += dt_ns;
    }
}

#[derive(Default)]
struct FrameCount {
    steps: u32,
    consumed: u64,
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
}
