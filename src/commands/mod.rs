//! Each subcommand's run as a program: the library's run between the files it writes, Ctrl-C,
//! a progress bar and the plots. The configurations come checked from `cli`.

pub mod advise;
pub mod probe;
pub mod replay;
pub mod simulate;
mod simulate_progress;
pub mod sweep;

use crate::failure::Failure;
use crate::pending::PendingFile;
use std::path::Path;
use timestep_lab::hosts::simulate::{FrameRecord, Plotting, Trace};

/// A run's frame-by-frame files, `--trace` and `--plot`: created before the run (a bad path
/// stops it with status 2), fed every frame, written after it.
struct FrameFiles {
    trace: Option<Trace<PendingFile>>,
    plot: Option<(PendingFile, Plotting)>,
}

/// The files a run wrote, each with the flag that named it, to commit together.
type Written = Vec<(&'static str, PendingFile)>;

impl FrameFiles {
    /// Creates `trace` and `plot` (the lanes `names`, the first `plot_ns` of the run).
    fn open(
        trace: Option<&Path>,
        plot: Option<&Path>,
        names: &[String],
        plot_ns: Option<u64>,
    ) -> Result<FrameFiles, Failure> {
        let trace = crate::pending::for_flag("--trace", trace).map_err(Failure::usage)?;
        let plot = plot.map(crate::plot::create).transpose();
        let plot = plot.map_err(|e| Failure::usage(format!("--plot: {e}")))?;
        Ok(FrameFiles {
            trace: trace.map(Trace::new),
            plot: plot.map(|file| (file, Plotting::new(names, plot_ns))),
        })
    }

    /// Whether the trace wants each step's start kept.
    fn step_starts(&self) -> bool {
        self.trace.is_some()
    }

    fn frame(&mut self, f: &FrameRecord) {
        if let Some(t) = self.trace.as_mut() {
            t.row(f);
        }
        if let Some((_, p)) = self.plot.as_mut() {
            p.frame(f);
        }
    }

    /// Writes the plot, titled by `title`, and ends the trace: the files to commit.
    fn finish(self, title: impl FnOnce() -> String) -> Result<Written, Failure> {
        let mut files = Vec::new();
        if let Some((mut file, p)) = self.plot {
            crate::plot::plot_frames(&mut file, &title(), &p.plot()).map_err(|e| {
                Failure::machine(format!(
                    "writing --plot '{}' failed: {e}",
                    file.path().display()
                ))
            })?;
            files.push(("--plot", file));
        }
        if let Some(t) = self.trace {
            let file = t.finish();
            let file =
                file.map_err(|e| Failure::machine(format!("writing --trace failed: {e}")))?;
            files.push(("--trace", file));
        }
        Ok(files)
    }
}
