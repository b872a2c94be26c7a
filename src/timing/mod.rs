//! When the rope is stepped: the four stepping modes, the clamp, the step cap, the step rules
//! (whole ticks, Glaiel's fuzzy window, Godot's jitter fix) and the integer-nanosecond
//! accumulator.
//!
//! Everything here works on explicit durations; nothing reads a clock. The window feeds it
//! `Instant` differences, `simulate` feeds it a simulated display's, and both get exactly the
//! same stepping. Time is kept in whole nanoseconds (`u64`): with floats, `accumulator -= dt`
//! leaves rounding residue that makes fixed stepping drift over hours; with integers,
//! `steps == consumed / dt` holds exactly, forever (a `u64` of nanoseconds lasts 584 years).

mod clock;
mod config;
mod duration;
mod jitter;
mod mode;
mod pacing;
mod smooth;
mod stepper;
mod timer;
mod vsync;

pub use clock::{Clock, FrameClock, SystemClock};
pub use config::{ClampOn, StepRule, TimingConfig};
pub use duration::{MAX_DURATION_NS, format_duration, parse_duration, parse_period, seconds};
pub use jitter::JitterFix;
pub use mode::{Mode, one_of};
pub use pacing::{Pacer, Pacing};
pub use smooth::DeltaSmoother;
pub use stepper::{FrameStats, Step, Stepper};
pub use timer::{Timer, TimerKind};
pub use vsync::VsyncDetector;
