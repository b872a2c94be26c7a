//! Each subcommand's run as a program: the library's run between the files it writes, Ctrl-C,
//! a progress bar and the plots. The configurations come checked from `cli`.

pub mod advise;
pub mod probe;
pub mod replay;
pub mod simulate;
mod simulate_progress;
pub mod sweep;

use crate::failure::Failure;
use timestep_lab::pending::PendingFile;
use timestep_lab::simulate::Plotting;

/// The frame-by-frame plot, titled by `title`, written into `file` (when one was asked for)
/// and added to `files` to commit with the run's other outputs.
fn plot_frames_into(
    files: &mut Vec<(&'static str, PendingFile)>,
    file: Option<PendingFile>,
    plotting: Option<&Plotting>,
    title: impl FnOnce() -> String,
) -> Result<(), Failure> {
    let (Some(mut file), Some(p)) = (file, plotting) else {
        return Ok(());
    };
    crate::plot::plot_frames(&mut file, &title(), &p.plot()).map_err(|e| {
        Failure::machine(format!(
            "writing --plot '{}' failed: {e}",
            file.path().display()
        ))
    })?;
    files.push(("--plot", file));
    Ok(())
}
