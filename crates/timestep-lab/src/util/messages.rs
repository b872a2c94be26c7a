//! Everything the program says on stderr goes through here, so the program's name is written
//! in one place: errors (`timestep-rope: error: ...`), warnings and notes.

/// The program's name, as every line on stderr starts.
pub const PROGRAM: &str = "timestep-rope";

/// The exit status of bad input: a flag, a value or a file (nothing was started).
pub const EXIT_USAGE: u8 = 2;
/// The exit status of a failure of the machine: no display, the GPU, a write that failed.
pub const EXIT_FAILURE: u8 = 1;

/// The most characters of a value an error quotes.
const QUOTED_CHARS: usize = 40;

/// A value from a file as an error quotes it: at most 40 characters, the rest elided with the
/// value's length, so one bad cell (a million digits) never makes a long line; what it holds
/// [`shown`] as text.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => shown(text).into_owned(),
        Some((cut, _)) => format!("{}... ({} bytes)", shown(&text[..cut]), text.len()),
    }
}

/// Text a file or a command line gave (an application's name, a path) as the program prints
/// it: every control character (ESC, CR, LF, BEL, DEL and the C1 set) and every character that
/// reorders text on screen (the bidirectional marks, embeddings, overrides and isolates) written
/// as its escape (`\u{1b}`, `\r`, `\n`), so that what a capture says can never move the
/// cursor, recolour the terminal or fake a line of the report. Anything else is as it was.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(unprintable) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unprintable(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `c` is a control character or one that reorders the text around it: what [`shown`]
/// escapes.
pub fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// A number read from a file as an error quotes it: as written for ordinary magnitudes, in
/// exponent form past 1e15 (1e308 is "1e308", not 309 digits).
pub fn quoted_number(v: f64) -> String {
    if v.is_finite() && v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

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

/// `message` on one line: its own line breaks become spaces, and any other control character
/// (from a file it quotes) is [`shown`] as its escape.
fn one_line(message: &str) -> String {
    shown(&message.trim_end().replace(['\n', '\r'], " ")).into_owned()
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
    fn control_and_reordering_characters_are_shown_as_escapes_and_the_rest_as_it_is() {
        assert_eq!(shown("game.exe"), "game.exe");
        assert_eq!(shown("spiel-ü 游戏"), "spiel-ü 游戏");
        assert_eq!(
            shown("a\x1b[31mb\r\nc\u{7f}\u{9b}d\u{202e}e\u{2066}"),
            r"a\u{1b}[31mb\r\nc\u{7f}\u{9b}d\u{202e}e\u{2066}"
        );
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

#[cfg(test)]
mod quoting_tests {
    use super::*;

    #[test]
    fn a_quoted_value_is_short_whatever_the_file_holds() {
        assert_eq!(quoted("16.6"), "16.6");
        let long = "9".repeat(1_000_000);
        let q = quoted(&long);
        assert!(q.len() < 80 && q.ends_with("(1000000 bytes)"), "{q}");
        assert_eq!(quoted_number(1e308), "1e308");
        assert_eq!(quoted_number(16.6), "16.6");
        assert_eq!(quoted_number(-2.5e20), "-2.5e20");
    }
}
