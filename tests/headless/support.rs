//! Helpers shared by the behaviour tests: drive the real lanes with the simulated display,
//! exactly as `simulate` does.

use timestep_lab::hosts::simulate::{self, DisplayConfig, FrameRecord, SimConfig, Stall};
use timestep_lab::model::lane::LaneReport;
use timestep_lab::model::lane::LaneSpec;
use timestep_lab::model::rope::RopeParams;
use timestep_loop::{Mode, TimingConfig};

pub use timestep_loop::NS_PER_MS as MS;
pub use timestep_loop::NS_PER_S as S;

pub fn display(hz: f64) -> DisplayConfig {
    DisplayConfig {
        display_hz: hz,
        ..Default::default()
    }
}

/// The default timing and rope on `display`, with every mode as a lane.
pub fn config(display: DisplayConfig) -> SimConfig {
    SimConfig {
        timing: TimingConfig::textbook(MS, 250 * MS, None).unwrap(),
        rope: RopeParams::default(),
        display,
        lanes: LaneSpec::every_mode(),
        max_substep: Default::default(),
        draw: None,
        physics: true,
    }
}

/// The frame times `display` gives a loop that does no work, as its timer measures them, until
/// `frame` says to stop (returns `false`) or the display's time runs out.
pub fn each_frame(display: DisplayConfig, mut frame: impl FnMut(u64) -> bool) {
    let mut d = simulate::Display::new(display);
    let mut last = d.start_ns();
    while !d.finished() {
        let reading = d.read_ns();
        if !frame(reading - last) {
            return;
        }
        last = reading;
        d.present(0);
    }
}

/// Runs `cfg` with `mode` as its only lane.
pub fn run_mode(
    cfg: &SimConfig,
    mode: Mode,
    on_frame: impl FnMut(&FrameRecord),
) -> (LaneReport, Vec<glam::Vec2>) {
    let cfg = SimConfig {
        lanes: vec![LaneSpec::mode(mode)],
        ..cfg.clone()
    };
    let mut runs = simulate::run(&cfg, on_frame).unwrap();
    runs.remove(0)
}

pub fn run(display: DisplayConfig, mode: Mode) -> (LaneReport, Vec<glam::Vec2>) {
    run_mode(&config(display), mode, |_| {})
}

pub fn stall(at_ns: u64, duration_ns: u64) -> Stall {
    Stall { at_ns, duration_ns }
}

/// A lane's rope figures, which every `simulate` lane has.
pub fn physics(r: &LaneReport) -> &timestep_lab::model::lane::PhysicsReport {
    match &r.physics {
        Some(p) => p,
        None => panic!("{} ran without a rope", r.lane),
    }
}

/// The program as a user runs it, with no display: a flag that slipped through to the window
/// could not open one.
pub fn bin() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_timestep-rope"));
    c.env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET");
    c
}

/// The program run with `args`, to its end.
pub fn run_bin(args: &[&str]) -> std::process::Output {
    bin().args(args).output().expect("the binary runs")
}

/// The program's JSON for `args`, which must succeed.
pub fn run_json(args: &[&str]) -> serde_json::Value {
    let out = run_bin(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// The program's text for `args`, which must succeed.
pub fn run_text(args: &[&str]) -> String {
    let out = run_bin(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh, empty directory of the test's own: `name` in this process's scratch space.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("timestep-rope-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}

/// Each lane's report from a run of `cfg` (its final positions left out).
pub fn reports(cfg: &SimConfig) -> Vec<LaneReport> {
    simulate::run(cfg, |_| {})
        .unwrap()
        .into_iter()
        .map(|(r, _)| r)
        .collect()
}
