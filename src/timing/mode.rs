//! The four textbook stepping modes, in the order the window cycles them.

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
    /// All modes in cycle order.
    pub const ALL: [Mode; 4] = [
        Mode::Variable,
        Mode::SemiFixed,
        Mode::Fixed,
        Mode::Interpolated,
    ];

    /// The next mode in the cycle variable → semi-fixed → fixed → interpolated → variable.
    pub fn next(self) -> Mode {
        let i = Mode::ALL.iter().position(|&m| m == self).unwrap_or(0);
        Mode::ALL[(i + 1) % Mode::ALL.len()]
    }

    /// The flag spelling: `variable`, `semi-fixed`, `fixed`, `interpolated`.
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

/// `"a, b, c or d"`: the names a flag accepts, for its error message.
pub fn one_of<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names = one_of(Mode::ALL.map(Mode::name));
                format!("unknown mode '{s}' (expected {names})")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_cycle_in_order_and_parse_by_name() {
        let mut m = Mode::Variable;
        let mut seen = vec![m];
        for _ in 0..4 {
            m = m.next();
            seen.push(m);
        }
        assert_eq!(
            seen,
            [
                Mode::Variable,
                Mode::SemiFixed,
                Mode::Fixed,
                Mode::Interpolated,
                Mode::Variable
            ]
        );
        assert_eq!("semi-fixed".parse::<Mode>(), Ok(Mode::SemiFixed));
        let err = "wobbly".parse::<Mode>().unwrap_err();
        assert!(err.ends_with("(expected variable, semi-fixed, fixed or interpolated)"));
    }

    #[test]
    fn only_interpolated_blends() {
        let blending: Vec<Mode> = Mode::ALL.into_iter().filter(|m| m.blends()).collect();
        assert_eq!(blending, [Mode::Interpolated]);
    }
}
