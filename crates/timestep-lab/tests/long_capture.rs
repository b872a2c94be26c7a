//! A long check, `#[ignore]`d and run once, optimised, by `.ci/run`
//! (`cargo test --release -p timestep-lab --test '*' -- --ignored`): a capture of a million
//! frames.
//!
//! Its own test binary, so the process's peak memory is this replay's alone.

use std::io::Write;
use std::path::Path;
use timestep_lab::lane::{LaneSpec, peak_rss_kib};
use timestep_lab::replay::{self, ReplayConfig};
use timestep_lab::rope::RopeParams;
use timestep_loop::{Mode, NS_PER_MS, TimingConfig};

/// A PresentMon capture of `frames` frames of one game at 60 fps on a 60 Hz display, a dropped
/// frame in every 50, written with the current set's columns replay reads.
fn big_capture(path: &Path, frames: u64) {
    let file = std::fs::File::create(path).expect("a temporary file");
    let mut out = std::io::BufWriter::new(file);
    let header = "\u{feff}Application,ProcessID,SwapChainAddress,FrameType,CPUStartQPC,\
                  MsCPUBusy,MsUntilDisplayed";
    writeln!(out, "{header}").expect("written");
    for i in 0..frames {
        let start = 10_000_000 + i * 166_667 + (i * 7919 % 13) * 100;
        let until = if i % 50 == 49 {
            "NA".to_string()
        } else {
            format!("{:.4}", 8.0 + (i % 5) as f64 * 0.1)
        };
        writeln!(out, "game.exe,42,0x1F00,Application,{start},3.2500,{until}").expect("written");
    }
    out.flush().expect("written");
}

/// `replay PATH --lanes fixed`: the process's peak memory after it, KiB.
fn replay_peak_kib(path: &Path) -> u64 {
    let (selection, summary) = replay::open(path, None, None).expect("the capture reads");
    assert!(summary.frames >= 1_000, "{}", summary.frames);
    let cfg = ReplayConfig {
        capture: path.to_path_buf(),
        app: None,
        swapchain: None,
        timing: TimingConfig::textbook(NS_PER_MS, 250 * NS_PER_MS, None).expect("a valid tick"),
        rope: RopeParams::default(),
        lanes: vec![LaneSpec::mode(Mode::Fixed)],
        max_substep: Default::default(),
    };
    let lanes = replay::run(&cfg, &selection, &summary).expect("the lane runs");
    assert_eq!(lanes.len(), 1);
    peak_rss_kib().expect("a peak RSS (Linux)")
}

#[test]
#[ignore = "slow: a million frames; .ci/run runs it optimised"]
fn a_capture_of_a_million_frames_replays_in_flat_memory() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
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
