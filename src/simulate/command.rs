//! The `simulate` subcommand: flags in, report out.

use super::SimOutput;
use super::progress::Progress;
use super::trace::{Plotting, Trace, open};
use super::{Controls, FrameRecord, Report, SimConfig, run_with, write_dump, write_table};
use crate::interrupt;
use crate::messages::{self, Failure};
use crate::plot::{self};
use std::io::Write;
use std::process::ExitCode;

/// Runs `simulate`. Files named by flags are opened before anything runs, so a bad path
/// fails at once with status 2.
pub fn main(cfg: &SimConfig, args: &SimOutput) -> Result<ExitCode, Failure> {
    // Opened before anything runs, in order; the first bad path stops everything.
    let names: Vec<String> = cfg.lanes.iter().map(ToString::to_string).collect();
    let mut trace = match open("--trace", args.trace.as_deref()) {
        Ok(t) => t.map(|out| Trace::new(out, names.clone())),
        Err(e) => return Err(Failure::usage(e)),
    };
    let mut dump = match open("--dump-state", args.dump_state.as_deref()) {
        Ok(d) => d,
        Err(e) => return Err(Failure::usage(e)),
    };

    if let Some(p) = &args.plot
        && let Err(e) = plot::check_path(p)
    {
        return Err(Failure::usage(format!("--plot: {e}")));
    }
    let mut plotting = args
        .plot
        .as_ref()
        .map(|_| Plotting::new(&names, args.plot_ns));

    interrupt::install();
    let mut progress = Progress::start(cfg, args.progress);
    let controls = Controls {
        keep_positions: dump.is_some(),
        stop: Some(interrupt::flag()),
        step_starts: trace.is_some(),
    };
    let outcome = run_with(cfg, controls, |f: &FrameRecord| {
        if let Some(t) = trace.as_mut() {
            t.row(f);
        }
        if let Some(p) = plotting.as_mut() {
            p.frame(f);
        }
        progress.frame(f);
    });
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => return Err(Failure::usage(format!("--lanes: {e}"))),
    };
    progress.finish();
    if let (Some(path), Some(p)) = (&args.plot, &plotting) {
        let title = format!(
            "{} Hz display, jitter ±{}, frame by frame",
            cfg.display.display_hz,
            timestep_loop::format_duration(cfg.display.jitter_ns)
        );
        if let Err(e) = plot::plot_frames(path, &title, &p.plot) {
            return Err(Failure::machine(format!(
                "writing --plot '{}' failed: {e}",
                path.display()
            )));
        }
    }
    if let Some(Err(e)) = trace.map(Trace::finish) {
        return Err(Failure::machine(format!("writing --trace failed: {e}")));
    }
    if let Some(d) = dump.as_mut()
        && let Err(e) = write_dump(d, &outcome.lanes).and_then(|_| d.flush())
    {
        return Err(Failure::machine(format!(
            "writing --dump-state failed: {e}"
        )));
    }

    let ran = outcome.lanes.len();
    let reports = outcome.lanes.into_iter().map(|l| l.report).collect();
    let mut report = Report::new(cfg, reports, progress.reached_ns(ran));
    if outcome.interrupted {
        report = report.interrupted(outcome.not_run.iter().map(ToString::to_string).collect());
    }
    messages::print("the report", |out| {
        if args.json {
            writeln!(out, "{}", report.to_json())
        } else {
            write_table(out, &report, cfg)
        }
    })?;
    Ok(interrupt::status(outcome.interrupted))
}
