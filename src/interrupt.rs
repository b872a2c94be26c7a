//! Ctrl-C, SIGTERM and SIGHUP for the runs and the window: the first asks the run to stop where
//! it is, so it can finish its files and say it was interrupted (the window quits as Esc does);
//! a second ends the process at once, its output files left as they were before the run (see
//! [`crate::pending`]). The three are one (ctrlc's handler is not told which came), so
//! each ends with the status of Ctrl-C, 130.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit status after an interrupt, whichever signal it was: 128 + SIGINT, as shells report
/// Ctrl-C.
pub const EXIT_INTERRUPTED: u8 = 130;

/// The exit status of a run that finished (0) or was interrupted (130).
pub fn status(interrupted: bool) -> std::process::ExitCode {
    if interrupted {
        std::process::ExitCode::from(EXIT_INTERRUPTED)
    } else {
        std::process::ExitCode::SUCCESS
    }
}

/// Installs the handler (once; later calls do nothing). Without one (the OS refused it) the
/// signals keep their default meaning, which ends the process.
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if REQUESTED.swap(true, Ordering::SeqCst) {
                // No destructor runs past exit: the unfinished output files go first.
                crate::pending::remove_unfinished();
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            }
        });
    });
}

/// The flag a run polls: true once Ctrl-C, SIGTERM or SIGHUP came.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}
