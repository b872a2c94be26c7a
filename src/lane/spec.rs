//! What a lane is, as the user writes it: `NAME[+OPTION...]`, in a comma-separated `--lanes`
//! list. NAME is a stepping mode or an engine preset; the options are a timer (`raw`, `snap`,
//! `smooth`), a fuzzy step rule (`fuzzy`, `fuzzy59`; accumulating modes only), and for presets
//! `interpolated` (blend), `tick=RATE|DURATION` (another tick) and, for Godot, `jitter=J`.
//! Three names stand for groups: `modes` (the four textbook modes), `presets` (every preset)
//! and `timers` (fixed with each timer and each fuzzy window).

use crate::policy::{Fuzzy, Policy, PolicyEnv, Preset};
use crate::rope::Integrator;
use crate::timing::{Mode, TimerKind, one_of, parse_period};
use std::fmt;

/// What a lane's policy is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    Mode(Mode),
    Preset(Preset),
}

/// A lane's policy, as named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneSpec {
    pub base: Base,
    /// A timer other than the base's own.
    pub timer: Option<TimerKind>,
    pub fuzzy: Option<Fuzzy>,
    /// `+interpolated` on a preset: show the blend.
    pub blend: bool,
    /// `+tick=`: a preset's tick, ns.
    pub tick_ns: Option<u64>,
    /// `+jitter=`: Godot's jitter fix, thousandths.
    pub jitter_permille: Option<u32>,
    /// `+rk4` / `+euler`: an integrator other than `--integrator`'s.
    pub integrator: Option<Integrator>,
}

impl LaneSpec {
    pub fn mode(mode: Mode) -> LaneSpec {
        LaneSpec {
            base: Base::Mode(mode),
            timer: None,
            fuzzy: None,
            blend: false,
            tick_ns: None,
            jitter_permille: None,
            integrator: None,
        }
    }

    pub fn preset(preset: Preset) -> LaneSpec {
        LaneSpec {
            base: Base::Preset(preset),
            ..LaneSpec::mode(Mode::Fixed)
        }
    }

    /// One lane per stepping mode, in cycle order.
    pub fn every_mode() -> Vec<LaneSpec> {
        Mode::ALL.into_iter().map(LaneSpec::mode).collect()
    }

    /// One lane per preset.
    pub fn every_preset() -> Vec<LaneSpec> {
        Preset::ALL.into_iter().map(LaneSpec::preset).collect()
    }

    /// Fixed steps with each timer, then with each fuzzy window.
    pub fn every_timer() -> Vec<LaneSpec> {
        let fixed = LaneSpec::mode(Mode::Fixed);
        let timers = TimerKind::ALL.into_iter().map(|t| LaneSpec {
            timer: (t != TimerKind::Raw).then_some(t),
            ..fixed
        });
        let fuzzy = [Fuzzy::Window62, Fuzzy::Window61].map(|f| LaneSpec {
            fuzzy: Some(f),
            ..fixed
        });
        timers.chain(fuzzy).collect()
    }

    /// The policy this spec names, in `env`.
    pub fn policy(&self, env: &PolicyEnv) -> Policy {
        match self.base {
            Base::Preset(p) => p.policy(
                env,
                self.timer,
                self.blend,
                self.tick_ns,
                self.jitter_permille,
            ),
            Base::Mode(mode) => {
                let timer = self.timer.unwrap_or(TimerKind::Raw);
                let mut timing = env.timing;
                if let Some(f) = self.fuzzy {
                    timing.rule = f.rule(timing.dt_ns);
                }
                Policy {
                    mode,
                    timing,
                    timer,
                    max_substep_ns: env.max_substep.for_lane(false),
                    preset: None,
                }
            }
        }
    }

    /// The same spec with another timer (`None`: the base's own).
    pub fn with_timer(self, timer: Option<TimerKind>) -> LaneSpec {
        LaneSpec { timer, ..self }
    }

    /// The same spec with another integrator (`None`: `--integrator`'s).
    pub fn with_integrator(self, integrator: Option<Integrator>) -> LaneSpec {
        LaneSpec { integrator, ..self }
    }

    /// The stepping mode, if the lane is a textbook one.
    pub fn textbook_mode(&self) -> Option<Mode> {
        match self.base {
            Base::Mode(m) => Some(m),
            Base::Preset(_) => None,
        }
    }
}

impl fmt::Display for LaneSpec {
    /// The spec as it would be typed, options in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.base {
            Base::Mode(m) => f.write_str(m.name())?,
            Base::Preset(p) => f.write_str(p.name())?,
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
        if let Some(ns) = self.tick_ns {
            write!(f, "+tick={}", crate::timing::format_duration(ns))?;
        }
        if let Some(j) = self.jitter_permille {
            write!(f, "+jitter={}", j as f64 / 1000.0)?;
        }
        if let Some(i) = self.integrator {
            write!(f, "+{i}")?;
        }
        Ok(())
    }
}

/// The names a lane may start with.
fn names() -> String {
    let modes = Mode::ALL.map(Mode::name);
    let presets = Preset::ALL.map(Preset::name);
    one_of(modes.into_iter().chain(presets))
}

/// Parses one spec: `NAME[+OPTION...]`.
pub fn parse_spec(text: &str) -> Result<LaneSpec, String> {
    let mut parts = text.trim().split('+');
    let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
    let mut spec = if let Ok(mode) = name.parse::<Mode>() {
        LaneSpec::mode(mode)
    } else if let Ok(preset) = name.parse::<Preset>() {
        LaneSpec::preset(preset)
    } else {
        return Err(format!("unknown lane '{name}' (expected {})", names()));
    };
    for option in parts {
        add_option(&mut spec, &option.trim().to_ascii_lowercase())
            .map_err(|e| format!("'{text}': {e}"))?;
    }
    Ok(spec)
}

/// Adds one `+OPTION` to `spec`, checking it applies.
fn add_option(spec: &mut LaneSpec, option: &str) -> Result<(), String> {
    let preset = matches!(spec.base, Base::Preset(_));
    if let Ok(timer) = option.parse::<TimerKind>() {
        if let Some(first) = spec.timer.replace(timer) {
            return Err(format!("one timer per lane ({first} and {option} given)"));
        }
    } else if let Ok(integrator) = option.parse::<Integrator>() {
        if let Some(first) = spec.integrator.replace(integrator) {
            return Err(format!(
                "one integrator per lane ({first} and {option} given)"
            ));
        }
    } else if option == "fuzzy" || option == "fuzzy59" {
        let accumulates = spec.textbook_mode().is_some_and(Mode::accumulates);
        if !accumulates {
            return Err(format!(
                "{option} is a step rule: only fixed and interpolated accumulate time to step by it"
            ));
        }
        spec.fuzzy = Some(if option == "fuzzy" {
            Fuzzy::Window62
        } else {
            Fuzzy::Window61
        });
    } else if option == "interpolated" && preset {
        spec.blend = true;
    } else if let Some(tick) = option.strip_prefix("tick=") {
        if !preset {
            return Err("tick= is for presets (a mode's tick is --dt)".into());
        }
        spec.tick_ns = Some(parse_period(tick)?);
    } else if let Some(j) = option.strip_prefix("jitter=") {
        if spec.base != Base::Preset(Preset::Godot) {
            return Err("jitter= is Godot's physics_jitter_fix: for godot only".into());
        }
        let v: f64 = j
            .parse()
            .map_err(|_| format!("jitter={j} is not a number"))?;
        if !(0.0..=2.0).contains(&v) {
            return Err(format!("jitter={j} must be between 0 and 2"));
        }
        spec.jitter_permille = Some((v * 1000.0).round() as u32);
    } else {
        let timers = TimerKind::ALL.map(TimerKind::name);
        return Err(format!(
            "unknown option '{option}' (expected {}, fuzzy, fuzzy59, euler, rk4, or for \
             presets interpolated, tick=RATE and for godot jitter=J)",
            timers.join(", ")
        ));
    }
    Ok(())
}

/// A comma-separated list of lane specs, in the order given (repeats allowed); `modes`,
/// `presets` and `timers` stand for their groups.
pub fn parse_lanes(list: &str) -> Result<Vec<LaneSpec>, String> {
    if list.trim().is_empty() {
        return Err("the list of lanes is empty".into());
    }
    let mut lanes = Vec::new();
    for item in list.split(',') {
        match item.trim() {
            "" => return Err(format!("'{list}' has an empty lane")),
            "modes" => lanes.extend(LaneSpec::every_mode()),
            "presets" => lanes.extend(LaneSpec::every_preset()),
            "timers" => lanes.extend(LaneSpec::every_timer()),
            spec => lanes.push(parse_spec(spec)?),
        }
    }
    Ok(lanes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_of(list: &str) -> Vec<String> {
        parse_lanes(list)
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_list_keeps_its_order_and_names_a_bad_lane() {
        assert_eq!(
            names_of("fixed, variable,fixed"),
            ["fixed", "variable", "fixed"]
        );
        assert!(
            parse_lanes("fixed,,variable")
                .unwrap_err()
                .contains("empty lane")
        );
        assert!(parse_lanes("").is_err());
        let err = parse_lanes("fixed,wobbly").unwrap_err();
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
            names_of("godot+interpolated,bevy+tick=60hz,godot+jitter=0"),
            [
                "godot+interpolated",
                "bevy+tick=16.666667ms",
                "godot+jitter=0"
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
                "fixed+smooth",
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
        ] {
            let err = parse_lanes(spec).unwrap_err();
            assert!(err.contains(says), "{spec}: {err}");
        }
    }
}
