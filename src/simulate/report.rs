//! What `simulate` prints: a table, or one JSON object; and the `--dump-state` file.

use super::{Offscreen, SimConfig};
use crate::lane::{Lane, StepsPerFrame};
use crate::timing::format_duration;
use serde::Serialize;
use std::io::{self, Write};

/// What one lane did, every figure measured on the simulated clock.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneReport {
    /// The lane as given to `--lanes` (or `--mode`).
    pub lane: String,
    pub mode: String,
    pub frames: u64,
    pub steps: u64,
    /// Simulation time advanced.
    pub sim_time_s: f64,
    /// Timer time handed to the stepper (the sum of measured frame times).
    pub wall_time_s: f64,
    /// (S_last − S_0) − (P_last − P_0): shown simulation time against presented wall time.
    pub drift_ms: f64,
    /// Time lost to the clamp and the step cap.
    pub dropped_ms: f64,
    pub stutter_rms_ms: f64,
    pub stutter_max_ms: f64,
    pub steps_per_frame: StepsPerFrame,
    /// Frames per number of steps taken, e.g. {"16": 310, "17": 290}.
    pub steps_histogram: std::collections::BTreeMap<String, u64>,
    pub energy_start_j: f64,
    pub energy_end_j: f64,
    /// The longest spring length / rest length seen, across resets.
    pub max_stretch: f64,
    /// Whether the rope diverged at any time.
    pub exploded: bool,
    /// Simulated wall time at which the rope first diverged.
    pub exploded_at_s: Option<f64>,
    /// How many times it diverged (an exploded rope is reset after 2 s, as in the window).
    pub explosions: u64,
    /// Whether the rope is exploded at the end of the run.
    pub exploded_at_end: bool,
    /// The stepper's books, in whole nanoseconds: measured = consumed + dropped + remainder.
    pub measured_ns: u64,
    pub consumed_ns: u64,
    pub dropped_ns: u64,
    pub remainder_ns: u64,
    /// The process's peak resident memory so far (Linux: VmHWM), KiB; null where unknown.
    pub peak_rss_kib: Option<u64>,
    /// FNV-1a of the final positions' and velocities' bits, hex.
    pub state_hash: String,
    /// With `--draw`: the real time one off-screen frame took to draw (mean and max), ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_ms_mean: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_ms_max: Option<f64>,
    /// With `--draw`: frames whose positions held a NaN or infinity (checked before drawing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_nonfinite_frames: Option<u64>,
}

impl LaneReport {
    pub fn new(lane: &Lane) -> Self {
        let (stepper, metrics, rope, watch) =
            (lane.stepper(), lane.metrics(), lane.rope(), lane.watch());
        LaneReport {
            lane: lane.name(),
            mode: lane.mode().name().to_string(),
            frames: metrics.frames(),
            steps: stepper.steps_total(),
            sim_time_s: stepper.sim_ns() as f64 * 1e-9,
            wall_time_s: stepper.measured_ns() as f64 * 1e-9,
            // `+ 0.0` turns -0.0 into 0.0, so a table never shows "-0.000".
            drift_ms: metrics.drift_ns() as f64 * 1e-6 + 0.0,
            dropped_ms: stepper.dropped_ns() as f64 * 1e-6,
            stutter_rms_ms: metrics.stutter_rms_ns() * 1e-6,
            stutter_max_ms: metrics.stutter_max_ns() as f64 * 1e-6,
            steps_per_frame: metrics.steps_per_frame(),
            steps_histogram: metrics
                .histogram()
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
            energy_start_j: lane.energy_start_j(),
            energy_end_j: rope.energy(),
            max_stretch: f64::from(lane.max_stretch()),
            exploded: watch.explosions() > 0,
            exploded_at_s: watch.first_at_ns().map(|ns| ns as f64 * 1e-9),
            explosions: watch.explosions(),
            exploded_at_end: rope.exploded(),
            measured_ns: stepper.measured_ns(),
            consumed_ns: stepper.consumed_ns(),
            dropped_ns: stepper.dropped_ns(),
            remainder_ns: stepper.accumulator_ns(),
            peak_rss_kib: peak_rss_kib(),
            state_hash: format!("{:016x}", rope.state_hash()),
            draw_ms_mean: None,
            draw_ms_max: None,
            draw_nonfinite_frames: None,
        }
    }

    /// `--draw`'s figures: the time to draw each frame (of every lane together, with several)
    /// and how many of this lane's frames held a non-finite position.
    pub(super) fn add_drawing(&mut self, offscreen: &Offscreen, index: usize) {
        let (mean, max) = offscreen.draw_ms();
        self.draw_ms_mean = Some(mean);
        self.draw_ms_max = Some(max);
        self.draw_nonfinite_frames = Some(offscreen.nonfinite_frames(index));
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigReport {
    pub dt_s: f64,
    pub clamp_s: f64,
    pub max_steps: u32,
    pub particles: usize,
    pub particle_mass_kg: f64,
    pub stiffness_n_per_m: f64,
    pub spring_damping_n_s_per_m: f64,
    pub rest_length_m: f64,
    pub gravity_m_per_s2: f64,
    pub damping_per_s: f64,
    pub pin: String,
    /// The longest frame time variable mode can integrate without the rope's fastest mode
    /// growing (computed from the parameters, see `RopeParams::stability_limit_s`).
    pub variable_stable_below_s: f64,

    pub display_hz: f64,
    pub vsync: bool,
    pub jitter_s: f64,
    pub render_cost_s: f64,
    pub stalls: Vec<[f64; 2]>,
    pub seconds: f64,
    pub seed: u64,
    /// `--draw` size, e.g. "1280x720".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<String>,
}

/// The whole `--json` object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub config: ConfigReport,
    pub lanes: Vec<LaneReport>,
}

impl Report {
    pub fn new(cfg: &SimConfig, lanes: Vec<LaneReport>) -> Self {
        let r = &cfg.rope;
        let d = &cfg.display;
        let s = |ns: u64| ns as f64 * 1e-9;
        Report {
            config: ConfigReport {
                dt_s: s(cfg.timing.dt_ns),
                clamp_s: s(cfg.timing.clamp_ns),
                max_steps: cfg.timing.max_steps,
                particles: r.particles,
                particle_mass_kg: f64_of(r.particle_mass_kg),
                stiffness_n_per_m: f64_of(r.stiffness_n_per_m),
                spring_damping_n_s_per_m: f64_of(r.spring_damping_n_s_per_m),
                rest_length_m: f64_of(r.rest_length_m),
                gravity_m_per_s2: f64_of(r.gravity_m_per_s2),
                damping_per_s: f64_of(r.damping_per_s),
                pin: r.pin.name().to_string(),
                variable_stable_below_s: r.stability_limit_s(),

                display_hz: d.display_hz,
                vsync: d.vsync,
                jitter_s: s(d.jitter_ns),
                render_cost_s: s(d.render_cost_ns),
                stalls: d
                    .stalls
                    .iter()
                    .map(|st| [s(st.at_ns), s(st.duration_ns)])
                    .collect(),
                seconds: s(d.duration_ns),
                seed: d.seed,
                draw: cfg.draw.map(|(w, h)| format!("{w}x{h}")),
            },
            lanes,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// The readable table: what was simulated, then one row per lane, the drawing times if any,
/// and each lane's steps-per-frame histogram.
pub fn write_table(out: &mut impl Write, report: &Report, cfg: &SimConfig) -> io::Result<()> {
    write_setup(out, report, cfg)?;
    writeln!(out)?;
    write_lanes(out, &report.lanes)?;
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
            && let (Some(mean), Some(max)) = (l.draw_ms_mean, l.draw_ms_max)
        {
            writeln!(out, "  mean {mean:.3} ms, max {max:.3} ms")?;
        }
    }
    writeln!(out)?;
    write_histograms(out, &report.lanes)
}

/// The display, the timing and the rope, and the stability bound.
fn write_setup(out: &mut impl Write, report: &Report, cfg: &SimConfig) -> io::Result<()> {
    let c = &report.config;
    let d = &cfg.display;
    writeln!(
        out,
        "simulated {} s on a {} Hz display, vsync {}, jitter ±{}, render {}, {} stall(s)",
        c.seconds,
        c.display_hz,
        if d.vsync { "on" } else { "off" },
        format_duration(d.jitter_ns),
        format_duration(d.render_cost_ns),
        c.stalls.len()
    )?;
    writeln!(
        out,
        "dt {}, clamp {}, at most {} steps/frame; rope: {} particles of {} kg, k {} N/m, rest {} m, drag {}/s, pin {}",
        format_duration(cfg.timing.dt_ns),
        format_duration(cfg.timing.clamp_ns),
        c.max_steps,
        c.particles,
        c.particle_mass_kg,
        c.stiffness_n_per_m,
        c.rest_length_m,
        c.damping_per_s,
        c.pin
    )?;
    let limit = c.variable_stable_below_s;
    if limit.is_finite() {
        writeln!(
            out,
            "variable steps are stable below {:.2} ms (frame rates above {:.1} Hz)",
            limit * 1e3,
            1.0 / limit
        )?;
    }
    Ok(())
}

/// A table column: two header lines, a width, whether it is right-aligned, and the cell.
struct Column {
    head: &'static str,
    sub: &'static str,
    width: usize,
    right: bool,
    cell: fn(&LaneReport) -> String,
}

/// The lane table's columns after the lane's name, each written once.
const COLUMNS: [Column; 10] = [
    Column {
        head: "frames",
        sub: "",
        width: 7,
        right: true,
        cell: |l| l.frames.to_string(),
    },
    Column {
        head: "steps",
        sub: "",
        width: 9,
        right: true,
        cell: |l| l.steps.to_string(),
    },
    Column {
        head: "steps/frame",
        sub: "min/mean/max",
        width: 16,
        right: false,
        cell: |l| {
            let s = &l.steps_per_frame;
            format!("{}/{:.2}/{}", s.min, s.mean, s.max)
        },
    },
    Column {
        head: "sim s",
        sub: "",
        width: 9,
        right: true,
        cell: |l| format!("{:.3}", l.sim_time_s),
    },
    Column {
        head: "drift ms",
        sub: "",
        width: 9,
        right: true,
        cell: |l| fixed3(l.drift_ms),
    },
    Column {
        head: "dropped ms",
        sub: "",
        width: 11,
        right: true,
        cell: |l| format!("{:.1}", l.dropped_ms),
    },
    Column {
        head: "stutter ms",
        sub: "rms / max",
        width: 17,
        right: false,
        cell: |l| format!("{:.4} / {:.4}", l.stutter_rms_ms, l.stutter_max_ms),
    },
    Column {
        head: "energy J",
        sub: "start -> end",
        width: 23,
        right: false,
        cell: |l| format!("{:.4} -> {:.4}", l.energy_start_j, l.energy_end_j),
    },
    Column {
        head: "stretch",
        sub: "max",
        width: 8,
        right: true,
        cell: |l| format!("{:.3}", l.max_stretch),
    },
    Column {
        head: "exploded",
        sub: "",
        width: 17,
        right: false,
        cell: |l| match (l.exploded_at_s, l.explosions) {
            (Some(t), 1) => format!("at {t:.2}s"),
            (Some(t), n) => format!("{n}x, 1st {t:.2}s"),
            _ => "no".to_string(),
        },
    },
];

/// `x` to three places, never as "-0.000" (a drift of -1 ns is no drift at this precision).
fn fixed3(x: f64) -> String {
    format!("{:.3}", (x * 1e3).round() / 1e3 + 0.0)
}

/// One row per lane, under two header lines; the state hash last.
fn write_lanes(out: &mut impl Write, lanes: &[LaneReport]) -> io::Result<()> {
    let name_w = lanes
        .iter()
        .map(|l| l.lane.len())
        .max()
        .unwrap_or(0)
        .max(12)
        + 1;
    let row = |first: &str, cells: Vec<String>, last: &str| {
        let mut line = format!("{first:<name_w$}");
        for (c, text) in COLUMNS.iter().zip(cells) {
            let w = c.width;
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
            COLUMNS.iter().map(|c| c.head.into()).collect(),
            "state hash"
        )
    )?;
    writeln!(
        out,
        "{}",
        row("", COLUMNS.iter().map(|c| c.sub.into()).collect(), "")
    )?;
    for l in lanes {
        let cells = COLUMNS.iter().map(|c| (c.cell)(l)).collect();
        writeln!(out, "{}", row(&l.lane, cells, &l.state_hash))?;
    }
    Ok(())
}

/// How many frames took each number of steps, per lane (the first dozen counts).
fn write_histograms(out: &mut impl Write, lanes: &[LaneReport]) -> io::Result<()> {
    let name_w = lanes
        .iter()
        .map(|l| l.lane.len())
        .max()
        .unwrap_or(0)
        .max(12)
        + 1;
    writeln!(out, "steps per frame (steps x frames):")?;
    for l in lanes {
        let mut hist: Vec<String> = l
            .steps_histogram
            .iter()
            .map(|(k, v)| format!("{k}x{v}"))
            .collect();
        if hist.len() > 12 {
            let more = hist.len() - 12;
            hist.truncate(12);
            hist.push(format!("... {more} more"));
        }
        writeln!(out, "  {:<name_w$}{}", l.lane, hist.join("  "))?;
    }
    Ok(())
}

#[derive(Serialize)]
struct DumpLane<'a> {
    lane: &'a str,
    positions: Vec<[f32; 2]>,
}

#[derive(Serialize)]
struct Dump<'a> {
    lanes: Vec<DumpLane<'a>>,
}

/// `--dump-state`: each lane's final positions, in metres from particle 0.
pub fn write_dump(out: &mut impl Write, runs: &[(LaneReport, Lane)]) -> io::Result<()> {
    let lanes = runs
        .iter()
        .map(|(report, lane)| {
            let rope = lane.rope();
            let origin = rope.positions().next().unwrap_or_default();
            DumpLane {
                lane: &report.lane,
                positions: rope.positions().map(|p| (p - origin).to_array()).collect(),
            }
        })
        .collect();
    serde_json::to_writer(&mut *out, &Dump { lanes }).map_err(io::Error::other)?;
    writeln!(out)
}

/// An `f32` parameter as the decimal the user would write (0.05, not 0.05000000074505806).
fn f64_of(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}

/// The process's peak resident set size, from /proc/self/status (Linux); None elsewhere.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
