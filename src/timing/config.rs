//! A stepper's fixed settings: the tick, the clamp, the step cap, and the rule that decides
//! how many ticks a frame runs.

use super::duration::format_duration;

/// Which ticks a frame runs, given the time accumulated (accumulating modes only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepRule {
    /// Whole ticks while the accumulator holds one (`while acc >= tick`): Fix Your Timestep,
    /// Bevy, Unity, MonoGame, game-loop, Glaiel's timer.
    Whole,
    /// Glaiel's fuzzy window (seed 004): tick while `acc > above_ns`, each tick takes
    /// `consume_ns` off the accumulator, which never goes below zero. `above` below a tick lets
    /// a slightly short frame still tick (time is invented and counted); `consume` above a tick
    /// lets the game run slightly slow (time is dropped and counted).
    Fuzzy { above_ns: u64, consume_ns: u64 },
    /// Godot's jitter fix ([`super::JitterFix`]), with `physics_jitter_fix` in thousandths.
    JitterFix { permille: u32 },
}

/// What the clamp limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClampOn {
    /// One frame's time, before it is added (ours, Bevy, Unity, game-loop).
    Delta,
    /// The accumulator after the frame's time is added (MonoGame's `MaxElapsedTime`).
    Accumulator,
}

/// The stepper's fixed settings. Build with [`TimingConfig::new`], which checks the flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimingConfig {
    /// The fixed step (a policy's tick), in ns.
    pub dt_ns: u64,
    /// The clamp, ns; `u64::MAX` for none. Time above it is dropped.
    pub clamp_ns: u64,
    pub clamp_on: ClampOn,
    /// At most this many steps per frame; whole steps beyond it are dropped. `u32::MAX`: none.
    pub max_steps: u32,
    pub rule: StepRule,
    /// MonoGame's fixed step: a frame with less than a tick accumulated is not run; the loop
    /// sleeps until a tick is due and reads the clock again.
    pub wait_for_tick: bool,
}

impl TimingConfig {
    /// The textbook loop of `--dt`, `--clamp` and `--max-steps`. `max_steps: None` means
    /// `clamp / dt` (at least 1): enough to consume a clamped frame.
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
            clamp_on: ClampOn::Delta,
            max_steps,
            rule: StepRule::Whole,
            wait_for_tick: false,
        })
    }

    /// The fixed step in seconds.
    pub fn dt_s(&self) -> f64 {
        self.dt_ns as f64 * 1e-9
    }

    /// The clamp, if there is one.
    pub fn clamp(&self) -> Option<u64> {
        (self.clamp_ns != u64::MAX).then_some(self.clamp_ns)
    }

    /// The step cap, if there is one.
    pub fn cap(&self) -> Option<u32> {
        (self.max_steps != u32::MAX).then_some(self.max_steps)
    }
}
