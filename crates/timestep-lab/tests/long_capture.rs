//! A long check, `#[ignore]`d and run once, optimised, by `.ci/run`
//! (`cargo test --release -p timestep-lab --test '*' -- --ignored`): a capture of a million
//! frames.
//!
//! Its own test binary, so the process's peak memory is this replay's alone.

mod support;

use std::path::Path;
use support::{presentmon_capture, replay_config, scratch};
use timestep_lab::hosts::replay;
use timestep_lab::model::lane::{LaneSpec, peak_rss_kib};
use timestep_loop::Mode;

/// A PresentMon capture of `frames` frames of one game at 60 fps on a 60 Hz display, a dropped
/// frame in every 50.
fn big_capture(path: &Path, frames: u64) {
    presentmon_capture(path, frames, |i| {
        (i % 50 != 49).then_some(8.0 + (i % 5) as f64 * 0.1)
    });
}

/// `replay PATH --lanes fixed`: the process's peak memory after it, KiB.
fn replay_peak_kib(path: &Path) -> u64 {
    let (selection, summary) = replay::open(path, None, None).expect("the capture reads");
    assert!(summary.frames >= 1_000, "{}", summary.frames);
    let cfg = replay_config(path, vec![LaneSpec::mode(Mode::Fixed)]);
    let lanes = replay::run(&cfg, &selection, &summary).expect("the lane runs");
    assert_eq!(lanes.len(), 1);
    peak_rss_kib().expect("a peak RSS (Linux)")
}

#[test]
#[ignore = "slow: a million frames; .ci/run runs it optimised"]
fn a_capture_of_a_million_frames_replays_in_flat_memory() {
    let dir = scratch("big");
    let (small, big) = (dir.join("small.csv"), dir.join("big.csv"));
    big_capture(&small, 1_000);
    big_capture(&big, 1_000_000);
    // The small one first: the process's peak can only rise, so a replay that grew would show.
    let (a, b) = (replay_peak_kib(&small), replay_peak_kib(&big));
    eprintln!("peak RSS: 1,000 frames {a} KiB, 1,000,000 frames {b} KiB");
    assert!(
        b < a + 20 * 1024,
        "a million frames took {b} KiB against {a} KiB for a thousand"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
