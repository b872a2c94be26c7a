//! The machine a simulated loop runs on: how its clock reads and how its sleeps wake
//! (`--machine`, `--sleep`). [`profile`] is a machine as `probe` measured it.

pub mod profile;

pub use profile::{MachineProfile, QUANTILES, SleepSample};
