//! Ctrl-C for the long runs (`sweep`, a long `simulate`): the first press asks the run to stop
//! where it is, so it can finish its files and say it was interrupted; a second press ends the
//! process at once, its output files left as they were before the run (see [`timestep_lab::pending`]).

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit status after an interrupt (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// The exit status of a run that finished (0) or was stopped by Ctrl-C (130).
pub fn status(interrupted: bool) -> std::process::ExitCode {
    if interrupted {
        std::process::ExitCode::from(EXIT_INTERRUPTED)
    } else {
        std::process::ExitCode::SUCCESS
    }
}

/// Installs the handler (once; later calls do nothing). Without one (the OS refused it) Ctrl-C
/// keeps its default meaning, which ends the process.
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if REQUESTED.swap(true, Ordering::SeqCst) {
                // No destructor runs past exit: the unfinished output files go first.
                timestep_lab::pending::remove_unfinished();
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            }
        });
    });
}

/// The flag a run polls: true once Ctrl-C was pressed.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}
