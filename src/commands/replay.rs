//! `timestep-rope replay`: the capture checked and summed up before anything runs, then every
//! lane on its frames, reported as `simulate` reports, with the capture's summary above.

use super::FrameFiles;
use crate::failure::Failure;
use crate::interrupt;
use crate::messages;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use timestep_lab::hosts::replay::{
    CaptureSummary, ReplayConfig, ReplayConfigReport, ReplayError, ReplayReport, open, run_with,
    why_lanes_differ, write_advise, write_table,
};
use timestep_lab::hosts::simulate::{Controls, FrameRecord, LoopConfigReport, RopeReport};
use timestep_lab::model::fixes::{self, Stepping};
use timestep_lab::model::lane::LaneReport;
use timestep_loop::seconds;

/// Where a replay writes what it measured.
#[derive(Clone, Debug, Default)]
pub struct ReplayOutput {
    pub json: bool,
    /// Whether the table is printed in full; otherwise every line fits
    /// [`timestep_lab::util::fit::COLUMNS`] (`--wide`).
    pub wide: bool,
    pub trace: Option<PathBuf>,
    pub plot: Option<PathBuf>,
    /// How much of the run the plot covers, ns (`--plot-seconds`; all of it: `None`).
    pub plot_ns: Option<u64>,
    /// The last line of the text: `advise` for the same capture (empty: none).
    pub advise: String,
}

/// Runs `replay`: the capture is read and checked, and the output files created, before
/// anything runs, so a bad one fails at once with status 2. The outputs replace their targets
/// once all are written (see [`crate::pending`]), also when Ctrl-C stopped the run.
pub fn main(cfg: &ReplayConfig, out: &ReplayOutput) -> Result<ExitCode, Failure> {
    let (selection, summary) = open(&cfg.capture, cfg.app.as_deref(), cfg.swapchain.as_deref())
        .map_err(|e| Failure::usage(e.to_string()))?;
    let names: Vec<String> = cfg.lanes.iter().map(ToString::to_string).collect();
    let mut frame_files = FrameFiles::open(
        out.trace.as_deref(),
        out.plot.as_deref(),
        &names,
        out.plot_ns,
    )?;
    interrupt::install();
    let controls = Controls {
        keep_positions: false,
        stop: Some(interrupt::flag()),
        step_starts: frame_files.step_starts(),
    };
    let outcome = run_with(cfg, &selection, &summary, controls, |f: &FrameRecord| {
        frame_files.frame(f)
    })
    .map_err(|e| match e {
        ReplayError::Capture(e) => Failure::usage(e.to_string()),
        ReplayError::Loop(e) => Failure::usage(format!("--lanes: {e}")),
    })?;
    let files = frame_files.finish(|| {
        let app = timestep_lab::util::quote::shown(&summary.app);
        format!("{app} ({}), frame by frame", summary.format)
    })?;
    crate::pending::commit_all(files).map_err(Failure::machine)?;
    let lanes: Vec<LaneReport> = outcome.lanes.into_iter().map(|l| l.report).collect();
    let said = fix_lines(cfg, &summary, &lanes);
    let report = ReplayReport {
        config: ReplayConfigReport {
            looped: LoopConfigReport::new(&cfg.timing, cfg.max_substep),
            rope: RopeReport::new(&cfg.rope),
        },
        why_lanes_differ: why_lanes_differ(&summary, &lanes),
        capture: summary,
        lanes,
        interrupted: outcome.interrupted,
        replayed_s: seconds(outcome.span_ns),
        lanes_not_run: outcome.not_run.iter().map(ToString::to_string).collect(),
    };
    messages::print("the report", |w| {
        if out.json {
            let json = serde_json::to_string_pretty(&report).map_err(io::Error::other);
            json.and_then(|j| writeln!(w, "{j}"))
        } else {
            messages::write_fitted(w, out.wide, |text| {
                write_table(text, &report, cfg, out.wide)?;
                fixes::write_lines(text, &said)?;
                write_advise(text, &out.advise)
            })
        }
    })?;
    Ok(interrupt::status(report.interrupted))
}

/// The lines under the table on a stable step and on ticks that flip 0, 1, 2 a frame.
fn fix_lines(cfg: &ReplayConfig, summary: &CaptureSummary, lanes: &[LaneReport]) -> Vec<String> {
    let refresh_hz = summary.refresh_hz_estimate;
    // A tick that equals the refresh flips where the game's frames came at the refresh too
    // (not 89 fps on a 60 Hz display, whose frames run 0, 1 or 2 ticks for another reason).
    let paced = refresh_hz.filter(|hz| {
        summary
            .render_fps
            .is_some_and(|fps| (fps - hz).abs() <= hz * fixes::PACED_TOLERANCE)
    });
    let flipping: Vec<(String, f64)> = lanes
        .iter()
        .filter_map(|l| fixes::flips(l, paced).map(|hz| (l.lane.clone(), hz)))
        .collect();
    fixes::lines(
        &Stepping::of_specs(&cfg.lanes, &cfg.env(refresh_hz), &cfg.rope),
        &cfg.rope,
        &flipping,
    )
}
