//! Helpers shared by the behaviour tests: drive the real stepper and rope with the simulated
//! display, exactly as `simulate` does.

use timestep_rope::cli::Stall;
use timestep_rope::simulate::{DisplayConfig, ModeReport, SimConfig, run_mode};
use timestep_rope::{Mode, Rope, RopeParams, TimingConfig};

pub const MS: u64 = 1_000_000;
pub const S: u64 = 1_000_000_000;

pub fn display(hz: f64) -> DisplayConfig {
    DisplayConfig {
        display_hz: hz,
        ..Default::default()
    }
}

pub fn config(display: DisplayConfig) -> SimConfig {
    SimConfig {
        timing: TimingConfig::new(MS, 250 * MS, None).unwrap(),
        rope: RopeParams::default(),
        display,
        modes: Mode::ALL.to_vec(),
        draw: None,
    }
}

pub fn run(display: DisplayConfig, mode: Mode) -> (ModeReport, Rope) {
    run_mode(&config(display), mode, |_| {})
}

pub fn stall(at_ns: u64, duration_ns: u64) -> Stall {
    Stall { at_ns, duration_ns }
}
