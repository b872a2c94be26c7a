//! What is wrong with a command line once every value has parsed: flags that do not go
//! together, a run too large, a file named twice. Each is one line naming the flags.

use timestep_lab::analyses::sweep::{MAX_CONFIGS, RatesError};
use timestep_lab::model::lane::LaneError;
use timestep_lab::model::rope::BadParams;
use timestep_loop::{ConfigError, Pacing};

/// Flags that cannot run as given.
#[derive(Debug, thiserror::Error)]
pub enum BadFlags {
    /// Flags that go only together, or never: the line says which and what to give.
    #[error("{0}")]
    Together(&'static str),
    #[error("man: no subcommand '{name}' (there are {names})")]
    NoManPage { name: String, names: String },
    /// More lanes than the window has panes for.
    #[error(
        "--lanes: the window shows at most {max} lanes, got {0} (simulate takes any number)",
        max = timestep_lab::view::draw::MAX_PANES
    )]
    TooManyPanes(usize),
    #[error(
        "--{flag} and --lanes make {rates} rates x {lanes} lanes = {configs} configurations, more than the {MAX_CONFIGS} a sweep runs"
    )]
    TooManyConfigs {
        flag: String,
        rates: usize,
        lanes: usize,
        configs: u64,
    },
    /// `--lanes` with an engine (by name) that chooses its own loops.
    #[error("--lanes and --engine {0} both choose the loops: give one of them")]
    EngineAndLanes(&'static str),
    #[error(
        "--pacing {pacing}: {engine}'s settings cannot pace frames that way (they reach vsync{and})"
    )]
    EnginePacing {
        pacing: Pacing,
        engine: &'static str,
        and: &'static str,
    },
    /// The timing flags together (`flag` is the one the error is about).
    #[error("{flag}: {source}")]
    Timing {
        flag: &'static str,
        source: ConfigError,
    },
    /// `advise` on a simulated display run too short to show enough frames for a verdict.
    #[error(
        "--seconds {seconds}: too short for a verdict: the display shows at most {frames:.0} \
         frames in it, and a verdict wants at least {want} frames and {want_s} s: give --seconds \
         {shortest} or more",
        want = timestep_lab::analyses::advise::SHORT_CAPTURE_FRAMES,
        want_s = timestep_lab::analyses::advise::SHORT_CAPTURE_S
    )]
    TooShortForAVerdict {
        seconds: f64,
        frames: f64,
        shortest: f64,
    },
    #[error(transparent)]
    Rope(#[from] BadParams),
    #[error(transparent)]
    Lanes(#[from] LaneError),
    #[error(transparent)]
    Rates(#[from] RatesError),
    #[error(transparent)]
    SameFile(#[from] super::paths::SameFile),
}
