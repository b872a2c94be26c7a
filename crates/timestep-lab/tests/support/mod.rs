//! What the long checks share: a PresentMon capture of many frames written to a file, and
//! `replay`'s settings for it.

use std::io::Write;
use std::path::Path;
use timestep_lab::hosts::replay::ReplayConfig;
use timestep_lab::model::lane::LaneSpec;
use timestep_lab::model::rope::RopeParams;
use timestep_loop::{NS_PER_MS, TimingConfig};

/// A PresentMon capture of `frames` frames of one game begun at 60 fps, frame `i` on screen
/// `until_ms(i)` after its start (`None`: never displayed), written with the current set's
/// columns replay reads.
pub fn presentmon_capture(path: &Path, frames: u64, until_ms: impl Fn(u64) -> Option<f64>) {
    let file = std::fs::File::create(path).expect("a temporary file");
    let mut out = std::io::BufWriter::new(file);
    let header = "\u{feff}Application,ProcessID,SwapChainAddress,FrameType,CPUStartQPC,\
                  MsCPUBusy,MsUntilDisplayed";
    writeln!(out, "{header}").expect("written");
    for i in 0..frames {
        let start = 10_000_000 + i * 166_667 + (i * 7919 % 13) * 100;
        let until = until_ms(i).map_or_else(|| "NA".to_string(), |ms| format!("{ms:.4}"));
        writeln!(out, "game.exe,42,0x1F00,Application,{start},3.2500,{until}").expect("written");
    }
    out.flush().expect("written");
}

/// `replay PATH --lanes LANES` with the default 1 ms tick and 250 ms clamp.
pub fn replay_config(path: &Path, lanes: Vec<LaneSpec>) -> ReplayConfig {
    ReplayConfig {
        capture: path.to_path_buf(),
        app: None,
        swapchain: None,
        timing: TimingConfig::textbook(NS_PER_MS, 250 * NS_PER_MS, None).expect("a valid tick"),
        rope: RopeParams::default(),
        lanes,
        max_substep: Default::default(),
        feedback_delay: timestep_lab::protocol::feedback::FEEDBACK_DELAY,
    }
}

/// A directory of its own for a long check's files.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("timestep-lab-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}
