//! The four textbook stepping modes.

crate::named_enum! {
    /// How the loop turns a frame's time into simulation steps (the README's table), listed from
    /// the simplest.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Mode as "mode" {
        /// One step of the whole (clamped) frame time: the step size follows the display.
        Variable = "variable",
        /// Steps of `min(remaining, dt)` until the frame time is used up: never larger than dt,
        /// but the last step of each frame is a sliver of whatever was left.
        SemiFixed = "semi-fixed",
        /// Whole `dt` steps while the accumulator holds at least `dt`; the remainder carries over.
        Fixed = "fixed",
        /// As `Fixed`, but shows `previous.lerp(current, alpha)` with `alpha = accumulator / dt`.
        Interpolated = "interpolated",
    }
}

impl Mode {
    /// Whether the mode keeps a remainder in the accumulator between frames.
    pub fn accumulates(self) -> bool {
        matches!(self, Mode::Fixed | Mode::Interpolated)
    }

    /// Whether the mode shows `previous.lerp(current, alpha)` rather than the latest state.
    pub fn blends(self) -> bool {
        self == Mode::Interpolated
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
