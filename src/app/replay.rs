//! `timestep-rope --replay CAPTURE`: the window plays a capture live. Each window frame takes
//! the capture's next frame start as its clock (the window waits, in real time, until it
//! comes, handling its events meanwhile) and is held until the capture's time on screen, so
//! the lanes move as they would have in that game; at the end the capture starts over, its
//! timeline carried on. Where the window cannot keep up it plays slower than real time: the
//! lanes still see the captured times. A hold on screen longer than [`MAX_HOLD_NS`] is cut
//! short (a corrupted cell can put a frame on screen centuries later), so a frame never
//! blocks the window for longer.

use super::host::WindowWall;
use std::path::{Path, PathBuf};
use timestep_lab::hosts::replay::{CaptureError, CaptureSummary, Captured, Selection, Stream};
use timestep_lab::protocol::wall::Wall;
use timestep_lab::view::draw::CaptureCaption;

/// The longest a frame is held, in real time, until the capture's time on screen, ns: the
/// window handles no event while a frame is held.
pub const MAX_HOLD_NS: u64 = 100_000_000;

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
    /// Whether `frame` has run: the next call to [`CaptureWall::wait_ns`] moves on. The very
    /// first frame is run first (with no time, as every host's first frame is).
    ran: bool,
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
            ran: false,
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
        (i128::from(t) + self.offset).clamp(0, i128::from(u64::MAX)) as u64
    }

    /// How long, ns of real time, until the frame to run next starts (0: run it now). After
    /// [`CaptureWall::ran`] it first moves to the capture's next frame (the first again after
    /// the last, a typical frame later). It does not wait: the window waits in slices, its
    /// events handled, and asks again, so a gap in the capture never freezes it.
    pub fn wait_ns(&mut self) -> Result<u64, CaptureError> {
        if std::mem::take(&mut self.ran) {
            self.next()?;
        }
        let start = self.window_ns(self.frame.start_ns);
        Ok(start.saturating_sub(self.real.now_ns()))
    }

    /// The frame [`CaptureWall::wait_ns`] said was due has run.
    pub fn ran(&mut self) {
        self.ran = true;
    }

    /// Moves to the capture's next frame, the first again after the last.
    fn next(&mut self) -> Result<(), CaptureError> {
        match self.stream.next_frame()? {
            Some(frame) => {
                self.frame = frame;
                self.index += 1;
            }
            None => {
                self.stream = Stream::open(&self.path, &self.selection)?;
                self.frame = first_frame(&self.path, &mut self.stream)?;
                self.index = 1;
                let resume = self.last_ns.saturating_add(self.frame_ns);
                self.offset = i128::from(resume) - i128::from(self.frame.start_ns);
            }
        }
        self.last_ns = self.window_ns(self.frame.start_ns);
        Ok(())
    }

    /// Waits until `at_ns`, or [`MAX_HOLD_NS`] at most.
    fn hold_until(&mut self, at_ns: u64) {
        let now = self.real.now_ns();
        if at_ns > now {
            self.real.sleep((at_ns - now).min(MAX_HOLD_NS));
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
    /// Really waits; the capture's time does not move.
    fn sleep(&mut self, ns: u64) {
        self.real.sleep(ns);
    }
}

impl<W: Wall> WindowWall for CaptureWall<W> {
    fn real_ns(&mut self) -> u64 {
        self.real.now_ns()
    }
    /// Held until the captured time on screen (at most [`MAX_HOLD_NS`]); the lanes are told
    /// the captured time.
    fn shown(&mut self) -> Option<u64> {
        let at = self.window_ns(self.frame.shown_ns?);
        self.last_ns = self.last_ns.max(at);
        self.hold_until(at);
        Some(at)
    }
    fn caption(&self) -> Option<CaptureCaption> {
        Some(CaptureCaption {
            name: self.name.clone(),
            frame: self.index,
            frames: self.total,
        })
    }
    fn live(&self) -> bool {
        false
    }
}
