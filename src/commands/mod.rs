//! Each subcommand's run as a program: the library's run between the files it writes, Ctrl-C,
//! a progress bar and the plots. The configurations come checked from `cli`.

pub mod probe;
pub mod replay;
pub mod simulate;
mod simulate_progress;
pub mod sweep;
