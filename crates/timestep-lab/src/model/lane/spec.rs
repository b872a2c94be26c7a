//! What a lane is, as the user writes it: a loop (`timestep_loop::LoopSpec`: a mode or a preset
//! with its options) and, as this app's own option, an integrator for its rope: `NAME[+OPTION...]`
//! with `+euler` or `+rk4` among the options, in a comma-separated `--lanes` list.

use crate::model::rope::Integrator;
use std::fmt;
use timestep_loop::{LoopSpec, SpecError, SpecErrorKind};

/// A lane's loop and, if it has its own, its rope's integrator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneSpec {
    /// The loop, as named.
    pub looped: LoopSpec,
    /// An integrator other than the run's (`+rk4` / `+euler`).
    pub integrator: Option<Integrator>,
}

impl From<LoopSpec> for LaneSpec {
    fn from(looped: LoopSpec) -> LaneSpec {
        LaneSpec {
            looped,
            integrator: None,
        }
    }
}

impl LaneSpec {
    /// A lane of the textbook `mode`.
    pub fn mode(mode: timestep_loop::Mode) -> LaneSpec {
        LoopSpec::mode(mode).into()
    }

    /// A lane of `preset`'s loop.
    pub fn preset(preset: timestep_loop::Preset) -> LaneSpec {
        LoopSpec::preset(preset).into()
    }

    /// One lane per stepping mode, in cycle order.
    pub fn every_mode() -> Vec<LaneSpec> {
        LoopSpec::every_mode().into_iter().map(Into::into).collect()
    }

    /// One lane per preset.
    pub fn every_preset() -> Vec<LaneSpec> {
        LoopSpec::every_preset()
            .into_iter()
            .map(Into::into)
            .collect()
    }

    /// The same lane with another integrator (`None`: the run's).
    pub fn with_integrator(self, integrator: Option<Integrator>) -> LaneSpec {
        LaneSpec { integrator, ..self }
    }

    /// The same lane with another loop.
    pub fn with_loop(self, looped: LoopSpec) -> LaneSpec {
        LaneSpec { looped, ..self }
    }
}

impl fmt::Display for LaneSpec {
    /// The spec as it would be typed: the loop's, then the integrator.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.looped)?;
        if let Some(i) = self.integrator {
            write!(f, "+{i}")?;
        }
        Ok(())
    }
}

/// Parses one spec: the loop's `NAME[+OPTION...]`, with `+euler` or `+rk4` among the options.
pub fn parse_spec(text: &str) -> Result<LaneSpec, LaneError> {
    let mut loop_text = String::new();
    let mut integrator: Option<Integrator> = None;
    for (i, part) in text.trim().split('+').enumerate() {
        match part.parse::<Integrator>() {
            Ok(chosen) if i > 0 => {
                if let Some(first) = integrator.replace(chosen) {
                    let text = text.trim().into();
                    return Err(LaneError::TwoIntegrators {
                        text,
                        first,
                        chosen,
                    });
                }
            }
            _ => {
                if i > 0 {
                    loop_text.push('+');
                }
                loop_text.push_str(part);
            }
        }
    }
    let looped = LoopSpec::parse(&loop_text).map_err(|e| lane_error(text, e))?;
    Ok(LaneSpec { looped, integrator })
}

/// A comma-separated list of lane specs, in the order given (repeats allowed); `modes`,
/// `presets` and `timers` stand for their groups.
pub fn parse_lanes(list: &str) -> Result<Vec<LaneSpec>, LaneError> {
    let mut lanes = Vec::new();
    let error = |kind| lane_error(list, SpecError::new(list, kind));
    if list.trim().is_empty() {
        return Err(error(SpecErrorKind::EmptyList));
    }
    for item in list.split(',') {
        match (item.trim(), LoopSpec::group(item)) {
            ("", _) => return Err(error(SpecErrorKind::EmptyEntry)),
            (_, Some(group)) => lanes.extend(group.into_iter().map(LaneSpec::from)),
            (one, None) => lanes.push(parse_spec(one)?),
        }
    }
    Ok(lanes)
}

/// What is wrong with a lane or a list of lanes: a loop's error in a lane's words (the
/// integrator is one of a lane's options too), quoting the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaneError {
    /// Two integrators (`euler`, `rk4`) given in one lane.
    #[error("'{text}': one integrator per lane ({first} and {chosen} given)")]
    TwoIntegrators {
        /// The lane's text.
        text: String,
        /// The integrator given first.
        first: Integrator,
        /// The integrator given second.
        chosen: Integrator,
    },
    /// A name that is neither a mode nor a preset.
    #[error("{}", unknown_lane(.0))]
    UnknownName(String),
    /// An option that is neither a loop's option nor an integrator.
    #[error(
        "'{text}': unknown option '{option}' (expected {}; or euler, rk4)",
        LoopSpec::OPTIONS
    )]
    UnknownOption {
        /// The lane's text.
        text: String,
        /// The option not known.
        option: String,
    },
    /// A list of lanes with nothing in it.
    #[error("the list of lanes is empty")]
    EmptyList,
    /// A list with an empty entry between its commas (the list's text).
    #[error("'{0}' has an empty lane")]
    EmptyEntry(String),
    /// Any other of the loop's errors, about this text.
    #[error("'{text}': {kind}")]
    Loop {
        /// The lane's text.
        text: String,
        /// What is wrong with it.
        kind: SpecErrorKind,
    },
}

/// The loop's "unknown loop" line, said of a lane.
fn unknown_lane(name: &str) -> String {
    let names = SpecErrorKind::UnknownName(name.into()).to_string();
    names.replacen("unknown loop", "unknown lane", 1)
}

/// A loop's error in a lane's words.
fn lane_error(text: &str, e: SpecError) -> LaneError {
    let text = text.trim().to_string();
    match e.kind {
        SpecErrorKind::UnknownName(name) => LaneError::UnknownName(name),
        SpecErrorKind::UnknownOption(option) => LaneError::UnknownOption { text, option },
        SpecErrorKind::EmptyList => LaneError::EmptyList,
        SpecErrorKind::EmptyEntry => LaneError::EmptyEntry(text),
        kind => LaneError::Loop { text, kind },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_of(list: &str) -> Vec<String> {
        parse_lanes(list)
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_lane_is_a_loop_and_an_integrator() {
        assert_eq!(
            names_of("godot+rk4,fixed+snap+euler,modes"),
            [
                "godot+rk4",
                "fixed+snap+euler",
                "variable",
                "semi-fixed",
                "fixed",
                "interpolated"
            ]
        );
        assert_eq!(names_of("RK4+fixed"), Vec::<String>::new(), "a name first");
    }

    #[test]
    fn bad_lanes_say_what_is_wrong_in_a_lanes_words() {
        for (list, says) in [
            ("fixed,,variable", "empty lane"),
            ("", "list of lanes is empty"),
            ("fixed,wobbly", "unknown lane 'wobbly'"),
            ("fixed+wobbly", "euler, rk4"),
            ("fixed+rk4+euler", "one integrator per lane"),
            ("variable+fuzzy", "step rule"),
            ("bevy+tick=1s", "clamp (250ms)"),
        ] {
            let err = parse_lanes(list).unwrap_err().to_string();
            assert!(err.contains(says), "{list}: {err}");
        }
    }
}
