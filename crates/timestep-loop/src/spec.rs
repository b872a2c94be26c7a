//! A loop as a user names it: `NAME[+OPTION...]`. NAME is a stepping mode or an engine preset;
//! the options are a timer (`raw`, `snap`, `snap-vsync`, `smooth`), a fuzzy step rule (`fuzzy`,
//! `fuzzy59`; accumulating modes only), and for presets `interpolated` (blend),
//! `tick=RATE|DURATION` (another tick) and, for Godot, `jitter=J`. In a comma-separated list, three names stand for
//! groups: `modes` (the four textbook modes), `presets` (every preset) and `timers` (fixed with
//! each timer and each fuzzy window).

use crate::config::ConfigError;
use crate::mode::Mode;
use crate::named::{Named, one_of};
use crate::policy::{Fuzzy, Policy, PolicyEnv};
use crate::preset::Preset;
use crate::tick::Tick;
use crate::timer::TimerKind;
use crate::units::DurationError;
#[cfg(feature = "spec")]
use crate::units::parse_tick;
use std::fmt;

/// What a loop's policy is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// A textbook stepping mode, with the tick, clamp and cap of its [`PolicyEnv`].
    Mode(Mode),
    /// An engine's loop, with its own numbers.
    Preset(Preset),
}

/// A loop's policy, as named. Built by [`LoopSpec::mode`], [`LoopSpec::preset`], the checked
/// builders ([`LoopSpec::interpolated`], [`LoopSpec::with_tick`], ...) and, with the `spec`
/// feature, `LoopSpec::parse`, so the options always apply to the base.
///
/// ```
/// use timestep_loop::{Fuzzy, LoopSpec, Mode, Preset, Tick};
/// let godot = LoopSpec::preset(Preset::Godot).interpolated().with_jitter_fix(0.0)?;
/// assert_eq!(godot.to_string(), "godot+interpolated+jitter=0");
/// let bevy = LoopSpec::preset(Preset::Bevy).with_tick(Tick::per_second(60).unwrap())?;
/// assert_eq!(bevy.to_string(), "bevy+tick=60hz");
/// assert!(LoopSpec::mode(Mode::Variable).with_fuzzy(Fuzzy::Window62).is_err());
/// # Ok::<(), timestep_loop::SpecErrorKind>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoopSpec {
    base: Base,
    timer: Option<TimerKind>,
    fuzzy: Option<Fuzzy>,
    blend: bool,
    tick: Option<Tick>,
    jitter_permille: Option<u32>,
}

/// What is wrong with a loop's name or options.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// Neither a mode nor a preset.
    UnknownName(String),
    /// An option this crate does not know.
    UnknownOption(String),
    /// Two timers given.
    TwoTimers(TimerKind, TimerKind),
    /// A fuzzy window on a loop that does not accumulate time.
    FuzzyNeedsAccumulator(Fuzzy),
    /// `tick=` on a textbook mode.
    TickForPresets,
    /// `jitter=` on something other than Godot.
    JitterForGodot,
    /// `jitter=` with a value that is not a number from 0 to 2.
    BadJitter(String),
    /// `tick=` with a value that is not a period.
    BadTick(DurationError),
    /// The options make a loop that cannot run (a tick longer than the preset's clamp).
    Policy(ConfigError),
    /// An empty list.
    EmptyList,
    /// A list with an empty entry.
    EmptyEntry,
}

/// What is wrong with a loop's name, with the text it was found in.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SpecError {
    /// The spec (or list) as given.
    pub text: String,
    /// What is wrong with it.
    pub kind: SpecErrorKind,
}

impl fmt::Display for SpecErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecErrorKind::UnknownName(name) => {
                write!(f, "unknown loop '{name}' (expected {})", base_names())
            }
            SpecErrorKind::UnknownOption(option) => write!(
                f,
                "unknown option '{option}' (expected {})",
                LoopSpec::OPTIONS
            ),
            SpecErrorKind::TwoTimers(a, b) => {
                write!(f, "one timer per loop ({a} and {b} given)")
            }
            SpecErrorKind::FuzzyNeedsAccumulator(z) => write!(
                f,
                "{} is a step rule: only fixed and interpolated accumulate time to step by it",
                z.name()
            ),
            SpecErrorKind::TickForPresets => {
                f.write_str("tick= is for presets (a mode's tick is its own)")
            }
            SpecErrorKind::JitterForGodot => {
                f.write_str("jitter= is Godot's physics_jitter_fix: for godot only")
            }
            SpecErrorKind::BadJitter(j) => {
                write!(f, "jitter={j} must be a number between 0 and 2")
            }
            SpecErrorKind::BadTick(e) => write!(f, "tick= {e}"),
            SpecErrorKind::Policy(e) => write!(f, "{e}"),
            SpecErrorKind::EmptyList => f.write_str("the list is empty"),
            SpecErrorKind::EmptyEntry => f.write_str("the list has an empty entry"),
        }
    }
}

impl SpecError {
    /// `kind` of error, found in `text` (a spec or a list of them): for a reader of lists of
    /// loops that checks more than [`LoopSpec::parse`] does.
    ///
    /// ```
    /// use timestep_loop::{SpecError, SpecErrorKind};
    /// let e = SpecError::new("fixed,,godot", SpecErrorKind::EmptyEntry);
    /// assert_eq!(e.to_string(), "'fixed,,godot': the list has an empty entry");
    /// ```
    pub fn new(text: impl Into<String>, kind: SpecErrorKind) -> SpecError {
        SpecError {
            text: text.into(),
            kind,
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            // These name what they are about themselves.
            SpecErrorKind::UnknownName(_) | SpecErrorKind::EmptyList => write!(f, "{}", self.kind),
            kind => write!(f, "'{}': {kind}", self.text),
        }
    }
}

impl std::error::Error for SpecError {}

/// The names a loop may start with.
fn base_names() -> String {
    let modes = Mode::ALL.map(Mode::name);
    let presets = Preset::ALL.map(Preset::name);
    one_of(modes.into_iter().chain(presets))
}

impl LoopSpec {
    /// The options [`LoopSpec::parse`] knows, for messages.
    pub const OPTIONS: &'static str = "raw, snap, snap-vsync, smooth, fuzzy, fuzzy59, or for presets \
                                       interpolated, tick=RATE and for godot jitter=J";

    /// A textbook mode with its own timer (raw).
    pub const fn mode(mode: Mode) -> LoopSpec {
        LoopSpec {
            base: Base::Mode(mode),
            timer: None,
            fuzzy: None,
            blend: false,
            tick: None,
            jitter_permille: None,
        }
    }

    /// An engine's loop as it ships.
    pub const fn preset(preset: Preset) -> LoopSpec {
        LoopSpec {
            base: Base::Preset(preset),
            ..LoopSpec::mode(Mode::Fixed)
        }
    }

    /// One loop per stepping mode, in the order of [`Mode::ALL`].
    pub fn every_mode() -> Vec<LoopSpec> {
        Mode::ALL.into_iter().map(LoopSpec::mode).collect()
    }

    /// One loop per preset.
    pub fn every_preset() -> Vec<LoopSpec> {
        Preset::ALL.into_iter().map(LoopSpec::preset).collect()
    }

    /// Fixed steps with each timer, then with each fuzzy window.
    pub fn every_timer() -> Vec<LoopSpec> {
        let fixed = LoopSpec::mode(Mode::Fixed);
        let timers = TimerKind::ALL.into_iter().map(|t| LoopSpec {
            timer: (t != TimerKind::Raw).then_some(t),
            ..fixed
        });
        let fuzzy = [Fuzzy::Window62, Fuzzy::Window61].map(LoopSpec::fixed_fuzzy);
        timers.chain(fuzzy).collect()
    }

    /// Fixed steps by Glaiel's `fuzzy` window (`fixed+fuzzy`, `fixed+fuzzy59`): what
    /// [`LoopSpec::with_fuzzy`] gives for fixed, which it never refuses.
    pub const fn fixed_fuzzy(fuzzy: Fuzzy) -> LoopSpec {
        LoopSpec {
            fuzzy: Some(fuzzy),
            ..LoopSpec::mode(Mode::Fixed)
        }
    }

    /// The loops a group name stands for (`modes`, `presets`, `timers`), if it is one.
    pub fn group(name: &str) -> Option<Vec<LoopSpec>> {
        match name.trim() {
            "modes" => Some(LoopSpec::every_mode()),
            "presets" => Some(LoopSpec::every_preset()),
            "timers" => Some(LoopSpec::every_timer()),
            _ => None,
        }
    }

    /// What the policy is built from.
    pub fn base(&self) -> Base {
        self.base
    }
    /// A timer other than the base's own, if one was given.
    pub fn timer(&self) -> Option<TimerKind> {
        self.timer
    }
    /// The fuzzy window, if one was given.
    pub fn fuzzy(&self) -> Option<Fuzzy> {
        self.fuzzy
    }
    /// A preset's tick, if another was given.
    pub fn tick(&self) -> Option<Tick> {
        self.tick
    }
    /// The stepping mode, if the loop is a textbook one.
    pub fn textbook_mode(&self) -> Option<Mode> {
        match self.base {
            Base::Mode(m) => Some(m),
            Base::Preset(_) => None,
        }
    }

    /// The policy this spec names, in `env`.
    pub fn policy(&self, env: &PolicyEnv) -> Result<Policy, ConfigError> {
        match self.base {
            Base::Preset(p) => {
                p.policy(env, self.timer, self.blend, self.tick, self.jitter_permille)
            }
            Base::Mode(mode) => {
                let mut timing = env.timing;
                if let Some(f) = self.fuzzy {
                    timing = timing.with_rule(f.rule())?;
                }
                Ok(Policy {
                    mode,
                    timing,
                    timer: self.timer.unwrap_or(TimerKind::Raw),
                    max_substep_ns: env.max_substep.for_loop(false),
                    preset: None,
                })
            }
        }
    }

    /// The same spec with another timer (`None`: the base's own).
    pub const fn with_timer(self, timer: Option<TimerKind>) -> LoopSpec {
        LoopSpec { timer, ..self }
    }

    /// The textbook `mode`, keeping this spec's timer, and its fuzzy window where the mode
    /// accumulates time to step by it (what the window's mode keys do to a loop).
    pub fn as_mode(self, mode: Mode) -> LoopSpec {
        LoopSpec {
            timer: self.timer,
            fuzzy: self.fuzzy.filter(|_| mode.accumulates()),
            ..LoopSpec::mode(mode)
        }
    }

    /// The same loop, blending the shown state between the last two ticks: a preset that does
    /// not blend of itself blends, a textbook mode becomes [`Mode::Interpolated`].
    pub fn interpolated(self) -> LoopSpec {
        match self.base {
            Base::Preset(_) => LoopSpec {
                blend: true,
                ..self
            },
            Base::Mode(_) => self.as_mode(Mode::Interpolated),
        }
    }

    /// A preset at another tick (whole ns, a `Duration` or a [`Tick`] of a rate), checked
    /// against the preset's clamp. A textbook mode's tick is its [`PolicyEnv`]'s.
    pub fn with_tick(self, tick: impl Into<Tick>) -> Result<LoopSpec, SpecErrorKind> {
        let Base::Preset(_) = self.base else {
            return Err(SpecErrorKind::TickForPresets);
        };
        LoopSpec {
            tick: Some(tick.into()),
            ..self
        }
        .checked()
    }

    /// Godot at another `physics_jitter_fix` (0 to 2; it ships with 0.5).
    pub fn with_jitter_fix(self, jitter: f64) -> Result<LoopSpec, SpecErrorKind> {
        if self.base != Base::Preset(Preset::Godot) {
            return Err(SpecErrorKind::JitterForGodot);
        }
        if !(0.0..=2.0).contains(&jitter) {
            return Err(SpecErrorKind::BadJitter(jitter.to_string()));
        }
        Ok(LoopSpec {
            jitter_permille: Some((jitter * 1000.0).round() as u32),
            ..self
        })
    }

    /// Steps by Glaiel's fuzzy window (fixed and interpolated modes only).
    pub fn with_fuzzy(self, fuzzy: Fuzzy) -> Result<LoopSpec, SpecErrorKind> {
        if !self.textbook_mode().is_some_and(Mode::accumulates) {
            return Err(SpecErrorKind::FuzzyNeedsAccumulator(fuzzy));
        }
        Ok(LoopSpec {
            fuzzy: Some(fuzzy),
            ..self
        })
    }

    /// The spec, if its policy can be built (a preset's tick within its own clamp).
    fn checked(self) -> Result<LoopSpec, SpecErrorKind> {
        self.policy(&PolicyEnv::default())
            .map(|_| self)
            .map_err(SpecErrorKind::Policy)
    }

    /// The same loop stepping by `mode`. A preset keeps its rules (tick, clamp, cap, timer)
    /// in the modes it can take: fixed, or interpolated (it blends; a preset that blends of
    /// itself, Glaiel's, blends in both). Variable and semi-fixed have no preset rules: the
    /// loop becomes that textbook mode, as [`LoopSpec::as_mode`] does.
    pub fn with_mode(self, mode: Mode) -> LoopSpec {
        match (self.base, mode) {
            (Base::Preset(_), Mode::Fixed | Mode::Interpolated) => LoopSpec {
                blend: mode == Mode::Interpolated,
                ..self
            },
            _ => self.as_mode(mode),
        }
    }

    /// Reads one spec: `NAME[+OPTION...]`, names and options in any case (feature `spec`).
    ///
    /// ```
    /// use timestep_loop::LoopSpec;
    /// let spec = LoopSpec::parse("Godot+interpolated+jitter=0")?;
    /// assert_eq!(spec.to_string(), "godot+interpolated+jitter=0");
    /// assert!(LoopSpec::parse("variable+fuzzy").is_err());
    /// # Ok::<(), timestep_loop::SpecError>(())
    /// ```
    #[cfg(feature = "spec")]
    pub fn parse(text: &str) -> Result<LoopSpec, SpecError> {
        let error = |kind| SpecError::new(text.trim(), kind);
        let mut parts = text.trim().split('+');
        let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let mut spec = if let Ok(mode) = name.parse::<Mode>() {
            LoopSpec::mode(mode)
        } else if let Ok(preset) = name.parse::<Preset>() {
            LoopSpec::preset(preset)
        } else {
            return Err(error(SpecErrorKind::UnknownName(name)));
        };
        for option in parts {
            spec.add_option(&option.trim().to_ascii_lowercase())
                .map_err(error)?;
        }
        // A preset's own clamp is known now: a tick it can never hold is refused here.
        spec.checked().map_err(error)
    }

    /// Reads a comma-separated list of specs in the order given (repeats allowed); `modes`,
    /// `presets` and `timers` stand for their groups (feature `spec`).
    #[cfg(feature = "spec")]
    pub fn parse_list(list: &str) -> Result<Vec<LoopSpec>, SpecError> {
        let mut out = Vec::new();
        for entry in split_list(list)? {
            match entry {
                Entry::Group(group) => out.extend(group),
                Entry::One(text) => out.push(LoopSpec::parse(text)?),
            }
        }
        Ok(out)
    }

    /// Adds one `+OPTION`, checking it applies (the typed builders' checks; a tick is
    /// checked against the clamp once every option is in).
    #[cfg(feature = "spec")]
    fn add_option(&mut self, option: &str) -> Result<(), SpecErrorKind> {
        let preset = matches!(self.base, Base::Preset(_));
        *self = if let Ok(timer) = option.parse::<TimerKind>() {
            if let Some(first) = self.timer {
                return Err(SpecErrorKind::TwoTimers(first, timer));
            }
            self.with_timer(Some(timer))
        } else if let Some(fuzzy) = [Fuzzy::Window62, Fuzzy::Window61]
            .into_iter()
            .find(|f| f.name() == option)
        {
            self.with_fuzzy(fuzzy)?
        } else if option == "interpolated" && preset {
            self.interpolated()
        } else if let Some(tick) = option.strip_prefix("tick=") {
            if !preset {
                return Err(SpecErrorKind::TickForPresets);
            }
            let tick = parse_tick(tick).map_err(SpecErrorKind::BadTick)?;
            LoopSpec {
                tick: Some(tick),
                ..*self
            }
        } else if let Some(j) = option.strip_prefix("jitter=") {
            let v: f64 = j
                .parse()
                .map_err(|_| SpecErrorKind::BadJitter(j.to_string()))?;
            self.with_jitter_fix(v).map_err(|e| match e {
                SpecErrorKind::BadJitter(_) => SpecErrorKind::BadJitter(j.to_string()),
                e => e,
            })?
        } else {
            return Err(SpecErrorKind::UnknownOption(option.to_string()));
        };
        Ok(())
    }
}

/// One entry of a comma-separated list of loops.
#[cfg(feature = "spec")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Entry<'a> {
    /// A group name's loops.
    Group(Vec<LoopSpec>),
    /// Anything else, trimmed, for the caller to read.
    One(&'a str),
}

/// Splits a comma-separated list into its entries, in order, with groups resolved: what
/// [`LoopSpec::parse_list`] reads.
#[cfg(feature = "spec")]
pub(crate) fn split_list(list: &str) -> Result<Vec<Entry<'_>>, SpecError> {
    let error = |kind| SpecError::new(list, kind);
    if list.trim().is_empty() {
        return Err(error(SpecErrorKind::EmptyList));
    }
    list.split(',')
        .map(|item| match (item.trim(), LoopSpec::group(item)) {
            ("", _) => Err(error(SpecErrorKind::EmptyEntry)),
            (_, Some(group)) => Ok(Entry::Group(group)),
            (one, None) => Ok(Entry::One(one)),
        })
        .collect()
}

impl fmt::Display for LoopSpec {
    /// The spec as it would be typed, options in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.base {
            Base::Mode(m) => f.write_str(m.name())?,
            Base::Preset(p) => f.write_str(Named::name(p))?,
        }
        if let Some(t) = self.timer {
            write!(f, "+{t}")?;
        }
        if let Some(z) = self.fuzzy {
            write!(f, "+{}", z.name())?;
        }
        if self.blend {
            f.write_str("+interpolated")?;
        }
        if let Some(tick) = self.tick {
            write!(f, "+tick={tick}")?;
        }
        if let Some(j) = self.jitter_permille {
            write!(f, "+jitter={}", f64::from(j) / 1000.0)?;
        }
        Ok(())
    }
}

#[cfg(all(test, feature = "spec"))]
mod tests {
    use super::*;

    fn names_of(list: &str) -> Vec<String> {
        match LoopSpec::parse_list(list) {
            Ok(specs) => specs.iter().map(ToString::to_string).collect(),
            Err(e) => vec![format!("error: {e}")],
        }
    }

    fn error(list: &str) -> String {
        LoopSpec::parse_list(list)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_list_keeps_its_order_and_names_a_bad_entry() {
        assert_eq!(
            names_of("fixed, variable,fixed"),
            ["fixed", "variable", "fixed"]
        );
        assert!(error("fixed,,variable").contains("empty entry"));
        assert!(error("").contains("empty"));
        let err = error("fixed,wobbly");
        assert!(err.contains("wobbly") && err.contains("godot"), "{err}");
    }

    #[test]
    fn specs_take_timers_rules_and_preset_options() {
        assert_eq!(
            names_of("fixed+snap,interpolated+smooth,variable+smooth,fixed+fuzzy"),
            [
                "fixed+snap",
                "interpolated+smooth",
                "variable+smooth",
                "fixed+fuzzy"
            ]
        );
        assert_eq!(
            names_of("godot+interpolated,bevy+tick=60hz,godot+jitter=0,GODOT"),
            [
                "godot+interpolated",
                "bevy+tick=60hz",
                "godot+jitter=0",
                "godot"
            ]
        );
        assert_eq!(names_of("presets").len(), 6);
        assert_eq!(
            names_of("modes"),
            ["variable", "semi-fixed", "fixed", "interpolated"]
        );
        assert_eq!(
            names_of("timers"),
            [
                "fixed",
                "fixed+snap",
                "fixed+snap-vsync",
                "fixed+smooth",
                "fixed+display",
                "fixed+fuzzy",
                "fixed+fuzzy59"
            ]
        );
    }

    #[test]
    fn options_that_do_not_apply_are_refused_with_the_reason() {
        for (spec, says) in [
            ("variable+fuzzy", "step rule"),
            ("semi-fixed+fuzzy59", "step rule"),
            ("godot+fuzzy", "step rule"),
            ("fixed+wobbly", "unknown option"),
            ("fixed+tick=60hz", "for presets"),
            ("bevy+jitter=0.5", "godot only"),
            ("godot+jitter=5", "between 0 and 2"),
            ("bevy+tick=0hz", "zero"),
            ("fixed+interpolated", "unknown option"),
            ("fixed+snap+smooth", "one timer"),
            ("bevy+tick=300ms", "must be at least the tick (300ms)"),
            ("game-loop+tick=5hz", "clamp (100ms)"),
        ] {
            let err = error(spec);
            assert!(err.contains(says), "{spec}: {err}");
            assert!(err.starts_with(&format!("'{spec}'")), "{spec}: {err}");
        }
    }
}

#[cfg(test)]
mod builder_tests {
    use super::*;

    #[test]
    fn typed_options_are_checked_as_the_text_ones_are() {
        let godot = LoopSpec::preset(Preset::Godot);
        let bevy = LoopSpec::preset(Preset::Bevy);
        let fixed = LoopSpec::mode(Mode::Fixed);
        assert_eq!(
            godot
                .interpolated()
                .with_jitter_fix(0.25)
                .map(|s| s.to_string()),
            Ok("godot+interpolated+jitter=0.25".into())
        );
        assert_eq!(
            fixed.interpolated(),
            LoopSpec::mode(Mode::Interpolated),
            "a textbook mode blends by becoming interpolated"
        );
        assert_eq!(
            fixed.with_tick(5_000_000),
            Err(SpecErrorKind::TickForPresets)
        );
        assert_eq!(
            bevy.with_jitter_fix(0.5),
            Err(SpecErrorKind::JitterForGodot)
        );
        assert!(matches!(
            godot.with_jitter_fix(2.5),
            Err(SpecErrorKind::BadJitter(_))
        ));
        assert!(matches!(
            bevy.with_tick(std::time::Duration::from_millis(300)),
            Err(SpecErrorKind::Policy(ConfigError::ClampBelowTick { .. }))
        ));
        let fuzzy = fixed.with_fuzzy(Fuzzy::Window61).map(|s| s.to_string());
        assert_eq!(fuzzy, Ok("fixed+fuzzy59".into()));
        assert!(godot.with_fuzzy(Fuzzy::Window62).is_err());
    }
}
