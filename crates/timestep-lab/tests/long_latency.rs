//! A long check, `#[ignore]`d and run once, optimised, by `.ci/run`
//! (`cargo test --release -p timestep-lab --test '*' -- --ignored`): a capture of 700,000
//! frames each shown over a second after its start, every latency a different one.
//!
//! Its own test binary, so the process's peak memory is this replay's alone.

mod support;

use std::path::Path;
use support::{presentmon_capture, replay_config, scratch};
use timestep_lab::hosts::replay;
use timestep_lab::model::lane::{LaneSpec, peak_rss_kib};
use timestep_loop::Mode;

/// Frame `i` on screen 1 s + 13.7 µs × i after its start: over a second, and no two in one
/// 10 µs bin.
fn distinct_latencies(path: &Path, frames: u64) {
    presentmon_capture(path, frames, |i| Some(1_000.0 + i as f64 * 0.0137));
}

/// `replay PATH --lanes variable,fixed`: the process's peak memory after it, KiB, and the
/// lanes' p99 latencies, ms.
fn replay_peak_kib(path: &Path) -> (u64, Vec<f64>) {
    let (selection, summary) = replay::open(path, None, None).expect("the capture reads");
    let lanes = vec![LaneSpec::mode(Mode::Variable), LaneSpec::mode(Mode::Fixed)];
    let reports =
        replay::run(&replay_config(path, lanes), &selection, &summary).expect("the lanes run");
    let p99 = reports
        .iter()
        .map(|r| r.latency_ms.map_or(0.0, |l| l.p99))
        .collect();
    (peak_rss_kib().expect("a peak RSS (Linux)"), p99)
}

#[test]
#[ignore = "slow: 700,000 frames; .ci/run runs it optimised"]
fn distinct_latencies_over_a_second_are_counted_in_flat_memory() {
    let dir = scratch("latency");
    let (small, big) = (dir.join("small.csv"), dir.join("big.csv"));
    distinct_latencies(&small, 1_000);
    distinct_latencies(&big, 700_000);
    // The small one first: the process's peak can only rise, so a tally that grew would show.
    let ((a, _), (b, p99)) = (replay_peak_kib(&small), replay_peak_kib(&big));
    eprintln!("peak RSS: 1,000 frames {a} KiB, 700,000 frames {b} KiB; p99 {p99:?} ms");
    assert!(
        b < a + 20 * 1024,
        "700,000 latencies took {b} KiB against {a} KiB for a thousand"
    );
    // The 99th percentile of 1 s + 13.7 µs × i, to within its bucket (0.1 %).
    let true_p99 = 1_000.0 + 693_000.0 * 0.0137;
    for ms in p99 {
        assert!(
            ms >= true_p99 * 0.999 && ms <= true_p99 * 1.002,
            "{ms} against {true_p99}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
