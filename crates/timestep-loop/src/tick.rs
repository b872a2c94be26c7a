//! A loop's tick, exactly: a whole number of nanoseconds when it is given as a duration, or
//! exactly one period of a rate when it is given as one (60 Hz is 1/60 s, not 16,666,667 ns).
//!
//! A tick is the fraction `num / den` ns in lowest terms, with `den` at most
//! [`MAX_TICK_DEN`]. The stepper keeps its books in units of `1/den` ns, so a 60 Hz tick is
//! exactly 50,000,000 units of 1/3 ns and sixty of them are exactly one second. Books are
//! `u128` of those units: 2^62 ns of time (146 years) at the largest denominator is 2^94 units,
//! far below 2^128, so no sum of a lifetime's frame times overflows.

use crate::units::{NS_PER_S, format_duration};
use std::fmt;
use std::num::NonZeroU16;

/// The largest denominator a tick may have (2^32): 59.94 Hz needs 2,997, 143.856 Hz 8,991.
pub const MAX_TICK_DEN: u64 = 1 << 32;

/// A tick: `num / den` ns, in lowest terms. Built from whole nanoseconds (`From<u64>`, den 1)
/// or from a rate ([`Tick::per_second`], [`Tick::from_rate`]).
///
/// ```
/// use timestep_loop::Tick;
/// let t = Tick::per_second(60).unwrap();
/// assert_eq!((t.num(), t.den()), (50_000_000, 3)); // 1/60 s in lowest terms
/// assert_eq!(t.ns(), 16_666_667); // to the nearest ns, for printing
/// assert_eq!(Tick::from(20_000_000).den(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tick {
    num: u64,
    den: u64,
}

impl Tick {
    /// A tick of `ns` whole nanoseconds.
    pub const fn from_ns(ns: u64) -> Tick {
        Tick { num: ns, den: 1 }
    }

    /// The tick `num / den` ns, already in lowest terms (for constants).
    pub(crate) const fn from_rate_const(num: u64, den: u64) -> Tick {
        Tick { num, den }
    }

    /// Exactly one period of `hz` updates a second, as a constant can name it:
    /// [`Tick::per_second`] for a rate of 1 to 65,535 Hz, which it never refuses.
    pub const fn of_hz(hz: NonZeroU16) -> Tick {
        let hz = hz.get() as u64;
        let (mut a, mut b) = (NS_PER_S, hz);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        Tick {
            num: NS_PER_S / a,
            den: hz / a,
        }
    }

    /// Exactly one period of `hz` updates a second; `None` for 0 Hz.
    pub fn per_second(hz: u64) -> Option<Tick> {
        Tick::from_rate(u128::from(hz), 1)
    }

    /// Exactly one period of the rate `hz_num / hz_den` Hz (59.94 Hz is 5994 / 100): `None`
    /// for a zero rate, a period under 1 ns, or one whose denominator is above
    /// [`MAX_TICK_DEN`] or numerator above `u64::MAX`.
    pub fn from_rate(hz_num: u128, hz_den: u128) -> Option<Tick> {
        if hz_num == 0 || hz_den == 0 {
            return None;
        }
        let scaled = u128::from(NS_PER_S).checked_mul(hz_den)?;
        let g = gcd(scaled, hz_num);
        let (num, den) = (scaled / g, hz_num / g);
        if num < den || den > u128::from(MAX_TICK_DEN) {
            return None;
        }
        Some(Tick {
            num: u64::try_from(num).ok()?,
            den: den as u64,
        })
    }

    /// The numerator: the tick is `num / den` ns.
    pub fn num(&self) -> u64 {
        self.num
    }

    /// The denominator (1 for a tick of whole nanoseconds).
    pub fn den(&self) -> u64 {
        self.den
    }

    /// The tick to the nearest whole nanosecond (what prints: 16.667 ms for 60 Hz).
    pub fn ns(&self) -> u64 {
        (self.num + self.den / 2) / self.den
    }

    /// The tick in seconds, to the nearest `f64`.
    pub fn seconds(&self) -> f64 {
        self.num as f64 / self.den as f64 / 1e9
    }

    /// Whether the tick is zero long.
    pub fn is_zero(&self) -> bool {
        self.num == 0
    }

    /// `ns` whole nanoseconds in this tick's units (1/den ns).
    pub fn units(&self, ns: u64) -> u128 {
        u128::from(ns) * u128::from(self.den)
    }

    /// `units` of 1/den ns as whole nanoseconds, rounded down.
    pub fn floor_ns(&self, units: u128) -> u64 {
        u64::try_from(div(units, u128::from(self.den))).unwrap_or(u64::MAX)
    }

    /// The tick in its own units: `num`.
    pub fn in_units(&self) -> u128 {
        u128::from(self.num)
    }
}

impl From<u64> for Tick {
    fn from(ns: u64) -> Tick {
        Tick::from_ns(ns)
    }
}

impl From<std::time::Duration> for Tick {
    /// A tick of the duration's whole ns (`u64::MAX` past 584 years).
    fn from(d: std::time::Duration) -> Tick {
        Tick::from_ns(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
    }
}

impl Tick {
    /// The rate as typed (`60hz`, `59.94hz`), for a tick whose rate is a decimal of at most 9
    /// places; `None` for a tick of whole nanoseconds.
    pub fn rate_text(&self) -> Option<String> {
        if self.den == 1 {
            return None;
        }
        // rate = 1e9 · den / num Hz, reduced; a decimal when its denominator divides 10^9.
        let (top, bottom) = (
            u128::from(NS_PER_S) * u128::from(self.den),
            u128::from(self.num),
        );
        let g = gcd(top, bottom);
        let (top, bottom) = (top / g, bottom / g);
        let scale = u128::from(NS_PER_S);
        if scale % bottom != 0 {
            return None;
        }
        let nano = top * (scale / bottom);
        let (whole, frac) = (nano / scale, nano % scale);
        if frac == 0 {
            return Some(format!("{whole}hz"));
        }
        let digits = format!("{frac:09}");
        Some(format!("{whole}.{}hz", digits.trim_end_matches('0')))
    }
}

impl fmt::Display for Tick {
    /// As typed: a rate's tick as its rate (`60hz`), a whole-ns tick as a duration (`20ms`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rate_text() {
            Some(rate) => f.pad(&rate),
            None => f.pad(&format_duration(self.ns())),
        }
    }
}

// The books' arithmetic, run on every frame. Their values nearly always fit in 64 bits (2^64
// units are 213 days of time at the largest denominator, 584 years at den 1), and there one
// hardware division or conversion gives the same result as the 128-bit one, which on x86-64 is
// a call into compiler-builtins (`__udivti3`, `__floattidf`). Each falls back to the 128-bit
// operation when a value does not fit, so every result is bit for bit the same.

/// `a / b`, rounded down (`b` > 0).
pub(crate) fn div(a: u128, b: u128) -> u128 {
    if b == 1 {
        return a; // a tick of whole ns: units are ns, and a division is tens of cycles
    }
    match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => u128::from(a / b),
        _ => a / b,
    }
}

/// `a / b`, rounded up (`b` > 0).
pub(crate) fn div_ceil(a: u128, b: u128) -> u128 {
    match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => u128::from(a.div_ceil(b)),
        _ => a.div_ceil(b),
    }
}

/// `a.div_euclid(b)` (`b` > 0).
pub(crate) fn div_euclid(a: i128, b: i128) -> i128 {
    match (i64::try_from(a), i64::try_from(b)) {
        (Ok(a), Ok(b)) if b > 0 => i128::from(a.div_euclid(b)),
        _ => a.div_euclid(b),
    }
}

/// `x as f64`, correctly rounded.
pub(crate) fn to_f64(x: u128) -> f64 {
    match u64::try_from(x) {
        Ok(x) => x as f64,
        Err(_) => wide_to_f64(x),
    }
}

/// `x as f64`, correctly rounded.
pub(crate) fn signed_to_f64(x: i128) -> f64 {
    match i64::try_from(x) {
        Ok(x) => x as f64,
        Err(_) => signed_wide_to_f64(x),
    }
}

// The wide conversions stay out of line: inlined, the compiler sees that both arms convert the
// same value and folds them back into the one library call.
#[cold]
#[inline(never)]
fn wide_to_f64(x: u128) -> f64 {
    x as f64
}

#[cold]
#[inline(never)]
fn signed_wide_to_f64(x: i128) -> f64 {
    x as f64
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_rate_is_the_tick_per_second_gives() {
        for hz in 1..=u16::MAX {
            let nonzero = NonZeroU16::new(hz).unwrap();
            assert_eq!(
                Some(Tick::of_hz(nonzero)),
                Tick::per_second(u64::from(hz)),
                "{hz}"
            );
        }
    }

    #[test]
    fn a_rate_is_its_period_exactly_in_lowest_terms() {
        let t = Tick::per_second(60).unwrap();
        assert_eq!(
            60 * u128::from(t.num()) / u128::from(t.den()),
            1_000_000_000
        );
        let ntsc = Tick::from_rate(5994, 100).unwrap();
        assert_eq!((ntsc.num(), ntsc.den()), (50_000_000_000, 2997));
        assert_eq!(ntsc.ns(), 16_683_350);
        assert_eq!(Tick::per_second(64).unwrap(), Tick::from_ns(15_625_000));
        assert_eq!(Tick::per_second(0), None);
        assert_eq!(Tick::per_second(2_000_000_000), None, "under 1 ns");
        assert_eq!(
            Tick::from_rate(143_999_999_999, 1_000_000_000),
            None,
            "denominator too large"
        );
        assert_eq!(format!("{}", Tick::per_second(60).unwrap()), "60hz");
        assert_eq!(ntsc.to_string(), "59.94hz");
        assert_eq!(Tick::from_ns(16_666_667).to_string(), "16.666667ms");
    }
}
