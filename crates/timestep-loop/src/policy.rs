//! Loop policies: everything that decides how a loop turns measured frame times into ticks and
//! what it shows — the tick, the timer (delta filter), the clamp, the step rule, the cap and what
//! happens to the excess, and whether it blends. A textbook mode takes them from its
//! [`PolicyEnv`]; an engine preset fixes them as that engine does (`preset.rs`, each citing its
//! source).
//!
//! A policy whose tick is longer than the simulation can take (a stiff spring may be stable only
//! below a few milliseconds) integrates each tick as equal substeps no longer than its maximum
//! substep: a tick is still one step of the policy, and counted as one.

use crate::config::{StepRule, TimingConfig};
use crate::mode::Mode;
use crate::preset::Preset;
use crate::timer::TimerKind;
use crate::units::{NS_PER_MS, format_duration};
use std::fmt;

/// The default longest substep for presets, ns (1 ms).
pub const DEFAULT_MAX_SUBSTEP_NS: u64 = NS_PER_MS;

/// The longest single integration step a tick may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MaxSubstep {
    /// Not given: presets substep at 1 ms; the textbook modes do not substep.
    #[default]
    Default,
    /// `off`: nothing substeps (what the raw tick does to this stiff rope).
    Off,
    /// Every loop substeps at this length, ns.
    Set(u64),
}

impl MaxSubstep {
    /// The substep length for a preset (`preset`) or a textbook mode.
    pub fn for_loop(self, preset: bool) -> Option<u64> {
        match self {
            MaxSubstep::Default => preset.then_some(DEFAULT_MAX_SUBSTEP_NS),
            MaxSubstep::Off => None,
            MaxSubstep::Set(ns) => (ns > 0).then_some(ns),
        }
    }
}

/// Glaiel's fuzzy windows (Tyler Glaiel, "How to make your game run at 60fps").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Fuzzy {
    /// `fuzzy`: tick while acc > 1/62 s, take 1/60 s, never below zero (60–62 fps).
    Window62,
    /// `fuzzy59`: tick while acc > 1/61 s, take 1/59 s, never below zero (59–61 fps: the game
    /// runs slightly slow instead of double-updating on a 59.94 Hz display).
    Window61,
}

impl Fuzzy {
    /// The name a user types.
    pub fn name(self) -> &'static str {
        match self {
            Fuzzy::Window62 => "fuzzy",
            Fuzzy::Window61 => "fuzzy59",
        }
    }

    /// The step rule (the windows scale with the tick: 60/62 and 60/61 of it, taking 60/60
    /// and 60/59 of it).
    pub fn rule(self) -> StepRule {
        match self {
            Fuzzy::Window62 => StepRule::Fuzzy {
                above: 62,
                consume: 60,
            },
            Fuzzy::Window61 => StepRule::Fuzzy {
                above: 61,
                consume: 59,
            },
        }
    }
}

/// What a loop needs to know of its surroundings to build its policy.
///
/// Built from [`PolicyEnv::default`] (a 60 Hz textbook tick) or [`PolicyEnv::textbook`] and
/// the `with_*` calls; its fields are read directly.
///
/// ```
/// use timestep_loop::{MaxSubstep, PolicyEnv, TimingConfig};
///
/// let timing = TimingConfig::textbook(10_000_000, 250_000_000, None)?; // a 10 ms tick
/// let env = PolicyEnv::textbook(timing)
///     .with_max_substep(MaxSubstep::Set(1_000_000)) // integrate each tick in 1 ms substeps
///     .with_vsync_requested(false)
///     .with_refresh_hint(Some(144.0));
/// assert_eq!(env.timing.tick_ns(), 10_000_000);
/// assert_eq!(env.refresh_hint_hz, Some(144.0));
/// # Ok::<(), timestep_loop::ConfigError>(())
/// ```
///
/// It may gain fields, so it is not built by a struct literal outside the crate:
/// ```compile_fail
/// use timestep_loop::{PolicyEnv, TimingConfig};
/// let env = PolicyEnv { refresh_hint_hz: Some(60.0), ..PolicyEnv::default() };
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct PolicyEnv {
    /// The textbook modes' tick, clamp and step cap (presets bring their own).
    pub timing: TimingConfig,
    /// How long one integration step may be.
    pub max_substep: MaxSubstep,
    /// Whether the loop asks for vsync (Godot's smoother works only then).
    pub vsync_requested: bool,
    /// The display's nominal refresh rate, if the loop can know it (a hint).
    pub refresh_hint_hz: Option<f64>,
}

impl PolicyEnv {
    /// The textbook loop of `timing`, ticks integrated whole, vsync requested, no hint.
    pub const fn textbook(timing: TimingConfig) -> PolicyEnv {
        PolicyEnv {
            timing,
            max_substep: MaxSubstep::Off,
            vsync_requested: true,
            refresh_hint_hz: None,
        }
    }

    /// The same surroundings with the textbook modes' tick, clamp and cap of `timing`.
    pub const fn with_timing(self, timing: TimingConfig) -> PolicyEnv {
        PolicyEnv { timing, ..self }
    }

    /// The same surroundings with ticks integrated in substeps of at most `max_substep`.
    pub const fn with_max_substep(self, max_substep: MaxSubstep) -> PolicyEnv {
        PolicyEnv {
            max_substep,
            ..self
        }
    }

    /// The same surroundings with vsync asked for (`true`) or not.
    pub const fn with_vsync_requested(self, vsync_requested: bool) -> PolicyEnv {
        PolicyEnv {
            vsync_requested,
            ..self
        }
    }

    /// The same surroundings on a display believed to run at `hz` (a hint), or with no hint
    /// (`None`).
    pub const fn with_refresh_hint(self, hz: Option<f64>) -> PolicyEnv {
        PolicyEnv {
            refresh_hint_hz: hz,
            ..self
        }
    }
}

impl Default for PolicyEnv {
    /// [`TimingConfig::default`]'s textbook loop (a 60 Hz tick), ticks integrated whole, vsync
    /// requested, no hint.
    fn default() -> Self {
        PolicyEnv::textbook(TimingConfig::default())
    }
}

/// A loop's whole rule set, resolved. Every field holds a checked value: a policy is built by
/// [`crate::LoopSpec::policy`] or [`Preset::policy`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Policy {
    /// How the stepper steps: variable, semi-fixed, or one of the accumulating modes (fixed,
    /// interpolated: whether it blends).
    pub mode: Mode,
    /// The tick, clamp, cap and step rule.
    pub timing: TimingConfig,
    /// What it does to a measured frame time first.
    pub timer: TimerKind,
    /// The longest integration step a tick may take, ns, if it substeps.
    pub max_substep_ns: Option<u64>,
    /// The engine it follows, if any.
    pub preset: Option<Preset>,
}

impl Policy {
    /// Substeps per tick (1 when the tick fits, or the loop does not substep).
    pub fn substeps_per_tick(&self) -> u64 {
        substeps(self.timing.tick_ns(), self.max_substep_ns)
    }

    /// The step rule as the report and the HUD say it.
    pub fn rule_name(&self) -> String {
        match self.mode {
            Mode::Variable => return "one step of each frame".into(),
            Mode::SemiFixed => return "steps of min(rest of frame, tick)".into(),
            Mode::Fixed | Mode::Interpolated => {}
        }
        match self.timing.rule() {
            StepRule::Whole => "whole ticks".into(),
            StepRule::Fuzzy { consume, .. } if consume < 60 => "fuzzy 59-61".into(),
            StepRule::Fuzzy { .. } => "fuzzy 60-62".into(),
            StepRule::JitterFix { permille } => {
                format!("jitter fix {}", permille as f64 / 1000.0)
            }
        }
    }
}

impl fmt::Display for Policy {
    /// One line: tick (and substeps), timer, rule, clamp, cap, shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.timing;
        if self.mode != Mode::Variable {
            write!(f, "tick {}", format_duration(t.tick_ns()))?;
            if self.substeps_per_tick() > 1 {
                write!(f, " in {} substeps", self.substeps_per_tick())?;
            }
            f.write_str(", ")?;
        }
        write!(f, "{} timer, {}", self.timer, self.rule_name())?;
        match t.clamp_ns() {
            Some(c) => write!(f, ", clamp {}", format_duration(c))?,
            None => write!(f, ", no clamp")?,
        }
        match t.max_steps() {
            Some(c) => write!(f, ", cap {c}")?,
            None => write!(f, ", no cap")?,
        }
        let shown = if self.mode.blends() {
            "blended"
        } else {
            "latest"
        };
        write!(f, ", shows {shown}")
    }
}

/// Equal substeps no longer than `max_ns` for a step of `dt_ns` (1 without a maximum).
///
/// ```
/// // A 60 Hz tick integrated in steps of at most 1 ms takes 17 of them.
/// assert_eq!(timestep_loop::substeps(16_666_667, Some(1_000_000)), 17);
/// assert_eq!(timestep_loop::substeps(16_666_667, None), 1);
/// ```
pub fn substeps(dt_ns: u64, max_ns: Option<u64>) -> u64 {
    match max_ns {
        Some(m) if m > 0 => dt_ns.div_ceil(m).max(1),
        _ => 1,
    }
}
