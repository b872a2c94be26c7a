//! The `sweep` subcommand: files opened first, then the configurations streamed to them, a
//! progress bar on a terminal, Ctrl-C honoured between configurations.

use crate::failure::Failure;
use crate::interrupt;
use crate::messages;
use crate::pending::{self, PendingFile};
use crate::plot::{self, plot_sweep};
use crate::progress;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use timestep_lab::analyses::sweep::{
    Axis, Outcome, Row, Summary, SweepConfig, SweepCsv, SweepJson, run,
};
use timestep_lab::hosts::simulate::ConfigReport;
use timestep_lab::model::fixes::{self, Stepping};
use timestep_lab::model::lane::peak_rss_kib;
use timestep_loop::seconds;

/// Where a sweep writes.
#[derive(Clone, Debug, Default)]
pub struct SweepOutput {
    /// Rows as JSON on stdout instead of the table.
    pub json: bool,
    /// Whether the table is printed in full; otherwise every line fits
    /// [`timestep_lab::util::fit::COLUMNS`] (`--wide`).
    pub wide: bool,
    pub csv: Option<PathBuf>,
    pub plot: Option<PathBuf>,
    /// The last line of the text: `advise` for the same situation (empty: none).
    pub advise: String,
}

/// Runs a sweep. `--csv` and `--plot` are checked and created before anything runs; they
/// replace their targets once all is written (see [`crate::pending`]), also when Ctrl-C
/// stopped the sweep or stdout's reader went away.
pub fn main(cfg: &SweepConfig, out: &SweepOutput) -> Result<ExitCode, Failure> {
    let plot_file = out.plot.as_deref().map(plot::create).transpose();
    let plot_file = plot_file.map_err(|e| Failure::usage(format!("--plot: {e}")))?;
    let csv = out.csv.as_deref().map(|p| {
        PendingFile::create(p)
            .map(SweepCsv::new)
            .map_err(|e| Failure::usage(format!("cannot write --csv '{}': {e}", p.display())))
    });
    let csv = csv.transpose()?;
    interrupt::install();
    let stdout = io::stdout();
    let mut sink = Sink {
        csv,
        stdout: stdout.lock(),
        json: out.json.then(SweepJson::default),
        wide: out.wide,
        advise: &out.advise,
        summary: Summary::new(
            cfg.base.lanes.iter().map(ToString::to_string).collect(),
            cfg.axis,
        ),
        minutes: cfg.base.display.duration_ns as f64 / 60e9,
        flipping: Vec::new(),
        vsynced: cfg.base.display.vsynced_hz().is_some(),
    };
    let started = Instant::now();
    let outcome = sink
        .begin(cfg)
        .and_then(|()| sweep(cfg, &mut sink))
        .and_then(|o| sink.end(cfg, o, started).map(|()| o));
    let mut files = Vec::new();
    if let Some(csv) = sink.csv.take() {
        let file = csv
            .finish()
            .map_err(|e| Failure::machine(format!("writing --csv failed: {e}")))?;
        files.push(("--csv", file));
    }
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            pending::commit_all(files).map_err(Failure::machine)?;
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => return Err(Failure::machine(format!("writing the sweep failed: {e}"))),
    };
    if let Some(file) = plot_file {
        files.push(("--plot", write_plot(file, cfg, &sink.summary)?));
    }
    pending::commit_all(files).map_err(Failure::machine)?;
    if outcome.interrupted {
        messages::note(&format!(
            "interrupted after {} of {} configurations; what finished is written",
            outcome.done,
            cfg.configs()
        ));
    }
    Ok(interrupt::status(outcome.interrupted))
}

/// The sweep's plot, written to `file`.
fn write_plot(
    mut file: PendingFile,
    cfg: &SweepConfig,
    summary: &Summary,
) -> Result<PendingFile, Failure> {
    let title = plot_title(cfg);
    plot_sweep(&mut file, &title, cfg.axis.label(), &summary.series()).map_err(|e| {
        Failure::machine(format!(
            "writing --plot '{}' failed: {e}",
            file.path().display()
        ))
    })?;
    Ok(file)
}

/// Runs the configurations with a progress bar on a terminal's stderr.
fn sweep(cfg: &SweepConfig, sink: &mut Sink<'_>) -> io::Result<Outcome> {
    let template = "{elapsed_precise} [{bar:24}] {pos}/{len} configurations, ETA {eta}";
    let bar = progress::bar(cfg.configs(), template, false);
    let outcome = run(
        cfg,
        interrupt::flag(),
        |done| bar.set_position(done),
        |row| sink.row(&row),
    );
    bar.finish_and_clear();
    outcome
}

/// Rows on their way out: to the CSV file, to stdout as JSON, and into the summary.
struct Sink<'a> {
    csv: Option<SweepCsv<PendingFile>>,
    stdout: io::StdoutLock<'a>,
    /// The JSON being written, with `--json`.
    json: Option<SweepJson>,
    wide: bool,
    /// The line pointing at `advise`, last in the text.
    advise: &'a str,
    summary: Summary,
    minutes: f64,
    /// The lanes whose fixed tick flipped 0/1/2 ticks a frame at a refresh it equals, each
    /// with that refresh ([`fixes::flips`]) and its index, as rows come (in any order).
    flipping: Vec<(f64, usize, String)>,
    /// Whether every present waits for the display's refresh, each row's rate (vsync on a
    /// fixed-rate display).
    vsynced: bool,
}

impl Sink<'_> {
    fn begin(&mut self, cfg: &SweepConfig) -> io::Result<()> {
        let out = &mut self.stdout;
        if let Some(json) = &self.json {
            let mut config = serde_json::to_value(ConfigReport::new(&cfg.base))?;
            if let Some(map) = config.as_object_mut() {
                map.insert(cfg.axis.column().into(), serde_json::to_value(&cfg.rates)?);
                let lanes: Vec<String> = cfg.base.lanes.iter().map(ToString::to_string).collect();
                map.insert("lanes".into(), serde_json::to_value(lanes)?);
            }
            json.begin(out, &config)?;
        } else {
            let title = plot_title(cfg);
            crate::messages::write_fitted(out, self.wide, |t| writeln!(t, "{title}"))?;
        }
        out.flush()
    }

    fn row(&mut self, row: &Row) -> io::Result<()> {
        if let Some(csv) = self.csv.as_mut() {
            csv.row(row)?;
        }
        if let Some(json) = self.json.as_mut() {
            json.row(&mut self.stdout, row)?;
        }
        self.summary.add(row, self.minutes);
        if let Some(hz) = fixes::flips(&row.report, self.vsynced.then_some(row.rate)) {
            self.flipping.push((hz, row.lane, row.report.lane.clone()));
        }
        Ok(())
    }

    fn end(&mut self, cfg: &SweepConfig, outcome: Outcome, started: Instant) -> io::Result<()> {
        if let Some(csv) = self.csv.as_mut() {
            csv.flush()?;
        }
        let elapsed = started.elapsed().as_secs_f64();
        let out = &mut self.stdout;
        if let Some(json) = &self.json {
            let end = serde_json::json!({
                "summary": self.summary.to_json(),
                "configurations": cfg.configs(),
                "done": outcome.done,
                "interrupted": outcome.interrupted,
                "elapsed_s": elapsed,
                "peak_rss_kib": peak_rss_kib(),
            });
            json.end(out, &end)?;
        } else {
            writeln!(out)?;
            let (summary, wide) = (&self.summary, self.wide);
            crate::messages::write_fitted(out, wide, |text| summary.write_table(text, wide))?;
            writeln!(
                out,
                "\n{} of {} configurations in {elapsed:.2} s{}",
                outcome.done,
                cfg.configs(),
                if outcome.interrupted {
                    " (interrupted)"
                } else {
                    ""
                }
            )?;
            let base = &cfg.base;
            let lanes = Stepping::of_specs(&base.lanes, &base.env(), &base.rope);
            self.flipping
                .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let flipping: Vec<(String, f64)> = self
                .flipping
                .iter()
                .map(|(hz, _, name)| (name.clone(), *hz))
                .collect();
            let said = fixes::lines(&lanes, &base.rope, &flipping);
            let advise = self.advise;
            crate::messages::write_fitted(out, self.wide, |t| {
                fixes::write_lines(t, &said)?;
                timestep_lab::hosts::replay::write_advise(t, advise)
            })?;
        }
        out.flush()
    }
}

/// One line saying what was swept.
fn plot_title(cfg: &SweepConfig) -> String {
    let (lo, hi) = (
        cfg.rates.first().copied().unwrap_or(0.0),
        cfg.rates.last().copied().unwrap_or(0.0),
    );
    let d = &cfg.base.display;
    let (rates, render) = match (cfg.axis, &d.vrr) {
        (Axis::Fps, Some(vrr)) => (
            format!("frame rates ({lo}-{hi} fps) on a {vrr} panel"),
            "1/fps".to_string(),
        ),
        _ => (
            format!("display rates ({lo}-{hi} Hz)"),
            ConfigReport::new(&cfg.base).render_cost,
        ),
    };
    // The tick is said: read beside `advise` (whose presets are told 60 Hz), a sweep's modes
    // step --dt's and each preset its engine's own.
    format!(
        "{} {rates} × {} lanes, dt {}, {} s each, jitter ±{}, render {render}, seed {}",
        cfg.rates.len(),
        cfg.base.lanes.len(),
        cfg.base.timing.tick(),
        seconds(d.duration_ns),
        timestep_loop::format_duration(d.jitter_ns),
        d.seed
    )
}
