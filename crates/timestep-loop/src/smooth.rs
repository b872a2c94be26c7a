//! Godot's DeltaSmoother: the refresh rate estimated from the frame times, and each frame's
//! delta handed on as a whole number of estimated refresh periods, the remainder carried.
//!
//! Reimplemented from the rules of Godot 4.3-stable `main/main_timer_sync.cpp` 46-294
//! (`DeltaSmoother::update_refresh_rate_estimator`, `fps_allows_smoothing`, `smooth_delta`),
//! which first shipped in Godot 4.1. Godot counts whole microseconds; so does this, with the
//! nanoseconds below a microsecond carried so that no time is lost. The rules:
//! - only while the loop asked for vsync; deltas over 1 s or under 1 ms pass untouched;
//! - the estimate: the mean of every 60 deltas, rounded to a whole fps (at least 50 to start);
//!   smoothing starts at the 3rd matching mean and the estimate locks at the 20th;
//! - smoothing pauses while the measured rate over 64 frames is not within 0.95–1.05 of the
//!   estimate;
//! - the output is a whole number (at least one) of `1_000_000 / fps` µs periods, truncated as
//!   Godot truncates; the remainder carries, so over the long run game time is wall time.

const READINGS: u32 = 60;
const MIN_FPS: i64 = 50;
const ON_AFTER: u32 = 3;
const LOCK_AFTER: u32 = 20;
const MEASURE_OVER: i64 = 64;

/// The smoother's state.
#[derive(Clone, Debug)]
pub struct DeltaSmoother {
    vsync_requested: bool,
    // The estimator.
    total_us: i64,
    count: u32,
    estimate_fps: i64,
    hits: u32,
    above: u32,
    below: u32,
    one_above: u32,
    one_below: u32,
    complete: bool,
    locked: bool,
    vsync_delta_us: i64,
    // The 64-frame sanity window.
    measure_time_us: i64,
    measure_count: i64,
    measure_start_us: i64,
    measure_end: i64,
    allows: bool,
    /// Time not yet handed on, ns (Godot's `leftover_time`, kept in ns).
    leftover_ns: i64,
}

impl DeltaSmoother {
    /// A smoother for a loop that did (or did not) ask for vsync.
    pub fn new(vsync_requested: bool) -> DeltaSmoother {
        DeltaSmoother {
            vsync_requested,
            total_us: 0,
            count: 0,
            estimate_fps: 0,
            hits: 0,
            above: 0,
            below: 0,
            one_above: 0,
            one_below: 0,
            complete: false,
            locked: false,
            vsync_delta_us: 16_666,
            measure_time_us: 0,
            measure_count: 0,
            measure_start_us: 0,
            measure_end: MEASURE_OVER,
            allows: true,
            leftover_ns: 0,
        }
    }

    /// Whether deltas are being smoothed now.
    pub fn active(&self) -> bool {
        self.vsync_requested && self.complete && self.allows
    }

    /// The estimated refresh rate, once there is one.
    pub fn estimate_fps(&self) -> Option<i64> {
        (self.estimate_fps > 0).then_some(self.estimate_fps)
    }

    /// The delta to hand on for a measured `d_ns`.
    pub fn smooth(&mut self, d_ns: u64) -> u64 {
        let d_us = (d_ns / 1_000).min(i64::MAX as u64) as i64;
        if !self.vsync_requested || d_us > 1_000_000 {
            return d_ns;
        }
        if !self.measure_allows(d_us) || d_us < 1_000 {
            return d_ns;
        }
        self.estimate(d_us);
        if !self.complete {
            return d_ns;
        }
        let period_ns = self.vsync_delta_us * 1_000;
        self.leftover_ns += d_ns.min(i64::MAX as u64 / 2) as i64;
        let units = (self.leftover_ns / period_ns).max(1);
        self.leftover_ns -= units * period_ns;
        (units * period_ns) as u64
    }

    /// The 64-frame window: smoothing is allowed while the measured rate is within 0.95-1.05
    /// of the estimate (decided every 64 frames, once the estimate is complete).
    fn measure_allows(&mut self, d_us: i64) -> bool {
        self.measure_time_us += d_us;
        self.measure_count += 1;
        if self.measure_count == self.measure_end {
            if self.complete {
                let mean = (self.measure_time_us - self.measure_start_us) / MEASURE_OVER;
                if mean != 0 {
                    let ratio = (1e6 / mean as f64) / self.estimate_fps as f64;
                    self.allows = ratio > 0.95 && ratio < 1.05;
                }
            }
            self.measure_start_us = self.measure_time_us;
            self.measure_end += MEASURE_OVER;
        }
        self.allows
    }

    /// One more delta for the refresh-rate estimate.
    fn estimate(&mut self, d_us: i64) {
        if self.locked {
            return;
        }
        self.total_us += d_us;
        self.count += 1;
        if self.count < READINGS {
            return;
        }
        let mean = self.total_us / i64::from(READINGS);
        self.total_us = 0;
        self.count = 0;
        if mean <= 0 {
            return;
        }
        let fps = (1e6 / mean as f64).round() as i64;
        if self.estimate_fps == 0 {
            if fps < MIN_FPS {
                return;
            }
            self.estimate_fps = fps;
        }
        self.judge(fps);
    }

    /// A new mean rate against the estimate: a hit, or a vote to move it.
    fn judge(&mut self, fps: i64) {
        let est = self.estimate_fps;
        if fps == est {
            self.hits += 1;
            if self.complete && self.hits == LOCK_AFTER {
                self.locked = true;
            } else if !self.complete && self.hits >= ON_AFTER {
                self.complete = true;
                self.vsync_delta_us = 1_000_000 / est;
            }
        } else if fps < est {
            if fps == est - 1 {
                self.one_below += 1;
                if self.one_below > self.hits && self.one_below > 2 {
                    self.move_estimate(est - 1);
                }
            } else {
                self.below += 1;
                let established = self.complete && self.hits > 10;
                if !established && self.below / 8 > self.hits && self.below > 2 {
                    self.move_estimate(est - 1);
                }
            }
        } else if fps == est + 1 {
            self.one_above += 1;
            if self.one_above > self.hits && self.one_above > 1 {
                self.move_estimate(est + 1);
            }
        } else {
            self.above += 1;
            if self.above > self.hits && self.above > 1 {
                self.move_estimate(est + ((fps - est) / 2).max(1));
            }
        }
    }

    fn move_estimate(&mut self, fps: i64) {
        self.estimate_fps = fps;
        self.hits = 0;
        self.above = 0;
        self.below = 0;
        self.one_above = 0;
        self.one_below = 0;
        self.complete = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_59_94_hz_display_is_estimated_at_60_and_smoothed_into_whole_periods() {
        let mut s = DeltaSmoother::new(true);
        let d = 16_683_350u64;
        let out: Vec<u64> = (0..3_000).map(|_| s.smooth(d)).collect();
        assert_eq!(s.estimate_fps(), Some(60));
        // Smoothing starts at the 180th delta (the 3rd matching mean of 60).
        assert_eq!(out[178], d);
        assert_eq!(out[179] % 16_666_000, 0);
        // From then on whole periods of 16,666 µs, a double one about every 16 s (960 frames)
        // as the 17 µs a frame Godot's truncated period misses builds up.
        let doubles: Vec<usize> = (180..3_000).filter(|&i| out[i] == 2 * 16_666_000).collect();
        assert!(!doubles.is_empty());
        for pair in doubles.windows(2) {
            assert!((955..=965).contains(&(pair[1] - pair[0])), "{doubles:?}");
        }
        // Nothing is lost: what came in is what went out plus what is carried.
        let total_in = 3_000 * d as i64;
        let total_out: i64 = out.iter().map(|&x| x as i64).sum();
        assert_eq!(total_in, total_out + s.leftover_ns);
    }

    #[test]
    fn without_vsync_or_for_long_and_short_deltas_it_hands_on_what_it_measured() {
        let mut off = DeltaSmoother::new(false);
        assert_eq!(off.smooth(16_700_000), 16_700_000);
        let mut s = DeltaSmoother::new(true);
        for _ in 0..400 {
            s.smooth(16_666_667);
        }
        assert!(s.active());
        assert_eq!(s.smooth(1_500_000_000), 1_500_000_000, "over 1 s");
        assert_eq!(s.smooth(500_000), 500_000, "under 1 ms");
    }
}
