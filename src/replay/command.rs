//! The `replay` subcommand: the capture checked and summed up before anything runs, then every
//! lane on its frames, reported as `simulate` reports, with the capture's summary above.

use super::host::{ReplayError, open, run_with};
use super::summary::CaptureSummary;
use crate::interrupt;
use crate::lane::{LaneReport, LaneSpec};
use crate::messages::{self, Failure};
use crate::plot;
use crate::rope::RopeParams;
use crate::simulate::{
    Controls, FrameRecord, LoopConfigReport, Plotting, RopeReport, Trace, write_lane_tables,
    write_rope_bounds,
};
use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use timestep_loop::{MaxSubstep, PolicyEnv, TimingConfig, seconds};

/// Everything a replay needs, validated.
#[derive(Clone, Debug)]
pub struct ReplayConfig {
    pub capture: PathBuf,
    /// `--app`: the application (or, in our own logs, the lane) to replay.
    pub app: Option<String>,
    /// `--swapchain`: its swap chain.
    pub swapchain: Option<String>,
    pub timing: TimingConfig,
    pub rope: RopeParams,
    pub lanes: Vec<LaneSpec>,
    pub max_substep: MaxSubstep,
}

impl ReplayConfig {
    /// What the lanes know of the capture: the flags, and the refresh rate its display changes
    /// say (which is also whether the game presented with vsync, as far as they say).
    pub fn env(&self, refresh_hz: Option<f64>) -> PolicyEnv {
        PolicyEnv::textbook(self.timing)
            .with_max_substep(self.max_substep)
            .with_vsync_requested(refresh_hz.is_some())
            .with_refresh_hint(refresh_hz)
    }
}

/// Where a replay writes what it measured.
#[derive(Clone, Debug, Default)]
pub struct ReplayOutput {
    pub json: bool,
    /// `--wide`: the full table; without it every line fits [`crate::fit::COLUMNS`].
    pub wide: bool,
    pub trace: Option<PathBuf>,
    pub plot: Option<PathBuf>,
    /// The last line of the text: `advise` for the same capture (empty: none).
    pub advise: String,
}

/// The whole `--json` object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayReport {
    pub config: ReplayConfigReport,
    pub capture: CaptureSummary,
    /// Why the lanes differ on this capture, a line each, only those that apply
    /// ([`super::why_lanes_differ`]).
    pub why_lanes_differ: Vec<String>,
    pub lanes: Vec<LaneReport>,
    pub interrupted: bool,
    /// How much of the capture ran: from its first frame's start to the last's, s.
    pub replayed_s: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lanes_not_run: Vec<String>,
}

/// The loop's and the rope's settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayConfigReport {
    #[serde(flatten)]
    pub looped: LoopConfigReport,
    #[serde(flatten)]
    pub rope: RopeReport,
}

/// Runs `replay`: the capture is read and checked, and the output files created, before
/// anything runs, so a bad one fails at once with status 2. The outputs replace their targets
/// once all are written (see [`crate::pending`]), also when Ctrl-C stopped the run.
pub fn main(cfg: &ReplayConfig, out: &ReplayOutput) -> Result<ExitCode, Failure> {
    let (selection, summary) = open(&cfg.capture, cfg.app.as_deref(), cfg.swapchain.as_deref())
        .map_err(|e| Failure::usage(e.to_string()))?;
    let names: Vec<String> = cfg.lanes.iter().map(ToString::to_string).collect();
    let mut trace = crate::simulate::open("--trace", out.trace.as_deref())
        .map_err(Failure::usage)?
        .map(|file| Trace::new(file, names.clone()));
    let plot_file = out.plot.as_deref().map(plot::create).transpose();
    let plot_file = plot_file.map_err(|e| Failure::usage(format!("--plot: {e}")))?;
    let mut plotting = plot_file.as_ref().map(|_| Plotting::new(&names, None));
    interrupt::install();
    let controls = Controls {
        keep_positions: false,
        stop: Some(interrupt::flag()),
        step_starts: trace.is_some(),
    };
    let outcome = run_with(cfg, &selection, &summary, controls, |f: &FrameRecord| {
        if let Some(t) = trace.as_mut() {
            t.row(f);
        }
        if let Some(p) = plotting.as_mut() {
            p.frame(f);
        }
    })
    .map_err(|e| match e {
        ReplayError::Capture(e) => Failure::usage(e.to_string()),
        ReplayError::Loop(e) => Failure::usage(format!("--lanes: {e}")),
    })?;
    let mut files = Vec::new();
    if let (Some(mut file), Some(p)) = (plot_file, &plotting) {
        let title = format!("{} ({}), frame by frame", summary.app, summary.format);
        plot::plot_frames(&mut file, &title, &p.plot).map_err(|e| {
            Failure::machine(format!(
                "writing --plot '{}' failed: {e}",
                file.path().display()
            ))
        })?;
        files.push(("--plot", file));
    }
    if let Some(t) = trace {
        let file = t.finish();
        let file = file.map_err(|e| Failure::machine(format!("writing --trace failed: {e}")))?;
        files.push(("--trace", file));
    }
    crate::pending::commit_all(files).map_err(Failure::machine)?;
    let lanes: Vec<LaneReport> = outcome.lanes.into_iter().map(|l| l.report).collect();
    let report = ReplayReport {
        config: ReplayConfigReport {
            looped: LoopConfigReport::new(&cfg.timing, cfg.max_substep),
            rope: RopeReport::new(&cfg.rope),
        },
        why_lanes_differ: super::why_lanes_differ(&summary, &lanes),
        capture: summary,
        lanes,
        interrupted: outcome.interrupted,
        replayed_s: seconds(outcome.replayed_ns),
        lanes_not_run: outcome.not_run,
    };
    messages::print("the report", |w| {
        if out.json {
            let json = serde_json::to_string_pretty(&report).map_err(io::Error::other);
            json.and_then(|j| writeln!(w, "{j}"))
        } else {
            crate::fit::write_fitted(w, out.wide, |text| {
                write_table(text, &report, cfg, out.wide)?;
                write_advise(text, &out.advise)
            })
        }
    })?;
    Ok(interrupt::status(report.interrupted))
}

/// The capture's summary, then the lanes' tables as `simulate` prints them.
fn write_table(
    out: &mut impl Write,
    r: &ReplayReport,
    cfg: &ReplayConfig,
    wide: bool,
) -> io::Result<()> {
    write_capture(out, &r.capture)?;
    if !r.why_lanes_differ.is_empty() {
        writeln!(out, "why lanes differ here:")?;
        for line in &r.why_lanes_differ {
            writeln!(out, "  {line}")?;
        }
    }
    write_rope_bounds(out, &cfg.timing, &r.config.rope, &r.lanes)?;
    writeln!(out)?;
    write_lane_tables(out, &r.lanes, wide)?;
    if r.interrupted {
        write!(
            out,
            "interrupted (Ctrl-C) after {:.3} s of the capture's {:.3} s: the figures above cover \
             what ran",
            r.replayed_s, r.capture.span_s
        )?;
        if !r.lanes_not_run.is_empty() {
            write!(out, "; not run: {}", r.lanes_not_run.join(", "))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The capture in a few lines.
fn write_capture(out: &mut impl Write, c: &CaptureSummary) -> io::Result<()> {
    let mut who = c.app.clone();
    if !c.process.is_empty() {
        who += &format!(" (process {}", c.process);
        if !c.swapchain.is_empty() {
            who += &format!(", swap chain {}", c.swapchain);
        }
        who += ")";
    }
    writeln!(out, "replayed {} ({}): {who}", c.file, c.format)?;
    writeln!(
        out,
        "{} frames over {:.3} s: {} displayed, {} never displayed{}{}",
        c.frames,
        c.span_s,
        c.displayed,
        c.not_displayed,
        if c.display_out_of_order > 0 {
            format!(
                " ({} shown before the frame before them)",
                c.display_out_of_order
            )
        } else {
            String::new()
        },
        if c.generated_skipped > 0 {
            format!("; {} generated frames skipped", c.generated_skipped)
        } else {
            String::new()
        }
    )?;
    let f = &c.frame_ms;
    writeln!(
        out,
        "frame times: median {:.3} ms (p5 {:.3}, p95 {:.3}, max {:.3})",
        f.median, f.p5, f.p95, f.max
    )?;
    // Without display times, the changes measured are the presents'.
    let (what, refresh) = match c.refresh_hz_estimate {
        _ if !c.display_times_known() => ("presents", String::new()),
        Some(hz) => ("display changes", format!("; refresh {hz} Hz")),
        None => ("display changes", format!("; refresh {}", c.refresh)),
    };
    match &c.display_change_ms {
        Some(d) => writeln!(
            out,
            "{what}: median {:.3} ms (p5 {:.3}, p95 {:.3}, max {:.3}){refresh}",
            d.median, d.p5, d.p95, d.max,
        )?,
        None => writeln!(out, "{what}: none")?,
    }
    writeln!(out, "clock: {}", c.clock)?;
    writeln!(out, "on screen: {}", c.display_times)
}

/// The line pointing at `advise` for the same situation, if there is one.
pub fn write_advise(out: &mut impl Write, line: &str) -> io::Result<()> {
    if line.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    for part in crate::fit::command_lines(line, crate::fit::COLUMNS) {
        writeln!(out, "{part}")?;
    }
    Ok(())
}
