//! Value parsers for the flags: each turns one typed value into what the run uses, or one
//! line saying what is wrong with it (clap adds the flag's name).

use super::{LaneList, MAX_DRAW_SIDE, MAX_SECONDS, ModeChoice, RateList};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::marker::PhantomData;
use timestep_lab::MAX_HZ;
use timestep_lab::lane::parse_lanes;
use timestep_lab::machine::Machine;
use timestep_lab::rope::Drive;
use timestep_lab::simulate::vrr::{LFC_RATIO, Lfc, MIN_RANGE_HZ};
use timestep_lab::simulate::{MAX_RAMP_POINTS, Phase, Ramp, RenderCost, Stall};
use timestep_loop::MaxSubstep;
use timestep_loop::{Mode, Named, Pacing, UnknownName, format_duration, parse_duration};

pub(super) fn max_substep(s: &str) -> Result<MaxSubstep, String> {
    if s.trim().eq_ignore_ascii_case("off") {
        return Ok(MaxSubstep::Off);
    }
    positive_duration(s).map(MaxSubstep::Set)
}

pub(super) fn lane_list(s: &str) -> Result<LaneList, String> {
    parse_lanes(s).map(LaneList)
}

pub(super) fn parse_size(s: &str) -> Result<(u32, u32), String> {
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

pub(super) fn positive_duration(s: &str) -> Result<u64, String> {
    match parse_duration(s).map_err(|e| e.to_string())? {
        0 => Err(format!("'{s}' must be greater than zero")),
        ns => Ok(ns),
    }
}

/// clap's reader of a [`Named`] enum's value (a mode, a pin, an integrator, a sleep, an
/// engine, on/off): [`Named::parse`]'s rule and message, one way for every name.
#[derive(Clone, Copy)]
pub(super) struct NamedParser<T> {
    /// Whether clap is given the names, which `--help` and the completions then list, and whose
    /// own "invalid value" error (as a `ValueEnum` gave it) a miss becomes.
    listed: bool,
    of: PhantomData<fn() -> T>,
}

/// Reads a `T` by name; `--help` shows the flag's value name only.
pub(super) fn named<T>() -> NamedParser<T> {
    NamedParser {
        listed: false,
        of: PhantomData,
    }
}

/// Reads a `T` by name; `--help` and the completions list its names.
pub(super) fn listed<T>() -> NamedParser<T> {
    NamedParser {
        listed: true,
        of: PhantomData,
    }
}

/// `T`'s names joined by `|`, a flag's value name: `one|both`.
pub(super) fn names<T: Named>() -> String {
    let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
    names.join("|")
}

impl<T: Named + Send + Sync> TypedValueParser for NamedParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let read = |s: &str| T::parse(s).map_err(|e| e.to_string());
        let parsed = read.parse_ref(cmd, arg, value);
        if self.listed && parsed.is_err() {
            PossibleValuesParser::new(possible::<T>()).parse_ref(cmd, arg, value)?;
        }
        parsed
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let names: Box<dyn Iterator<Item = PossibleValue>> = Box::new(possible::<T>());
        self.listed.then_some(names)
    }
}

/// `T`'s names as clap's possible values.
fn possible<T: Named>() -> impl Iterator<Item = PossibleValue> {
    T::ALL.iter().map(|v| PossibleValue::new(v.name()))
}

pub(super) fn parse_mode_choice(s: &str) -> Result<ModeChoice, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(ModeChoice::All);
    }
    Mode::parse(s).map(ModeChoice::One).map_err(|_| {
        let names = Mode::ALL.map(Mode::name).into_iter().chain(["all"]);
        UnknownName::new("mode", s, names).to_string()
    })
}

pub(super) fn parse_float(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() {
        return Err(format!("'{s}' is not a finite number"));
    }
    Ok(v)
}

pub(super) fn positive_hz(s: &str) -> Result<f64, String> {
    let v = parse_float(timestep_lab::sweep::without_hz(s))?;
    if v <= 0.0 {
        return Err(format!("'{s}' must be greater than zero"));
    }
    if v > MAX_HZ {
        return Err(format!("'{s}' is above the maximum of {MAX_HZ} Hz"));
    }
    Ok(v)
}

/// A run's length, s: at least 1 ns (the simulated clock's unit: a shorter run has no
/// time in it at all), at most [`MAX_SECONDS`].
pub(super) fn seconds(s: &str) -> Result<f64, String> {
    let v = parse_float(s)?;
    if v <= 0.0 {
        return Err(format!("'{s}' must be greater than zero"));
    }
    if v < 1e-9 {
        return Err(format!(
            "'{s}' is shorter than 1 ns, the simulated clock's unit"
        ));
    }
    if v > MAX_SECONDS {
        return Err(format!(
            "'{s}' is above the maximum of {MAX_SECONDS} s (30 days)"
        ));
    }
    Ok(v)
}

/// `probe --seconds`: above 0, at most [`crate::commands::probe::MAX_SECONDS`].
pub(super) fn probe_seconds(s: &str) -> Result<f64, String> {
    let v = parse_float(s)?;
    let max = crate::commands::probe::MAX_SECONDS;
    if v <= 0.0 {
        return Err(format!("'{s}' must be greater than zero"));
    }
    if v > max {
        return Err(format!("'{s}' is above the maximum of {max} s"));
    }
    Ok(v)
}

pub(super) fn drag_rate(s: &str) -> Result<f32, String> {
    let v = parse_float(s)?;
    if v < 0.0 {
        return Err(format!("'{s}' must be 0 or more"));
    }
    if v > 1e6 {
        return Err(format!("'{s}' is above the maximum of 1e6 per second"));
    }
    Ok(v as f32)
}

pub(super) fn particle_count(s: &str) -> Result<usize, String> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))?;
    let max = timestep_lab::rope::MAX_PARTICLES;
    if n < 1 {
        return Err(format!("'{s}' must be at least 1"));
    }
    if n as u64 > max as u64 {
        return Err(format!(
            "'{s}' is above the maximum of {max} ({})",
            timestep_lab::rope::max_particles_cost()
        ));
    }
    Ok(n as usize)
}

pub(super) fn parse_render_cost(s: &str) -> Result<RenderCost, String> {
    if let Some(rest) = s.trim().strip_prefix("ramp:") {
        let points = rest
            .split("..")
            .map(parse_duration)
            .collect::<Result<Vec<u64>, _>>()
            .map_err(|e| e.to_string())?;
        return Ramp::new(&points).map(RenderCost::Ramp).ok_or_else(|| {
            format!(
                "'{s}' is not ramp:A..B[..C...] with 2 to {MAX_RAMP_POINTS} points \
                 (e.g. ramp:5ms..25ms..5ms)"
            )
        });
    }
    let Some((lo, hi)) = s.trim().split_once("..") else {
        return parse_duration(s)
            .map(RenderCost::Fixed)
            .map_err(|e| e.to_string());
    };
    let duration = |t: &str| parse_duration(t).map_err(|e| e.to_string());
    let (lo, hi) = (duration(lo)?, duration(hi)?);
    if lo > hi {
        return Err(format!(
            "'{s}': the minimum {} is above the maximum {}",
            format_duration(lo),
            format_duration(hi)
        ));
    }
    Ok(RenderCost::Uniform(lo, hi))
}

/// `--pacing`: vsync, cap:HZ, adaptive or late.
pub(super) fn parse_pacing(s: &str) -> Result<Pacing, String> {
    s.parse()
        .map_err(|e: timestep_loop::PacingError| e.to_string())
}

pub(super) fn parse_phase(s: &str) -> Result<Phase, String> {
    if s.trim().eq_ignore_ascii_case("random") {
        return Ok(Phase::Random);
    }
    parse_duration(s).map(Phase::At).map_err(|e| e.to_string())
}

pub(super) fn parse_stall(s: &str) -> Result<Stall, String> {
    let (at, dur) = s
        .split_once(':')
        .ok_or_else(|| format!("'{s}' is not AT:DURATION (e.g. 2s:300ms)"))?;
    let at_ns = parse_duration(at).map_err(|e| format!("AT in '{s}': {e}"))?;
    let duration_ns = positive_duration(dur).map_err(|e| format!("DURATION in '{s}': {e}"))?;
    Ok(Stall { at_ns, duration_ns })
}

pub(super) fn rate_list(s: &str) -> Result<RateList, String> {
    timestep_lab::sweep::parse_rates(s).map(RateList)
}

/// A plot's path: its extension must name a format the plot can be written in.
pub(super) fn plot_path(s: &str) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(s);
    crate::plot::Format::of(&path)?;
    Ok(path)
}

/// `--vrr MIN..MAX`: a variable-refresh range, Hz.
pub(super) fn parse_vrr(s: &str) -> Result<(f64, f64), String> {
    let (lo, hi) = s
        .trim()
        .split_once("..")
        .ok_or_else(|| format!("'{s}' is not MIN..MAX in Hz (e.g. 48..144)"))?;
    let (lo, hi) = (parse_float(lo)?, positive_hz(hi)?);
    if lo <= 0.0 {
        return Err(format!("'{s}': a panel's range starts above 0 Hz"));
    }
    if lo >= hi {
        return Err(format!("'{s}' is empty or reversed: MIN must be below MAX"));
    }
    if hi - lo < MIN_RANGE_HZ {
        return Err(format!(
            "'{s}' is narrower than {MIN_RANGE_HZ} Hz: AMD's driver does not run such a range              variable (freesync.c, MIN_REFRESH_RANGE)"
        ));
    }
    Ok((lo, hi))
}

/// `--lfc off|RATIO`.
pub(super) fn parse_lfc(s: &str) -> Result<Lfc, String> {
    if s.trim().eq_ignore_ascii_case("off") {
        return Ok(Lfc::Off);
    }
    let ratio = parse_float(s).map_err(|_| format!("'{s}' is not off or a ratio (e.g. 2.5)"))?;
    if ratio < LFC_RATIO {
        return Err(format!(
            "'{s}': LFC needs MAX at least {LFC_RATIO} x MIN to scan a frame twice within the              range"
        ));
    }
    Ok(Lfc::Ratio(ratio))
}

/// `--machine NAME|FILE.json`.
pub(super) fn parse_machine(s: &str) -> Result<Machine, String> {
    Machine::parse(s)
}

/// `--drive sway|circle|off[:PERIOD]`.
pub(super) fn parse_drive(s: &str) -> Result<Drive, String> {
    Drive::parse(s)
}

/// `--lesson N`: one of the lessons.
pub(super) fn parse_lesson(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a lesson's number"))?;
    timestep_lab::lessons::Lesson::number(n).map(|_| n)
}
