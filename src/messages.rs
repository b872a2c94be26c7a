//! Everything the program says on stderr goes through here, so the program's name is written
//! in one place: errors (`timestep-rope: error: ...`), warnings and notes; its exit statuses;
//! and a command's result on stdout, fitted to the terminal's 100 columns unless `--wide`.

use std::io::{self, Write};
use timestep_lab::util::fit::{COLUMNS, wrap};
use timestep_lab::util::quote::one_line;

/// The program's name, as every line on stderr starts.
pub const PROGRAM: &str = "timestep-rope";

/// The exit status of bad input: a flag, a value or a file (nothing was started).
pub const EXIT_USAGE: u8 = 2;
/// The exit status of a failure of the machine: no display, the GPU, a write that failed.
pub const EXIT_FAILURE: u8 = 1;

/// The line an error is said in.
pub fn error_text(message: &str) -> String {
    format!("{PROGRAM}: error: {}", one_line(message))
}

/// Says an error.
pub fn error(message: &str) {
    eprintln!("{}", error_text(message));
}

/// Says a warning: something is wrong, and the program carries on.
pub fn warning(message: &str) {
    eprintln!("{PROGRAM}: warning: {}", one_line(message));
}

/// Says something worth knowing (what a long run will cost, that a run was interrupted).
pub fn note(message: &str) {
    eprintln!("{}", note_text(message));
}

/// The line a note is said in.
pub fn note_text(message: &str) -> String {
    format!("{PROGRAM}: {}", one_line(message))
}

/// Writes a command's result to stdout with `write`, then flushes. A reader that has gone
/// (`| head`) is no error; any other failure is one line naming `what` (exit status 1).
pub fn print(
    what: &str,
    write: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>,
) -> Result<(), PrintFailed> {
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|()| std::io::Write::flush(&mut out)) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(PrintFailed {
            line: chain(&format!("writing {what} failed"), &e),
        }),
        _ => Ok(()),
    }
}

/// A command's result that could not be written to stdout: the whole line, the write's
/// error chain and all.
#[derive(Debug, thiserror::Error)]
#[error("{line}")]
pub struct PrintFailed {
    line: String,
}

/// Writes the text `write` produces to `out`: as it is when `wide`, else with every line longer
/// than [`COLUMNS`](timestep_lab::util::fit::COLUMNS) characters wrapped (see [`wrap`](timestep_lab::util::fit::wrap)).
pub fn write_fitted(
    out: &mut impl Write,
    wide: bool,
    write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>,
) -> io::Result<()> {
    let mut text = Vec::new();
    write(&mut text)?;
    if wide {
        return out.write_all(&text);
    }
    let text = String::from_utf8_lossy(&text);
    for line in text.lines() {
        for part in wrap(line, COLUMNS) {
            writeln!(out, "{part}")?;
        }
    }
    Ok(())
}

/// `<what>: <error>: <its source>: ...` — the whole chain of an error on one line, as pixels'
/// `log_error` does (a source that repeats the end of the line is left out).
pub fn chain(what: &str, err: &dyn std::error::Error) -> String {
    let mut line = format!("{what}: {err}");
    let mut source = err.source();
    while let Some(e) = source {
        let text = e.to_string();
        if !line.ends_with(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        source = e.source();
    }
    one_line(&line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt;

    #[test]
    fn an_error_escapes_what_a_file_said() {
        assert_eq!(
            error_text("no frames of 'x\x1b[2J'"),
            r"timestep-rope: error: no frames of 'x\u{1b}[2J'"
        );
    }

    #[test]
    fn every_line_starts_with_the_program_and_stays_one_line() {
        assert_eq!(
            error_text("--dt: bad\nvalue"),
            "timestep-rope: error: --dt: bad value"
        );
        assert_eq!(note_text("run"), "timestep-rope: run");
    }

    #[test]
    fn an_error_chain_is_walked_on_one_line() {
        #[derive(Debug)]
        struct Outer(std::io::Error);
        impl fmt::Display for Outer {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("render failed")
            }
        }
        impl std::error::Error for Outer {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let e = Outer(std::io::Error::other("device lost\nreally"));
        assert_eq!(
            chain("pixels.render", &e),
            "pixels.render: render failed: device lost really"
        );
    }
}
