//! timestep-lab: everything of timestep-rope that is neither the window nor the command line.
//!
//! The flow is one-way: clock → timer → stepper (the `timestep_loop` crate's `Loop`) →
//! [`rope::Rope`] → blend → draw → present. Here are the rope, the lanes that step it, the
//! frame protocol with its simulated display and replayed captures as hosts, the reports,
//! sweep's engine, the machine models and the drawing into an RGBA buffer. Nothing here opens
//! a window or reads a command line: time is always handed in, and Cargo keeps winit, pixels,
//! wgpu, egui, clap, plotters and indicatif out of this crate's dependencies.

#![warn(missing_docs)]

pub mod advise;
pub mod bounded;
pub mod chart;
pub mod draw;
pub mod fast;
pub mod fit;
pub mod fixes;
pub mod frame;
pub mod frame_csv;
pub mod fuzz;
pub mod lane;
pub mod lessons;
pub mod machine;
pub mod messages;
pub mod pending;
pub mod probe;
pub mod replay;
pub mod rope;
pub mod runs;
pub mod simulate;
pub mod sweep;
mod tally;
pub mod wall;
pub mod watch;

pub use timestep_loop::{MAX_HZ, MIN_HZ};

pub use rope::{Pin, Rope, RopeParams};
