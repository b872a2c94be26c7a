//! Reading a capture row by row, streaming, whatever its format: each row's group (the
//! application, process and swap chain, or a lane), whether it is an application frame, when
//! it started and when it reached the screen. Numbers are read straight from the record's
//! bytes, and a bad one is an error naming the file, the line and the column.

use super::capframex::JsonRows;
use super::format::{Format, detect};
use super::{CaptureError, Captured};
use csv::{ByteRecord, Reader, ReaderBuilder};
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// Bytes read to tell the format: enough for MangoHud's info lines and a long header.
const HEAD_BYTES: u64 = 64 * 1024;

/// A frame's group: (application, process, swap chain) for PresentMon, (lane) for ours,
/// nothing for a format of one stream.
pub type Group<'a> = [&'a [u8]; 3];

/// One row, as read.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    pub group: Group<'a>,
    /// The row is an application frame (PresentMon's `FrameType` is `Application`, or the
    /// format has no frame type); generated frames are counted and skipped.
    pub application: bool,
    pub frame: Captured,
}

/// A capture opened for reading.
pub struct Rows {
    format: Format,
    inner: Inner,
}

enum Inner {
    Csv(Box<CsvRows>),
    Json(JsonRows),
}

impl Rows {
    /// Opens `path` and tells its format from its content.
    pub fn open(path: &Path) -> Result<Rows, CaptureError> {
        let io =
            |e: std::io::Error| CaptureError::at(path, None, None, format!("cannot read: {e}"));
        let mut head = Vec::new();
        File::open(path)
            .map_err(io)?
            .take(HEAD_BYTES)
            .read_to_end(&mut head)
            .map_err(io)?;
        let (format, header_line) = detect(path, &head)?;
        let inner = match format {
            Format::CapFrameX => Inner::Json(JsonRows::read(path)?),
            _ => Inner::Csv(Box::new(CsvRows::open(path, format, header_line)?)),
        };
        Ok(Rows { format, inner })
    }

    /// The capture's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The next row, or `None` at the end.
    pub fn next_row(&mut self) -> Result<Option<Row<'_>>, CaptureError> {
        match &mut self.inner {
            Inner::Csv(rows) => rows.next_row(),
            Inner::Json(rows) => Ok(rows.next_row()),
        }
    }
}

/// How a time column is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    /// PresentMon's QPC ticks, a 10 MHz counter in its captures.
    Qpc,
    Ns,
    Ms,
    S,
}

impl Unit {
    /// A value of this unit, as read, in ns.
    fn ns(self, v: f64) -> f64 {
        match self {
            Unit::Qpc => v * 100.0,
            Unit::Ns => v,
            Unit::Ms => v * 1e6,
            Unit::S => v * 1e9,
        }
    }
}

/// Where a format's numbers are.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Current set: start (CPU start), + MsCPUBusy + MsUntilDisplayed.
    PresentMon {
        start: (usize, Unit),
        busy: usize,
        until: usize,
    },
    /// `--v2_metrics`: start (CPU start) + DisplayLatency.
    V2 {
        start: (usize, Unit),
        latency: usize,
    },
    /// 1.x: TimeInSeconds + msUntilDisplayed unless Dropped.
    V1 {
        time: usize,
        until: usize,
        dropped: usize,
    },
    /// MangoHud: a frame runs from the previous present to its own (`elapsed`, ns).
    MangoHud { elapsed: usize, frametime: usize },
    /// Ours: start and present, s.
    Ours { start: usize, present: usize },
}

/// A CSV capture.
struct CsvRows {
    path: PathBuf,
    reader: Reader<BufReader<File>>,
    record: ByteRecord,
    /// Column names by index (for errors) and how many there are.
    names: Vec<String>,
    /// The group's columns, if the format has groups.
    group: [Option<usize>; 3],
    frame_type: Option<usize>,
    layout: Layout,
    /// MangoHud: the previous row's present, ns.
    previous_ns: Option<u64>,
}

impl CsvRows {
    fn open(path: &Path, format: Format, header_line: usize) -> Result<CsvRows, CaptureError> {
        let file = File::open(path)
            .map_err(|e| CaptureError::at(path, None, None, format!("cannot read: {e}")))?;
        let mut reader = ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(BufReader::with_capacity(1 << 16, file));
        let mut record = ByteRecord::new();
        for _ in 0..=header_line {
            let read = reader.read_byte_record(&mut record);
            if !matches!(read, Ok(true)) {
                return Err(CaptureError::at(path, None, None, "no header".into()));
            }
        }
        let names: Vec<String> = record
            .iter()
            .map(|c| {
                let name = String::from_utf8_lossy(c);
                name.trim().trim_start_matches('\u{feff}').to_string()
            })
            .collect();
        let find = |name: &str| names.iter().position(|n| n.eq_ignore_ascii_case(name));
        let need = |name: &str| {
            find(name).ok_or_else(|| {
                CaptureError::at(
                    path,
                    Some(header_line as u64 + 1),
                    None,
                    format!("{format} header without a {name} column"),
                )
            })
        };
        let cpu_start = || -> Result<(usize, Unit), CaptureError> {
            let candidates = [
                ("CPUStartQPC", Unit::Qpc),
                ("CPUStartTime", Unit::Ms),
                ("CPUStartTimeInMs", Unit::Ms),
                ("CPUStartQPCTime", Unit::Ms),
                ("CPUStartQPCTimeInMs", Unit::Ms),
            ];
            candidates
                .iter()
                .find_map(|&(name, unit)| find(name).map(|i| (i, unit)))
                .ok_or_else(|| {
                    CaptureError::at(
                        path,
                        Some(header_line as u64 + 1),
                        None,
                        "no CPU start column replay can read (CPUStartQPC, CPUStartTime or \
                         CPUStartQPCTime; CPUStartDateTime is not supported)"
                            .into(),
                    )
                })
        };
        let (group, layout) = match format {
            Format::CapFrameX => {
                return Err(CaptureError::at(
                    path,
                    None,
                    None,
                    "not a CSV capture".into(),
                ));
            }
            Format::PresentMon | Format::PresentMonV2 | Format::PresentMonV1 => {
                let group = [
                    Some(need("Application")?),
                    find("ProcessID"),
                    find("SwapChainAddress"),
                ];
                let layout = match format {
                    Format::PresentMon => Layout::PresentMon {
                        start: cpu_start()?,
                        busy: need("MsCPUBusy")?,
                        until: need("MsUntilDisplayed")?,
                    },
                    Format::PresentMonV2 => Layout::V2 {
                        start: cpu_start()?,
                        latency: need("DisplayLatency")?,
                    },
                    _ => Layout::V1 {
                        time: need("TimeInSeconds")?,
                        until: need("msUntilDisplayed")?,
                        dropped: need("Dropped")?,
                    },
                };
                (group, layout)
            }
            Format::MangoHud => (
                [None; 3],
                Layout::MangoHud {
                    elapsed: need("elapsed")?,
                    frametime: need("frametime")?,
                },
            ),
            Format::FrameLog => (
                [Some(need("lane")?), None, None],
                Layout::Ours {
                    start: need("wall_s")?,
                    present: need("present_s").map_err(|e| CaptureError {
                        message: "a --frame-log written before it had present_s: write it again \
                                  with this version"
                            .into(),
                        ..e
                    })?,
                },
            ),
            Format::Trace => (
                [Some(need("lane")?), None, None],
                Layout::Ours {
                    start: need("start_s")?,
                    present: need("present_s")?,
                },
            ),
        };
        Ok(CsvRows {
            path: path.to_owned(),
            frame_type: find("FrameType"),
            reader,
            record,
            names,
            group,
            layout,
            previous_ns: None,
        })
    }

    fn next_row(&mut self) -> Result<Option<Row<'_>>, CaptureError> {
        loop {
            match self.reader.read_byte_record(&mut self.record) {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(e) => {
                    let line = e.position().map(|p| p.line());
                    return Err(CaptureError::at(&self.path, line, None, e.to_string()));
                }
            }
            let blank = self
                .record
                .iter()
                .all(|c| c.iter().all(u8::is_ascii_whitespace));
            if blank {
                continue;
            }
            if self.record.len() != self.names.len() {
                // A crashed logger can leave a last line cut short: that one is left out.
                let line = self.line();
                let mut next = ByteRecord::new();
                if matches!(self.reader.read_byte_record(&mut next), Ok(false)) {
                    return Ok(None);
                }
                return Err(CaptureError::at(
                    &self.path,
                    Some(line),
                    None,
                    format!(
                        "{} fields where the header has {}",
                        self.record.len(),
                        self.names.len()
                    ),
                ));
            }
            break;
        }
        let frame = self.frame()?;
        let application = match self.frame_type {
            Some(i) => {
                let t = self.record.get(i).unwrap_or_default();
                t.eq_ignore_ascii_case(b"Application") || t.is_empty()
            }
            None => true,
        };
        let field = |i: Option<usize>| i.and_then(|i| self.record.get(i)).unwrap_or_default();
        Ok(Some(Row {
            group: [
                field(self.group[0]),
                field(self.group[1]),
                field(self.group[2]),
            ],
            application,
            frame,
        }))
    }

    /// The current record's line, 1-based.
    fn line(&self) -> u64 {
        self.record.position().map_or(0, |p| p.line())
    }

    /// The number in column `i`, or `None` for `NA` (or an empty cell).
    fn number(&self, i: usize) -> Result<Option<f64>, CaptureError> {
        let cell = self.record.get(i).unwrap_or_default();
        let text = std::str::from_utf8(cell).unwrap_or("").trim();
        if text.is_empty() || text.eq_ignore_ascii_case("NA") {
            return Ok(None);
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Some(v)),
            _ => Err(CaptureError::at(
                &self.path,
                Some(self.line()),
                self.names.get(i).cloned(),
                format!("'{}' is not a number", String::from_utf8_lossy(cell)),
            )),
        }
    }

    /// The number in column `i`, which must be there.
    fn required(&self, i: usize) -> Result<f64, CaptureError> {
        self.number(i)?.ok_or_else(|| {
            CaptureError::at(
                &self.path,
                Some(self.line()),
                self.names.get(i).cloned(),
                "no value".into(),
            )
        })
    }

    /// A time, in ns (negative times are errors).
    fn time(&self, i: usize, unit: Unit) -> Result<u64, CaptureError> {
        let ns = unit.ns(self.required(i)?);
        if ns < 0.0 {
            return Err(CaptureError::at(
                &self.path,
                Some(self.line()),
                self.names.get(i).cloned(),
                "a negative time".into(),
            ));
        }
        Ok(ns.round() as u64)
    }

    /// A duration in ms added to `from`, or `None` for `NA`.
    fn plus_ms(&self, from: u64, i: usize) -> Result<Option<u64>, CaptureError> {
        Ok(self
            .number(i)?
            .map(|ms| from.saturating_add_signed(Unit::Ms.ns(ms).round() as i64)))
    }

    fn frame(&mut self) -> Result<Captured, CaptureError> {
        let line = self.line();
        let (start_ns, shown_ns) = match self.layout {
            Layout::PresentMon { start, busy, until } => {
                let c = self.time(start.0, start.1)?;
                match self.plus_ms(c, busy)? {
                    Some(present) => (c, self.plus_ms(present, until)?),
                    None => (c, None),
                }
            }
            Layout::V2 { start, latency } => {
                let c = self.time(start.0, start.1)?;
                (c, self.plus_ms(c, latency)?)
            }
            Layout::V1 {
                time,
                until,
                dropped,
            } => {
                let t = self.time(time, Unit::S)?;
                let dropped = self.number(dropped)?.unwrap_or(0.0) != 0.0;
                let shown = if dropped {
                    None
                } else {
                    self.plus_ms(t, until)?
                };
                (t, shown)
            }
            Layout::MangoHud { elapsed, frametime } => {
                let at = self.time(elapsed, Unit::Ns)?;
                let start = match self.previous_ns {
                    Some(previous) => previous,
                    None => at.saturating_sub(self.time(frametime, Unit::Ms)?),
                };
                self.previous_ns = Some(at);
                (start, Some(at))
            }
            Layout::Ours { start, present } => {
                let s = self.time(start, Unit::S)?;
                let p = match self.number(present)? {
                    Some(v) if v >= 0.0 => Some(Unit::S.ns(v).round() as u64),
                    _ => None,
                };
                (s, p)
            }
        };
        Ok(Captured {
            start_ns,
            shown_ns,
            line,
        })
    }
}
