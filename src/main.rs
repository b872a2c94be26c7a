//! timestep-rope: the window and the command line over the `timestep_lab` library.

mod app;
mod cli;
mod commands;
mod failure;
mod interrupt;
mod messages;
mod pending;
mod plot;
mod progress;

use crate::failure::Failure;
use cli::Run;
use commands::{advise, probe, replay, simulate, sweep};
use std::process::ExitCode;

fn main() -> ExitCode {
    crate::pending::remove_unfinished_at_any_end();
    match run() {
        Ok(status) => status,
        Err(failure) => {
            messages::error(&failure.message);
            ExitCode::from(failure.status)
        }
    }
}

/// Parses the command line and runs what it asks for; a failure is said once, by `main`.
fn run() -> Result<ExitCode, Failure> {
    match cli::parse(std::env::args_os())? {
        Run::Help(text) => {
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Run::Window(cfg) => app::run(cfg),
        Run::Simulate(cfg, out) => simulate::main(&cfg, &out),
        Run::Sweep(cfg, out) => sweep::main(&cfg, &out),
        Run::Replay(cfg, out) => replay::main(&cfg, &out),
        Run::Advise(cfg, progress) => advise::main(&cfg, progress),
        Run::Probe(cfg) => probe::main(&cfg),
        Run::Lessons => written("the lessons", |out| {
            crate::messages::write_fitted(out, false, timestep_lab::view::lessons::list)
        }),
        Run::Completions(shell) => written("the completions", |out| cli::completions(shell, out)),
        Run::Man(command) => written("the man page", |out| cli::man(*command, out)),
    }
}

/// Prints `what` with `write`, exit status 0.
fn written(
    what: &str,
    write: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>,
) -> Result<ExitCode, Failure> {
    messages::print(what, write)?;
    Ok(ExitCode::SUCCESS)
}
