//! **timestep-loop**: when a game's simulation steps, as "Fix Your Timestep" and real engines
//! decide it, in integer nanoseconds.
//!
//! A frame's measured time goes through a [`Loop`]: its **timer** (raw, Glaiel's snapping,
//! Godot's smoothing) and the **vsync detector** it may rely on, then its **stepper** (a
//! [`Mode`], a clamp, a step cap, a [`StepRule`]), which hands out the steps to integrate and
//! the `alpha` to blend the shown state with. A [`Pacer`] says how long to wait between frames.
//! The loops of Godot, Bevy, Unity, MonoGame, the `game-loop` crate and Tyler Glaiel's
//! FrameTimingControl are [`Preset`]s, each citing the source it follows.
//!
//! Everything works on explicit durations; only [`SystemClock`] reads a clock. Time is kept in
//! whole nanoseconds (`u64`): with floats, `accumulator -= dt` leaves rounding residue that makes
//! fixed stepping drift over hours; with integers, `steps == consumed / dt` holds exactly,
//! forever (a `u64` of nanoseconds lasts 584 years). Every nanosecond is accounted for: the books
//! balance after every frame, `measured + invented == consumed + dropped + remainder`.
//!
//! ```
//! use std::time::Duration;
//! use timestep_loop::{Loop, Preset};
//!
//! // Bevy's loop: 64 Hz fixed steps, frame times clamped at 250 ms.
//! let mut lp = Loop::preset(Preset::Bevy);
//! let mut position = 0.0_f64;
//! for _ in 0..60 {
//!     lp.begin_frame(Duration::from_nanos(16_666_667)); // a 60 Hz display
//!     while let Some(step) = lp.next_step() {
//!         position += 2.0 * step.dt_s(); // update the world by one tick
//!     }
//!     let _alpha = lp.last_frame().alpha; // render previous.lerp(current, alpha)
//! }
//! assert_eq!(lp.stepper().steps_total(), 64); // one second of 60 Hz frames: 64 ticks
//! ```
//!
//! See `examples/game_loop.rs` for a whole game loop with a fake renderer.

// The crate README follows, its examples run as doc tests.
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod clock;
mod config;
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
pub use game_loop::Loop;
pub use jitter::{CONTROL_STEPS, JitterFix};
pub use mode::Mode;
pub use named::{Named, UnknownName};
pub use pacing::{Pacer, Pacing, PacingError};
pub use policy::{DEFAULT_MAX_SUBSTEP_NS, Fuzzy, MaxSubstep, Policy, PolicyEnv, substeps};
pub use preset::Preset;
pub use smooth::DeltaSmoother;
pub use spec::{Base, LoopSpec, SpecError, SpecErrorKind};
pub use stepper::{Books, FrameStats, MAX_FRAME_STEPS, Step, StepRun, Stepper};
pub use tick::{MAX_TICK_DEN, Tick};
pub use timer::{Filtered, SNAP_FRAMES, Timer, TimerBooks, TimerKind};
pub use units::{
    DurationError, MAX_DURATION_NS, NS_PER_MS, NS_PER_S, format_duration, hz_of_period, millis,
    millis_f, millis_signed, ns_from_seconds, parse_duration, parse_period, parse_tick, period_ns,
    period_ns_f, seconds, seconds_f,
};
pub use vsync::VsyncDetector;
