//! The command line as clap sees it: the window's flags, `simulate`'s, `sweep`'s, `replay`'s
//! and `probe`'s, and the ones they share.

use super::errors::BadFlags;
use super::values::*;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use timestep_lab::analyses::advise::Engine;
use timestep_lab::hosts::simulate::vrr::Lfc;
use timestep_lab::hosts::simulate::{Phase, RenderCost, Stall};
use timestep_lab::model::lane::LaneSpec;
use timestep_lab::model::rope::{BadParams, Drive, Integrator, Pin, RopeParams};
use timestep_lab::protocol::feedback::{FEEDBACK_DELAY, MAX_FEEDBACK_DELAY};
use timestep_lab::protocol::machine::{Machine, Sleep};
use timestep_loop::MaxSubstep;
use timestep_loop::{ConfigError, Mode, Pacing, Tick, TimingConfig, parse_duration_with_unit};

/// `--pacing`'s choices, as the window's and `simulate`'s help name them.
const PACING_VALUES: &str = "vsync|cap:HZ|hold:HZ|adaptive|late";

/// `--pacing`'s help, one text for the window and `simulate` (a macro, so `concat!` can add
/// the window's default to it).
macro_rules! pacing_help {
    () => {
        "How the loop paces frames: vsync (presents wait for the display), cap:HZ (frames start \
         1/HZ apart), hold:HZ (as cap, and each is presented no sooner than its deadline: steady \
         presents on a VRR panel), adaptive (a render interval that follows the frame's cost) \
         or late (sleep at the end of each frame so input is read as late as possible)"
    };
}

#[derive(Parser, Debug)]
#[command(
    name = "timestep-rope",
    version,
    about = "A mass-spring rope that makes game-loop timing visible and measurable",
    long_about = "Opens a window with ropes simulated on the same frames by different loops \
                  (at launch: interpolated, Unity's loop at a 10 Hz tick, and variable steps, \
                  overlaid in one pane); M cycles how a lane steps its rope (variable, \
                  semi-fixed, fixed, interpolated), F2 shows the controls. `timestep-rope \
                  simulate` runs the same code on a simulated display and prints the numbers; \
                  `timestep-rope sweep` runs it on every display rate of a range."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub window: WindowArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run every mode headless on a simulated display and print what each did.
    Simulate(SimulateArgs),
    /// Run every lane on every display rate of a range or list, in parallel, and tabulate,
    /// write and plot what each did.
    Sweep(SweepArgs),
    /// Run every lane on the frames of a real capture (PresentMon, CapFrameX, MangoHud, or
    /// this program's own --frame-log and --trace) and print what each would have done.
    Replay(ReplayArgs),
    /// The answer for one situation: every loop that could be chosen runs on it, and the best by
    /// one stated rule is recommended, with the runner-up, what each costs, and how to get it in
    /// your engine.
    Advise(AdviseArgs),
    /// Measure this machine's clock and sleeps (with --window, its presents too); --out
    /// writes them as a machine profile, for simulate --machine.
    Probe(ProbeArgs),
    /// List the lessons: what each shows, the article it comes from, and what it sets
    /// (start one with --lesson N; L and Shift+L step through them in the window).
    Lessons,
    /// Print a shell completion script for SHELL (bash, zsh, fish, elvish, powershell), e.g.
    /// timestep-rope completions bash > /etc/bash_completion.d/timestep-rope
    Completions {
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), or a subcommand's, e.g. timestep-rope man > timestep-rope.1,
    /// timestep-rope man simulate > timestep-rope-simulate.1
    Man {
        #[arg(value_name = "SUBCOMMAND")]
        subcommand: Option<String>,
    },
}

/// Flags shared by the window and `simulate`: timing and the rope.
#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Fixed step: 1ms, 0.5ms, 500us, 0.001 (bare: seconds, at most 1), or a rate: 60hz (exactly
    /// 1/60 s); advise also takes auto (it ranks 30, 50, 60, 120 Hz and the display's rate)
    /// [default: 1ms; advise: 60hz, the rate games tick at]
    #[arg(help_heading = "Loop", long, value_name = "DURATION|RATE", value_parser = dt, allow_hyphen_values = true, global = true)]
    pub dt: Option<Dt>,
    /// Longest frame time any mode sees; the excess is dropped (and reported)
    #[arg(help_heading = "Loop", long, value_name = "DURATION", default_value = "250ms", value_parser = positive_duration, allow_hyphen_values = true, global = true)]
    pub clamp: u64,
    /// Most steps in one frame, against the spiral of death [default: clamp / dt, rounded up]
    #[arg(help_heading = "Loop", long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), allow_hyphen_values = true, global = true)]
    pub max_steps: Option<u32>,
    /// Particles in the rope
    #[arg(help_heading = "Rope", long, value_name = "N", default_value_t = RopeParams::default().particles, value_parser = particle_count, allow_hyphen_values = true, global = true)]
    pub particles: usize,
    /// Which ends are pinned: one (particle 0) or both
    #[arg(help_heading = "Rope", long, value_name = names::<Pin>(), default_value_t = Pin::One, global = true)]
    pub pin: Pin,
    /// How the rope is integrated: euler (semi-implicit) or rk4
    #[arg(help_heading = "Rope", long, value_name = names::<Integrator>(), default_value_t = Integrator::Euler, global = true)]
    pub integrator: Integrator,
    /// Move the pinned end along a path, an exact function of simulated time: sway (side to
    /// side, 1.2 m each way at a steady speed) or circle (0.5 m radius), each with an optional
    /// :PERIOD (sway:6s, circle:3s), or off [default: sway in the window, off elsewhere]
    #[arg(help_heading = "Rope", long, value_name = "sway|circle|off[:PERIOD]", value_parser = parse_drive, global = true)]
    pub drive: Option<Drive>,
    /// Per-particle drag, 1/s: velocity decays as exp(-RATE·t)
    #[arg(help_heading = "Rope", long, value_name = "RATE", default_value_t = RopeParams::default().damping_per_s, value_parser = drag_rate, allow_hyphen_values = true, global = true)]
    pub damping: f32,
    /// Lanes to run side by side on the same frame times, comma-separated: textbook modes
    /// (variable, semi-fixed, fixed, interpolated), engine presets (godot, bevy, unity,
    /// monogame, game-loop, glaiel), groups (modes, presets, timers), each optionally
    /// NAME+OPTION (+raw, +snap, +smooth, +fuzzy, +fuzzy59, +interpolated, +tick=60hz,
    /// +jitter=0, +euler, +rk4),
    /// e.g. fixed,godot,fixed+snap (the window shows 1 to 4)
    #[arg(help_heading = "Loop", long, value_name = "LIST", value_parser = lane_list, global = true)]
    pub lanes: Option<LaneList>,
    /// Longest substep a tick is integrated in, or off [default: 1ms for presets; textbook
    /// modes do not substep unless given]
    #[arg(help_heading = "Loop", long, value_name = "DURATION|off", value_parser = max_substep, allow_hyphen_values = true, global = true)]
    pub max_substep: Option<MaxSubstep>,
}

/// `--dt`'s value: a tick, or (for `advise`) `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dt {
    /// This tick.
    Tick(Tick),
    /// `auto`: `advise` ranks the ticks themselves.
    Auto,
}

/// The tick when `--dt` is not given (but for `advise`, which answers for a game's).
pub const DEFAULT_DT: Tick = Tick::from_ns(1_000_000);

/// `--dt auto` where only `advise` takes it.
const DT_AUTO_FOR_ADVISE: &str =
    "--dt auto: only advise chooses the tick; give a duration or a rate (e.g. 1ms, 60hz)";

/// `--lanes`' value: the lanes in the order given.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneList(pub Vec<LaneSpec>);

impl CommonArgs {
    /// The timing settings, checked together (the clamp must be at least dt); an error names
    /// the flag it is about.
    pub fn timing(&self) -> Result<TimingConfig, BadFlags> {
        let tick = match self.dt {
            None => DEFAULT_DT,
            Some(Dt::Tick(tick)) => tick,
            Some(Dt::Auto) => return Err(BadFlags::Together(DT_AUTO_FOR_ADVISE)),
        };
        self.timing_at(tick)
    }

    /// The timing settings at `tick`, checked together as [`CommonArgs::timing`]'s are.
    pub fn timing_at(&self, tick: Tick) -> Result<TimingConfig, BadFlags> {
        TimingConfig::textbook(tick, self.clamp, self.max_steps).map_err(|e| {
            let flag = match e {
                ConfigError::ZeroTick => "--dt",
                ConfigError::ClampBelowTick { .. } => "--clamp",
                _ => "--max-steps",
            };
            BadFlags::Timing { flag, source: e }
        })
    }

    /// The rope, its pin driven as `--drive` says or else as `default_drive`.
    pub fn rope(&self, default_drive: Drive) -> Result<RopeParams, BadParams> {
        let params = RopeParams {
            pin: self.pin,
            damping_per_s: self.damping,
            integrator: self.integrator,
            drive: self.drive.unwrap_or(default_drive),
            ..RopeParams::with_particles(self.particles)
        };
        params.validate()?;
        Ok(params)
    }
}

timestep_loop::named_enum! {
    /// A switch a flag turns on or off (`--vsync`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum OnOff as "switch" {
        On = "on",
        Off = "off",
    }
}

/// The window's own flags.
#[derive(Args, Debug, Clone)]
pub struct WindowArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Mode to start in [default: interpolated]
    #[arg(help_heading = "Loop", long, value_name = "MODE")]
    pub mode: Option<Mode>,
    /// Start in the split view: the four modes side by side (--lanes variable,semi-fixed,fixed,interpolated)
    #[arg(help_heading = "Loop", long)]
    pub split: bool,
    /// Start at lesson N (timestep-rope lessons lists them): it sets the lanes, tick, pacing,
    /// drive and trail, and captions what to look at; L and Shift+L step through them
    #[arg(help_heading = "Window", long, value_name = "N", value_parser = parse_lesson, allow_hyphen_values = true)]
    pub lesson: Option<usize>,
    /// Present with vsync (off picks a non-vsync present mode where the surface has one)
    #[arg(help_heading = "Pacing", long, default_value_t = OnOff::On, value_parser = listed::<OnOff>())]
    pub vsync: OnOff,
    /// Cap the frame rate with spin_sleep, e.g. 30, 59.94, 144 (the same as --pacing cap:HZ)
    #[arg(help_heading = "Pacing", long, value_name = "HZ", value_parser = fps_cap, allow_hyphen_values = true)]
    pub fps_cap: Option<f64>,
    #[arg(help_heading = "Pacing", long, value_name = PACING_VALUES, help = concat!(pacing_help!(), " [default: vsync]"), value_parser = parse_pacing)]
    pub pacing: Option<Pacing>,
    /// Quit after this much wall time (for scripted runs)
    #[arg(help_heading = "Output", long, value_name = "DURATION", value_parser = positive_duration, allow_hyphen_values = true)]
    pub exit_after: Option<u64>,
    /// Write the last presented frame to this PNG at exit
    #[arg(help_heading = "Output", long, value_name = "FILE.png", value_parser = png_path)]
    pub screenshot: Option<PathBuf>,
    /// Write one CSV row per frame and lane shown, in simulate --trace's layout: lane, frame,
    /// start and present time, frame ms, steps, alpha, drift, exploded, pacing, input latency,
    /// step starts (replay reads it)
    #[arg(help_heading = "Output", long, value_name = "FILE.csv")]
    pub frame_log: Option<PathBuf>,
    /// At exit, write every lane's report as JSON: the books simulate keeps (stutter, drift,
    /// per-vblank counters, latency, pacing), kept on the window's own clock
    #[arg(help_heading = "Output", long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// How pacing waits (a cap, adaptive, late, MonoGame's wait): spin (spin_sleep: the OS's
    /// sleep to within its accuracy, then spin) or native (the OS's sleep alone)
    #[arg(help_heading = "Pacing", long, value_name = names::<Sleep>(), default_value_t = Sleep::Spin)]
    pub sleep: Sleep,
    /// Play a capture (PresentMon, CapFrameX, MangoHud, or this program's --frame-log or
    /// --trace): each frame starts at the capture's next frame start and is held until its time
    /// on screen; at the end it starts over
    #[arg(help_heading = "Capture", long, value_name = "CAPTURE")]
    pub replay: Option<PathBuf>,
    #[command(flatten)]
    pub capture: CaptureArgs,
}

/// Which frames of a capture to replay.
#[derive(Args, Debug, Clone, Default)]
pub struct CaptureArgs {
    /// The application whose frames to replay, or its process ID [default: the one with the
    /// most, dwm.exe left out]; in this program's own logs, the lane
    #[arg(
        help_heading = "Capture",
        long,
        value_name = "NAME|PID",
        allow_negative_numbers = true
    )]
    pub app: Option<String>,
    /// Its swap chain, by address [default: its busiest]
    #[arg(
        help_heading = "Capture",
        long,
        value_name = "ADDR",
        allow_negative_numbers = true
    )]
    pub swapchain: Option<String>,
}

/// Which modes `simulate --mode` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeChoice {
    All,
    One(Mode),
}

/// The simulated display and loop costs, shared by `simulate` and `sweep`.
#[derive(Args, Debug, Clone)]
pub struct DisplayArgs {
    /// Wait for vblank before presenting
    #[arg(help_heading = "Display", long, default_value_t = OnOff::On, value_parser = listed::<OnOff>())]
    pub vsync: OnOff,
    /// A variable-refresh panel of MIN..MAX Hz (e.g. 48..144) instead of a fixed rate: a frame
    /// is scanned out when ready but no sooner than 1/MAX after the last scanout, and after
    /// 1/MIN without one the old frame is scanned again (replaces --display-hz)
    #[arg(help_heading = "Display", long, value_name = "MIN..MAX", value_parser = parse_vrr, allow_hyphen_values = true)]
    pub vrr: Option<(f64, f64)>,
    /// Low-framerate compensation on a --vrr panel: on where MAX >= RATIO x MIN (AMD's driver:
    /// 2; launch-era articles: 2.5), or off [default: 2]
    #[arg(help_heading = "Display", long, value_name = "off|RATIO", value_parser = parse_lfc, allow_hyphen_values = true)]
    pub lfc: Option<Lfc>,
    /// The machine the loop runs on: how its clock reads and its sleeps wake. windows-default
    /// (Sleep wakes on the 15.625 ms timer interrupt; 100 ns clock), windows-1ms
    /// (timeBeginPeriod(1)), linux (50 us timer slack), browser (100 us clock, 4 ms shortest
    /// setTimeout), or a FILE.json from 'timestep-rope probe --out' [default: an exact clock
    /// and sleeps]
    #[arg(help_heading = "Machine and pacing", long, value_name = "NAME|FILE.json", value_parser = parse_machine)]
    pub machine: Option<Machine>,
    /// How the loop's pacing waits: native (the OS's sleep alone) or spin (native to within
    /// the machine's accuracy, then spin to the deadline, as spin_sleep does)
    #[arg(help_heading = "Machine and pacing", long, value_name = names::<Sleep>(), default_value_t = Sleep::Spin)]
    pub sleep: Sleep,
    /// Timer noise: each clock reading is off by a uniform amount in ±D
    #[arg(help_heading = "Display", long, value_name = "D", default_value = "0", value_parser = parse_duration_with_unit, allow_hyphen_values = true)]
    pub jitter: u64,
    /// Simulated render time per frame: D, MIN..MAX (uniform, seeded) or ramp:A..B[..C]
    /// (linear through the points over the run)
    #[arg(help_heading = "Display", long, value_name = "D|MIN..MAX|ramp:A..B[..C]", default_value = "0", value_parser = parse_render_cost, allow_hyphen_values = true)]
    pub render_cost: RenderCost,
    #[arg(help_heading = "Machine and pacing", long, value_name = PACING_VALUES, help = pacing_help!(), default_value = "vsync", value_parser = parse_pacing)]
    pub pacing: Pacing,
    /// Simulated CPU time per tick: above the tick, the spiral of death is real
    #[arg(help_heading = "Display", long, value_name = "D", default_value = "0", value_parser = parse_duration_with_unit, allow_hyphen_values = true)]
    pub step_cost: u64,
    /// Where the loop starts between two vblanks: a duration after vblank 0, or random (seeded)
    #[arg(help_heading = "Display", long, value_name = "D|random", default_value = "0", value_parser = parse_phase, allow_hyphen_values = true)]
    pub phase: Phase,
    /// One long frame at simulated time AT lasting DURATION (repeatable), e.g. 2s:300ms
    #[arg(help_heading = "Display", long, value_name = "AT:DURATION", value_parser = parse_stall, allow_hyphen_values = true)]
    pub stall: Vec<Stall>,
    /// Seed for the timer noise (and random phases and render costs)
    #[arg(
        help_heading = "Display",
        long,
        value_name = "N",
        default_value_t = 1,
        allow_hyphen_values = true
    )]
    pub seed: u64,
    /// How many frames late present feedback (when each frame was scanned out) reaches a
    /// loop with the display timer (+display)
    #[arg(help_heading = "Display", long, value_name = "N", default_value_t = FEEDBACK_DELAY, value_parser = clap::value_parser!(u64).range(1..=MAX_FEEDBACK_DELAY), allow_hyphen_values = true)]
    pub feedback_delay: u64,
}

/// The text table's width, shared by `simulate`, `sweep` and `replay`.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct TableArgs {
    /// Print the full table, every column, however wide; without it every line fits 100
    /// columns (the figures a loop is chosen by; --json carries every figure)
    #[arg(help_heading = "Output", long)]
    pub wide: bool,
}

#[derive(Args, Debug, Clone)]
pub struct SimulateArgs {
    /// Display refresh rate, Hz (fractional allowed: 59.94; 144hz too) [default: 60]
    #[arg(help_heading = "Display", long, value_name = "HZ", value_parser = positive_hz, allow_hyphen_values = true)]
    pub display_hz: Option<f64>,
    #[command(flatten)]
    pub display: DisplayArgs,
    /// Simulated wall time, seconds (at least 1e-9)
    #[arg(help_heading = "Display", long, value_name = "S", default_value_t = 10.0, value_parser = seconds, allow_hyphen_values = true)]
    pub seconds: f64,
    /// A mode, or all of them in cycle order [default: all] (or give --lanes)
    #[arg(help_heading = "Loop", long, value_name = "MODE|all", value_parser = parse_mode_choice)]
    pub mode: Option<ModeChoice>,
    /// Print one JSON object instead of the table
    #[arg(help_heading = "Output", long)]
    pub json: bool,
    #[command(flatten)]
    pub table: TableArgs,
    /// Write one CSV row per presented frame per lane
    #[arg(help_heading = "Output", long, value_name = "FILE.csv")]
    pub trace: Option<PathBuf>,
    /// Write each lane's final particle positions as JSON
    #[arg(help_heading = "Output", long, value_name = "FILE.json")]
    pub dump_state: Option<PathBuf>,
    /// Rasterise every presented frame off-screen at this size with the window's drawing code
    /// and report the time it took (draw_ms_mean, draw_ms_max)
    #[arg(help_heading = "Output", long, value_name = "WIDTHxHEIGHT", value_parser = parse_size, allow_hyphen_values = true)]
    pub draw: Option<(u32, u32)>,
    #[command(flatten)]
    pub plot: FramePlotArgs,
    /// Say how long a long run will take and show its progress on stderr even when stderr is
    /// not a terminal (as plain lines, one a second); on a terminal they show anyway
    #[arg(help_heading = "Output", long)]
    pub progress: bool,
}

#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// Display rates: ranges A..B (1 Hz steps) or A..B:STEP, and single rates (60hz too),
    /// comma-separated
    /// [default: 30..240,59.94,119.88,143.86]
    #[arg(help_heading = "Display", long, value_name = "RATES", value_parser = rate_list, allow_hyphen_values = true)]
    pub display_hz: Option<RateList>,
    /// With --vrr: the frame rates to sweep instead of display rates, each configuration
    /// rendering every frame in one period of its rate (RATES as --display-hz) [default: as
    /// --display-hz's]
    #[arg(help_heading = "Display", long, value_name = "RATES", value_parser = rate_list, allow_hyphen_values = true)]
    pub fps: Option<RateList>,
    #[command(flatten)]
    pub display: DisplayArgs,
    /// Simulated wall time per configuration, seconds (at least 1e-9)
    #[arg(help_heading = "Display", long, value_name = "S", default_value_t = 60.0, value_parser = seconds, allow_hyphen_values = true)]
    pub seconds: f64,
    /// Print the rows and the summary as one JSON object instead of the table
    #[arg(help_heading = "Output", long)]
    pub json: bool,
    #[command(flatten)]
    pub table: TableArgs,
    /// Write one CSV row per (display rate, lane) with every figure simulate reports
    #[arg(help_heading = "Output", long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Plot stutter, double updates and drift against the display rate to an SVG or PNG
    #[arg(help_heading = "Output", long, value_name = "FILE.svg|FILE.png", value_parser = plot_path)]
    pub plot: Option<PathBuf>,
    /// Worker threads [default: one per core]
    #[arg(help_heading = "Run", long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256), allow_hyphen_values = true)]
    pub threads: Option<u16>,
    /// Step a rope in every configuration too, for its figures (energy, stretch, explosions,
    /// state hash); without it a sweep measures timing only, which is the same either way
    #[arg(help_heading = "Run", long)]
    pub physics: bool,
}

#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The capture: its format is found from its content
    #[arg(value_name = "CAPTURE")]
    pub capture: PathBuf,
    #[command(flatten)]
    pub which: CaptureArgs,
    /// How many frames late the capture's display times reach a loop with the display timer
    /// (+display), as present feedback
    #[arg(help_heading = "Capture", long, value_name = "N", default_value_t = FEEDBACK_DELAY, value_parser = clap::value_parser!(u64).range(1..=MAX_FEEDBACK_DELAY), allow_hyphen_values = true)]
    pub feedback_delay: u64,
    /// Print one JSON object instead of the table
    #[arg(help_heading = "Output", long)]
    pub json: bool,
    #[command(flatten)]
    pub table: TableArgs,
    /// Write one CSV row per presented frame per lane (simulate --trace's columns)
    #[arg(help_heading = "Output", long, value_name = "FILE.csv")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub plot: FramePlotArgs,
}

/// The frame-by-frame plot of `simulate` and `replay`.
#[derive(Args, Debug, Clone)]
pub struct FramePlotArgs {
    /// Plot each lane frame by frame (shown-time error, ticks per frame, frame time) to an SVG
    /// or PNG
    #[arg(help_heading = "Output", long, value_name = "FILE.svg|FILE.png", value_parser = plot_path)]
    pub plot: Option<PathBuf>,
    /// Plot only the first S seconds [default: the whole run]
    #[arg(help_heading = "Output", long, value_name = "S", value_parser = seconds, allow_hyphen_values = true)]
    pub plot_seconds: Option<f64>,
}

impl FramePlotArgs {
    /// How much of the run the plot covers, ns (all of it: `None`); `--plot-seconds` without
    /// `--plot` is an error.
    pub fn plot_ns(&self) -> Result<Option<u64>, BadFlags> {
        if self.plot_seconds.is_some() && self.plot.is_none() {
            return Err(BadFlags::Together(
                "--plot-seconds needs --plot FILE (the plot it limits)",
            ));
        }
        Ok(self.plot_seconds.map(timestep_loop::ns_from_seconds))
    }
}

/// How long `advise` runs each loop on a simulated display when `--seconds` is not given, s.
pub const ADVISE_SECONDS: f64 = 20.0;

#[derive(Args, Debug, Clone)]
pub struct AdviseArgs {
    /// A capture to advise on (PresentMon, CapFrameX, MangoHud, or this program's logs) instead
    /// of a simulated display
    #[arg(value_name = "CAPTURE")]
    pub capture: Option<PathBuf>,
    #[command(flatten)]
    pub which: CaptureArgs,
    /// Display refresh rate, Hz (fractional allowed: 59.94; 144hz too) [default: 60]
    #[arg(help_heading = "Display", long, value_name = "HZ", value_parser = positive_hz, allow_hyphen_values = true)]
    pub display_hz: Option<f64>,
    #[command(flatten)]
    pub display: DisplayArgs,
    /// Simulated wall time each loop runs, seconds (at least the time the display takes to
    /// show 120 frames, and 1 s: a verdict wants that many)
    #[arg(help_heading = "Display", long, value_name = "S", default_value_t = ADVISE_SECONDS, value_parser = seconds, allow_hyphen_values = true)]
    pub seconds: f64,
    /// The engine you ship on: the loops it can run are ranked, and its settings printed
    /// (custom: your own loop, with this project's timestep-loop crate) [default: every loop]
    #[arg(help_heading = "Loop", long, value_name = names::<Engine>())]
    pub engine: Option<Engine>,
    /// Print one JSON object instead of the text
    #[arg(help_heading = "Output", long)]
    pub json: bool,
    /// Say how long a long run will take and show its progress on stderr even when stderr is
    /// not a terminal (as plain lines, one a second); on a terminal they show anyway
    #[arg(help_heading = "Output", long)]
    pub progress: bool,
}

#[derive(Args, Debug, Clone)]
pub struct ProbeArgs {
    /// Time for the clock and the sleeps, seconds (at most 600)
    #[arg(help_heading = "Run", long, value_name = "S", default_value_t = 10.0, value_parser = probe_seconds, allow_hyphen_values = true)]
    pub seconds: f64,
    /// Print one JSON object instead of the table
    #[arg(help_heading = "Output", long)]
    pub json: bool,
    /// Write the machine profile (the clock, the timer slack, spin_sleep's threshold, each
    /// sleep's overshoot quantiles), for simulate --machine
    #[arg(help_heading = "Output", long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// First open a window and time the presents in each present mode the surface offers,
    /// 3 s each (or --seconds, if shorter)
    #[arg(help_heading = "Run", long)]
    pub window: bool,
    /// Show progress on stderr even when it is not a terminal (as plain lines, one a second)
    #[arg(help_heading = "Output", long)]
    pub progress: bool,
}

/// `sweep --display-hz`: the rates, ascending and distinct.
#[derive(Clone, Debug, PartialEq)]
pub struct RateList(pub Vec<f64>);

/// Largest off-screen frame side, pixels.
pub const MAX_DRAW_SIDE: u32 = 8192;
