//! A long check, `#[ignore]`d and run once, optimised, by `.ci/run`
//! (`cargo test --release -p timestep-lab --test '*' -- --ignored`): `replay --plot` of a
//! capture of 700,000 frames, the plot's points collected as the binary collects them.
//!
//! Its own test binary, so the process's peak memory is this replay's alone.

mod support;

use std::path::Path;
use support::{presentmon_capture, replay_config, scratch};
use timestep_lab::hosts::replay;
use timestep_lab::hosts::simulate::Plotting;
use timestep_lab::model::lane::{LaneSpec, peak_rss_kib};
use timestep_lab::protocol::runs::Controls;
use timestep_loop::Mode;

/// A PresentMon capture of `frames` frames at 60 fps, each on screen 8 to 8.4 ms after its
/// start, and one in every 100,000 shown 250 ms late.
fn capture(path: &Path, frames: u64) {
    presentmon_capture(path, frames, |i| {
        Some(8.0 + (i % 5) as f64 * 0.1 + if i % 100_000 == 99_999 { 250.0 } else { 0.0 })
    });
}

/// `replay PATH --lanes variable,fixed --plot`: the process's peak memory after it, KiB, and
/// the lowest shown-time error the plot draws, ms.
fn plot_peak_kib(path: &Path) -> (u64, f64) {
    let (selection, summary) = replay::open(path, None, None).expect("the capture reads");
    let lanes = vec![LaneSpec::mode(Mode::Variable), LaneSpec::mode(Mode::Fixed)];
    let names: Vec<String> = lanes.iter().map(ToString::to_string).collect();
    let mut plotting = Plotting::new(&names, None);
    let cfg = replay_config(path, lanes);
    replay::run_with(&cfg, &selection, &summary, Controls::default(), |f| {
        plotting.frame(f)
    })
    .expect("the lanes run");
    let plot = plotting.plot();
    let errors = plot
        .lanes
        .iter()
        .flat_map(|(_, p)| p.iter().map(|p| p.error_ms));
    let lowest = errors.fold(0.0, f64::min);
    (peak_rss_kib().expect("a peak RSS (Linux)"), lowest)
}

#[test]
#[ignore = "slow: 700,000 frames; .ci/run runs it optimised"]
fn a_plot_of_700_000_frames_is_drawn_from_flat_memory() {
    let dir = scratch("plot");
    let (small, big) = (dir.join("small.csv"), dir.join("big.csv"));
    capture(&small, 1_000);
    capture(&big, 700_000);
    // The small one first: the process's peak can only rise, so a plot that grew would show.
    let ((a, _), (b, lowest)) = (plot_peak_kib(&small), plot_peak_kib(&big));
    eprintln!("peak RSS: 1,000 frames {a} KiB, 700,000 frames {b} KiB");
    assert!(
        b < a + 20 * 1024,
        "a plot of 700,000 frames took {b} KiB against {a} KiB for a thousand"
    );
    // Thinned, the plot still draws the late frames: shown 250 ms behind the display.
    assert!(lowest < -200.0, "{lowest}");
    let _ = std::fs::remove_dir_all(&dir);
}
