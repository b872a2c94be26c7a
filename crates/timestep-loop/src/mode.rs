//! The four textbook stepping modes.

use crate::named::{Named, UnknownName, parse_named};
use std::fmt;
use std::str::FromStr;

/// How the loop turns a frame's time into simulation steps (the README's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// One step of the whole (clamped) frame time: the step size follows the display.
    Variable,
    /// Steps of `min(remaining, dt)` until the frame time is used up: never larger than dt,
    /// but the last step of each frame is a sliver of whatever was left.
    SemiFixed,
    /// Whole `dt` steps while the accumulator holds at least `dt`; the remainder carries over.
    Fixed,
    /// As `Fixed`, but shows `previous.lerp(current, alpha)` with `alpha = accumulator / dt`.
    Interpolated,
}

impl Mode {
    /// All modes, from the simplest: variable, semi-fixed, fixed, interpolated.
    pub const ALL: [Mode; 4] = [
        Mode::Variable,
        Mode::SemiFixed,
        Mode::Fixed,
        Mode::Interpolated,
    ];

    /// The name a user types: `variable`, `semi-fixed`, `fixed`, `interpolated`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Variable => "variable",
            Mode::SemiFixed => "semi-fixed",
            Mode::Fixed => "fixed",
            Mode::Interpolated => "interpolated",
        }
    }

    /// Whether the mode keeps a remainder in the accumulator between frames.
    pub fn accumulates(self) -> bool {
        matches!(self, Mode::Fixed | Mode::Interpolated)
    }

    /// Whether the mode shows `previous.lerp(current, alpha)` rather than the latest state.
    pub fn blends(self) -> bool {
        self == Mode::Interpolated
    }
}

impl Named for Mode {
    const ALL: &'static [Mode] = &Mode::ALL;
    const WHAT: &'static str = "mode";
    fn name(self) -> &'static str {
        Mode::name(self)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Mode {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_named(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mode_fills_the_width_it_is_given() {
        assert_eq!(format!("{:>12}|", Mode::Fixed), "       fixed|");
        assert_eq!(format!("{:<12}|", Mode::SemiFixed), "semi-fixed  |");
        assert_eq!(format!("{:^9}|", Mode::Fixed), "  fixed  |");
    }

    #[test]
    fn modes_parse_by_name() {
        assert_eq!("semi-fixed".parse::<Mode>(), Ok(Mode::SemiFixed));
        let err = "wobbly".parse::<Mode>().unwrap_err().to_string();
        assert!(err.ends_with("(expected variable, semi-fixed, fixed or interpolated)"));
    }

    #[test]
    fn only_interpolated_blends() {
        let blending: Vec<Mode> = Mode::ALL.into_iter().filter(|m| m.blends()).collect();
        assert_eq!(blending, [Mode::Interpolated]);
    }
}
