//! A machine profile: how one machine's clock reads and how its sleeps wake, as
//! `timestep-rope probe --out FILE.json` measured it; `simulate --machine FILE.json` runs on it.
//!
//! ```json
//! {
//!   "name": "probe of this machine (Linux 6.8.0, x86_64), 2026-11-24",
//!   "os": "linux",
//!   "clock_resolution_ns": 1,
//!   "clock_read_ns": 21.5,
//!   "timer_slack_ns": 50000,
//!   "spin_threshold_ns": 125000,
//!   "native_sleep": [{ "request_ns": 100000, "samples": 400, "overshoot_ns": [..22 values..] }],
//!   "spin_sleep":   [{ "request_ns": 100000, "samples": 400, "overshoot_ns": [..22 values..] }]
//! }
//! ```
//!
//! `overshoot_ns` holds the overshoot (woke − asked) at each of [`QUANTILES`], in order.

use crate::util::bounded::{Bounds, Min, OutOfRange, bounded};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The probabilities at which a profile keeps a sleep's overshoot: every 5 %, and the 99th.
pub const QUANTILES: [f64; 22] = [
    0.0, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70, 0.75,
    0.80, 0.85, 0.90, 0.95, 0.99, 1.0,
];
/// Where the median, the 99th percentile and the maximum sit in [`QUANTILES`].
const P50: usize = 10;
const P99: usize = 20;
const MAX: usize = 21;

/// The value at probability `q` of `sorted` (ascending): nearest rank, index round(q·(n−1));
/// 0 for none.
pub fn quantile(sorted: &[u64], q: f64) -> u64 {
    let i = (q * sorted.len().saturating_sub(1) as f64).round() as usize;
    sorted.get(i).copied().unwrap_or(0)
}

/// A machine as measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachineProfile {
    /// What was measured, and when.
    pub name: String,
    /// `std::env::consts::OS` of the machine measured.
    pub os: String,
    /// The smallest step seen between two clock readings, ns. Where the clock counts finer
    /// than a reading takes (Linux), it is about one reading's cost, not the clock's unit; a
    /// simulated run on the profile reads its clock in steps of it either way.
    pub clock_resolution_ns: u64,
    /// What one clock reading costs, ns (median).
    pub clock_read_ns: f64,
    /// The OS's timer slack for this process, ns, where the OS reports it.
    pub timer_slack_ns: Option<u64>,
    /// spin_sleep's native accuracy on this OS: it sleeps natively to within this of the
    /// deadline, then spins, ns.
    pub spin_threshold_ns: u64,
    /// How `std::thread::sleep` overshoots, for each request measured.
    pub native_sleep: Vec<SleepSample>,
    /// How spin_sleep overshoots, for each request measured.
    pub spin_sleep: Vec<SleepSample>,
}

/// How sleeps of one length overshoot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SleepSample {
    /// The sleep asked for, ns.
    pub request_ns: u64,
    /// How many sleeps were measured.
    pub samples: u64,
    /// Woke − asked, ns, at each of [`QUANTILES`].
    pub overshoot_ns: Vec<u64>,
}

impl SleepSample {
    /// The distribution of `overshoots_ns` (any order, at least one) for sleeps of
    /// `request_ns`.
    pub fn from_overshoots(request_ns: u64, mut overshoots_ns: Vec<u64>) -> SleepSample {
        overshoots_ns.sort_unstable();
        SleepSample {
            request_ns,
            samples: overshoots_ns.len() as u64,
            overshoot_ns: QUANTILES
                .iter()
                .map(|&q| quantile(&overshoots_ns, q))
                .collect(),
        }
    }

    /// The median overshoot, ns.
    pub fn p50_ns(&self) -> u64 {
        self.overshoot_ns[P50]
    }
    /// The 99th-percentile overshoot, ns.
    pub fn p99_ns(&self) -> u64 {
        self.overshoot_ns[P99]
    }
    /// The largest overshoot, ns.
    pub fn max_ns(&self) -> u64 {
        self.overshoot_ns[MAX]
    }

    /// The overshoot at probability `u` in [0, 1), read off the quantiles linearly.
    pub fn overshoot_at(&self, u: f64) -> u64 {
        let q = &self.overshoot_ns;
        let i = QUANTILES
            .partition_point(|&p| p <= u)
            .clamp(1, QUANTILES.len() - 1);
        let (p0, p1) = (QUANTILES[i - 1], QUANTILES[i]);
        let (v0, v1) = (q[i - 1] as f64, q[i] as f64);
        (v0 + (v1 - v0) * ((u - p0) / (p1 - p0)).clamp(0.0, 1.0)).round() as u64
    }

    /// Why these figures cannot be a sleep's, if they cannot.
    fn problem(&self) -> Result<(), SampleProblem> {
        within("request_ns", self.request_ns, Bounds::Span(1, MAX_SLEEP_NS))?;
        let at_least_one = Bounds::Sides {
            min: Min::AtLeast(1),
            max: None,
        };
        within("samples", self.samples, at_least_one)?;
        if self.overshoot_ns.len() != QUANTILES.len() {
            return Err(SampleProblem::Quantiles(self.overshoot_ns.len()));
        }
        if let Some(&worst) = self.overshoot_ns.iter().max() {
            within("overshoot_ns", worst, Bounds::Span(0, MAX_SLEEP_NS))?;
        }
        match self.overshoot_ns.is_sorted() {
            true => Ok(()),
            false => Err(SampleProblem::Decreasing),
        }
    }
}

/// The coarsest clock a profile may have, ns (1 ms: `Instant` counts far finer on every OS
/// the probe runs on; a browser's coarsened clock is 100 µs). A simulated loop that waits for
/// its clock to move retries once per sleep, so this also bounds its retries.
const MAX_CLOCK_RESOLUTION_NS: u64 = 1_000_000;
/// The longest a profile's sleep request or overshoot, its timer slack or its spin
/// threshold may be, ns (10 s; the probe measures sleeps of 0.1 to 5 ms).
const MAX_SLEEP_NS: u64 = 10_000_000_000;

/// `Ok` when `value` of `field` is within `bounds`, else the one line that says them
/// (`samples is 0; it must be at least 1`).
fn within<T>(field: &str, value: T, bounds: Bounds<T>) -> Result<(), OutOfRange>
where
    T: PartialOrd + Default + std::fmt::Display + Copy,
{
    bounded(format_args!("{field} is {value}; it"), value, &bounds).map(drop)
}

/// Why a sleep's figures in a profile cannot be a sleep's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SampleProblem {
    /// A figure outside its bounds.
    #[error(transparent)]
    OutOfRange(#[from] OutOfRange),
    /// How many quantiles the sample holds.
    #[error("overshoot_ns has {0} values where {n} are expected (one per quantile)", n = QUANTILES.len())]
    Quantiles(usize),
    /// Overshoots that decrease from one quantile to the next.
    #[error("overshoot_ns must not decrease")]
    Decreasing,
}

/// Why a profile's figures cannot be a machine's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileProblem {
    /// A figure outside its bounds.
    #[error(transparent)]
    OutOfRange(#[from] OutOfRange),
    /// A list of sleeps (`native_sleep`) that is empty.
    #[error("{0} is empty")]
    EmptyList(&'static str),
    /// A sleep in a list whose figures cannot be a sleep's.
    #[error("{list} (request_ns {request_ns}): {problem}")]
    Sample {
        /// The list it is in (`native_sleep` or `spin_sleep`).
        list: &'static str,
        /// The sleep's request, ns.
        request_ns: u64,
        /// What is wrong with it.
        problem: SampleProblem,
    },
}

/// A profile that cannot be loaded: one line naming the file (first) and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// The file cannot be read (its path, and the OS's error).
    #[error("{0}: cannot read: {1}")]
    Unreadable(String, #[source] std::io::Error),
    /// The file is not a machine profile's JSON (its path, and why).
    #[error("{0}: not a machine profile (from timestep-rope probe --out): {1}")]
    NotAProfile(String, #[source] serde_json::Error),
    /// The profile's figures cannot be a machine's (its path, and why).
    #[error("{0}: {1}")]
    Invalid(String, #[source] ProfileProblem),
}

impl MachineProfile {
    /// The profile in `path`, checked; an error is one line naming the file and what is wrong.
    pub fn load(path: &Path) -> Result<MachineProfile, ProfileError> {
        let at = || path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ProfileError::Unreadable(at(), e))?;
        let profile: MachineProfile =
            serde_json::from_str(&text).map_err(|e| ProfileError::NotAProfile(at(), e))?;
        profile
            .check()
            .map_err(|e| ProfileError::Invalid(at(), e))?;
        Ok(profile)
    }

    /// Whether the figures can be a machine's.
    pub fn check(&self) -> Result<(), ProfileProblem> {
        let resolution = Bounds::Span(1, MAX_CLOCK_RESOLUTION_NS);
        within("clock_resolution_ns", self.clock_resolution_ns, resolution)?;
        let read = self.clock_read_ns;
        let said = crate::util::quote::quoted_number(read);
        let read_bounds = Bounds::Span(0.0, MAX_CLOCK_RESOLUTION_NS as f64);
        bounded(
            format_args!("clock_read_ns is {said}; it"),
            read,
            &read_bounds,
        )?;
        if let Some(slack) = self.timer_slack_ns {
            within("timer_slack_ns", slack, Bounds::Span(0, MAX_SLEEP_NS))?;
        }
        let spin = self.spin_threshold_ns;
        within("spin_threshold_ns", spin, Bounds::Span(0, MAX_SLEEP_NS))?;
        for (list, samples) in [
            ("native_sleep", &self.native_sleep),
            ("spin_sleep", &self.spin_sleep),
        ] {
            if samples.is_empty() {
                return Err(ProfileProblem::EmptyList(list));
            }
            for s in samples {
                s.problem().map_err(|problem| ProfileProblem::Sample {
                    list,
                    request_ns: s.request_ns,
                    problem,
                })?;
            }
        }
        Ok(())
    }

    /// The native sleep measured nearest `request_ns` (by ratio).
    pub fn native_nearest(&self, request_ns: u64) -> Option<&SleepSample> {
        nearest(&self.native_sleep, request_ns)
    }
}

/// The sample of `samples` whose request is nearest `request_ns` (by ratio); none of none.
pub(super) fn nearest(samples: &[SleepSample], request_ns: u64) -> Option<&SleepSample> {
    let distance = |s: &SleepSample| {
        (s.request_ns.max(1) as f64 / request_ns.max(1) as f64)
            .ln()
            .abs()
    };
    samples
        .iter()
        .min_by(|a, b| distance(a).total_cmp(&distance(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(request_ns: u64) -> SleepSample {
        SleepSample::from_overshoots(request_ns, (0..=100).map(|i| i * 1_000).collect())
    }

    #[test]
    fn quantiles_are_read_off_the_measured_overshoots() {
        let s = sample(1_000_000);
        assert_eq!(
            (s.p50_ns(), s.p99_ns(), s.max_ns()),
            (50_000, 99_000, 100_000)
        );
        assert_eq!(s.overshoot_at(0.0), 0);
        assert_eq!(s.overshoot_at(0.5), 50_000);
        assert_eq!(s.overshoot_at(0.995), 99_500);
    }

    /// A profile every check passes: one sleep of 1 ms measured each way.
    fn profile() -> MachineProfile {
        MachineProfile {
            name: "test".into(),
            os: "linux".into(),
            clock_resolution_ns: 1,
            clock_read_ns: 20.0,
            timer_slack_ns: Some(50_000),
            spin_threshold_ns: 125_000,
            native_sleep: vec![sample(1_000_000)],
            spin_sleep: vec![sample(1_000_000)],
        }
    }

    #[test]
    fn a_profile_round_trips_and_a_broken_one_says_what_is_wrong() {
        let profile = MachineProfile {
            native_sleep: vec![sample(100_000), sample(1_000_000)],
            ..profile()
        };
        let text = serde_json::to_string(&profile).unwrap();
        let back: MachineProfile = serde_json::from_str(&text).unwrap();
        assert_eq!(back, profile);
        assert!(back.check().is_ok());
        let nearest = |ns| back.native_nearest(ns).map(|s| s.request_ns);
        assert_eq!(nearest(300_000), Some(100_000));
        assert_eq!(nearest(5_000_000), Some(1_000_000));
        let mut broken = profile.clone();
        broken.native_sleep[1].overshoot_ns.swap(0, 5);
        let e = broken.check().unwrap_err().to_string();
        assert!(
            e.contains("native_sleep (request_ns 1000000)") && e.contains("decrease"),
            "{e}"
        );
        broken.native_sleep.clear();
        assert_eq!(
            broken.check().unwrap_err().to_string(),
            "native_sleep is empty"
        );
    }

    #[test]
    fn every_field_out_of_range_is_refused_with_its_range() {
        let good = profile();
        type Break = fn(&mut MachineProfile);
        let cases: [(Break, &str); 9] = [
            (
                |p| p.clock_resolution_ns = 0,
                "clock_resolution_ns is 0; it must be 1 to 1000000",
            ),
            (
                |p| p.clock_resolution_ns = 1_000_000_000_000_000_000,
                "clock_resolution_ns is 1000000000000000000; it must be 1 to 1000000",
            ),
            (
                |p| p.clock_read_ns = f64::NAN,
                "clock_read_ns is NaN; it must be 0 to 1000000",
            ),
            (
                |p| p.clock_read_ns = -1.0,
                "clock_read_ns is -1; it must be 0 to 1000000",
            ),
            (
                |p| p.timer_slack_ns = Some(u64::MAX),
                "timer_slack_ns is 18446744073709551615; it must be 0 to 10000000000",
            ),
            (
                |p| p.spin_threshold_ns = 20_000_000_000,
                "spin_threshold_ns is 20000000000; it must be 0 to 10000000000",
            ),
            (
                |p| p.native_sleep[0].request_ns = 0,
                "native_sleep (request_ns 0): request_ns is 0; it must be 1 to 10000000000",
            ),
            (
                |p| p.spin_sleep[0].samples = 0,
                "spin_sleep (request_ns 1000000): samples is 0; it must be at least 1",
            ),
            (
                |p| p.native_sleep[0].overshoot_ns[21] = u64::MAX,
                "native_sleep (request_ns 1000000): overshoot_ns is 18446744073709551615; it must be 0 to 10000000000",
            ),
        ];
        assert!(good.check().is_ok());
        for (break_it, says) in cases {
            let mut p = good.clone();
            break_it(&mut p);
            assert_eq!(p.check().unwrap_err().to_string(), says);
        }
    }
}
