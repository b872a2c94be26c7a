//! Input latency: from the moment a frame samples input to the present that first shows its
//! effect. Input sampled by a frame that runs no tick waits for the next frame that does; a
//! blending lane shows the past by `t_current − t_shown` (up to one tick), which is counted.

use crate::util::fast::millis_f;
use crate::util::tally::Tally;
use timestep_loop::millis;

/// Latencies are counted in bins this wide, ns: p99 is exact to this under 1 s (100,000 bins),
/// and above it while at most 4,096 distinct bins hold them; past that, to within 0.1 %
/// ([`Tally`]).
const BIN_NS: u64 = 10_000;
/// Input samples waiting for a tick, at most (a lane that never ticks keeps the oldest).
const MAX_PENDING: usize = 4096;

/// Mean, 99th percentile and maximum, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct LatencyStats {
    /// Mean latency, ms.
    pub mean: f64,
    /// 99th-percentile latency, ms: the top of its 10 µs bin (above 1 s, of its bucket, 0.1 %
    /// wide, once more than 4,096 distinct bins hold latencies that long), or the maximum.
    pub p99: f64,
    /// Longest latency, ms.
    pub max: f64,
}

/// A lane's input latency so far: input samples waiting for a frame that ticks, and the
/// latencies measured, counted in bounded memory (at most about 2 MB however many).
#[derive(Clone, Debug)]
pub struct Latency {
    pending: Vec<u64>,
    tally: Tally,
}

impl Default for Latency {
    fn default() -> Self {
        Latency {
            pending: Vec::new(),
            tally: Tally::new(BIN_NS),
        }
    }
}

impl Latency {
    /// A frame that sampled input at `input_ns`, ran `ticks` ticks and became visible at
    /// `present_ns`, showing a state `behind_ns` older than its newest.
    pub fn frame(&mut self, input_ns: u64, ticks: u32, present_ns: u64, behind_ns: u64) {
        if self.pending.len() < MAX_PENDING {
            self.pending.push(input_ns);
        }
        if ticks == 0 {
            return;
        }
        for &input in &self.pending {
            let ns = present_ns.saturating_sub(input).saturating_add(behind_ns);
            self.tally.push(ns);
        }
        self.pending.clear();
    }

    /// Mean, p99 (the top of the bin holding it) and max, ms; `None` before any input was
    /// shown.
    pub fn stats(&self) -> Option<LatencyStats> {
        let t = &self.tally;
        let rank = (t.count() * 99).div_ceil(100);
        let p99 = t.bin_of_rank(rank)?;
        Some(LatencyStats {
            mean: millis_f(t.sum_ns() as f64 / t.count() as f64),
            p99: millis(p99.hi_ns.min(t.max_ns())),
            max: millis(t.max_ns()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use timestep_loop::NS_PER_MS as MS;

    #[test]
    fn input_waits_for_a_frame_that_ticks_and_blending_adds_how_far_behind_it_shows() {
        let mut l = Latency::default();
        l.frame(0, 1, 10 * MS, 0); // 10 ms
        l.frame(20 * MS, 0, 30 * MS, 0); // no tick: waits
        l.frame(40 * MS, 2, 50 * MS, 4 * MS); // 50 − 20 + 4 = 34 ms, and 50 − 40 + 4 = 14 ms
        let s = l.stats().unwrap();
        assert!((s.mean - (10.0 + 34.0 + 14.0) / 3.0).abs() < 1e-9);
        assert_eq!(s.max, 34.0);
        assert_eq!(s.p99, 34.0);
        assert_eq!(Latency::default().stats(), None);
    }

    #[test]
    fn p99_is_the_top_of_its_bin() {
        let mut l = Latency::default();
        for i in 0..1000 {
            let latency = match i {
                0..985 => 5 * MS,
                985..995 => 20 * MS + 3,
                _ => 30 * MS,
            };
            l.frame(0, 1, latency, 0);
        }
        // The 990th of 1,000 is in the bin [20.00, 20.01) ms.
        let s = l.stats().unwrap();
        assert!((s.p99 - 20.01).abs() < 1e-9, "{s:?}");
        assert_eq!(s.max, 30.0);
    }
}
