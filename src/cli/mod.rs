//! Flags, their parsing and validation. Everything a user types is checked here, before any
//! window opens or any simulation starts; a bad value is one line naming the flag and exit 2.

mod args;
mod errors;
mod paths;
mod values;

pub use args::*;

use crate::app::{CaptureChoice, WindowConfig};
use crate::commands::probe::ProbeConfig;
use crate::commands::replay::ReplayOutput;
use crate::commands::sweep::SweepOutput;
use crate::failure::Failure;
use errors::BadFlags;
use timestep_lab::analyses::advise::{AdviseConfig, Situation, Ticks};
use timestep_lab::analyses::sweep::{Axis, DEFAULT_RATES, MAX_CONFIGS, SweepConfig};
use timestep_lab::hosts::replay::ReplayConfig;
use timestep_lab::hosts::simulate::vrr::Vrr;
use timestep_lab::hosts::simulate::{DisplayConfig, RenderCost, SimConfig, SimOutput};
use timestep_lab::model::lane::{LaneError, LaneSpec};
use timestep_lab::model::rope::Drive;
use timestep_lab::protocol::machine::Machine;
use timestep_lab::view::draw::MAX_PANES;
use timestep_loop::Pacing;
use timestep_loop::ns_from_seconds;

/// Longest `simulate --seconds`: 30 simulated days.
pub const MAX_SECONDS: f64 = 30.0 * 86_400.0;

/// What `main` should do once the flags are known to be good.
#[derive(Debug)]
pub enum Run {
    /// Print this (help or version text) on stdout, and exit 0.
    Help(String),
    Window(WindowConfig),
    Simulate(SimConfig, SimOutput),
    Sweep(SweepConfig, SweepOutput),
    Replay(ReplayConfig, ReplayOutput),
    /// `advise`, and whether its progress shows off a terminal (`--progress`).
    Advise(AdviseConfig, bool),
    Probe(ProbeConfig),
    /// Print the lessons.
    Lessons,
    /// Print a completion script for this shell.
    Completions(clap_complete::Shell),
    /// Print this man page: the program's, or a subcommand's.
    Man(Box<clap::Command>),
}

/// The man page `man [SUBCOMMAND]` asks for: the command it documents, named as man names
/// pages (`timestep-rope-simulate`).
fn man_page(subcommand: Option<String>) -> Result<clap::Command, BadFlags> {
    let mut top = <Cli as clap::CommandFactory>::command();
    let Some(name) = subcommand else {
        return Ok(top);
    };
    // Built, so the shared (global) flags reach the subcommands' pages too.
    top.build();
    let names: Vec<String> = top
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    top.find_subcommand(&name)
        .map(|c| c.clone().name(format!("timestep-rope-{name}")))
        .ok_or_else(|| BadFlags::NoManPage {
            name,
            names: names.join(", "),
        })
}

/// Writes the completion script for `shell` to `out`, from the one flag definition.
pub fn completions(
    shell: clap_complete::Shell,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut command = <Cli as clap::CommandFactory>::command();
    // clap_complete panics on a failed write (a reader that stopped early, `| head`), so
    // the script is made in memory and written here, where a failure is an error.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "timestep-rope", &mut script);
    out.write_all(&script)
}

/// Writes `command`'s man page (roff) to `out`, from the one flag definition.
pub fn man(command: clap::Command, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    clap_mangen::Man::new(command).render(out)
}

/// Parses and validates the command line: what to run, or a one-line error naming the flag
/// (exit status 2).
pub fn parse<I, T>(args: I) -> Result<Run, Failure>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let command = <Cli as clap::CommandFactory>::command();
    let matches = command.try_get_matches_from(args).map_err(clap_failure);
    let matches = match matches {
        Ok(matches) => matches,
        Err(Ok(help)) => return Ok(Run::Help(help)),
        Err(Err(failure)) => return Err(failure),
    };
    if let Some(flag) = loop_flag_on_a_command_without_a_loop(&matches) {
        return Err(Failure::usage(flag));
    }
    if let Some(flag) = display_flag_with_a_capture(&matches) {
        return Err(Failure::usage(flag));
    }
    let advise = advise_line(&matches);
    let cli =
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches).map_err(
            |e| match clap_failure(e) {
                Ok(text) => Failure::usage(text.trim()),
                Err(failure) => failure,
            },
        )?;
    let run = match cli.command {
        None => window_config(cli.window).map(Run::Window),
        Some(Command::Simulate(sim)) => simulate_config(&cli.window.common, sim, advise),
        Some(Command::Sweep(sweep)) => sweep_config(&cli.window.common, sweep, advise),
        Some(Command::Replay(replay)) => replay_config(&cli.window.common, replay, advise),
        Some(Command::Advise(args)) => {
            let (flags, check) = matches
                .subcommand()
                .map(|(name, sub)| (advise_words(name, sub).join(" "), check_words(sub)))
                .unwrap_or_default();
            let progress = args.progress;
            advise_config(&cli.window.common, args, flags, check)
                .map(|cfg| Run::Advise(cfg, progress))
        }
        Some(Command::Probe(probe)) => Ok(Run::Probe(probe_config(probe))),
        Some(Command::Lessons) => Ok(Run::Lessons),
        Some(Command::Completions { shell }) => Ok(Run::Completions(shell)),
        Some(Command::Man { subcommand }) => man_page(subcommand).map(|c| Run::Man(Box::new(c))),
    };
    run.and_then(|run| Ok(paths::check(&run).map(|()| run)?))
        .map_err(Failure::usage)
}

/// What clap's error means: help or version text to print (`Ok`), or a one-line failure.
fn clap_failure(e: clap::Error) -> Result<String, Failure> {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Ok(wrap_help(
            &e.render().to_string(),
            timestep_lab::util::fit::COLUMNS,
        )),
        kind => {
            let missing = kind == ErrorKind::MissingRequiredArgument;
            let line = one_line(&e.render().to_string(), missing);
            Err(Failure::usage(match suggested(&e) {
                Some(like) => format!("{line} (did you mean {like}?)"),
                None => line,
            }))
        }
    }
}

/// clap's suggestion for a mistyped subcommand or flag (`simualte`: 'simulate'), quoted, or
/// none: its tips are left out of the one line, but not this.
fn suggested(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let kinds = [ContextKind::SuggestedSubcommand, ContextKind::SuggestedArg];
    let value = kinds.into_iter().find_map(|k| e.get(k))?;
    let names = match value {
        ContextValue::String(s) => vec![s.clone()],
        ContextValue::Strings(v) if !v.is_empty() => v.clone(),
        _ => return None,
    };
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    Some(quoted.join(" or "))
}

/// clap's error text as one line: its first paragraph, whose later lines (the arguments not
/// provided) join the first; with `usage`, the usage line too. The tips after it are left out.
fn one_line(text: &str, usage: bool) -> String {
    let mut paragraph = text
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty());
    let first = paragraph.next().unwrap_or("error");
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let rest: Vec<&str> = paragraph.collect();
    if !rest.is_empty() {
        line = format!("{line} {}", rest.join(", "));
    }
    let usage_line = text.lines().find_map(|l| l.trim().strip_prefix("Usage: "));
    match usage_line {
        Some(u) if usage => format!("{line} (usage: {u})"),
        _ => line,
    }
}

/// `--help`'s text with every line within `width` columns (clap's own wrapping needs a terminal
/// size crate): a long line breaks at spaces, its rest indented to where its description starts
/// (the text after the flag's two-space gap), or two spaces for a paragraph.
fn wrap_help(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let lead = line.len() - line.trim_start().len();
        let indent = line[lead..]
            .find("  ")
            .map(|gap| {
                let at = lead + gap;
                at + line[at..].len() - line[at..].trim_start().len()
            })
            .filter(|&col| col < width / 2)
            .unwrap_or(lead + 2);
        let mut current = String::new();
        for (i, word) in line.split(' ').enumerate() {
            let next = current.chars().count() + 1 + word.chars().count();
            if i > 0 && next > width && !current.trim().is_empty() {
                out.push_str(current.trim_end());
                out.push('\n');
                current = " ".repeat(indent);
            } else if i > 0 {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push_str(current.trim_end());
        out.push('\n');
    }
    out
}

/// The subcommands that run no loop and no rope: the loop and rope flags (global, so every
/// subcommand's parser takes them) mean nothing there, and one given is refused by name
/// rather than ignored.
const WITHOUT_A_LOOP: [&str; 4] = ["probe", "lessons", "completions", "man"];

/// The error for a loop or rope flag typed after a subcommand that runs neither.
fn loop_flag_on_a_command_without_a_loop(matches: &clap::ArgMatches) -> Option<String> {
    let (name, sub) = matches.subcommand()?;
    if !WITHOUT_A_LOOP.contains(&name) {
        return None;
    }
    let command = <Cli as clap::CommandFactory>::command();
    let given = command
        .get_arguments()
        .filter(|a| a.is_global_set())
        .find(|a| {
            sub.value_source(a.get_id().as_str()) == Some(clap::parser::ValueSource::CommandLine)
        })?;
    let flag = format!("--{}", given.get_long().unwrap_or(given.get_id().as_str()));
    Some(format!(
        "{flag}: timestep-rope {name} runs no loop and no rope, so it takes no {flag}"
    ))
}

/// The window's flags, checked together and converted.
fn window_config(args: WindowArgs) -> Result<WindowConfig, BadFlags> {
    let common = &args.common;
    if args.lesson.is_some() && (common.lanes.is_some() || args.mode.is_some() || args.split) {
        return Err(BadFlags::Together(
            "--lesson sets the lanes: leave out --lanes, --mode and --split",
        ));
    }
    let lanes = match (&common.lanes, args.mode, args.split) {
        (Some(_), Some(_), _) | (Some(_), _, true) | (None, Some(_), true) => {
            return Err(BadFlags::Together(
                "--mode, --split and --lanes each choose the lanes: give only one of them",
            ));
        }
        (Some(lanes), None, false) => lanes.0.clone(),
        (None, _, true) => LaneSpec::every_mode(),
        (None, Some(mode), false) => vec![LaneSpec::mode(mode)],
        (None, None, false) => default_lanes()?,
    };
    let overlay = common.lanes.is_none() && args.mode.is_none() && !args.split;
    let pacing = match (args.fps_cap, args.pacing) {
        (Some(_), Some(_)) => {
            return Err(BadFlags::Together(
                "--fps-cap HZ is --pacing cap:HZ: give only one of them",
            ));
        }
        (Some(hz), None) => Pacing::Cap(hz),
        (None, pacing) => pacing.unwrap_or(Pacing::Vsync),
    };
    if lanes.len() > MAX_PANES {
        return Err(BadFlags::TooManyPanes(lanes.len()));
    }
    Ok(WindowConfig {
        timing: common.timing()?,
        rope: common.rope(Drive::sway())?,
        lanes,
        max_substep: common.max_substep.unwrap_or_default(),
        vsync: args.vsync == OnOff::On,
        pacing,
        exit_after_ns: args.exit_after,
        screenshot: args.screenshot,
        frame_log: args.frame_log,
        report: args.report,
        sleep: args.sleep,
        lesson: args.lesson,
        replay: capture_choice(args.replay, args.capture)?,
        overlay,
    })
}

/// A plain launch's lanes: [`crate::app::DEFAULT_LANES`].
fn default_lanes() -> Result<Vec<LaneSpec>, LaneError> {
    timestep_lab::model::lane::parse_lanes(crate::app::DEFAULT_LANES)
}

/// `--replay` and the flags that choose its frames.
fn capture_choice(
    replay: Option<std::path::PathBuf>,
    which: CaptureArgs,
) -> Result<Option<CaptureChoice>, BadFlags> {
    match replay {
        Some(path) => Ok(Some(CaptureChoice {
            path,
            app: which.app,
            swapchain: which.swapchain,
        })),
        None if which.app.is_some() || which.swapchain.is_some() => Err(BadFlags::Together(
            "--app and --swapchain choose a capture's frames: give --replay CAPTURE (or use \
             timestep-rope replay)",
        )),
        None => Ok(None),
    }
}

/// `simulate`'s flags, checked together and converted.
fn simulate_config(
    common: &CommonArgs,
    args: SimulateArgs,
    advise: String,
) -> Result<Run, BadFlags> {
    let lanes = match (&common.lanes, args.mode) {
        (Some(_), Some(_)) => {
            return Err(BadFlags::Together(
                "--mode and --lanes both choose the lanes: give one of them",
            ));
        }
        (Some(lanes), None) => lanes.0.clone(),
        (None, None | Some(ModeChoice::All)) => LaneSpec::every_mode(),
        (None, Some(ModeChoice::One(mode))) => vec![LaneSpec::mode(mode)],
    };
    let plot_ns = args.plot.plot_ns()?;
    let cfg = SimConfig {
        timing: common.timing()?,
        rope: common.rope(Drive::Off)?,
        display: simulated_display(&args.display, args.display_hz, args.seconds)?,
        lanes,
        max_substep: common.max_substep.unwrap_or_default(),
        draw: args.draw,
        physics: true,
    };
    let out = SimOutput {
        json: args.json,
        wide: args.table.wide,
        trace: args.trace,
        dump_state: args.dump_state,
        plot: args.plot.plot,
        plot_ns,
        progress: args.progress,
        advise,
    };
    Ok(Run::Simulate(cfg, out))
}

/// `sweep`'s flags: the lanes default to the four modes and every preset; at most
/// [`MAX_CONFIGS`] configurations.
fn sweep_config(common: &CommonArgs, args: SweepArgs, advise: String) -> Result<Run, BadFlags> {
    let lanes = match &common.lanes {
        Some(lanes) => lanes.0.clone(),
        None => [LaneSpec::every_mode(), LaneSpec::every_preset()].concat(),
    };
    let (axis, rates) = sweep_rates(&args)?;
    let configs = rates.len() as u64 * lanes.len() as u64;
    if configs > MAX_CONFIGS {
        return Err(BadFlags::TooManyConfigs {
            flag: axis.column().replace('_', "-"),
            rates: rates.len(),
            lanes: lanes.len(),
            configs,
        });
    }
    let first = match axis {
        Axis::DisplayHz => rates.first().copied().unwrap_or(60.0),
        Axis::Fps => 60.0,
    };
    let base = SimConfig {
        timing: common.timing()?,
        rope: common.rope(Drive::Off)?,
        display: display_config(&args.display, first, args.seconds)?,
        lanes,
        max_substep: common.max_substep.unwrap_or_default(),
        draw: None,
        physics: args.physics,
    };
    let cfg = SweepConfig {
        base,
        axis,
        rates,
        threads: args.threads.map(usize::from),
    };
    let out = SweepOutput {
        json: args.json,
        wide: args.table.wide,
        csv: args.csv,
        plot: args.plot,
        advise,
    };
    Ok(Run::Sweep(cfg, out))
}

/// What a sweep sweeps: display rates, or with `--vrr` frame rates (`--fps`), which set the
/// render cost.
fn sweep_rates(args: &SweepArgs) -> Result<(Axis, Vec<f64>), BadFlags> {
    let default = || timestep_lab::analyses::sweep::parse_rates(DEFAULT_RATES);
    match (&args.display.vrr, &args.display_hz, &args.fps) {
        (None, _, Some(_)) => Err(BadFlags::Together(
            "--fps sweeps frame rates on a --vrr panel: give --vrr MIN..MAX (or sweep display \
             rates with --display-hz)",
        )),
        (None, hz, None) => Ok((
            Axis::DisplayHz,
            hz.as_ref().map_or_else(default, |r| Ok(r.0.clone()))?,
        )),
        (Some(_), Some(_), _) => Err(BadFlags::Together(
            "--display-hz and --vrr both set the display's refresh: a --vrr sweep sweeps frame \
             rates (--fps)",
        )),
        (Some(_), None, _) if args.display.render_cost.max_ns() > 0 => Err(BadFlags::Together(
            "--render-cost is set by each --fps rate in a --vrr sweep: leave it out",
        )),
        (Some(_), None, fps) => Ok((
            Axis::Fps,
            fps.as_ref().map_or_else(default, |r| Ok(r.0.clone()))?,
        )),
    }
}

/// `replay`'s flags: the lanes default to the four modes and every preset.
fn replay_config(common: &CommonArgs, args: ReplayArgs, advise: String) -> Result<Run, BadFlags> {
    let lanes = match &common.lanes {
        Some(lanes) => lanes.0.clone(),
        None => [LaneSpec::every_mode(), LaneSpec::every_preset()].concat(),
    };
    let cfg = ReplayConfig {
        capture: args.capture,
        app: args.which.app,
        swapchain: args.which.swapchain,
        timing: common.timing()?,
        rope: common.rope(Drive::Off)?,
        lanes,
        max_substep: common.max_substep.unwrap_or_default(),
        feedback_delay: args.feedback_delay,
    };
    let out = ReplayOutput {
        json: args.json,
        wide: args.table.wide,
        trace: args.trace,
        plot_ns: args.plot.plot_ns()?,
        plot: args.plot.plot,
        advise,
    };
    Ok(Run::Replay(cfg, out))
}

/// `simulate`'s display: `--display-hz` (60 by default) or `--vrr`, not both.
fn simulated_display(
    args: &DisplayArgs,
    hz: Option<f64>,
    seconds: f64,
) -> Result<DisplayConfig, BadFlags> {
    if hz.is_some() && args.vrr.is_some() {
        return Err(BadFlags::Together(
            "--display-hz and --vrr both set the display's refresh: give one of them (a --vrr \
             panel refreshes anywhere in its range)",
        ));
    }
    display_config(args, hz.unwrap_or(DEFAULT_DISPLAY_HZ), seconds)
}

/// The panel `--vrr` and `--lfc` describe, if any.
fn vrr_panel(args: &DisplayArgs) -> Result<Option<Vrr>, BadFlags> {
    match (args.vrr, args.lfc) {
        (None, Some(_)) => Err(BadFlags::Together(
            "--lfc is a --vrr panel's: give --vrr MIN..MAX",
        )),
        (Some(_), _) if args.vsync == OnOff::Off => Err(BadFlags::Together(
            "--vrr needs --vsync on: without it frames are shown the moment they are ready, \
             whatever the panel does",
        )),
        (Some((min_hz, max_hz)), lfc) => Ok(Some(Vrr {
            min_hz,
            max_hz,
            lfc: lfc.unwrap_or_default(),
        })),
        (None, None) => Ok(None),
    }
}

/// `advise`'s flags: a capture, or a simulated display (every lane integrated in 1 ms substeps
/// unless `--max-substep` says otherwise, so that the loops differ by their timing alone); the
/// candidates are `--engine`'s loops unless `--lanes` names them.
fn advise_config(
    common: &CommonArgs,
    args: AdviseArgs,
    flags: String,
    check: Vec<String>,
) -> Result<AdviseConfig, BadFlags> {
    let lanes = advise_lanes(common, &args)?;
    let max_substep = common
        .max_substep
        .unwrap_or(timestep_loop::MaxSubstep::Set(ADVISE_SUBSTEP_NS));
    let ticks = match common.dt {
        None => Ticks::Game,
        Some(args::Dt::Tick(tick)) => Ticks::Given(tick),
        Some(args::Dt::Auto) => Ticks::Auto,
    };
    let display_hz = match (&args.capture, args.display.vrr) {
        (Some(_), _) => None,
        (None, Some((_, max_hz))) => Some(max_hz),
        (None, None) => Some(args.display_hz.unwrap_or(DEFAULT_DISPLAY_HZ)),
    };
    let timings = ticks
        .tried(display_hz)
        .into_iter()
        .map(|tick| common.timing_at(tick))
        .collect::<Result<Vec<_>, _>>()?;
    let timing = timings[0];
    let situation = match args.capture {
        Some(capture) => Situation::Capture(ReplayConfig {
            capture,
            app: args.which.app,
            swapchain: args.which.swapchain,
            timing,
            rope: common.rope(Drive::Off)?,
            lanes,
            max_substep,
            feedback_delay: args.display.feedback_delay,
        }),
        None => {
            let sim = advise_sim(common, &args, timing, lanes, max_substep)?;
            Situation::Display {
                pacings: timestep_lab::analyses::advise::pacings(
                    args.display.pacing,
                    &sim.display,
                    args.engine,
                ),
                sim: Box::new(sim),
            }
        }
    };
    Ok(AdviseConfig {
        situation,
        ticks,
        timings,
        engine: args.engine,
        flags,
        check,
        json: args.json,
    })
}

/// The loops advise ranks: `--lanes`, or `--engine`'s, refused where the engine cannot pace
/// as `--pacing` asks.
fn advise_lanes(common: &CommonArgs, args: &AdviseArgs) -> Result<Vec<LaneSpec>, BadFlags> {
    let lanes = match (&common.lanes, args.engine) {
        (Some(_), Some(engine)) if engine != timestep_lab::analyses::advise::Engine::Custom => {
            return Err(BadFlags::EngineAndLanes(engine.name()));
        }
        (Some(lanes), _) => lanes.0.clone(),
        (None, engine) => timestep_lab::analyses::advise::candidates(engine),
    };
    if let Some(engine) = args.engine.filter(|e| !e.paces(args.display.pacing)) {
        let caps = engine.paces(timestep_loop::Pacing::Cap(60.0));
        return Err(BadFlags::EnginePacing {
            pacing: args.display.pacing,
            engine: engine.title(),
            and: if caps { " and cap:HZ" } else { "" },
        });
    }
    Ok(lanes)
}

/// Advise on a simulated display: the display's flags checked together, and long enough for
/// a verdict.
fn advise_sim(
    common: &CommonArgs,
    args: &AdviseArgs,
    timing: timestep_loop::TimingConfig,
    lanes: Vec<LaneSpec>,
    max_substep: timestep_loop::MaxSubstep,
) -> Result<SimConfig, BadFlags> {
    if args.which.app.is_some() || args.which.swapchain.is_some() {
        return Err(BadFlags::Together(
            "--app and --swapchain choose a capture's frames: give advise CAPTURE",
        ));
    }
    let display = simulated_display(&args.display, args.display_hz, args.seconds)?;
    if display.vrr.is_some() && display.render_cost.max_ns() == 0 {
        return Err(BadFlags::Together(VRR_WITHOUT_RENDER));
    }
    long_enough_for_a_verdict(args.seconds, &display)?;
    Ok(SimConfig {
        timing,
        rope: common.rope(Drive::Off)?,
        display,
        lanes,
        max_substep,
        draw: None,
        physics: true,
    })
}

/// `advise --seconds S` on `display`: refused when the run cannot show the frames a verdict
/// wants, at the fastest its refresh, its shortest render and its pacing allow (a loop ranked on
/// no frames is ranked on nothing).
fn long_enough_for_a_verdict(seconds: f64, display: &DisplayConfig) -> Result<(), BadFlags> {
    let (hz, frame_ns) = (display.display_hz, display.render_cost.min_ns());
    let shortest = timestep_lab::analyses::advise::shortest_run_s(hz, frame_ns, display.pacing);
    if seconds >= shortest {
        return Ok(());
    }
    let fps = timestep_lab::analyses::advise::fastest_fps(hz, frame_ns, display.pacing);
    Err(BadFlags::TooShortForAVerdict {
        seconds,
        frames: (seconds * fps).floor(),
        shortest,
    })
}

/// `advise --vrr` without a render time: a variable-refresh panel scans a frame out when it is
/// ready, so every loop's latency and pacing turn on how long a frame renders, which only the
/// user knows; a verdict on frames that take no time would be about no real game.
const VRR_WITHOUT_RENDER: &str = "--render-cost: on a --vrr panel the verdict turns on how long \
                                  a frame renders; give your frame's render time (e.g. \
                                  --render-cost 5ms or 4ms..12ms)";

/// The display's refresh rate when neither `--display-hz` nor `--vrr` gives it, Hz.
const DEFAULT_DISPLAY_HZ: f64 = 60.0;

/// `advise`'s substep when `--max-substep` is not given, ns: the rope's own stability is not the
/// user's game's, so every loop is integrated finely enough to hold and is judged by its timing.
pub const ADVISE_SUBSTEP_NS: u64 = 1_000_000;

/// The flags that describe a simulated display, which a capture fixes instead.
const DISPLAY_FLAGS: [&str; 14] = [
    "display_hz",
    "vsync",
    "vrr",
    "lfc",
    "machine",
    "sleep",
    "jitter",
    "render_cost",
    "pacing",
    "step_cost",
    "phase",
    "stall",
    "seed",
    "seconds",
];

/// The error for `advise CAPTURE` given a flag of a simulated display.
fn display_flag_with_a_capture(matches: &clap::ArgMatches) -> Option<String> {
    let ("advise", sub) = matches.subcommand()? else {
        return None;
    };
    sub.get_raw("capture")?;
    let given = DISPLAY_FLAGS
        .into_iter()
        .find(|id| sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine))?;
    let flag = format!("--{}", given.replace('_', "-"));
    Some(format!(
        "{flag}: advise CAPTURE runs on the capture's own frames; {flag} describes a simulated \
         display (leave out CAPTURE to simulate one)"
    ))
}

/// The `advise` command line for the situation `simulate`, `sweep` or `replay` was given
/// (see [`advise_words`]); empty for other commands.
fn advise_line(matches: &clap::ArgMatches) -> String {
    match matches.subcommand() {
        Some((name @ ("simulate" | "sweep" | "replay"), sub)) => {
            let words = advise_words(name, sub);
            format!("For a verdict: timestep-rope advise {}", words.join(" "))
                .trim_end()
                .to_string()
        }
        _ => String::new(),
    }
}

/// The words of an `advise` command line for what subcommand `name` was typed with: the
/// capture, then every flag typed that `advise` takes too, in the order `advise` lists them (not
/// the output flags; nor the lanes, but for `advise` itself, which chooses among them). The line
/// runs as printed: a `sweep --vrr` gives the render time its first `--fps` rate sets, and a run
/// too short for a verdict is lengthened to the shortest that is long enough.
fn advise_words(name: &str, sub: &clap::ArgMatches) -> Vec<String> {
    let mut flags = typed_advise_flags(name, sub);
    if name == "sweep" && sub.value_source("vrr") == Some(clap::parser::ValueSource::CommandLine) {
        let fps = raw_value(sub, "fps").unwrap_or_else(|| DEFAULT_RATES.to_string());
        if let Some(hz) = timestep_lab::analyses::sweep::parse_rates(&fps)
            .ok()
            .and_then(|r| r.first().copied())
        {
            let cost = timestep_lab::analyses::sweep::render_cost_of_fps(hz).to_string();
            flags.push(("render-cost".into(), cost));
        }
    }
    let capture = raw_value(sub, "capture");
    if capture.is_none() {
        lengthen_to_a_verdict(&mut flags);
    }
    let flags = flags
        .into_iter()
        .flat_map(|(long, value)| [format!("--{long}"), shell_word(&value)]);
    capture
        .map(|c| shell_word(&not_a_flag(&c)))
        .into_iter()
        .chain(flags)
        .collect()
}

/// The flags `name` was typed with that `advise` takes too, as (long name, value), in the
/// order `advise` lists them.
fn typed_advise_flags(name: &str, sub: &clap::ArgMatches) -> Vec<(String, String)> {
    let skip: &[&str] = if name == "advise" { &[] } else { &["lanes"] };
    typed_flags("advise", name, sub, skip)
}

/// The command that runs one loop alone on the situation `advise` was typed with (its
/// [`AdviseConfig::check`]): `simulate` or `replay CAPTURE`, with every flag typed that it
/// takes too but those the loop's check line gives itself.
fn check_words(sub: &clap::ArgMatches) -> Vec<String> {
    const OWN: [&str; 6] = ["lanes", "dt", "max_substep", "pacing", "seconds", "capture"];
    let capture = raw_value(sub, "capture");
    let target = if capture.is_some() {
        "replay"
    } else {
        "simulate"
    };
    let flags = typed_flags(target, "advise", sub, &OWN)
        .into_iter()
        .flat_map(|(long, value)| [format!("--{long}"), shell_word(&value)]);
    std::iter::once(target.to_string())
        .chain(capture.map(|c| shell_word(&not_a_flag(&c))))
        .chain(flags)
        .collect()
}

/// The flags `name` was typed with that `target` takes too, but `skip`, as (long name,
/// value), in the order `target` lists them.
fn typed_flags(
    target: &str,
    name: &str,
    sub: &clap::ArgMatches,
    skip: &[&str],
) -> Vec<(String, String)> {
    let mut top = <Cli as clap::CommandFactory>::command();
    top.build();
    let (Some(target), Some(own)) = (top.find_subcommand(target), top.find_subcommand(name)) else {
        return Vec::new();
    };
    let mut flags = Vec::new();
    for arg in target.get_arguments() {
        let id = arg.get_id().as_str();
        let (Some(long), true) = (arg.get_long(), arg.get_action().takes_values()) else {
            continue;
        };
        let typed = own.get_arguments().any(|a| a.get_id() == id)
            && sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        if !typed || skip.contains(&id) {
            continue;
        }
        let Ok(Some(values)) = sub.try_get_raw(id) else {
            continue;
        };
        for value in values {
            flags.push((long.to_string(), one_rate(id, &value.to_string_lossy())));
        }
    }
    flags
}

/// The raw value of flag `id` as typed, if it was.
fn raw_value(sub: &clap::ArgMatches, id: &str) -> Option<String> {
    let mut values = sub.try_get_raw(id).ok().flatten()?;
    values.next().map(|v| v.to_string_lossy().into_owned())
}

/// `--seconds` raised, or added, to the shortest run a verdict on the flags' display wants
/// (`advise` refuses a shorter one: [`long_enough_for_a_verdict`]).
fn lengthen_to_a_verdict(flags: &mut Vec<(String, String)>) {
    let value = |long: &str| {
        flags
            .iter()
            .find(|(l, _)| l == long)
            .map(|(_, v)| v.clone())
    };
    let hz = match (value("vrr"), value("display-hz")) {
        (Some(vrr), _) => values::parse_vrr(&vrr).map_or(DEFAULT_DISPLAY_HZ, |(_, max)| max),
        (None, Some(hz)) => values::positive_hz(&hz).unwrap_or(DEFAULT_DISPLAY_HZ),
        (None, None) => DEFAULT_DISPLAY_HZ,
    };
    // The longest render, not the shortest: a line that asks for a run long enough whatever
    // the renders take, where advise refuses only a run too short whatever they take.
    let slowest = value("render-cost").and_then(|c| values::parse_render_cost(&c).ok());
    let pacing = value("pacing").and_then(|p| values::parse_pacing(&p).ok());
    let seconds = value("seconds").and_then(|s| values::seconds(&s).ok());
    let shortest = timestep_lab::analyses::advise::shortest_run_s(
        hz,
        slowest.map_or(0, RenderCost::max_ns),
        pacing.unwrap_or(Pacing::Vsync),
    );
    if seconds.unwrap_or(args::ADVISE_SECONDS) >= shortest {
        return;
    }
    let lengthened = format!("{shortest}");
    flags.retain(|(l, _)| l != "seconds");
    flags.push(("seconds".into(), lengthened));
}

/// A capture's path as a command line takes it: one that starts with `-` would read as a flag,
/// so it is given from the current directory (`./-x.csv`).
fn not_a_flag(path: &str) -> String {
    if path.starts_with('-') {
        format!("./{path}")
    } else {
        path.to_string()
    }
}

/// A flag's value as `advise` takes it: a sweep's list of rates (`--display-hz 30..144`) becomes
/// its first rate, so that the line runs as printed; any other value is kept.
fn one_rate(id: &str, value: &str) -> String {
    if id != "display_hz" || values::positive_hz(value).is_ok() {
        return value.to_string();
    }
    match timestep_lab::analyses::sweep::parse_rates(value) {
        Ok(rates) if !rates.is_empty() => format!("{}", rates[0]),
        _ => value.to_string(),
    }
}

/// `word` as a shell takes it: as it is when it holds only safe characters; single-quoted;
/// or, when it holds a character [`timestep_lab::util::quote::shown`] escapes (one a terminal would
/// act on, a line break that would end the command), in bash's `$'...'` quoting with each such
/// character escaped, so the printed line shows no raw control byte and still runs as printed.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_.,:/=+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        return word.to_string();
    }
    let unprintable = timestep_lab::util::quote::unprintable;
    if !word.chars().any(unprintable) {
        return format!("'{}'", word.replace('\'', "'\\''"));
    }
    let mut quoted = String::from("$'");
    for c in word.chars() {
        match c {
            '\\' | '\'' => {
                quoted.push('\\');
                quoted.push(c);
            }
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            c if c.is_ascii_control() => quoted.push_str(&format!("\\x{:02x}", c as u32)),
            c if unprintable(c) => quoted.push_str(&format!("\\u{:04x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('\'');
    quoted
}

/// `probe`'s flags (each checked by its parser).
fn probe_config(args: ProbeArgs) -> ProbeConfig {
    ProbeConfig {
        budget_ns: ns_from_seconds(args.seconds),
        window: args.window,
        json: args.json,
        out: args.out,
        progress: args.progress,
    }
}

/// The simulated display of `simulate` and `sweep`, checked: a `--vrr` panel refreshes at
/// most at its MAX, which is the rate the loops are told of.
fn display_config(args: &DisplayArgs, hz: f64, seconds: f64) -> Result<DisplayConfig, BadFlags> {
    let vrr = vrr_panel(args)?;
    let paced = matches!(args.pacing, Pacing::Cap(_) | Pacing::Late);
    if args.vsync == OnOff::Off && args.render_cost.max_ns() == 0 && !paced {
        return Err(BadFlags::Together(
            "--vsync off needs --render-cost above zero (or --pacing cap:HZ or late): with \
             nothing to wait for, the simulated loop would never advance time",
        ));
    }
    Ok(DisplayConfig {
        display_hz: vrr.map_or(hz, |v| v.max_hz),
        vsync: args.vsync == OnOff::On,
        vrr,
        machine: args.machine.clone().unwrap_or(Machine::EXACT),
        sleep: args.sleep,
        jitter_ns: args.jitter,
        render_cost: args.render_cost,
        step_cost_ns: args.step_cost,
        pacing: args.pacing,
        stalls: args.stall.clone(),
        phase: args.phase,
        duration_ns: ns_from_seconds(seconds),
        seed: args.seed,
        feedback_delay: args.feedback_delay,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use timestep_lab::hosts::simulate::Stall;
    use timestep_lab::protocol::machine::Sleep;

    fn err(args: &[&str]) -> (String, u8) {
        let mut v = vec!["timestep-rope"];
        v.extend_from_slice(args);
        match parse(v) {
            Ok(run) => panic!("{args:?} parsed: {run:?}"),
            Err(e) => (crate::messages::error_text(&e.message), e.status),
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
            (&["probe", "--seconds", "0"], "--seconds"),
            (&["probe", "--seconds", "601"], "--seconds"),
            (&["replay", "x.csv", "--plot-seconds", "2"], "--plot"),
            (
                &["replay", "x.csv", "--plot", "p.svg", "--plot-seconds", "0"],
                "--plot-seconds",
            ),
        ] {
            let (msg, status) = err(args);
            assert_eq!(status, 2, "{args:?}");
            assert_eq!(msg.lines().count(), 1, "{args:?}: {msg}");
            assert!(msg.contains(flag), "{args:?}: {msg}");
        }
    }

    #[test]
    fn replay_plots_the_first_plot_seconds_as_simulate_does() {
        let plot_ns = |cmd: &str| {
            let args = [
                "timestep-rope",
                cmd,
                "x.csv",
                "--plot",
                "p.svg",
                "--plot-seconds",
                "2",
            ];
            let args = args
                .into_iter()
                .filter(|a| cmd == "replay" || *a != "x.csv");
            match parse(args) {
                Ok(Run::Replay(_, out)) => out.plot_ns,
                Ok(Run::Simulate(_, out)) => out.plot_ns,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(plot_ns("replay"), Some(2_000_000_000));
        assert_eq!(plot_ns("replay"), plot_ns("simulate"));
    }

    /// Every enum a flag picks by name is read one way, `Named`'s: trimmed, in any case, a
    /// miss listing the names; `--vsync` still gives clap its names for `--help` and the
    /// completions.
    #[test]
    fn named_flags_read_names_one_way() {
        let args = [
            "timestep-rope",
            "simulate",
            "--vsync",
            " Off ",
            "--pacing",
            "late",
        ];
        assert!(parse(args).is_ok(), "{:?}", parse(args).err());
        let (msg, _) = err(&["advise", "--engine", "Unreal"]);
        assert!(
            msg.ends_with(
                "unknown engine 'Unreal' (expected godot, bevy, unity, monogame or custom)"
            ),
            "{msg}"
        );
        let command = <Cli as clap::CommandFactory>::command();
        let simulate = command.find_subcommand("simulate").expect("simulate");
        let vsync = simulate.get_arguments().find(|a| a.get_id() == "vsync");
        let names: Vec<String> = vsync
            .map(|a| {
                a.get_possible_values()
                    .iter()
                    .map(|v| v.get_name().to_string())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(names, ["on", "off"]);
    }

    #[test]
    fn typos_get_the_name_meant_and_a_bare_dt_over_a_second_the_milliseconds() {
        for (args, says) in [
            (
                &["simualte"][..],
                "unrecognized subcommand 'simualte' (did you mean 'simulate'?)",
            ),
            (
                &["--dtt", "1ms"],
                "unexpected argument '--dtt' found (did you mean '--dt'?)",
            ),
            (
                &["simulate", "--secnds", "2"],
                "(did you mean '--seconds'?)",
            ),
            (
                &["--dt", "16"],
                "'16' is a 16 s tick (a bare number is seconds): did you mean 16ms or 16hz?",
            ),
            (&["simulate", "--dt", "1.5"], "did you mean 1.5ms or 1.5hz?"),
        ] {
            let (msg, status) = err(args);
            assert_eq!(status, 2, "{args:?}");
            assert!(msg.ends_with(says), "{args:?}: {msg}");
        }
        // A bare number up to a second is seconds, as the help says; a unit is taken as given.
        for dt in ["0.001", "1", "2s", "16ms"] {
            assert!(
                parse(["timestep-rope", "--dt", dt, "--clamp", "3s"]).is_ok(),
                "{dt}"
            );
        }
    }

    #[test]
    fn a_word_with_control_characters_is_quoted_so_it_prints_none_and_runs_as_printed() {
        for word in [
            "game.exe",
            "my cap's $x.csv",
            "ga\x1b[31mme\r\nFAKE LINE: it's \\ \u{202e}.exe",
            "tab\there\u{85}\u{7f}",
        ] {
            let quoted = shell_word(word);
            assert!(
                !quoted.chars().any(timestep_lab::util::quote::unprintable),
                "{quoted}"
            );
            let Ok(out) = std::process::Command::new("bash")
                .args(["-c", &format!("printf %s {quoted}")])
                .output()
            else {
                continue; // no bash here: the quoting is still free of control characters
            };
            assert_eq!(String::from_utf8_lossy(&out.stdout), word, "{quoted}");
        }
    }

    #[test]
    fn advise_refuses_a_run_too_short_to_show_the_frames_a_verdict_wants() {
        // A loop ranked on no frames is ranked on nothing: --seconds 1e-9 showed none at 60 Hz,
        // and 20 s of a 1 Hz display show 20 where a verdict wants 120.
        for (args, shortest) in [
            (
                &["advise", "--seconds", "1e-9"][..],
                "give --seconds 2 or more",
            ),
            (
                &["advise", "--display-hz", "1"],
                "give --seconds 120 or more",
            ),
            (&["advise", "--seconds", "0.5"], "give --seconds 2 or more"),
            (
                &["advise", "--display-hz", "240", "--seconds", "0.5"],
                "give --seconds 1 or more",
            ),
        ] {
            let (msg, status) = err(args);
            assert_eq!(status, 2, "{args:?}");
            assert!(msg.contains("error: --seconds "), "{msg}");
            assert!(msg.contains("too short for a verdict"), "{msg}");
            assert!(msg.ends_with(shortest), "{args:?}: {msg}");
        }
        // A cap starts frames no faster than its rate: a 1 Hz cap shows 5 in 5 s.
        let capped = err(&["advise", "--pacing", "cap:1", "--seconds", "5"]).0;
        assert!(capped.ends_with("give --seconds 120 or more"), "{capped}");
        let frames = err(&["advise", "--display-hz", "1"]).0;
        assert!(
            frames.contains("the display shows at most 20 frames"),
            "{frames}"
        );
        // Frames that take 50 ms each: 120 of them take 6 s, whatever the display's rate.
        let slow = err(&[
            "advise",
            "--render-cost",
            "50ms",
            "--vsync",
            "off",
            "--seconds",
            "5",
        ]);
        assert!(slow.0.ends_with("give --seconds 6 or more"), "{}", slow.0);
        assert!(parse(["timestep-rope", "advise", "--seconds", "2"]).is_ok());
    }

    #[test]
    fn a_rate_given_to_dt_is_that_rate_exactly() {
        // 60hz is 1/60 s, not 16,666,667 ns: sixty ticks are one second; the default cap lets
        // the whole 250 ms clamp through (15 ticks).
        match parse(["timestep-rope", "simulate", "--dt", "60hz"]) {
            Ok(Run::Simulate(cfg, _)) => {
                let tick = cfg.timing.tick();
                assert_eq!(tick, timestep_loop::Tick::per_second(60).unwrap());
                assert_eq!(60 * tick.num() / tick.den(), 1_000_000_000);
                assert_eq!(
                    cfg.timing.tick_ns(),
                    16_666_667,
                    "printed to the nearest ns"
                );
                assert_eq!(cfg.timing.max_steps(), Some(15));
            }
            other => panic!("{other:?}"),
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
                assert_eq!(cfg.timing.tick_ns(), 500_000);
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

    #[test]
    fn displays_machines_and_sleeps_reach_their_configs() {
        let simulate = parse([
            "timestep-rope",
            "simulate",
            "--vrr",
            "48..144",
            "--lfc",
            "2.5",
            "--machine",
            "windows-default",
            "--sleep",
            "native",
            "--pacing",
            "hold:60",
        ]);
        match simulate {
            Ok(Run::Simulate(cfg, _)) => {
                let d = &cfg.display;
                assert_eq!(d.display_hz, 144.0, "the loops are told the panel's MAX");
                let vrr = d.vrr.unwrap_or_else(|| panic!("no panel"));
                assert_eq!((vrr.min_hz, vrr.max_hz, vrr.lfc_on()), (48.0, 144.0, true));
                assert_eq!(
                    (d.machine.clone(), d.sleep),
                    (Machine::WINDOWS_DEFAULT, Sleep::Native)
                );
                assert_eq!(d.pacing, Pacing::Hold(60.0));
            }
            other => panic!("{other:?}"),
        }
        match parse(["timestep-rope", "--sleep", "native"]) {
            Ok(Run::Window(cfg)) => assert_eq!(cfg.sleep, Sleep::Native),
            other => panic!("{other:?}"),
        }
        match parse([
            "timestep-rope",
            "sweep",
            "--vrr",
            "40..60",
            "--fps",
            "20..30",
        ]) {
            Ok(Run::Sweep(cfg, _)) => {
                assert_eq!((cfg.axis, cfg.rates.len()), (Axis::Fps, 11));
                assert!(
                    !cfg.base.display.vrr.is_some_and(|v| v.lfc_on()),
                    "60 < 2 x 40"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_probe_takes_its_budget_in_seconds_and_its_outputs() {
        let run = parse([
            "timestep-rope",
            "probe",
            "--seconds",
            "0.5",
            "--json",
            "--out",
            "m.json",
        ]);
        match run {
            Ok(Run::Probe(cfg)) => {
                assert_eq!(cfg.budget_ns, 500_000_000);
                assert!(cfg.json && !cfg.window && !cfg.progress);
                assert_eq!(cfg.out, Some("m.json".into()));
                assert_eq!(cfg.per_mode_ns(), 500_000_000);
            }
            other => panic!("{other:?}"),
        }
        match parse(["timestep-rope", "probe", "--window"]) {
            Ok(Run::Probe(cfg)) => {
                assert_eq!(cfg.budget_ns, 10_000_000_000);
                assert_eq!(cfg.per_mode_ns(), 3_000_000_000);
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
            Ok(Run::Sweep(cfg, _)) => cfg.base.lanes,
            other => panic!("{args:?}: {other:?}"),
        };
        lanes.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn lanes_come_from_lanes_mode_or_split_in_the_order_given() {
        // A plain launch: three loops that differ at the default 1 ms tick, overlaid.
        assert_eq!(lanes(&[]), ["interpolated", "unity+tick=100ms", "variable"]);
        let overlaid = |args: &[&str]| match parse([&["timestep-rope"], args].concat()) {
            Ok(Run::Window(cfg)) => cfg.overlay,
            other => panic!("{args:?}: {other:?}"),
        };
        assert!(overlaid(&[]) && overlaid(&["--lesson", "2"]));
        assert!(!overlaid(&["--split"]) && !overlaid(&["--mode", "fixed"]));
        assert!(!overlaid(&["--lanes", "fixed,unity"]));
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
        // A sweep runs the modes and every preset unless told otherwise.
        assert_eq!(lanes(&["sweep"]).len(), 10);
        assert_eq!(lanes(&["sweep", "--lanes", "godot"]), ["godot"]);
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
