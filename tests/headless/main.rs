//! Everything that needs no window, in one test binary (one link, not seven): the stepper's
//! promises on the simulated clock, the rope against closed forms, the CLI as a user runs it,
//! property tests and shader validation.
//!
//! The long checks (a simulated day, a million-frame capture) are the library's own, run once,
//! optimised, by `.ci/run`: `cargo test --release -p timestep-lab --test '*' -- --ignored`.

// The program's own output files (its module, compiled here): the tests predict where a
// file is written before it replaces its target.
mod advise;
mod architecture;
mod cli;
mod display_timer;
mod docs;
mod drive;
mod fixes;
mod fuzz;
mod hostile;
mod long_runs;
mod machines;
mod outputs;
mod pacing;
#[allow(dead_code)]
#[path = "../../src/pending.rs"]
mod pending;
mod physics;
mod policies;
mod probe;
mod properties;
mod reliability;
mod replay;
mod shaders;
mod stepping;
mod streams;
mod support;
mod sweep;
