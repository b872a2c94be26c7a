// The crate's documentation is its README (what crates.io shows too); its examples run as doc
// tests.
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod clock;
mod config;
mod display;
mod game_loop;
mod jitter;
mod mode;
mod named;
mod pacing;
mod policy;
mod preset;
mod smooth;
mod spec;
mod stepper;
mod tick;
mod timer;
mod units;
mod vsync;

pub use clock::{Clock, FrameClock, ManualClock, SystemClock};
pub use config::{ClampOn, ConfigError, StepRule, TimingConfig};
pub use display::DisplayBooks;
pub use game_loop::Loop;
pub use jitter::{CONTROL_STEPS, JitterFix};
pub use mode::Mode;
pub use named::{Named, UnknownName, is_named, parse_keyword};
pub use pacing::{Pacer, Pacing, PacingError};
pub use policy::{DEFAULT_MAX_SUBSTEP_NS, Fuzzy, MaxSubstep, Policy, PolicyEnv, substeps};
pub use preset::Preset;
pub use smooth::DeltaSmoother;
pub use spec::{Base, LoopSpec, SpecError, SpecErrorKind};
pub use stepper::{Books, FrameStats, MAX_FRAME_STEPS, Step, StepRun, Stepper};
pub use tick::{MAX_TICK_DEN, Tick};
pub use timer::{
    Filtered, SNAP_FRAMES, Timer, TimerBooks, TimerKind, display_mode_hz, snap_to_display_mode,
};
pub use units::{
    DurationError, MAX_DURATION_NS, MAX_HZ, MIN_HZ, NS_PER_MS, NS_PER_S, format_duration,
    hz_of_period, millis, ns_from_seconds, parse_duration, parse_duration_with_unit, parse_period,
    parse_tick, period_ns, seconds,
};
pub use vsync::VsyncDetector;
