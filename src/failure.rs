//! The binary's one top-level error: every command returns a [`Failure`] on its way up to
//! `main`, which says it once (through `crate::messages`) and exits with its status.

use crate::messages::{EXIT_FAILURE, EXIT_USAGE, PrintFailed};
use std::fmt;
use timestep_lab::analyses::advise::AdviseError;

/// An error on its way to `main`: a one-line message (without the program's name) and the
/// exit status it ends the program with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    pub status: u8,
}

impl Failure {
    /// Bad input: exit status 2.
    pub fn usage(message: impl fmt::Display) -> Failure {
        Failure {
            message: message.to_string(),
            status: EXIT_USAGE,
        }
    }

    /// The machine failed: exit status 1.
    pub fn machine(message: impl fmt::Display) -> Failure {
        Failure {
            message: message.to_string(),
            status: EXIT_FAILURE,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<PrintFailed> for Failure {
    /// stdout could not be written: the machine's failure.
    fn from(e: PrintFailed) -> Failure {
        Failure::machine(e)
    }
}

impl From<AdviseError> for Failure {
    /// Bad lanes or a bad capture are bad input.
    fn from(e: AdviseError) -> Failure {
        Failure::usage(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_exits_2_and_a_failed_machine_1() {
        assert_eq!(Failure::usage("x").status, 2);
        assert_eq!(Failure::machine("x").status, 1);
    }
}
