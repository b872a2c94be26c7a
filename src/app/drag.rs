//! The mouse: where it is, which particle it holds, and the drag's velocity, so letting go of
//! the rope flings it.
//!
//! Cursor events arrive irregularly (several per frame, or none for a while), so the
//! velocity is not the last two samples' difference (noisy, and stuck at its last value when
//! the cursor stops). It is the displacement over the last [`DragVelocity::WINDOW_NS`] of
//! wall time divided by that window, reading the cursor path as straight lines between
//! samples: steady over jittery events, and zero once the cursor has rested for a window.

use glam::Vec2;
use std::collections::VecDeque;
use timestep_lab::model::rope::{Grab, Rope};
use timestep_lab::view::draw::View;
use timestep_loop::seconds;

/// How close (in screen pixels) a press must be to a particle to grab it.
pub const GRAB_RADIUS_PX: f32 = 28.0;

/// A particle held by the mouse, and the view it was grabbed in (the cursor's pixels are read
/// through it for as long as it is held, so every rope gets the same target in metres).
#[derive(Clone, Debug)]
struct Held {
    index: usize,
    view: View,
    velocity: DragVelocity,
}

/// The cursor and what it holds.
#[derive(Clone, Debug, Default)]
pub struct Hand {
    cursor_px: Option<Vec2>,
    held: Option<Held>,
}

impl Hand {
    /// The cursor moved to `px` (buffer pixels, which are the window's physical pixels).
    pub fn moved(&mut self, px: Vec2, now_ns: u64) {
        self.cursor_px = Some(px);
        if let Some(held) = &mut self.held {
            held.velocity.push(now_ns, held.view.to_world(px));
        }
    }

    /// The cursor left the window.
    pub fn left(&mut self) {
        self.cursor_px = None;
    }

    pub fn cursor_px(&self) -> Option<Vec2> {
        self.cursor_px
    }

    /// Left button down over `rope` drawn with `view`: grabs the nearest free particle within
    /// [`GRAB_RADIUS_PX`]. Returns whether it did.
    pub fn press(&mut self, rope: &Rope, view: View, now_ns: u64) -> bool {
        let Some(px) = self.cursor_px else {
            return false;
        };
        let world = view.to_world(px);
        let radius_m = GRAB_RADIUS_PX / view.scale.max(f32::MIN_POSITIVE);
        let Some(index) = rope.nearest_free(world, radius_m) else {
            return false;
        };
        let mut velocity = DragVelocity::default();
        velocity.start(now_ns, world);
        self.held = Some(Held {
            index,
            view,
            velocity,
        });
        true
    }

    /// Where the held particle is pulled to now, and how fast it moves.
    pub fn grab(&self, now_ns: u64) -> Option<Grab> {
        let held = self.held.as_ref()?;
        let px = self.cursor_px?;
        Some(Grab {
            index: held.index,
            target: held.view.to_world(px),
            velocity: held.velocity.velocity(now_ns),
        })
    }

    /// Left button up: lets go. Returns the fling to give every rope once (the drag's
    /// velocity, at the cursor, or at `fallback`'s position for the particle if the cursor
    /// has gone).
    pub fn release(&mut self, now_ns: u64, fallback: impl Fn(usize) -> Vec2) -> Option<Grab> {
        let held = self.held.take()?;
        let target = self
            .cursor_px
            .map(|px| held.view.to_world(px))
            .unwrap_or_else(|| fallback(held.index));
        Some(Grab {
            index: held.index,
            target,
            velocity: held.velocity.velocity(now_ns),
        })
    }

    /// The particle held, if any.
    pub fn held(&self) -> Option<usize> {
        self.held.as_ref().map(|h| h.index)
    }

    /// Drops whatever is held, without a fling (the ropes were reset).
    pub fn drop_held(&mut self) {
        self.held = None;
    }
}

#[derive(Clone, Debug, Default)]
pub struct DragVelocity {
    /// (wall time ns, world position m), oldest first.
    samples: VecDeque<(u64, Vec2)>,
}

impl DragVelocity {
    /// How far back the velocity looks: about three frames at 60 Hz.
    pub const WINDOW_NS: u64 = 50_000_000;

    /// Starts a new drag at `at`.
    pub fn start(&mut self, now_ns: u64, at: Vec2) {
        self.samples.clear();
        self.samples.push_back((now_ns, at));
    }

    /// Records the cursor at `at`. Samples older than the window are dropped, except the one
    /// just before it (needed to interpolate the path at the window's start).
    pub fn push(&mut self, now_ns: u64, at: Vec2) {
        if let Some(&(last_t, _)) = self.samples.back()
            && now_ns < last_t
        {
            return; // out of order: ignore rather than invent a backwards path
        }
        self.samples.push_back((now_ns, at));
        let start = now_ns.saturating_sub(Self::WINDOW_NS);
        while self.samples.len() > 2 && self.samples[1].0 <= start {
            self.samples.pop_front();
        }
    }

    /// Where the cursor was at `t`, on straight lines between samples (held before the first
    /// and after the last).
    fn position_at(&self, t: u64) -> Option<Vec2> {
        let &(first_t, first) = self.samples.front()?;
        if t <= first_t {
            return Some(first);
        }
        for pair in self.samples.iter().zip(self.samples.iter().skip(1)) {
            let (&(t0, p0), &(t1, p1)) = pair;
            if t <= t1 {
                let span = (t1 - t0).max(1) as f32;
                return Some(p0.lerp(p1, (t - t0) as f32 / span));
            }
        }
        self.samples.back().map(|&(_, p)| p)
    }

    /// World velocity in m/s over the last window ending at `now_ns`.
    pub fn velocity(&self, now_ns: u64) -> Vec2 {
        let window = Self::WINDOW_NS;
        let (Some(end), Some(begin)) = (
            self.position_at(now_ns),
            self.position_at(now_ns.saturating_sub(window)),
        ) else {
            return Vec2::ZERO;
        };
        let v = (end - begin) / seconds(window) as f32;
        if v.is_finite() { v } else { Vec2::ZERO }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use timestep_loop::NS_PER_MS as MS;

    fn close(a: Vec2, b: Vec2) -> bool {
        (a - b).length() < 1e-3
    }

    #[test]
    fn a_steady_drag_gives_its_speed() {
        let mut d = DragVelocity::default();
        d.start(0, Vec2::ZERO);
        // 2 m/s to the right, one event every 7 ms.
        for i in 1..=20u64 {
            let t = i * 7 * MS;
            d.push(t, Vec2::new(2.0 * t as f32 * 1e-9, 0.0));
        }
        assert!(
            close(d.velocity(140 * MS), Vec2::new(2.0, 0.0)),
            "{}",
            d.velocity(140 * MS)
        );
    }

    #[test]
    fn a_cursor_at_rest_for_a_window_has_no_velocity() {
        let mut d = DragVelocity::default();
        d.start(0, Vec2::ZERO);
        d.push(10 * MS, Vec2::new(0.1, 0.0));
        d.push(20 * MS, Vec2::new(0.2, 0.0));
        assert!(d.velocity(20 * MS).x > 0.0);
        assert_eq!(d.velocity(20 * MS + DragVelocity::WINDOW_NS), Vec2::ZERO);
    }

    #[test]
    fn a_fresh_grab_without_motion_is_still() {
        let mut d = DragVelocity::default();
        assert_eq!(d.velocity(5 * MS), Vec2::ZERO);
        d.start(5 * MS, Vec2::new(1.0, 1.0));
        assert_eq!(d.velocity(5 * MS), Vec2::ZERO);
        assert_eq!(d.velocity(90 * MS), Vec2::ZERO);
    }

    #[test]
    fn a_flick_within_the_window_is_averaged_over_it() {
        let mut d = DragVelocity::default();
        d.start(0, Vec2::ZERO);
        // At rest until 100 ms, then 0.1 m up in the 10 ms to 110 ms.
        d.push(100 * MS, Vec2::ZERO);
        d.push(110 * MS, Vec2::new(0.0, 0.1));
        // Window 60..110 ms: moved 0.1 m in 50 ms.
        assert!(
            close(d.velocity(110 * MS), Vec2::new(0.0, 2.0)),
            "{}",
            d.velocity(110 * MS)
        );
    }

    #[test]
    fn old_samples_are_dropped() {
        let mut d = DragVelocity::default();
        d.start(0, Vec2::ZERO);
        for i in 1..=1000u64 {
            d.push(i * MS, Vec2::new(i as f32, 0.0));
        }
        assert!(d.samples.len() <= 52, "{}", d.samples.len());
        // Out-of-order samples are ignored.
        d.push(3 * MS, Vec2::splat(9.0));
        assert!(close(d.velocity(1000 * MS), Vec2::new(1000.0, 0.0)));
    }
}
