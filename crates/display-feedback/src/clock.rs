//! A display system's timestamps as `std::time::Instant`s. A Wayland compositor stamps its
//! presentations on the clock it announces (`wp_presentation.clock_id`: a POSIX clock id;
//! headless Weston uses CLOCK_MONOTONIC_RAW, DRM backends usually CLOCK_MONOTONIC), and the X
//! server's Present extension in microseconds of CLOCK_MONOTONIC (its UST). `Instant` is
//! CLOCK_MONOTONIC on Linux but opaque: a timestamp becomes an `Instant` by reading its clock
//! and `Instant::now()` together ([`ClockPair`]) and carrying the difference over. Read again
//! for every batch of timestamps, so two clocks that run at slightly different rates
//! (CLOCK_MONOTONIC is slewed by NTP, CLOCK_MONOTONIC_RAW is not: 500 ppm at most) differ by
//! microseconds at most over the frame or two a timestamp is old.

use std::time::{Duration, Instant};

/// One clock's reading, ns, and the `Instant` at the same moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClockPair {
    /// The clock's reading, ns.
    pub clock_ns: u64,
    /// `Instant::now()` at that reading.
    pub instant: Instant,
}

impl ClockPair {
    /// The time `ns` on that clock, as an `Instant` (`None` outside what `Instant` can hold).
    pub fn instant_of(&self, ns: u64) -> Option<Instant> {
        if ns <= self.clock_ns {
            self.instant
                .checked_sub(Duration::from_nanos(self.clock_ns - ns))
        } else {
            self.instant
                .checked_add(Duration::from_nanos(ns - self.clock_ns))
        }
    }
}

/// Whole ns of a `timespec`'s seconds and nanoseconds (0 for a negative one).
pub(crate) fn timespec_ns(sec: i64, nsec: i64) -> u64 {
    let sec = u64::try_from(sec).unwrap_or(0);
    let nsec = u64::try_from(nsec).unwrap_or(0);
    sec.saturating_mul(1_000_000_000).saturating_add(nsec)
}

/// A POSIX clock, by the id `clock_gettime` takes, as one rustix reads; `None` for an id
/// outside Linux's fixed clocks (0 to 7, CPU-time clocks left out: no display stamps with
/// those).
pub(crate) fn clock_of(id: u32) -> Option<rustix::time::ClockId> {
    use rustix::time::ClockId;
    Some(match id {
        0 => ClockId::Realtime,
        1 => ClockId::Monotonic,
        4 => ClockId::MonotonicRaw,
        5 => ClockId::RealtimeCoarse,
        6 => ClockId::MonotonicCoarse,
        7 => ClockId::Boottime,
        _ => return None,
    })
}

/// `clock` read between two readings of `Instant::now()`, paired with their midpoint.
pub(crate) fn sample(clock: rustix::time::ClockId) -> ClockPair {
    let before = Instant::now();
    let t = rustix::time::clock_gettime(clock);
    let after = Instant::now();
    ClockPair {
        clock_ns: timespec_ns(t.tv_sec, t.tv_nsec),
        instant: before + (after - before) / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timestamp_before_or_after_the_reading_lands_as_far_from_its_instant() {
        let now = Instant::now();
        let pair = ClockPair {
            clock_ns: 5_000_000_000,
            instant: now,
        };
        assert_eq!(
            pair.instant_of(4_990_000_000),
            now.checked_sub(Duration::from_millis(10))
        );
        assert_eq!(pair.instant_of(5_000_000_000), Some(now));
        assert_eq!(
            pair.instant_of(5_016_666_667),
            Some(now + Duration::from_nanos(16_666_667))
        );
    }

    #[test]
    fn headless_westons_raw_clock_converts_to_the_same_moment_as_monotonic() {
        // Weston's CLOCK_MONOTONIC_RAW ran 228.6 ms behind CLOCK_MONOTONIC here
        // (DISPLAY_TRUTH.md): a presentation stamped on the raw clock just now is just now.
        let raw = sample(rustix::time::ClockId::MonotonicRaw);
        let mono = sample(rustix::time::ClockId::Monotonic);
        let raw_now = raw.instant_of(raw.clock_ns).unwrap_or(raw.instant);
        let t = rustix::time::clock_gettime(rustix::time::ClockId::MonotonicRaw);
        let stamped = raw.instant_of(timespec_ns(t.tv_sec, t.tv_nsec));
        let lag = stamped.map(|s| s.saturating_duration_since(raw_now));
        assert!(lag.is_some_and(|d| d < Duration::from_millis(50)), "{lag:?}");
        // CLOCK_MONOTONIC is Instant's own clock: its pair carries no offset at all.
        let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
        let back = mono.instant_of(timespec_ns(t.tv_sec, t.tv_nsec));
        assert!(back.is_some_and(|b| b >= mono.instant && b <= Instant::now()));
    }

    #[test]
    fn only_the_clocks_a_display_may_stamp_with_are_known() {
        use rustix::time::ClockId;
        assert_eq!(clock_of(1), Some(ClockId::Monotonic));
        assert_eq!(clock_of(4), Some(ClockId::MonotonicRaw));
        assert_eq!(clock_of(7), Some(ClockId::Boottime));
        assert_eq!(clock_of(2), None, "process CPU time");
        assert_eq!(clock_of(11), None);
        assert_eq!(timespec_ns(-1, 5), 5);
        assert_eq!(timespec_ns(2, 500), 2_000_000_500);
    }
}
