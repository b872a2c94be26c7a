//! What `simulate` prints: a table, or one JSON object; and the `--dump-state` file.

use super::{Metrics, SimConfig};
use crate::rope::Rope;
use crate::timing::{Mode, Stepper, format_duration};
use crate::watch::ExplosionWatch;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepsPerFrame {
    pub min: u32,
    pub mean: f64,
    pub max: u32,
}

/// What one mode did, every figure measured on the simulated clock.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModeReport {
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

impl ModeReport {
    pub(super) fn new(
        mode: Mode,
        stepper: &Stepper,
        metrics: &Metrics,
        rope: &Rope,
        energy_start_j: f64,
        watch: &ExplosionWatch,
    ) -> Self {
        ModeReport {
            mode: mode.name().to_string(),
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
            energy_start_j,
            energy_end_j: rope.energy(),
            max_stretch: f64::from(rope.max_stretch()),
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
    pub modes: Vec<ModeReport>,
}

impl Report {
    pub fn new(cfg: &SimConfig, modes: Vec<ModeReport>) -> Self {
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
            modes,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// The readable table.
pub fn write_table(out: &mut impl Write, report: &Report, cfg: &SimConfig) -> io::Result<()> {
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
    writeln!(out)?;
    writeln!(
        out,
        "{:<13}{:>7}{:>9}  {:<16}{:>10}{:>10}{:>11}  {:<17}{:<23}{:>8}  {:<17}state hash",
        "mode",
        "frames",
        "steps",
        "steps/frame",
        "sim s",
        "drift ms",
        "dropped ms",
        "stutter ms",
        "energy J",
        "stretch",
        "exploded",
    )?;
    writeln!(
        out,
        "{:<13}{:>7}{:>9}  {:<16}{:>10}{:>10}{:>11}  {:<17}{:<23}{:>8}",
        "", "", "", "min/mean/max", "", "", "", "rms / max", "start -> end", "max"
    )?;
    for m in &report.modes {
        let spf = &m.steps_per_frame;
        let exploded = match (m.exploded_at_s, m.explosions) {
            (Some(t), 1) => format!("at {t:.2}s"),
            (Some(t), n) => format!("{n}x, 1st {t:.2}s"),
            _ => "no".to_string(),
        };
        writeln!(
            out,
            "{:<13}{:>7}{:>9}  {:<16}{:>10.3}{:>10.3}{:>11.1}  {:<17}{:<23}{:>8.3}  {:<17}{}",
            m.mode,
            m.frames,
            m.steps,
            format!("{}/{:.2}/{}", spf.min, spf.mean, spf.max),
            m.sim_time_s,
            m.drift_ms,
            m.dropped_ms,
            format!("{:.4} / {:.4}", m.stutter_rms_ms, m.stutter_max_ms),
            format!("{:.4} -> {:.4}", m.energy_start_j, m.energy_end_j),
            m.max_stretch,
            exploded,
            m.state_hash
        )?;
    }
    if let Some((w, h)) = cfg.draw {
        writeln!(out)?;
        writeln!(out, "off-screen drawing at {w}x{h} (real time per frame):")?;
        for m in &report.modes {
            if let (Some(mean), Some(max)) = (m.draw_ms_mean, m.draw_ms_max) {
                writeln!(out, "  {:<13}mean {mean:.3} ms, max {max:.3} ms", m.mode)?;
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "steps per frame (steps x frames):")?;
    for m in &report.modes {
        let mut hist: Vec<String> = m
            .steps_histogram
            .iter()
            .map(|(k, v)| format!("{k}x{v}"))
            .collect();
        if hist.len() > 12 {
            let more = hist.len() - 12;
            hist.truncate(12);
            hist.push(format!("... {more} more"));
        }
        writeln!(out, "  {:<13}{}", m.mode, hist.join("  "))?;
    }
    Ok(())
}

#[derive(Serialize)]
struct DumpMode<'a> {
    mode: &'a str,
    positions: Vec<[f32; 2]>,
}

#[derive(Serialize)]
struct Dump<'a> {
    modes: Vec<DumpMode<'a>>,
}

/// `--dump-state`: each mode's final positions, in metres from particle 0.
pub fn write_dump(out: &mut impl Write, runs: &[(ModeReport, Rope)]) -> io::Result<()> {
    let modes = runs
        .iter()
        .map(|(report, rope)| {
            let origin = rope.positions().next().unwrap_or_default();
            DumpMode {
                mode: &report.mode,
                positions: rope.positions().map(|p| (p - origin).to_array()).collect(),
            }
        })
        .collect();
    serde_json::to_writer(&mut *out, &Dump { modes }).map_err(io::Error::other)?;
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
