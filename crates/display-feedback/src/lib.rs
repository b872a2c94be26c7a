//! When a window's frames were really shown, as the display system says it: not when the
//! present call returned, but when the frame turned into light (or when the compositor or the
//! X server says it did).
//!
//! What each platform gives:
//!
//! - **Wayland**: the compositor's presentation feedback (`wp_presentation`, the stable
//!   `presentation-time.xml` of wayland-protocols): for each frame, the time it was presented on
//!   the compositor's clock, the output's refresh period, or that it was discarded. Measured.
//!   The request must reach the compositor *before* the frame's commit, and Mesa's Vulkan WSI
//!   commits inside `vkQueuePresentKHR`: call [`Feedback::before_present`] before presenting.
//! - **X11**: the Present extension (the X.Org `presentproto` specification,
//!   `presentproto.txt`). Where the window's own presents go through Present (Mesa's DRI3 drivers
//!   on real GPUs), each present's `PresentCompleteNotify` says when it was shown, or that it
//!   was skipped: [`Source::X11Present`], measured. Where they do not (lavapipe's X11 WSI draws
//!   with plain image puts; NVIDIA's driver does not use Present), only the vblank clock is
//!   left: `PresentNotifyMSC` events, one each refresh, and each frame is reported at the first
//!   vblank at or after its present returned (discarded where the next frame's present
//!   returned by then, replacing it before scan-out): [`Source::VblankClock`], an *estimate*
//!   from a clock, not the frame's display time. Under Xvfb, whose vblanks are a 60 Hz software
//!   timer, only that clock exists.
//! - **Elsewhere** (Windows, macOS, a window of neither kind): nothing, [`Source::None`], with
//!   [`Feedback::why`] saying so.
//!
//! Nothing here fails: where feedback cannot be had, or stops working, [`Feedback`] reports
//! [`Source::None`] and says why, and the window goes on as it would without it.
//!
//! This crate holds the workspace's only unsafe code: two calls in `wayland.rs` that wrap the
//! window's own `wl_display` and `wl_surface` pointers (a Wayland client's objects belong to
//! its connection, so feedback on the window's surface has to be asked on the window's own
//! connection). Each has its SAFETY argument; the crate denies unsafe code everywhere else.

use raw_window_handle::{HasDisplayHandle, HasWindowHandle, RawDisplayHandle, RawWindowHandle};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Items for the Unix desktops where Wayland and X11 run (not macOS, iOS, Android or the web).
macro_rules! desktop {
    ($($item:item)*) => {$(
        #[cfg(all(
            unix,
            not(any(
                target_os = "macos",
                target_os = "ios",
                target_os = "android",
                target_os = "emscripten"
            ))
        ))]
        $item
    )*};
}

/// Items for everywhere else.
macro_rules! elsewhere {
    ($($item:item)*) => {$(
        #[cfg(not(all(
            unix,
            not(any(
                target_os = "macos",
                target_os = "ios",
                target_os = "android",
                target_os = "emscripten"
            ))
        )))]
        $item
    )*};
}

desktop! {
    mod clock;
    mod vblank;
    mod wayland;
    mod x11;
}

/// Where a frame's display time came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The Wayland compositor's presentation feedback: measured.
    Wayland,
    /// The X server's Present completion of the window's own present: measured.
    X11Present,
    /// The first X11 vblank at or after the present returned: estimated from a clock.
    VblankClock,
    /// No display times.
    None,
}

impl Source {
    /// Every source, in the order of the docs.
    pub const ALL: [Source; 4] = [
        Source::Wayland,
        Source::X11Present,
        Source::VblankClock,
        Source::None,
    ];

    /// Its name, as a frame log writes it: `wayland`, `x11-present`, `vblank-clock`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Wayland => "wayland",
            Source::X11Present => "x11-present",
            Source::VblankClock => "vblank-clock",
            Source::None => "none",
        }
    }

    /// The source named `name` (as [`Source::name`] gives it).
    pub fn from_name(name: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether its times are the display system's own account of each frame (Wayland, X11
    /// Present), rather than an estimate from a vblank clock (or nothing).
    pub fn measured(self) -> bool {
        matches!(self, Source::Wayland | Source::X11Present)
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What became of one frame, a frame or more after it was presented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Presented {
    /// The frame's number, as given to [`Feedback::before_present`].
    pub frame: u64,
    /// When it was shown (`std::time::Instant`, converted from the display system's clock);
    /// `None`: it was discarded, never shown (a newer frame replaced it first).
    pub shown: Option<Instant>,
    /// The display's refresh period as the display system gave it (Wayland: the output's
    /// predicted next refresh; X11: measured between vblanks), if known.
    pub refresh: Option<Duration>,
    /// Where `shown` came from.
    pub source: Source,
    /// When [`Feedback::before_present`] was called for it, if that was remembered: the
    /// present call, from which latency is counted.
    pub called: Option<Instant>,
}

/// One platform's way of learning display times.
trait Backend {
    /// Where its times come from (it may change once, X11's, from the clock to completions).
    fn source(&self) -> Source;
    /// The frame `frame` is about to be presented.
    fn before_present(&mut self, frame: u64) -> Result<(), String>;
    /// The frame `frame` was presented; the present call returned at `returned`.
    fn after_present(&mut self, frame: u64, returned: Instant) -> Result<(), String>;
    /// What it has learned since the last poll, without blocking.
    fn poll(&mut self, out: &mut Vec<Presented>) -> Result<(), String>;
}

/// Present calls remembered for [`Presented::called`]: a few seconds of frames.
const CALLS_KEPT: usize = 512;

/// A window's display times: made once from the window, then told of each present and polled
/// each frame. Where none can be had, it says [`Source::None`] and why.
pub struct Feedback {
    /// Declared before `_window`, so it is dropped first: it uses the window's handles.
    backend: Option<Box<dyn Backend>>,
    why: Option<String>,
    /// Present calls, by frame, oldest first.
    called: VecDeque<(u64, Instant)>,
    /// The window, kept alive while the backend uses its display and surface.
    _window: Option<Box<dyn std::any::Any>>,
}

impl std::fmt::Debug for Feedback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feedback")
            .field("source", &self.source())
            .field("why", &self.why)
            .finish()
    }
}

impl Feedback {
    /// Feedback for `window`'s frames: Wayland's presentation feedback, or X11's Present, by
    /// the kind of window it is. Never fails: where neither works, [`Source::None`], and
    /// [`Feedback::why`] says why. The window is kept (a clone of the `Arc`) for as long as
    /// this lives, so its display and surface outlive every use made of them here; drop this
    /// before the window's event loop closes its display connection.
    pub fn new<W>(window: Arc<W>) -> Feedback
    where
        W: HasWindowHandle + HasDisplayHandle + 'static,
    {
        let handles = window
            .display_handle()
            .and_then(|d| window.window_handle().map(|w| (d.as_raw(), w.as_raw())));
        let opened = match handles {
            Ok((display, surface)) => open(display, surface),
            Err(e) => Err(format!("no window handle ({e})")),
        };
        match opened {
            Ok(backend) => Feedback {
                backend: Some(backend),
                why: None,
                called: VecDeque::new(),
                _window: Some(Box::new(window)),
            },
            Err(why) => Feedback::unavailable(why),
        }
    }

    /// No display times, because `why`.
    pub fn unavailable(why: impl Into<String>) -> Feedback {
        Feedback {
            backend: None,
            why: Some(why.into()),
            called: VecDeque::new(),
            _window: None,
        }
    }

    /// Where the display times come from ([`Source::None`]: there are none).
    pub fn source(&self) -> Source {
        self.backend.as_ref().map_or(Source::None, |b| b.source())
    }

    /// Why there are no display times (`None` while there are), in a few words, short enough
    /// for a HUD's line: "no wp_presentation", "Wayland and X11 only".
    pub fn why(&self) -> Option<&str> {
        self.why.as_deref()
    }

    /// The frame `frame` is about to be presented (call it just before the present: on
    /// Wayland, the feedback request must precede the frame's commit, which Mesa makes inside
    /// `vkQueuePresentKHR`).
    pub fn before_present(&mut self, frame: u64) {
        if self.called.len() == CALLS_KEPT {
            self.called.pop_front();
        }
        self.called.push_back((frame, Instant::now()));
        self.with_backend(|b| b.before_present(frame));
    }

    /// The frame `frame` was presented (call it only for a present that was made) and the call
    /// returned at `returned`: the vblank clock's estimate counts from there.
    pub fn after_present(&mut self, frame: u64, returned: Instant) {
        self.with_backend(|b| b.after_present(frame, returned));
    }

    /// Appends to `out` what became of frames since the last poll, oldest first; never blocks.
    pub fn poll(&mut self, out: &mut Vec<Presented>) {
        let from = out.len();
        self.with_backend(|b| b.poll(out));
        for p in &mut out[from..] {
            while self.called.front().is_some_and(|&(f, _)| f < p.frame) {
                self.called.pop_front();
            }
            p.called = self
                .called
                .front()
                .filter(|&&(f, _)| f == p.frame)
                .map(|&(_, at)| at);
        }
    }

    /// Runs `f` on the backend; if it fails, there is no backend any more, and why says so.
    fn with_backend(&mut self, f: impl FnOnce(&mut dyn Backend) -> Result<(), String>) {
        let Some(backend) = self.backend.as_deref_mut() else {
            return;
        };
        if let Err(e) = f(backend) {
            let source = backend.source();
            self.backend = None;
            self.why = Some(format!("{source} stopped: {e}"));
        }
    }
}

desktop! {
/// The backend for a window of this kind.
fn open(display: RawDisplayHandle, window: RawWindowHandle) -> Result<Box<dyn Backend>, String> {
    match (display, window) {
        (RawDisplayHandle::Wayland(d), RawWindowHandle::Wayland(w)) => {
            Ok(Box::new(wayland::Wayland::open(d.display, w.surface)?))
        }
        (_, RawWindowHandle::Xlib(w)) => {
            let id = u32::try_from(w.window)
                .map_err(|_| format!("X11 window id {} too large", w.window))?;
            Ok(Box::new(x11::X11::open(id)?))
        }
        (_, RawWindowHandle::Xcb(w)) => Ok(Box::new(x11::X11::open(w.window.get())?)),
        _ => Err("not a Wayland or X11 window".into()),
    }
}
}

elsewhere! {
/// No backend on this platform.
fn open(_display: RawDisplayHandle, _window: RawWindowHandle) -> Result<Box<dyn Backend>, String> {
    Err("Wayland and X11 only".into())
}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_is_named_and_found_by_its_name() {
        let names: Vec<&str> = Source::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["wayland", "x11-present", "vblank-clock", "none"]);
        for s in Source::ALL {
            assert_eq!(Source::from_name(s.name()), Some(s));
        }
        assert_eq!(Source::from_name("x11"), None);
        assert!(Source::Wayland.measured() && Source::X11Present.measured());
        assert!(!Source::VblankClock.measured() && !Source::None.measured());
    }

    /// A backend that reports what it is given to report, or fails.
    struct Scripted {
        report: Vec<Presented>,
        fail: bool,
    }

    impl Backend for Scripted {
        fn source(&self) -> Source {
            Source::Wayland
        }
        fn before_present(&mut self, _frame: u64) -> Result<(), String> {
            Ok(())
        }
        fn after_present(&mut self, _frame: u64, _returned: Instant) -> Result<(), String> {
            Ok(())
        }
        fn poll(&mut self, out: &mut Vec<Presented>) -> Result<(), String> {
            if self.fail {
                return Err("the connection broke".into());
            }
            out.append(&mut self.report);
            Ok(())
        }
    }

    fn presented(frame: u64) -> Presented {
        Presented {
            frame,
            shown: Some(Instant::now()),
            refresh: None,
            source: Source::Wayland,
            called: None,
        }
    }

    #[test]
    fn each_report_carries_its_present_call_and_a_failure_says_why() {
        let mut feedback = Feedback::unavailable("");
        feedback.why = None;
        feedback.backend = Some(Box::new(Scripted {
            report: vec![presented(1), presented(3)],
            fail: false,
        }));
        for frame in 0..4 {
            feedback.before_present(frame);
        }
        let calls: Vec<(u64, Instant)> = feedback.called.iter().copied().collect();
        let mut out = Vec::new();
        feedback.poll(&mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].called, Some(calls[1].1));
        assert_eq!(out[1].called, Some(calls[3].1));
        assert_eq!((feedback.source(), feedback.why()), (Source::Wayland, None));
        feedback.backend = Some(Box::new(Scripted {
            report: Vec::new(),
            fail: true,
        }));
        feedback.poll(&mut out);
        assert_eq!(feedback.source(), Source::None);
        assert_eq!(
            feedback.why(),
            Some("wayland stopped: the connection broke")
        );
    }

    #[test]
    fn unavailable_feedback_reports_nothing_and_says_why() {
        let mut feedback = Feedback::unavailable("no window");
        feedback.before_present(0);
        feedback.after_present(0, Instant::now());
        let mut out = Vec::new();
        feedback.poll(&mut out);
        assert!(out.is_empty());
        assert_eq!(
            (feedback.source(), feedback.why()),
            (Source::None, Some("no window"))
        );
    }
}
