//! Numbers as the screen writes them: a fixed number of places that stays short when a value
//! diverges, trailing zeros dropped, thousands grouped, and the one way a duration is shown in
//! milliseconds (the HUD's ticks, the panel's options).

use timestep_loop::millis;

/// `v` with `decimals` places; scientific past a million, so a diverged value stays short.
pub(super) fn num(v: f64, decimals: usize) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf".into() } else { "-inf".into() }
    } else if v.abs() >= 1e6 {
        format!("{v:.2e}")
    } else {
        format!("{v:.decimals$}")
    }
}

/// As [`num`], with a `+` on positive values.
pub(super) fn signed(v: f64, decimals: usize) -> String {
    let s = num(v, decimals);
    if v > 0.0 { format!("+{s}") } else { s }
}

/// As [`num`] without trailing zeros: 60 fps, 59.94 fps.
pub(super) fn trim(v: f64, decimals: usize) -> String {
    let s = num(v, decimals);
    if s.contains('e') { s } else { without_zeros(s) }
}

/// A duration in milliseconds to at most `decimals` places, trailing zeros dropped, without
/// its unit: `16.667` (3 places), `8.33` (2), `1`. The tick's `16.667ms` on the HUD and the
/// panel's `8.33 ms` are this number with the unit each writes.
///
/// ```
/// use timestep_lab::view::draw::ms;
/// assert_eq!(ms(16_666_667, 3), "16.667");
/// assert_eq!(ms(8_333_333, 2), "8.33");
/// assert_eq!(ms(1_000_000, 3), "1");
/// ```
pub fn ms(ns: u64, decimals: usize) -> String {
    without_zeros(format!("{:.decimals$}", millis(ns)))
}

/// `s` without the zeros ending its fraction, and without the point if nothing follows it.
fn without_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// 1902 as "1,902".
pub(super) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
