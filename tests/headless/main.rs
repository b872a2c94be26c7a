//! Everything that needs no window, in one test binary (one link, not seven): the stepper's
//! promises on the simulated clock, the rope against closed forms, the CLI as a user runs it,
//! property tests, shader validation, and the long checks.
//!
//! The long checks (a simulated day) are `#[ignore]`d here and run once, optimised, by `.ci/run`:
//! `cargo test --release --test headless -- --ignored`.

#![allow(dead_code)]

mod advise;
mod architecture;
mod cli;
mod docs;
mod drive;
mod fuzz;
mod hostile;
mod long_runs;
mod machines;
mod outputs;
mod pacing;
mod physics;
mod policies;
mod probe;
mod properties;
mod reliability;
mod replay;
mod shaders;
mod stepping;
mod support;
mod sweep;
