//! Replaying a capture: what every loop would have done on a real game's frames.
//!
//! A capture fixes when each frame started and when it reached the screen. Replay reads it
//! (the format found from its content: `format.rs`; row by row: `rows.rs`, `capframex.rs`),
//! picks the frames of one application's swap chain (`select.rs`), sums them up, and runs every
//! lane over them through the frame protocol with the capture as its host (`host.rs`): each
//! frame starts at its captured start, and is presented at its captured time on screen, or not
//! at all. The capture is read three times, streaming: to find the groups, to sum up the one
//! chosen, and to replay it. Nothing grows with a CSV capture's length but the lanes' own books:
//! a record is at most 1 MiB, the groups at most 10,000, the summary's histograms bounded. A
//! CapFrameX session's arrays are parallel, so a run's are held while it is read (at most 33
//! bytes a frame; `capframex.rs`), never the file itself.
//!
//! Every time is checked where it is read: a capture is refused, in one line naming the file,
//! the line (or frame) and the column, for a time that is negative, not a number, past
//! [`MAX_TIME_NS`], or on screen before its frame started.
//!
//! The rules, as GUIDE.md states them:
//! - **Which frames**: the application with the most application frames (dwm.exe left out
//!   unless `--app` names it), its busiest swap chain unless `--swapchain`, and only frames
//!   whose `FrameType` is Application (generated frames are counted and skipped).
//! - **The loop's clock** is the frame's start (see [`Format::clock`]).
//! - **On screen**: see [`Format::display_times`]. A frame never displayed still runs its ticks
//!   but is not presented.
//! - **Open loop**: a capture fixes when frames start. A lane whose rule would move that
//!   (MonoGame's wait for a whole tick) runs on the captured starts and is marked so.
//! - **Vblanks**: the refresh is estimated from the display changes (the vsync detector, to the
//!   nearest 0.001 Hz); the per-vblank counters count in it, or there are none.

mod capframex;
mod format;
mod host;
mod report;
mod rows;
mod select;
mod summary;
mod why;

pub use format::Format;
pub use host::{CaptureHost, ReplayError, WAITS_OPEN_LOOP, open, run, run_with};
pub use report::{
    ReplayConfig, ReplayConfigReport, ReplayReport, write_advise, write_capture, write_table,
};
pub use rows::Rows;
pub use select::{Selection, Stream, choose};
pub use summary::{CaptureSummary, Spread, summarise};
pub use why::why_lanes_differ;

use std::fmt;
use std::path::{Path, PathBuf};

/// One frame of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captured {
    /// When the frame started (its clock reading), ns on the capture's own timeline.
    pub start_ns: u64,
    /// When it reached the screen, ns on the same timeline; `None`: never displayed.
    pub shown_ns: Option<u64>,
    /// Where it is in the file: its line (a JSON capture: its frame number).
    pub line: u64,
}

/// What is wrong with a capture, and where: the file, the line (or frame), the column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureError {
    /// The capture file.
    pub path: PathBuf,
    /// "line 12", "frame 12", or nothing.
    pub place: Option<String>,
    /// The column at fault, by its name; None: no one column.
    pub column: Option<String>,
    /// What is wrong, in a few words.
    pub message: String,
}

impl CaptureError {
    /// An error at `line` (1-based) and `column` of `path`.
    pub fn at(path: &Path, line: Option<u64>, column: Option<String>, message: String) -> Self {
        CaptureError {
            path: path.to_owned(),
            place: line.map(|l| format!("line {l}")),
            column,
            message,
        }
    }

    /// An error in frame `frame` (1-based) of a capture that has no lines.
    pub fn at_frame(path: &Path, frame: usize, column: &str, message: String) -> Self {
        CaptureError {
            path: path.to_owned(),
            place: Some(format!("frame {frame}")),
            column: Some(column.into()),
            message,
        }
    }
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(place) = &self.place {
            write!(f, ", {place}")?;
        }
        if let Some(column) = &self.column {
            write!(f, ", column {column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for CaptureError {}

/// The latest time a capture may hold, ns: 2^62 ns, about 146 years from its clock's zero. A
/// time past it is refused; a few of them (a start, its latencies, a run's offset) then sum
/// without overflowing a u64, and every sum is checked against it again.
pub const MAX_TIME_NS: u64 = 1 << 62;

/// A time in a capture that cannot be one, or a sum of them past [`MAX_TIME_NS`].
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum TimeError {
    /// A time that is negative or not a number.
    #[error("not a time (negative, or not a number)")]
    NotATime,
    /// A time past [`MAX_TIME_NS`].
    #[error("past the latest time replay reads (2^62 ns, about 146 years)")]
    PastLatest,
    /// A duration (ns) that moves a time before its frame's start.
    #[error("{:.4} ms puts it before the frame's start", .0 / 1e6)]
    BeforeStart(f64),
}

/// A time computed in ns (from a number in a file), rounded to whole ns: refused when not a
/// number, negative, or past [`MAX_TIME_NS`].
pub(crate) fn time_ns(ns: f64) -> Result<u64, TimeError> {
    if ns.is_nan() || ns < 0.0 {
        return Err(TimeError::NotATime);
    }
    let ns = ns.round();
    if ns > MAX_TIME_NS as f64 {
        return Err(TimeError::PastLatest);
    }
    Ok(ns as u64)
}

/// `from` moved by a duration in ns (which may be negative): refused when the result is before
/// `not_before` or past [`MAX_TIME_NS`].
pub(crate) fn moved_ns(from: u64, by_ns: f64, not_before: u64) -> Result<u64, TimeError> {
    let by = by_ns.round();
    if by.is_nan() || by.abs() > MAX_TIME_NS as f64 {
        return Err(TimeError::PastLatest);
    }
    let to = from as i128 + by as i128;
    if to < i128::from(not_before) {
        return Err(TimeError::BeforeStart(by_ns));
    }
    u64::try_from(to)
        .ok()
        .filter(|&t| t <= MAX_TIME_NS)
        .ok_or(TimeError::PastLatest)
}

/// `a + b`, both times or durations in ns, refused past [`MAX_TIME_NS`].
pub(crate) fn sum_ns(a: u64, b: u64) -> Result<u64, TimeError> {
    a.checked_add(b)
        .filter(|&t| t <= MAX_TIME_NS)
        .ok_or(TimeError::PastLatest)
}
