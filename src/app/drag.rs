//! The mouse drag's velocity, so letting go of the rope flings it.
//!
//! Cursor events arrive irregularly (several per frame, or none for a while), so the
//! velocity is not the last two samples' difference (noisy, and stuck at its last value when
//! the cursor stops). It is the displacement over the last [`DragVelocity::WINDOW_NS`] of
//! wall time divided by that window, reading the cursor path as straight lines between
//! samples: steady over jittery events, and zero once the cursor has rested for a window.

use glam::Vec2;
use std::collections::VecDeque;

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
        let v = (end - begin) / (window as f32 * 1e-9);
        if v.is_finite() { v } else { Vec2::ZERO }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

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
