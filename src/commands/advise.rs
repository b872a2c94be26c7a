//! `advise` as a program: the library's verdict, with the estimate and progress bar `simulate`
//! shows when the candidates' runs on a simulated display are long (see `simulate_progress`),
//! and Ctrl-C, SIGTERM and SIGHUP ending those runs with no verdict (status 130).

use super::simulate_progress::{Progress, Said};
use crate::failure::Failure;
use crate::interrupt;
use std::process::ExitCode;
use timestep_lab::advise::{self, AdviseConfig, AdviseError, Situation, Watching};
use timestep_lab::fit;
use timestep_lab::fixes::{self, Stepping};
use timestep_lab::messages;
use timestep_lab::simulate::{FrameRecord, SimConfig};

/// What Ctrl-C does to an `advise` run, as its estimate lines end.
const ADVISE_CTRL_C: &str = "Ctrl-C stops it, with no verdict";

/// Runs `advise`; `force`: progress shows even when stderr is not a terminal.
pub fn main(cfg: &AdviseConfig, force: bool) -> Result<ExitCode, Failure> {
    let status = verdict(cfg, force)?;
    // A tick the rope cannot take, and its fix, under the verdict's text (not its JSON).
    if !cfg.json && status == ExitCode::SUCCESS {
        let said = tick_fix_lines(&cfg.situation);
        messages::print("the advice", |out| {
            fit::write_fitted(out, false, |text| fixes::write_lines(text, &said))
        })?;
    }
    Ok(status)
}

/// What to say of the candidates whose tick is above the rope's stable step, and the fix
/// ([`fixes::tick_fix`]; `advise` substeps at 1 ms unless `--max-substep` says otherwise, so
/// only a longer one brings this on).
fn tick_fix_lines(situation: &Situation) -> Vec<String> {
    let (lanes, rope) = match situation {
        Situation::Display { sim, .. } => (
            Stepping::of_specs(&sim.lanes, &sim.env(), &sim.rope),
            &sim.rope,
        ),
        Situation::Capture(c) => (Stepping::of_specs(&c.lanes, &c.env(None), &c.rope), &c.rope),
    };
    fixes::lines(&lanes, rope, &[])
}

/// Runs the candidates and prints the verdict.
fn verdict(cfg: &AdviseConfig, force: bool) -> Result<ExitCode, Failure> {
    let Situation::Display { sim, pacings } = &cfg.situation else {
        return Ok(advise::main(cfg)?);
    };
    let d = &sim.display;
    let said = Said {
        ctrl_c: ADVISE_CTRL_C,
        shortest_s: advise::shortest_run_s(d.display_hz, d.render_cost.min_ns(), d.pacing),
    };
    interrupt::install();
    let mut progress = Progress::start(&every_run(sim, pacings.len()), force, said);
    let lanes = sim.lanes.len();
    let mut frame = |k: usize, f: &FrameRecord| progress.frame_as(k * lanes + f.lane, f);
    let mut watching = Watching {
        frame: Some(&mut frame),
        stop: Some(interrupt::flag()),
    };
    let verdict = advise::main_with(cfg, &mut watching);
    progress.finish();
    match verdict {
        Err(e @ AdviseError::Interrupted) => {
            messages::note(&e.to_string());
            Ok(interrupt::status(true))
        }
        verdict => Ok(verdict?),
    }
}

/// Every candidate's run under every pacing as one simulated run of that many lanes, for the
/// estimate (each pacing's runs counted as the first pacing's) and the bar.
fn every_run(sim: &SimConfig, pacings: usize) -> SimConfig {
    SimConfig {
        lanes: sim.lanes.repeat(pacings.max(1)),
        ..sim.clone()
    }
}
