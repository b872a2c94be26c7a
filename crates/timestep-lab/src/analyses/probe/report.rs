//! What a probe found, three ways: the machine profile `--out` writes, the one JSON object
//! `--json` prints, and the readable table.

use super::Presents;
use super::measure::{Overshoots, RequestSleeps, Sleeps, Spread, spread};
use crate::protocol::machine::{MachineProfile, QUANTILES, SleepSample};
use serde::Serialize;
use std::io::{self, Write};
use timestep_loop::{millis, seconds};

/// What the probe reads rather than measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The profile's name.
    pub name: String,
    /// `std::env::consts::OS`.
    pub os: String,
    /// The timer slack, ns, and where the OS reports it.
    pub timer_slack: Option<(u64, &'static str)>,
    /// spin_sleep's threshold on this OS, ns.
    pub spin_threshold_ns: u64,
}

/// The clock and the sleeps as measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The clock as measured: what one read costs and its smallest step.
    pub clock: ClockReport,
    /// Every sleep request's overshoots, and whether Ctrl-C cut them short.
    pub sleeps: Sleeps,
}

/// What spin_threshold_ns is, in the JSON.
const THRESHOLD_SOURCE: &str = concat!(
    "spin_sleep's setting on this OS (SpinSleeper::default().native_accuracy_ns()), ",
    "not a measurement"
);

/// A probe's whole report, as one JSON object (what `--json` prints).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeReport {
    /// The seconds the clock and the sleeps were given (`--seconds`).
    pub budget_s: f64,
    /// The seconds the probe took, window included.
    pub took_s: f64,
    /// Ctrl-C (or the window closed) before the probe finished: the figures cover what ran.
    pub interrupted: bool,
    /// The machine profile as `--out` writes it; null if no sleep was measured.
    pub profile: Option<MachineProfile>,
    /// The probability of each value in the profile's `overshoot_ns` lists.
    pub quantiles: [f64; QUANTILES.len()],
    /// `Instant::now()` as measured; null if the probe was interrupted before.
    pub clock: Option<ClockReport>,
    /// Where the timer slack was read, or "not reported".
    pub timer_slack_source: &'static str,
    /// What spin_sleep's threshold is: its setting on this OS, not a measurement.
    pub spin_threshold_source: &'static str,
    /// Each request's overshoots, in µs; empty if the sleeps did not run.
    pub sleeps: Vec<SleepRow>,
    /// The presents measured in each present mode, when a window was probed (`--window`).
    pub presents: Option<PresentsReport>,
}

/// The clock, as measured (one that moved).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ClockReport {
    /// One read, ns (the median over batches of back-to-back reads).
    pub read_ns: f64,
    /// The smallest nonzero step between consecutive readings seen, ns.
    pub resolution_ns: u64,
    /// Reads timed.
    pub reads: u64,
}

/// One request's overshoot, woke − asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SleepRow {
    pub request_us: f64,
    /// `std::thread::sleep`; null if none was measured.
    pub native: Option<OvershootRow>,
    /// spin_sleep; null if none was measured.
    pub spin: Option<OvershootRow>,
}

/// Sleeps of one request and one kind: how many, and their overshoot at p50, p99 and max.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OvershootRow {
    pub samples: u64,
    /// Sleeps that woke before their request was up (counted as overshoot 0).
    pub early: u64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
}

/// A window's presents as the probe measured them, one row per present mode (`--window`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PresentsReport {
    /// The window's size, physical pixels.
    pub window: String,
    /// How long each mode presented, s.
    pub per_mode_s: f64,
    /// In the order the surface lists them.
    pub modes: Vec<PresentRow>,
}

/// One present mode: the intervals from one present returning to the next's, ms.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PresentRow {
    pub mode: String,
    /// Intervals measured (presents − 1).
    pub count: u64,
    /// Frames the surface had no image for.
    pub skipped: u64,
    #[serde(flatten)]
    pub interval_ms: Option<IntervalsMs>,
}

/// How the intervals spread, ms (nearest ranks, as the profile's quantiles).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct IntervalsMs {
    pub median_ms: f64,
    pub p5_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
}

/// The machine profile the probe measured (what `--out` writes): `None` until at least one
/// sleep of each kind was measured.
pub fn profile(facts: &Facts, m: &Measured) -> Option<MachineProfile> {
    let kept = |of: fn(&RequestSleeps) -> &Overshoots| -> Vec<SleepSample> {
        let requests = m.sleeps.requests.iter();
        let measured = requests.filter(|r| !of(r).ns.is_empty());
        measured
            .map(|r| SleepSample::from_overshoots(r.request_ns, of(r).ns.clone()))
            .collect()
    };
    let (native_sleep, spin_sleep) = (kept(|r| &r.native), kept(|r| &r.spin));
    if native_sleep.is_empty() || spin_sleep.is_empty() {
        return None;
    }
    Some(MachineProfile {
        name: facts.name.clone(),
        os: facts.os.clone(),
        clock_resolution_ns: m.clock.resolution_ns,
        clock_read_ns: m.clock.read_ns,
        timer_slack_ns: facts.timer_slack.map(|(ns, _)| ns),
        spin_threshold_ns: facts.spin_threshold_ns,
        native_sleep,
        spin_sleep,
    })
}

impl ProbeReport {
    /// The report of a probe that took `took_ns`, the clock and the sleeps in `budget_ns`;
    /// `presents` are the window's figures and how long each mode presented, ns.
    pub fn new(
        facts: &Facts,
        measured: Option<&Measured>,
        presents: Option<(&Presents, u64)>,
        budget_ns: u64,
        took_ns: u64,
    ) -> ProbeReport {
        let interrupted = measured.is_none_or(|m| m.sleeps.interrupted)
            || presents.is_some_and(|(p, _)| p.interrupted);
        let mut profile = measured.and_then(|m| profile(facts, m));
        if let Some(p) = profile.as_mut().filter(|_| interrupted) {
            p.name += &format!(" (interrupted after {:.1} s)", seconds(took_ns));
        }
        ProbeReport {
            budget_s: seconds(budget_ns),
            took_s: seconds(took_ns),
            interrupted,
            profile,
            quantiles: QUANTILES,
            clock: measured.map(|m| m.clock),
            timer_slack_source: facts.timer_slack.map_or("not reported", |(_, from)| from),
            spin_threshold_source: THRESHOLD_SOURCE,
            sleeps: measured.map_or_else(Vec::new, sleep_rows),
            presents: presents.map(|(p, per_mode_ns)| presents_report(p, per_mode_ns)),
        }
    }
}

fn sleep_rows(m: &Measured) -> Vec<SleepRow> {
    let row = |o: &Overshoots, request_ns: u64| {
        (!o.ns.is_empty()).then(|| {
            let s = SleepSample::from_overshoots(request_ns, o.ns.clone());
            OvershootRow {
                samples: s.samples,
                early: o.early,
                p50_us: micros(s.p50_ns()),
                p99_us: micros(s.p99_ns()),
                max_us: micros(s.max_ns()),
            }
        })
    };
    let requests = m.sleeps.requests.iter();
    requests
        .map(|r| SleepRow {
            request_us: micros(r.request_ns),
            native: row(&r.native, r.request_ns),
            spin: row(&r.spin, r.request_ns),
        })
        .collect()
}

fn presents_report(p: &Presents, per_mode_ns: u64) -> PresentsReport {
    let ms = |s: Spread| IntervalsMs {
        median_ms: millis(s.median_ns),
        p5_ms: millis(s.p5_ns),
        p95_ms: millis(s.p95_ns),
        max_ms: millis(s.max_ns),
    };
    PresentsReport {
        window: format!("{}x{}", p.size.0, p.size.1),
        per_mode_s: seconds(per_mode_ns),
        modes: p
            .modes
            .iter()
            .map(|run| PresentRow {
                mode: run.mode.clone(),
                count: run.intervals_ns.len() as u64,
                skipped: run.skipped,
                interval_ms: spread(&run.intervals_ns).map(ms),
            })
            .collect(),
    }
}

/// Nanoseconds as microseconds.
pub fn micros(ns: u64) -> f64 {
    ns as f64 / 1e3
}

/// Writes the report as one pretty-printed JSON object (what `--json` prints).
pub fn write_json(out: &mut impl Write, r: &ProbeReport) -> io::Result<()> {
    let json = serde_json::to_string_pretty(r).map_err(io::Error::other)?;
    writeln!(out, "{json}")
}

/// A probe's figures, made up, for the tests of the report and the table.
#[cfg(test)]
pub mod fixtures {
    use super::*;
    use crate::analyses::probe::PresentRun;
    use crate::analyses::probe::measure::Overshoots;

    pub fn facts() -> Facts {
        Facts {
            name: "probe of a test machine".into(),
            os: "linux".into(),
            timer_slack: Some((50_000, "/proc/self/timerslack_ns")),
            spin_threshold_ns: 125_000,
        }
    }

    /// Two requests: native sleeps 50–149 µs late (and one early), spin sleeps 1–100 ns.
    pub fn measured() -> Measured {
        let request = |request_ns| RequestSleeps {
            request_ns,
            native: Overshoots {
                ns: (0..100).map(|i| 50_000 + i * 1_000).collect(),
                early: 1,
            },
            spin: Overshoots {
                ns: (1..=100).collect(),
                early: 0,
            },
        };
        Measured {
            clock: ClockReport {
                read_ns: 21.5,
                resolution_ns: 20,
                reads: 4_000,
            },
            sleeps: Sleeps {
                requests: vec![request(100_000), request(5_000_000)],
                interrupted: false,
            },
        }
    }

    pub fn presents() -> Presents {
        Presents {
            size: (640, 400),
            modes: vec![
                PresentRun {
                    mode: "Fifo".into(),
                    intervals_ns: vec![16_000_000, 17_000_000, 16_500_000],
                    skipped: 0,
                },
                PresentRun {
                    mode: "Mailbox".into(),
                    intervals_ns: vec![],
                    skipped: 2,
                },
            ],
            interrupted: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;
    use super::*;

    #[test]
    fn the_profile_holds_every_measured_request_and_checks() {
        let p = profile(&facts(), &measured()).unwrap();
        assert!(p.check().is_ok());
        assert_eq!(p.native_sleep.len(), 2);
        let s = &p.native_sleep[0];
        // 100 overshoots 50..149 µs: ranks round(q · 99).
        assert_eq!(
            (s.p50_ns(), s.p99_ns(), s.max_ns()),
            (100_000, 148_000, 149_000)
        );
        assert_eq!(p.spin_sleep[1].p50_ns(), 51);
        assert_eq!((p.clock_resolution_ns, p.clock_read_ns), (20, 21.5));
        assert_eq!(
            (p.timer_slack_ns, p.spin_threshold_ns),
            (Some(50_000), 125_000)
        );
        let mut none = measured();
        none.sleeps
            .requests
            .iter_mut()
            .for_each(|r| r.spin.ns.clear());
        assert_eq!(profile(&facts(), &none), None);
    }

    #[test]
    fn the_json_names_its_units_and_holds_the_profile() {
        let r = ProbeReport::new(&facts(), Some(&measured()), None, 500_000_000, 480_000_000);
        let mut text = Vec::new();
        write_json(&mut text, &r).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(v["interrupted"], false);
        assert_eq!(v["budget_s"], 0.5);
        assert_eq!(v["presents"], serde_json::Value::Null);
        assert_eq!(v["quantiles"].as_array().unwrap().len(), QUANTILES.len());
        assert_eq!(v["clock"]["read_ns"], 21.5);
        assert_eq!(v["sleeps"][0]["request_us"], 100.0);
        assert_eq!(v["sleeps"][0]["native"]["p99_us"], 148.0);
        assert_eq!(v["sleeps"][0]["native"]["early"], 1);
        assert_eq!(v["sleeps"][1]["spin"]["max_us"], 0.1);
        let back: MachineProfile = serde_json::from_value(v["profile"].clone()).unwrap();
        assert_eq!(Some(back), r.profile);
        let with_window = ProbeReport::new(
            &facts(),
            Some(&measured()),
            Some((&presents(), 1_000_000_000)),
            1,
            1,
        );
        let v = serde_json::to_value(&with_window).unwrap();
        let fifo = &v["presents"]["modes"][0];
        assert_eq!(
            (fifo["mode"].as_str(), fifo["count"].as_u64()),
            (Some("Fifo"), Some(3))
        );
        assert_eq!(fifo["median_ms"], 16.5);
        assert_eq!(v["presents"]["modes"][1].get("median_ms"), None);
    }

    #[test]
    fn an_interrupted_probe_says_so_and_keeps_what_it_measured() {
        let mut m = measured();
        m.sleeps.interrupted = true;
        let r = ProbeReport::new(&facts(), Some(&m), None, 10_000_000_000, 1_230_000_000);
        let name = r.profile.map(|p| p.name);
        assert!(r.interrupted);
        assert_eq!(
            name.as_deref(),
            Some("probe of a test machine (interrupted after 1.2 s)")
        );
        let before = ProbeReport::new(&facts(), None, None, 10_000_000_000, 0);
        assert!(before.interrupted && before.profile.is_none() && before.sleeps.is_empty());
    }
}
