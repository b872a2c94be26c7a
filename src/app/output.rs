//! What the window writes to disk: the per-frame CSV log, the exit screenshot and the report.
//!
//! Each file is created (see [`PendingFile`]) before the window exists, so a path that cannot
//! be written is a one-line error naming its flag (exit 2) instead of a window that fails at
//! the end. At exit they replace their targets together ([`Outputs::finish`]); a run that
//! failed leaves every target as it was.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use timestep_lab::messages::chain;
use timestep_lab::pending::PendingFile;

fn open_error(flag: &str, path: &Path, err: std::io::Error) -> String {
    format!("{flag} {}: cannot write: {err}", path.display())
}

/// One frame of the log.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRow {
    /// The window's clock when the frame started, since the program started, s.
    pub wall_s: f64,
    pub frame_ms: f64,
    /// The lane, as named on the command line (`interpolated`, `fixed`).
    pub lane: String,
    pub steps: u32,
    pub alpha: f64,
    /// Shown simulation time − measured running time, ms.
    pub drift_ms: f64,
    /// Whether the rope shown this frame is exploded (written as 0 or 1).
    pub exploded: bool,
    /// The pacing the frame ran under.
    pub pacing: String,
    /// When each of the lane's steps began, ms of wall time since the program started.
    pub step_starts_ms: Vec<f64>,
    /// From the first key or mouse event this frame used to its present, ms (none: no input).
    pub input_ms: Option<f64>,
    /// When the frame's present returned, s (none: it was not shown).
    pub present_s: Option<f64>,
}

/// A column of the log: its name, and how a row writes it.
type Column = (&'static str, fn(&FrameRow) -> String);

/// The log's columns, each once. Times to the nanosecond (replay reads them), frame time and
/// drift to the microsecond in ms, exploded as 0 or 1.
const COLUMNS: [Column; 11] = [
    ("wall_s", |r| format!("{:.9}", r.wall_s)),
    ("frame_ms", |r| format!("{:.3}", r.frame_ms)),
    ("lane", |r| r.lane.clone()),
    ("steps", |r| r.steps.to_string()),
    ("alpha", |r| format!("{:.4}", r.alpha)),
    ("drift_ms", |r| format!("{:.3}", r.drift_ms)),
    ("exploded", |r| u8::from(r.exploded).to_string()),
    ("pacing", |r| r.pacing.clone()),
    ("input_ms", |r| {
        r.input_ms.map_or(String::new(), |ms| format!("{ms:.3}"))
    }),
    ("step_starts_ms", |r| {
        let starts: Vec<String> = r
            .step_starts_ms
            .iter()
            .map(|ms| format!("{ms:.3}"))
            .collect();
        starts.join(" ")
    }),
    ("present_s", |r| {
        r.present_s.map_or(String::new(), |s| format!("{s:.9}"))
    }),
];

impl FrameRow {
    /// The header's names, in order.
    pub fn header() -> impl Iterator<Item = &'static str> {
        COLUMNS.iter().map(|(name, _)| *name)
    }

    /// The row's cells, in the header's order.
    pub fn cells(&self) -> impl Iterator<Item = String> + '_ {
        COLUMNS.iter().map(move |(_, cell)| cell(self))
    }
}

/// `--frame-log`: a buffered CSV writer, flushed every [`FrameLog::FLUSH_EVERY_S`] of wall
/// time (so the file being written, `.NAME.tmp-PID` beside the target, can be followed while
/// the window runs) and at exit.
#[derive(Debug)]
pub struct FrameLog {
    path: PathBuf,
    out: csv::Writer<PendingFile>,
    /// The wall time of the row that last flushed, s.
    flushed_at_s: f64,
}

impl FrameLog {
    /// Creates the file and writes the header.
    pub fn create(path: &Path) -> Result<FrameLog, String> {
        let flag = "--frame-log";
        let file = PendingFile::create(path).map_err(|e| open_error(flag, path, e))?;
        let mut out = csv::Writer::from_writer(file);
        out.write_record(FrameRow::header())
            .map_err(|e| open_error(flag, path, e.into()))?;
        Ok(FrameLog {
            path: path.to_owned(),
            out,
            flushed_at_s: 0.0,
        })
    }

    /// How often the log reaches the file while running, in wall seconds (a few small
    /// writes a second, whatever the frame rate).
    pub const FLUSH_EVERY_S: f64 = 0.25;

    pub fn row(&mut self, row: &FrameRow) -> Result<(), String> {
        self.out
            .write_record(row.cells())
            .map_err(|e| self.write_error(&e.into()))?;
        if row.wall_s - self.flushed_at_s >= Self::FLUSH_EVERY_S {
            self.flushed_at_s = row.wall_s;
            self.out.flush().map_err(|e| self.write_error(&e))?;
        }
        Ok(())
    }

    /// The file, every row in it, to be committed.
    pub fn finish(mut self) -> Result<PendingFile, String> {
        self.out.flush().map_err(|e| self.write_error(&e))?;
        let what = format!("writing --frame-log {}", self.path.display());
        self.out.into_inner().map_err(|e| chain(&what, e.error()))
    }

    fn write_error(&self, e: &std::io::Error) -> String {
        chain(&format!("writing --frame-log {}", self.path.display()), e)
    }
}

/// `--screenshot`: created at start to prove it is writable, written at exit.
#[derive(Debug)]
pub struct Screenshot(PendingFile);

impl Screenshot {
    pub fn open(path: &Path) -> Result<Screenshot, String> {
        PendingFile::create(path)
            .map(Screenshot)
            .map_err(|e| open_error("--screenshot", path, e))
    }

    /// Writes an RGBA8 frame as PNG (alpha forced opaque: the window shows it opaque); the
    /// file, to be committed.
    pub fn write(mut self, rgba: &[u8], width: u32, height: u32) -> Result<PendingFile, String> {
        let png = encode_png(rgba, width, height)?;
        let what = format!("writing --screenshot {}", self.0.path().display());
        self.0.write_all(&png).map_err(|e| chain(&what, &e))?;
        Ok(self.0)
    }
}

/// `--report`: created at start to prove it is writable; at exit it gets every lane's report,
/// the same JSON object per lane as `simulate --json` gives.
#[derive(Debug)]
pub struct ReportFile(PendingFile);

impl ReportFile {
    pub fn create(path: &Path) -> Result<ReportFile, String> {
        PendingFile::create(path)
            .map(ReportFile)
            .map_err(|e| open_error("--report", path, e))
    }

    /// Writes `{"lanes": [...], "window": {...}}`; the file, to be committed.
    pub fn write(
        self,
        lanes: &[timestep_lab::lane::LaneReport],
        cost: &FrameCost,
    ) -> Result<PendingFile, String> {
        let what = format!("writing --report {}", self.0.path().display());
        let mut out = BufWriter::new(self.0);
        let json = serde_json::json!({ "lanes": lanes, "window": cost.summary() });
        serde_json::to_writer_pretty(&mut out, &json).map_err(|e| chain(&what, &e))?;
        writeln!(out).map_err(|e| chain(&what, &e))?;
        out.into_inner().map_err(|e| chain(&what, e.error()))
    }
}

/// What the window's own work costs a presented frame, CPU time measured with `Instant`:
/// drawing the buffer, egui's pass (the panel and the HUD's text: input, layout,
/// tessellation), and rendering (upload, our passes, egui's meshes, present).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameCost {
    pub frames: u64,
    pub draw_ns: u64,
    pub ui_ns: u64,
    pub render_ns: u64,
}

impl FrameCost {
    /// The report's `window` object: the means per frame, ms, and the UI's share of the rest.
    pub fn summary(&self) -> serde_json::Value {
        let mean = |ns: u64| (self.frames > 0).then(|| ns as f64 / self.frames as f64 / 1e6);
        let rest = self.draw_ns + self.render_ns;
        serde_json::json!({
            "frames": self.frames,
            "draw_ms_mean": mean(self.draw_ns),
            "ui_ms_mean": mean(self.ui_ns),
            "render_ms_mean": mean(self.render_ns),
            "ui_to_draw_and_render": (rest > 0).then(|| self.ui_ns as f64 / rest as f64),
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
    pub reports: Vec<timestep_lab::lane::LaneReport>,
    pub cost: FrameCost,
    pub frame: Option<(&'a [u8], u32, u32)>,
}

impl Outputs {
    /// Creates each output asked for; on a failure, those created are dropped (removed).
    pub fn open(
        screenshot: Option<&Path>,
        frame_log: Option<&Path>,
        report: Option<&Path>,
    ) -> Result<Outputs, String> {
        Ok(Outputs {
            screenshot: screenshot.map(Screenshot::open).transpose()?,
            frame_log: frame_log.map(FrameLog::create).transpose()?,
            report: report.map(ReportFile::create).transpose()?,
        })
    }

    /// Writes the report and the screenshot and finishes the log, then, if all went well and
    /// `ok` (the run did not fail), makes each its target's content. Otherwise every target is
    /// left as it was; the first error is returned.
    pub fn finish(self, at_exit: AtExit<'_>, ok: bool) -> Result<(), String> {
        let mut files = Vec::new();
        if let Some(report) = self.report {
            files.push(("--report", report.write(&at_exit.reports, &at_exit.cost)?));
        }
        if let Some(shot) = self.screenshot {
            let (rgba, w, h) = at_exit
                .frame
                .ok_or("no frame was shown, so no --screenshot")?;
            files.push(("--screenshot", shot.write(rgba, w, h)?));
        }
        if let Some(log) = self.frame_log {
            files.push(("--frame-log", log.finish()?));
        }
        if ok {
            timestep_lab::pending::commit_all(files).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// PNG bytes of an RGBA8 buffer.
pub fn encode_png(rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, String> {
    let size = tiny_skia::IntSize::from_wh(width, height)
        .ok_or_else(|| format!("cannot encode a {width}x{height} screenshot"))?;
    let mut data = rgba.to_vec();
    for px in data.chunks_exact_mut(4) {
        px[3] = 255;
    }
    let pixmap = tiny_skia::Pixmap::from_vec(data, size).ok_or_else(|| {
        format!(
            "screenshot buffer of {} bytes does not match {width}x{height}",
            rgba.len()
        )
    })?;
    pixmap
        .encode_png()
        .map_err(|e| chain("encoding --screenshot", &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(row: &FrameRow) -> String {
        row.cells().collect::<Vec<_>>().join(",")
    }

    #[test]
    fn a_frame_row_has_its_fields_in_header_order() {
        let mut row = FrameRow {
            wall_s: 1.25,
            frame_ms: 16.6667,
            lane: "semi-fixed".into(),
            steps: 2,
            alpha: 0.6667,
            drift_ms: -0.5,
            exploded: false,
            pacing: "late".into(),
            step_starts_ms: vec![1250.0101, 1250.0302],
            input_ms: None,
            present_s: None,
        };
        assert_eq!(
            line(&row),
            "1.250000000,16.667,semi-fixed,2,0.6667,-0.500,0,late,,1250.010 1250.030,"
        );
        row.exploded = true;
        row.input_ms = Some(12.3456);
        row.present_s = Some(1.2625);
        assert_eq!(
            line(&row),
            "1.250000000,16.667,semi-fixed,2,0.6667,-0.500,1,late,12.346,1250.010 1250.030,1.262500000"
        );
        assert_eq!(row.cells().count(), FrameRow::header().count());
        let header: Vec<&str> = FrameRow::header().collect();
        assert_eq!(header[..3], ["wall_s", "frame_ms", "lane"]);
        assert_eq!(header.last(), Some(&"present_s"));
    }

    #[test]
    fn the_frame_log_reaches_the_file_while_running_not_only_at_exit() {
        let path =
            std::env::temp_dir().join(format!("timestep-rope-log-{}.csv", std::process::id()));
        let mut log = FrameLog::create(&path).unwrap();
        let row = |wall_s| FrameRow {
            pacing: "vsync".into(),
            step_starts_ms: Vec::new(),
            input_ms: None,
            wall_s,
            frame_ms: 16.0,
            lane: "fixed".into(),
            steps: 16,
            alpha: 0.0,
            drift_ms: 0.0,
            exploded: false,
            present_s: Some(wall_s),
        };
        let growing = timestep_lab::pending::temp_path(&path, std::process::id()).unwrap();
        let lines = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
        log.row(&row(0.1)).unwrap();
        assert_eq!(lines(&growing), 0, "buffered: not a write per frame");
        log.row(&row(0.3)).unwrap();
        assert_eq!(
            lines(&growing),
            3,
            "a quarter second on, header and both rows are in the file"
        );
        log.row(&row(0.4)).unwrap();
        log.finish().unwrap().commit().unwrap();
        assert_eq!(lines(&path), 4);
        assert!(!growing.exists());
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn unwritable_paths_name_their_flag() {
        let dir = std::env::temp_dir()
            .join("timestep-rope-no-such-dir")
            .join("x");
        let e = FrameLog::create(&dir.join("f.csv")).unwrap_err();
        assert!(e.contains("--frame-log") && e.lines().count() == 1, "{e}");
        let e = Screenshot::open(&dir.join("f.png")).unwrap_err();
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
