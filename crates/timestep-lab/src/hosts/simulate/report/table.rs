//! `simulate`'s readable table: what was simulated, one row per lane, each lane's loop and its
//! vblank counters, the drawing times if any, and each lane's steps-per-frame histogram.

use super::{Report, RopeReport};
use crate::hosts::simulate::SimConfig;
use crate::model::lane::{LaneReport, PhysicsReport, TICK_COUNTERS_BELOW};
use crate::protocol::machine::Machine;
use std::io::{self, Write};
use timestep_loop::{Pacing, TimingConfig, format_duration};

/// The readable table: what was simulated, then one row per lane, the drawing times if any,
/// and each lane's steps-per-frame histogram.
pub fn write_table(
    out: &mut impl Write,
    report: &Report,
    cfg: &SimConfig,
    wide: bool,
) -> io::Result<()> {
    write_setup(out, report, cfg)?;
    writeln!(out)?;
    write_lanes(out, &report.lanes, wide)?;
    write_interrupted(out, report)?;
    writeln!(out)?;
    write_loops(out, &report.lanes)?;
    writeln!(out)?;
    write_display_timers(out, &report.lanes)?;
    write_vblanks(out, &report.lanes, wide)?;
    write_vrr(out, report, cfg)?;
    write_drawing(out, report, cfg)?;
    writeln!(out)?;
    write_histograms(out, &report.lanes, "steps per frame (steps x frames):")
}

/// The lanes' tables, as `simulate` and `replay` print them: one row per lane, each lane's
/// loop, its per-vblank counters and its histogram (under `heading`); `wide`: every column.
pub fn write_lane_tables(
    out: &mut impl Write,
    lanes: &[LaneReport],
    wide: bool,
    heading: &str,
) -> io::Result<()> {
    write_lanes(out, lanes, wide)?;
    writeln!(out)?;
    write_loops(out, lanes)?;
    writeln!(out)?;
    write_display_timers(out, lanes)?;
    write_vblanks(out, lanes, wide)?;
    writeln!(out)?;
    write_histograms(out, lanes, heading)
}

/// The line on off-screen drawing's cost, when the run drew (`--draw`).
fn write_drawing(out: &mut impl Write, report: &Report, cfg: &SimConfig) -> io::Result<()> {
    if let Some((w, h)) = cfg.draw {
        writeln!(out)?;
        let what = if report.lanes.len() > 1 {
            "the split view of every lane"
        } else {
            "the lane"
        };
        writeln!(
            out,
            "off-screen drawing of {what} at {w}x{h} (real time per frame):"
        )?;
        if let Some(l) = report.lanes.first()
            && let Some(d) = l.drawing
        {
            let (mean, max) = (d.draw_ms_mean, d.draw_ms_max);
            writeln!(out, "  mean {mean:.3} ms, max {max:.3} ms")?;
        }
    }
    Ok(())
}

/// Under the table, when Ctrl-C stopped the run: how far it got, and what never ran.
fn write_interrupted(out: &mut impl Write, report: &Report) -> io::Result<()> {
    if !report.interrupted {
        return Ok(());
    }
    write!(
        out,
        "interrupted (Ctrl-C) at {:.3} s of {} s simulated: the figures above cover what ran",
        report.simulated_s, report.config.seconds
    )?;
    if !report.lanes_not_run.is_empty() {
        write!(out, "; not run: {}", report.lanes_not_run.join(", "))?;
    }
    writeln!(out)
}

/// The display, the timing and the rope, and the stability bound.
fn write_setup(out: &mut impl Write, report: &Report, cfg: &SimConfig) -> io::Result<()> {
    let c = &report.config;
    let d = &cfg.display;
    let display = match &d.vrr {
        Some(vrr) => format!("{vrr} panel"),
        None => format!("{} Hz display", c.display_hz),
    };
    writeln!(
        out,
        "simulated {} on a {display}, vsync {}, phase {}, jitter ±{}, render {}, step cost {}, {} stall(s)",
        format_duration(d.duration_ns),
        if d.vsync { "on" } else { "off" },
        c.phase,
        format_duration(d.jitter_ns),
        c.render_cost,
        format_duration(d.step_cost_ns),
        c.stalls.len()
    )?;
    if d.machine != Machine::EXACT || d.pacing != Pacing::Vsync {
        writeln!(
            out,
            "pacing {}, machine {}, sleeping {}",
            c.pacing, c.machine, c.sleep
        )?;
    }
    write_rope_bounds(out, &cfg.timing, &c.rope, &report.lanes)
}

/// The textbook loop and the rope in a line, then the stability bound of every integrator in
/// use, the run's first.
pub fn write_rope_bounds(
    out: &mut impl Write,
    timing: &TimingConfig,
    c: &RopeReport,
    lanes: &[LaneReport],
) -> io::Result<()> {
    writeln!(
        out,
        "dt {}, clamp {}, at most {} steps/frame; rope: {} particles of {} kg, k {} N/m, rest {} m, drag {}/s, pin {}",
        format_duration(timing.tick_ns()),
        timing.clamp_ns().map_or("none".into(), format_duration),
        timing.max_steps().map_or("any".into(), |n| n.to_string()),
        c.particles,
        c.particle_mass_kg,
        c.stiffness_n_per_m,
        c.rest_length_m,
        c.damping_per_s,
        c.pin
    )?;
    let mut shown = vec![(c.integrator, c.stable_below_s)];
    for p in lanes.iter().filter_map(|l| l.physics.as_ref()) {
        if !shown.iter().any(|(i, _)| *i == p.integrator) {
            shown.push((p.integrator, p.stable_below_s));
        }
    }
    for (integrator, limit) in shown.into_iter().filter(|(_, l)| l.is_finite()) {
        writeln!(
            out,
            "variable steps ({integrator}) are stable below {:.2} ms (frame rates above {:.1} Hz)",
            limit * 1e3,
            1.0 / limit
        )?;
    }
    Ok(())
}

/// A table column: two header lines, a width, whether it is right-aligned, whether the
/// default (narrow) table shows it, and the cell.
struct Column {
    head: &'static str,
    sub: &'static str,
    width: usize,
    right: bool,
    narrow: bool,
    cell: fn(&LaneReport) -> String,
}

/// The lane table's columns after the lane's name, each written once.
const COLUMNS: [Column; 11] = [
    Column {
        head: "state",
        sub: "",
        width: 13,
        right: false,
        narrow: true,
        cell: |l| l.state.to_string(),
    },
    Column {
        head: "frames",
        sub: "",
        width: 7,
        right: true,
        narrow: false,
        cell: |l| l.shown.frames.to_string(),
    },
    Column {
        head: "steps",
        sub: "",
        width: 9,
        right: true,
        narrow: false,
        cell: |l| l.shown.steps.to_string(),
    },
    Column {
        head: "steps/frame",
        sub: "min/mean/max",
        width: 16,
        right: false,
        narrow: true,
        cell: |l| {
            let s = &l.shown.steps_per_frame;
            format!("{}/{:.2}/{}", s.min, s.mean, s.max)
        },
    },
    Column {
        head: "sim s",
        sub: "",
        width: 9,
        right: true,
        narrow: false,
        cell: |l| format!("{:.3}", l.shown.sim_time_s),
    },
    Column {
        head: "drift ms",
        sub: "",
        width: 9,
        right: true,
        narrow: true,
        cell: |l| fixed3(l.shown.drift_ms),
    },
    Column {
        head: "dropped ms",
        sub: "",
        width: 11,
        right: true,
        narrow: true,
        cell: |l| format!("{:.1}", l.shown.dropped_ms),
    },
    Column {
        head: "stutter ms",
        sub: "rms / max",
        width: 17,
        right: false,
        narrow: true,
        cell: |l| {
            format!(
                "{:.4} / {:.4}",
                l.shown.stutter_rms_ms, l.shown.stutter_max_ms
            )
        },
    },
    Column {
        head: "energy J",
        sub: "start -> end",
        width: 23,
        right: false,
        narrow: false,
        cell: |l| {
            physics(l, |p| {
                format!("{:.4} -> {:.4}", p.energy_start_j, p.energy_end_j)
            })
        },
    },
    Column {
        head: "stretch",
        sub: "max",
        width: 8,
        right: true,
        narrow: false,
        cell: |l| physics(l, |p| format!("{:.3}", p.max_stretch)),
    },
    Column {
        head: "exploded",
        sub: "",
        width: 17,
        right: false,
        narrow: false,
        cell: |l| {
            physics(l, |p| match (p.exploded_at_s, p.explosions) {
                (Some(t), 1) => format!("at {t:.2}s"),
                (Some(t), n) => format!("{n}x, 1st {t:.2}s"),
                _ => "no".to_string(),
            })
        },
    },
];

/// A rope's figure, or "-" for a lane without one.
fn physics(l: &LaneReport, cell: impl Fn(&PhysicsReport) -> String) -> String {
    l.physics.as_ref().map_or_else(|| "-".into(), cell)
}

/// `x` to three places, never as "-0.000" (a drift of -1 ns is no drift at this precision).
fn fixed3(x: f64) -> String {
    format!("{:.3}", (x * 1e3).round() / 1e3 + 0.0)
}

/// Each lane's loop in one line (and the source a preset follows).
fn write_loops(out: &mut impl Write, lanes: &[LaneReport]) -> io::Result<()> {
    let name_w = name_width(lanes);
    writeln!(out, "loops:")?;
    for l in lanes {
        writeln!(out, "  {:<name_w$}{}", l.lane, l.policy)?;
        if let Some(source) = l.policy.preset.map(|p| p.source()) {
            writeln!(out, "  {:<name_w$}  follows {source}", "")?;
            // The source names the preset's defaults; the lane's own options are what ran.
            if let Some((_, options)) = l.lane.split_once('+') {
                writeln!(
                    out,
                    "  {:<name_w$}  (that source's defaults, with +{options} as above)",
                    ""
                )?;
            }
        }
    }
    Ok(())
}

/// What each `display` timer did with present feedback, when a lane has one (then a blank
/// line after).
fn write_display_timers(out: &mut impl Write, lanes: &[LaneReport]) -> io::Result<()> {
    let timed: Vec<_> = lanes
        .iter()
        .filter_map(|l| Some((l, l.display.predicted_frames?)))
        .collect();
    if timed.is_empty() {
        return Ok(());
    }
    let name_w = name_width(lanes);
    writeln!(out, "display timer (present feedback):")?;
    for (l, predicted) in timed {
        let d = &l.display;
        let n = |x: Option<u64>| x.unwrap_or(0);
        writeln!(
            out,
            "  {:<name_w$}{predicted} of {} frames run stepped by predicted display times; feedback \
             on {}, {} discarded; {} predictions missed a vblank; corrected {:.3} ms",
            l.lane,
            n(d.frames_run),
            n(d.feedback_frames),
            n(d.discarded_frames),
            n(d.missed_predictions),
            d.corrected_ms.unwrap_or(0.0),
        )?;
    }
    writeln!(out)
}

/// MonitorSim's counters per lane, the vsync detector's verdict, and (when `wide`) the last
/// vblanks' pattern.
fn write_vblanks(out: &mut impl Write, lanes: &[LaneReport], wide: bool) -> io::Result<()> {
    let name_w = name_width(lanes);
    let pattern_head = if wide {
        "ticks per vblank, the last 60"
    } else {
        ""
    };
    let head = [
        "per vblank",
        "ticks/vblank",
        "doubles",
        "irregular",
        "skipped",
        "zero-tick",
        "max",
        "",
        "vsync detected",
        pattern_head,
    ];
    let mut rows = vec![head.map(String::from).to_vec()];
    rows.extend(lanes.iter().map(|l| vblank_cells(l, wide)));
    // The widths the table always had; a wider figure widens its column.
    let widths = [name_w - 1, 13, 7, 9, 8, 9, 5, 0, 23, 0];
    let right = [
        false, true, true, true, true, true, true, false, false, false,
    ];
    for line in crate::util::fit::columns(&rows, &widths, &right, 1) {
        writeln!(out, "{line}")?;
    }
    if lanes.iter().any(|l| l.vblanks.double_updates.is_none()) {
        writeln!(
            out,
            "n/a: doubles and irregular count ticks per vblank, which mean nothing when a tick is \
             much shorter than the refresh (a 1 ms tick): at {TICK_COUNTERS_BELOW} ticks a vblank \
             or more, every frame runs several by design"
        )?;
    }
    Ok(())
}

/// A lane's row of [`write_vblanks`].
fn vblank_cells(l: &LaneReport, wide: bool) -> Vec<String> {
    let v = &l.vsync;
    let vsync = match (v.vsync_detected, v.refresh_estimate_hz, v.detected_after_s) {
        (true, Some(hz), Some(after)) => format!("yes, {hz:.2} Hz at {after:.1}s"),
        (false, _, Some(after)) => format!("lost (found at {after:.1}s)"),
        _ => "no".into(),
    };
    let b = &l.vblanks;
    vec![
        l.lane.clone(),
        b.ticks_per_vblank.map_or("-".into(), |r| format!("{r:.2}")),
        count_or_na(b.double_updates),
        count_or_na(b.irregular_frames),
        b.skipped_vblanks.to_string(),
        b.zero_step_frames.to_string(),
        b.max_steps_per_vblank.to_string(),
        String::new(),
        vsync,
        if wide {
            pattern_tail(&b.pattern)
        } else {
            String::new()
        },
    ]
}

/// The last vblanks of a lane's pattern: the last 20 counts when comma-separated, else the last
/// 60 digits.
fn pattern_tail(pattern: &str) -> String {
    if pattern.contains(',') {
        let counts: Vec<&str> = pattern.split(',').collect();
        counts[counts.len().saturating_sub(20)..].join(",")
    } else {
        pattern
            .chars()
            .skip(pattern.len().saturating_sub(60))
            .collect()
    }
}

/// A tick counter, or "n/a" where it means nothing (see `lane::TICK_COUNTERS_BELOW`).
fn count_or_na(count: Option<u64>) -> String {
    count.map_or_else(|| "n/a".into(), |n| n.to_string())
}

/// On a `--vrr` panel: each lane's refresh intervals, and what its vsync verdict can mean.
fn write_vrr(out: &mut impl Write, report: &Report, cfg: &SimConfig) -> io::Result<()> {
    let Some(vrr) = &cfg.display.vrr else {
        return Ok(());
    };
    writeln!(out)?;
    let name_w = name_width(&report.lanes);
    writeln!(
        out,
        "{:<name_w$}{:>9}{:>9}{:>9}  (ms, scanout to scanout; {vrr})",
        "refresh", "min", "mean", "max"
    )?;
    for l in &report.lanes {
        if let Some(r) = l.vblanks.refresh_interval_ms {
            writeln!(
                out,
                "{:<name_w$}{:>9.3}{:>9.3}{:>9.3}",
                l.lane, r.min, r.mean, r.max
            )?;
        }
    }
    writeln!(
        out,
        "On a VRR panel frame times cannot tell vsync from a steady render: 'vsync detected' \
         says frames came a steady time apart, not that the panel paced them (it follows them); \
         frames faster than {} Hz are never called vsynced.",
        vrr.max_hz
    )
}

/// The width of the lane-name column: the longest name and a space, at least 13.
fn name_width(lanes: &[LaneReport]) -> usize {
    lanes
        .iter()
        .map(|l| l.lane.len())
        .max()
        .unwrap_or(0)
        .max(12)
        + 1
}

/// Each column's width: as wide as it always was, or as its widest cell.
fn widths(columns: &[&Column], cells: &[Vec<String>]) -> Vec<usize> {
    let widest = |i: usize| cells.iter().map(|row| row[i].chars().count()).max();
    let each = columns.iter().enumerate();
    each.map(|(i, c)| widest(i).unwrap_or(0).max(c.width))
        .collect()
}

/// One row per lane, under two header lines; when `wide`, every column and the state hash last,
/// else the narrow columns alone.
fn write_lanes(out: &mut impl Write, lanes: &[LaneReport], wide: bool) -> io::Result<()> {
    let name_w = name_width(lanes);
    let columns: Vec<&Column> = COLUMNS.iter().filter(|c| wide || c.narrow).collect();
    // Each lane's cells, made once; each column as wide as it always was, or as its widest
    // cell: a figure never runs into the next.
    let cells: Vec<Vec<String>> = lanes
        .iter()
        .map(|l| columns.iter().map(|c| (c.cell)(l)).collect())
        .collect();
    let widths = widths(&columns, &cells);
    let row = |first: &str, cells: Vec<String>, last: &str| {
        let mut line = format!("{first:<name_w$}");
        for ((c, text), &w) in columns.iter().zip(cells).zip(&widths) {
            line += &if c.right {
                format!("{text:>w$}  ")
            } else {
                format!("{text:<w$}  ")
            };
        }
        line += last;
        line.trim_end().to_string()
    };
    writeln!(
        out,
        "{}",
        row(
            "lane",
            columns.iter().map(|c| c.head.into()).collect(),
            if wide { "state hash" } else { "" }
        )
    )?;
    writeln!(
        out,
        "{}",
        row("", columns.iter().map(|c| c.sub.into()).collect(), "")
    )?;
    for (l, cells) in lanes.iter().zip(cells) {
        let hash = match &l.physics {
            Some(p) if wide => p.state_hash.as_str(),
            _ if wide => "-",
            _ => "",
        };
        let name = if l.open_loop.is_some() {
            format!("{}*", l.lane)
        } else {
            l.lane.clone()
        };
        writeln!(out, "{}", row(&name, cells, hash))?;
    }
    for l in lanes {
        if let Some(why) = l.open_loop {
            writeln!(out, "* {} ran open loop: {why}", l.lane)?;
        }
    }
    Ok(())
}

/// How many frames took each number of steps, per lane (the first dozen counts), under
/// `heading`, and the steps taken after the last frame shown, if any.
fn write_histograms(out: &mut impl Write, lanes: &[LaneReport], heading: &str) -> io::Result<()> {
    let name_w = name_width(lanes);
    writeln!(out, "{heading}")?;
    for l in lanes {
        let mut hist: Vec<String> = l
            .shown
            .steps_histogram
            .iter()
            .map(|(k, v)| format!("{k}x{v}"))
            .collect();
        if hist.len() > 12 {
            let more = hist.len() - 12;
            hist.truncate(12);
            hist.push(format!("... {more} more"));
        }
        let after = l.shown.steps_after_last_shown;
        if after > 0 {
            hist.push(format!("(+{after} after the last frame shown)"));
        }
        writeln!(out, "  {:<name_w$}{}", l.lane, hist.join("  "))?;
    }
    Ok(())
}
