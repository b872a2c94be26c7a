//! What the window writes to disk: the per-frame CSV log, the exit screenshot and the report.
//!
//! Each file is created (see [`PendingFile`]) before the window exists, so a path that cannot
//! be written is a one-line error naming its flag (exit 2) instead of a window that fails at
//! the end. At exit they replace their targets together ([`Outputs::finish`]); a run that
//! failed leaves every target as it was.

use super::display::FrameDisplay;
use crate::messages::chain;
use crate::pending::{CommitFailed, PendingFile};
use std::collections::VecDeque;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use timestep_lab::protocol::frame_csv::{DisplaySource, FrameCsv, FrameRecord};
use timestep_loop::{millis, seconds};

/// A file the window writes could not be created, written or put in place: the flag and the
/// file it names, and why.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The file cannot be created at start (exit 2: nothing has run).
    #[error("{flag} {}: cannot write: {source}", path.display())]
    Open {
        /// The flag that named the file.
        flag: &'static str,
        /// The file.
        path: PathBuf,
        /// Why it cannot be created.
        source: std::io::Error,
    },
    /// The frame log cannot be created or written.
    #[error(transparent)]
    FrameLog(#[from] FrameLogError),
    /// Writing a file's content failed (`what` names the flag and the file).
    #[error("{}", chain(what, source.as_ref()))]
    Write {
        /// "writing --report FILE", and the like.
        what: String,
        /// Why.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The window closed before it ever showed a frame, so there is nothing to capture.
    #[error("no frame was shown, so no --screenshot")]
    NoFrame,
    /// The frame cannot be a PNG: its size, and what is wrong with it.
    #[error("{0}")]
    Encode(String),
    /// A finished file could not replace its target.
    #[error(transparent)]
    Commit(#[from] CommitFailed),
}

impl OutputError {
    fn open(flag: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> OutputError {
        move |source| OutputError::Open {
            flag,
            path: path.to_owned(),
            source,
        }
    }

    fn write(what: &str) -> impl Fn(std::io::Error) -> OutputError {
        move |e| OutputError::Write {
            what: what.to_owned(),
            source: Box::new(e),
        }
    }
}

/// `--frame-log` could not be created or written: the file, and why.
#[derive(Debug, thiserror::Error)]
pub enum FrameLogError {
    #[error("--frame-log {}: cannot write: {source}", path.display())]
    Create {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("writing --frame-log {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// `--frame-log`: the window's frame records, one row per frame per lane shown, in the layout
/// `simulate --trace` writes ([`timestep_lab::protocol::frame_csv`]). Buffered, and flushed every
/// [`FrameLog::FLUSH_EVERY_S`] of the window's clock (so the file being written,
/// `.NAME.tmp-PID` beside the target, can be followed while the window runs) and at exit.
///
/// A frame's display time (`display_s`, `display_source`) comes a few frames after its present,
/// so a presented frame's rows are held ([`FrameLog::frame`]) until the display says what
/// became of it, or [`HOLD_FRAMES`] frames later, whichever is first; then they are written
/// (`display_source` `none` if it never said), in frame order. Rows of a frame that was not
/// presented, or while there is no feedback, are not held.
#[derive(Debug)]
pub struct FrameLog {
    path: PathBuf,
    out: FrameCsv<PendingFile>,
    /// The window's clock at the row that last flushed, ns.
    flushed_at_ns: u64,
    /// Frames whose rows wait for their display time, oldest first.
    held: VecDeque<Held>,
}

/// The most frames a frame log holds rows for, waiting for their display times: feedback
/// comes two or three frames after the present (Wayland under Weston, X11's vblank clock).
pub const HOLD_FRAMES: usize = 8;

/// One frame's rows, held.
#[derive(Debug)]
struct Held {
    number: u64,
    rows: Vec<FrameRecord>,
    /// The display has said what became of it (or nothing will).
    settled: bool,
}

impl FrameLog {
    /// Creates the file and writes the header.
    pub fn create(path: &Path) -> Result<FrameLog, FrameLogError> {
        let create = |source| FrameLogError::Create {
            path: path.to_owned(),
            source,
        };
        let file = PendingFile::create(path).map_err(create)?;
        let out = FrameCsv::new(file).map_err(|e| create(e.into()))?;
        Ok(FrameLog {
            path: path.to_owned(),
            out,
            flushed_at_ns: 0,
            held: VecDeque::new(),
        })
    }

    /// How often the log reaches the file while running, in wall seconds (a few small
    /// writes a second, whatever the frame rate).
    pub const FLUSH_EVERY_S: f64 = 0.25;

    /// One frame of one lane.
    pub fn row(&mut self, row: &FrameRecord) -> Result<(), FrameLogError> {
        self.out.row(row).map_err(|e| self.write_error(e.into()))?;
        if seconds(row.start_ns.saturating_sub(self.flushed_at_ns)) >= Self::FLUSH_EVERY_S {
            self.flushed_at_ns = row.start_ns;
            self.out.flush().map_err(|e| self.write_error(e))?;
        }
        Ok(())
    }

    /// The host's frame `number`: its `rows` (one per lane shown), held until `displayed`
    /// (what the display said of frames since the last call) names it, or [`HOLD_FRAMES`]
    /// frames on; then written with their display time. With no feedback (`source` `none`),
    /// or for a frame not presented, written at once.
    pub fn frame(
        &mut self,
        number: u64,
        rows: &[FrameRecord],
        displayed: &[FrameDisplay],
        source: DisplaySource,
    ) -> Result<(), FrameLogError> {
        let presented = rows.iter().any(|r| r.present_ns.is_some());
        self.held.push_back(Held {
            number,
            rows: rows.to_vec(),
            settled: !presented || source == DisplaySource::None,
        });
        for d in displayed {
            let Some(held) = self.held.iter_mut().find(|h| h.number == d.frame) else {
                continue;
            };
            for row in held.rows.iter_mut().filter(|r| r.present_ns.is_some()) {
                row.display_ns = d.at_ns;
                row.display_source = d.source;
            }
            held.settled = true;
        }
        while self
            .held
            .front()
            .is_some_and(|h| h.settled || self.held.len() > HOLD_FRAMES)
        {
            if let Some(held) = self.held.pop_front() {
                held.rows.iter().try_for_each(|row| self.row(row))?;
            }
        }
        Ok(())
    }

    /// The file, every row in it (those held too), to be committed.
    pub fn finish(mut self) -> Result<PendingFile, FrameLogError> {
        while let Some(held) = self.held.pop_front() {
            held.rows.iter().try_for_each(|row| self.row(row))?;
        }
        let path = self.path;
        self.out
            .finish()
            .map_err(|source| FrameLogError::Write { path, source })
    }

    fn write_error(&self, source: std::io::Error) -> FrameLogError {
        FrameLogError::Write {
            path: self.path.clone(),
            source,
        }
    }
}

/// `--screenshot`: created at start to prove it is writable, written at exit.
#[derive(Debug)]
pub struct Screenshot(PendingFile);

impl Screenshot {
    pub fn open(path: &Path) -> Result<Screenshot, OutputError> {
        PendingFile::create(path)
            .map(Screenshot)
            .map_err(OutputError::open("--screenshot", path))
    }

    /// Writes an RGBA8 frame as PNG (alpha forced opaque: the window shows it opaque); the
    /// file, to be committed.
    pub fn write(
        mut self,
        rgba: &[u8],
        width: u32,
        height: u32,
    ) -> Result<PendingFile, OutputError> {
        let png = encode_png(rgba, width, height)?;
        let what = format!("writing --screenshot {}", self.0.path().display());
        self.0.write_all(&png).map_err(OutputError::write(&what))?;
        Ok(self.0)
    }
}

/// `--report`: created at start to prove it is writable; at exit it gets every lane's report,
/// the same JSON object per lane as `simulate --json` gives.
#[derive(Debug)]
pub struct ReportFile(PendingFile);

impl ReportFile {
    pub fn create(path: &Path) -> Result<ReportFile, OutputError> {
        PendingFile::create(path)
            .map(ReportFile)
            .map_err(OutputError::open("--report", path))
    }

    /// Writes `{"lanes": [...], "window": {...}}` (`window.display`: what the display said of
    /// the frames); the file, to be committed.
    pub fn write(
        self,
        lanes: &[timestep_lab::model::lane::LaneReport],
        cost: &FrameCost,
        display: serde_json::Value,
    ) -> Result<PendingFile, OutputError> {
        let what = format!("writing --report {}", self.0.path().display());
        let mut out = BufWriter::new(self.0);
        let mut window = cost.summary();
        if let Some(w) = window.as_object_mut() {
            w.insert("display".into(), display);
        }
        let json = serde_json::json!({ "lanes": lanes, "window": window });
        serde_json::to_writer_pretty(&mut out, &json).map_err(|e| OutputError::Write {
            what: what.clone(),
            source: Box::new(e),
        })?;
        writeln!(out).map_err(OutputError::write(&what))?;
        out.into_inner()
            .map_err(|e| OutputError::write(&what)(e.into_error()))
    }
}

/// What the window's own work costs a presented frame, CPU time measured with `Instant`:
/// drawing the buffer, egui's pass (the panel and the HUD's text: input, layout,
/// tessellation), and rendering (upload, our passes, egui's meshes, present); and how much
/// of the window egui painted again (counted, not timed).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameCost {
    pub frames: u64,
    pub draw_ns: u64,
    pub ui_ns: u64,
    pub render_ns: u64,
    /// Frames in which egui's triangles were rasterised.
    pub ui_paints: u64,
    /// The physical pixels those paints covered, added up.
    pub ui_painted_px: u64,
    /// The window's physical pixels, added up over the frames.
    pub window_px: u64,
    /// The longest the event loop went between two turns once a frame was shown, ns: no key,
    /// close button, resize or `--exit-after` waited longer (a frame's work, and any wait
    /// within it, count; a wait served in slices does not).
    pub longest_unserved_ns: u64,
}

impl FrameCost {
    /// The report's `window` object: the means per frame, ms, the UI's share of the rest, how
    /// many frames egui painted, and the share of the window's pixels it painted.
    pub fn summary(&self) -> serde_json::Value {
        let mean = |ns: u64| (self.frames > 0).then(|| ns as f64 / self.frames as f64 / 1e6);
        let rest = self.draw_ns + self.render_ns;
        serde_json::json!({
            "frames": self.frames,
            "draw_ms_mean": mean(self.draw_ns),
            "ui_ms_mean": mean(self.ui_ns),
            "render_ms_mean": mean(self.render_ns),
            "ui_to_draw_and_render": (rest > 0).then(|| self.ui_ns as f64 / rest as f64),
            "ui_paints": self.ui_paints,
            "ui_painted_share": (self.window_px > 0)
                .then(|| self.ui_painted_px as f64 / self.window_px as f64),
            "longest_unserved_ms": (self.frames > 0).then(|| millis(self.longest_unserved_ns)),
        })
    }
}

/// Everything the window writes, created before the window exists, so a path that cannot be
/// written is one line naming its flag.
#[derive(Debug, Default)]
pub struct Outputs {
    pub screenshot: Option<Screenshot>,
    pub frame_log: Option<FrameLog>,
    pub report: Option<ReportFile>,
}

/// What the window has to show at exit: its lanes' reports, and its last frame (none if no
/// frame was ever shown): RGBA8, width, height.
pub struct AtExit<'a> {
    pub reports: Vec<timestep_lab::model::lane::LaneReport>,
    pub cost: FrameCost,
    /// What the display said of the frames (the report's `window.display`).
    pub display: serde_json::Value,
    pub frame: Option<(&'a [u8], u32, u32)>,
}

impl Outputs {
    /// Creates each output asked for; on a failure, those created are dropped (removed).
    pub fn open(
        screenshot: Option<&Path>,
        frame_log: Option<&Path>,
        report: Option<&Path>,
    ) -> Result<Outputs, OutputError> {
        Ok(Outputs {
            screenshot: screenshot.map(Screenshot::open).transpose()?,
            frame_log: frame_log.map(FrameLog::create).transpose()?,
            report: report.map(ReportFile::create).transpose()?,
        })
    }

    /// Writes the report and the screenshot and finishes the log, then, if all went well and
    /// `ok` (the run did not fail), makes each its target's content. Otherwise every target is
    /// left as it was; the first error is returned.
    pub fn finish(self, at_exit: AtExit<'_>, ok: bool) -> Result<(), OutputError> {
        let mut files = Vec::new();
        if let Some(report) = self.report {
            let display = at_exit.display.clone();
            files.push((
                "--report",
                report.write(&at_exit.reports, &at_exit.cost, display)?,
            ));
        }
        if let Some(shot) = self.screenshot {
            let (rgba, w, h) = at_exit.frame.ok_or(OutputError::NoFrame)?;
            files.push(("--screenshot", shot.write(rgba, w, h)?));
        }
        if let Some(log) = self.frame_log {
            files.push(("--frame-log", log.finish()?));
        }
        if ok {
            crate::pending::commit_all(files)?;
        }
        Ok(())
    }
}

/// PNG bytes of an RGBA8 buffer.
pub fn encode_png(rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, OutputError> {
    let size = tiny_skia::IntSize::from_wh(width, height).ok_or_else(|| {
        OutputError::Encode(format!("cannot encode a {width}x{height} screenshot"))
    })?;
    let mut data = rgba.to_vec();
    for px in data.chunks_exact_mut(4) {
        px[3] = 255;
    }
    let pixmap = tiny_skia::Pixmap::from_vec(data, size).ok_or_else(|| {
        OutputError::Encode(format!(
            "screenshot buffer of {} bytes does not match {width}x{height}",
            rgba.len()
        ))
    })?;
    pixmap.encode_png().map_err(|e| OutputError::Write {
        what: "encoding --screenshot".into(),
        source: Box::new(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use timestep_lab::model::lane::parse_spec;

    #[test]
    fn the_frame_log_reaches_the_file_while_running_not_only_at_exit() {
        let path =
            std::env::temp_dir().join(format!("timestep-rope-log-{}.csv", std::process::id()));
        let mut log = FrameLog::create(&path).unwrap();
        let row = |start_ns| FrameRecord {
            present_ns: Some(start_ns),
            frame_ns: 16_000_000,
            steps: 16,
            ..FrameRecord::started(parse_spec("fixed").unwrap(), 0, start_ns)
        };
        let growing = crate::pending::temp_path(&path, std::process::id()).unwrap();
        let lines = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
        log.row(&row(100_000_000)).unwrap();
        assert_eq!(lines(&growing), 0, "buffered: not a write per frame");
        log.row(&row(300_000_000)).unwrap();
        assert_eq!(
            lines(&growing),
            3,
            "a quarter second on, header and both rows are in the file"
        );
        log.row(&row(400_000_000)).unwrap();
        log.finish().unwrap().commit().unwrap();
        assert_eq!(lines(&path), 4);
        assert!(!growing.exists());
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn rows_wait_for_their_display_times_a_few_frames_and_no_longer() {
        let path =
            std::env::temp_dir().join(format!("timestep-rope-held-log-{}.csv", std::process::id()));
        let mut log = FrameLog::create(&path).unwrap();
        let row = |frame: u64| FrameRecord {
            present_ns: Some(frame * 16_000_000 + 5_000_000),
            frame_ns: 16_000_000,
            steps: 1,
            ..FrameRecord::started(parse_spec("fixed").unwrap(), frame, frame * 16_000_000)
        };
        let said = |frame: u64, at_ns: Option<u64>| FrameDisplay {
            frame,
            at_ns,
            called_ns: None,
            refresh_ns: None,
            source: DisplaySource::Wayland,
        };
        let wl = DisplaySource::Wayland;
        // Frame 0 is shown two frames on, frame 1 discarded; frame 2 never heard of.
        log.frame(0, &[row(0)], &[], wl).unwrap();
        log.frame(1, &[row(1)], &[], wl).unwrap();
        log.frame(2, &[row(2)], &[said(0, Some(40_000_000))], wl)
            .unwrap();
        assert_eq!(log.held.len(), 2, "frame 0 written, 1 and 2 held");
        log.frame(
            3,
            &[row(3)],
            &[said(1, None), said(3, Some(90_000_000))],
            wl,
        )
        .unwrap();
        for f in 4..4 + HOLD_FRAMES as u64 {
            log.frame(
                f,
                &[row(f)],
                &[said(f, Some(f * 16_000_000 + 40_000_000))],
                wl,
            )
            .unwrap();
        }
        log.finish().unwrap().commit().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let cells = |frame: usize| -> Vec<String> {
            let line = text.lines().nth(frame + 1).unwrap_or_default();
            line.split(',').map(str::to_string).collect()
        };
        let at = |name: &str| {
            timestep_lab::protocol::frame_csv::COLUMNS
                .iter()
                .position(|c| *c == name)
                .unwrap()
        };
        let (display, source) = (at("display_s"), at("display_source"));
        assert_eq!(cells(0)[display], "0.040000000");
        assert_eq!(cells(0)[source], "wayland");
        assert_eq!(
            (cells(1)[display].as_str(), cells(1)[source].as_str()),
            ("", "wayland")
        );
        assert_eq!(
            (cells(2)[display].as_str(), cells(2)[source].as_str()),
            ("", "none")
        );
        assert_eq!(cells(3)[display], "0.090000000");
        let frames: Vec<String> = (0..4 + HOLD_FRAMES).map(|f| cells(f)[1].clone()).collect();
        let want: Vec<String> = (0..4 + HOLD_FRAMES).map(|f| f.to_string()).collect();
        assert_eq!(frames, want, "in frame order");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn the_frame_log_and_simulates_trace_share_one_header() {
        let dir = std::env::temp_dir();
        let pid = std::process::id();
        let (log, trace) = (
            dir.join(format!("timestep-rope-header-log-{pid}.csv")),
            dir.join(format!("timestep-rope-header-trace-{pid}.csv")),
        );
        FrameLog::create(&log)
            .unwrap()
            .finish()
            .unwrap()
            .commit()
            .unwrap();
        let file = crate::pending::for_flag("--trace", Some(&trace));
        let file = file.unwrap().unwrap();
        let written = timestep_lab::hosts::simulate::Trace::new(file)
            .finish()
            .unwrap();
        written.commit().unwrap();
        let header = |p: &Path| std::fs::read_to_string(p).unwrap();
        assert_eq!(header(&log), header(&trace));
        let columns = timestep_lab::protocol::frame_csv::COLUMNS.join(",");
        assert_eq!(header(&log), format!("{columns}\n"));
        let _ = (std::fs::remove_file(&log), std::fs::remove_file(&trace));
    }

    #[test]
    fn unwritable_paths_name_their_flag() {
        let dir = std::env::temp_dir()
            .join("timestep-rope-no-such-dir")
            .join("x");
        let e = FrameLog::create(&dir.join("f.csv"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--frame-log") && e.lines().count() == 1, "{e}");
        let e = Screenshot::open(&dir.join("f.png"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--screenshot") && e.lines().count() == 1, "{e}");
    }

    #[test]
    fn screenshots_round_trip_through_png() {
        let path = std::env::temp_dir().join(format!("timestep-rope-{}.png", std::process::id()));
        let shot = Screenshot::open(&path).unwrap();
        let rgba: Vec<u8> = (0..4 * 3)
            .flat_map(|i| [i as u8 * 20, 10, 200, 7])
            .collect();
        shot.write(&rgba, 4, 3).unwrap().commit().unwrap();
        let back = tiny_skia::Pixmap::load_png(&path).unwrap();
        assert_eq!((back.width(), back.height()), (4, 3));
        assert_eq!(&back.data()[4..8], &[20, 10, 200, 255]);
        let _ = std::fs::remove_file(&path);
    }
}
