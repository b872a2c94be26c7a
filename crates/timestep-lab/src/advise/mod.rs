//! `timestep-rope advise`: the answer for one situation. Every loop that could be chosen (the
//! modes, the timers, the presets and their options, under each pacing worth trying) runs on the
//! situation through the runner `simulate` and `replay` use; the lanes that did not hold (their
//! report's `state` is not ok) are dropped, and the rest are ranked by one rule ([`RULE`]) over
//! their measured figures. `output.rs` writes the verdict; `engines.rs` says how to get it in an
//! engine.

mod engines;
mod output;

pub use engines::{Engine, Knob, SETTINGS, Setting};
pub use output::{Advice, Ranked};

use crate::lane::{LaneReport, LaneSpec};
use crate::messages::{self, PrintFailed};
use crate::replay::CaptureError;
use crate::replay::{ReplayConfig, ReplayError};
use crate::simulate::{Controls, FrameRecord, SimConfig};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use timestep_loop::{Mode, Pacing, format_duration, millis};

/// The ranking rule, as `advise` prints it under the ranking and docs/REFERENCE.md states it.
pub const RULE: &str = "Lanes that exploded, fell behind or stepped past the rope's stable \
                        step are dropped. The rest are ranked by stutter rms in whole quarter \
                        milliseconds (smoothness first), then deterministic before not (fixed \
                        ticks give the same results on every display), then mean input latency \
                        in whole milliseconds, then CPU spent spinning in whole percent of a \
                        core; what is still tied keeps the order tried.";

/// Stutter is compared in steps of this many ms (differences below it are not seen).
pub const STUTTER_STEP_MS: f64 = 0.25;
/// Latency is compared in steps of this many ms.
pub const LATENCY_STEP_MS: f64 = 1.0;
/// Spinning is compared in steps of this many percent of a core.
pub const SPIN_STEP_PERCENT: f64 = 1.0;

/// Display rates a steady pacing (`hold:`, `cap:`) is tried at on a variable-refresh panel: the
/// highest in the panel's range whose period holds the longest render.
pub const STEADY_RATES: [f64; 14] = [
    240.0, 165.0, 144.0, 120.0, 100.0, 90.0, 75.0, 72.0, 60.0, 50.0, 48.0, 40.0, 30.0, 24.0,
];

/// What `advise` runs on.
#[derive(Clone, Debug)]
pub enum Situation {
    /// A simulated display: `sim.lanes` are the candidates; each of `pacings` is tried.
    Display {
        /// The simulated run: its display, machine, rope and candidate lanes.
        sim: Box<SimConfig>,
        /// The pacings each lane is tried under.
        pacings: Vec<Pacing>,
    },
    /// A real capture: its lanes are the candidates; the capture fixes the pacing.
    Capture(ReplayConfig),
}

impl Situation {
    /// Every assumption the verdict rests on, in lines of prose: the display or the capture,
    /// then the tick the textbook modes step (which `advise` does not choose: `--dt` does).
    pub fn assumptions(&self) -> Vec<String> {
        let (first, timing) = match self {
            Situation::Display { sim, pacings } => {
                let d = &sim.display;
                let panel = match d.vrr {
                    Some(vrr) => vrr.to_string(),
                    None => format!("{} Hz display", d.display_hz),
                };
                let tried: Vec<String> = pacings.iter().map(|p| pacing_name(*p, d.vsync)).collect();
                let line = format!(
                    "Situation: {panel}, vsync {}; each frame renders in {}, each tick costs {}; \
                     timer jitter ±{}; machine {} (sleep {}); {} s per loop; pacings tried: {}",
                    if d.vsync { "on" } else { "off" },
                    d.render_cost,
                    format_duration(d.step_cost_ns),
                    format_duration(d.jitter_ns),
                    d.machine,
                    d.sleep,
                    millis(d.duration_ns) / 1e3,
                    tried.join(", ")
                );
                (line, &sim.timing)
            }
            Situation::Capture(cfg) => (
                format!(
                    "Situation: the capture {}, its own frame times and pacing",
                    messages::shown(&cfg.capture.display().to_string())
                ),
                &cfg.timing,
            ),
        };
        let tick = format!(
            "Tick: the textbook modes (fixed, interpolated, ...) step {} ticks (--dt sets it; \
             advise does not choose the tick); each preset steps its engine's default tick.",
            format_duration(timing.tick_ns())
        );
        vec![first, tick]
    }
}

/// Everything one `advise` run needs, validated.
#[derive(Clone, Debug)]
pub struct AdviseConfig {
    /// The display or capture the candidates are run on.
    pub situation: Situation,
    /// The engine the user ships on (None: any loop, built with our crate).
    pub engine: Option<Engine>,
    /// The situation as the flags that give it, for the header.
    pub flags: String,
    /// Whether the verdict is one JSON object rather than a screen of text.
    pub json: bool,
}

/// One lane under one pacing, as measured.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The lane, as named.
    pub spec: LaneSpec,
    /// The pacing's name ([`pacing_name`]: vsync, none, cap:HZ, ...; "as captured" on a
    /// capture).
    pub pacing: String,
    /// What the lane did under that pacing.
    pub report: LaneReport,
    /// CPU time its waits spent spinning, percent of one core over the run.
    pub spin_percent: f64,
}

/// The key the rule sorts by, smallest first, each figure in its step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    /// Its stutter (rms), in whole steps of [`STUTTER_STEP_MS`].
    pub stutter_steps: u64,
    /// Whether the lane's results depend on the display (it does not step whole fixed ticks).
    pub not_deterministic: bool,
    /// Its mean input latency, in whole steps of [`LATENCY_STEP_MS`] (`u64::MAX`: nothing shown).
    pub latency_steps: u64,
    /// Its CPU time spent spinning, in whole steps of [`SPIN_STEP_PERCENT`].
    pub spin_steps: u64,
}

impl Measured {
    /// Whether the lane's results are the same on every display: it steps whole fixed ticks
    /// (fixed or interpolated, as every preset does).
    pub fn deterministic(&self) -> bool {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == self.report.mode)
            .is_some_and(Mode::accumulates)
    }

    /// Mean input latency, ms (None: nothing was shown).
    pub fn latency_ms(&self) -> Option<f64> {
        self.report.latency_ms.as_ref().map(|l| l.mean)
    }

    /// Its place under [`RULE`].
    pub fn key(&self) -> Key {
        let steps = |v: f64, step: f64| (v / step).floor().max(0.0) as u64;
        Key {
            stutter_steps: steps(self.report.shown.stutter_rms_ms, STUTTER_STEP_MS),
            not_deterministic: !self.deterministic(),
            latency_steps: self
                .latency_ms()
                .map_or(u64::MAX, |l| steps(l, LATENCY_STEP_MS)),
            spin_steps: steps(self.spin_percent, SPIN_STEP_PERCENT),
        }
    }
}

/// The candidates `engine` can run (all of them for our own crate): its preset as shipped and
/// with each option its settings reach.
pub fn candidates(engine: Option<Engine>) -> Vec<LaneSpec> {
    let names: &[&str] = match engine {
        Some(Engine::Godot) => &[
            "godot",
            "godot+interpolated",
            "godot+jitter=0",
            "godot+interpolated+jitter=0",
        ],
        Some(Engine::Bevy) => &["bevy", "bevy+interpolated"],
        Some(Engine::Unity) => &["unity", "unity+interpolated"],
        Some(Engine::MonoGame) => &["monogame"],
        Some(Engine::Custom) | None => &[
            "modes",
            "fixed+snap",
            "fixed+smooth",
            "fixed+fuzzy",
            "fixed+fuzzy59",
            "interpolated+snap",
            "interpolated+smooth",
            "interpolated+fuzzy",
            "presets",
            "godot+interpolated",
            "bevy+interpolated",
            "unity+interpolated",
            "game-loop+interpolated",
        ],
    };
    let list = names.join(",");
    crate::lane::parse_lanes(&list).unwrap_or_default()
}

/// The pacings tried on `display`: the one given, and on a variable-refresh panel the steady
/// ones (`cap:` and, for our own crate, `hold:`) at the highest of [`STEADY_RATES`] in the
/// panel's range whose period holds the longest render, if one does.
pub fn pacings(
    given: Pacing,
    display: &crate::simulate::DisplayConfig,
    engine: Option<Engine>,
) -> Vec<Pacing> {
    let mut out = vec![given];
    let Some(vrr) = display.vrr else {
        return out;
    };
    let longest_ns = display.render_cost.max_ns() + display.step_cost_ns;
    let steady = STEADY_RATES
        .into_iter()
        .find(|&hz| hz >= vrr.min_hz && hz <= vrr.max_hz && 1e9 / hz >= longest_ns as f64);
    if let Some(hz) = steady {
        for pacing in [Pacing::Cap(hz), Pacing::Hold(hz)] {
            let reachable = engine.is_none_or(|e| e.paces(pacing));
            if reachable && !out.contains(&pacing) {
                out.push(pacing);
            }
        }
    }
    out
}

/// A capture shorter than this many displayed frames, or than [`SHORT_CAPTURE_S`], is too short
/// for a verdict (two seconds of a 60 Hz display).
pub const SHORT_CAPTURE_FRAMES: u64 = 120;
/// A capture spanning less than this many seconds is too short for a verdict.
pub const SHORT_CAPTURE_S: f64 = 1.0;

/// What a capture's verdict must be read with, one line each: that it is too short, and that its
/// format records no CPU start (its loops' clocks then read a later time, and latency counts
/// from it).
pub fn capture_caveats(summary: &crate::replay::CaptureSummary) -> Vec<String> {
    let mut out: Vec<String> = too_short(summary.displayed, summary.span_s, "capture longer")
        .into_iter()
        .collect();
    if !matches!(summary.clock_reads, "CPU start time" | "frame start") {
        out.push(format!(
            "Warning: a {} capture has no CPU start time: the loops' clocks read the {}, so \
             latency leaves out each frame's time from its start to it, and the figures (even the order) can differ \
             from a capture of the same run with CPU start times (PresentMon 2.x).",
            summary.format, summary.clock_reads
        ));
    }
    out
}

/// The warning for a verdict from `frames` shown over `span_s` seconds, when they are fewer than
/// [`SHORT_CAPTURE_FRAMES`] or shorter than [`SHORT_CAPTURE_S`]; `remedy` says how to get more.
fn too_short(frames: u64, span_s: f64, remedy: &str) -> Option<String> {
    (frames < SHORT_CAPTURE_FRAMES || span_s < SHORT_CAPTURE_S).then(|| {
        format!(
            "Warning: too short for a verdict: {frames} frames displayed over {span_s:.3} s (a \
             verdict wants at least {SHORT_CAPTURE_FRAMES} and {SHORT_CAPTURE_S} s); {remedy}."
        )
    })
}

/// The shortest run, s, in which a display refreshing at most `hz` times a second, paced by
/// `pacing`, showing frames that each take at least `frame_ns`, can show
/// [`SHORT_CAPTURE_FRAMES`] frames and last [`SHORT_CAPTURE_S`]: what a verdict on a simulated
/// display needs at least. Rounded up to a whole millisecond, as a command line gives it, so
/// every line that names it (the refusal, the verdict line, the estimate) names the same.
pub fn shortest_run_s(hz: f64, frame_ns: u64, pacing: Pacing) -> f64 {
    let s = (SHORT_CAPTURE_FRAMES as f64 / fastest_fps(hz, frame_ns, pacing)).max(SHORT_CAPTURE_S);
    (s * 1e3).ceil() / 1e3
}

/// The most frames a second a display refreshing at most `hz` times a second shows of frames
/// that each take at least `frame_ns`, paced by `pacing` (a cap or a hold starts them no faster
/// than its rate).
pub fn fastest_fps(hz: f64, frame_ns: u64, pacing: Pacing) -> f64 {
    let rendered = match frame_ns {
        0 => hz,
        ns => hz.min(1e9 / ns as f64),
    };
    match pacing {
        Pacing::Cap(rate) | Pacing::Hold(rate) => rendered.min(rate),
        _ => rendered,
    }
}

/// The warning for a simulated run in which some loop that held showed too few frames (a slow
/// render, a stall): the fewest any showed, over the run's length. A run as long as
/// [`shortest_run_s`] shows one frame fewer than its refreshes (the last is still in flight when
/// it ends), which is not too few.
fn simulated_caveats(measured: &[Measured], run_s: f64) -> Vec<String> {
    let fewest = measured
        .iter()
        .filter(|m| m.report.state.is_ok())
        .map(|m| m.report.shown.frames)
        .min()
        .filter(|&frames| frames + 1 < SHORT_CAPTURE_FRAMES || run_s < SHORT_CAPTURE_S);
    fewest
        .and_then(|frames| too_short(frames, run_s, "run longer (--seconds)"))
        .into_iter()
        .collect()
}

/// Runs every candidate on the situation (the runner `simulate` and `replay` use); with what the
/// verdict must be read with ([`capture_caveats`]).
pub fn measure(situation: &Situation) -> Result<(Vec<Measured>, Vec<String>), AdviseError> {
    measure_with(situation, &mut Watching::default())
}

/// What a progress bar is handed of each frame: the index of the pacing it ran under, and the
/// frame.
pub type OnFrame<'a> = dyn FnMut(usize, &FrameRecord) + 'a;

/// What watches `advise`'s runs on a simulated display: each frame, with the index of the
/// pacing it ran under (in [`Situation::Display`]'s `pacings`), for a progress bar; and a flag
/// that, once set, stops them (Ctrl-C), with no verdict.
#[derive(Default)]
pub struct Watching<'a> {
    /// Handed each frame.
    pub frame: Option<&'a mut OnFrame<'a>>,
    /// Checked at every frame: once set, the runs stop and [`AdviseError::Interrupted`].
    pub stop: Option<&'a AtomicBool>,
}

/// [`measure`], watched by `watching`.
pub fn measure_with(
    situation: &Situation,
    watching: &mut Watching<'_>,
) -> Result<(Vec<Measured>, Vec<String>), AdviseError> {
    match situation {
        Situation::Display { sim, pacings } => {
            let mut out = Vec::new();
            for (k, &pacing) in pacings.iter().enumerate() {
                let mut sim = SimConfig::clone(sim);
                sim.display.pacing = pacing;
                let controls = Controls {
                    stop: watching.stop,
                    ..Controls::default()
                };
                let frame = &mut watching.frame;
                let outcome = crate::simulate::run_with(&sim, controls, |f| {
                    if let Some(frame) = frame.as_mut() {
                        frame(k, f);
                    }
                })
                .map_err(AdviseError::Lanes)?;
                if watching.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return Err(AdviseError::Interrupted);
                }
                let run_ms = millis(sim.display.duration_ns).max(f64::MIN_POSITIVE);
                let named = pacing_name(pacing, sim.display.vsync);
                for (spec, lane) in sim.lanes.iter().zip(outcome.lanes) {
                    let spun = lane.report.pacing.spin_cpu_ms.unwrap_or(0.0);
                    out.push(Measured {
                        spec: *spec,
                        pacing: named.clone(),
                        report: lane.report,
                        spin_percent: 100.0 * spun / run_ms,
                    });
                }
            }
            let caveats = simulated_caveats(&out, millis(sim.display.duration_ns) / 1e3);
            Ok((out, caveats))
        }
        Situation::Capture(cfg) => {
            let path = &cfg.capture;
            let (selection, summary) =
                crate::replay::open(path, cfg.app.as_deref(), cfg.swapchain.as_deref())
                    .map_err(AdviseError::Capture)?;
            let reports = crate::replay::run(cfg, &selection, &summary).map_err(|e| match e {
                ReplayError::Capture(e) => AdviseError::Capture(e),
                ReplayError::Loop(e) => AdviseError::Lanes(e),
            })?;
            let measured = cfg
                .lanes
                .iter()
                .zip(reports)
                .map(|(spec, report)| Measured {
                    spec: *spec,
                    pacing: AS_CAPTURED.into(),
                    report,
                    spin_percent: 0.0,
                })
                .collect();
            Ok((measured, capture_caveats(&summary)))
        }
    }
}

/// The pacing of every loop on a capture: the captured game's own.
pub const AS_CAPTURED: &str = "as captured";

/// `pacing` as the verdict names it: `vsync` with vsync off paces nothing ("none").
pub fn pacing_name(pacing: Pacing, vsync: bool) -> String {
    match pacing {
        Pacing::Vsync if !vsync => "none".into(),
        pacing => pacing.to_string(),
    }
}

/// The lanes that held, best first by [`RULE`], and the ones dropped, in the order tried.
pub fn rank(measured: Vec<Measured>) -> (Vec<Measured>, Vec<Measured>) {
    let (mut held, dropped): (Vec<Measured>, Vec<Measured>) =
        measured.into_iter().partition(|m| m.report.state.is_ok());
    // A stable sort: ties keep the order tried.
    held.sort_by_key(Measured::key);
    (held, dropped)
}

/// Why `advise` gave no verdict.
#[derive(Debug, thiserror::Error)]
pub enum AdviseError {
    /// A candidate's loop that cannot run (bad input).
    #[error("--lanes: {0}")]
    Lanes(#[source] timestep_loop::ConfigError),
    /// The capture cannot be read (bad input).
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// The verdict could not be written (the machine's failure).
    #[error(transparent)]
    Print(#[from] PrintFailed),
    /// Stopped (Ctrl-C) before every candidate ran its time: no verdict.
    #[error("interrupted before every loop ran its time: no verdict")]
    Interrupted,
}

/// Runs `advise`: measures, ranks and prints the verdict.
pub fn main(cfg: &AdviseConfig) -> Result<ExitCode, AdviseError> {
    main_with(cfg, &mut Watching::default())
}

/// [`main`], its runs watched by `watching` as [`measure_with`]'s are.
pub fn main_with(cfg: &AdviseConfig, watching: &mut Watching<'_>) -> Result<ExitCode, AdviseError> {
    let (measured, caveats) = measure_with(&cfg.situation, watching)?;
    let (held, dropped) = rank(measured);
    let mut advice = Advice::new(cfg, &held, &dropped);
    advice.caveats = caveats;
    messages::print("the advice", |out| {
        if cfg.json {
            advice.write_json(out)
        } else {
            crate::fit::write_fitted(out, false, |text| advice.write_text(text))
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_run_is_named_in_whole_milliseconds_everywhere() {
        // 120 frames at 90 Hz are 1.3333... s: the estimate line printed that many digits
        // where the refusal said 1.334; both now take the one rounded value.
        assert_eq!(shortest_run_s(90.0, 0, Pacing::Vsync), 1.334);
        assert_eq!(shortest_run_s(60.0, 0, Pacing::Cap(45.0)), 2.667);
        assert_eq!(shortest_run_s(60.0, 0, Pacing::Vsync), 2.0);
        assert_eq!(shortest_run_s(240.0, 0, Pacing::Vsync), SHORT_CAPTURE_S);
        assert_eq!(shortest_run_s(144.0, 50_000_000, Pacing::Vsync), 6.0);
    }
}
