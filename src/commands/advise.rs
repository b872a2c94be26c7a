//! `advise` as a program: the library's verdict, with the estimate and progress bar `simulate`
//! shows when the candidates' runs on a simulated display are long (see `simulate_progress`).

use super::simulate_progress::{Progress, Said};
use crate::failure::Failure;
use std::process::ExitCode;
use timestep_lab::advise::{self, AdviseConfig, Situation};
use timestep_lab::simulate::SimConfig;

/// What Ctrl-C does to an `advise` run, as its estimate lines end: it is not caught, so the
/// process ends at once (no verdict on loops that did not run their time).
const ADVISE_CTRL_C: &str = "Ctrl-C stops it, with no verdict";

/// Runs `advise`; `force`: progress shows even when stderr is not a terminal.
pub fn main(cfg: &AdviseConfig, force: bool) -> Result<ExitCode, Failure> {
    let Situation::Display { sim, pacings } = &cfg.situation else {
        return Ok(advise::main(cfg)?);
    };
    let d = &sim.display;
    let said = Said {
        ctrl_c: ADVISE_CTRL_C,
        shortest_s: advise::shortest_run_s(d.display_hz, d.render_cost.min_ns(), d.pacing),
    };
    let mut progress = Progress::start(&every_run(sim, pacings.len()), force, said);
    let lanes = sim.lanes.len();
    let verdict = advise::main_with(cfg, &mut |k, f| progress.frame_as(k * lanes + f.lane, f));
    progress.finish();
    Ok(verdict?)
}

/// Every candidate's run under every pacing as one simulated run of that many lanes, for the
/// estimate (each pacing's runs counted as the first pacing's) and the bar.
fn every_run(sim: &SimConfig, pacings: usize) -> SimConfig {
    SimConfig {
        lanes: sim.lanes.repeat(pacings.max(1)),
        ..sim.clone()
    }
}
