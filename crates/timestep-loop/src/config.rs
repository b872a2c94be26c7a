//! A stepper's fixed settings: the tick, the clamp, the step cap, and the rule that decides
//! how many ticks a frame runs. Built only through checks, so that every `TimingConfig` that
//! exists keeps its invariants: a tick above zero, a clamp no shorter than the tick, a cap of
//! at least one step.

use crate::tick::Tick;
use crate::units::format_duration;
use std::fmt;
use std::num::NonZeroU32;

/// Which ticks a frame runs, given the time accumulated (accumulating modes only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StepRule {
    /// Whole ticks while the accumulator holds one (`while acc >= tick`): Fix Your Timestep,
    /// Bevy, Unity, MonoGame, game-loop, Glaiel's timer.
    Whole,
    /// Glaiel's fuzzy window ("How to make your game run at 60fps"), in his terms for a 60 Hz
    /// update and scaled to the tick: tick while `acc > tick × 60 / above` (his `1/62` s is
    /// `above: 62`), each tick takes `tick × 60 / consume` off the accumulator (`1/60` s is
    /// `consume: 60`), which never goes below zero. `above` over 60 lets a slightly short frame
    /// still tick (time is invented and counted); `consume` under 60 lets the game run
    /// slightly slow (time is dropped and counted). Exact for any tick: both are kept in the
    /// stepper's units, rounded down.
    Fuzzy {
        /// Tick while the accumulator holds more than `tick × 60 / above`.
        above: u32,
        /// Each tick takes `tick × 60 / consume` off the accumulator.
        consume: u32,
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
#[non_exhaustive]
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
    /// A fuzzy window with a zero in its rates (`above` or `consume`).
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
            ConfigError::ZeroConsume => f.write_str("a fuzzy window's rates must be above zero"),
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
    tick: Tick,
    clamp_ns: Option<u64>,
    clamp_on: ClampOn,
    max_steps: Option<NonZeroU32>,
    rule: StepRule,
    wait_for_tick: bool,
}

impl TimingConfig {
    /// A tick of `tick` (whole ns, or a [`Tick`] of a rate) with no clamp, no step cap, whole
    /// ticks, no waiting.
    pub fn new(tick: impl Into<Tick>) -> Result<Self, ConfigError> {
        let tick = tick.into();
        if tick.is_zero() {
            return Err(ConfigError::ZeroTick);
        }
        Ok(TimingConfig {
            tick,
            clamp_ns: None,
            clamp_on: ClampOn::Delta,
            max_steps: None,
            rule: StepRule::Whole,
            wait_for_tick: false,
        })
    }

    /// Fix Your Timestep's loop: a tick, a clamp on each frame's time, and a step cap that is
    /// `max_steps`, or `ceil(clamp / tick)` when `None`: every tick a clamped frame can hold
    /// (with the remainder carried, a clamped frame may hold one more than `clamp / tick`
    /// rounded down), so the cap never drops what the clamp let through.
    pub fn textbook(
        tick: impl Into<Tick>,
        clamp_ns: u64,
        max_steps: Option<u32>,
    ) -> Result<Self, ConfigError> {
        let cfg = TimingConfig::new(tick)?.with_clamp(clamp_ns)?;
        let t = cfg.tick;
        let ticks = t.units(clamp_ns).div_ceil(t.in_units());
        let default_steps = u32::try_from(ticks).unwrap_or(u32::MAX).max(1);
        cfg.with_max_steps(max_steps.unwrap_or(default_steps))
    }

    /// The same settings with another tick; the clamp must still hold a whole one.
    pub fn with_tick(self, tick: impl Into<Tick>) -> Result<Self, ConfigError> {
        let tick = tick.into();
        if tick.is_zero() {
            return Err(ConfigError::ZeroTick);
        }
        TimingConfig { tick, ..self }.checked()
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
            StepRule::Fuzzy { above, consume } if above == 0 || consume == 0 => {
                return Err(ConfigError::ZeroConsume);
            }
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
            Some(clamp_ns) if self.tick.units(clamp_ns) < self.tick.in_units() => {
                Err(ConfigError::ClampBelowTick {
                    clamp_ns,
                    tick_ns: self.tick.ns(),
                })
            }
            _ => Ok(self),
        }
    }

    /// The fixed step (a policy's tick), exactly.
    pub fn tick(&self) -> Tick {
        self.tick
    }

    /// The fixed step to the nearest ns (what prints; a rate's tick is kept exactly by
    /// [`TimingConfig::tick`]).
    pub fn tick_ns(&self) -> u64 {
        self.tick.ns()
    }

    /// The fixed step in seconds.
    pub fn tick_s(&self) -> f64 {
        self.tick.seconds()
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
    /// A game's default: Fix Your Timestep's loop at a 60 Hz tick (exactly 1/60 s), frames
    /// clamped to 250 ms, at most 15 ticks a frame (`TimingConfig::textbook(Tick::per_second(60)?,
    /// 250_000_000, None)`, what [`crate::Loop::textbook_hz`] builds for 60).
    fn default() -> Self {
        TimingConfig {
            tick: Tick::from_rate_const(50_000_000, 3),
            clamp_ns: Some(250_000_000),
            clamp_on: ClampOn::Delta,
            max_steps: NonZeroU32::new(15),
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
        let sixty = Tick::per_second(60).ok_or(ConfigError::ZeroTick);
        assert_eq!(
            Ok(TimingConfig::default()),
            sixty.and_then(|t| TimingConfig::textbook(t, 250 * MS, None))
        );
    }

    #[test]
    fn the_default_cap_lets_the_whole_clamp_through() {
        // 250 ms of 60 Hz ticks is 15 exactly; of 16,666,667 ns ticks, 14.99: 15 too.
        let sixty = Tick::per_second(60).unwrap();
        let cap = |t: Tick| TimingConfig::textbook(t, 250 * MS, None).map(|c| c.max_steps());
        assert_eq!(cap(sixty), Ok(Some(15)));
        assert_eq!(cap(Tick::from_ns(16_666_667)), Ok(Some(15)));
        assert_eq!(cap(Tick::from_ns(MS)), Ok(Some(250)));
        // A rate tick must fit the clamp exactly: 1/60 s fits a clamp of 16,666,667 ns, not
        // one of 16,666,666.
        assert!(TimingConfig::textbook(sixty, 16_666_667, None).is_ok());
        assert!(TimingConfig::textbook(sixty, 16_666_666, None).is_err());
    }
}
