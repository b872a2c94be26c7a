//! Progress on stderr for the long runs (`simulate`, `sweep`): an indicatif bar with an ETA on
//! a terminal; with `--progress` and no terminal, the same text as plain lines, one a second,
//! for logs and for tests; otherwise nothing.

use crate::messages;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Whether progress shows: stderr is a terminal, or `force` (`--progress`).
pub fn shows(force: bool) -> bool {
    force || io::stderr().is_terminal()
}

/// A bar of `len` units drawn with `template` (indicatif's syntax): on a terminal, a bar; with
/// `force` and no terminal, plain lines; otherwise hidden.
pub fn bar(len: u64, template: &str, force: bool) -> ProgressBar {
    let target = if io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else if force {
        ProgressDrawTarget::term_like_with_hz(Box::new(Lines::default()), 1)
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// A "terminal" that cannot move its cursor: a redraw becomes one line on stderr, at most one
/// a second (indicatif's own limit lets bursts through).
#[derive(Debug, Default)]
struct Lines {
    last: Mutex<Option<Instant>>,
}

impl TermLike for Lines {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> io::Result<()> {
        self.write_str(s)
    }
    fn write_str(&self, s: &str) -> io::Result<()> {
        if s.trim().is_empty() {
            return Ok(());
        }
        if let Ok(mut last) = self.last.lock() {
            if last.is_some_and(|t| t.elapsed() < Duration::from_secs(1)) {
                return Ok(());
            }
            *last = Some(Instant::now());
        }
        let mut err = io::stderr().lock();
        writeln!(err, "{}", messages::note_text(s))?;
        err.flush()
    }
    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> io::Result<()> {
        io::stderr().flush()
    }
}
