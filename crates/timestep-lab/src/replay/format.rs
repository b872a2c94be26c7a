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
//! - This program's own `--frame-log` and `simulate --trace`.

use super::CaptureError;
use std::fmt;

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
    /// The window's own per-frame CSV log (what its `--frame-log` writes).
    FrameLog,
    /// `simulate --trace` (or `replay --trace`).
    Trace,
}

impl Format {
    /// Every format, as the error for an unknown header lists them.
    pub const ALL: [Format; 7] = [
        Format::PresentMon,
        Format::PresentMonV2,
        Format::PresentMonV1,
        Format::CapFrameX,
        Format::MangoHud,
        Format::FrameLog,
        Format::Trace,
    ];

    /// The format's name, as the report gives it.
    pub fn name(self) -> &'static str {
        match self {
            Format::PresentMon => "PresentMon",
            Format::PresentMonV2 => "PresentMon --v2_metrics",
            Format::PresentMonV1 => "PresentMon 1.x (--v1_metrics)",
            Format::CapFrameX => "CapFrameX JSON",
            Format::MangoHud => "MangoHud CSV",
            Format::FrameLog => "timestep-rope --frame-log",
            Format::Trace => "timestep-rope --trace",
        }
    }

    /// What the loop's clock (each frame's start) is read from.
    pub fn clock(self) -> &'static str {
        match self {
            Format::PresentMon | Format::PresentMonV2 => {
                "CPUStartQPC (10 MHz), CPUStartTime or CPUStartQPCTime: when the CPU started the frame"
            }
            Format::PresentMonV1 => "TimeInSeconds: the frame's present (1.x has no CPU start)",
            Format::CapFrameX => {
                "TimeInSeconds: the frame's present (CapFrameX keeps no CPU start)"
            }
            Format::MangoHud => "elapsed: the frame starts at the previous frame's present",
            Format::FrameLog => "wall_s: the window's clock at the frame's start",
            Format::Trace => "start_s: the frame's start",
        }
    }

    /// What the loop's clock reads, in a few words (a line's subject: "CPU start time").
    pub fn clock_reads(self) -> &'static str {
        match self {
            Format::PresentMon | Format::PresentMonV2 => "CPU start time",
            Format::PresentMonV1 | Format::CapFrameX => "present time",
            Format::MangoHud => "previous present",
            Format::FrameLog | Format::Trace => "frame start",
        }
    }

    /// When a frame reached the screen, or what stands in for it.
    pub fn display_times(self) -> &'static str {
        match self {
            Format::PresentMon => "CPU start + MsCPUBusy + MsUntilDisplayed (NA: never displayed)",
            Format::PresentMonV2 => "CPU start + DisplayLatency (NA: never displayed)",
            Format::PresentMonV1 => "TimeInSeconds + msUntilDisplayed, unless Dropped",
            Format::CapFrameX => {
                "TimeInSeconds + MsUntilDisplayed, unless Dropped or MsBetweenDisplayChange is 0"
            }
            Format::MangoHud => "none in the log: the present (elapsed) is used",
            Format::FrameLog => {
                "present_s: when the window's present returned (paced by the display with vsync)"
            }
            Format::Trace => "present_s",
        }
    }

    /// Whether its display times are when frames reached the screen, or as paced by it (not a
    /// CPU-side present standing in).
    pub fn has_display_times(self) -> bool {
        self != Format::MangoHud
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
        let cells: Vec<String> = line
            .split(',')
            .map(|c| {
                let c = c.trim().trim_start_matches('\u{feff}');
                c.trim_matches('"').to_ascii_lowercase()
            })
            .collect();
        let has = |name: &str| cells.iter().any(|c| c == name);
        if line.starts_with("0.1% Min FPS") {
            return Err(CaptureError::at(
                path,
                Some(i as u64 + 1),
                None,
                "this is a MangoHud _summary.csv (percentiles, not frames): give the per-frame \
                 log it sits beside"
                    .into(),
            ));
        }
        if has("frametime") && has("elapsed") {
            return Ok((Format::MangoHud, i));
        }
        if has("lane") && has("start_s") && has("present_s") {
            return Ok((Format::Trace, i));
        }
        if has("wall_s") && has("frame_ms") && has("lane") {
            return Ok((Format::FrameLog, i));
        }
        if has("application") && has("swapchainaddress") {
            let cpu_start = cells.iter().any(|c| c.starts_with("cpustart"));
            let format = if has("displaylatency") && cpu_start {
                Format::PresentMonV2
            } else if has("mscpubusy") && cpu_start {
                Format::PresentMon
            } else if has("dropped") && has("timeinseconds") {
                Format::PresentMonV1
            } else {
                return Err(CaptureError::at(
                    path,
                    Some(i as u64 + 1),
                    None,
                    "a PresentMon header without the columns replay needs (CPUStart and \
                     MsCPUBusy and MsUntilDisplayed; CPUStart and DisplayLatency; or Dropped, \
                     TimeInSeconds and msUntilDisplayed)"
                        .into(),
                ));
            };
            return Ok((format, i));
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
