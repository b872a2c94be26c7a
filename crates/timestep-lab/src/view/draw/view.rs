//! World metres to buffer pixels.

use crate::model::lane::Lane;
use crate::model::rope::{Pin, RopeParams};
use glam::Vec2;

/// Maps world metres (y up, particle 0 at the origin) to buffer pixels (y down), with one
/// uniform scale so the rope keeps its proportions; the world box is centred (letterboxed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Pixels per metre.
    pub scale: f32,
    /// Pixel position of the world origin.
    pub origin_px: Vec2,
    /// The buffer's width, px.
    pub width: u32,
    /// The buffer's height, px.
    pub height: u32,
}

impl View {
    /// Fits the world box `[min, max]` into `width × height` pixels with a uniform scale.
    #[cfg(test)]
    pub fn fit(min: Vec2, max: Vec2, width: u32, height: u32) -> View {
        let screen = Vec2::new(width as f32, height as f32);
        View::fit_in(min, max, Vec2::ZERO, screen, width, height)
    }

    /// Fits the world box `[min, max]` into the pixel rectangle `[area_min, area_max]` of a
    /// `width × height` buffer, with a uniform scale, centred in that rectangle.
    pub fn fit_in(
        min: Vec2,
        max: Vec2,
        area_min: Vec2,
        area_max: Vec2,
        width: u32,
        height: u32,
    ) -> View {
        let size = (max - min).max(Vec2::splat(1e-6));
        let area = (area_max - area_min).max(Vec2::ONE);
        let scale = (area.x / size.x).min(area.y / size.y);
        let scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        let centre_world = (min + max) * 0.5;
        let centre_px = (area_min + area_max) * 0.5;
        let origin_px = centre_px - Vec2::new(centre_world.x, -centre_world.y) * scale;
        View {
            scale,
            origin_px,
            width,
            height,
        }
    }

    /// A view that holds every place the rope described by `params` reaches while hanging and
    /// swinging, as large as fits, above the frame strip (see [`super::strip_height`]) with a
    /// small margin.
    ///
    /// The reach is estimated from the physics: hanging from one end, spring `j` (counted from
    /// the free end) carries the weight of `j` particles, so the rope's static stretch is
    /// `m·g/k · n(n−1)/2`. A swing from the horizontal start roughly triples the tension at
    /// the bottom; allowing 2.5× the static stretch matches simulated swings from 2 to 100
    /// particles. Longer ropes stretch far more (the stretch grows as n²; with the default
    /// springs one of 200 overstretches and counts as exploded), so the allowance is capped
    /// at 4 lengths, keeping a huge rope large enough to see. With both ends pinned the sag is
    /// that of a rope of the stretched length hung between the pins (a V at worst), and never less than half the length, since a
    /// rope dropped from straight overshoots its resting sag.
    ///
    /// The HUD's column on the left is kept clear too when the window is wide enough to spare
    /// it (the rope keeps at least 55 % of the width); see [`View::for_rope_without_hud`] for
    /// when the HUD is hidden.
    pub fn for_rope(params: &RopeParams, width: u32, height: u32) -> View {
        View::rope_layout(params, width, height, true)
    }

    /// As [`View::for_rope`], using the whole width: for when the HUD is hidden.
    pub fn for_rope_without_hud(params: &RopeParams, width: u32, height: u32) -> View {
        View::rope_layout(params, width, height, false)
    }

    fn rope_layout(params: &RopeParams, width: u32, height: u32, beside_hud: bool) -> View {
        let bottom = panes_bottom(width, height, 0, true);
        let top = margin_px(width, height);
        View::for_rope_between(params, width, height, beside_hud, (top, bottom))
    }

    /// As [`View::for_rope`] (or [`View::for_rope_without_hud`] unless `beside_hud`), with
    /// the rope kept between `top` and `bottom` pixels (margins included at the bottom).
    pub fn for_rope_between(
        params: &RopeParams,
        width: u32,
        height: u32,
        beside_hud: bool,
        (top, bottom): (f32, f32),
    ) -> View {
        let w = width as f32;
        let margin = margin_px(width, height);
        let hud = super::hud_column_width(height) as f32;
        let left = if beside_hud && w - hud - 2.0 * margin >= 0.55 * w {
            hud + margin
        } else {
            margin
        };
        let area_min = Vec2::new(left, top);
        let area_max = Vec2::new(w - margin, bottom - margin).max(area_min + Vec2::ONE);
        View::for_rope_in(params, area_min, area_max, width, height)
    }

    /// A view that holds the rope described by `params` (see [`View::for_rope`]) inside the
    /// pixel rectangle `[area_min, area_max]` of a `width × height` buffer.
    pub fn for_rope_in(
        params: &RopeParams,
        area_min: Vec2,
        area_max: Vec2,
        width: u32,
        height: u32,
    ) -> View {
        let (min, max) = rope_box(params);
        View::fit_in(min, max, area_min, area_max, width, height)
    }

    /// The pixel at which the world point `p` (m, y up) is drawn (y down).
    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        self.origin_px + Vec2::new(p.x, -p.y) * self.scale
    }

    /// The world point, m (y up), at pixel `px` (y down): the inverse of [`View::to_screen`].
    pub fn to_world(&self, px: Vec2) -> Vec2 {
        let d = (px - self.origin_px) / self.scale;
        Vec2::new(d.x, -d.y)
    }
}

/// The window's size when it opens, in pixels (before any scaling by the OS).
pub const DEFAULT_SIZE: (u32, u32) = (1280, 800);

/// Pixels per metre of the window's default single view of a rope of `params`: the scale
/// judder is measured in.
pub fn default_px_per_m(params: &RopeParams) -> f32 {
    View::for_rope(params, DEFAULT_SIZE.0, DEFAULT_SIZE.1).scale
}

/// Has `lane` measure the judder of `params`' drive in pixels of the window's default view of
/// that rope: the one scale every host reports judder in.
pub fn judge_as_drawn(lane: &mut Lane, params: &RopeParams) {
    lane.judge_drive(params.drive, default_px_per_m(params));
}

/// The margin kept around the rope (and between panes), pixels.
pub(super) fn margin_px(width: u32, height: u32) -> f32 {
    (0.03 * (width.min(height) as f32)).clamp(4.0, 24.0)
}

/// The bottom of the panes, pixels: above the strip where it is shown (unless that would leave
/// too little room), and `reserve` pixels higher still (a lesson's caption) where at least
/// half the height is left.
pub(super) fn panes_bottom(width: u32, height: u32, reserve: u32, strip: bool) -> f32 {
    let h = height as f32;
    let strip = match strip {
        true => super::strip_height(width, height) as f32,
        false => 0.0,
    };
    let bottom = if h - strip >= 0.6 * h { h - strip } else { h };
    let reserve = reserve as f32;
    if bottom - reserve >= 0.5 * h {
        bottom - reserve
    } else {
        bottom
    }
}

/// The world box, metres, that holds every place the rope reaches (see [`View::for_rope`]).
pub(super) fn rope_box(params: &RopeParams) -> (Vec2, Vec2) {
    // A driven pin takes the rope with it: the box widens by how far it goes (and a circle
    // rises half that).
    let (min, max) = still_rope_box(params);
    let reach = params.drive.reach_m();
    (
        min - Vec2::new(reach, 0.0),
        max + Vec2::new(reach, 0.5 * reach),
    )
}

/// The box of a rope whose pin stays put.
fn still_rope_box(params: &RopeParams) -> (Vec2, Vec2) {
    let rest = if params.rest_length_m.is_finite() && params.rest_length_m > 0.0 {
        params.rest_length_m
    } else {
        1.0
    };
    let length = params.particles.saturating_sub(1).max(1) as f32 * rest;
    let n = params.particles.max(2) as f32;
    let sag_per_link =
        params.particle_mass_kg * params.gravity_m_per_s2.abs() / params.stiffness_n_per_m;
    let sag_per_link = if sag_per_link.is_finite() {
        sag_per_link.max(0.0)
    } else {
        0.0
    };
    let static_stretch = sag_per_link * n * (n - 1.0) * 0.5;
    match params.pin {
        Pin::One => {
            let down = (length + (2.5 * static_stretch).min(4.0 * length)) * 1.08;
            let side = 1.05 * length.max(0.45 * down);
            (Vec2::new(-side, -down), Vec2::new(side, 0.06 * down))
        }
        Pin::Both => {
            let span = 0.8 * length;
            // Both pins share the weight: about half the one-pin stretch.
            let stretched = length + (1.5 * static_stretch).min(4.0 * length);
            let v_depth = ((stretched * 0.5).powi(2) - (span * 0.5).powi(2))
                .max(0.0)
                .sqrt();
            let depth = (1.15 * v_depth).max(0.5 * length);
            let side = 0.12 * length;
            (
                Vec2::new(-side, -depth),
                Vec2::new(span + side, 0.15 * depth),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rope::{Previous, Rope};

    #[test]
    fn to_world_undoes_to_screen() {
        let v = View::fit(Vec2::new(-3.0, -4.0), Vec2::new(3.0, 1.0), 1280, 720);
        for p in [Vec2::ZERO, Vec2::new(1.5, -2.25), Vec2::new(-3.0, 1.0)] {
            assert!((v.to_world(v.to_screen(p)) - p).length() < 1e-4, "{p}");
        }
    }

    #[test]
    fn the_view_keeps_the_aspect_with_one_scale_for_both_axes() {
        let v = View::fit(Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0), 800, 800);
        let right = v.to_screen(Vec2::new(1.0, 0.0)) - v.to_screen(Vec2::ZERO);
        let up = v.to_screen(Vec2::new(0.0, 1.0)) - v.to_screen(Vec2::ZERO);
        assert_eq!(right.x, -up.y);
        assert_eq!((right.y, up.x), (0.0, 0.0));
        // The wider box fills the width and is centred vertically.
        assert_eq!(v.scale, 400.0);
        assert_eq!(v.to_screen(Vec2::new(1.0, 0.5)), Vec2::new(400.0, 400.0));
    }

    #[test]
    fn y_points_up_in_the_world_and_down_on_screen() {
        let v = View::fit(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0), 100, 100);
        assert!(v.to_screen(Vec2::new(0.0, 1.0)).y < v.to_screen(Vec2::ZERO).y);
    }

    #[test]
    fn a_degenerate_box_or_buffer_still_gives_a_finite_view() {
        let v = View::fit(Vec2::ZERO, Vec2::ZERO, 0, 0);
        assert!(v.scale.is_finite() && v.origin_px.is_finite());
        let v = View::for_rope(
            &RopeParams {
                particles: 1,
                ..Default::default()
            },
            0,
            0,
        );
        assert!(v.scale.is_finite() && v.origin_px.is_finite());
    }

    /// Steps the rope for `seconds` and checks that every particle stays on screen and
    /// above the strip.
    fn stays_in_view(params: RopeParams, seconds: f32) {
        let (w, h) = (1280, 720);
        let view = View::for_rope(&params, w, h);
        let floor = h as f32 - super::super::strip_height(w, h) as f32;
        let mut rope = Rope::new(params);
        let check = |rope: &Rope| {
            for p in rope.positions() {
                let s = view.to_screen(p);
                assert!(
                    s.x >= 0.0 && s.x <= w as f32 && s.y >= 0.0 && s.y <= floor,
                    "{p} at {s}"
                );
            }
        };
        for _ in 0..(seconds * 1000.0) as usize {
            rope.step(0.001, Previous::Save);
            check(&rope);
        }
        assert!(!rope.exploded());
    }

    #[test]
    fn the_default_rope_stays_in_view_while_it_swings() {
        stays_in_view(RopeParams::default(), 12.0);
    }

    #[test]
    fn a_rope_pinned_at_both_ends_stays_in_view_while_it_sags() {
        stays_in_view(
            RopeParams {
                pin: Pin::Both,
                ..Default::default()
            },
            8.0,
        );
    }

    #[test]
    fn a_long_stretchy_rope_stays_in_view() {
        stays_in_view(
            RopeParams {
                particles: 100,
                ..Default::default()
            },
            10.0,
        );
        stays_in_view(
            RopeParams {
                particles: 100,
                pin: Pin::Both,
                ..Default::default()
            },
            10.0,
        );
        stays_in_view(
            RopeParams {
                particles: 3,
                pin: Pin::Both,
                ..Default::default()
            },
            5.0,
        );
        stays_in_view(
            RopeParams {
                particles: 2,
                ..Default::default()
            },
            5.0,
        );
    }

    #[test]
    fn the_default_rope_fills_most_of_the_height_above_the_strip() {
        let (w, h) = (1280, 720);
        let view = View::for_rope(&RopeParams::default(), w, h);
        let p = RopeParams::default();
        let length = (p.particles - 1) as f32 * p.rest_length_m;
        let free = h as f32 - super::super::strip_height(w, h) as f32;
        assert!(
            length * view.scale > 0.55 * free,
            "{} px",
            length * view.scale
        );
    }
}

#[cfg(test)]
mod hud_layout_tests {
    use super::*;
    use crate::model::rope::Pin;

    #[test]
    fn with_room_to_spare_the_rope_stays_clear_of_the_hud_column() {
        let (w, h) = (1280, 800);
        let hud = crate::view::draw::hud_column_width(h) as f32;
        for pin in [Pin::One, Pin::Both] {
            let params = RopeParams {
                pin,
                ..RopeParams::default()
            };
            let length = (params.particles - 1) as f32 * params.rest_length_m;
            // One pin: the pin, and the far end of a swing out to the left.
            // Both pins: the two pins.
            let points = match pin {
                Pin::One => [Vec2::ZERO, Vec2::new(-length, 0.0)],
                Pin::Both => [Vec2::ZERO, Vec2::new(0.8 * length, 0.0)],
            };
            let view = View::for_rope(&params, w, h);
            for p in points {
                let x = view.to_screen(p).x;
                assert!(
                    x > hud,
                    "{pin:?}: {p} drawn at x = {x}, under the HUD (< {hud})"
                );
            }
            // Hidden HUD: the whole width, so the rope is drawn no smaller, and larger where
            // the width is what bounds it.
            let full = View::for_rope_without_hud(&params, w, h);
            assert!(
                full.scale >= view.scale,
                "{pin:?}: {} vs {}",
                full.scale,
                view.scale
            );
            let (beside, whole) = (
                View::for_rope(&params, 1000, h),
                View::for_rope_without_hud(&params, 1000, h),
            );
            assert!(
                whole.scale > beside.scale,
                "{pin:?} at 1000 px: {} vs {}",
                whole.scale,
                beside.scale
            );
        }
    }

    #[test]
    fn a_narrow_window_keeps_the_whole_width_rather_than_a_sliver() {
        let params = RopeParams::default();
        let (w, h) = (700, 600);
        assert_eq!(
            View::for_rope(&params, w, h),
            View::for_rope_without_hud(&params, w, h)
        );
    }
}
