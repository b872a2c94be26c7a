//! Wayland: `wp_presentation` (the stable `presentation-time.xml` of wayland-protocols) bound
//! on the window's own `wl_display`, with an event queue of our own beside the windowing
//! crate's. Before each present a `feedback` request on the window's surface; it attaches to
//! the surface's next commit (Mesa's WSI commits inside `vkQueuePresentKHR`), and the
//! compositor answers with `presented` (when the content update "turned into light", on the
//! clock its `clock_id` event names, and the refresh period) or `discarded`.
//!
//! The two calls that wrap the window's raw pointers are the workspace's only unsafe code.

use crate::clock::{ClockPair, clock_of, sample};
use crate::{Backend, Presented, Source};
use std::ffi::c_void;
use std::ptr::NonNull;
use std::time::{Duration, Instant};
use wayland_backend::client::{Backend as WlBackend, ObjectId, WaylandError};
use wayland_client::protocol::wl_registry::{self, WlRegistry};
use wayland_client::protocol::wl_surface::WlSurface;
use wayland_client::{Connection, Dispatch, EventQueue, Proxy, QueueHandle};
use wayland_protocols::wp::presentation_time::client::wp_presentation::{self, WpPresentation};
use wayland_protocols::wp::presentation_time::client::wp_presentation_feedback::{
    self, WpPresentationFeedback,
};

/// The highest `wp_presentation` version used (2 differs only in what `refresh` may say of
/// a variable refresh rate).
const VERSION: u32 = 2;

/// What the compositor said of one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Heard {
    /// Shown at `ns` of the compositor's clock; the output refreshes every `refresh_ns`
    /// (0: unknown).
    Presented { frame: u64, ns: u64, refresh_ns: u32 },
    /// Never shown.
    Discarded { frame: u64 },
}

/// What our event queue's events leave.
#[derive(Debug, Default)]
struct State {
    presentation: Option<WpPresentation>,
    clock_id: Option<u32>,
    heard: Vec<Heard>,
}

/// Presentation feedback for one surface.
pub(crate) struct Wayland {
    /// Declared (and so dropped) before `conn`: its queue lives on the window's display.
    queue: EventQueue<State>,
    state: State,
    presentation: WpPresentation,
    surface: WlSurface,
    clock: rustix::time::ClockId,
    conn: Connection,
}

/// A Wayland error, as a line.
fn says(what: &str) -> impl Fn(&dyn std::fmt::Display) -> String + '_ {
    move |e| format!("{what}: {e}")
}

impl Wayland {
    /// Binds `wp_presentation` on `display` (a `wl_display*`) for `surface` (a
    /// `wl_surface*`), both the window's, as raw-window-handle gives them.
    ///
    /// The caller keeps the window, and so both objects, alive while this lives
    /// (`Feedback::new` holds the window, and drops this first).
    pub fn open(display: NonNull<c_void>, surface: NonNull<c_void>) -> Result<Wayland, String> {
        #[allow(unsafe_code)]
        // SAFETY: `from_foreign_display` asks that the `wl_display*` stay alive as long as the
        // `Backend` (and its clones) exist. `display` is the window's, from its
        // `HasDisplayHandle`, whose contract is that the handle is valid while the window is.
        // The `Backend` and every clone live in this `Wayland` (the `Connection` and the
        // proxies made from it), and `Feedback` holds this `Wayland` and an `Arc` of that very
        // window, dropping this first (field order): the window, and so the display, outlive it
        // (the argument wgpu's safe `Instance::create_surface` rests on).
        let backend = unsafe { WlBackend::from_foreign_display(display.as_ptr().cast()) };
        let conn = Connection::from_backend(backend);
        #[allow(unsafe_code)]
        // SAFETY: `from_ptr` asks for a valid `wl_proxy*` that stays valid while the id is used
        // (and checks that its interface is `wl_surface`). `surface` is the window's
        // `wl_surface*`, from its `HasWindowHandle`, valid while the window is, on the display
        // above. The id is used only through `self.surface`, dropped with this `Wayland`, before
        // the window that `Feedback` holds.
        let id = unsafe { ObjectId::from_ptr(WlSurface::interface(), surface.as_ptr().cast()) };
        let id = id.map_err(|_| "not a wl_surface".to_string())?;
        let surface = WlSurface::from_id(&conn, id)
            .map_err(|_| "not a wl_surface".to_string())?;
        let mut queue = conn.new_event_queue();
        let qh = queue.handle();
        conn.display().get_registry(&qh, ());
        let mut state = State::default();
        // The globals (the registry binds wp_presentation among them), then its clock.
        queue
            .roundtrip(&mut state)
            .map_err(|e| says("compositor")(&e))?;
        let Some(presentation) = state.presentation.clone() else {
            return Err("no wp_presentation".into());
        };
        queue
            .roundtrip(&mut state)
            .map_err(|e| says("compositor")(&e))?;
        let id = state
            .clock_id
            .ok_or("no presentation clock")?;
        let clock = clock_of(id).ok_or_else(|| {
            format!("unknown clock {id}")
        })?;
        Ok(Wayland {
            queue,
            state,
            presentation,
            surface,
            clock,
            conn,
        })
    }

    /// The events the display has for our queue now, read without blocking.
    fn dispatch(&mut self) -> Result<(), String> {
        match self.conn.flush() {
            Err(WaylandError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            other => other.map_err(|e| says("sending")(&e))?,
        }
        self.queue
            .dispatch_pending(&mut self.state)
            .map_err(|e| says("feedback")(&e))?;
        // Whatever has arrived on the socket (the windowing crate may not have read it yet):
        // libwayland reads without waiting (MSG_DONTWAIT), and queues it where it belongs.
        if let Some(guard) = self.queue.prepare_read() {
            match guard.read() {
                Ok(_) => {}
                Err(WaylandError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(says("reading")(&e)),
            }
        }
        self.queue
            .dispatch_pending(&mut self.state)
            .map(|_| ())
            .map_err(|e| says("feedback")(&e))
    }
}

impl Drop for Wayland {
    fn drop(&mut self) {
        // No more feedback objects; those outstanding are destroyed by the compositor's answer,
        // which, our queue gone, libwayland drops.
        self.presentation.destroy();
        let _ = self.conn.flush();
    }
}

impl Backend for Wayland {
    fn source(&self) -> Source {
        Source::Wayland
    }

    fn before_present(&mut self, frame: u64) -> Result<(), String> {
        let qh = self.queue.handle();
        self.presentation.feedback(&self.surface, &qh, frame);
        Ok(())
    }

    fn after_present(&mut self, _frame: u64, _returned: Instant) -> Result<(), String> {
        Ok(())
    }

    fn poll(&mut self, out: &mut Vec<Presented>) -> Result<(), String> {
        self.dispatch()?;
        if self.state.heard.is_empty() {
            return Ok(());
        }
        let clock: ClockPair = sample(self.clock);
        out.extend(self.state.heard.drain(..).map(|h| presented(h, &clock)));
        Ok(())
    }
}

/// What the compositor said, on `clock`'s `Instant`s.
fn presented(heard: Heard, clock: &ClockPair) -> Presented {
    match heard {
        Heard::Presented {
            frame,
            ns,
            refresh_ns,
        } => Presented {
            frame,
            shown: clock.instant_of(ns),
            refresh: (refresh_ns > 0).then(|| Duration::from_nanos(u64::from(refresh_ns))),
            source: Source::Wayland,
            called: None,
        },
        Heard::Discarded { frame } => Presented {
            frame,
            shown: None,
            refresh: None,
            source: Source::Wayland,
            called: None,
        },
    }
}

impl Dispatch<WlRegistry, ()> for State {
    fn event(
        state: &mut State,
        registry: &WlRegistry,
        event: wl_registry::Event,
        _: &(),
        _: &Connection,
        qh: &QueueHandle<State>,
    ) {
        if let wl_registry::Event::Global {
            name,
            interface,
            version,
        } = event
            && interface == WpPresentation::interface().name
            && state.presentation.is_none()
        {
            state.presentation = Some(registry.bind(name, version.min(VERSION), qh, ()));
        }
    }
}

impl Dispatch<WpPresentation, ()> for State {
    fn event(
        state: &mut State,
        _: &WpPresentation,
        event: wp_presentation::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<State>,
    ) {
        if let wp_presentation::Event::ClockId { clk_id } = event {
            state.clock_id = Some(clk_id);
        }
    }
}

impl Dispatch<WpPresentationFeedback, u64> for State {
    fn event(
        state: &mut State,
        _: &WpPresentationFeedback,
        event: wp_presentation_feedback::Event,
        frame: &u64,
        _: &Connection,
        _: &QueueHandle<State>,
    ) {
        let frame = *frame;
        match event {
            wp_presentation_feedback::Event::Presented {
                tv_sec_hi,
                tv_sec_lo,
                tv_nsec,
                refresh,
                ..
            } => {
                let sec = (u64::from(tv_sec_hi) << 32) | u64::from(tv_sec_lo);
                let ns = sec
                    .saturating_mul(1_000_000_000)
                    .saturating_add(u64::from(tv_nsec));
                state.heard.push(Heard::Presented {
                    frame,
                    ns,
                    refresh_ns: refresh,
                });
            }
            wp_presentation_feedback::Event::Discarded => {
                state.heard.push(Heard::Discarded { frame });
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_presentation_lands_on_its_instant_and_a_discard_is_never_shown() {
        let now = Instant::now();
        let clock = ClockPair {
            clock_ns: 10_000_000_000,
            instant: now,
        };
        let p = presented(
            Heard::Presented {
                frame: 7,
                ns: 9_990_000_000,
                refresh_ns: 16_666_666,
            },
            &clock,
        );
        assert_eq!(p.frame, 7);
        assert_eq!(p.shown, now.checked_sub(Duration::from_millis(10)));
        assert_eq!(p.refresh, Some(Duration::from_nanos(16_666_666)));
        assert_eq!(p.source, Source::Wayland);
        let unknown = presented(
            Heard::Presented {
                frame: 8,
                ns: 10_000_000_000,
                refresh_ns: 0,
            },
            &clock,
        );
        assert_eq!((unknown.shown, unknown.refresh), (Some(now), None));
        let d = presented(Heard::Discarded { frame: 9 }, &clock);
        assert_eq!((d.frame, d.shown, d.source), (9, None, Source::Wayland));
    }
}
