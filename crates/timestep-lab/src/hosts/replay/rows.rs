//! Reading a capture row by row, streaming, whatever its format: each row's group (the
//! application, process and swap chain, or a lane), whether it is an application frame, when
//! it started and when it reached the screen. Numbers are read straight from the record's
//! bytes, and a bad one is an error naming the file, the line and the column.
//!
//! A capture is a regular file (checked before it is opened: opening a FIFO would block), read
//! from one open. A CSV record may be at most [`MAX_RECORD_BYTES`] long, counted in the file's
//! bytes from the end of the record before (quotes and the newlines inside them included), so a
//! file of one endless line, or one endless quoted field, is refused having held at most that.

use super::capframex::JsonRows;
use super::format::{DISPLAY, DISPLAY_SOURCE, Format, LANE, PRESENT, START, detect};
use super::{CaptureError, Captured, moved_ns, time_ns};
use crate::protocol::frame_csv::DisplaySource;
use crate::util::quote;
use csv::{ByteRecord, Reader, ReaderBuilder};
use std::fs::File;
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};

/// Bytes read to tell the format: enough for MangoHud's info lines and a long header.
const HEAD_BYTES: u64 = 64 * 1024;

/// The longest CSV record read, bytes: 1 MiB, thousands of times a real capture's row.
pub const MAX_RECORD_BYTES: u64 = 1 << 20;

// Every row this program's traces write is read: their step starts take at most half.
const _: () = assert!(
    (crate::protocol::frame_csv::MAX_STEP_STARTS * crate::protocol::frame_csv::STEP_START_BYTES)
        as u64
        <= MAX_RECORD_BYTES / 2
);

/// The CSV reader's own buffer, bytes.
const CSV_BUFFER: usize = 1 << 16;

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
    /// Opens `path` (a regular file) and tells its format from its content.
    pub fn open(path: &Path) -> Result<Rows, CaptureError> {
        let mut file = open_file(path)?;
        let io = |e: io::Error| CaptureError::at(path, None, None, format!("cannot read: {e}"));
        let mut head = Vec::new();
        (&mut file)
            .take(HEAD_BYTES)
            .read_to_end(&mut head)
            .map_err(io)?;
        let (format, header_line) = detect(path, &head)?;
        // The CSV reader starts at the header, the lines before it (which it would count
        // differently: it skips blank ones) passed over.
        let header_byte = match format {
            Format::CapFrameX => 0,
            _ => line_start(&head, header_line),
        };
        file.seek(io::SeekFrom::Start(header_byte)).map_err(io)?;
        let inner = match format {
            Format::CapFrameX => Inner::Json(JsonRows::read(path, file)?),
            _ => Inner::Csv(Box::new(CsvRows::open(path, file, format, header_line)?)),
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
            Inner::Json(rows) => rows.next_row(),
        }
    }
}

/// Where line `line` (0-based, lines ended by `\n`) of `head` starts, bytes.
fn line_start(head: &[u8], line: usize) -> u64 {
    let ends = head.iter().enumerate().filter(|&(_, &b)| b == b'\n');
    line.checked_sub(1)
        .and_then(|n| ends.map(|(i, _)| i as u64 + 1).nth(n))
        .unwrap_or(0)
}

/// Opens `path` if it is a regular file. Its metadata is read first, which never blocks, where
/// opening a FIFO waits for a writer; a pipe or a device could not be read three times anyway.
fn open_file(path: &Path) -> Result<File, CaptureError> {
    let err = |message: String| CaptureError::at(path, None, None, message);
    let meta = std::fs::metadata(path).map_err(|e| err(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(err(
            "is not a regular file: save the capture to a file first".into(),
        ));
    }
    File::open(path).map_err(|e| err(format!("cannot read: {e}")))
}

/// A file read through a limit: at most [`MAX_RECORD_BYTES`] past the start of the record being
/// read, so the CSV reader's record never grows past that (and its own buffer).
struct Limited {
    file: File,
    /// Bytes handed to the CSV reader.
    read: u64,
    /// Where the record being read starts, bytes into the file.
    record_start: u64,
    /// The limit was met.
    exceeded: bool,
}

impl Read for Limited {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let allowed = (self.record_start + MAX_RECORD_BYTES).saturating_sub(self.read);
        if allowed == 0 {
            self.exceeded = true;
            return Err(io::Error::other("record too long"));
        }
        let take = buf
            .len()
            .min(usize::try_from(allowed).unwrap_or(usize::MAX));
        let n = self.file.read(&mut buf[..take])?;
        self.read += n as u64;
        Ok(n)
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
    /// PresentMon's `--v2_metrics` set: start (CPU start) + DisplayLatency.
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
    /// Ours: start and present, s; and, in frame records that have them, the display time
    /// and who gave it (`display_s`, `display_source`).
    Ours {
        start: usize,
        present: usize,
        display: Option<(usize, Option<usize>)>,
    },
}

/// A CSV capture.
struct CsvRows {
    path: PathBuf,
    reader: Reader<Limited>,
    record: ByteRecord,
    /// Column names by index (for errors) and how many there are.
    names: Vec<String>,
    /// The group's columns, if the format has groups.
    group: [Option<usize>; 3],
    frame_type: Option<usize>,
    layout: Layout,
    /// MangoHud: the previous row's present, ns.
    previous_ns: Option<u64>,
    /// Lines of the file before the header (where the reader started).
    lines_before: u64,
}

/// A CSV capture's column header: its names, and where a format's columns are among them.
struct Header<'a> {
    names: Vec<String>,
    path: &'a Path,
    /// The header's line, 1-based.
    line: u64,
    format: Format,
}

impl Header<'_> {
    /// The column named `name`, ASCII case ignored.
    fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n.eq_ignore_ascii_case(name))
    }

    /// The column named `name`, or the error naming the format and the missing column.
    fn need(&self, name: &str) -> Result<usize, CaptureError> {
        let format = self.format;
        self.find(name)
            .ok_or_else(|| self.error(format!("{format} header without a {name} column")))
    }

    fn error(&self, message: String) -> CaptureError {
        CaptureError::at(self.path, Some(self.line), None, message)
    }

    /// PresentMon's CPU start, in whichever column and unit its version writes.
    fn cpu_start(&self) -> Result<(usize, Unit), CaptureError> {
        const CANDIDATES: [(&str, Unit); 5] = [
            ("CPUStartQPC", Unit::Qpc),
            ("CPUStartTime", Unit::Ms),
            ("CPUStartTimeInMs", Unit::Ms),
            ("CPUStartQPCTime", Unit::Ms),
            ("CPUStartQPCTimeInMs", Unit::Ms),
        ];
        CANDIDATES
            .iter()
            .find_map(|&(name, unit)| self.find(name).map(|i| (i, unit)))
            .ok_or_else(|| {
                self.error(
                    "no CPU start column replay can read (CPUStartQPC, CPUStartTime or \
                     CPUStartQPCTime; CPUStartDateTime is not supported)"
                        .into(),
                )
            })
    }

    /// The group's columns and the layout of the format's times.
    fn columns(&self) -> Result<([Option<usize>; 3], Layout), CaptureError> {
        Ok(match self.format {
            Format::CapFrameX => {
                return Err(CaptureError::at(
                    self.path,
                    None,
                    None,
                    "not a CSV capture".into(),
                ));
            }
            Format::PresentMon | Format::PresentMonV2 | Format::PresentMonV1 => (
                [
                    Some(self.need("Application")?),
                    self.find("ProcessID"),
                    self.find("SwapChainAddress"),
                ],
                self.presentmon_layout()?,
            ),
            Format::MangoHud => (
                [None; 3],
                Layout::MangoHud {
                    elapsed: self.need("elapsed")?,
                    frametime: self.need("frametime")?,
                },
            ),
            Format::OldFrameLog => (
                [Some(self.need(LANE)?), None, None],
                Layout::Ours {
                    display: None,
                    start: self.need("wall_s")?,
                    present: self.need(PRESENT).map_err(|e| CaptureError {
                        message: "a --frame-log written before it had present_s: write it again \
                                  with this version"
                            .into(),
                        ..e
                    })?,
                },
            ),
            Format::FrameRecords => (
                [Some(self.need(LANE)?), None, None],
                Layout::Ours {
                    start: self.need(START)?,
                    present: self.need(PRESENT)?,
                    display: self.find(DISPLAY).map(|d| (d, self.find(DISPLAY_SOURCE))),
                },
            ),
        })
    }

    /// The columns of one of PresentMon's three layouts.
    fn presentmon_layout(&self) -> Result<Layout, CaptureError> {
        Ok(match self.format {
            Format::PresentMon => Layout::PresentMon {
                start: self.cpu_start()?,
                busy: self.need("MsCPUBusy")?,
                until: self.need("MsUntilDisplayed")?,
            },
            Format::PresentMonV2 => Layout::V2 {
                start: self.cpu_start()?,
                latency: self.need("DisplayLatency")?,
            },
            _ => Layout::V1 {
                time: self.need("TimeInSeconds")?,
                until: self.need("msUntilDisplayed")?,
                dropped: self.need("Dropped")?,
            },
        })
    }
}

impl CsvRows {
    /// Reads `file` (at `path`, read from the start of its column header) as `format`, the
    /// header on line `header_line` (0-based, as [`detect`] counts lines, blank ones included).
    fn open(
        path: &Path,
        file: File,
        format: Format,
        header_line: usize,
    ) -> Result<CsvRows, CaptureError> {
        let reader = ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(CSV_BUFFER)
            .from_reader(Limited {
                file,
                read: 0,
                record_start: 0,
                exceeded: false,
            });
        let mut rows = CsvRows {
            path: path.to_owned(),
            reader,
            record: ByteRecord::new(),
            names: Vec::new(),
            group: [None; 3],
            frame_type: None,
            layout: Layout::Ours {
                start: 0,
                present: 0,
                display: None,
            },
            previous_ns: None,
            lines_before: header_line as u64,
        };
        if !rows.read_record()? {
            return Err(CaptureError::at(path, None, None, "no header".into()));
        }
        rows.read_header(format, header_line)?;
        Ok(rows)
    }

    /// Reads the column header in `self.record`: the names, and where `format`'s columns are.
    fn read_header(&mut self, format: Format, header_line: usize) -> Result<(), CaptureError> {
        let header = Header {
            names: self
                .record
                .iter()
                .map(|c| {
                    let name = String::from_utf8_lossy(c);
                    name.trim().trim_start_matches('\u{feff}').to_string()
                })
                .collect(),
            path: &self.path,
            line: header_line as u64 + 1,
            format,
        };
        let (group, layout) = header.columns()?;
        self.frame_type = header.find("FrameType");
        self.group = group;
        self.layout = layout;
        self.names = header.names;
        Ok(())
    }

    /// Reads the next record into `self.record`; `false` at the end.
    fn read_record(&mut self) -> Result<bool, CaptureError> {
        let starts = self.reader.position().clone();
        self.reader.get_mut().record_start = starts.byte();
        match self.reader.read_byte_record(&mut self.record) {
            Ok(more) => Ok(more),
            Err(_) if self.reader.get_ref().exceeded => Err(CaptureError::at(
                &self.path,
                Some(starts.line() + self.lines_before),
                None,
                format!(
                    "a row longer than {MAX_RECORD_BYTES} bytes (1 MiB), the most replay \
                     reads of one row (no format it reads, this program's traces included, \
                     writes one that long)"
                ),
            )),
            Err(e) => {
                let line = e.position().map(|p| p.line() + self.lines_before);
                Err(CaptureError::at(&self.path, line, None, e.to_string()))
            }
        }
    }

    fn next_row(&mut self) -> Result<Option<Row<'_>>, CaptureError> {
        loop {
            if !self.read_record()? {
                return Ok(None);
            }
            let blank = self
                .record
                .iter()
                .all(|c| c.iter().all(u8::is_ascii_whitespace));
            if blank {
                continue;
            }
            if self.record.len() != self.names.len() {
                // A crashed logger can leave a last line cut short: that one is left out. Only
                // a line, and only short: a record spanning lines is a quote never closed,
                // which would otherwise swallow the rest of the file unseen.
                let line = self.line();
                let fields = self.record.len();
                let one_line = self.record.iter().all(|c| !c.contains(&b'\n'));
                let cut_short = one_line && fields < self.names.len();
                if cut_short && matches!(self.read_record(), Ok(false)) {
                    return Ok(None);
                }
                let message = if one_line {
                    format!("{fields} fields where the header has {}", self.names.len())
                } else {
                    "a quoted field runs over several lines (a '\"' never closed?)".into()
                };
                return Err(CaptureError::at(&self.path, Some(line), None, message));
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
        self.record
            .position()
            .map_or(0, |p| p.line() + self.lines_before)
    }

    /// An error at the current line, in column `i`.
    fn error(&self, i: usize, message: String) -> CaptureError {
        CaptureError::at(
            &self.path,
            Some(self.line()),
            self.names.get(i).cloned(),
            message,
        )
    }

    /// The number in column `i`, or `None` for `NA` (or an empty cell).
    fn number(&self, i: usize) -> Result<Option<f64>, CaptureError> {
        let cell = self.record.get(i).unwrap_or_default();
        let not_a_number = || {
            self.error(
                i,
                format!(
                    "'{}' is not a number",
                    quote::quoted(&String::from_utf8_lossy(cell))
                ),
            )
        };
        let text = std::str::from_utf8(cell)
            .map_err(|_| not_a_number())?
            .trim();
        if text.is_empty() || text.eq_ignore_ascii_case("NA") {
            return Ok(None);
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Some(v)),
            _ => Err(not_a_number()),
        }
    }

    /// The number in column `i`, which must be there.
    fn required(&self, i: usize) -> Result<f64, CaptureError> {
        self.number(i)?
            .ok_or_else(|| self.error(i, "no value".into()))
    }

    /// A time, in ns: negative times, and times past [`super::MAX_TIME_NS`], are errors.
    fn time(&self, i: usize, unit: Unit) -> Result<u64, CaptureError> {
        let v = self.required(i)?;
        time_ns(unit.ns(v)).map_err(|e| {
            let v = quote::quoted_number(v);
            self.error(i, format!("'{v}': {e}"))
        })
    }

    /// A duration in ms (column `i`) added to `from`, or `None` for `NA`; an error if that is
    /// before `start` (the frame's) or past [`super::MAX_TIME_NS`].
    fn plus_ms(&self, start: u64, from: u64, i: usize) -> Result<Option<u64>, CaptureError> {
        let Some(ms) = self.number(i)? else {
            return Ok(None);
        };
        moved_ns(from, Unit::Ms.ns(ms), start)
            .map(Some)
            .map_err(|e| self.error(i, e.to_string()))
    }

    fn frame(&mut self) -> Result<Captured, CaptureError> {
        let line = self.line();
        let (start_ns, shown_ns) = match self.layout {
            Layout::PresentMon { start, busy, until } => {
                let c = self.time(start.0, start.1)?;
                match self.plus_ms(c, c, busy)? {
                    Some(present) => (c, self.plus_ms(c, present, until)?),
                    None => (c, None),
                }
            }
            Layout::V2 { start, latency } => {
                let c = self.time(start.0, start.1)?;
                (c, self.plus_ms(c, c, latency)?)
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
                    self.plus_ms(t, t, until)?
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
            Layout::Ours {
                start,
                present,
                display,
            } => self.ours(start, present, display)?,
        };
        Ok(Captured {
            start_ns,
            shown_ns,
            line,
        })
    }

    /// Our own logs' frame start and time on screen (`None`: never displayed), refused where
    /// the frame is on screen before it starts. The time on screen is `display_s` where the
    /// row has one (the display system's own account); an empty `display_s` with a
    /// `display_source` other than `none` is a frame the display discarded; otherwise (no
    /// such column, or nobody said) `present_s`, empty or NA when never shown.
    fn ours(
        &mut self,
        start: usize,
        present: usize,
        display: Option<(usize, Option<usize>)>,
    ) -> Result<(u64, Option<u64>), CaptureError> {
        let s = self.time(start, Unit::S)?;
        let p = match self.number(present)? {
            Some(_) => Some(self.time(present, Unit::S)?),
            None => None,
        };
        let (column, shown) = match display {
            Some((d, source)) => match self.number(d)? {
                Some(_) => (d, Some(self.time(d, Unit::S)?)),
                None if self.display_said(source)? => (d, None),
                None => (present, p),
            },
            None => (present, p),
        };
        if let Some(shown) = shown.filter(|&shown| shown < s) {
            let at = |ns: u64| ns as f64 / 1e9;
            let message = format!(
                "'{}' puts it on screen before the frame's start ({} s)",
                at(shown),
                at(s)
            );
            return Err(self.error(column, message));
        }
        Ok((s, shown))
    }

    /// Whether a display system said what became of the frame (its `display_source` names
    /// one: with no `display_s`, it was discarded); an error for a name that is none.
    fn display_said(&self, source: Option<usize>) -> Result<bool, CaptureError> {
        let Some(i) = source else {
            return Ok(false);
        };
        let cell = self.record.get(i).unwrap_or_default();
        let name = String::from_utf8_lossy(cell);
        let name = name.trim();
        if name.is_empty() {
            return Ok(false);
        }
        match DisplaySource::from_name(name) {
            Some(source) => Ok(source != DisplaySource::None),
            None => {
                let names: Vec<&str> = DisplaySource::ALL.iter().map(|s| s.name()).collect();
                Err(self.error(
                    i,
                    format!(
                        "'{}' is not a display source ({})",
                        quote::quoted(name),
                        names.join(", ")
                    ),
                ))
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const HEADER: &str =
        "Application,ProcessID,SwapChainAddress,CPUStartQPC,MsCPUBusy,MsUntilDisplayed\n";

    /// `bytes` written to a file of its own, named `name`.
    pub(crate) fn file(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("timestep-rope-rows-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{e}"));
        path
    }

    /// Every frame of `path`, or the first error.
    pub(crate) fn frames(path: &Path) -> Result<Vec<Captured>, CaptureError> {
        let mut rows = Rows::open(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next_row()? {
            out.push(row.frame);
        }
        Ok(out)
    }

    /// The error reading `name` (a PresentMon capture of `rows` under [`HEADER`]).
    fn error(name: &str, rows: &[u8]) -> String {
        let path = file(name, &[HEADER.as_bytes(), rows].concat());
        match frames(&path) {
            Ok(f) => panic!("{name} read as {f:?}"),
            Err(e) => e.to_string(),
        }
    }

    /// The error reading `path`, which must fail.
    fn failed(path: &Path) -> String {
        match frames(path) {
            Ok(f) => panic!("{} read as {f:?}", path.display()),
            Err(e) => e.to_string(),
        }
    }

    fn says(text: &str, words: &[&str]) {
        for w in words {
            assert!(text.contains(w), "'{text}' should say '{w}'");
        }
    }

    #[test]
    fn a_record_past_the_limit_is_refused_having_read_no_more_of_it() {
        let long = vec![b'g'; 2 << 20];
        let mut quoted = b"game.exe,7,0x1,100,1.0,2.0\n\"".to_vec();
        quoted.extend(std::iter::repeat_n(b'\n', 2 << 20));
        for (name, rows, line) in [
            ("long.csv", long, "line 2"),
            ("quoted.csv", quoted, "line 3"),
        ] {
            let path = file(name, &[HEADER.as_bytes(), &rows].concat());
            let mut rows = Rows::open(&path).unwrap_or_else(|e| panic!("{e}"));
            let err = loop {
                match rows.next_row() {
                    Ok(Some(_)) => {}
                    Ok(None) => panic!("{name} read to its end"),
                    Err(e) => break e.to_string(),
                }
            };
            says(&err, &[name, line, "longer than 1048576 bytes"]);
            let Inner::Csv(csv) = &rows.inner else {
                panic!("not CSV")
            };
            let limited = csv.reader.get_ref();
            assert!(
                limited.read <= limited.record_start + MAX_RECORD_BYTES,
                "{name}: {} bytes read for a record from byte {}",
                limited.read,
                limited.record_start
            );
        }
    }

    #[test]
    fn a_byte_that_is_not_utf8_in_a_number_is_refused_where_it_is() {
        let err = error(
            "utf8.csv",
            b"game.exe,7,0x1,100,1.0,2.0\ngame.exe,7,0x1,2\xff00,1.0,2.0\n",
        );
        says(&err, &["line 3", "column CPUStartQPC", "is not a number"]);
    }

    #[test]
    fn a_time_past_the_limit_is_refused_not_saturated() {
        // 10,000 years in 10 MHz ticks, then 20,000.
        let rows = b"game.exe,7,0x1,3155760000000000000,1.0,2.0\ngame.exe,7,0x1,6311520000000000000,1.0,2.0\n";
        let err = error("far.csv", rows);
        says(
            &err,
            &["line 2", "column CPUStartQPC", "2^62 ns, about 146 years"],
        );
        let err = error("far-latency.csv", b"game.exe,7,0x1,100,1.0,1e300\n");
        says(&err, &["line 2", "column MsUntilDisplayed", "2^62 ns"]);
    }

    #[test]
    fn a_quote_never_closed_is_refused_not_read_as_a_last_line_cut_short() {
        // A stray '"' swallowed the rest of the file as one field, which was then left out as
        // a crashed logger's last line: a 20-frame trace read as 2 frames, exit 0.
        let mut text = String::from("lane,start_s,present_s\nx,0,0.01\n\"x,0.01,0.02\n");
        for i in 2..20 {
            text += &format!("x,{},{}\n", f64::from(i) / 100.0, f64::from(i + 1) / 100.0);
        }
        let path = file("stray-quote.csv", text.as_bytes());
        says(&failed(&path), &["line 3", "never closed"]);
        // A last line with more fields than the header is no crash's cut: refused too.
        let path = file(
            "long-last.csv",
            b"lane,start_s,present_s\nx,0,0.01\nx,0.01,0,02\n",
        );
        says(&failed(&path), &["line 3", "4 fields"]);
        // A last line cut short is still left out.
        let path = file("cut.csv", b"lane,start_s,present_s\nx,0,0.01\nx,0.01");
        assert_eq!(frames(&path).map(|f| f.len()).ok(), Some(1));
    }

    #[test]
    fn our_own_log_with_a_frame_on_screen_before_its_start_is_refused() {
        let path = file("early-own.csv", b"lane,start_s,present_s\nx,1.016,0.5\n");
        says(
            &failed(&path),
            &["line 2", "column present_s", "before the frame's start"],
        );
    }

    #[test]
    fn a_negative_latency_that_puts_a_frame_on_screen_before_its_start_is_refused() {
        let err = error("early.csv", b"game.exe,7,0x1,100000,1.0,-5.0\n");
        says(
            &err,
            &[
                "line 2",
                "column MsUntilDisplayed",
                "before the frame's start",
            ],
        );
        let err = error("early-busy.csv", b"game.exe,7,0x1,100000,-1.0,2.0\n");
        says(
            &err,
            &["line 2", "column MsCPUBusy", "before the frame's start"],
        );
        // Less than the CPU's busy time is still after the start.
        let path = file(
            "ok.csv",
            format!("{HEADER}game.exe,7,0x1,100000,3.0,-1.0\n").as_bytes(),
        );
        let f = frames(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(f[0].shown_ns, Some(10_000_000 + 2_000_000));
    }

    #[test]
    fn a_negative_present_in_our_own_logs_is_refused_and_empty_is_never_displayed() {
        let header = "lane,frame,present_s,frame_ms,steps,alpha,shown_s,start_s,step_starts_s\n";
        let path = file(
            "trace.csv",
            format!("{header}fixed,0,1.0,16,1,0,1.0,0.9,\nfixed,1,,16,1,0,1.0,1.0,\n").as_bytes(),
        );
        let f = frames(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((f[0].shown_ns, f[1].shown_ns), (Some(1_000_000_000), None));
        let path = file(
            "negative.csv",
            format!("{header}fixed,0,-1.0,16,1,0,1.0,0.9,\n").as_bytes(),
        );
        let err = frames(&path).map_or_else(|e| e.to_string(), |f| panic!("read {f:?}"));
        says(
            &err,
            &["negative.csv", "line 2", "column present_s", "not a time"],
        );
    }

    /// Every (lane, start, shown) of `path`.
    fn lanes_and_frames(path: &Path) -> Vec<(String, u64, Option<u64>)> {
        let mut rows = Rows::open(path).unwrap_or_else(|e| panic!("{e}"));
        let mut out = Vec::new();
        while let Some(row) = rows.next_row().unwrap_or_else(|e| panic!("{e}")) {
            let lane = String::from_utf8_lossy(row.group[0]).into_owned();
            out.push((lane, row.frame.start_ns, row.frame.shown_ns));
        }
        out
    }

    #[test]
    fn files_in_both_older_layouts_replay_as_the_frame_records_they_hold() {
        let frames = vec![
            ("fixed".to_string(), 1_000_000_000, Some(1_016_000_000)),
            ("bevy".to_string(), 1_000_000_000, Some(1_016_000_000)),
            ("fixed".to_string(), 1_016_500_000, None),
        ];
        // simulate --trace before the frame records (its columns, as it wrote them).
        let old_trace = "lane,frame,present_s,frame_ms,steps,alpha,shown_s,start_s,step_starts_s\n\
            fixed,0,1.016000000,16.000000,16,0.000000,0.016000000,1.000000000,1.000000000 1.000001000\n\
            bevy,0,1.016000000,16.000000,16,0.000000,0.016000000,1.000000000,\n\
            fixed,1,NA,16.500000,16,0.000000,0.032000000,1.016500000,\n";
        // The window's --frame-log before the frame records.
        let old_log = "wall_s,frame_ms,lane,steps,alpha,drift_ms,exploded,pacing,input_ms,\
            step_starts_ms,present_s\n\
            1.000000000,16.000,fixed,16,0.0000,0.000,0,vsync,,1000.000 1000.001,1.016000000\n\
            1.000000000,16.000,bevy,16,0.0000,0.000,0,vsync,12.000,,1.016000000\n\
            1.016500000,16.500,fixed,16,0.0000,0.000,0,vsync,,,\n";
        for (name, text, format) in [
            ("old-trace.csv", old_trace, Format::FrameRecords),
            ("old-log.csv", old_log, Format::OldFrameLog),
        ] {
            let path = file(name, text.as_bytes());
            assert_eq!(Rows::open(&path).map(|r| r.format()).ok(), Some(format));
            assert_eq!(lanes_and_frames(&path), frames, "{name}");
        }
    }

    #[test]
    fn frame_records_written_by_frame_csv_replay_to_their_starts_and_presents() {
        let mut csv =
            crate::protocol::frame_csv::FrameCsv::new(Vec::new()).unwrap_or_else(|e| panic!("{e}"));
        let record = |spec: &str, start_ns, present_ns| crate::protocol::frame_csv::FrameRecord {
            present_ns,
            frame_ns: 16_000_000,
            steps: 16,
            shown_ns: 16_000_000,
            step_starts_ns: vec![start_ns],
            ..crate::protocol::frame_csv::FrameRecord::started(
                crate::model::lane::parse_spec(spec).unwrap_or_else(|e| panic!("{e}")),
                0,
                start_ns,
            )
        };
        let records = [
            record("fixed", 1_000_000_000, Some(1_016_000_000)),
            record("bevy", 1_000_000_000, Some(1_016_000_000)),
            record("fixed", 1_016_500_000, None),
        ];
        for r in &records {
            csv.row(r).unwrap_or_else(|e| panic!("{e}"));
        }
        let bytes = csv.finish().unwrap_or_else(|e| panic!("{e}"));
        let path = file("records.csv", &bytes);
        let expected: Vec<(String, u64, Option<u64>)> = records
            .iter()
            .map(|r| (r.spec.to_string(), r.start_ns, r.present_ns))
            .collect();
        assert_eq!(lanes_and_frames(&path), expected);
    }

    #[test]
    fn a_frame_log_with_display_times_replays_to_them_and_one_without_to_its_presents() {
        use crate::protocol::frame_csv::{DisplaySource, FrameCsv, FrameRecord};
        let record = |start_ns: u64, display: Option<u64>, source| FrameRecord {
            present_ns: Some(start_ns + 10_000_000),
            display_ns: display,
            display_source: source,
            frame_ns: 16_000_000,
            steps: 16,
            shown_ns: 16_000_000,
            ..FrameRecord::started(
                crate::model::lane::parse_spec("fixed").unwrap_or_else(|e| panic!("{e}")),
                0,
                start_ns,
            )
        };
        let records = [
            record(1_000_000_000, Some(1_036_000_000), DisplaySource::Wayland),
            // Discarded: the compositor said so.
            record(1_017_000_000, None, DisplaySource::Wayland),
            // Nobody said: the present stands in.
            record(1_034_000_000, None, DisplaySource::None),
            record(
                1_051_000_000,
                Some(1_070_000_000),
                DisplaySource::VblankClock,
            ),
        ];
        let mut csv = FrameCsv::new(Vec::new()).unwrap_or_else(|e| panic!("{e}"));
        for r in &records {
            csv.row(r).unwrap_or_else(|e| panic!("{e}"));
        }
        let bytes = csv.finish().unwrap_or_else(|e| panic!("{e}"));
        let path = file("display.csv", &bytes);
        assert_eq!(
            Rows::open(&path).map(|r| r.format()).ok(),
            Some(Format::FrameRecords)
        );
        let shown: Vec<(u64, Option<u64>)> = lanes_and_frames(&path)
            .into_iter()
            .map(|(_, start, shown)| (start, shown))
            .collect();
        assert_eq!(
            shown,
            [
                (1_000_000_000, Some(1_036_000_000)),
                (1_017_000_000, None),
                (1_034_000_000, Some(1_044_000_000)),
                (1_051_000_000, Some(1_070_000_000)),
            ]
        );
        // The frame records as written before display_s: their presents, as before.
        let old = "lane,frame,start_s,present_s,frame_ms,steps,alpha,shown_s,drift_ms,exploded,\
            pacing,input_ms,step_starts_s\n\
            fixed,0,1.000000000,1.016000000,16.000000,16,0.000000,0.016000000,0.000000,0,vsync,,\n\
            fixed,1,1.016500000,,16.500000,16,0.000000,0.032000000,0.000000,0,vsync,,\n";
        let path = file("before-display.csv", old.as_bytes());
        let shown: Vec<Option<u64>> = lanes_and_frames(&path)
            .into_iter()
            .map(|(_, _, shown)| shown)
            .collect();
        assert_eq!(shown, [Some(1_016_000_000), None]);
        // A display time before the frame's start, or a source that is none, is refused.
        let header = "lane,start_s,present_s,display_s,display_source\n";
        let path = file(
            "early-display.csv",
            format!("{header}x,1.0,1.01,0.9,wayland\n").as_bytes(),
        );
        says(
            &failed(&path),
            &["line 2", "column display_s", "before the frame's start"],
        );
        let path = file(
            "bad-source.csv",
            format!("{header}x,1.0,1.01,,x11\n").as_bytes(),
        );
        says(
            &failed(&path),
            &[
                "line 2",
                "column display_source",
                "'x11' is not a display source",
            ],
        );
    }

    #[test]
    fn a_trace_of_frames_that_ran_65536_ticks_each_is_read_back() {
        use crate::protocol::frame_csv::{FrameCsv, FrameRecord, MAX_STEP_STARTS};
        // 10,000 s into a run, each step start is 16 bytes written: 65,536 of them were a
        // row of 1 MiB, past what replay reads.
        let start_ns = 10_000_000_000_000;
        let record = |frame: u64| FrameRecord {
            present_ns: Some(start_ns + (frame + 1) * 65_536_000),
            frame_ns: 65_536_000,
            steps: 65_536,
            shown_ns: start_ns,
            step_starts_ns: (0..65_536).map(|k| start_ns + k * 1000).collect(),
            ..FrameRecord::started(
                crate::model::lane::parse_spec("fixed").unwrap_or_else(|e| panic!("{e}")),
                frame,
                start_ns + frame * 65_536_000,
            )
        };
        let mut csv = FrameCsv::new(Vec::new()).unwrap_or_else(|e| panic!("{e}"));
        for frame in 0..3 {
            csv.row(&record(frame)).unwrap_or_else(|e| panic!("{e}"));
        }
        let bytes = csv.finish().unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8_lossy(&bytes);
        let row = text.lines().nth(1).unwrap_or_default();
        assert!(
            row.len() as u64 <= MAX_RECORD_BYTES / 2,
            "{} bytes",
            row.len()
        );
        let starts = row.rsplit(',').next().unwrap_or_default();
        assert_eq!(starts.split(' ').count(), MAX_STEP_STARTS);
        let path = file("ticks.csv", &bytes);
        let read = frames(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.len(), 3);
    }

    #[test]
    fn blank_lines_before_the_header_are_passed_over() {
        for (name, before) in [("lf.csv", "\n"), ("crlf.csv", "\r\n\n  \n")] {
            let rows = "game.exe,7,0x1,100000,1.0,2.0\n\ngame.exe,7,0x1,300000,1.0,2.0\n";
            let path = file(name, format!("{before}{HEADER}{rows}").as_bytes());
            let f = frames(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(f.len(), 2, "{name}");
            assert_eq!(f[0].start_ns, 10_000_000);
        }
        let path = file(
            "bad-after-blank.csv",
            format!("\n{HEADER}game.exe,7,0x1,x,1,2\n").as_bytes(),
        );
        let err = frames(&path).map_or_else(|e| e.to_string(), |f| panic!("read {f:?}"));
        says(&err, &["line 3", "column CPUStartQPC"]);
    }

    #[test]
    fn a_capture_that_is_not_a_regular_file_is_refused_before_it_is_opened() {
        let dir = std::env::temp_dir();
        let err = Rows::open(&dir).map_or_else(|e| e.to_string(), |_| panic!("opened"));
        says(
            &err,
            &["is not a regular file: save the capture to a file first"],
        );
    }
}
