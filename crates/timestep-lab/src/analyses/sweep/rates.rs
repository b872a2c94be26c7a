//! Rate lists: display rates as ranges (`30..240`, `30..240:0.5`) and lists
//! (`59.94,60,119.88`), mixed freely, expanded to a sorted list without repeats.

/// The default sweep: every whole rate from 30 to 240 Hz and the NTSC-style fractional ones.
pub const DEFAULT_RATES: &str = "30..240,59.94,119.88,143.86";

use crate::util::bounded::{self, OutOfRange, bounded};

/// Most configurations (rates × lanes) a sweep runs.
pub const MAX_CONFIGS: u64 = 1_000_000;

/// A rate as typed, its unit dropped: `60hz` and `60 Hz` are `60`.
pub fn without_hz(s: &str) -> &str {
    let t = s.trim();
    let cut = t.len().saturating_sub(2);
    match t.get(cut..) {
        Some(unit) if unit.eq_ignore_ascii_case("hz") => t[..cut].trim_end(),
        _ => t,
    }
}

/// What is wrong with a list of rates: one line quoting the item.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatesError {
    /// A list with nothing in it.
    #[error("the list of rates is empty")]
    Empty,
    /// A list with an empty item between its commas.
    #[error("'{text}' has an empty item")]
    EmptyItem {
        /// The whole list.
        text: String,
    },
    /// A range whose start is above its end.
    #[error("'{item}' is reversed: {lo} Hz is above {hi} Hz")]
    Reversed {
        /// The range as typed.
        item: String,
        /// Its start, Hz.
        lo: f64,
        /// Its end, Hz.
        hi: f64,
    },
    /// A range whose step is zero or negative.
    #[error("'{item}': the step must be greater than zero")]
    StepNotAboveZero {
        /// The range as typed.
        item: String,
    },
    /// A range that makes more than [`MAX_CONFIGS`] rates.
    #[error("'{item}' makes {count:.0} rates, more than the {MAX_CONFIGS} a sweep runs")]
    TooMany {
        /// The range as typed.
        item: String,
        /// How many rates it makes.
        count: f64,
    },
    /// A rate, bound or step that does not parse as a number.
    #[error("'{s}' in '{item}' is not a number")]
    NotANumber {
        /// The text that is not a number.
        s: String,
        /// The item it is in.
        item: String,
    },
    /// A rate, bound or step that is infinite or NaN.
    #[error("'{s}' in '{item}' is not a finite number")]
    NotFinite {
        /// The text that is not finite.
        s: String,
        /// The item it is in.
        item: String,
    },
    /// A range with an end left empty (`30..`, `..240`).
    #[error("'{item}' is missing a rate (e.g. 30..240)")]
    MissingRate {
        /// The item as typed.
        item: String,
    },
    /// A rate below [`timestep_loop::MIN_HZ`] or above [`timestep_loop::MAX_HZ`].
    #[error(transparent)]
    OutOfRange(#[from] OutOfRange),
}

/// Parses a comma-separated list of rates and ranges into sorted, distinct rates. A range
/// `A..B` steps by 1 Hz, `A..B:S` by S; both ends are included when the step lands on them.
pub fn parse_rates(text: &str) -> Result<Vec<f64>, RatesError> {
    if text.trim().is_empty() {
        return Err(RatesError::Empty);
    }
    let mut rates = Vec::new();
    for item in text.split(',') {
        // A rate may carry its unit: `60hz`, `30hz..144hz`.
        let bare: Vec<&str> = item.split("..").map(without_hz).collect();
        let bare = bare.join("..");
        let item = bare.trim();
        if item.is_empty() {
            return Err(RatesError::EmptyItem { text: text.into() });
        }
        match item.split_once("..") {
            Some((lo, rest)) => expand(item, lo, rest, &mut rates)?,
            None => rates.push(rate(item, item)?),
        }
    }
    rates.sort_by(f64::total_cmp);
    rates.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    Ok(rates)
}

/// `A..B[:S]`, appended to `out`, refusing more than [`MAX_CONFIGS`] rates before making them.
fn expand(item: &str, lo: &str, rest: &str, out: &mut Vec<f64>) -> Result<(), RatesError> {
    let (hi, step) = match rest.split_once(':') {
        Some((hi, step)) => (hi, number(item, step)?),
        None => (rest, 1.0),
    };
    let (lo, hi) = (rate(item, lo)?, rate(item, hi)?);
    if lo > hi {
        return Err(RatesError::Reversed {
            item: item.into(),
            lo,
            hi,
        });
    }
    if step <= 0.0 {
        return Err(RatesError::StepNotAboveZero { item: item.into() });
    }
    let count = ((hi - lo) / step + 1e-9).floor() + 1.0;
    if count > MAX_CONFIGS as f64 {
        return Err(RatesError::TooMany {
            item: item.into(),
            count,
        });
    }
    // Each rate from its index, so a fine step does not accumulate rounding.
    out.extend((0..count as u64).map(|i| round_rate(lo + i as f64 * step)));
    Ok(())
}

/// Rounds away the binary noise of `lo + i·step` (30 + 7 × 0.1 is 30.700000000000003).
fn round_rate(hz: f64) -> f64 {
    (hz * 1e9).round() / 1e9
}

fn number(item: &str, s: &str) -> Result<f64, RatesError> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(RatesError::NotFinite {
            s: s.into(),
            item: item.into(),
        }),
        Err(_) => Err(RatesError::NotANumber {
            s: s.into(),
            item: item.into(),
        }),
    }
}

fn rate(item: &str, s: &str) -> Result<f64, RatesError> {
    if s.trim().is_empty() {
        return Err(RatesError::MissingRate { item: item.into() });
    }
    let v = number(item, s)?;
    Ok(bounded(
        format_args!("{v} Hz in '{item}'"),
        v,
        &bounded::rate(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_may_carry_its_unit() {
        assert_eq!(parse_rates("60hz,144Hz"), Ok(vec![60.0, 144.0]));
        assert_eq!(parse_rates("60hz..62hz"), Ok(vec![60.0, 61.0, 62.0]));
        assert_eq!(without_hz(" 59.94 Hz "), "59.94");
    }

    #[test]
    fn ranges_and_lists_expand_sorted_and_distinct() {
        let r = parse_rates("60,30..33,59.94,31").unwrap();
        assert_eq!(r, [30.0, 31.0, 32.0, 33.0, 59.94, 60.0]);
        let r = parse_rates("30..31:0.25").unwrap();
        assert_eq!(r, [30.0, 30.25, 30.5, 30.75, 31.0]);
        assert_eq!(parse_rates("30..30.95:0.1").unwrap().len(), 10);
        assert_eq!(parse_rates("30..30.7:0.1").unwrap().last(), Some(&30.7));
        assert_eq!(parse_rates(DEFAULT_RATES).unwrap().len(), 211 + 3);
    }

    #[test]
    fn bad_rates_say_what_is_wrong() {
        for (text, says) in [
            ("", "empty"),
            ("60,,75", "empty item"),
            ("240..30", "reversed"),
            ("30..240:0", "step"),
            ("30..240:-1", "step"),
            ("30..", "missing"),
            ("..240", "missing"),
            ("sixty", "not a number"),
            ("0", "must be at least 1"),
            ("0.5..60", "must be at least 1"),
            ("1e9", "maximum"),
            ("1..10000:0.000001", "more than"),
            ("nan..60", "finite"),
        ] {
            let e = parse_rates(text).unwrap_err();
            assert!(e.to_string().contains(says), "{text:?}: {e}");
        }
    }
}
