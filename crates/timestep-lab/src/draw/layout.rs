//! Where each lane is drawn: the whole frame for the single view, or a grid of panes for the
//! split view (side by side for two lanes, 2×2 for three or four), under the HUD's bar and
//! above the strip.

use super::pane::LABEL_TYPICAL_CHARS;
use super::text::{advance, line_height};
use super::view::{margin_px, panes_bottom, rope_box};
use super::{View, text_scale};
use crate::rope::{Pin, RopeParams};
use glam::Vec2;

/// The room a layout keeps clear for its pane labels, pixels: the widest label's box, and the
/// height of a pane's labels (the split view's one label; the overlay's stack of them), each
/// measured from the pane's top-left corner. `Default`: the usual label's, at the size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelRoom {
    /// Width, px.
    pub w: u32,
    /// Height, px.
    pub h: u32,
}

impl LabelRoom {
    /// The larger of the two in each direction.
    pub fn max(self, other: LabelRoom) -> LabelRoom {
        LabelRoom {
            w: self.w.max(other.w),
            h: self.h.max(other.h),
        }
    }

    /// Whether this holds `other`.
    pub fn holds(self, other: LabelRoom) -> bool {
        self.w >= other.w && self.h >= other.h
    }
}

/// How far apart the overlay hangs its ropes, as a share of a rope's length: sideways for a
/// rope pinned at one end, downwards for one pinned at both (a sag under the one before).
/// Overlaid exactly, the interpolated rope hid under Unity's at launch, which lags it by at
/// most a tick: apart, every rope shows, and a lag or a jerk shows against its neighbour.
pub const OVERLAY_SPREAD: f32 = 0.5;

/// How far lane `i` of `lanes` is drawn from where its rope is, m: the overlay's spread,
/// centred on the rope's place.
fn spread_offset(params: &RopeParams, i: usize, lanes: usize) -> Vec2 {
    let length = params.particles.saturating_sub(1) as f32 * params.rest_length_m;
    let step = match params.pin {
        Pin::One => Vec2::new(OVERLAY_SPREAD * length, 0.0),
        Pin::Both => Vec2::new(0.0, -OVERLAY_SPREAD * length),
    };
    let step = if step.is_finite() { step } else { Vec2::ZERO };
    step * (i as f32 - (lanes as f32 - 1.0) / 2.0)
}

/// A view of the rope of `params` fitted inside the pixel rectangle `[area_min, area_max]`,
/// its whole drawing included (a pin's support symbol, the beads: see `rope::reach_px`), and
/// the world box widened by `widen` (m, each side).
fn drawn_view(params: &RopeParams, (area_min, area_max): (Vec2, Vec2), widen: Vec2) -> View {
    let (min, max) = rope_box(params);
    let (min, max) = (min - widen, max + widen);
    let fit = |lo: Vec2, hi: Vec2| {
        let hi = hi.max(lo + Vec2::ONE);
        View::fit_in(min, max, lo, hi, 0, 0)
    };
    // The reach grows with the scale: that of the fit without it is the most it can be.
    let (above, around) = super::rope::reach_px(fit(area_min, area_max).scale);
    fit(
        area_min + Vec2::new(around, above),
        area_max - Vec2::splat(around),
    )
}

/// A rectangle of the buffer, pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Area {
    /// Left edge, px from the buffer's left.
    pub x: u32,
    /// Top edge, px from the buffer's top.
    pub y: u32,
    /// Width, px.
    pub w: u32,
    /// Height, px.
    pub h: u32,
}

impl Area {
    /// The whole `width × height` buffer.
    pub fn full(width: u32, height: u32) -> Area {
        Area {
            x: 0,
            y: 0,
            w: width,
            h: height,
        }
    }

    /// Whether the pixel `px` is inside.
    pub fn contains(&self, px: Vec2) -> bool {
        let (x, y) = (self.x as f32, self.y as f32);
        px.x >= x && px.y >= y && px.x < x + self.w as f32 && px.y < y + self.h as f32
    }

    fn min(&self) -> Vec2 {
        Vec2::new(self.x as f32, self.y as f32)
    }

    fn max(&self) -> Vec2 {
        self.min() + Vec2::new(self.w as f32, self.h as f32)
    }
}

/// The most lanes the window shows at once (a 2×2 grid).
pub const MAX_PANES: usize = 4;

/// Each pane's rectangle and the view of its rope.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Whether this is the split view (labelled panes) rather than one rope on the whole frame.
    pub split: bool,
    /// Each pane's rectangle, in pane order.
    pub areas: Vec<Area>,
    /// Each pane's view of its rope (scale and origin), in pane order.
    pub views: Vec<View>,
    /// Each pane's marker track (see [`super::Marker`]), along the bottom of its pane.
    pub tracks: Vec<Area>,
}

impl Layout {
    /// One rope on the whole frame, kept clear of the HUD's column when `beside_hud` and the
    /// window can spare it (see [`View::for_rope`]), and of the bottom `reserve` pixels above
    /// the strip (a lesson's caption); its marker track along the bottom.
    pub fn single(
        params: &RopeParams,
        width: u32,
        height: u32,
        beside_hud: bool,
        reserve: u32,
    ) -> Layout {
        let margin = margin_px(width, height);
        let bottom = panes_bottom(width, height, reserve);
        let th = track_height(height) as f32;
        let rope_bottom = if room_for_track(bottom, height) {
            bottom - th
        } else {
            bottom
        };
        let view = View::for_rope_above(params, width, height, beside_hud, rope_bottom);
        let track = Area {
            x: margin as u32,
            y: (rope_bottom - margin).max(0.0) as u32,
            w: (width as f32 - 2.0 * margin).max(0.0) as u32,
            h: th as u32,
        };
        Layout {
            split: false,
            areas: vec![Area::full(width, height)],
            views: vec![view],
            tracks: vec![track],
        }
    }

    /// `lanes` ropes (1 to [`MAX_PANES`]) in one pane, each in its colour, hung a little
    /// apart (see [`OVERLAY_SPREAD`]) on one grid, with a label and a marker track each,
    /// stacked; placed as the split view's single pane would be. The ropes keep clear of the
    /// labels (`labels`: their stack, see [`LabelRoom`]): beside them where that leaves the
    /// ropes most of the pane's width, else below them.
    pub fn overlay(
        params: &RopeParams,
        (width, height): (u32, u32),
        lanes: usize,
        (hud_bar, reserve): (u32, u32),
        labels: LabelRoom,
    ) -> Layout {
        let lanes = lanes.clamp(1, MAX_PANES);
        let labels = labels.max(overlay_labels(height, lanes));
        let one = LabelRoom::default();
        let mut layout = Layout::split(params, (width, height), 1, (hud_bar, reserve), one);
        let (area, track) = (layout.areas[0], layout.tracks[0]);
        // The tracks stack upwards from the one pane's track; the ropes keep clear of them.
        let stack = (track.h * lanes as u32).min(area.h / 3);
        let row = stack / lanes as u32;
        let top = (track.y + track.h).saturating_sub(row * lanes as u32);
        layout.tracks = (0..lanes as u32)
            .map(|i| Area {
                y: top + i * row,
                h: row,
                ..track
            })
            .collect();
        let inset = Vec2::splat(margin_px(width, height) * 0.5);
        let (labels_w, labels_h) = (labels.w as f32, labels.h as f32);
        let clear = if area.w as f32 - labels_w >= 0.45 * area.w as f32 {
            Vec2::new(labels_w, 0.0)
        } else {
            Vec2::new(0.0, labels_h)
        };
        let rope_min = area.min() + inset + clear;
        let rope_max = Vec2::new(area.max().x - inset.x, top as f32);
        let widen = spread_offset(params, lanes - 1, lanes).abs();
        let view = drawn_view(params, (rope_min, rope_max), widen);
        layout.areas = vec![area; lanes];
        layout.views = (0..lanes)
            .map(|i| {
                let shift = spread_offset(params, i, lanes) * Vec2::new(1.0, -1.0) * view.scale;
                View {
                    origin_px: view.origin_px + shift,
                    width,
                    height,
                    ..view
                }
            })
            .collect();
        layout
    }

    /// `panes` ropes (1 to [`MAX_PANES`]) side by side or in a 2×2 grid, each in its own
    /// labelled pane; the panes keep clear of the strip and the bottom `reserve` pixels above
    /// it (a lesson's caption), and of the HUD's bar across the top, `hud_bar` pixels tall
    /// (0: no bar; see `hud_bar_height`).
    pub fn split(
        params: &RopeParams,
        (width, height): (u32, u32),
        panes: usize,
        (hud_bar, reserve): (u32, u32),
        labels: LabelRoom,
    ) -> Layout {
        let panes = panes.clamp(1, MAX_PANES);
        let (w, h) = (width as f32, height as f32);
        let margin = margin_px(width, height);
        let bottom = panes_bottom(width, height, reserve);
        let bar = hud_bar as f32 + margin * 0.5;
        // Always clear of the HUD's bar, however tall it wraps (the egui HUD wraps to rows
        // left of the panel): panes under it would hide their labels and ropes.
        let top = if hud_bar > 0 { bar } else { margin };
        let left = margin;
        let gap = margin * 0.5;
        // The label's box starts a pixel in from the pane's corner.
        let label_px = label_height(height).max(labels.h) as f32;
        let cell_of = |(cols, rows): (usize, usize)| {
            Vec2::new(
                ((w - margin - left - gap * (cols - 1) as f32) / cols as f32).max(1.0),
                ((bottom - margin - top - gap * (rows - 1) as f32) / rows as f32).max(1.0),
            )
        };
        // Two columns; one row where the grid's panes leave their ropes under an eighth of the
        // height (a short room under a tall bar) and a row leaves them more.
        let rope_room = |c: Vec2| c.x.min(c.y - label_px);
        let grid = (panes.min(2), panes.div_ceil(2));
        let row = rope_room(cell_of((panes, 1)));
        let cramped = rope_room(cell_of(grid)) < h / 8.0;
        let (cols, rows) = if cramped && row > rope_room(cell_of(grid)) {
            (panes, 1)
        } else {
            grid
        };
        let cell = cell_of((cols, rows));
        let mut layout = Layout {
            split: true,
            areas: Vec::with_capacity(panes),
            views: Vec::with_capacity(panes),
            tracks: Vec::with_capacity(panes),
        };
        let th = track_height(height) as f32;
        for i in 0..panes {
            let (c, r) = ((i % cols) as f32, (i / cols) as f32);
            let at = Vec2::new(left + c * (cell.x + gap), top + r * (cell.y + gap)).floor();
            let area = Area {
                x: at.x as u32,
                y: at.y as u32,
                w: cell.x as u32,
                h: cell.y as u32,
            };
            let inset = Vec2::splat(margin * 0.5);
            let rope_min = area.min() + inset + Vec2::new(0.0, label_px);
            // The marker's track along the bottom, where the pane has room for it.
            // The marker's track: at most a quarter of the rope's room, and none under 8 px.
            let th = th.min((cell.y - label_px - 2.0 * inset.y) / 4.0);
            let th = if th >= 8.0 { th.floor() } else { 0.0 };
            let rope_max = (area.max() - inset - Vec2::new(0.0, th)).max(rope_min + Vec2::ONE);
            layout.tracks.push(Area {
                x: (area.min().x + inset.x) as u32,
                y: rope_max.y.max(0.0) as u32,
                w: (cell.x - 2.0 * inset.x).max(0.0) as u32,
                h: th as u32,
            });
            layout.areas.push(area);
            let view = drawn_view(params, (rope_min, rope_max), Vec2::ZERO);
            layout.views.push(View {
                width,
                height,
                ..view
            });
        }
        layout
    }

    /// The pane under the pixel `px`, if any.
    pub fn pane_at(&self, px: Vec2) -> Option<usize> {
        self.areas.iter().position(|a| a.contains(px))
    }
}

/// The height of one lane's marker track (see [`super::Marker`]), pixels.
pub fn track_height(height: u32) -> u32 {
    (height / 18).clamp(8, 44)
}

/// Whether a single pane ending `bottom` pixels down an `height`-tall buffer keeps its
/// marker's track under the rope with 45% of the height left for the rope (a lesson's
/// caption wraps at the usual text scale only while this holds).
pub fn room_for_track(bottom: f32, height: u32) -> bool {
    bottom - track_height(height) as f32 >= 0.45 * height as f32
}

/// The height of a pane's label (three lines of text and padding), pixels.
pub fn label_height(height: u32) -> u32 {
    let s = text_scale(height);
    3 * line_height(s) + 12 * s
}

/// The room the overlay's `lanes` labels usually take: each of typical width, three lines,
/// stacked as drawn (see `pane::LabelBox::row_top`).
fn overlay_labels(height: u32, lanes: usize) -> LabelRoom {
    let s = text_scale(height);
    LabelRoom {
        w: LABEL_TYPICAL_CHARS * advance(s) + 8 * s + 1,
        h: lanes as u32 * (3 * (line_height(s) + 2 * s) + 8 * s) + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::super::hud_bar_height;
    use super::*;

    #[test]
    fn the_overlays_rope_keeps_clear_of_its_stacked_labels() {
        // The room a 1280x800 window leaves beside its panel, and with the panel hidden.
        for w in [924, 1280] {
            let h = 800;
            let params = RopeParams::default();
            let l = Layout::overlay(
                &params,
                (w, h),
                3,
                (hud_bar_height(w, h), 0),
                LabelRoom::default(),
            );
            let area = l.areas[0];
            let labels_right =
                area.x as f32 + (LABEL_TYPICAL_CHARS * advance(text_scale(h))) as f32;
            let labels_bottom = area.y as f32 + 3.0 * label_height(h) as f32;
            let (min, max) = super::super::view::rope_box(&params);
            let (a, b) = (l.views[0].to_screen(min), l.views[0].to_screen(max));
            let (left, top) = (a.x.min(b.x), a.y.min(b.y));
            assert!(
                left >= labels_right || top >= labels_bottom,
                "{w}x{h}: the rope's box starts at ({left}, {top}), the labels end at \
                 ({labels_right}, {labels_bottom})"
            );
        }
    }

    #[test]
    fn four_panes_make_a_two_by_two_grid_that_does_not_overlap_the_hud_or_strip() {
        let (w, h) = (1280, 800);
        let l = Layout::split(
            &RopeParams::default(),
            (w, h),
            4,
            (hud_bar_height(w, h), 0),
            LabelRoom::default(),
        );
        assert_eq!(l.areas.len(), 4);
        let strip_top = h - super::super::strip_height(w, h);
        for (i, a) in l.areas.iter().enumerate() {
            assert!(a.y >= hud_bar_height(w, h), "pane {i} under the HUD: {a:?}");
            assert!(a.w > w / 3, "pane {i} is too narrow: {a:?}");
            assert!(a.y + a.h <= strip_top, "pane {i} over the strip: {a:?}");
            for b in &l.areas[i + 1..] {
                let apart =
                    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(apart, "{a:?} overlaps {b:?}");
            }
        }
        // Top-left, top-right, bottom-left, bottom-right.
        assert!(l.areas[0].x < l.areas[1].x && l.areas[0].y == l.areas[1].y);
        assert!(l.areas[2].y > l.areas[0].y && l.areas[2].x == l.areas[0].x);
        let centre = |a: &Area| Vec2::new((a.x + a.w / 2) as f32, (a.y + a.h / 2) as f32);
        for (i, a) in l.areas.iter().enumerate() {
            assert_eq!(l.pane_at(centre(a)), Some(i));
        }
    }

    #[test]
    fn two_panes_sit_side_by_side() {
        let l = Layout::split(
            &RopeParams::default(),
            (1280, 720),
            2,
            (0, 0),
            LabelRoom::default(),
        );
        assert_eq!(l.areas.len(), 2);
        assert_eq!(l.areas[0].y, l.areas[1].y);
        assert!(l.areas[0].h > l.areas[0].w / 2);
    }
}
