//! The measurements' float arithmetic: rounding without a library call, bit for bit as the
//! standard library's (`f64::round`, `ceil` and `floor` are calls into libm on baseline x86-64, and
//! these run on every frame's vblank arithmetic), and fractional or signed nanoseconds (a mean,
//! a period, a drift) as milliseconds and seconds. Whole nanoseconds convert through the
//! `timestep_loop` crate's units (`millis`, `seconds`).

/// Doubles at or above this are whole numbers already.
const WHOLE_FROM: f64 = 4_503_599_627_370_496.0; // 2^52

/// `x.round()` (half away from zero), bit for bit, without the library call that `f64::round`
/// is on baseline x86-64: below 2^52 the fraction `x − trunc(x)` is exact, so comparing it
/// with ½ decides exactly as `round` does. It runs on every frame's vblank and vsync arithmetic.
pub fn round(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= WHOLE_FROM {
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

/// `x.ceil()`, bit for bit on the values that matter (the sign of a zero aside), without a
/// library call (see [`round`]).
pub fn ceil(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= WHOLE_FROM {
        return x;
    }
    let t = x as i64 as f64;
    if t < x { t + 1.0 } else { t }
}

/// `x.floor()`, bit for bit on the values that matter (the sign of a zero aside), without a
/// library call (see [`round`]).
pub fn floor(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= WHOLE_FROM {
        return x;
    }
    let t = x as i64 as f64;
    if t > x { t - 1.0 } else { t }
}

/// `x as f64`, correctly rounded, through `i64` where it fits: the 128-bit conversion is a
/// library call (`__floattidf`), and a stutter is one on every frame.
pub fn f64_of(x: i128) -> f64 {
    match i64::try_from(x) {
        Ok(x) => x as f64,
        Err(_) => wide_f64_of(x),
    }
}

/// Out of line: inlined, the compiler sees that both arms of [`f64_of`] convert the same value
/// and folds them back into the one library call.
#[cold]
#[inline(never)]
fn wide_f64_of(x: i128) -> f64 {
    x as f64
}

/// A fractional number of nanoseconds (a mean, a period) as milliseconds.
pub fn millis_f(ns: f64) -> f64 {
    ns / 1e6
}

/// A fractional number of nanoseconds (a mean, a period) as seconds.
pub fn seconds_f(ns: f64) -> f64 {
    ns / 1e9
}

/// One period of `hz`, in (fractional) nanoseconds: 59.94 Hz is 16,683,350.0166... ns.
pub fn period_ns_f(hz: f64) -> f64 {
    1e9 / hz
}

/// Signed nanoseconds as milliseconds, correctly rounded.
pub fn millis_signed(ns: i128) -> f64 {
    ns as f64 / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_and_ceil_agree_with_the_standard_library() {
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let edges = [
            0.0,
            0.5,
            1.5,
            2.5,
            -0.5,
            -1.5,
            0.49999999999999994,
            -0.49999999999999994,
            1e15 + 0.5,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            1e300,
            -1e300,
        ];
        for &x in &edges {
            assert_eq!(round(x), x.round(), "{x}");
            assert!(ceil(x) == x.ceil(), "{x}");
            assert!(floor(x) == x.floor(), "{x}");
        }
        for _ in 0..100_000 {
            let x = f64::from_bits(next()) % 1e16;
            let y = (next() % 100_000_000_000) as f64 / 1_000.0 - 5e7;
            for v in [x, y] {
                if v.is_finite() {
                    assert_eq!(round(v), v.round(), "{v}");
                    assert!(ceil(v) == v.ceil(), "{v}");
                    assert!(floor(v) == v.floor(), "{v}");
                }
            }
        }
        assert!(round(f64::NAN).is_nan());
    }

    #[test]
    fn a_wide_integer_converts_as_the_standard_library_does() {
        let wide = [i128::MAX, i128::MIN, (1 << 64) + 1, -(1 << 70) - 3];
        let near = [
            0,
            1,
            -1,
            i128::from(i64::MAX),
            i128::from(i64::MIN),
            9_007_199_254_740_993,
        ];
        for x in wide.into_iter().chain(near) {
            assert_eq!(f64_of(x).to_bits(), (x as f64).to_bits(), "{x}");
        }
    }
}
