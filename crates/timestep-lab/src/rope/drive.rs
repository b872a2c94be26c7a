//! The drive: the pinned end moved along a path, an exact function of simulated time, so the
//! rope never comes to rest and every lane that takes the same steps reaches the same state.
//!
//! The pin is put where the path is at the end of each (sub)step before the step is
//! integrated, and given the path's velocity there, so the springs' damping sees it move.

use glam::Vec2;
use std::f64::consts::TAU;
use std::fmt;
use timestep_loop::{Named, format_duration, parse_duration, parse_keyword};

/// How far `sway` moves the pin either side of its place, m.
pub const SWAY_M: f64 = 0.75;
/// The radius of `circle`'s path, m.
pub const CIRCLE_M: f64 = 0.5;
/// The periods when none is given.
pub const SWAY_PERIOD_NS: u64 = 2_500_000_000;
pub const CIRCLE_PERIOD_NS: u64 = 3_000_000_000;
/// The shortest and longest period accepted.
const MIN_PERIOD_NS: u64 = 100_000_000;
const MAX_PERIOD_NS: u64 = 3_600_000_000_000;

/// How the pinned end moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Drive {
    /// It stays where it is.
    #[default]
    Off,
    /// Side to side, `SWAY_M` each way, once a period.
    Sway {
        /// One full swing there and back, ns.
        period_ns: u64,
    },
    /// Round a circle of `CIRCLE_M`, once a period, starting at its place and moving up.
    Circle {
        /// One full turn, ns.
        period_ns: u64,
    },
}

impl Drive {
    /// `sway`, `circle` and `off`, as `--drive` and the `D` key know them.
    pub const NAMES: [&'static str; 3] = ["sway", "circle", "off"];

    /// The next for the `D` key: sway → circle → off → sway, each at its default period.
    pub fn next(self) -> Drive {
        match self {
            Drive::Sway { .. } => Drive::Circle {
                period_ns: CIRCLE_PERIOD_NS,
            },
            Drive::Circle { .. } => Drive::Off,
            Drive::Off => Drive::sway(),
        }
    }

    /// `sway` at its default period.
    pub fn sway() -> Drive {
        Drive::Sway {
            period_ns: SWAY_PERIOD_NS,
        }
    }

    /// Whether the pin moves (any drive but `Off`).
    pub fn is_on(self) -> bool {
        self != Drive::Off
    }

    /// How far the pin is from its place at simulated time `t_ns`, and how fast it moves, in
    /// metres and metres per second.
    pub fn at(self, t_ns: f64) -> (Vec2, Vec2) {
        let (radius, period_ns, circle) = match self {
            Drive::Off => return (Vec2::ZERO, Vec2::ZERO),
            Drive::Sway { period_ns } => (SWAY_M, period_ns, false),
            Drive::Circle { period_ns } => (CIRCLE_M, period_ns, true),
        };
        let period_s = period_ns as f64 * 1e-9;
        let phase = TAU * ((t_ns / period_ns as f64).fract());
        let w = TAU / period_s;
        let (s, c) = phase.sin_cos();
        let (offset, speed) = if circle {
            // Centred a radius to the left, so the path starts at the pin's place.
            (
                (radius * (c - 1.0), radius * s),
                (-radius * w * s, radius * w * c),
            )
        } else {
            ((radius * s, 0.0), (radius * w * c, 0.0))
        };
        let v = |(x, y): (f64, f64)| Vec2::new(x as f32, y as f32);
        (v(offset), v(speed))
    }

    /// The farthest the pin goes from its place, m (how much room a view must leave).
    pub fn reach_m(self) -> f32 {
        match self {
            Drive::Off => 0.0,
            Drive::Sway { .. } => SWAY_M as f32,
            Drive::Circle { .. } => 2.0 * CIRCLE_M as f32,
        }
    }

    /// Reads a drive as typed: `sway`, `circle` or `off` (trimmed, ASCII case ignored), the
    /// first two with an optional `:PERIOD`; an error quotes the text lower-cased.
    pub fn parse(s: &str) -> Result<Drive, DriveError> {
        let s = s.trim().to_ascii_lowercase();
        let (keyword, period) =
            parse_keyword::<Keyword>(&s).ok_or_else(|| DriveError::Unknown(s.clone()))?;
        let period_ns = |default: u64| -> Result<u64, DriveError> {
            let Some(p) = period else { return Ok(default) };
            let ns = parse_duration(p).map_err(|e| DriveError::BadPeriod(s.clone(), e))?;
            if !(MIN_PERIOD_NS..=MAX_PERIOD_NS).contains(&ns) {
                return Err(DriveError::PeriodOutOfRange(s.clone()));
            }
            Ok(ns)
        };
        match keyword {
            Keyword::Sway => Ok(Drive::Sway {
                period_ns: period_ns(SWAY_PERIOD_NS)?,
            }),
            Keyword::Circle => Ok(Drive::Circle {
                period_ns: period_ns(CIRCLE_PERIOD_NS)?,
            }),
            Keyword::Off if period.is_none() => Ok(Drive::Off),
            Keyword::Off => Err(DriveError::OffWithPeriod(s)),
        }
    }

    /// Its name without the period: `sway`, `circle` or `off` (one of [`Drive::NAMES`]).
    pub fn name(self) -> &'static str {
        self.keyword().0.name()
    }

    /// Its keyword, and its period if it has one.
    fn keyword(self) -> (Keyword, Option<u64>) {
        match self {
            Drive::Off => (Keyword::Off, None),
            Drive::Sway { period_ns } => (Keyword::Sway, Some(period_ns)),
            Drive::Circle { period_ns } => (Keyword::Circle, Some(period_ns)),
        }
    }
}

/// A drive's keyword: its entry in [`Drive::NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Sway,
    Circle,
    Off,
}

impl Named for Keyword {
    const ALL: &'static [Keyword] = &[Keyword::Sway, Keyword::Circle, Keyword::Off];
    const WHAT: &'static str = "drive";
    fn name(self) -> &'static str {
        Drive::NAMES[self as usize]
    }
}

impl fmt::Display for Drive {
    /// As typed: `sway:2.5s`, `circle:3s`, `off`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.keyword() {
            (keyword, None) => f.write_str(keyword.name()),
            (keyword, Some(period_ns)) => {
                write!(f, "{}:{}", keyword.name(), format_duration(period_ns))
            }
        }
    }
}

/// A drive's text (`--drive`) that is not a drive, quoting it (lower-cased).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DriveError {
    /// A period that is not a duration (the drive's text, and why).
    #[error("the period in '{0}': {1}")]
    BadPeriod(String, #[source] timestep_loop::DurationError),
    /// A period outside 100 ms to 1 h (the drive's text).
    #[error(
        "the period in '{0}' must be from {lo} to {hi}",
        lo = format_duration(MIN_PERIOD_NS),
        hi = format_duration(MAX_PERIOD_NS)
    )]
    PeriodOutOfRange(String),
    /// `off` given a period (the drive's text).
    #[error("'{0}': off has no period")]
    OffWithPeriod(String),
    /// None of the drives' names (the drive's text).
    #[error(
        "unknown drive '{0}' (expected {names}, the first two with an optional :PERIOD, e.g. sway:3s)",
        names = Drive::NAMES.join(", ")
    )]
    Unknown(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: f64 = 1e9;

    #[test]
    fn sway_goes_side_to_side_once_a_period_and_circle_round_from_its_place() {
        let sway = Drive::Sway {
            period_ns: 4_000_000_000,
        };
        let near = |a: Vec2, b: Vec2| a.distance(b) < 1e-6;
        assert!(near(sway.at(0.0).0, Vec2::ZERO));
        assert!(
            near(sway.at(1.0 * S).0, Vec2::new(0.75, 0.0)),
            "a quarter period"
        );
        assert!(near(sway.at(3.0 * S).0, Vec2::new(-0.75, 0.0)));
        assert!(near(sway.at(4.0 * S).0, Vec2::ZERO));
        // Fastest through the middle: 2π · 0.75 m / 4 s.
        assert!((sway.at(0.0).1.x - 1.178_097).abs() < 1e-5);
        let circle = Drive::Circle {
            period_ns: 2_000_000_000,
        };
        assert!(near(circle.at(0.0).0, Vec2::ZERO));
        assert!(near(circle.at(0.5 * S).0, Vec2::new(-0.5, 0.5)));
        assert!(near(circle.at(1.0 * S).0, Vec2::new(-1.0, 0.0)));
        assert_eq!(Drive::Off.at(1.23 * S), (Vec2::ZERO, Vec2::ZERO));
        // An hour in, the path is where it was at the start: time is taken modulo the period.
        assert!(near(sway.at(3600.0 * S).0, Vec2::ZERO));
    }

    #[test]
    fn drives_parse_as_typed_and_bad_ones_say_why() {
        assert_eq!(Drive::parse("sway"), Ok(Drive::sway()));
        assert_eq!(
            Drive::parse("Circle:2.5s"),
            Ok(Drive::Circle {
                period_ns: 2_500_000_000
            })
        );
        assert_eq!(Drive::parse("off"), Ok(Drive::Off));
        assert_eq!(
            Drive::parse("sway:3s").map(|d| d.to_string()),
            Ok("sway:3s".into())
        );
        for (bad, says) in [
            ("wobble", "unknown drive"),
            ("sway:0", "must be from"),
            ("sway:fast", "period"),
            ("off:2s", "no period"),
        ] {
            let e = Drive::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert_eq!(Drive::Off.next().next().next(), Drive::Off);
        let says = |typed: &str| Drive::parse(typed).unwrap_err().to_string();
        let unknown = "(expected sway, circle, off, the first two with an optional :PERIOD, \
                       e.g. sway:3s)";
        for typed in ["sway :3s", "Wobble:1s", ":3s", ""] {
            let quoted = typed.trim().to_ascii_lowercase();
            assert_eq!(says(typed), format!("unknown drive '{quoted}' {unknown}"));
        }
        assert_eq!(says(" OFF:2s"), "'off:2s': off has no period");
        assert_eq!(says("off:"), "'off:': off has no period");
        assert_eq!(
            says("sway:0"),
            "the period in 'sway:0' must be from 100ms to 3600s"
        );
        assert!(says("sway:").starts_with("the period in 'sway:': "));
        assert_eq!(Drive::parse("sway: 3s"), Drive::parse("sway:3s"));
        for drive in [Drive::Off, Drive::sway(), Drive::sway().next()] {
            assert_eq!(Drive::parse(&drive.to_string()), Ok(drive));
            assert!(drive.to_string().starts_with(drive.name()));
        }
    }
}
