//! `timestep-rope sweep`: every display rate × every lane, each configuration exactly what
//! `simulate --display-hz RATE --lanes LANE` runs, in parallel (rayon), streamed in order to a
//! table, CSV, JSON and a plot.
//!
//! Configurations run in batches of a few per thread; each batch's rows are handed on, in rate
//! and lane order, as soon as it is done, so memory does not grow with the reports (only with
//! the few figures per row that the summary and the plot keep).

mod csv_rows;
mod output;
mod rates;

pub use csv_rows::SweepCsv;
pub use output::{Summary, SweepJson};
pub use rates::{DEFAULT_RATES, MAX_CONFIGS, RatesError, parse_rates, without_hz};

use crate::hosts::simulate::{self, DisplayConfig, RenderCost, SimConfig};
use crate::model::lane::LaneReport;
use crate::model::lane::LaneSpec;
use crate::util::fast::period_ns_f;
use rayon::prelude::*;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use timestep_loop::ConfigError;

/// What a sweep's rates are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Axis {
    /// Display refresh rates (`--display-hz`).
    #[default]
    DisplayHz,
    /// Frame rates on a `--vrr` panel (`--fps`): each configuration renders every frame in one
    /// period of its rate.
    Fps,
}

impl Axis {
    /// The rate's column in the CSV and key in the JSON.
    pub fn column(self) -> &'static str {
        match self {
            Axis::DisplayHz => "display_hz",
            Axis::Fps => "fps",
        }
    }

    /// The rates' unit, for the table's columns.
    pub fn unit(self) -> &'static str {
        match self {
            Axis::DisplayHz => "Hz",
            Axis::Fps => "fps",
        }
    }

    /// What the rates are, for the plot's axis.
    pub fn label(self) -> &'static str {
        match self {
            Axis::DisplayHz => "display refresh rate, Hz",
            Axis::Fps => "frame rate (render cost 1/fps) on the VRR panel, fps",
        }
    }
}

/// Everything a sweep needs, validated.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// The run every configuration shares; its display rate (or render cost, for `Fps`) is
    /// replaced by each rate in turn, and its lanes are run one at a time.
    pub base: SimConfig,
    /// What the rates are.
    pub axis: Axis,
    /// The rates, ascending, distinct.
    pub rates: Vec<f64>,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
}

impl SweepConfig {
    /// How many configurations: rates × lanes.
    pub fn configs(&self) -> u64 {
        self.rates.len() as u64 * self.base.lanes.len() as u64
    }
}

/// One configuration's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its rate, Hz: a display's refresh or a frame rate, as `axis` says.
    pub rate: f64,
    /// What the rate is.
    pub axis: Axis,
    /// The lane's index in the sweep's lanes.
    pub lane: usize,
    /// What the lane did at that rate.
    pub report: LaneReport,
}

/// How a sweep ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Configurations run and handed on.
    pub done: u64,
    /// Whether it stopped early (Ctrl-C).
    pub interrupted: bool,
}

/// The render time of a `--fps` rate's frames: one period of it.
pub fn render_cost_of_fps(hz: f64) -> RenderCost {
    RenderCost::Fixed(period_ns_f(hz).round() as u64)
}

/// One configuration, exactly as `simulate --display-hz hz --lanes lane` runs it (with
/// `Fps`, `simulate --vrr .. --render-cost 1/hz`). The process's peak memory is left out (it
/// depends on what else ran), so a row is the same whatever ran beside it. `None` when `stop`
/// was set before it finished (it is checked between frames).
pub fn run_one(
    base: &SimConfig,
    axis: Axis,
    hz: f64,
    lane: LaneSpec,
    stop: Option<&AtomicBool>,
) -> Result<Option<LaneReport>, ConfigError> {
    let display = match axis {
        Axis::DisplayHz => DisplayConfig {
            display_hz: hz,
            ..base.display.clone()
        },
        Axis::Fps => DisplayConfig {
            render_cost: render_cost_of_fps(hz),
            ..base.display.clone()
        },
    };
    let cfg = SimConfig {
        display,
        lanes: vec![lane],
        draw: None,
        ..base.clone()
    };
    let controls = simulate::Controls {
        stop,
        ..Default::default()
    };
    let outcome = simulate::run_with(&cfg, controls, |_| {})?;
    if outcome.interrupted {
        return Ok(None);
    }
    let mut runs = outcome.lanes;
    let mut report = runs.swap_remove(0).report;
    report.peak_rss_kib = None;
    Ok(Some(report))
}

/// Runs every configuration of `cfg` (rate by rate, each lane in turn) on a pool of
/// `cfg.threads`, handing each row to `sink` in that order; `progress` hears how many are done
/// after each batch. It checks `stop` between configurations and, inside one, between frames;
/// once it is set, it hands on what finished and returns.
pub fn run(
    cfg: &SweepConfig,
    stop: &AtomicBool,
    mut progress: impl FnMut(u64),
    mut sink: impl FnMut(Row) -> io::Result<()>,
) -> io::Result<Outcome> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = cfg.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build().map_err(io::Error::other)?;
    let lanes = cfg.base.lanes.len();
    let total = cfg.configs();
    let batch = pool.current_num_threads() as u64 * 8;
    let mut outcome = Outcome {
        done: 0,
        interrupted: false,
    };
    let mut start = 0;
    while start < total && !outcome.interrupted {
        let end = (start + batch).min(total);
        let rows: Vec<Option<Result<Row, ConfigError>>> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| {
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let (rate, lane) = ((i / lanes as u64) as usize, (i % lanes as u64) as usize);
                    let hz = cfg.rates[rate];
                    let report = run_one(&cfg.base, cfg.axis, hz, cfg.base.lanes[lane], Some(stop));
                    report
                        .map(|r| {
                            r.map(|report| Row {
                                rate: hz,
                                axis: cfg.axis,
                                lane,
                                report,
                            })
                        })
                        .transpose()
                })
                .collect()
        });
        for row in rows {
            match row {
                Some(row) => {
                    sink(row.map_err(io::Error::other)?)?;
                    outcome.done += 1;
                }
                None => outcome.interrupted = true,
            }
        }
        outcome.interrupted |= stop.load(Ordering::Relaxed) && outcome.done < total;
        progress(outcome.done);
        start = end;
    }
    Ok(outcome)
}
