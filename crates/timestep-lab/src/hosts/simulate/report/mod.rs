//! What `simulate` prints: a table (`table.rs`), or one JSON object of the config and one
//! report per lane (`crate::model::lane::LaneReport`); and the `--dump-state` file.

mod table;

pub use table::{write_lane_tables, write_rope_bounds, write_table};

use super::vrr::Vrr;
use super::{LaneOutcome, Phase, SimConfig};
use crate::model::lane::LaneReport;
use crate::model::rope::{Integrator, RopeParams};
use serde::Serialize;
use std::io::{self, Write};
use timestep_loop::{MaxSubstep, TimingConfig, format_duration, seconds};

/// `simulate`'s settings, as the JSON states them: the loop's, the rope's and the display's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigReport {
    /// The loop's timing.
    #[serde(flatten)]
    pub looped: LoopConfigReport,
    /// The rope's parameters.
    #[serde(flatten)]
    pub rope: RopeReport,
    /// The refresh rate; on a `--vrr` panel, its maximum.
    pub display_hz: f64,
    /// Whether presents waited for a vblank.
    pub vsync: bool,
    /// The variable-refresh panel's range and its low-framerate compensation; null for a
    /// fixed rate (`--vrr`).
    pub vrr: Option<VrrReport>,
    /// Each timer reading is off by a uniform amount in ±this, s.
    pub jitter_s: f64,
    /// As given: "5ms", "5ms..25ms" (uniform) or "ramp:5ms..25ms".
    pub render_cost: String,
    /// Simulated CPU time per tick, s.
    pub step_cost_s: f64,
    /// How the loop paced frames, by name: vsync, cap:HZ, hold:HZ, adaptive or late.
    pub pacing: String,
    /// The simulated machine: "exact" (the default), a built-in machine's name, or a
    /// profile's path.
    pub machine: String,
    /// How the loop waited: native (the OS's sleep alone) or spin.
    pub sleep: String,
    /// Where the loop started after vblank 0: a duration, or "random".
    pub phase: String,
    /// Each stall as [when, how much longer], s.
    pub stalls: Vec<[f64; 2]>,
    /// Simulated wall time the run was set to last, s.
    pub seconds: f64,
    /// The seed of the timer's noise, the random phase and varying render costs.
    pub seed: u64,
    /// The off-screen drawing's size in pixels, e.g. "1280x720" (`--draw`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<String>,
}

/// A variable-refresh panel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VrrReport {
    pub min_hz: f64,
    pub max_hz: f64,
    /// The low-framerate compensation threshold: the ratio MAX / MIN from which LFC runs, or
    /// "off".
    pub lfc: String,
    /// Whether this panel has LFC (its MAX ≥ the ratio × its MIN).
    pub lfc_on: bool,
}

impl VrrReport {
    fn new(v: &Vrr) -> Self {
        VrrReport {
            min_hz: v.min_hz,
            max_hz: v.max_hz,
            lfc: v.lfc.to_string(),
            lfc_on: v.lfc_on(),
        }
    }
}

/// The textbook loop's timing: its tick, clamp, step cap and longest substep (`--dt`,
/// `--clamp`, `--max-steps`, `--max-substep`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoopConfigReport {
    /// The tick, s.
    pub dt_s: f64,
    /// The clamp, s (null: none).
    pub clamp_s: Option<f64>,
    /// The step cap: whole ticks past it in one frame are dropped (null: none).
    pub max_steps: Option<u32>,
    /// The longest substep a tick is integrated in: "default" (1 ms for presets), "off", or
    /// a duration.
    pub max_substep: String,
}

impl LoopConfigReport {
    /// The timing `timing` and substep rule `max_substep`, as the JSON states them.
    pub fn new(timing: &TimingConfig, max_substep: MaxSubstep) -> Self {
        LoopConfigReport {
            dt_s: seconds(timing.tick_ns()),
            clamp_s: timing.clamp_ns().map(seconds),
            max_steps: timing.max_steps(),
            max_substep: match max_substep {
                MaxSubstep::Default => "default".into(),
                MaxSubstep::Off => "off".into(),
                MaxSubstep::Set(ns) => format_duration(ns),
            },
        }
    }
}

/// The rope's parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RopeReport {
    /// Particles in the rope.
    pub particles: usize,
    /// Each particle's mass, kg.
    pub particle_mass_kg: f64,
    /// Each spring's Hooke constant, N/m.
    pub stiffness_n_per_m: f64,
    /// Damping along each spring, N·s/m.
    pub spring_damping_n_s_per_m: f64,
    /// Each spring's length at rest, m.
    pub rest_length_m: f64,
    /// Gravity's acceleration, m/s² (downward).
    pub gravity_m_per_s2: f64,
    /// Per-particle drag, 1/s.
    pub damping_per_s: f64,
    /// Which ends are pinned: "one" or "both".
    pub pin: String,
    /// How the pinned end moved, as typed: "off", "sway:6s", "circle:3s" (judder is
    /// measured only with a drive).
    pub drive: String,
    /// The integrator's name, and the longest step it can take without the rope's fastest mode
    /// growing (computed from the parameters, see `RopeParams::stability_limit_s`): what
    /// variable mode can integrate. A lane with its own integrator reports its own.
    #[serde(serialize_with = "crate::model::lane::as_text")]
    pub integrator: Integrator,
    /// The longest step the rope's integrator can take on it without diverging, s.
    pub stable_below_s: f64,
}

impl RopeReport {
    /// The report of rope parameters `r`.
    pub fn new(r: &RopeParams) -> Self {
        RopeReport {
            particles: r.particles,
            particle_mass_kg: f64_of(r.particle_mass_kg),
            stiffness_n_per_m: f64_of(r.stiffness_n_per_m),
            spring_damping_n_s_per_m: f64_of(r.spring_damping_n_s_per_m),
            rest_length_m: f64_of(r.rest_length_m),
            gravity_m_per_s2: f64_of(r.gravity_m_per_s2),
            damping_per_s: f64_of(r.damping_per_s),
            pin: r.pin.name().to_string(),
            drive: r.drive.to_string(),
            integrator: r.integrator,
            stable_below_s: r.stability_limit_s(),
        }
    }
}

/// A simulation's whole report, as one JSON object (what `--json` prints).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The slowest refresh rate the panel holds, Hz.
    pub config: ConfigReport,
    /// The fastest refresh rate the panel holds, Hz.
    pub lanes: Vec<LaneReport>,
    /// Stopped by Ctrl-C at a frame boundary: the figures cover what ran.
    pub interrupted: bool,
    /// How far the run got, seconds of simulated wall time: the last present of the lane
    /// that got least far (where Ctrl-C stopped it, or the run's last frame).
    pub simulated_s: f64,
    /// Lanes an interrupted run never started (lanes too big to run together run one at a
    /// time).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lanes_not_run: Vec<String>,
}

impl Report {
    /// The report of a run that reached `simulated_ns` (its lanes' last present).
    pub fn new(cfg: &SimConfig, lanes: Vec<LaneReport>, simulated_ns: u64) -> Self {
        Report {
            config: ConfigReport::new(cfg),
            lanes,
            interrupted: false,
            simulated_s: seconds(simulated_ns),
            lanes_not_run: Vec::new(),
        }
    }

    /// Marks the report as that of a run stopped early, with `not_run` never started.
    pub fn interrupted(self, not_run: Vec<String>) -> Self {
        Report {
            interrupted: true,
            lanes_not_run: not_run,
            ..self
        }
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

impl ConfigReport {
    /// The run's settings, as the JSON states them.
    pub fn new(cfg: &SimConfig) -> Self {
        let d = &cfg.display;
        let s = seconds;
        ConfigReport {
            looped: LoopConfigReport::new(&cfg.timing, cfg.max_substep),
            rope: RopeReport::new(&cfg.rope),
            display_hz: d.display_hz,
            vsync: d.vsync,
            vrr: d.vrr.as_ref().map(VrrReport::new),
            jitter_s: s(d.jitter_ns),
            render_cost: d.render_cost.to_string(),
            step_cost_s: s(d.step_cost_ns),
            pacing: d.pacing.to_string(),
            machine: d.machine.to_string(),
            sleep: d.sleep.to_string(),
            phase: match d.phase {
                Phase::At(ns) => format_duration(ns),
                Phase::Random => "random".into(),
            },
            stalls: d
                .stalls
                .iter()
                .map(|st| [s(st.at_ns), s(st.duration_ns)])
                .collect(),
            seconds: s(d.duration_ns),
            seed: d.seed,
            draw: cfg.draw.map(|(w, h)| format!("{w}x{h}")),
        }
    }
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

/// Writes each lane's final positions, in metres from particle 0 (what `--dump-state` writes).
pub fn write_dump(out: &mut impl Write, lanes: &[LaneOutcome]) -> io::Result<()> {
    let lanes = lanes
        .iter()
        .map(|l| {
            let positions = l.positions.as_deref().unwrap_or_default();
            let origin = positions.first().copied().unwrap_or_default();
            DumpLane {
                lane: &l.report.lane,
                positions: positions.iter().map(|&p| (p - origin).to_array()).collect(),
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
