//! The capture formats, told apart by their content (never the file's name), and the columns
//! each one is read from.
//!
//! - **PresentMon** (GameTechDev/PresentMon `PresentMon/CsvOutput.cpp`, columns defined in
//!   `README-ConsoleApplication.md`): the current default set, `--v2_metrics` and
//!   `--v1_metrics` (and older captures, which also write the 1.x set). Names are matched in any
//!   capitalisation.
//! - **CapFrameX** session JSON (CXWorld/CapFrameX
//!   `source/CapFrameX.Data.Session/Classes/SessionCaptureData.cs`): PresentMon 1.x columns as
//!   parallel arrays.
//! - **MangoHud** per-frame log (flightlessmango/MangoHud `src/logging.cpp`): optional version and
//!   system-info lines, then `fps,frametime,...,elapsed`.
//! - This program's own frame records (`simulate --trace`, `replay --trace`, the window's
//!   `--frame-log`; `crate::protocol::frame_csv`), and the two layouts before them: a `--trace` with
//!   fewer columns (read by the same columns) and the window's old `wall_s,...` log.

use super::CaptureError;
use crate::protocol::frame_csv::COLUMNS;
use std::fmt;

/// The frame records' columns replay reads: the lane, when each frame started and when it was
/// presented; and, where a log has them, when the display system said it was shown and who
/// said so.
pub const LANE: &str = COLUMNS[0];
pub const START: &str = COLUMNS[2];
pub const PRESENT: &str = COLUMNS[3];
pub const DISPLAY: &str = COLUMNS[4];
pub const DISPLAY_SOURCE: &str = COLUMNS[5];

/// A capture format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PresentMon's current default column set.
    PresentMon,
    /// PresentMon `--v2_metrics`.
    PresentMonV2,
    /// PresentMon `--v1_metrics`, and 1.x captures.
    PresentMonV1,
    /// A CapFrameX session (JSON).
    CapFrameX,
    /// A MangoHud per-frame log.
    MangoHud,
    /// The window's `--frame-log` as written before it took the frame records' layout
    /// (`wall_s,frame_ms,lane,...`).
    OldFrameLog,
    /// Our frame records ([`crate::protocol::frame_csv`]): `simulate --trace`, `replay --trace`, the
    /// window's `--frame-log`; and a `--trace` written before, whose columns were fewer.
    FrameRecords,
}

/// What a capture format is, as data: one row of [`FACTS`] per format, so a format is added
/// by adding its row (and, in `rows.rs`, how its frames are read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The format this row describes.
    pub format: Format,
    /// The format's name, as the report gives it.
    pub name: &'static str,
    /// What the loop's clock (each frame's start) is read from.
    pub clock: &'static str,
    /// What the loop's clock reads, in a few words (a line's subject: "CPU start time").
    pub clock_reads: &'static str,
    /// When a frame reached the screen, or what stands in for it.
    pub display_times: &'static str,
    /// Whether its display times are when frames reached the screen, or as paced by it (not a
    /// CPU-side present standing in).
    pub has_display_times: bool,
    /// The column names (lower case) a CSV header must have to be this format; a name ending
    /// in `*` matches any column it begins. Empty: not a CSV format. The first row whose
    /// columns a header has is its format.
    pub header: &'static [&'static str],
}

/// PresentMon's columns that every one of its formats has: a header with these and none of
/// the formats' own columns is PresentMon without what replay reads.
const PRESENTMON: [&str; 2] = ["application", "swapchainaddress"];

/// Every format's facts, in the order a header is tried against them (`--v2_metrics` before
/// the default set, whose columns a v2 capture may also have).
pub const FACTS: [Facts; 7] = [
    Facts {
        format: Format::MangoHud,
        name: "MangoHud CSV",
        clock: "elapsed: the frame starts at the previous frame's present",
        clock_reads: "previous present",
        display_times: "none in the log: the present (elapsed) is used",
        has_display_times: false,
        header: &["frametime", "elapsed"],
    },
    Facts {
        format: Format::FrameRecords,
        name: "timestep-rope frame records (--trace, --frame-log)",
        clock: "start_s: the frame's start",
        clock_reads: "frame start",
        display_times: "display_s where the window learned when the frame was shown (Wayland's \
                        presentation feedback, X11 Present, or an X11 vblank clock's estimate; \
                        empty with a display_source: discarded); else present_s: when it was \
                        presented (the window: when its present returned, paced by the \
                        display with vsync; empty: never shown)",
        has_display_times: true,
        header: &[LANE, START, PRESENT],
    },
    Facts {
        format: Format::OldFrameLog,
        name: "timestep-rope --frame-log (the layout before frame records)",
        clock: "wall_s: the window's clock at the frame's start",
        clock_reads: "frame start",
        display_times: "present_s: when the window's present returned (paced by the display \
                        with vsync)",
        has_display_times: true,
        header: &["wall_s", "frame_ms", LANE],
    },
    Facts {
        format: Format::PresentMonV2,
        name: "PresentMon --v2_metrics",
        clock: "CPUStartQPC (10 MHz), CPUStartTime or CPUStartQPCTime: when the CPU started the \
                frame",
        clock_reads: "CPU start time",
        display_times: "CPU start + DisplayLatency (NA: never displayed)",
        has_display_times: true,
        header: &[
            "application",
            "swapchainaddress",
            "displaylatency",
            "cpustart*",
        ],
    },
    Facts {
        format: Format::PresentMon,
        name: "PresentMon",
        clock: "CPUStartQPC (10 MHz), CPUStartTime or CPUStartQPCTime: when the CPU started the \
                frame",
        clock_reads: "CPU start time",
        display_times: "CPU start + MsCPUBusy + MsUntilDisplayed (NA: never displayed)",
        has_display_times: true,
        header: &["application", "swapchainaddress", "mscpubusy", "cpustart*"],
    },
    Facts {
        format: Format::PresentMonV1,
        name: "PresentMon 1.x (--v1_metrics)",
        clock: "TimeInSeconds: the frame's present (1.x has no CPU start)",
        clock_reads: "present time",
        display_times: "TimeInSeconds + msUntilDisplayed, unless Dropped",
        has_display_times: true,
        header: &[
            "application",
            "swapchainaddress",
            "dropped",
            "timeinseconds",
        ],
    },
    Facts {
        format: Format::CapFrameX,
        name: "CapFrameX JSON",
        clock: "TimeInSeconds: the frame's present (CapFrameX keeps no CPU start)",
        clock_reads: "present time",
        display_times: "TimeInSeconds + MsUntilDisplayed, unless Dropped or \
                        MsBetweenDisplayChange is 0",
        has_display_times: true,
        header: &[],
    },
];

impl Format {
    /// Every format, as the error for an unknown header lists them.
    pub const ALL: [Format; 7] = [
        Format::PresentMon,
        Format::PresentMonV2,
        Format::PresentMonV1,
        Format::CapFrameX,
        Format::MangoHud,
        Format::OldFrameLog,
        Format::FrameRecords,
    ];

    /// The format's row of `FACTS`.
    pub fn facts(self) -> &'static Facts {
        FACTS.iter().find(|f| f.format == self).unwrap_or(&FACTS[0])
    }

    /// The format's name, as the report gives it.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// What the loop's clock (each frame's start) is read from.
    pub fn clock(self) -> &'static str {
        self.facts().clock
    }

    /// What the loop's clock reads, in a few words (a line's subject: "CPU start time").
    pub fn clock_reads(self) -> &'static str {
        self.facts().clock_reads
    }

    /// When a frame reached the screen, or what stands in for it.
    pub fn display_times(self) -> &'static str {
        self.facts().display_times
    }

    /// Whether its display times are when frames reached the screen, or as paced by it (not a
    /// CPU-side present standing in).
    pub fn has_display_times(self) -> bool {
        self.facts().has_display_times
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The format a capture's first bytes and lines say it is, and the line (0-based) its column
/// header is on (for JSON, 0).
pub fn detect(path: &std::path::Path, head: &[u8]) -> Result<(Format, usize), CaptureError> {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let text = String::from_utf8_lossy(head);
    if text.trim_start().starts_with('{') {
        return Ok((Format::CapFrameX, 0));
    }
    let lines: Vec<&str> = text.lines().collect();
    if lines.iter().all(|l| l.trim().is_empty()) {
        return Err(CaptureError::at(
            path,
            None,
            None,
            "the file is empty".into(),
        ));
    }
    for (i, line) in lines.iter().enumerate().take(64) {
        match header_of(line) {
            Ok(Some(format)) => return Ok((format, i)),
            Ok(None) => {}
            Err(why) => return Err(CaptureError::at(path, Some(i as u64 + 1), None, why.into())),
        }
    }
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    Err(CaptureError::at(
        path,
        None,
        None,
        format!(
            "no format matches its header (expected {})",
            timestep_loop::UnknownName::new("format", "", names).expected
        ),
    ))
}

/// The format whose column header `line` is; `None` if it is none's; an error for a line that
/// says the file is a capture replay cannot read.
fn header_of(line: &str) -> Result<Option<Format>, &'static str> {
    if line.starts_with("0.1% Min FPS") {
        return Err(
            "this is a MangoHud _summary.csv (percentiles, not frames): give the per-frame \
             log it sits beside",
        );
    }
    let cells: Vec<String> = line
        .split(',')
        .map(|c| {
            let c = c.trim().trim_start_matches('\u{feff}');
            c.trim_matches('"').to_ascii_lowercase()
        })
        .collect();
    let matches = |header: &[&str]| {
        !header.is_empty()
            && header.iter().all(|name| match name.strip_suffix('*') {
                Some(prefix) => cells.iter().any(|c| c.starts_with(prefix)),
                None => cells.iter().any(|c| c == name),
            })
    };
    if let Some(facts) = FACTS.iter().find(|f| matches(f.header)) {
        return Ok(Some(facts.format));
    }
    if matches(&PRESENTMON) {
        return Err(
            "a PresentMon header without the columns replay needs (CPUStart and MsCPUBusy and \
             MsUntilDisplayed; CPUStart and DisplayLatency; or Dropped, TimeInSeconds and \
             msUntilDisplayed)",
        );
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_one_row_of_facts_and_only_json_has_no_header() {
        for format in Format::ALL {
            let rows: Vec<&Facts> = FACTS.iter().filter(|f| f.format == format).collect();
            assert_eq!(rows.len(), 1, "{format:?}");
            assert_eq!(rows[0].header.is_empty(), format == Format::CapFrameX);
        }
        assert_eq!(FACTS.len(), Format::ALL.len());
    }

    #[test]
    fn our_frame_records_and_both_older_layouts_are_told_apart() {
        let formats = [
            (COLUMNS.join(","), Format::FrameRecords),
            (
                "lane,frame,present_s,frame_ms,steps,alpha,shown_s,start_s,step_starts_s".into(),
                Format::FrameRecords,
            ),
            (
                "wall_s,frame_ms,lane,steps,alpha,drift_ms,exploded,pacing,input_ms,\
                 step_starts_ms,present_s"
                    .into(),
                Format::OldFrameLog,
            ),
        ];
        for (header, format) in formats {
            let got = detect(std::path::Path::new("x.csv"), header.as_bytes());
            assert_eq!(got.ok(), Some((format, 0)), "{header}");
        }
    }
}
