use std::process::ExitCode;
use timestep_rope::cli::{self, Run};
use timestep_rope::messages::{self, Failure};
use timestep_rope::{app, probe, replay, simulate, sweep};

fn main() -> ExitCode {
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
        Run::Probe(cfg) => probe::main(&cfg),
        Run::Lessons => lessons(),
    }
}

/// `timestep-rope lessons`: the list on stdout.
fn lessons() -> Result<ExitCode, Failure> {
    let mut out = std::io::stdout().lock();
    match timestep_rope::lessons::list(&mut out) {
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::machine(
            messages::chain("cannot write the lessons", &e),
        )),
        _ => Ok(ExitCode::SUCCESS),
    }
}
