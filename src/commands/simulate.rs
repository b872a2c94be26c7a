//! `timestep-rope simulate`: files opened first, then the lanes on the simulated display,
//! with progress, Ctrl-C, the plot and the report.

use super::FrameFiles;
use super::simulate_progress::{Progress, SIMULATE};
use crate::failure::Failure;
use crate::interrupt;
use crate::messages;
use crate::pending;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use timestep_lab::hosts::simulate::{
    Controls, FrameRecord, LaneOutcome, Report, SimConfig, SimOutput, run_with, write_dump,
    write_table,
};
use timestep_lab::model::fixes::{self, Stepping};

/// Runs `simulate`. Files named by flags are created before anything runs, so a bad path
/// fails at once with status 2; they replace their targets only once all are written (see
/// [`crate::pending`]), also when Ctrl-C stopped the run.
pub fn main(cfg: &SimConfig, args: &SimOutput) -> Result<ExitCode, Failure> {
    // Created before anything runs, in order; the first bad path stops everything.
    let names: Vec<String> = cfg.lanes.iter().map(ToString::to_string).collect();
    let mut frame_files = FrameFiles::open(
        args.trace.as_deref(),
        args.plot.as_deref(),
        &names,
        args.plot_ns,
    )?;
    let dump = crate::pending::for_flag("--dump-state", args.dump_state.as_deref())
        .map_err(Failure::usage)?;

    interrupt::install();
    let mut progress = Progress::start(cfg, args.progress, SIMULATE);
    let controls = Controls {
        keep_positions: dump.is_some(),
        stop: Some(interrupt::flag()),
        step_starts: frame_files.step_starts(),
    };
    let outcome = run_with(cfg, controls, |f: &FrameRecord| {
        frame_files.frame(f);
        progress.frame(f);
    });
    let outcome = outcome.map_err(|e| Failure::usage(format!("--lanes: {e}")))?;
    progress.finish();
    let mut files = frame_files.finish(|| {
        format!(
            "{} Hz display, jitter ±{}, frame by frame",
            cfg.display.display_hz,
            timestep_loop::format_duration(cfg.display.jitter_ns)
        )
    })?;
    if let Some(file) = dump {
        let mut out = BufWriter::new(file);
        let file = write_dump(&mut out, &outcome.lanes)
            .and_then(|()| out.into_inner().map_err(io::IntoInnerError::into_error));
        files.push((
            "--dump-state",
            file.map_err(|e| failed("--dump-state", &e))?,
        ));
    }
    pending::commit_all(files).map_err(Failure::machine)?;

    let ran = outcome.lanes.len();
    let said = fix_lines(cfg, &outcome.lanes);
    let reports = outcome.lanes.into_iter().map(|l| l.report).collect();
    let mut report = Report::new(cfg, reports, progress.reached_ns(ran));
    if outcome.interrupted {
        report = report.interrupted(outcome.not_run.iter().map(ToString::to_string).collect());
    }
    messages::print("the report", |out| {
        if args.json {
            writeln!(out, "{}", report.to_json())
        } else {
            crate::messages::write_fitted(out, args.wide, |text| {
                write_table(text, &report, cfg, args.wide)?;
                fixes::write_lines(text, &said)?;
                timestep_lab::hosts::replay::write_advise(text, &args.advise)
            })
        }
    })?;
    Ok(interrupt::status(outcome.interrupted))
}

/// The lines under the table on a stable step and on ticks that flip 0, 1, 2 a frame.
fn fix_lines(cfg: &SimConfig, lanes: &[LaneOutcome]) -> Vec<String> {
    let flipping: Vec<(String, f64)> = lanes
        .iter()
        .filter_map(|l| {
            fixes::flips(&l.report, cfg.display.vsynced_hz()).map(|hz| (l.report.lane.clone(), hz))
        })
        .collect();
    fixes::lines(
        &Stepping::of_specs(&cfg.lanes, &cfg.env(), &cfg.rope),
        &cfg.rope,
        &flipping,
    )
}

/// A write to `flag`'s file failed after the run (exit status 1).
fn failed(flag: &str, e: &io::Error) -> Failure {
    Failure::machine(format!("writing {flag} failed: {e}"))
}
