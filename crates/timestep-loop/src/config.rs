//! A stepper's fixed settings: the tick, the clamp, the step cap, and the rule that decides
//! how many ticks a frame runs. Built only through checks, so that every `TimingConfig` that
//! exists keeps its invariants: a tick above zero, a clamp no shorter than the tick, a cap of
//! at least one step.

use crate::units::format_duration;
use std::fmt;
use std::num::NonZeroU32;

/// Which ticks a frame runs, given the time accumulated (accumulating modes only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepRule {
    /// Whole ticks while the accumulator holds one (`while acc >= tick`): Fix Your Timestep,
    /// Bevy, Unity, MonoGame, game-loop, Glaiel's timer.
    Whole,
    /// Glaiel's fuzzy window ("How to make your game run at 60fps"): tick while
    /// `acc > above_ns`, each tick takes `consume_ns` off the accumulator, which never goes
    /// below zero. `above` below a tick lets a slightly short frame still tick (time is
    /// invented and counted); `consume` above a tick lets the game run slightly slow (time is
    /// dropped and counted).
    Fuzzy {
        /// Tick while the accumulator holds more than this, ns.
        above_ns: u64,
        /// What each tick takes off the accumulator, ns.
        consume_ns: u64,
    },
    /// Godot's jitter fix ([`crate::JitterFix`]), with `physics_jitter_fix` in thousandths.
    JitterFix {
        /// Godot's `physics_jitter_fix` × 1000 (0.5 is 500).
        permille: u32,
    },
}

/// What the clamp limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClampOn {
    /// One frame's time, before it is added (Fix Your Timestep, Bevy, Unity, game-loop).
    Delta,
    /// The accumulator after the frame's time is added (MonoGame's `MaxElapsedTime`).
    Accumulator,
}

/// Why a [`TimingConfig`] cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A tick of zero length.
    ZeroTick,
    /// A clamp shorter than the tick: no frame could ever hold a whole tick.
    ClampBelowTick {
        /// The clamp, ns.
        clamp_ns: u64,
        /// The tick, ns.
        tick_ns: u64,
    },
    /// A step cap of zero steps.
    ZeroSteps,
    /// A fuzzy window whose tick consumes nothing.
    ZeroConsume,
    /// A jitter fix above Godot's range (0 to 2).
    JitterOutOfRange {
        /// What was asked, thousandths.
        permille: u32,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::ZeroTick => f.write_str("the tick must be longer than zero"),
            ConfigError::ClampBelowTick { clamp_ns, tick_ns } => write!(
                f,
                "the clamp ({}) must be at least the tick ({})",
                format_duration(*clamp_ns),
                format_duration(*tick_ns)
            ),
            ConfigError::ZeroSteps => f.write_str("the step cap must be at least 1 step"),
            ConfigError::ZeroConsume => f.write_str("a fuzzy window must consume time"),
            ConfigError::JitterOutOfRange { permille } => write!(
                f,
                "a jitter fix of {} is outside 0 to 2",
                f64::from(*permille) / 1000.0
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// The stepper's fixed settings.
///
/// ```
/// use timestep_loop::{ConfigError, TimingConfig};
/// // Fix Your Timestep: a 1 ms tick, frames clamped to 250 ms, at most 250 ticks a frame.
/// let cfg = TimingConfig::textbook(1_000_000, 250_000_000, None)?;
/// assert_eq!(cfg.max_steps(), Some(250));
/// // A clamp shorter than the tick cannot be made.
/// assert!(matches!(
///     TimingConfig::new(20_000_000)?.with_clamp(10_000_000),
///     Err(ConfigError::ClampBelowTick { .. })
/// ));
/// # Ok::<(), ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimingConfig {
    tick_ns: u64,
    clamp_ns: Option<u64>,
    clamp_on: ClampOn,
    max_steps: Option<NonZeroU32>,
    rule: StepRule,
    wait_for_tick: bool,
}

impl TimingConfig {
    /// A tick of `tick_ns` with no clamp, no step cap, whole ticks, no waiting.
    pub fn new(tick_ns: u64) -> Result<Self, ConfigError> {
        if tick_ns == 0 {
            return Err(ConfigError::ZeroTick);
        }
        Ok(TimingConfig {
            tick_ns,
            clamp_ns: None,
            clamp_on: ClampOn::Delta,
            max_steps: None,
            rule: StepRule::Whole,
            wait_for_tick: false,
        })
    }

    /// Fix Your Timestep's loop: a tick, a clamp on each frame's time, and a step cap that is
    /// `max_steps`, or `clamp / tick` (at least 1) when `None`: enough to consume a clamped
    /// frame.
    pub fn textbook(
        tick_ns: u64,
        clamp_ns: u64,
        max_steps: Option<u32>,
    ) -> Result<Self, ConfigError> {
        let cfg = TimingConfig::new(tick_ns)?.with_clamp(clamp_ns)?;
        let default_steps = u32::try_from(clamp_ns / tick_ns).unwrap_or(u32::MAX).max(1);
        cfg.with_max_steps(max_steps.unwrap_or(default_steps))
    }

    /// The same settings with another tick; the clamp must still hold a whole one.
    pub fn with_tick(self, tick_ns: u64) -> Result<Self, ConfigError> {
        if tick_ns == 0 {
            return Err(ConfigError::ZeroTick);
        }
        TimingConfig { tick_ns, ..self }.checked()
    }

    /// Clamps each frame's time to `clamp_ns`; time above it is dropped (and counted).
    pub fn with_clamp(self, clamp_ns: u64) -> Result<Self, ConfigError> {
        TimingConfig {
            clamp_ns: Some(clamp_ns),
            clamp_on: ClampOn::Delta,
            ..self
        }
        .checked()
    }

    /// Clamps the accumulator, after each frame's time is added, to `clamp_ns` (MonoGame).
    pub fn with_accumulator_clamp(self, clamp_ns: u64) -> Result<Self, ConfigError> {
        TimingConfig {
            clamp_ns: Some(clamp_ns),
            clamp_on: ClampOn::Accumulator,
            ..self
        }
        .checked()
    }

    /// At most `steps` ticks a frame; whole ticks beyond it are dropped (and counted).
    pub fn with_max_steps(self, steps: u32) -> Result<Self, ConfigError> {
        let steps = NonZeroU32::new(steps).ok_or(ConfigError::ZeroSteps)?;
        Ok(TimingConfig {
            max_steps: Some(steps),
            ..self
        })
    }

    /// Steps by `rule`.
    pub fn with_rule(self, rule: StepRule) -> Result<Self, ConfigError> {
        match rule {
            StepRule::Fuzzy { consume_ns: 0, .. } => return Err(ConfigError::ZeroConsume),
            StepRule::JitterFix { permille } if permille > 2000 => {
                return Err(ConfigError::JitterOutOfRange { permille });
            }
            _ => {}
        }
        Ok(TimingConfig { rule, ..self })
    }

    /// MonoGame's fixed step: a frame with less than a tick accumulated is not run; the loop
    /// sleeps until a tick is due and reads the clock again ([`crate::Stepper::due_in_ns`]).
    pub fn waiting_for_tick(self) -> Self {
        TimingConfig {
            wait_for_tick: true,
            ..self
        }
    }

    /// The checks every builder ends with.
    fn checked(self) -> Result<Self, ConfigError> {
        match self.clamp_ns {
            Some(clamp_ns) if clamp_ns < self.tick_ns => Err(ConfigError::ClampBelowTick {
                clamp_ns,
                tick_ns: self.tick_ns,
            }),
            _ => Ok(self),
        }
    }

    /// The fixed step (a policy's tick), ns.
    pub fn tick_ns(&self) -> u64 {
        self.tick_ns
    }

    /// The fixed step in seconds.
    pub fn tick_s(&self) -> f64 {
        crate::units::seconds(self.tick_ns)
    }

    /// The clamp, ns, if there is one.
    pub fn clamp_ns(&self) -> Option<u64> {
        self.clamp_ns
    }

    /// What the clamp limits.
    pub fn clamp_on(&self) -> ClampOn {
        self.clamp_on
    }

    /// The step cap, if there is one.
    pub fn max_steps(&self) -> Option<u32> {
        self.max_steps.map(NonZeroU32::get)
    }

    /// The rule that decides how many ticks a frame runs.
    pub fn rule(&self) -> StepRule {
        self.rule
    }

    /// Whether a frame waits until a whole tick is due (MonoGame).
    pub fn waits_for_tick(&self) -> bool {
        self.wait_for_tick
    }
}

impl Default for TimingConfig {
    /// Fix Your Timestep's loop with a 1 ms tick: frames clamped to its 0.25 s, at most 250
    /// ticks a frame.
    fn default() -> Self {
        TimingConfig {
            tick_ns: 1_000_000,
            clamp_ns: Some(250_000_000),
            clamp_on: ClampOn::Delta,
            max_steps: NonZeroU32::new(250),
            rule: StepRule::Whole,
            wait_for_tick: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn the_invariants_hold_for_every_way_of_building_one() {
        assert_eq!(TimingConfig::new(0), Err(ConfigError::ZeroTick));
        assert_eq!(
            TimingConfig::textbook(MS, MS / 2, None),
            Err(ConfigError::ClampBelowTick {
                clamp_ns: MS / 2,
                tick_ns: MS
            })
        );
        assert_eq!(
            TimingConfig::textbook(MS, MS, Some(0)),
            Err(ConfigError::ZeroSteps)
        );
        assert_eq!(
            TimingConfig::textbook(MS, 250 * MS, None).map(|c| c.max_steps()),
            Ok(Some(250))
        );
        // A longer tick must still fit the clamp, whichever way the clamp is applied.
        let clamped = TimingConfig::new(MS).and_then(|c| c.with_accumulator_clamp(100 * MS));
        assert!(matches!(
            clamped.and_then(|c| c.with_tick(200 * MS)),
            Err(ConfigError::ClampBelowTick { .. })
        ));
        let err = TimingConfig::textbook(MS, MS / 2, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the clamp (500us) must be at least the tick (1ms)"
        );
        assert!(
            TimingConfig::new(MS)
                .and_then(|c| c.with_rule(StepRule::JitterFix { permille: 2001 }))
                .is_err()
        );
        assert_eq!(
            Ok(TimingConfig::default()),
            TimingConfig::textbook(MS, 250 * MS, None)
        );
    }
}
