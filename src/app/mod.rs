//! The live window (SKELETON, being written): winit 0.30 ApplicationHandler, pixels, shaders.

use crate::cli::WindowArgs;
use std::process::ExitCode;

/// Runs the window until the user quits. Returns the process exit status.
pub fn run(args: WindowArgs) -> ExitCode {
    let _ = args;
    eprintln!("timestep-rope: the window is not built yet; try `timestep-rope simulate`");
    ExitCode::from(1)
}
