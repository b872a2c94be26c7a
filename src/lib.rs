//! timestep-rope: a mass-spring rope that makes game-loop timing visible and measurable.
//!
//! The flow is one-way: clock → timer → stepper (the `timestep_loop` crate's `Loop`) →
//! [`rope::Rope`] → blend → draw → present. Everything but `app` is pure and testable: it never
//! touches winit, pixels or wgpu, and time is always handed in.

pub mod advise;
pub mod app;
pub mod cli;
pub mod draw;
pub mod fast;
pub mod fit;
pub mod frame;
pub mod interrupt;
pub mod lane;
pub mod lessons;
pub mod machine;
pub mod messages;
pub mod pending;
pub mod plot;
pub mod probe;
pub mod progress;
pub mod replay;
pub mod rope;
pub mod simulate;
pub mod sweep;
pub mod watch;

/// The fastest rate anything is given at, Hz (a display, a cap): faster is surely a typo.
pub const MAX_HZ: f64 = 10_000.0;

pub use rope::{Pin, Rope, RopeParams};
