//! What a lane is, as the user writes it on the command line: `--lanes fixed,interpolated`.

use crate::timing::Mode;
use std::fmt;
use std::str::FromStr;

/// A lane's policy. For now a stepping mode; timers and engine presets join it as options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneSpec {
    pub mode: Mode,
}

impl LaneSpec {
    pub fn mode(mode: Mode) -> LaneSpec {
        LaneSpec { mode }
    }

    /// One lane per stepping mode, in cycle order.
    pub fn every_mode() -> Vec<LaneSpec> {
        Mode::ALL.into_iter().map(LaneSpec::mode).collect()
    }
}

impl fmt::Display for LaneSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mode.name())
    }
}

impl FromStr for LaneSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(LaneSpec::mode)
    }
}

/// A comma-separated list of lane specs, in the order given (repeats allowed).
pub fn parse_lanes(list: &str) -> Result<Vec<LaneSpec>, String> {
    if list.trim().is_empty() {
        return Err("the list of lanes is empty".into());
    }
    list.split(',')
        .map(|spec| {
            if spec.trim().is_empty() {
                Err(format!("'{list}' has an empty lane"))
            } else {
                spec.trim().parse()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_keeps_its_order_and_names_a_bad_lane() {
        let lanes = parse_lanes("fixed, variable,fixed").unwrap();
        let names: Vec<String> = lanes.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["fixed", "variable", "fixed"]);
        assert!(
            parse_lanes("fixed,,variable")
                .unwrap_err()
                .contains("empty lane")
        );
        assert!(parse_lanes("").is_err());
        let err = parse_lanes("fixed,wobbly").unwrap_err();
        assert!(err.contains("wobbly"), "{err}");
    }
}
