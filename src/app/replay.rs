//! `timestep-rope --replay CAPTURE`: the window plays a capture live. Each window frame takes
//! the capture's next frame start as its clock (waiting, in real time, until it comes) and is
//! held until the capture's time on screen, so the lanes move as they would have in that game;
//! at the end the capture starts over, its timeline carried on. Where the window cannot keep up
//! it plays slower than real time: the lanes still see the captured times.

use super::host::Wall;
use crate::draw::CaptureCaption;
use crate::replay::{CaptureError, CaptureSummary, Captured, Selection, Stream};
use std::path::{Path, PathBuf};

/// A capture as the window's clock, on top of a real one.
pub struct CaptureWall<W: Wall> {
    real: W,
    path: PathBuf,
    selection: Selection,
    stream: Stream,
    /// The file's name, for the HUD.
    name: String,
    /// Frames in a pass, and the one showing (1-based).
    total: u64,
    index: u64,
    frame: Captured,
    /// Whether `frame` is a pass's first, not yet run: the clock starts at its start, and it
    /// is run (with no time, as every host's first frame is) before the next is read.
    first_pending: bool,
    /// Captured time `t` is window time `t + offset`.
    offset: i128,
    /// The typical frame, ns: the gap left between the end of a pass and the next.
    frame_ns: u64,
    last_ns: u64,
}

impl<W: Wall> CaptureWall<W> {
    /// The capture at `path`, whose `selection` was checked and summed up as `summary`, played
    /// on `real`'s clock from now.
    pub fn open(
        mut real: W,
        path: &Path,
        selection: Selection,
        summary: &CaptureSummary,
    ) -> Result<CaptureWall<W>, CaptureError> {
        let mut stream = Stream::open(path, &selection)?;
        let first = first_frame(path, &mut stream)?;
        let now = real.now_ns();
        let frame_ns = (summary.frame_ms.median * 1e6).round().max(1.0) as u64;
        Ok(CaptureWall {
            name: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
            total: summary.frames,
            index: 1,
            first_pending: true,
            offset: i128::from(now) - i128::from(first.start_ns),
            frame: first,
            last_ns: now,
            frame_ns,
            real,
            path: path.to_owned(),
            selection,
            stream,
        })
    }

    /// Window time of captured time `t`.
    fn window_ns(&self, t: u64) -> u64 {
        (i128::from(t) + self.offset).max(0) as u64
    }

    /// Moves to the capture's next frame (the first again after the last, a typical frame
    /// later) and waits until it starts; the very first call stays on the first frame.
    pub fn advance(&mut self) -> Result<(), CaptureError> {
        if std::mem::take(&mut self.first_pending) {
            return Ok(());
        }
        match self.stream.next_frame()? {
            Some(frame) => {
                self.frame = frame;
                self.index += 1;
            }
            None => {
                self.stream = Stream::open(&self.path, &self.selection)?;
                self.frame = first_frame(&self.path, &mut self.stream)?;
                self.index = 1;
                let resume = self.last_ns + self.frame_ns;
                self.offset = i128::from(resume) - i128::from(self.frame.start_ns);
            }
        }
        let start = self.window_ns(self.frame.start_ns);
        self.last_ns = start;
        self.wait_until(start);
        Ok(())
    }

    fn wait_until(&mut self, at_ns: u64) {
        let now = self.real.now_ns();
        if at_ns > now {
            self.real.sleep(at_ns - now);
        }
    }
}

/// A pass's first frame.
fn first_frame(path: &Path, stream: &mut Stream) -> Result<Captured, CaptureError> {
    stream
        .next_frame()?
        .ok_or_else(|| CaptureError::at(path, None, None, "no frames".into()))
}

impl<W: Wall> Wall for CaptureWall<W> {
    /// The frame's captured start: every reading of a frame is the capture's.
    fn now_ns(&mut self) -> u64 {
        self.window_ns(self.frame.start_ns)
    }
    fn real_ns(&mut self) -> u64 {
        self.real.now_ns()
    }
    /// Really waits; the capture's time does not move.
    fn sleep(&mut self, ns: u64) {
        self.real.sleep(ns);
    }
    /// Held until the captured time on screen, which is what the lanes are told.
    fn shown(&mut self) -> Option<u64> {
        let at = self.window_ns(self.frame.shown_ns?);
        self.last_ns = self.last_ns.max(at);
        self.wait_until(at);
        Some(at)
    }
    fn caption(&self) -> Option<CaptureCaption> {
        Some(CaptureCaption {
            name: self.name.clone(),
            frame: self.index,
            frames: self.total,
        })
    }
}
