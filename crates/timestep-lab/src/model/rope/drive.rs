//! The drive: the pinned end moved along a path, an exact function of simulated time, so the
//! rope never comes to rest and every lane that takes the same steps reaches the same state.
//!
//! The pin is put where the path is at the end of each (sub)step before the step is
//! integrated, and given the path's velocity there, so the springs' damping sees it move.
//!
//! `sway` moves the pin at a steady speed (as Blur Busters' UFO test moves its saucer: a
//! steady motion shows a stutter plainly) and eases it round at each end, slowly enough for
//! the rope to hang and follow: its period is well above the hanging rope's slowest swing
//! (about 2.9 s for the default 3 m rope: 4π/2.405 · √(L/g), the hanging chain's first
//! mode), and it starts from rest. A 2.5 s sine sat near that swing and whipped the rope
//! into a knot at the pin.

use glam::Vec2;
use std::f64::consts::TAU;
use std::fmt;
use timestep_loop::{Named, format_duration, parse_duration_with_unit, parse_keyword};

/// How far `sway` moves the pin either side of its place, m.
pub const SWAY_M: f64 = 1.2;
/// The radius of `circle`'s path, m.
pub const CIRCLE_M: f64 = 0.5;
/// The periods when none is given.
pub const SWAY_PERIOD_NS: u64 = 6_000_000_000;
/// The share of each sweep of `sway` spent easing round at its ends (the rest is at a
/// steady speed).
const SWAY_TURN: f64 = 0.5;
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
    /// Side to side, `SWAY_M` each way, once a period: a steady speed across the middle,
    /// eased round at the ends, starting from rest over its first half period.
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
    pub const fn sway() -> Drive {
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
        let v = |(x, y): (f64, f64)| Vec2::new(x as f32, y as f32);
        let period_ns = match self {
            Drive::Off => return (Vec2::ZERO, Vec2::ZERO),
            Drive::Sway { period_ns } => {
                let (x, speed) = sway(period_ns as f64 * 1e-9, t_ns * 1e-9);
                return (v((x, 0.0)), v((speed, 0.0)));
            }
            Drive::Circle { period_ns } => period_ns,
        };
        let radius = CIRCLE_M;
        let period_s = period_ns as f64 * 1e-9;
        let phase = TAU * ((t_ns / period_ns as f64).fract());
        let w = TAU / period_s;
        let (s, c) = phase.sin_cos();
        // Centred a radius to the left, so the path starts at the pin's place.
        let offset = (radius * (c - 1.0), radius * s);
        let speed = (-radius * w * s, radius * w * c);
        (v(offset), v(speed))
    }

    /// How far above its place the pin goes, m: a circle's radius (it rises and falls), none
    /// for a sway.
    pub fn rise_m(self) -> f32 {
        match self {
            Drive::Circle { .. } => CIRCLE_M as f32,
            Drive::Off | Drive::Sway { .. } => 0.0,
        }
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
            let ns =
                parse_duration_with_unit(p).map_err(|e| DriveError::BadPeriod(s.clone(), e))?;
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

/// `sway`'s offset and speed at `t` seconds, for a period of `period` seconds, m and m/s.
/// Each half period is a sweep across, `SWAY_M` either side: a steady speed `v` for the
/// middle, and at each end a turn of `SWAY_TURN` of the sweep in which the speed falls and
/// rises again as a half cosine (so the acceleration stays finite). The first half period is
/// eased in from rest (a raised cosine of the amplitude), so the start is no jolt either.
fn sway(period: f64, t: f64) -> (f64, f64) {
    use std::f64::consts::PI;
    let half = period / 2.0;
    let turn = SWAY_TURN * half;
    // From the middle to the start of the turn at a steady speed, then the turn's first half.
    let lead = (half - turn) / 2.0;
    let v = SWAY_M / (lead + turn / PI);
    let u = t.rem_euclid(period);
    // The second sweep mirrors the first; each sweep is symmetric about its far end.
    let (sign, u) = if u < half { (1.0, u) } else { (-1.0, u - half) };
    let (back, u) = if u < half / 2.0 {
        (1.0, u)
    } else {
        (-1.0, half - u)
    };
    let (x, dx) = if u < lead {
        (v * u, v)
    } else {
        let q = PI * (u - lead) / turn;
        (v * lead + v * turn / PI * q.sin(), v * q.cos())
    };
    let (x, dx) = (sign * x, sign * back * dx);
    if t >= half || t < 0.0 {
        return (x, dx);
    }
    let k = PI / half;
    let ease = 0.5 - 0.5 * (k * t).cos();
    (ease * x, 0.5 * k * (k * t).sin() * x + ease * dx)
}

/// How long a new drive takes to take the pin over from where it was, ns of simulated time.
///
/// A drive changed (the window's `D`) or a rope reset under a moving drive would otherwise put
/// the pin on the new path at once: a jump of up to twice `SWAY_M` in one step, which
/// stretches the first spring many times its rest length and explodes a rope whose tick is
/// stable. Over this handover the pin eases from where it was into the new path.
pub const HANDOVER_NS: f64 = 2e9;

/// A drive taking the pin over from an offset `from` (m from its place), eased with a
/// smoothstep over [`HANDOVER_NS`] from the first time it is asked (the first step after the
/// change): the pin's offset is `from + (path(t) − from) · s(u)`, `u` the share of the
/// handover gone, so it starts where it was, at the speed of neither path's jump, and ends on
/// the path. Its extra speed is at most 1.5 · distance / handover: under 2 m/s for the
/// farthest two drives' paths are apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Handover {
    from: Vec2,
    start_ns: Option<f64>,
}

impl Handover {
    /// A handover from the pin's offset `from`, m.
    pub(crate) fn from(from: Vec2) -> Handover {
        Handover {
            from,
            start_ns: None,
        }
    }

    /// The pin's offset and velocity at simulated time `t_ns` as `drive` takes over, m and
    /// m/s; `None` once the handover is over (the drive's own path from then on).
    pub(crate) fn at(&mut self, drive: Drive, t_ns: f64) -> Option<(Vec2, Vec2)> {
        let start = *self.start_ns.get_or_insert(t_ns);
        let u = (t_ns - start) / HANDOVER_NS;
        if !(0.0..1.0).contains(&u) {
            return None;
        }
        let (path, path_velocity) = drive.at(t_ns);
        let s = (u * u * (3.0 - 2.0 * u)) as f32;
        let ds = (6.0 * u * (1.0 - u) / (HANDOVER_NS * 1e-9)) as f32;
        let gap = path - self.from;
        Some((self.from + gap * s, path_velocity * s + gap * ds))
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
        // It starts at its place, at rest.
        assert_eq!(sway.at(0.0), (Vec2::ZERO, Vec2::ZERO));
        // From the second period on: out to one side at a quarter, back through the middle
        // at a half, to the other side at three quarters.
        assert!(near(sway.at(5.0 * S).0, Vec2::new(1.2, 0.0)), "a quarter");
        assert!(near(sway.at(5.0 * S).1, Vec2::ZERO), "turning");
        assert!(near(sway.at(6.0 * S).0, Vec2::ZERO));
        assert!(near(sway.at(7.0 * S).0, Vec2::new(-1.2, 0.0)));
        // A steady speed across the middle: 1.2 m / (0.5 s + 1 s / π) each way.
        let steady = 1.2 / (0.5 + 1.0 / std::f64::consts::PI);
        for t in [5.7, 6.0, 6.3] {
            assert!((f64::from(sway.at(t * S).1.x) + steady).abs() < 1e-4, "{t}");
        }
        // The speed is the path's rate of change, the ease-in included.
        for t in [0.3, 1.1, 1.9, 4.2, 5.2, 6.6] {
            let (a, b) = (sway.at(t * S - 1e5).0.x, sway.at(t * S + 1e5).0.x);
            let rate = f64::from(b - a) / 2e-4;
            assert!((rate - f64::from(sway.at(t * S).1.x)).abs() < 2e-3, "{t}");
        }
        let circle = Drive::Circle {
            period_ns: 2_000_000_000,
        };
        assert!(near(circle.at(0.0).0, Vec2::ZERO));
        assert!(near(circle.at(0.5 * S).0, Vec2::new(-0.5, 0.5)));
        assert!(near(circle.at(1.0 * S).0, Vec2::new(-1.0, 0.0)));
        assert_eq!(Drive::Off.at(1.23 * S), (Vec2::ZERO, Vec2::ZERO));
        // An hour in, the path is where it was at the start: time is taken modulo the period.
        assert!(near(sway.at(3600.0 * S).0, Vec2::ZERO));
        assert!(near(sway.at(3601.0 * S).0, Vec2::new(1.2, 0.0)));
    }

    /// The sharpest bend at any particle of `p`, degrees (180: the rope doubles back).
    fn sharpest_bend(p: &[Vec2]) -> f32 {
        p.windows(3)
            .map(|w| (w[1] - w[0]).angle_to(w[2] - w[1]).abs().to_degrees())
            .fold(0.0, f32::max)
    }

    #[test]
    fn the_default_sway_leaves_a_hanging_rope_hanging_without_a_fold() {
        use crate::model::rope::{Previous, Rope, RopeParams};
        let params = RopeParams {
            drive: Drive::sway(),
            ..RopeParams::default()
        };
        // Hanging straight down at rest, each spring at its rest length.
        let hanging = (0..params.particles)
            .map(|i| Vec2::new(0.0, -params.rest_length_m * i as f32))
            .collect();
        let mut rope = Rope::with_positions(params, hanging).unwrap_or_else(|e| panic!("{e}"));
        // 60 simulated seconds at the window's default 1 ms tick, as a fixed lane steps it.
        let (mut worst, mut highest) = (0.0f32, f32::MIN);
        for tick in 1..=60_000u32 {
            rope.drive_to(f64::from(tick) * 1e6);
            rope.step(0.001, Previous::Keep);
            let p: Vec<Vec2> = rope.positions().collect();
            worst = worst.max(sharpest_bend(&p));
            highest = highest.max(p[p.len() - 1].y - p[0].y);
        }
        assert!(!rope.exploded());
        // The 2.5 s sine doubled the rope back on itself (180 degrees) every second.
        assert!(worst < 90.0, "a bend of {worst:.0} degrees");
        assert!(
            highest < -1.0,
            "the free end came to {highest:.2} m of the pin's height"
        );
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
