//! Lanes driven by a simulated clock and display.
//!
//! The display is modelled like Tyler Glaiel's monitor simulator ("How to make your game run at
//! 60fps"): the loop reads a (noisy) timer, steps the rope, spends `render_cost` rendering, and
//! with vsync waits for the next vblank — at most one present per vblank, vblanks at exact
//! multiples of 1/Hz (so 59.94 Hz really is 16.683 ms, not 16 or 17). A stall lengthens one
//! frame's render. Everything is integer nanoseconds of simulated time; nothing reads a clock.
//! Each lane runs on its own copy of the display, so every lane sees the same frame times.

mod cost;
mod display;
mod estimate;
mod offscreen;
mod report;
mod run;
mod trace;
pub mod vrr;

pub use crate::protocol::runs::{Controls, FrameRecord, LaneOutcome, Outcome, batches};
pub use cost::{MAX_RAMP_POINTS, Ramp, RenderCost};
pub use display::{Display, DisplayConfig, Phase, Stall};
pub use estimate::{FrameBound, Pace, Work, projected_s};
pub use report::{
    ConfigReport, LoopConfigReport, Report, RopeReport, write_dump, write_lane_tables,
    write_rope_bounds, write_table,
};
pub use run::{run, run_with};
pub use trace::{Plotting, Trace};

use crate::model::lane::LaneSpec;
use crate::model::rope::RopeParams;
use std::path::PathBuf;
use timestep_loop::TimingConfig;
use timestep_loop::{MaxSubstep, PolicyEnv};

/// Where `simulate` writes what it measured.
#[derive(Clone, Debug, Default)]
pub struct SimOutput {
    /// Whether the report is one JSON object rather than the readable table.
    pub json: bool,
    /// Whether the table is printed in full; otherwise every line fits
    /// [`crate::util::fit::COLUMNS`] (`--wide`).
    pub wide: bool,
    /// The CSV file to write one row per presented frame of every lane to (`--trace`); None: none.
    pub trace: Option<PathBuf>,
    /// The file to write each lane's final positions to (`--dump-state`); None: none.
    pub dump_state: Option<PathBuf>,
    /// The chart of frame times to draw, SVG or PNG by its extension (`--plot`); None: none.
    pub plot: Option<PathBuf>,
    /// How much of the run `--plot` shows, ns (None: all of it).
    pub plot_ns: Option<u64>,
    /// Whether the estimate and progress go to stderr even when it is not a terminal
    /// (`--progress`).
    pub progress: bool,
    /// The last line of the text: `advise` for the same situation (empty: none).
    pub advise: String,
}

/// Everything one `simulate` run needs, validated.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The textbook loop's timing: its tick, clamp and step cap.
    pub timing: TimingConfig,
    /// The rope every lane steps.
    pub rope: RopeParams,
    /// The simulated display, timer and machine.
    pub display: DisplayConfig,
    /// The lanes to run, in the order given.
    pub lanes: Vec<LaneSpec>,
    /// The longest integration step a tick may take.
    pub max_substep: MaxSubstep,
    /// The size in pixels to rasterise every presented frame at off-screen, timing it; None:
    /// no drawing (`--draw WIDTHxHEIGHT`).
    pub draw: Option<(u32, u32)>,
    /// Step a rope in every lane (a sweep measures timing without one unless `--physics`).
    pub physics: bool,
}

impl SimConfig {
    /// What the lanes know of the run: the flags, and the display's nominal rate as the hint a
    /// real loop would get from the OS.
    pub fn env(&self) -> PolicyEnv {
        PolicyEnv::textbook(self.timing)
            .with_max_substep(self.max_substep)
            .with_vsync_requested(self.display.vsync)
            .with_refresh_hint(Some(self.display.display_hz))
    }
}
