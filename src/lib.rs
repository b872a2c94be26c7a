//! timestep-rope: a mass-spring rope that makes game-loop timing visible and measurable.
//!
//! The flow is one-way: clock → [`timing::Stepper`] (mode, clamp, step cap, integer-ns
//! accumulator) → [`rope::Rope`] → blend → draw → present. Everything but `app` is pure and
//! testable: it never touches winit, pixels or wgpu, and time is always handed in.

pub mod app;
pub mod cli;
pub mod draw;
pub mod interrupt;
pub mod lane;
pub mod plot;
pub mod policy;
pub mod progress;
pub mod rope;
pub mod simulate;
pub mod sweep;
pub mod timing;
pub mod watch;

pub use rope::{Pin, Rope, RopeParams};
pub use timing::{FrameStats, Mode, Step, Stepper, TimingConfig};
