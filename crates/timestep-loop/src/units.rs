//! Units: every conversion between nanoseconds, milliseconds, seconds and hertz lives here, and
//! durations as people type them: `1ms`, `0.5ms`, `250ms`, `0.25s`, `500us`, `0.001` (seconds),
//! or a rate, `60hz`.
//!
//! Time is kept in whole nanoseconds (`u64`) everywhere in this crate. Text is parsed with
//! integer arithmetic straight to nanoseconds, so `0.001` is exactly 1,000,000 ns and never
//! 999,999 through a float.

use crate::tick::Tick;
use std::fmt;

/// Nanoseconds in a millisecond.
pub const NS_PER_MS: u64 = 1_000_000;
/// Nanoseconds in a second.
pub const NS_PER_S: u64 = 1_000_000_000;

/// The largest duration accepted anywhere: one year. Longer values are almost surely typos and
/// would overflow sums of nanoseconds.
pub const MAX_DURATION_NS: u64 = 365 * 24 * 3600 * NS_PER_S;

/// The fastest rate anything is given at, Hz (a display, a cap, a hold): faster is surely a
/// typo.
pub const MAX_HZ: f64 = 10_000.0;

/// The slowest rate anything is given at, Hz (a display, a cap, a hold): one frame a second.
/// Slower is surely a typo (`cap:0.01` is a frame every 100 s; `cap:1e-300` never starts a second
/// frame; a `--display-hz 1e-300` display never shows one), a host that waits for its frames
/// must still serve its window meanwhile, and a frame time longer than its period is no
/// display's refresh (the vsync detector's bound).
pub const MIN_HZ: f64 = 1.0;

/// Nanoseconds as seconds, correctly rounded (60 s prints as 60, not 60.00000000000001).
pub fn seconds(ns: u64) -> f64 {
    ns as f64 / 1e9
}

/// Nanoseconds as milliseconds, correctly rounded (16,806,723 ns is 16.806723 ms).
pub fn millis(ns: u64) -> f64 {
    ns as f64 / 1e6
}

/// `x.round()` (half away from zero), bit for bit but for the sign of a zero (every caller
/// compares or converts it), without the library call `f64::round` is on baseline x86-64, for the vsync detector's and the jitter fix's arithmetic on every
/// frame: below 2^52 the fraction `x − trunc(x)` is exact, so comparing it with ½ decides
/// exactly as `round` does; from 2^52 on every double is whole. Crate-private (the app has its
/// own, `timestep_lab::util::fast::round`, for its own frame arithmetic).
pub(crate) fn round(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x; // whole already, infinite or NaN
    }
    let t = x as i64 as f64;
    let f = x - t;
    if f >= 0.5 {
        t + 1.0
    } else if f <= -0.5 {
        t - 1.0
    } else {
        t
    }
}

/// Seconds as whole nanoseconds, to the nearest (negative and non-finite values give 0).
pub fn ns_from_seconds(s: f64) -> u64 {
    if s.is_finite() && s > 0.0 {
        (s * 1e9).round() as u64
    } else {
        0
    }
}

/// One period of `hz` in whole nanoseconds, to the nearest (at least 1); `None` unless `hz` is
/// finite and above zero.
pub fn period_ns(hz: f64) -> Option<u64> {
    (hz.is_finite() && hz > 0.0).then(|| ((1e9 / hz).round() as u64).max(1))
}

/// The rate of a period of `ns` nanoseconds, Hz.
pub fn hz_of_period(ns: u64) -> f64 {
    1e9 / ns.max(1) as f64
}

/// Why a duration or rate could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DurationError {
    /// Not a number with a unit this crate knows.
    NotADuration(String),
    /// Not a rate like `60hz`.
    NotARate(String),
    /// A negative value.
    Negative(String),
    /// Finer than a nanosecond.
    TooFine(String),
    /// Longer than a year (see [`MAX_DURATION_NS`]).
    TooLong(String),
    /// A rate of zero.
    ZeroRate(String),
    /// A rate so fast its period is under a nanosecond.
    TooFast(String),
    /// A rate with more digits than one needs.
    TooManyDigits(String),
    /// A number other than zero without a unit, where one is required
    /// ([`parse_duration_with_unit`]).
    NoUnit(String),
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::NotADuration(t) => write!(
                f,
                "'{t}' is not a duration (use e.g. 1ms, 0.5ms, 250ms, 0.25s or 500us)"
            ),
            DurationError::NotARate(t) => {
                write!(f, "'{t}' is not a rate (use e.g. 60hz or 59.94hz)")
            }
            DurationError::Negative(t) => write!(f, "'{t}' is negative; it must be positive"),
            DurationError::TooFine(t) => write!(f, "'{t}' is finer than the 1 ns resolution"),
            DurationError::TooLong(t) => write!(f, "'{t}' is too long (at most one year)"),
            DurationError::ZeroRate(t) => write!(f, "'{t}' is zero; a rate must be above 0 Hz"),
            DurationError::TooFast(t) => write!(f, "'{t}' is too fast: a period under 1 ns"),
            DurationError::TooManyDigits(t) => {
                write!(f, "'{t}' has more digits than a rate needs")
            }
            DurationError::NoUnit(t) => {
                let t = t.trim();
                write!(f, "'{t}' has no unit: give one, e.g. {t}ms or {t}s")
            }
        }
    }
}

impl std::error::Error for DurationError {}

/// Parses a duration into whole nanoseconds. Units: `ns`, `us` (or `µs`), `ms`, `s`; a bare
/// number means seconds. Negative, non-finite, sub-nanosecond and over-a-year values are errors.
///
/// ```
/// use timestep_loop::parse_duration;
/// assert_eq!(parse_duration("0.5ms"), Ok(500_000));
/// assert_eq!(parse_duration("0.001"), Ok(1_000_000));
/// assert!(parse_duration("-1ms").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<u64, DurationError> {
    let s = text.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(s.len());
    let (number, unit) = (&s[..split], s[split..].trim());
    let not = || DurationError::NotADuration(text.to_string());
    let scale: u64 = match unit {
        "" | "s" => NS_PER_S,
        "ms" => NS_PER_MS,
        "us" | "µs" => 1_000,
        "ns" => 1,
        _ => return Err(not()),
    };
    if number.starts_with('-') {
        return Err(DurationError::Negative(text.to_string()));
    }
    let number = number.strip_prefix('+').unwrap_or(number);
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if (whole.is_empty() && frac.is_empty()) || !all_digits(whole) || !all_digits(frac) {
        return Err(not());
    }
    let too_long = || DurationError::TooLong(text.to_string());
    let whole_ns = if whole.is_empty() {
        0
    } else {
        whole
            .parse::<u64>()
            .ok()
            .and_then(|w| w.checked_mul(scale))
            .ok_or_else(too_long)?
    };
    // The fraction: digits beyond the unit's resolution must be zero.
    let mut frac_ns: u64 = 0;
    let mut place = scale;
    for (i, b) in frac.bytes().enumerate() {
        place /= 10;
        if place == 0 {
            if frac.as_bytes()[i..].iter().any(|&b| b != b'0') {
                return Err(DurationError::TooFine(text.to_string()));
            }
            break;
        }
        frac_ns += u64::from(b - b'0') * place;
    }
    let ns = whole_ns.checked_add(frac_ns).ok_or_else(too_long)?;
    if ns > MAX_DURATION_NS {
        return Err(too_long());
    }
    Ok(ns)
}

/// Parses a duration as a command-line flag takes it: as [`parse_duration`], but a number
/// other than zero must carry its unit. A bare `2` is 2 ms to one reader and 2 s to another, so
/// it is refused rather than read as seconds; `0` is zero in any unit.
///
/// ```
/// use timestep_loop::{DurationError, parse_duration_with_unit};
/// assert_eq!(parse_duration_with_unit("2ms"), Ok(2_000_000));
/// assert_eq!(parse_duration_with_unit("0"), Ok(0));
/// assert_eq!(parse_duration_with_unit("2"), Err(DurationError::NoUnit("2".into())));
/// ```
pub fn parse_duration_with_unit(text: &str) -> Result<u64, DurationError> {
    let ns = parse_duration(text)?;
    let bare = text
        .trim()
        .ends_with(|c: char| c.is_ascii_digit() || c == '.');
    if bare && ns != 0 {
        return Err(DurationError::NoUnit(text.to_string()));
    }
    Ok(ns)
}

fn all_digits(d: &str) -> bool {
    d.bytes().all(|b| b.is_ascii_digit())
}

/// Parses a period: a duration (see [`parse_duration`]) or a rate, `60hz` or `59.94hz`, which
/// is one period of that rate to the nearest whole nanosecond (60hz is 16,666,667 ns). For a
/// loop's tick, which keeps a rate exactly, use [`parse_tick`].
///
/// ```
/// use timestep_loop::parse_period;
/// assert_eq!(parse_period("60hz"), Ok(16_666_667));
/// assert_eq!(parse_period("64Hz"), Ok(15_625_000));
/// assert_eq!(parse_period("20ms"), Ok(20_000_000));
/// ```
pub fn parse_period(text: &str) -> Result<u64, DurationError> {
    parse_tick(text).map(|t| t.ns())
}

/// Parses a tick: a duration (see [`parse_duration`]), whole nanoseconds, or a rate, `60hz` or
/// `59.94hz`, which is exactly one period of that rate (60hz is 1/60 s: sixty ticks are one
/// second). The rate is read as an exact decimal, so no float rounding creeps in.
///
/// ```
/// use timestep_loop::{Tick, parse_tick};
/// assert_eq!(parse_tick("60hz"), Ok(Tick::per_second(60).unwrap()));
/// assert_eq!(parse_tick("20ms"), Ok(Tick::from_ns(20_000_000)));
/// ```
pub fn parse_tick(text: &str) -> Result<Tick, DurationError> {
    let s = text.trim();
    let Some(rate) = s
        .strip_suffix("hz")
        .or_else(|| s.strip_suffix("Hz"))
        .or_else(|| s.strip_suffix("HZ"))
    else {
        return parse_duration(text).map(Tick::from_ns);
    };
    let rate = rate.trim();
    let owned = || text.to_string();
    let (whole, frac) = rate.split_once('.').unwrap_or((rate, ""));
    if rate.starts_with('-') {
        return Err(DurationError::Negative(owned()));
    }
    if (whole.is_empty() && frac.is_empty()) || !all_digits(whole) || !all_digits(frac) {
        return Err(DurationError::NotARate(owned()));
    }
    if frac.len() > 9 || whole.len() > 12 {
        return Err(DurationError::TooManyDigits(owned()));
    }
    // rate = num / 10^frac_len; period = 1e9 · 10^frac_len / num, kept as that fraction.
    let num: u128 = format!("{whole}{frac}")
        .parse()
        .map_err(|_| DurationError::NotARate(owned()))?;
    if num == 0 {
        return Err(DurationError::ZeroRate(owned()));
    }
    let scale = 10u128.pow(frac.len() as u32);
    if u128::from(NS_PER_S) * scale < num {
        return Err(DurationError::TooFast(owned()));
    }
    let tick = Tick::from_rate(num, scale).ok_or_else(|| DurationError::TooManyDigits(owned()))?;
    if tick.ns() > MAX_DURATION_NS {
        return Err(DurationError::TooLong(owned()));
    }
    Ok(tick)
}

/// Formats nanoseconds the way a user would type them: `1ms`, `0.5ms`, `250ms`, `1.5s`, `500us`.
///
/// ```
/// use timestep_loop::format_duration;
/// assert_eq!(format_duration(16_683_000), "16.683ms");
/// assert_eq!(format_duration(500_000), "500us");
/// ```
pub fn format_duration(ns: u64) -> String {
    let (scale, unit) = if ns >= NS_PER_S {
        (NS_PER_S, "s")
    } else if ns >= NS_PER_MS {
        (NS_PER_MS, "ms")
    } else if ns >= 1_000 {
        (1_000, "us")
    } else {
        (1, "ns")
    };
    let whole = ns / scale;
    let frac = ns % scale;
    if frac == 0 {
        return format!("{whole}{unit}");
    }
    let width = scale.ilog10() as usize;
    let digits = format!("{frac:0width$}");
    format!("{whole}.{}{unit}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flags_duration_needs_its_unit_unless_it_is_zero() {
        for bare in ["2", "2.5", " 2 ", "0.001", ".5", "+3"] {
            let got = parse_duration_with_unit(bare);
            assert_eq!(got, Err(DurationError::NoUnit(bare.into())), "{bare}");
        }
        let said = parse_duration_with_unit("2").map_err(|e| e.to_string());
        assert_eq!(
            said,
            Err("'2' has no unit: give one, e.g. 2ms or 2s".into())
        );
        for (text, ns) in [
            ("0", 0),
            ("0.0", 0),
            ("2ms", 2_000_000),
            ("2 s", 2_000_000_000),
        ] {
            assert_eq!(parse_duration_with_unit(text), Ok(ns), "{text}");
        }
        assert!(matches!(
            parse_duration_with_unit("-2"),
            Err(DurationError::Negative(_))
        ));
    }

    #[test]
    fn a_rate_is_one_period_to_the_nearest_nanosecond() {
        assert_eq!(parse_period("60hz"), Ok(16_666_667));
        assert_eq!(parse_period("59.94hz"), Ok(16_683_350));
        assert_eq!(parse_period("64Hz"), Ok(15_625_000));
        assert_eq!(parse_period("50hz"), Ok(20_000_000));
        assert_eq!(parse_period("16.667ms"), Ok(16_667_000));
        assert_eq!(parse_period("1ms"), Ok(1_000_000));
        for bad in [
            "0hz",
            "-60hz",
            "hz",
            "sixtyhz",
            "2e9hz",
            "0.000000001hz",
            "1.2.3hz",
        ] {
            assert!(parse_period(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_documented_spellings_parse_exactly() {
        assert_eq!(parse_duration("1ms"), Ok(1_000_000));
        assert_eq!(parse_duration("0.5ms"), Ok(500_000));
        assert_eq!(parse_duration("250ms"), Ok(250_000_000));
        assert_eq!(parse_duration("0.25s"), Ok(250_000_000));
        assert_eq!(parse_duration("500us"), Ok(500_000));
        assert_eq!(parse_duration("500µs"), Ok(500_000));
        assert_eq!(parse_duration("0.001"), Ok(1_000_000));
        assert_eq!(parse_duration("2"), Ok(2_000_000_000));
        assert_eq!(parse_duration(".5s"), Ok(500_000_000));
        assert_eq!(parse_duration("16.683ms"), Ok(16_683_000));
        assert_eq!(parse_duration("0"), Ok(0));
    }

    #[test]
    fn garbage_negative_and_absurd_values_are_errors_that_quote_the_value() {
        for bad in [
            "",
            "abc",
            "-1ms",
            "1 parsec",
            "nan",
            "inf",
            "1..2ms",
            "1e-3",
            "ms",
            ".",
            "0.5ns",
            "99999999999999999999",
            "400days",
            "40000000s",
        ] {
            let e = parse_duration(bad).expect_err(bad);
            assert!(e.to_string().contains(&format!("'{bad}'")), "{e}");
        }
    }

    #[test]
    fn round_agrees_with_the_standard_library() {
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let edges = [
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            -0.5,
            -1.5,
            0.49999999999999994,
            -0.49999999999999994,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            1e300,
            f64::INFINITY,
        ];
        for x in edges {
            assert_eq!(round(x), x.round(), "{x}");
        }
        for _ in 0..200_000 {
            let x = f64::from_bits(next()) % 1e16;
            let y = (next() % 100_000_000_000) as f64 / 1_000.0 - 5e7;
            for v in [x, y] {
                if v.is_finite() {
                    assert_eq!(round(v), v.round(), "{v}");
                }
            }
        }
        assert!(round(f64::NAN).is_nan());
    }

    #[test]
    fn formatting_round_trips() {
        for ns in [
            1,
            999,
            1_000,
            500_000,
            1_000_000,
            1_500_000,
            250_000_000,
            1_250_000_000,
        ] {
            assert_eq!(parse_duration(&format_duration(ns)), Ok(ns));
        }
        assert_eq!(format_duration(500_000), "500us");
        assert_eq!(format_duration(16_683_000), "16.683ms");
    }

    #[test]
    fn periods_and_rates_convert_both_ways() {
        assert_eq!(period_ns(60.0), Some(16_666_667));
        assert_eq!(period_ns(0.0), None);
        assert_eq!(period_ns(f64::NAN), None);
        assert_eq!(hz_of_period(20_000_000), 50.0);
        assert_eq!(ns_from_seconds(0.25), 250_000_000);
        assert_eq!(millis(1_500_000), 1.5);
        assert_eq!(seconds(60 * NS_PER_S), 60.0);
    }
}
