//! `advise` as a program: the library's verdict, with the estimate and progress bar `simulate`
//! shows when the candidates' runs on a simulated display are long (see `simulate_progress`),
//! and Ctrl-C, SIGTERM and SIGHUP ending those runs with no verdict (status 130).

use super::simulate_progress::{Progress, Said};
use crate::failure::Failure;
use crate::interrupt;
use crate::messages;
use std::process::ExitCode;
use timestep_lab::analyses::advise::{
    self, Advice, AdviseConfig, AdviseError, Situation, Watching,
};
use timestep_lab::hosts::replay::ReplayConfig;
use timestep_lab::hosts::simulate::{FrameRecord, SimConfig};
use timestep_lab::model::fixes::{self, Stepping};

/// What Ctrl-C does to an `advise` run, as its estimate lines end.
const ADVISE_CTRL_C: &str = "Ctrl-C stops it, with no verdict";

/// Runs `advise`; `force`: progress shows even when stderr is not a terminal.
pub fn main(cfg: &AdviseConfig, force: bool) -> Result<ExitCode, Failure> {
    let runs = cfg.runs();
    let status = verdict(cfg, &runs, force)?;
    // A tick the rope cannot take, and its fix, under the verdict's text (not its JSON).
    if !cfg.json && status == ExitCode::SUCCESS {
        let said = tick_fix_lines(cfg, &runs);
        messages::print("the advice", |out| {
            messages::write_fitted(out, false, |text| fixes::write_lines(text, &said))
        })?;
    }
    Ok(status)
}

/// What to say of the candidates whose tick is above the rope's stable step, and the fix
/// ([`fixes::tick_fix`]; `advise` substeps at 1 ms unless `--max-substep` says otherwise, so
/// only a longer one brings this on), over every run: each tick tried.
fn tick_fix_lines(cfg: &AdviseConfig, runs: &[advise::Run]) -> Vec<String> {
    let mut lanes = Vec::new();
    let rope = match &cfg.situation {
        Situation::Display { sim, .. } => &sim.rope,
        Situation::Capture(c) => &c.rope,
    };
    for run in runs {
        let env = match &cfg.situation {
            Situation::Display { sim, .. } => SimConfig {
                timing: run.timing,
                ..SimConfig::clone(sim)
            }
            .env(),
            Situation::Capture(c) => ReplayConfig {
                timing: run.timing,
                ..c.clone()
            }
            .env(None),
        };
        lanes.extend(Stepping::of_specs(&run.lanes, &env, rope));
    }
    fixes::lines(&lanes, rope, &[])
}

/// Runs the candidates and prints the verdict.
fn verdict(cfg: &AdviseConfig, runs: &[advise::Run], force: bool) -> Result<ExitCode, Failure> {
    let Situation::Display { sim, .. } = &cfg.situation else {
        let advice = advise::advice_with(cfg, runs, &mut Watching::default())?;
        return print_advice(cfg, &advice);
    };
    let d = &sim.display;
    let said = Said {
        ctrl_c: ADVISE_CTRL_C,
        shortest_s: advise::shortest_run_s(d.display_hz, d.render_cost.min_ns(), d.pacing),
    };
    interrupt::install();
    let mut progress = Progress::start(&every_run(sim, runs), force, said);
    // Each run's lanes follow the runs before it in the bar.
    let first: Vec<usize> = runs
        .iter()
        .scan(0, |at, run| {
            let this = *at;
            *at += run.lanes.len();
            Some(this)
        })
        .collect();
    let mut frame = |k: usize, f: &FrameRecord| {
        progress.frame_as(first.get(k).copied().unwrap_or(0) + f.lane, f);
    };
    let mut watching = Watching {
        frame: Some(&mut frame),
        stop: Some(interrupt::flag()),
    };
    let verdict = advise::advice_with(cfg, runs, &mut watching);
    progress.finish();
    match verdict {
        Err(e @ AdviseError::Interrupted) => {
            messages::note(&e.to_string());
            Ok(interrupt::status(true))
        }
        verdict => print_advice(cfg, &verdict?),
    }
}

/// Prints the verdict: as JSON, or as text fitted to the terminal.
fn print_advice(cfg: &AdviseConfig, advice: &Advice) -> Result<ExitCode, Failure> {
    messages::print("the advice", |out| {
        if cfg.json {
            advice.write_json(out)
        } else {
            messages::write_fitted(out, false, |text| advice.write_text(text))
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Every candidate's run at every tick and under every pacing as one simulated run of that
/// many lanes, for the estimate (each run counted at the first run's tick and pacing) and the
/// bar.
fn every_run(sim: &SimConfig, runs: &[advise::Run]) -> SimConfig {
    SimConfig {
        lanes: runs.iter().flat_map(|r| r.lanes.iter().copied()).collect(),
        ..sim.clone()
    }
}
