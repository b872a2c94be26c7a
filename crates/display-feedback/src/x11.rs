//! X11: a second connection to the X server (x11rb's pure-Rust one, `$DISPLAY`, no unsafe
//! code) that selects the Present extension's `CompleteNotify` events on the window and keeps
//! a few `PresentNotifyMSC` requests ahead of the current vblank, so an event arrives every
//! vblank (X.Org `presentproto.txt`: "PresentNotifyMSC ... Delivers a PresentCompleteNotify
//! event when the MSC reaches target-msc; if it is already past, immediately"). What the
//! events say of each frame is decided in `vblank.rs`.
//!
//! Under Xvfb the vblanks are a software timer at 60 Hz and the software Vulkan driver does
//! not present through Present, so only the clock exists there (DISPLAY_TRUTH.md).

use crate::clock::{ClockPair, sample};
use crate::vblank::X11Frames;
use crate::{Backend, Presented, Source};
use rustix::time::ClockId;
use std::time::Instant;
use x11rb::connection::{Connection, RequestConnection as _};
use x11rb::protocol::Event;
use x11rb::protocol::present::{self, CompleteKind, CompleteMode, ConnectionExt as _};
use x11rb::rust_connection::RustConnection;

/// Vblanks asked for ahead of the last one seen: events keep coming for this long if the
/// program is slow to read them (four refreshes).
const AHEAD: u64 = 4;

/// The window's Present events, on a connection of our own.
pub(crate) struct X11 {
    conn: RustConnection,
    window: u32,
    /// The highest MSC a notify was asked for.
    asked_to: u64,
    frames: X11Frames,
}

/// `e`'s message, prefixed with what was being done.
fn err(what: &str) -> impl Fn(&dyn std::fmt::Display) -> String + '_ {
    move |e| format!("{what}: {e}")
}

impl X11 {
    /// Watches window `window` (an X11 window id) on the display `$DISPLAY` names.
    pub fn open(window: u32) -> Result<X11, String> {
        let (conn, _) =
            x11rb::connect(None).map_err(|e| err("X11")(&e))?;
        let present = conn
            .extension_information(present::X11_EXTENSION_NAME)
            .map_err(|e| err("X11 Present")(&e))?;
        if present.is_none() {
            return Err("no X11 Present extension".into());
        }
        conn.present_query_version(1, 0)
            .map_err(|e| err("X11 Present")(&e))?
            .reply()
            .map_err(|e| err("X11 Present")(&e))?;
        let eid = conn.generate_id().map_err(|e| err("X11 Present")(&e))?;
        conn.present_select_input(eid, window, present::EventMask::COMPLETE_NOTIFY)
            .map_err(|e| err("PresentSelectInput")(&e))?
            .check()
            .map_err(|e| err("PresentSelectInput")(&e))?;
        // Target 0 is past: the first event comes at once, with the current MSC.
        conn.present_notify_msc(window, 0, 0, 0, 0)
            .map_err(|e| err("PresentNotifyMSC")(&e))?;
        conn.flush().map_err(|e| err("X11")(&e))?;
        Ok(X11 {
            conn,
            window,
            asked_to: 0,
            frames: X11Frames::default(),
        })
    }

    /// Keeps notifies asked for up to [`AHEAD`] vblanks past the last one seen.
    fn ask_ahead(&mut self) -> Result<(), String> {
        let Some(last) = self.frames.clock.last_msc() else {
            return Ok(());
        };
        let want = last + AHEAD;
        for target in self.asked_to.max(last) + 1..=want {
            // The serial is only echoed back; its low bits are enough to tell them apart.
            self.conn
                .present_notify_msc(self.window, target as u32, target, 0, 0)
                .map_err(|e| err("PresentNotifyMSC")(&e))?;
        }
        self.asked_to = self.asked_to.max(want);
        Ok(())
    }
}

impl Backend for X11 {
    fn source(&self) -> Source {
        self.frames.source()
    }

    fn before_present(&mut self, _frame: u64) -> Result<(), String> {
        Ok(())
    }

    fn after_present(&mut self, frame: u64, returned: Instant) -> Result<(), String> {
        self.frames.presented(frame, returned);
        Ok(())
    }

    fn poll(&mut self, out: &mut Vec<Presented>) -> Result<(), String> {
        // UST is microseconds of CLOCK_MONOTONIC (the server's GetTimeInMicros).
        let mut pair: Option<ClockPair> = None;
        while let Some(event) = self
            .conn
            .poll_for_event()
            .map_err(|e| err("X11")(&e))?
        {
            let Event::PresentCompleteNotify(e) = event else {
                continue;
            };
            let clock = *pair.get_or_insert_with(|| sample(ClockId::Monotonic));
            let at = clock.instant_of(e.ust.saturating_mul(1000));
            match e.kind {
                CompleteKind::NOTIFY_MSC => {
                    if let Some(at) = at {
                        self.frames.clock.vblank(e.msc, at);
                    }
                }
                CompleteKind::PIXMAP => {
                    let shown = at.filter(|_| e.mode != CompleteMode::SKIP);
                    self.frames.completed(shown, out);
                }
                _ => {}
            }
        }
        self.frames.estimate(out);
        self.ask_ahead()?;
        self.conn.flush().map_err(|e| err("X11")(&e))
    }
}
