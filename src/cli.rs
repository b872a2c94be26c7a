//! Flags, their parsing and validation. Everything a user types is checked here, before any
//! window opens or any simulation starts; a bad value is one line naming the flag and exit 2.

use crate::draw::MAX_PANES;
use crate::lane::{LaneSpec, parse_lanes};
use crate::policy::MaxSubstep;
use crate::rope::{Pin, RopeParams};
use crate::simulate::{DisplayConfig, Phase, RenderCost, SimConfig, Stall};
use crate::timing::{Mode, TimingConfig, format_duration, one_of, parse_duration, parse_period};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Highest display or cap rate accepted, Hz.
pub const MAX_HZ: f64 = 10_000.0;
/// Longest `simulate --seconds`: 30 simulated days.
pub const MAX_SECONDS: f64 = 30.0 * 86_400.0;

#[derive(Parser, Debug)]
#[command(
    name = "timestep-rope",
    version,
    about = "A mass-spring rope that makes game-loop timing visible and measurable",
    long_about = "Opens a window with a rope simulated at a fixed dt; M cycles how the loop steps \
                  it (variable, semi-fixed, fixed, interpolated). `timestep-rope simulate` runs \
                  the same code on a simulated display and prints the numbers."
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
}

/// Flags shared by the window and `simulate`: timing and the rope.
#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Fixed step: 1ms, 0.5ms, 500us, 0.001 (seconds), or a rate: 60hz (the nearest ns)
    #[arg(long, value_name = "DURATION|RATE", default_value = "1ms", value_parser = parse_period, allow_hyphen_values = true, global = true)]
    pub dt: u64,
    /// Longest frame time any mode sees; the excess is dropped (and reported)
    #[arg(long, value_name = "DURATION", default_value = "250ms", value_parser = positive_duration, allow_hyphen_values = true, global = true)]
    pub clamp: u64,
    /// Most steps in one frame, against the spiral of death [default: clamp / dt]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), allow_hyphen_values = true, global = true)]
    pub max_steps: Option<u32>,
    /// Particles in the rope
    #[arg(long, value_name = "N", default_value_t = RopeParams::default().particles, value_parser = particle_count, allow_hyphen_values = true, global = true)]
    pub particles: usize,
    /// Which ends are pinned: one (particle 0) or both
    #[arg(long, value_name = "one|both", default_value = "one", value_parser = parse_pin, global = true)]
    pub pin: Pin,
    /// Per-particle drag, 1/s: velocity decays as exp(-RATE·t)
    #[arg(long, value_name = "RATE", default_value_t = RopeParams::default().damping_per_s, value_parser = drag_rate, allow_hyphen_values = true, global = true)]
    pub damping: f32,
    /// Lanes to run side by side on the same frame times, comma-separated: textbook modes
    /// (variable, semi-fixed, fixed, interpolated), engine presets (godot, bevy, unity,
    /// monogame, game-loop, glaiel), groups (modes, presets, timers), each optionally
    /// NAME+OPTION (+snap, +smooth, +fuzzy, +fuzzy59, +interpolated, +tick=60hz, +jitter=0),
    /// e.g. fixed,godot,fixed+snap (the window shows 1 to 4)
    #[arg(long, value_name = "LIST", value_parser = lane_list, global = true)]
    pub lanes: Option<LaneList>,
    /// Longest substep a tick is integrated in, or off [default: 1ms for presets; textbook
    /// modes do not substep unless given]
    #[arg(long, value_name = "DURATION|off", value_parser = max_substep, allow_hyphen_values = true, global = true)]
    pub max_substep: Option<MaxSubstep>,
}

fn max_substep(s: &str) -> Result<MaxSubstep, String> {
    if s.trim().eq_ignore_ascii_case("off") {
        return Ok(MaxSubstep::Off);
    }
    positive_duration(s).map(MaxSubstep::Set)
}

/// `--lanes`' value: the lanes in the order given.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneList(pub Vec<LaneSpec>);

fn lane_list(s: &str) -> Result<LaneList, String> {
    parse_lanes(s).map(LaneList)
}

impl CommonArgs {
    /// The timing settings, checked together (the clamp must be at least dt).
    pub fn timing(&self) -> Result<TimingConfig, String> {
        TimingConfig::new(self.dt, self.clamp, self.max_steps)
    }

    pub fn rope(&self) -> Result<RopeParams, String> {
        let params = RopeParams {
            pin: self.pin,
            damping_per_s: self.damping,
            ..RopeParams::with_particles(self.particles)
        };
        params.validate()?;
        Ok(params)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

/// The window's own flags.
#[derive(Args, Debug, Clone)]
pub struct WindowArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Mode to start in [default: interpolated]
    #[arg(long, value_name = "MODE", value_parser = parse_mode)]
    pub mode: Option<Mode>,
    /// Start in the split view: the four modes side by side (--lanes variable,semi-fixed,fixed,interpolated)
    #[arg(long)]
    pub split: bool,
    /// Present with vsync (off picks a non-vsync present mode where the surface has one)
    #[arg(long, value_enum, default_value = "on")]
    pub vsync: OnOff,
    /// Cap the frame rate with spin_sleep, e.g. 30, 59.94, 144
    #[arg(long, value_name = "HZ", value_parser = positive_hz, allow_hyphen_values = true)]
    pub fps_cap: Option<f64>,
    /// Quit after this much wall time (for scripted runs)
    #[arg(long, value_name = "DURATION", value_parser = positive_duration, allow_hyphen_values = true)]
    pub exit_after: Option<u64>,
    /// Write the last presented frame to this PNG at exit
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// Write one CSV row per frame: wall time, frame ms, steps, alpha, mode, drift
    #[arg(long, value_name = "FILE.csv")]
    pub frame_log: Option<PathBuf>,
}

/// Which modes `simulate --mode` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeChoice {
    All,
    One(Mode),
}

#[derive(Args, Debug, Clone)]
pub struct SimulateArgs {
    /// Display refresh rate, Hz (fractional allowed: 59.94)
    #[arg(long, value_name = "HZ", default_value_t = 60.0, value_parser = positive_hz, allow_hyphen_values = true)]
    pub display_hz: f64,
    /// Wait for vblank before presenting
    #[arg(long, value_enum, default_value = "on")]
    pub vsync: OnOff,
    /// Timer noise: each clock reading is off by a uniform amount in ±D
    #[arg(long, value_name = "D", default_value = "0", value_parser = parse_duration, allow_hyphen_values = true)]
    pub jitter: u64,
    /// Simulated render time per frame: D, MIN..MAX (uniform, seeded) or ramp:MIN..MAX
    #[arg(long, value_name = "D|MIN..MAX|ramp:MIN..MAX", default_value = "0", value_parser = parse_render_cost, allow_hyphen_values = true)]
    pub render_cost: RenderCost,
    /// Simulated CPU time per tick: above the tick, the spiral of death is real
    #[arg(long, value_name = "D", default_value = "0", value_parser = parse_duration, allow_hyphen_values = true)]
    pub step_cost: u64,
    /// Where the loop starts between two vblanks: a duration after vblank 0, or random (seeded)
    #[arg(long, value_name = "D|random", default_value = "0", value_parser = parse_phase, allow_hyphen_values = true)]
    pub phase: Phase,
    /// One long frame at simulated time AT lasting DURATION (repeatable), e.g. 2s:300ms
    #[arg(long, value_name = "AT:DURATION", value_parser = parse_stall, allow_hyphen_values = true)]
    pub stall: Vec<Stall>,
    /// Simulated wall time, seconds
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = seconds, allow_hyphen_values = true)]
    pub seconds: f64,
    /// A mode, or all of them in cycle order [default: all] (or give --lanes)
    #[arg(long, value_name = "MODE|all", value_parser = parse_mode_choice)]
    pub mode: Option<ModeChoice>,
    /// Seed for the timer noise
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        allow_hyphen_values = true
    )]
    pub seed: u64,
    /// Print one JSON object instead of the table
    #[arg(long)]
    pub json: bool,
    /// Write one CSV row per presented frame per lane
    #[arg(long, value_name = "FILE.csv")]
    pub trace: Option<PathBuf>,
    /// Write each lane's final particle positions as JSON
    #[arg(long, value_name = "FILE.json")]
    pub dump_state: Option<PathBuf>,
    /// Rasterise every presented frame off-screen at this size with the window's drawing code
    /// and report the time it took (draw_ms_mean, draw_ms_max)
    #[arg(long, value_name = "WIDTHxHEIGHT", value_parser = parse_size)]
    pub draw: Option<(u32, u32)>,
}

/// Largest off-screen frame side, pixels.
pub const MAX_DRAW_SIDE: u32 = 8192;

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{s}' is not WIDTHxHEIGHT (e.g. 1280x720)");
    let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if w == 0 || h == 0 || w > MAX_DRAW_SIDE || h > MAX_DRAW_SIDE {
        return Err(format!(
            "'{s}' must be between 1x1 and {MAX_DRAW_SIDE}x{MAX_DRAW_SIDE}"
        ));
    }
    Ok((w, h))
}

fn positive_duration(s: &str) -> Result<u64, String> {
    match parse_duration(s)? {
        0 => Err(format!("'{s}' must be greater than zero")),
        ns => Ok(ns),
    }
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse()
}

fn parse_mode_choice(s: &str) -> Result<ModeChoice, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(ModeChoice::All);
    }
    s.parse().map(ModeChoice::One).map_err(|_| {
        let names = Mode::ALL.map(Mode::name).into_iter().chain(["all"]);
        format!("unknown mode '{s}' (expected {})", one_of(names))
    })
}

fn parse_pin(s: &str) -> Result<Pin, String> {
    s.parse()
}

fn parse_float(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() {
        return Err(format!("'{s}' is not a finite number"));
    }
    Ok(v)
}

fn positive_hz(s: &str) -> Result<f64, String> {
    let v = parse_float(s)?;
    if v <= 0.0 {
        return Err(format!("'{s}' must be greater than zero"));
    }
    if v > MAX_HZ {
        return Err(format!("'{s}' is above the maximum of {MAX_HZ} Hz"));
    }
    Ok(v)
}

fn seconds(s: &str) -> Result<f64, String> {
    let v = parse_float(s)?;
    if v <= 0.0 {
        return Err(format!("'{s}' must be greater than zero"));
    }
    if v > MAX_SECONDS {
        return Err(format!(
            "'{s}' is above the maximum of {MAX_SECONDS} s (30 days)"
        ));
    }
    Ok(v)
}

fn drag_rate(s: &str) -> Result<f32, String> {
    let v = parse_float(s)?;
    if v < 0.0 {
        return Err(format!("'{s}' must be 0 or more"));
    }
    if v > 1e6 {
        return Err(format!("'{s}' is above the maximum of 1e6 per second"));
    }
    Ok(v as f32)
}

fn particle_count(s: &str) -> Result<usize, String> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))?;
    let (max, bytes) = (crate::rope::MAX_PARTICLES, crate::rope::BYTES_PER_PARTICLE);
    if n < 1 {
        return Err(format!("'{s}' must be at least 1"));
    }
    if n as u64 > max as u64 {
        return Err(format!(
            "'{s}' is above the maximum of {max} ({bytes} bytes each: {} MB of state)",
            max * bytes / 1_000_000
        ));
    }
    Ok(n as usize)
}

fn parse_render_cost(s: &str) -> Result<RenderCost, String> {
    let (ramp, range) = match s.trim().strip_prefix("ramp:") {
        Some(rest) => (true, rest),
        None => (false, s.trim()),
    };
    let Some((lo, hi)) = range.split_once("..") else {
        if ramp {
            return Err(format!("'{s}' is not ramp:MIN..MAX (e.g. ramp:5ms..25ms)"));
        }
        return parse_duration(s).map(RenderCost::Fixed);
    };
    let (lo, hi) = (parse_duration(lo)?, parse_duration(hi)?);
    if lo > hi {
        return Err(format!(
            "'{s}': the minimum {} is above the maximum {}",
            format_duration(lo),
            format_duration(hi)
        ));
    }
    Ok(if ramp {
        RenderCost::Ramp(lo, hi)
    } else {
        RenderCost::Uniform(lo, hi)
    })
}

fn parse_phase(s: &str) -> Result<Phase, String> {
    if s.trim().eq_ignore_ascii_case("random") {
        return Ok(Phase::Random);
    }
    parse_duration(s).map(Phase::At)
}

fn parse_stall(s: &str) -> Result<Stall, String> {
    let (at, dur) = s
        .split_once(':')
        .ok_or_else(|| format!("'{s}' is not AT:DURATION (e.g. 2s:300ms)"))?;
    let at_ns = parse_duration(at).map_err(|e| format!("AT in '{s}': {e}"))?;
    let duration_ns = positive_duration(dur).map_err(|e| format!("DURATION in '{s}': {e}"))?;
    Ok(Stall { at_ns, duration_ns })
}

/// The window, ready to run: every flag checked and converted.
#[derive(Clone, Debug)]
pub struct WindowConfig {
    pub timing: TimingConfig,
    pub rope: RopeParams,
    /// 1 to [`MAX_PANES`] lanes; more than one starts in the split view.
    pub lanes: Vec<LaneSpec>,
    pub max_substep: MaxSubstep,
    pub vsync: bool,
    pub fps_cap: Option<f64>,
    pub exit_after_ns: Option<u64>,
    pub screenshot: Option<PathBuf>,
    pub frame_log: Option<PathBuf>,
}

/// Where `simulate` writes what it measured.
#[derive(Clone, Debug, Default)]
pub struct SimOutput {
    pub json: bool,
    pub trace: Option<PathBuf>,
    pub dump_state: Option<PathBuf>,
}

/// What `main` should do once the flags are known to be good.
#[derive(Debug)]
pub enum Run {
    Window(WindowConfig),
    Simulate(SimConfig, SimOutput),
}

/// Parses and validates the command line. `Err((message, status))`: print the message (one
/// line for errors; help and version text as clap renders it) and exit with the status.
pub fn parse<I, T>(args: I) -> Result<Run, (String, i32)>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = Cli::try_parse_from(args).map_err(|e| {
        use clap::error::ErrorKind;
        match e.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => (e.render().to_string(), 0),
            _ => {
                let text = e.render().to_string();
                let line = text
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("error");
                (format!("timestep-rope: {}", line.trim()), 2)
            }
        }
    })?;
    let bad = |msg: String| (format!("timestep-rope: error: {msg}"), 2);
    let run = match cli.command {
        None => window_config(cli.window).map(Run::Window),
        Some(Command::Simulate(sim)) => simulate_config(&cli.window.common, sim),
    };
    run.map_err(bad)
}

/// The window's flags, checked together and converted.
fn window_config(args: WindowArgs) -> Result<WindowConfig, String> {
    let common = &args.common;
    let lanes = match (&common.lanes, args.mode, args.split) {
        (Some(_), Some(_), _) | (Some(_), _, true) | (None, Some(_), true) => {
            return Err(
                "--mode, --split and --lanes each choose the lanes: give only one of them".into(),
            );
        }
        (Some(lanes), None, false) => lanes.0.clone(),
        (None, _, true) => LaneSpec::every_mode(),
        (None, mode, false) => vec![LaneSpec::mode(mode.unwrap_or(Mode::Interpolated))],
    };
    if lanes.len() > MAX_PANES {
        return Err(format!(
            "--lanes: the window shows at most {MAX_PANES} lanes, got {} (simulate takes any number)",
            lanes.len()
        ));
    }
    Ok(WindowConfig {
        timing: common.timing()?,
        rope: common.rope()?,
        lanes,
        max_substep: common.max_substep.unwrap_or_default(),
        vsync: args.vsync == OnOff::On,
        fps_cap: args.fps_cap,
        exit_after_ns: args.exit_after,
        screenshot: args.screenshot,
        frame_log: args.frame_log,
    })
}

/// `simulate`'s flags, checked together and converted.
fn simulate_config(common: &CommonArgs, args: SimulateArgs) -> Result<Run, String> {
    if args.vsync == OnOff::Off && args.render_cost.max_ns() == 0 {
        return Err(
            "--vsync off needs --render-cost above zero: with nothing to wait for, \
                    the simulated loop would never advance time"
                .into(),
        );
    }
    let lanes = match (&common.lanes, args.mode) {
        (Some(_), Some(_)) => {
            return Err("--mode and --lanes both choose the lanes: give one of them".into());
        }
        (Some(lanes), None) => lanes.0.clone(),
        (None, None | Some(ModeChoice::All)) => LaneSpec::every_mode(),
        (None, Some(ModeChoice::One(mode))) => vec![LaneSpec::mode(mode)],
    };
    let cfg = SimConfig {
        timing: common.timing()?,
        rope: common.rope()?,
        display: DisplayConfig {
            display_hz: args.display_hz,
            vsync: args.vsync == OnOff::On,
            jitter_ns: args.jitter,
            render_cost: args.render_cost,
            step_cost_ns: args.step_cost,
            stalls: args.stall,
            phase: args.phase,
            duration_ns: (args.seconds * 1e9).round() as u64,
            seed: args.seed,
        },
        lanes,
        max_substep: common.max_substep.unwrap_or_default(),
        draw: args.draw,
    };
    let out = SimOutput {
        json: args.json,
        trace: args.trace,
        dump_state: args.dump_state,
    };
    Ok(Run::Simulate(cfg, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(args: &[&str]) -> (String, i32) {
        let mut v = vec!["timestep-rope"];
        v.extend_from_slice(args);
        match parse(v) {
            Ok(run) => panic!("{args:?} parsed: {run:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn bad_values_name_their_flag_in_one_line_with_status_2() {
        for (args, flag) in [
            (&["--dt", "0"][..], "--dt"),
            (&["--dt", "-1ms"], "--dt"),
            (&["--dt", "abc"], "--dt"),
            (&["--dt", "1ms", "--clamp", "0.5ms"], "--clamp"),
            (&["--particles", "0"], "--particles"),
            (&["simulate", "--display-hz", "0"], "--display-hz"),
            (&["simulate", "--stall", "2s"], "--stall"),
            (&["--pin", "middle"], "--pin"),
            (&["simulate", "--mode", "wobbly"], "--mode"),
        ] {
            let (msg, status) = err(args);
            assert_eq!(status, 2, "{args:?}");
            assert_eq!(msg.lines().count(), 1, "{args:?}: {msg}");
            assert!(msg.contains(flag), "{args:?}: {msg}");
        }
    }

    #[test]
    fn shared_flags_work_after_the_subcommand() {
        let run = parse([
            "timestep-rope",
            "simulate",
            "--dt",
            "0.5ms",
            "--stall",
            "2s:300ms",
        ]);
        match run {
            Ok(Run::Simulate(cfg, _)) => {
                assert_eq!(cfg.timing.dt_ns, 500_000);
                assert_eq!(
                    cfg.display.stalls,
                    vec![Stall {
                        at_ns: 2_000_000_000,
                        duration_ns: 300_000_000
                    }]
                );
                assert_eq!(cfg.lanes, LaneSpec::every_mode());
            }
            other => panic!("{other:?}"),
        }
    }

    fn lanes(args: &[&str]) -> Vec<String> {
        let mut v = vec!["timestep-rope"];
        v.extend_from_slice(args);
        let lanes = match parse(v) {
            Ok(Run::Window(cfg)) => cfg.lanes,
            Ok(Run::Simulate(cfg, _)) => cfg.lanes,
            Err(e) => panic!("{args:?}: {e:?}"),
        };
        lanes.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn lanes_come_from_lanes_mode_or_split_in_the_order_given() {
        assert_eq!(lanes(&[]), ["interpolated"]);
        assert_eq!(lanes(&["--mode", "fixed"]), ["fixed"]);
        assert_eq!(
            lanes(&["--split"]),
            ["variable", "semi-fixed", "fixed", "interpolated"]
        );
        assert_eq!(lanes(&["--lanes", "fixed,variable"]), ["fixed", "variable"]);
        assert_eq!(lanes(&["simulate"]).len(), 4);
        assert_eq!(lanes(&["simulate", "--mode", "semi-fixed"]), ["semi-fixed"]);
        let many = "fixed,fixed,variable,interpolated,semi-fixed,fixed";
        assert_eq!(lanes(&["simulate", "--lanes", many]).len(), 6);
        assert_eq!(lanes(&["--lanes", "fixed", "simulate"]), ["fixed"]);
    }

    #[test]
    fn bad_lanes_are_one_line_naming_the_flag() {
        for (args, says) in [
            (&["--lanes", "fixed,wobbly"][..], "wobbly"),
            (&["--lanes", ""], "empty"),
            (&["--lanes", "fixed,,variable"], "empty lane"),
            (&["--lanes", "fixed,fixed,fixed,fixed,fixed"], "at most 4"),
            (&["--lanes", "fixed", "--mode", "fixed"], "--lanes"),
            (&["--lanes", "fixed", "--split"], "--split"),
            (&["--split", "--mode", "fixed"], "--split"),
            (
                &["simulate", "--lanes", "fixed", "--mode", "all"],
                "--lanes",
            ),
        ] {
            let (msg, status) = err(args);
            assert_eq!(status, 2, "{args:?}");
            assert_eq!(msg.lines().count(), 1, "{args:?}: {msg}");
            assert!(msg.contains(says), "{args:?}: {msg}");
            assert!(msg.contains("--"), "{args:?} names no flag: {msg}");
        }
    }
}
