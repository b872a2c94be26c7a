//! `timestep-rope probe`: the library's probe of this machine's clock and sleeps (see
//! [`timestep_lab::analyses::probe`]), run with a progress bar, Ctrl-C and `--out`; with `--window`, the
//! window's presents first (`crate::app::probe`).

use crate::app::probe::{DisplayRun, DisplayRuns, PresentProbe};
use crate::failure::Failure;
use crate::interrupt;
use crate::messages;
use crate::pending::PendingFile;
use crate::progress;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use timestep_lab::analyses::probe::{
    ClockReport, Facts, Measured, Plan, Presents, ProbeReport, facts, measure_clock,
    measure_sleeps, write_json, write_table,
};
use timestep_lab::protocol::machine::MachineProfile;
use timestep_lab::protocol::machine::Sleep;
use timestep_lab::protocol::wall::{RealWall, Wall};
use timestep_loop::NS_PER_S;

/// Longest `--seconds`: ten minutes.
pub const MAX_SECONDS: f64 = 600.0;
/// How long `--window` presents in each mode, at most (never longer than the budget).
pub const PER_MODE_NS: u64 = 3 * NS_PER_S;

/// A probe, its flags checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeConfig {
    /// The clock's and the sleeps' budget, ns (above 0, at most [`MAX_SECONDS`]).
    pub budget_ns: u64,
    /// Whether the presents in each present mode are measured too (`--window`).
    pub window: bool,
    /// Whether the report is one JSON object on stdout instead of the table (`--json`).
    pub json: bool,
    /// The file the machine profile is written to, if any (`--out`).
    pub out: Option<PathBuf>,
    /// Whether progress goes to stderr even when it is not a terminal (`--progress`).
    pub progress: bool,
}

impl ProbeConfig {
    /// How long `--window` presents in each mode.
    pub fn per_mode_ns(&self) -> u64 {
        PER_MODE_NS.min(self.budget_ns)
    }
}

/// Runs a probe. `--out` is opened, and with `--window` the display found, before anything
/// is measured: an unwritable path is exit status 2, no display 1.
pub fn main(cfg: &ProbeConfig) -> Result<ExitCode, Failure> {
    let out = cfg.out.as_deref().map(Out::open).transpose()?;
    // A failed probe drops `out`: the file is left as it was.
    let (report, facts, display) = probe(cfg)?;
    if let Some(file) = out {
        file.write(report.profile.as_ref())?;
    }
    let modes: Vec<String> = report_modes(&report);
    messages::print("the probe", |w| {
        if cfg.json {
            match &display {
                None => write_json(w, &report),
                Some(d) => {
                    let mut json = serde_json::to_value(&report).map_err(io::Error::other)?;
                    if let Some(o) = json.as_object_mut() {
                        o.insert("display".into(), display_json(d, &modes));
                    }
                    let text = serde_json::to_string_pretty(&json).map_err(io::Error::other)?;
                    writeln!(w, "{text}")
                }
            }
        } else {
            crate::messages::write_fitted(w, false, |text| {
                write_table(text, &report, &facts)?;
                match &display {
                    Some(d) => write_display(text, d, &modes),
                    None => Ok(()),
                }
            })
        }
    })?;
    Ok(interrupt::status(report.interrupted))
}

/// The display found (with `--window`), then the presents (and what the display said of
/// them), the clock and the sleeps measured.
fn probe(cfg: &ProbeConfig) -> Result<(ProbeReport, Facts, Option<DisplayRuns>), Failure> {
    let window = cfg.window.then(PresentProbe::open).transpose()?;
    interrupt::install();
    let started = Instant::now();
    let (presents, display) = match window.map(|w| run_window(w, cfg)).transpose()? {
        Some((presents, display)) => (Some(presents), Some(display)),
        None => (None, None),
    };
    let measured = if presents.as_ref().is_some_and(|p| p.interrupted) {
        None
    } else {
        Some(measure(cfg)?)
    };
    let took_ns = started.elapsed().as_nanos().try_into().unwrap_or(u64::MAX);
    let facts = facts();
    let window = presents.as_ref().map(|p| (p, cfg.per_mode_ns()));
    let report = ProbeReport::new(&facts, measured.as_ref(), window, cfg.budget_ns, took_ns);
    Ok((report, facts, display))
}

/// The present modes probed, in order, as the report names them.
fn report_modes(report: &ProbeReport) -> Vec<String> {
    let modes = report.presents.as_ref().map(|p| p.modes.as_slice());
    modes
        .unwrap_or_default()
        .iter()
        .map(|m| m.mode.clone())
        .collect()
}

/// The mean and the median of `ns`, ms (none of nothing).
fn mean_and_median_ms(ns: &[u64]) -> Option<(f64, f64)> {
    if ns.is_empty() {
        return None;
    }
    let mut sorted = ns.to_vec();
    sorted.sort_unstable();
    let mean = ns.iter().map(|&v| v as f64).sum::<f64>() / ns.len() as f64;
    let mid = sorted.len() / 2;
    let median = match sorted.len() % 2 {
        0 => (sorted[mid - 1] as f64 + sorted[mid] as f64) / 2.0,
        _ => sorted[mid] as f64,
    };
    Some((mean / 1e6, median / 1e6))
}

/// How a source's times were had, in a few words.
fn source_words(source: display_feedback::Source) -> &'static str {
    match source {
        display_feedback::Source::Wayland => "measured by the compositor (wp_presentation)",
        display_feedback::Source::X11Present => "measured by the X server (Present completions)",
        display_feedback::Source::VblankClock => {
            "estimated: the first X11 vblank after each present returned"
        }
        display_feedback::Source::None => "none",
    }
}

/// The probe's `display` object: where the times came from, and each mode's figures.
fn display_json(d: &DisplayRuns, modes: &[String]) -> serde_json::Value {
    let run = |(i, r): (usize, &DisplayRun)| {
        let (interval, latency) = (
            mean_and_median_ms(&r.intervals_ns),
            mean_and_median_ms(&r.latencies_ns),
        );
        serde_json::json!({
            "mode": modes.get(i).map_or("?", String::as_str),
            "source": r.source.map(|s| s.name()),
            "presented": r.presented,
            "shown": r.shown,
            "discarded": r.discarded,
            "interval_ms_mean": interval.map(|m| m.0),
            "interval_ms_median": interval.map(|m| m.1),
            "latency_ms_mean": latency.map(|m| m.0),
            "latency_ms_median": latency.map(|m| m.1),
        })
    };
    serde_json::json!({
        "source": d.source.name(),
        "measured": d.source.measured(),
        "why_none": d.why,
        "modes": d.modes.iter().enumerate().map(run).collect::<Vec<_>>(),
    })
}

/// The table's display section: per mode, frames shown and discarded as the display said,
/// the interval between display changes and the latency from the present call.
fn write_display(out: &mut impl Write, d: &DisplayRuns, modes: &[String]) -> io::Result<()> {
    writeln!(out)?;
    if d.source == display_feedback::Source::None && d.modes.iter().all(|m| m.source.is_none()) {
        let why = d.why.as_deref().unwrap_or("unknown");
        return writeln!(out, "display times: not available ({why})");
    }
    let source = d
        .modes
        .iter()
        .rev()
        .find_map(|m| m.source)
        .unwrap_or(d.source);
    writeln!(
        out,
        "display times ({}): {}",
        source.name(),
        source_words(source)
    )?;
    writeln!(
        out,
        "{:<12} {:>9} {:>6} {:>9}   {:>17}   {:>17}",
        "mode", "presented", "shown", "discarded", "interval mean/med", "latency mean/med"
    )?;
    let ms = |m: Option<(f64, f64)>| {
        m.map_or_else(|| "-".to_string(), |(a, b)| format!("{a:.2}/{b:.2} ms"))
    };
    for (i, r) in d.modes.iter().enumerate() {
        writeln!(
            out,
            "{:<12} {:>9} {:>6} {:>9}   {:>17}   {:>17}",
            modes.get(i).map_or("?", String::as_str),
            r.presented,
            r.shown,
            r.discarded,
            ms(mean_and_median_ms(&r.intervals_ns)),
            ms(mean_and_median_ms(&r.latencies_ns)),
        )?;
    }
    Ok(())
}

/// The presents in each mode, with a bar that moves mode by mode.
fn run_window(window: PresentProbe, cfg: &ProbeConfig) -> Result<(Presents, DisplayRuns), Failure> {
    let bar = progress::bar(1, "{elapsed_precise} [{bar:24}] {msg}", cfg.progress);
    let mut on_mode = |i: usize, n: usize, mode: &str| {
        bar.set_length(n as u64);
        bar.set_position(i as u64);
        bar.set_message(format!("presenting in {mode} ({} of {n})", i + 1));
    };
    let presents = window.run(cfg.per_mode_ns(), interrupt::flag(), &mut on_mode);
    bar.finish_and_clear();
    presents
}

/// The clock, then the sleeps, on this machine, within the budget; a bar that moves with the
/// clock.
fn measure(cfg: &ProbeConfig) -> Result<Measured, Failure> {
    let plan = Plan::new(cfg.budget_ns);
    let template = "{elapsed_precise} [{bar:24}] {pos}/{len} ms measured";
    let bar = progress::bar(plan.planned_ns() / 1_000_000, template, cfg.progress);
    let mut m = RealWall::new(Sleep::Spin);
    let stop = interrupt::flag();
    let start = m.now_ns();
    let clock = measure_clock(&mut m, start + plan.clock_ns, stop);
    let sleeps = measure_sleeps(&mut m, &plan, start + cfg.budget_ns, stop, |now| {
        bar.set_position(now.saturating_sub(start) / 1_000_000);
    });
    bar.finish_and_clear();
    let resolution_ns = clock.resolution_ns.ok_or_else(|| {
        Failure::machine(format!(
            "the clock did not move in {} back-to-back reads of Instant::now()",
            clock.reads
        ))
    })?;
    let clock = ClockReport {
        read_ns: clock.read_ns,
        resolution_ns,
        reads: clock.reads,
    };
    Ok(Measured { clock, sleeps })
}

/// The profile's file, created before anything is measured: a file already there keeps what it holds
/// until a profile replaces it (see [`PendingFile`]).
struct Out(PendingFile);

impl Out {
    /// The file, or one line naming the flag and the path (exit status 2).
    fn open(path: &Path) -> Result<Out, Failure> {
        PendingFile::create(path)
            .map(Out)
            .map_err(|e| Failure::usage(format!("cannot write --out '{}': {e}", path.display())))
    }

    /// Writes `profile` over whatever the file held; without one (interrupted before any
    /// sleep) nothing is written, and that is said.
    fn write(mut self, profile: Option<&MachineProfile>) -> Result<(), Failure> {
        let path = self.0.path().display().to_string();
        let Some(profile) = profile else {
            messages::note(&format!(
                "no sleep was measured, so no profile: '{path}' is not written"
            ));
            return Ok(());
        };
        let json = serde_json::to_vec_pretty(profile).map_err(io::Error::other);
        json.and_then(|mut json| {
            json.push(b'\n');
            self.0.write_all(&json)
        })
        .and_then(|()| self.0.commit())
        .map_err(|e| Failure::machine(format!("writing --out '{path}' failed: {e}")))
    }
}
