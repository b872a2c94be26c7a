//! Durations counted for their percentiles in bounded memory, whatever their number: the
//! capture summary's frame times (bins of 1 µs) and each lane's input latency (bins of 10 µs).
//!
//! The first [`FLAT_BINS`] bins are counted in a flat array (800 KB at most). Longer durations
//! are counted by their bin too while at most [`LONG_EXACT`] distinct bins hold them (a real
//! capture has a few hitches); past that, all of them in buckets each [`LONG_RATIO`] times as
//! wide as the one before, so a long duration is known to within 0.1 % and there are at most
//! [`LONG_BUCKETS`] of them (about 1 MB in the map).

use std::collections::BTreeMap;

/// Bins counted in a flat array, by index.
const FLAT_BINS: u64 = 100_000;

/// The most distinct long bins (past [`FLAT_BINS`]) kept exactly.
const LONG_EXACT: usize = 4_096;

/// Each bucket of long durations starts this many times after the one before.
const LONG_RATIO: f64 = 1.001;

/// The most buckets of long durations: 1 + ln(u64::MAX ns / 100 ms) / ln(1.001), so that
/// with bins of 1 µs or wider any duration has its own bucket; the last holds any beyond.
const LONG_BUCKETS: usize = 25_954;

/// Durations counted by bins of `bin_ns`, in bounded memory.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    bin_ns: u64,
    flat: Vec<u64>,
    /// Counts by bin, or by the first bin of their bucket once `bucketed`.
    long: BTreeMap<u64, u64>,
    bucketed: bool,
    count: u64,
    sum_ns: u128,
    max_ns: u64,
}

/// The bin (or bucket) a duration was counted in: its lowest and just past its highest, ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bin {
    /// The lowest duration it holds, ns.
    pub(crate) lo_ns: u64,
    /// Just past the highest it holds, ns.
    pub(crate) hi_ns: u64,
}

/// The bucket of a long bin (at least [`FLAT_BINS`]).
fn long_bucket(bin: u64) -> u32 {
    let k = ((bin as f64 / FLAT_BINS as f64).ln() / LONG_RATIO.ln()) as u32;
    k.min(LONG_BUCKETS as u32 - 1)
}

/// The first bin of bucket `k`.
fn bucket_start(k: u32) -> u64 {
    (FLAT_BINS as f64 * LONG_RATIO.powf(f64::from(k))).ceil() as u64
}

impl Tally {
    /// An empty tally in bins of `bin_ns` (at least 1).
    pub(crate) fn new(bin_ns: u64) -> Tally {
        Tally {
            bin_ns: bin_ns.max(1),
            flat: Vec::new(),
            long: BTreeMap::new(),
            bucketed: false,
            count: 0,
            sum_ns: 0,
            max_ns: 0,
        }
    }

    /// Counts one duration.
    pub(crate) fn push(&mut self, ns: u64) {
        let bin = ns / self.bin_ns;
        if bin < FLAT_BINS {
            let i = bin as usize;
            if i >= self.flat.len() {
                self.flat.resize(i + 1, 0);
            }
            self.flat[i] += 1;
        } else {
            let key = if self.bucketed {
                bucket_start(long_bucket(bin))
            } else {
                bin
            };
            *self.long.entry(key).or_default() += 1;
            if self.long.len() > LONG_EXACT && !self.bucketed {
                self.bucket();
            }
        }
        self.count += 1;
        self.sum_ns += u128::from(ns);
        self.max_ns = self.max_ns.max(ns);
    }

    /// Puts the exact long bins into buckets, for good.
    fn bucket(&mut self) {
        self.bucketed = true;
        for (bin, n) in std::mem::take(&mut self.long) {
            *self.long.entry(bucket_start(long_bucket(bin))).or_default() += n;
        }
    }

    /// How many durations were counted.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Their sum, ns.
    pub(crate) fn sum_ns(&self) -> u128 {
        self.sum_ns
    }

    /// The longest, ns.
    pub(crate) fn max_ns(&self) -> u64 {
        self.max_ns
    }

    /// The bin holding the duration of nearest rank `rank` (1 to the count); `None` when
    /// nothing was counted.
    pub(crate) fn bin_of_rank(&self, rank: u64) -> Option<Bin> {
        let rank = rank.clamp(1, self.count.max(1));
        let mut seen = 0;
        let flat = self.flat.iter().enumerate().map(|(b, &n)| (b as u64, n));
        let long = self.long.iter().map(|(&b, &n)| (b, n));
        let (bin, _) = flat.chain(long).find(|&(_, n)| {
            seen += n;
            seen >= rank
        })?;
        let next = if self.bucketed && bin >= FLAT_BINS {
            bucket_start(long_bucket(bin).saturating_add(1))
        } else {
            bin + 1
        };
        Some(Bin {
            lo_ns: bin.saturating_mul(self.bin_ns),
            hi_ns: next.saturating_mul(self.bin_ns),
        })
    }

    /// The bin of the duration of nearest rank `p` (0 to 1).
    pub(crate) fn bin_at(&self, p: f64) -> Option<Bin> {
        self.bin_of_rank((p * self.count as f64).ceil() as u64)
    }

    /// How many entries its map holds (the flat array aside).
    #[cfg(test)]
    pub(crate) fn long_entries(&self) -> usize {
        self.long.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const US: u64 = 1_000;

    #[test]
    fn long_durations_are_counted_in_a_bounded_number_of_buckets_within_a_tenth_of_a_percent() {
        let mut d = Tally::new(US);
        // A million distinct durations from 100 ms to about 1.2 days, then the longest.
        for i in 0..1_000_000u64 {
            d.push(100_000_000 + i * i * 100 + i);
        }
        d.push(u64::MAX);
        assert!(d.long.len() <= LONG_BUCKETS, "{} buckets", d.long.len());
        assert_eq!(long_bucket(u64::MAX / US) as usize, LONG_BUCKETS - 1);
        assert!(long_bucket(u64::MAX / US - u64::MAX / US / 500) < LONG_BUCKETS as u32 - 1);
        assert!(d.bucketed);
        let true_median = 100_000_000 + 500_000u64 * 500_000 * 100 + 500_000;
        let m = d.bin_at(0.5).unwrap_or_else(|| panic!("values"));
        assert!(m.lo_ns <= true_median && true_median < m.hi_ns, "{m:?}");
        assert!(m.hi_ns - m.lo_ns <= m.lo_ns / 999, "{m:?}");
        assert_eq!(d.max_ns(), u64::MAX);
    }

    #[test]
    fn a_few_thousand_long_durations_are_kept_to_their_bin() {
        let mut d = Tally::new(10 * US);
        for i in 0..LONG_EXACT as u64 {
            d.push(1_000_000_000 + i * 1_337_000);
        }
        assert!(!d.bucketed);
        let median = 1_000_000_000 + (LONG_EXACT as u64 / 2 - 1) * 1_337_000;
        let lo = median / (10 * US) * (10 * US);
        let m = d.bin_at(0.5);
        assert_eq!(
            m,
            Some(Bin {
                lo_ns: lo,
                hi_ns: lo + 10 * US
            })
        );
        assert_eq!(Tally::new(US).bin_at(0.5), None);
    }
}
