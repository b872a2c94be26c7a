//! A long check, `#[ignore]`d and run once, optimised, by `.ci/run`
//! (`cargo test --release -p timestep-lab --test '*' -- --ignored`): a simulated day.
//!
//! Its own test binary, so the process's peak memory is this run's alone.

use timestep_lab::hosts::simulate::{self, DisplayConfig, SimConfig};
use timestep_lab::model::lane::{LaneSpec, peak_rss_kib};
use timestep_lab::model::rope::RopeParams;
use timestep_loop::{Mode, NS_PER_MS, NS_PER_S, TimingConfig};

/// `simulate --mode fixed --display-hz 59.94 --jitter 0.3ms --seconds SECONDS`, its one
/// lane's report as the `--json` output shows it, and the process's peak memory after it.
fn fixed_on_59_94_hz(seconds: u64) -> (serde_json::Value, Option<u64>) {
    let cfg = SimConfig {
        timing: TimingConfig::textbook(NS_PER_MS, 250 * NS_PER_MS, None).expect("a valid tick"),
        rope: RopeParams::default(),
        display: DisplayConfig {
            display_hz: 59.94,
            jitter_ns: 300_000,
            duration_ns: seconds * NS_PER_S,
            ..Default::default()
        },
        lanes: vec![LaneSpec::mode(Mode::Fixed)],
        max_substep: Default::default(),
        draw: None,
        physics: true,
    };
    let outcome = simulate::run_with(&cfg, Default::default(), |_| {}).expect("the lane runs");
    let lane = outcome.lanes.into_iter().next().expect("one lane").report;
    let json = serde_json::to_value(&lane).expect("a report serialises");
    (json, peak_rss_kib())
}

#[test]
#[ignore = "slow: a simulated day; .ci/run runs it optimised"]
fn a_simulated_day_at_59_94_hz_with_jitter_is_exact_drift_free_and_flat_in_memory() {
    // The hour first: the process's peak can only rise, so a day that grew would show.
    let (_, hour_kib) = fixed_on_59_94_hz(3_600);
    let (m, day_kib) = fixed_on_59_94_hz(86_400);
    let n = |k: &str| m[k].as_u64().unwrap_or_else(|| panic!("{k}: {m}"));
    // Exact: whole steps of exactly dt, nothing dropped, the books balance to the nanosecond.
    assert_eq!(n("consumed_ns"), n("steps") * NS_PER_MS);
    assert_eq!(
        n("consumed_ns") + n("dropped_ns") + n("remainder_ns"),
        n("measured_ns")
    );
    assert_eq!(n("dropped_ns"), 0);
    assert!(n("remainder_ns") < NS_PER_MS);
    assert!(
        n("measured_ns") >= 86_399 * NS_PER_S,
        "{}",
        n("measured_ns")
    );
    assert!(n("frames") > 5_170_000, "{}", n("frames"));
    let drift_ms = m["drift_ms"].as_f64().unwrap_or(f64::NAN);
    assert!(
        drift_ms.abs() < 1.0,
        "drift {drift_ms} ms must stay below dt"
    );
    assert_eq!(m["exploded"], false);
    // Memory does not grow with the length of the run: 24 times longer, the same peak
    // (within 1 MiB of allocator noise). Nothing per frame is kept unless a trace asks.
    if let (Some(day_kib), Some(hour_kib)) = (day_kib, hour_kib) {
        assert!(
            day_kib <= hour_kib + 1_024,
            "a day peaked at {day_kib} KiB, an hour at {hour_kib} KiB"
        );
    }
}
