//! Where each lane is drawn: the whole frame for the single view, or a grid of panes for the
//! split view (side by side for two lanes, 2×2 for three or four), under the HUD's bar and
//! above the strip.

use super::pane::LABEL_TYPICAL_CHARS;
use super::text::{advance, line_height};
use super::view::{margin_px, panes_bottom};
use super::{View, text_scale};
use crate::rope::RopeParams;
use glam::Vec2;

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

    /// `lanes` ropes (1 to [`MAX_PANES`]) drawn over each other in one pane, each in its
    /// colour, with a label and a marker track each, stacked; placed as the split view's
    /// single pane would be.
    pub fn overlay(
        params: &RopeParams,
        width: u32,
        height: u32,
        lanes: usize,
        hud_bar: u32,
        reserve: u32,
    ) -> Layout {
        let lanes = lanes.clamp(1, MAX_PANES);
        let mut layout = Layout::split(params, width, height, 1, hud_bar, reserve);
        let (area, one) = (layout.areas[0], layout.tracks[0]);
        // The tracks stack upwards from the one pane's track; the rope keeps clear of them.
        let stack = (one.h * lanes as u32).min(area.h / 3);
        let row = stack / lanes as u32;
        let top = (one.y + one.h).saturating_sub(row * lanes as u32);
        layout.tracks = (0..lanes as u32)
            .map(|i| Area {
                y: top + i * row,
                h: row,
                ..one
            })
            .collect();
        let inset = Vec2::splat(margin_px(width, height) * 0.5);
        // The labels stack down the pane's left: the rope keeps beside them where that leaves
        // it most of the pane's width, else below them.
        let s = text_scale(height);
        let labels_w = (LABEL_TYPICAL_CHARS * advance(s) + 8 * s) as f32;
        let labels_h = (lanes as u32 * label_height(height)) as f32;
        let clear = if area.w as f32 - labels_w >= 0.45 * area.w as f32 {
            Vec2::new(labels_w, 0.0)
        } else {
            Vec2::new(0.0, labels_h)
        };
        let rope_min = area.min() + inset + clear;
        let rope_max = Vec2::new(area.max().x - inset.x, top as f32).max(rope_min + Vec2::ONE);
        let view = View::for_rope_in(params, rope_min, rope_max, width, height);
        layout.areas = vec![area; lanes];
        layout.views = vec![view; lanes];
        layout
    }

    /// `panes` ropes (1 to [`MAX_PANES`]) side by side or in a 2×2 grid, each in its own
    /// labelled pane; the panes keep clear of the strip and the bottom `reserve` pixels above
    /// it (a lesson's caption), and of the HUD's bar across the top, `hud_bar` pixels tall
    /// (0: no bar; see `hud_bar_height`).
    pub fn split(
        params: &RopeParams,
        width: u32,
        height: u32,
        panes: usize,
        hud_bar: u32,
        reserve: u32,
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
        let label_px = label_height(height) as f32;
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
            layout
                .views
                .push(View::for_rope_in(params, rope_min, rope_max, width, height));
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
            let l = Layout::overlay(&params, w, h, 3, hud_bar_height(w, h), 0);
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
        let l = Layout::split(&RopeParams::default(), w, h, 4, hud_bar_height(w, h), 0);
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
        let l = Layout::split(&RopeParams::default(), 1280, 720, 2, 0, 0);
        assert_eq!(l.areas.len(), 2);
        assert_eq!(l.areas[0].y, l.areas[1].y);
        assert!(l.areas[0].h > l.areas[0].w / 2);
    }
}
