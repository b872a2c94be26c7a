//! One range check for every bounded number: a rate, a run's length, a count, a field of a
//! machine profile. A value outside its [`Bounds`] is an [`OutOfRange`]: one line that names
//! the value as its caller words it (`'300000'`, `9 Hz in '9..20'`, `samples is 0; it`) and
//! the bound it broke.

use std::cmp::Ordering;
use std::fmt::Display;

/// The lowest a bounded number may be, each with its own words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Min<T> {
    /// Above zero: "must be greater than zero".
    AboveZero,
    /// Zero or above: "must be 0 or more".
    ZeroOrMore,
    /// This or above: "must be at least N".
    AtLeast(T),
}

/// What a bounded number may be.
#[derive(Clone, Debug, PartialEq)]
pub enum Bounds<T> {
    /// Each side said on its own: a lowest, and perhaps a highest with the words an error
    /// says it in ("10000 Hz", "1e6 per second").
    Sides {
        /// The lowest it may be.
        min: Min<T>,
        /// The highest it may be, and how an error writes it; None: no highest.
        max: Option<(T, String)>,
    },
    /// From the first to the second, both included, said together: "must be 0 to 1000000".
    Span(T, T),
}

/// A rate's bounds (a display's, a cap's): at least [`timestep_loop::MIN_HZ`], at most
/// [`timestep_loop::MAX_HZ`].
pub fn rate() -> Bounds<f64> {
    let max = timestep_loop::MAX_HZ;
    Bounds::Sides {
        min: Min::AtLeast(timestep_loop::MIN_HZ),
        max: Some((max, format!("{max} Hz"))),
    }
}

/// A number outside its bounds. `what` is the number as the error names it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutOfRange {
    /// Zero or below where it must be above zero.
    #[error("{what} must be greater than zero")]
    NotAboveZero {
        /// The number, as the error names it.
        what: String,
    },
    /// Below zero where it must be 0 or more.
    #[error("{what} must be 0 or more")]
    Negative {
        /// The number, as the error names it.
        what: String,
    },
    /// Below its lowest.
    #[error("{what} must be at least {min}")]
    BelowMin {
        /// The number, as the error names it.
        what: String,
        /// The lowest, written out.
        min: String,
    },
    /// Above its highest.
    #[error("{what} is above the maximum of {max}")]
    AboveMax {
        /// The number, as the error names it.
        what: String,
        /// The highest, in the words of its bounds (e.g. "10000 Hz").
        max: String,
    },
    /// Outside its span.
    #[error("{what} must be {lo} to {hi}")]
    OutsideSpan {
        /// The number, as the error names it.
        what: String,
        /// The span's first value, written out.
        lo: String,
        /// The span's last value, written out.
        hi: String,
    },
}

/// `value` when it is within `bounds`, else the error that names it as `what`. A value that
/// compares with nothing (NaN) is never within.
pub fn bounded<T>(what: impl Display, value: T, bounds: &Bounds<T>) -> Result<T, OutOfRange>
where
    T: PartialOrd + Default + Display,
{
    let what = || what.to_string();
    let zero = T::default();
    let (min, max) = match bounds {
        Bounds::Span(lo, hi) if at_least(&value, lo) && at_most(&value, hi) => return Ok(value),
        Bounds::Span(lo, hi) => {
            let (lo, hi) = (lo.to_string(), hi.to_string());
            return Err(OutOfRange::OutsideSpan {
                what: what(),
                lo,
                hi,
            });
        }
        Bounds::Sides { min, max } => (min, max),
    };
    match min {
        Min::AboveZero if !above(&value, &zero) => Err(OutOfRange::NotAboveZero { what: what() }),
        Min::ZeroOrMore if !at_least(&value, &zero) => Err(OutOfRange::Negative { what: what() }),
        Min::AtLeast(lo) if !at_least(&value, lo) => Err(OutOfRange::BelowMin {
            what: what(),
            min: lo.to_string(),
        }),
        _ => match max {
            Some((hi, said)) if !at_most(&value, hi) => Err(OutOfRange::AboveMax {
                what: what(),
                max: said.clone(),
            }),
            _ => Ok(value),
        },
    }
}

/// `a > b`, false when they do not compare.
fn above<T: PartialOrd>(a: &T, b: &T) -> bool {
    a.partial_cmp(b) == Some(Ordering::Greater)
}

/// `a >= b`, false when they do not compare.
fn at_least<T: PartialOrd>(a: &T, b: &T) -> bool {
    matches!(a.partial_cmp(b), Some(Ordering::Greater | Ordering::Equal))
}

/// `a <= b`, false when they do not compare.
fn at_most<T: PartialOrd>(a: &T, b: &T) -> bool {
    matches!(a.partial_cmp(b), Some(Ordering::Less | Ordering::Equal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hz() -> Bounds<f64> {
        Bounds::Sides {
            min: Min::AboveZero,
            max: Some((240.0, "240 Hz".into())),
        }
    }

    #[test]
    fn each_bound_says_its_own_line() {
        assert_eq!(bounded("'60'", 60.0, &hz()), Ok(60.0));
        let err = |v: f64| {
            bounded(format_args!("'{v}'"), v, &hz())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err(0.0), "'0' must be greater than zero");
        assert_eq!(err(241.0), "'241' is above the maximum of 240 Hz");
        let at_least = Bounds::Sides {
            min: Min::AtLeast(1_u64),
            max: None,
        };
        assert_eq!(
            bounded("samples is 0; it", 0, &at_least)
                .unwrap_err()
                .to_string(),
            "samples is 0; it must be at least 1"
        );
        let zero_up = Bounds::Sides {
            min: Min::ZeroOrMore,
            max: None,
        };
        assert_eq!(
            bounded("'-1'", -1.0, &zero_up).unwrap_err().to_string(),
            "'-1' must be 0 or more"
        );
        assert_eq!(
            bounded("x is 7; it", 7_u64, &Bounds::Span(1, 5))
                .unwrap_err()
                .to_string(),
            "x is 7; it must be 1 to 5"
        );
    }

    #[test]
    fn nan_is_never_within() {
        assert!(bounded("n", f64::NAN, &hz()).is_err());
        assert!(bounded("n", f64::NAN, &Bounds::Span(0.0, 1.0)).is_err());
    }
}
