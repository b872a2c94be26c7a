//! Durations as users type them: `1ms`, `0.5ms`, `250ms`, `0.25s`, `500us`, `0.001` (seconds).
//!
//! Parsed with integer arithmetic straight to nanoseconds, so `0.001` is exactly 1,000,000 ns
//! and never 999,999 through a float.

/// The largest duration accepted anywhere: one year. Longer values are almost surely typos and
/// would overflow sums of nanoseconds.
pub const MAX_DURATION_NS: u64 = 365 * 24 * 3600 * 1_000_000_000;

/// Parses a duration into whole nanoseconds. Units: `ns`, `us` (or `µs`), `ms`, `s`; a bare
/// number means seconds. Negative, non-finite, sub-nanosecond and over-a-year values are errors.
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let s = text.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(s.len());
    let (number, unit) = (&s[..split], s[split..].trim());
    let scale: u64 = match unit {
        "" | "s" => 1_000_000_000,
        "ms" => 1_000_000,
        "us" | "µs" => 1_000,
        "ns" => 1,
        _ => {
            return Err(format!(
                "'{text}' is not a duration (use e.g. 1ms, 0.5ms, 250ms, 0.25s, 500us or 0.001)"
            ));
        }
    };
    if number.starts_with('-') {
        return Err(format!("'{text}' is negative; a duration must be positive"));
    }
    let number = number.strip_prefix('+').unwrap_or(number);
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits_ok = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits_ok(whole) || !digits_ok(frac) {
        return Err(format!(
            "'{text}' is not a duration (use e.g. 1ms, 0.5ms, 250ms, 0.25s, 500us or 0.001)"
        ));
    }
    let too_long = || format!("'{text}' is too long (at most one year)");
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
        let digit = u64::from(b - b'0');
        place /= 10;
        if place == 0 {
            if frac.as_bytes()[i..].iter().any(|&b| b != b'0') {
                return Err(format!("'{text}' is finer than the 1 ns resolution"));
            }
            break;
        }
        frac_ns += digit * place;
    }
    let ns = whole_ns.checked_add(frac_ns).ok_or_else(too_long)?;
    if ns > MAX_DURATION_NS {
        return Err(too_long());
    }
    Ok(ns)
}

/// Parses a period: a duration (see [`parse_duration`]) or a rate, `60hz` or `59.94hz`, which
/// is one period of that rate to the nearest whole nanosecond (60hz is 16,666,667 ns). The
/// rate is read as an exact decimal, so no float rounding creeps in.
pub fn parse_period(text: &str) -> Result<u64, String> {
    let s = text.trim();
    let Some(rate) = s
        .strip_suffix("hz")
        .or_else(|| s.strip_suffix("Hz"))
        .or_else(|| s.strip_suffix("HZ"))
    else {
        return parse_duration(text);
    };
    let rate = rate.trim();
    let bad = || format!("'{text}' is not a rate (use e.g. 60hz or 59.94hz)");
    let (whole, frac) = rate.split_once('.').unwrap_or((rate, ""));
    let digits_ok = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if rate.starts_with('-') {
        return Err(format!("'{text}' is negative; a rate must be positive"));
    }
    if (whole.is_empty() && frac.is_empty()) || !digits_ok(whole) || !digits_ok(frac) {
        return Err(bad());
    }
    if frac.len() > 9 || whole.len() > 12 {
        return Err(format!("'{text}' has more digits than a rate needs"));
    }
    // rate = num / 10^frac_len; period = 1e9 / rate = 1e9 · 10^frac_len / num.
    let num: u128 = format!("{whole}{frac}").parse().map_err(|_| bad())?;
    if num == 0 {
        return Err(format!("'{text}' is zero; a rate must be above 0 Hz"));
    }
    let scaled: u128 = 1_000_000_000u128 * 10u128.pow(frac.len() as u32);
    let period = (scaled + num / 2) / num;
    if period == 0 {
        return Err(format!("'{text}' is too fast: a period under 1 ns"));
    }
    if period > u128::from(MAX_DURATION_NS) {
        return Err(format!("'{text}' is too slow: a period over a year"));
    }
    Ok(period as u64)
}

/// Nanoseconds as seconds, correctly rounded (60 s prints as 60, not 60.00000000000001).
pub fn seconds(ns: u64) -> f64 {
    ns as f64 / 1e9
}

/// Formats nanoseconds the way a user would type them: `1ms`, `0.5ms`, `250ms`, `1.5s`, `500us`.
pub fn format_duration(ns: u64) -> String {
    let (scale, unit) = if ns >= 1_000_000_000 {
        (1_000_000_000, "s")
    } else if ns >= 1_000_000 {
        (1_000_000, "ms")
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
    fn garbage_negative_and_absurd_values_are_errors() {
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
            assert!(parse_duration(bad).is_err(), "{bad:?} should not parse");
        }
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
}
