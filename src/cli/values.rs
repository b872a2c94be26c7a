//! Value parsers for the flags: each turns one typed value into what the run uses, or one
//! line saying what is wrong with it (clap adds the flag's name).

use super::{LaneList, MAX_DRAW_SIDE, MAX_SECONDS, ModeChoice, RateList};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Arg, Command, Error};
use std::ffi::OsStr;
use std::marker::PhantomData;
use timestep_lab::analyses::sweep::RatesError;
use timestep_lab::hosts::simulate::vrr::{LFC_RATIO, Lfc, MIN_RANGE_HZ};
use timestep_lab::hosts::simulate::{MAX_RAMP_POINTS, Phase, Ramp, RenderCost, Stall};
use timestep_lab::model::lane::{LaneError, parse_lanes};
use timestep_lab::model::rope::{Drive, DriveError};
use timestep_lab::protocol::machine::{Machine, MachineError};
use timestep_lab::util::bounded::{self, Bounds, Min, OutOfRange, bounded};
use timestep_lab::view::lessons::NoLesson;
use timestep_loop::MaxSubstep;
use timestep_loop::{
    DurationError, Mode, Named, Pacing, PacingError, UnknownName, format_duration, is_named,
    parse_duration_with_unit,
};

/// What is wrong with one flag's value: one line quoting it (clap adds the flag's name).
#[derive(Debug, thiserror::Error)]
pub(super) enum BadValue {
    #[error("'{0}' is not WIDTHxHEIGHT (e.g. 1280x720)")]
    NotSize(String),
    #[error("'{0}' does not end in .png: the screenshot is written as a PNG")]
    NotPng(String),
    #[error("'{0}' must be between 1x1 and {MAX_DRAW_SIDE}x{MAX_DRAW_SIDE}")]
    SizeOutOfRange(String),
    #[error("'{0}' is not a number")]
    NotANumber(String),
    #[error("'{0}' is not a finite number")]
    NotFinite(String),
    #[error("'{0}' is shorter than 1 ns, the simulated clock's unit")]
    UnderOneNs(String),
    #[error("'{0}' is not a whole number")]
    NotWhole(String),
    #[error(
        "'{0}' is not ramp:A..B[..C...] with 2 to {MAX_RAMP_POINTS} points (e.g. ramp:5ms..25ms..5ms)"
    )]
    NotRamp(String),
    /// A render cost's range (as typed) whose minimum (ns) is above its maximum (ns).
    #[error(
        "'{0}': the minimum {lo} is above the maximum {hi}",
        lo = format_duration(*.1),
        hi = format_duration(*.2)
    )]
    CostReversed(String, u64, u64),
    #[error("'{0}' is not AT:DURATION (e.g. 2s:300ms)")]
    NotStall(String),
    #[error("AT in '{0}': {1}")]
    StallAt(String, #[source] DurationError),
    #[error("DURATION in '{0}': {1}")]
    StallDuration(String, #[source] Box<BadValue>),
    #[error("'{0}' is not MIN..MAX in Hz (e.g. 48..144)")]
    NotVrr(String),
    #[error("'{0}': a panel's range starts at {min} Hz or more", min = timestep_loop::MIN_HZ)]
    VrrFromZero(String),
    #[error("'{0}' is empty or reversed: MIN must be below MAX")]
    VrrReversed(String),
    #[error(
        "'{0}' is narrower than {MIN_RANGE_HZ} Hz: AMD's driver does not run such a range              variable (freesync.c, MIN_REFRESH_RANGE)"
    )]
    VrrNarrow(String),
    #[error("'{0}' is not off or a ratio (e.g. 2.5)")]
    NotLfc(String),
    #[error(
        "'{0}': LFC needs MAX at least {LFC_RATIO} x MIN to scan a frame twice within the              range"
    )]
    LfcRatio(String),
    #[error("'{0}' is not a lesson's number")]
    NotLesson(String),
    #[error(transparent)]
    OutOfRange(#[from] OutOfRange),
    #[error(transparent)]
    Duration(#[from] DurationError),
    /// `--dt 16`: a bare number is seconds, and no game ticks once in more than one.
    #[error("'{0}' is a {0} s tick (a bare number is seconds): did you mean {0}ms or {0}hz?")]
    BareTickOverASecond(String),
    #[error(transparent)]
    Name(#[from] UnknownName),
    #[error(transparent)]
    Pacing(#[from] PacingError),
    #[error(transparent)]
    Lesson(#[from] NoLesson),
    #[error(transparent)]
    Plot(#[from] crate::plot::UnknownFormat),
}

pub(super) fn max_substep(s: &str) -> Result<MaxSubstep, BadValue> {
    if is_named("off", s) {
        return Ok(MaxSubstep::Off);
    }
    positive_duration(s).map(MaxSubstep::Set)
}

pub(super) fn lane_list(s: &str) -> Result<LaneList, LaneError> {
    parse_lanes(s).map(LaneList)
}

pub(super) fn parse_size(s: &str) -> Result<(u32, u32), BadValue> {
    let bad = || BadValue::NotSize(s.into());
    let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if w == 0 || h == 0 || w > MAX_DRAW_SIDE || h > MAX_DRAW_SIDE {
        return Err(BadValue::SizeOutOfRange(s.into()));
    }
    Ok((w, h))
}

pub(super) fn positive_duration(s: &str) -> Result<u64, BadValue> {
    let above_zero = Bounds::Sides {
        min: Min::AboveZero,
        max: None,
    };
    Ok(bounded(
        format_args!("'{s}'"),
        parse_duration_with_unit(s)?,
        &above_zero,
    )?)
}

/// clap's reader of a [`Named`] enum whose names `--help` and the completions list (`--vsync`):
/// [`Named::parse`]'s rule, and a miss clap's own "invalid value" error, which lists the names
/// (as a `ValueEnum` gave it). An enum read without its names listed needs no reader of its own:
/// clap reads it with its `FromStr`, which is [`Named::parse`].
#[derive(Clone, Copy)]
pub(super) struct Listed<T>(PhantomData<fn() -> T>);

/// Reads a `T` by name; `--help` and the completions list its names.
pub(super) fn listed<T>() -> Listed<T> {
    Listed(PhantomData)
}

/// `T`'s names joined by `|`, a flag's value name: `one|both`.
pub(super) fn names<T: Named>() -> String {
    let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
    names.join("|")
}

impl<T: Named + Send + Sync> TypedValueParser for Listed<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<T, Error> {
        let read = |s: &str| T::parse(s).map_err(|e| e.to_string());
        read.parse_ref(cmd, arg, value).or_else(|e| {
            let names = T::ALL.iter().map(|v| v.name());
            PossibleValuesParser::new(names).parse_ref(cmd, arg, value)?;
            Err(e)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let names = T::ALL.iter().map(|v| PossibleValue::new(v.name()));
        Some(Box::new(names))
    }
}

pub(super) fn parse_mode_choice(s: &str) -> Result<ModeChoice, UnknownName> {
    if is_named("all", s) {
        return Ok(ModeChoice::All);
    }
    Mode::parse(s).map(ModeChoice::One).map_err(|_| {
        let names = Mode::ALL.map(Mode::name).into_iter().chain(["all"]);
        UnknownName::new("mode", s, names)
    })
}

pub(super) fn parse_float(s: &str) -> Result<f64, BadValue> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(BadValue::NotFinite(s.into())),
        Err(_) => Err(BadValue::NotANumber(s.into())),
    }
}

/// `s` as a number within `bounds`, an error quoting it as typed.
fn bounded_float(s: &str, number: &str, bounds: &Bounds<f64>) -> Result<f64, BadValue> {
    Ok(bounded(
        format_args!("'{s}'"),
        parse_float(number)?,
        bounds,
    )?)
}

/// Above zero, at most `max`, said with its unit (`"s"`).
fn up_to(max: f64, said: String) -> Bounds<f64> {
    Bounds::Sides {
        min: Min::AboveZero,
        max: Some((max, said)),
    }
}

/// `--fps-cap HZ`: a rate bounded as `--pacing cap:HZ`'s is (see [`Pacing::rate`]).
pub(super) fn fps_cap(s: &str) -> Result<f64, BadValue> {
    let hz = parse_float(timestep_lab::analyses::sweep::without_hz(s))?;
    Ok(Pacing::rate(hz, s.trim())?)
}

/// `--dt`: `auto`, a duration or a rate ([`parse_tick`]); a bare number over one second (`16`, meant as
/// 16 ms) is refused with the millisecond reading offered, as its help says bare numbers are
/// seconds (`0.001`).
pub(super) fn dt(s: &str) -> Result<super::args::Dt, BadValue> {
    if is_named("auto", s) {
        return Ok(super::args::Dt::Auto);
    }
    if s.trim().parse::<f64>().is_ok_and(|v| v > 1.0) {
        return Err(BadValue::BareTickOverASecond(s.trim().to_string()));
    }
    Ok(super::args::Dt::Tick(timestep_loop::parse_tick(s)?))
}

pub(super) fn positive_hz(s: &str) -> Result<f64, BadValue> {
    bounded_float(
        s,
        timestep_lab::analyses::sweep::without_hz(s),
        &bounded::rate(),
    )
}

/// A run's length, s: at least 1 ns (the simulated clock's unit: a shorter run has no
/// time in it at all), at most [`MAX_SECONDS`].
pub(super) fn seconds(s: &str) -> Result<f64, BadValue> {
    let v = bounded_float(
        s,
        s,
        &up_to(MAX_SECONDS, format!("{MAX_SECONDS} s (30 days)")),
    )?;
    if v < 1e-9 {
        return Err(BadValue::UnderOneNs(s.into()));
    }
    Ok(v)
}

/// `probe --seconds`: above 0, at most [`crate::commands::probe::MAX_SECONDS`].
pub(super) fn probe_seconds(s: &str) -> Result<f64, BadValue> {
    let max = crate::commands::probe::MAX_SECONDS;
    bounded_float(s, s, &up_to(max, format!("{max} s")))
}

pub(super) fn drag_rate(s: &str) -> Result<f32, BadValue> {
    let max = Some((1e6, "1e6 per second".into()));
    let v = bounded_float(
        s,
        s,
        &Bounds::Sides {
            min: Min::ZeroOrMore,
            max,
        },
    )?;
    Ok(v as f32)
}

pub(super) fn particle_count(s: &str) -> Result<usize, BadValue> {
    let n: i64 = s.trim().parse().map_err(|_| BadValue::NotWhole(s.into()))?;
    let max = timestep_lab::model::rope::MAX_PARTICLES;
    let said = format!(
        "{max} ({})",
        timestep_lab::model::rope::max_particles_cost()
    );
    let bounds = Bounds::Sides {
        min: Min::AtLeast(1),
        max: Some((max as i64, said)),
    };
    Ok(bounded(format_args!("'{s}'"), n, &bounds)? as usize)
}

pub(super) fn parse_render_cost(s: &str) -> Result<RenderCost, BadValue> {
    if let Some(rest) = s.trim().strip_prefix("ramp:") {
        let points = rest
            .split("..")
            .map(parse_duration_with_unit)
            .collect::<Result<Vec<u64>, _>>()?;
        return Ramp::new(&points)
            .map(RenderCost::Ramp)
            .ok_or_else(|| BadValue::NotRamp(s.into()));
    }
    let Some((lo, hi)) = s.trim().split_once("..") else {
        return Ok(RenderCost::Fixed(parse_duration_with_unit(s)?));
    };
    let (lo, hi) = (parse_duration_with_unit(lo)?, parse_duration_with_unit(hi)?);
    if lo > hi {
        return Err(BadValue::CostReversed(s.into(), lo, hi));
    }
    Ok(RenderCost::Uniform(lo, hi))
}

/// `--pacing`: vsync, cap:HZ, adaptive or late.
pub(super) fn parse_pacing(s: &str) -> Result<Pacing, PacingError> {
    s.parse()
}

pub(super) fn parse_phase(s: &str) -> Result<Phase, DurationError> {
    if is_named("random", s) {
        return Ok(Phase::Random);
    }
    parse_duration_with_unit(s).map(Phase::At)
}

pub(super) fn parse_stall(s: &str) -> Result<Stall, BadValue> {
    let (at, dur) = s
        .split_once(':')
        .ok_or_else(|| BadValue::NotStall(s.into()))?;
    let at_ns = parse_duration_with_unit(at).map_err(|e| BadValue::StallAt(s.into(), e))?;
    let duration_ns =
        positive_duration(dur).map_err(|e| BadValue::StallDuration(s.into(), Box::new(e)))?;
    Ok(Stall { at_ns, duration_ns })
}

pub(super) fn rate_list(s: &str) -> Result<RateList, RatesError> {
    timestep_lab::analyses::sweep::parse_rates(s).map(RateList)
}

/// A plot's path: its extension must name a format the plot can be written in.
pub(super) fn plot_path(s: &str) -> Result<std::path::PathBuf, BadValue> {
    let path = std::path::PathBuf::from(s);
    crate::plot::Format::of(&path)?;
    Ok(path)
}

/// `--screenshot`'s path: the screenshot is a PNG, so its name must end in `.png` (any case).
/// `shot.jpg` used to receive PNG bytes under a name that promised JPEG.
pub(super) fn png_path(s: &str) -> Result<std::path::PathBuf, BadValue> {
    let path = std::path::PathBuf::from(s);
    let ext = path.extension().and_then(|e| e.to_str());
    match ext.is_some_and(|e| e.eq_ignore_ascii_case("png")) {
        true => Ok(path),
        false => Err(BadValue::NotPng(s.to_string())),
    }
}

/// `--vrr MIN..MAX`: a variable-refresh range, Hz.
pub(super) fn parse_vrr(s: &str) -> Result<(f64, f64), BadValue> {
    let (lo, hi) = s
        .trim()
        .split_once("..")
        .ok_or_else(|| BadValue::NotVrr(s.into()))?;
    let (lo, hi) = (parse_float(lo)?, positive_hz(hi)?);
    if lo.is_nan() || lo < timestep_loop::MIN_HZ {
        return Err(BadValue::VrrFromZero(s.into()));
    }
    if lo >= hi {
        return Err(BadValue::VrrReversed(s.into()));
    }
    if hi - lo < MIN_RANGE_HZ {
        return Err(BadValue::VrrNarrow(s.into()));
    }
    Ok((lo, hi))
}

/// `--lfc off|RATIO`.
pub(super) fn parse_lfc(s: &str) -> Result<Lfc, BadValue> {
    if is_named("off", s) {
        return Ok(Lfc::Off);
    }
    let ratio = parse_float(s).map_err(|_| BadValue::NotLfc(s.into()))?;
    if ratio < LFC_RATIO {
        return Err(BadValue::LfcRatio(s.into()));
    }
    Ok(Lfc::Ratio(ratio))
}

/// `--machine NAME|FILE.json`.
pub(super) fn parse_machine(s: &str) -> Result<Machine, MachineError> {
    Machine::parse(s)
}

/// `--drive sway|circle|off[:PERIOD]`.
pub(super) fn parse_drive(s: &str) -> Result<Drive, DriveError> {
    Drive::parse(s)
}

/// `--lesson N`: one of the lessons.
pub(super) fn parse_lesson(s: &str) -> Result<usize, BadValue> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| BadValue::NotLesson(s.into()))?;
    timestep_lab::view::lessons::Lesson::number(n)?;
    Ok(n)
}
