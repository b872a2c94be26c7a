use std::process::ExitCode;
use timestep_rope::cli::{self, Run};

fn main() -> ExitCode {
    let run = match cli::parse(std::env::args_os()) {
        Ok(run) => run,
        Err((msg, status)) => {
            if status == 0 {
                print!("{msg}");
            } else {
                eprintln!("{msg}");
            }
            return ExitCode::from(status as u8);
        }
    };
    match run {
        Run::Window(cfg) => timestep_rope::app::run(cfg),
        Run::Simulate(cfg, out) => timestep_rope::simulate::main(&cfg, &out),
        Run::Sweep(cfg, out) => timestep_rope::sweep::main(&cfg, &out),
    }
}
