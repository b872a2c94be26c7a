//! A replay's configuration and its report: the `--json` object and the text.

use super::CaptureSummary;
use crate::hosts::simulate::{LoopConfigReport, RopeReport, write_lane_tables, write_rope_bounds};
use crate::model::lane::{LaneReport, LaneSpec};
use crate::model::rope::RopeParams;
use crate::util::quote::shown;
use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;
use timestep_loop::{MaxSubstep, PolicyEnv, TimingConfig};

/// Everything a replay needs, validated.
#[derive(Clone, Debug)]
pub struct ReplayConfig {
    /// The capture file to replay.
    pub capture: PathBuf,
    /// The application (its name or process ID; in our own logs, the lane) to replay; None:
    /// the one with the most frames.
    pub app: Option<String>,
    /// The application's swap chain to replay; None: its busiest.
    pub swapchain: Option<String>,
    /// The textbook loop's timing: its tick, clamp and step cap.
    pub timing: TimingConfig,
    /// The rope every lane steps.
    pub rope: RopeParams,
    /// The lanes to run, in the order given.
    pub lanes: Vec<LaneSpec>,
    /// The longest integration step a tick may take.
    pub max_substep: MaxSubstep,
    /// How many frames late the capture's display times reach a lane with the display timer.
    pub feedback_delay: u64,
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

/// A replay's whole report, as one JSON object (what `--json` prints).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayReport {
    /// The loop's and the rope's settings.
    pub config: ReplayConfigReport,
    /// What the capture holds, summed up.
    pub capture: CaptureSummary,
    /// Why the lanes differ on this capture, a line each, only those that apply
    /// ([`super::why_lanes_differ`]).
    pub why_lanes_differ: Vec<String>,
    /// Each lane's report, in the order run.
    pub lanes: Vec<LaneReport>,
    /// Stopped by Ctrl-C at a frame boundary: the figures cover what ran.
    pub interrupted: bool,
    /// How much of the capture ran: from its first frame's start to the last's, s.
    pub replayed_s: f64,
    /// Lanes an interrupted replay never started.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lanes_not_run: Vec<String>,
}

/// The loop's and the rope's settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayConfigReport {
    /// The loop's timing.
    #[serde(flatten)]
    pub looped: LoopConfigReport,
    /// The rope's parameters.
    #[serde(flatten)]
    pub rope: RopeReport,
}

/// The capture's summary, then the lanes' tables as `simulate` prints them.
pub fn write_table(
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
    write_lane_tables(out, &r.lanes, wide, HISTOGRAM_HEADING)?;
    writeln!(out)?;
    write_books(out, r)?;
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

/// The histogram's heading on a capture, whose frames may never be displayed.
const HISTOGRAM_HEADING: &str = "steps per frame (steps x frames), a frame never displayed counted with the next one displayed:";

/// The time replayed and where each lane's went: simulated, dropped, left in its accumulator
/// (and invented by its timer), in ms to the ns, balancing to the time replayed.
fn write_books(out: &mut impl Write, r: &ReplayReport) -> io::Result<()> {
    let ms = |ns: i128| format!("{:.6}", ns as f64 / 1e6);
    writeln!(
        out,
        "time replayed: {} ms, the first frame's start to the last's; where each lane's went, ms:",
        ms((r.replayed_s * 1e9).round() as i128)
    )?;
    let head = ["lane", "simulated", "dropped", "left over", "invented"];
    let mut rows = vec![head.map(String::from).to_vec()];
    for l in &r.lanes {
        let b = &l.books;
        rows.push(vec![
            l.lane.clone(),
            ms(i128::from(b.consumed_ns)),
            ms(i128::from(b.dropped_ns)),
            ms(i128::from(b.remainder_ns)),
            ms(i128::from(b.invented_ns)),
        ]);
    }
    let right = [false, true, true, true, true];
    for line in crate::util::fit::columns(&rows, &[12, 14, 12, 12, 12], &right, 1) {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "simulated + dropped + left over = replayed + invented; left over is what the accumulator \
         and the timer hold (negative: a deficit carried)"
    )
}

/// The capture in a few lines.
pub fn write_capture(out: &mut impl Write, c: &CaptureSummary) -> io::Result<()> {
    let mut who = shown(&c.app).into_owned();
    if !c.process.is_empty() {
        who += &format!(" (process {}", shown(&c.process));
        if !c.swapchain.is_empty() {
            who += &format!(", swap chain {}", shown(&c.swapchain));
        }
        who += ")";
    }
    writeln!(out, "replayed {} ({}): {who}", shown(&c.file), c.format)?;
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
    for part in crate::util::fit::command_lines(line, crate::util::fit::COLUMNS) {
        writeln!(out, "{part}")?;
    }
    Ok(())
}
