//! `timestep-rope advise`: the answer for one situation. Every loop that could be chosen (the
//! modes, the timers, the presets and their options, under each pacing worth trying) runs on the
//! situation through the runner `simulate` and `replay` use; the lanes that did not hold (their
//! report's `state` is not ok) are dropped, and the rest are ranked by one rule ([`RULE`]) over
//! their measured figures. `output.rs` writes the verdict; `engines.rs` says how to get it in an
//! engine.

mod candidates;
mod engines;
mod output;

pub use candidates::{Candidate, candidates};
pub use engines::{Engine, Knob, SETTINGS, Setting};
pub use output::{Advice, Ranked};

use crate::hosts::replay::CaptureError;
use crate::hosts::replay::{ReplayConfig, ReplayError};
use crate::hosts::simulate::{Controls, FrameRecord, SimConfig};
use crate::model::lane::{LaneReport, LaneSpec};
use crate::util::quote;
use std::sync::atomic::{AtomicBool, Ordering};
use timestep_loop::{
    MaxSubstep, Mode, Pacing, PolicyEnv, Tick, TimingConfig, format_duration, millis,
};

/// The ranking rule, as `advise` prints it under the ranking and docs/REFERENCE.md states it.
pub const RULE: &str = "Lanes that exploded, fell behind or stepped past the rope's stable \
                        step are dropped. The rest are ranked by stutter rms in whole quarter \
                        milliseconds (smoothness first), then deterministic before not (fixed \
                        ticks give the same results on every display), then mean input latency \
                        in whole milliseconds, then frames shown a second, more first, to the \
                        nearest 5, then CPU in whole percent of a core, its ticks at \
                        --step-cost each and its waits' spinning; what is still tied keeps the \
                        order tried.";

/// Stutter is compared in steps of this many ms (differences below it are not seen).
pub const STUTTER_STEP_MS: f64 = 0.25;
/// Latency is compared in steps of this many ms.
pub const LATENCY_STEP_MS: f64 = 1.0;
/// Frames shown a second are compared to the nearest this many (a loop that waits for a 30 Hz
/// tick shows half a 60 Hz display's frames; 59.95 and 60 are the same).
pub const FPS_STEP: f64 = 5.0;
/// CPU (ticking and spinning) is compared in steps of this many percent of a core.
pub const CPU_STEP_PERCENT: f64 = 1.0;

/// The tick `advise` answers for when `--dt` gives none, Hz: the rate games tick at (Godot's
/// `physics_ticks_per_second`, game-loop's README and MonoGame's `TargetElapsedTime` ship
/// with it).
pub const GAME_TICK_HZ: u64 = 60;

/// The ticks `--dt auto` ranks, Hz, besides the display's own rate.
pub const AUTO_TICKS_HZ: [u64; 4] = [30, 50, 60, 120];

/// The tick `advise` answers for when `--dt` gives none ([`GAME_TICK_HZ`]).
pub fn game_tick() -> Tick {
    Tick::per_second(GAME_TICK_HZ).unwrap_or(Tick::from_ns(16_666_667))
}

/// The ticks `--dt auto` tries, shortest last: [`AUTO_TICKS_HZ`] and `display_hz` (to a
/// thousandth of a hertz, as `--display-hz` takes it), each once.
pub fn auto_ticks(display_hz: Option<f64>) -> Vec<Tick> {
    let whole = AUTO_TICKS_HZ.iter().filter_map(|&hz| Tick::per_second(hz));
    let display = display_hz.and_then(|hz| Tick::from_rate((hz * 1e3).round() as u128, 1000));
    let mut ticks: Vec<Tick> = whole.chain(display).collect();
    ticks.sort_by(|a, b| b.seconds().total_cmp(&a.seconds()));
    ticks.dedup();
    ticks
}

/// How close a preset's own tick must be to the asked one to keep it, ns: an engine's units
/// (MonoGame's 100 ns `TimeSpan` ticks) cannot name 1/60 s closer.
pub const OWN_TICK_WITHIN_NS: u64 = 1_000;

/// `lanes` at `tick`: a preset not given a tick of its own (`+tick=`) takes it, unless its own
/// default is within [`OWN_TICK_WITHIN_NS`] of it; one whose engine counts whole ticks a second
/// (Godot, game-loop) is left out at a tick that is not one. A textbook mode ticks at its run's
/// `--dt`.
pub fn at_tick(lanes: &[LaneSpec], tick: Tick) -> Vec<LaneSpec> {
    let whole_hz = whole_hz(tick).is_some();
    lanes
        .iter()
        .filter_map(|lane| {
            let looped = lane.looped;
            let preset = match looped.base() {
                timestep_loop::Base::Preset(p) if looped.tick().is_none() => p,
                _ => return Some(*lane),
            };
            let own = looped.policy(&PolicyEnv::default()).ok()?.timing.tick_ns();
            if own.abs_diff(tick.ns()) <= OWN_TICK_WITHIN_NS {
                return Some(*lane);
            }
            let counts_whole = matches!(
                preset,
                timestep_loop::Preset::Godot | timestep_loop::Preset::GameLoop
            );
            if counts_whole && !whole_hz {
                return None;
            }
            looped.with_tick(tick).ok().map(|l| lane.with_loop(l))
        })
        .collect()
}

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
    /// The candidates, as given.
    fn lanes(&self) -> &[LaneSpec] {
        match self {
            Situation::Display { sim, .. } => &sim.lanes,
            Situation::Capture(cfg) => &cfg.lanes,
        }
    }

    /// The longest step the rope is integrated in, as every candidate is.
    fn max_substep(&self) -> MaxSubstep {
        match self {
            Situation::Display { sim, .. } => sim.max_substep,
            Situation::Capture(cfg) => cfg.max_substep,
        }
    }

    /// The rope the candidates step.
    fn rope(&self) -> &crate::model::rope::RopeParams {
        match self {
            Situation::Display { sim, .. } => &sim.rope,
            Situation::Capture(cfg) => &cfg.rope,
        }
    }

    /// The display or the capture, in one line of prose.
    fn described(&self) -> String {
        match self {
            Situation::Display { sim, pacings } => {
                let d = &sim.display;
                let panel = match d.vrr {
                    Some(vrr) => vrr.to_string(),
                    None => format!("{} Hz display", d.display_hz),
                };
                let tried: Vec<String> = pacings
                    .iter()
                    .map(|p| Paced::new(*p, d.vsync).to_string())
                    .collect();
                format!(
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
                )
            }
            Situation::Capture(cfg) => format!(
                "Situation: the capture {}, its own frame times and pacing",
                quote::shown(&cfg.capture.display().to_string())
            ),
        }
    }
}

/// Which ticks `advise` answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticks {
    /// `--dt` not given: the tick games run ([`GAME_TICK_HZ`]).
    Game,
    /// `--dt`'s.
    Given(Tick),
    /// `--dt auto`: each of [`auto_ticks`], ranked together.
    Auto,
}

impl Ticks {
    /// The ticks tried, on a display of `display_hz` (if known).
    pub fn tried(self, display_hz: Option<f64>) -> Vec<Tick> {
        match self {
            Ticks::Game => vec![game_tick()],
            Ticks::Given(tick) => vec![tick],
            Ticks::Auto => auto_ticks(display_hz),
        }
    }
}

/// Everything one `advise` run needs, validated.
#[derive(Clone, Debug)]
pub struct AdviseConfig {
    /// The display or capture the candidates are run on.
    pub situation: Situation,
    /// Which ticks it answers for.
    pub ticks: Ticks,
    /// The textbook timing at each tick tried ([`Ticks::tried`]), its clamp and step cap.
    pub timings: Vec<TimingConfig>,
    /// The engine the user ships on (None: any loop, built with our crate).
    pub engine: Option<Engine>,
    /// The situation as the flags that give it, for the header.
    pub flags: String,
    /// The command that runs one loop alone on the same situation, but for the loop's own
    /// flags (`simulate` and the display's flags, or `replay CAPTURE` and the frames it
    /// takes): a pick's check line adds `--lanes`, `--dt`, `--max-substep`, `--pacing` and
    /// `--seconds`.
    pub check: Vec<String>,
    /// Whether the verdict is one JSON object rather than a screen of text.
    pub json: bool,
}

impl AdviseConfig {
    /// Every assumption the verdict rests on, in lines of prose: the display or the capture,
    /// then the tick and how the rope is integrated.
    pub fn assumptions(&self) -> Vec<String> {
        vec![self.situation.described(), self.tick_line()]
    }

    /// The tick (or ticks) every loop runs, and the substeps the rope is integrated in.
    fn tick_line(&self) -> String {
        let tick = tick_name(self.timings.first().map_or(game_tick(), TimingConfig::tick));
        let which = match self.ticks {
            Ticks::Game => format!(
                "Tick: every loop ticks at {tick}, the rate games tick at, a preset within a \
                 microsecond of it at its own: --dt sets another, and --dt auto ranks {} Hz \
                 and the display's rate",
                rates_text()
            ),
            Ticks::Given(_) => format!(
                "Tick: every loop ticks at {tick} (--dt), a preset within a microsecond of it \
                 at its own"
            ),
            Ticks::Auto => {
                let all: Vec<String> = self.timings.iter().map(|t| tick_name(t.tick())).collect();
                format!(
                    "Ticks: every loop is tried at {} (--dt auto), and all are ranked together",
                    all.join(", ")
                )
            }
        };
        let rope = self.situation.rope();
        let stable = match rope.stability_limit_for(rope.integrator) {
            s if s.is_finite() => format!("{:.2} ms", s * 1e3),
            _ => "unbounded".into(),
        };
        let stable = format!("its stable step is {stable} with {}", rope.integrator);
        let integrated = match self.situation.max_substep() {
            MaxSubstep::Set(ns) => format!(
                "the rope is integrated in substeps of at most {}, as a game's physics \
                 substeps; {stable}",
                format_duration(ns)
            ),
            MaxSubstep::Off => format!("the rope is integrated a whole tick a step; {stable}"),
            MaxSubstep::Default => format!(
                "presets integrate the rope in substeps of at most {}, modes a whole tick a \
                 step; {stable}",
                format_duration(timestep_loop::DEFAULT_MAX_SUBSTEP_NS)
            ),
        };
        format!("{which}; {integrated}.")
    }

    /// Every run `advise` makes: the candidates at each tick, under each pacing.
    pub fn runs(&self) -> Vec<Run> {
        let pacings: Vec<Option<Pacing>> = match &self.situation {
            Situation::Display { pacings, .. } => pacings.iter().copied().map(Some).collect(),
            Situation::Capture(_) => vec![None],
        };
        let mut runs = Vec::new();
        for (k, timing) in self.timings.iter().enumerate() {
            let mut lanes = at_tick(self.situation.lanes(), timing.tick());
            // Variable steps take each frame's time whatever the tick: one run of them is
            // enough.
            if k > 0 {
                lanes.retain(|l| l.looped.textbook_mode() != Some(Mode::Variable));
            }
            for &pacing in &pacings {
                runs.push(Run {
                    timing: *timing,
                    pacing,
                    lanes: lanes.clone(),
                });
            }
        }
        runs
    }
}

/// The rate of `tick`, Hz, if a second holds a whole number of them.
fn whole_hz(tick: Tick) -> Option<u64> {
    let second = u128::from(timestep_loop::NS_PER_S) * u128::from(tick.den());
    let num = u128::from(tick.num());
    (num > 0 && second % num == 0).then(|| u64::try_from(second / num).ok())?
}

/// A tick as `advise` names it: by its rate where a second holds a whole number of them, under
/// 1,000 (`50hz`, though `--dt 20ms` gave it), else as `--dt` takes it.
pub fn tick_name(tick: Tick) -> String {
    match whole_hz(tick) {
        Some(hz) if hz < 1_000 => format!("{hz}hz"),
        _ => tick.to_string(),
    }
}

/// [`AUTO_TICKS_HZ`] as prose: "30, 50, 60, 120".
fn rates_text() -> String {
    let rates: Vec<String> = AUTO_TICKS_HZ.iter().map(u64::to_string).collect();
    rates.join(", ")
}

/// One run of candidates: at one tick, under one pacing (a capture's own on a capture).
#[derive(Clone, Debug)]
pub struct Run {
    /// The textbook modes' timing (a preset's tick is in its spec).
    pub timing: TimingConfig,
    /// The pacing, on a simulated display.
    pub pacing: Option<Pacing>,
    /// The candidates.
    pub lanes: Vec<LaneSpec>,
}

/// One lane under one pacing, as measured.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The lane, as named.
    pub spec: LaneSpec,
    /// The run it was measured in (an index into [`AdviseConfig::runs`]).
    pub run: usize,
    /// The tick it stepped: its own (`+tick=`, or a preset's default kept by [`at_tick`]), else
    /// its run's; `None` for variable steps, which take each frame's time.
    pub tick: Option<Tick>,
    /// The pacing it ran under.
    pub pacing: Paced,
    /// What the lane did under that pacing.
    pub report: LaneReport,
    /// CPU time its waits spent spinning, percent of one core over the run.
    pub spin_percent: f64,
    /// CPU time its ticks took at the situation's cost per tick, percent of one core.
    pub tick_percent: f64,
    /// Whether it held when run alone, as its check line runs it (None: not checked).
    pub checked: Option<bool>,
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
    /// Frames it showed a second, to the nearest [`FPS_STEP`], more first.
    pub fps_steps: std::cmp::Reverse<u64>,
    /// Its CPU time, ticking and spinning, in whole steps of [`CPU_STEP_PERCENT`].
    pub cpu_steps: u64,
}

impl Measured {
    /// `spec`, measured in `run` (the `k`th) under `pacing`, its CPU not yet counted.
    fn new(spec: LaneSpec, run: &Run, k: usize, pacing: Paced, report: LaneReport) -> Measured {
        Measured {
            spec,
            run: k,
            tick: tick_of(spec, run.timing.tick()),
            pacing,
            report,
            spin_percent: 0.0,
            tick_percent: 0.0,
            checked: None,
        }
    }

    /// Whether the lane's results are the same on every display: it steps whole fixed ticks
    /// (fixed or interpolated, as every preset does).
    pub fn deterministic(&self) -> bool {
        self.report.mode.accumulates()
    }

    /// Mean input latency, ms (None: nothing was shown).
    pub fn latency_ms(&self) -> Option<f64> {
        self.report.latency_ms.as_ref().map(|l| l.mean)
    }

    /// CPU time, ticking and spinning, percent of one core.
    pub fn cpu_percent(&self) -> f64 {
        self.spin_percent + self.tick_percent
    }

    /// Frames it showed a second.
    pub fn fps(&self) -> f64 {
        let shown = &self.report.shown;
        shown.frames as f64 / shown.wall_time_s.max(f64::MIN_POSITIVE)
    }

    /// Ticks a second it ran.
    pub fn ticks_per_s(&self) -> f64 {
        let shown = &self.report.shown;
        shown.steps as f64 / shown.wall_time_s.max(f64::MIN_POSITIVE)
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
            fps_steps: std::cmp::Reverse((self.fps() / FPS_STEP).round().max(0.0) as u64),
            cpu_steps: steps(self.cpu_percent(), CPU_STEP_PERCENT),
        }
    }
}

/// The tick `spec` steps in a run at `tick`: its own where it has one (`+tick=`, or a preset's
/// default, which [`at_tick`] keeps within [`OWN_TICK_WITHIN_NS`]), else the run's; `None` for
/// variable steps.
fn tick_of(spec: LaneSpec, tick: Tick) -> Option<Tick> {
    let looped = spec.looped;
    match looped.base() {
        timestep_loop::Base::Mode(Mode::Variable) => None,
        timestep_loop::Base::Mode(_) => Some(tick),
        timestep_loop::Base::Preset(_) => looped.tick().or_else(|| {
            let own = looped.policy(&PolicyEnv::default()).ok()?;
            Some(own.timing.tick())
        }),
    }
}

/// The pacings tried on `display`: the one given, and on a variable-refresh panel the steady
/// ones (`cap:` and, for our own crate, `hold:`) at the highest of [`STEADY_RATES`] in the
/// panel's range whose period holds the longest render, if one does.
pub fn pacings(
    given: Pacing,
    display: &crate::hosts::simulate::DisplayConfig,
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
pub fn capture_caveats(summary: &crate::hosts::replay::CaptureSummary) -> Vec<String> {
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

/// Runs every candidate (the runner `simulate` and `replay` use), each of
/// [`AdviseConfig::runs`] in turn; with what the verdict must be read with
/// ([`capture_caveats`], or a simulated run that showed too few frames).
pub fn measure(cfg: &AdviseConfig) -> Result<(Vec<Measured>, Vec<String>), AdviseError> {
    measure_with(cfg, &cfg.runs(), &mut Watching::default())
}

/// What a progress bar is handed of each frame: the index of the run it belongs to (in
/// [`AdviseConfig::runs`]), and the frame.
pub type OnFrame<'a> = dyn FnMut(usize, &FrameRecord) + 'a;

/// What watches `advise`'s runs on a simulated display: each frame, with the index of its run,
/// for a progress bar; and a flag that, once set, stops them (Ctrl-C), with no verdict.
#[derive(Default)]
pub struct Watching<'a> {
    /// Handed each frame.
    pub frame: Option<&'a mut OnFrame<'a>>,
    /// Checked at every frame: once set, the runs stop and [`AdviseError::Interrupted`].
    pub stop: Option<&'a AtomicBool>,
}

/// [`measure`] of `runs` (the config's [`AdviseConfig::runs`], made once by the caller),
/// watched by `watching`.
pub fn measure_with(
    cfg: &AdviseConfig,
    runs: &[Run],
    watching: &mut Watching<'_>,
) -> Result<(Vec<Measured>, Vec<String>), AdviseError> {
    let mut out = Vec::new();
    let mut caveats = Vec::new();
    for (k, run) in runs.iter().enumerate() {
        let (measured, said) = run_one(&cfg.situation, run, k, watching)?;
        out.extend(measured);
        caveats = said;
    }
    if let Situation::Display { sim, .. } = &cfg.situation {
        caveats = simulated_caveats(&out, millis(sim.display.duration_ns) / 1e3);
    }
    Ok((out, caveats))
}

/// Runs `run`, the `k`th of [`AdviseConfig::runs`], on `situation`; with the capture's
/// caveats on a capture.
fn run_one(
    situation: &Situation,
    run: &Run,
    k: usize,
    watching: &mut Watching<'_>,
) -> Result<(Vec<Measured>, Vec<String>), AdviseError> {
    match situation {
        Situation::Display { sim, .. } => Ok((run_display(sim, run, k, watching)?, Vec::new())),
        Situation::Capture(cfg) => run_capture(cfg, run, k),
    }
}

/// Runs `run`, the `k`th, on the simulated display of `sim`.
fn run_display(
    sim: &SimConfig,
    run: &Run,
    k: usize,
    watching: &mut Watching<'_>,
) -> Result<Vec<Measured>, AdviseError> {
    let mut sim = SimConfig {
        timing: run.timing,
        lanes: run.lanes.clone(),
        ..sim.clone()
    };
    if let Some(pacing) = run.pacing {
        sim.display.pacing = pacing;
    }
    let controls = Controls {
        stop: watching.stop,
        ..Controls::default()
    };
    let frame = &mut watching.frame;
    let outcome = crate::hosts::simulate::run_with(&sim, controls, |f| {
        if let Some(frame) = frame.as_mut() {
            frame(k, f);
        }
    })
    .map_err(AdviseError::Lanes)?;
    if watching.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(AdviseError::Interrupted);
    }
    let run_ms = millis(sim.display.duration_ns).max(f64::MIN_POSITIVE);
    let tick_ms = millis(sim.display.step_cost_ns);
    let paced = Paced::new(sim.display.pacing, sim.display.vsync);
    let out = sim.lanes.iter().zip(outcome.lanes).map(|(spec, lane)| {
        let spun = lane.report.pacing.spin_cpu_ms.unwrap_or(0.0);
        let ticked = lane.report.shown.steps as f64 * tick_ms;
        Measured {
            spin_percent: 100.0 * spun / run_ms,
            tick_percent: 100.0 * ticked / run_ms,
            ..Measured::new(*spec, run, k, paced, lane.report)
        }
    });
    Ok(out.collect())
}

/// Runs `run`, the `k`th, on the capture `cfg` names; with the capture's caveats.
fn run_capture(
    cfg: &ReplayConfig,
    run: &Run,
    k: usize,
) -> Result<(Vec<Measured>, Vec<String>), AdviseError> {
    let cfg = ReplayConfig {
        timing: run.timing,
        lanes: run.lanes.clone(),
        ..cfg.clone()
    };
    let (selection, summary) =
        crate::hosts::replay::open(&cfg.capture, cfg.app.as_deref(), cfg.swapchain.as_deref())
            .map_err(AdviseError::Capture)?;
    let reports = crate::hosts::replay::run(&cfg, &selection, &summary).map_err(|e| match e {
        ReplayError::Capture(e) => AdviseError::Capture(e),
        ReplayError::Loop(e) => AdviseError::Lanes(e),
    })?;
    let out = cfg.lanes.iter().zip(reports);
    let out = out.map(|(spec, report)| Measured::new(*spec, run, k, Paced::AsCaptured, report));
    Ok((out.collect(), capture_caveats(&summary)))
}

/// The ranking (`held`, best first) with its pick and runner-up each checked by running it
/// alone, as its check line ([`check_line`]) runs it: one that does not hold there is dropped,
/// and the next is checked in its place.
pub fn checked(
    cfg: &AdviseConfig,
    runs: &[Run],
    mut held: Vec<Measured>,
    mut dropped: Vec<Measured>,
    stop: Option<&AtomicBool>,
) -> Result<(Vec<Measured>, Vec<Measured>), AdviseError> {
    let mut lanes: Vec<String> = Vec::new();
    let mut i = 0;
    while i < held.len() && lanes.len() < 2 {
        let lane = held[i].spec.to_string();
        if lanes.contains(&lane) {
            i += 1;
            continue;
        }
        let held_alone = holds_alone(cfg, runs, &held[i], stop)?;
        held[i].checked = Some(held_alone);
        if held_alone {
            lanes.push(lane);
            i += 1;
        } else {
            dropped.push(held.remove(i));
        }
    }
    Ok((held, dropped))
}

/// Whether `m` holds run alone on the situation, as its check line runs it.
fn holds_alone(
    cfg: &AdviseConfig,
    runs: &[Run],
    m: &Measured,
    stop: Option<&AtomicBool>,
) -> Result<bool, AdviseError> {
    let Some(run) = runs.get(m.run) else {
        return Ok(false);
    };
    let alone = Run {
        lanes: vec![m.spec],
        ..run.clone()
    };
    let mut watching = Watching { frame: None, stop };
    let (measured, _) = run_one(&cfg.situation, &alone, m.run, &mut watching)?;
    Ok(measured.iter().all(|r| r.report.state.is_ok()))
}

/// The command line that runs `m` alone on the situation, as [`checked`] ran it: the
/// situation's command ([`AdviseConfig::check`]) and `m`'s loop, tick, substeps, pacing and
/// run length.
pub fn check_line(cfg: &AdviseConfig, runs: &[Run], m: &Measured) -> String {
    let mut words: Vec<String> = vec!["timestep-rope".into()];
    words.extend(cfg.check.iter().cloned());
    let mut flag = |name: &str, value: String| words.extend([format!("--{name}"), value]);
    flag("lanes", m.spec.to_string());
    if let Some(run) = runs.get(m.run) {
        flag("dt", tick_name(run.timing.tick()));
        if let Some(pacing) = run.pacing {
            flag("pacing", pacing.to_string());
        }
    }
    match cfg.situation.max_substep() {
        MaxSubstep::Set(ns) => flag("max-substep", format_duration(ns)),
        MaxSubstep::Off => flag("max-substep", "off".into()),
        MaxSubstep::Default => {}
    }
    if let Situation::Display { sim, .. } = &cfg.situation {
        flag(
            "seconds",
            format!("{}", millis(sim.display.duration_ns) / 1e3),
        );
    }
    words.join(" ")
}

/// The pacing a loop ran under, as the verdict names it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paced {
    /// This pacing (`vsync` with vsync on).
    By(Pacing),
    /// `vsync` with vsync off: nothing paces the frames ("none").
    Unpaced,
    /// On a capture, the captured game's own ("as captured").
    AsCaptured,
}

impl Paced {
    /// `pacing` on a display that waits for vblank if `vsync`.
    pub fn new(pacing: Pacing, vsync: bool) -> Paced {
        match pacing {
            Pacing::Vsync if !vsync => Paced::Unpaced,
            pacing => Paced::By(pacing),
        }
    }

    /// The pacing a `Pacer` is made with: none waits for nothing of its own (vsync's rule).
    pub fn pacing(self) -> Pacing {
        match self {
            Paced::By(pacing) => pacing,
            Paced::Unpaced | Paced::AsCaptured => Pacing::Vsync,
        }
    }

    /// The rate of a `cap:` pacing.
    pub fn cap(self) -> Option<f64> {
        match self {
            Paced::By(Pacing::Cap(hz)) => Some(hz),
            _ => None,
        }
    }
}

impl std::fmt::Display for Paced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Paced::By(pacing) => pacing.fmt(f),
            Paced::Unpaced => f.write_str("none"),
            Paced::AsCaptured => f.write_str("as captured"),
        }
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
    /// Stopped (Ctrl-C) before every candidate ran its time: no verdict.
    #[error("interrupted before every loop ran its time: no verdict")]
    Interrupted,
}

/// The verdict of `runs` (the config's, made once by the caller): every candidate measured
/// (watched by `watching` as [`measure_with`]'s runs are), ranked, and the leaders checked.
pub fn advice_with(
    cfg: &AdviseConfig,
    runs: &[Run],
    watching: &mut Watching<'_>,
) -> Result<Advice, AdviseError> {
    let (measured, caveats) = measure_with(cfg, runs, watching)?;
    let (held, dropped) = rank(measured);
    let (held, dropped) = checked(cfg, runs, held, dropped, watching.stop)?;
    let mut advice = Advice::new(cfg, runs, &held, &dropped);
    advice.caveats = caveats;
    Ok(advice)
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
