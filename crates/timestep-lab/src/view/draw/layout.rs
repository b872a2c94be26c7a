//! Where each lane is drawn: the whole frame for the single view, a grid of panes for the
//! split view (side by side for two lanes; for three or four a 2×2 grid or a row, whichever
//! draws the ropes larger), or one pane for the overlay; under the HUD's bar and above the
//! strip. Every pane label has a slot that its rope keeps clear of.

use super::pane::label_box_height;
use super::text::{advance, line_height};
use super::view::{margin_px, panes_bottom, rope_box};
use super::{View, text_scale};
use crate::model::rope::{Pin, RopeParams};
use glam::Vec2;

/// What the panes keep clear of, pixels: the HUD's bar across the top (0: none), the band
/// above the strip a lesson's caption and the key hint take, and the strip along the bottom,
/// where it is shown (`H` hides it with the HUD). A `(bar, reserve)` pair has the strip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bands {
    /// The HUD bar's height (0: none).
    pub bar: u32,
    /// The caption's band above the strip.
    pub reserve: u32,
    /// Whether the frame-time strip is shown.
    pub strip: bool,
}

impl From<(u32, u32)> for Bands {
    fn from((bar, reserve): (u32, u32)) -> Bands {
        Bands {
            bar,
            reserve,
            strip: true,
        }
    }
}

/// The most share of a pane's height its label may take (the split view's; the rest is the
/// rope's), and the most the overlay's labels may take together.
const LABEL_SHARE: f32 = 0.4;
const STACK_SHARE: f32 = 0.75;
/// The lines each of the overlay's labels has room for (its three, a long loop line wrapped
/// once).
const STACK_LINES: u32 = 4;
/// The characters the overlay's labels are wrapped at when they stack down the pane's left.
const STACK_CHARS: u32 = 32;

/// How much larger a row of panes must draw the ropes than a full 2×2 grid to be chosen over
/// it: a grid's panes are wider, so their labels wrap less.
const ROW_GAIN: f32 = 1.5;

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
///
/// The box already holds some room above the pins (at their highest: a circling pin rises);
/// the symbol takes only what it lacks. That is found in two fits: the first keeps the
/// symbol's whole height clear (the most it can need), the second what the first's scale
/// says is lacking, which is no more at the second's larger scale (the box's room grows with
/// the scale faster than the symbol does).
fn drawn_view(params: &RopeParams, (area_min, area_max): (Vec2, Vec2), widen: Vec2) -> View {
    let (min, max) = rope_box(params);
    let (min, max) = (min - widen, max + widen);
    let fit = |above: f32, around: f32| {
        let lo = area_min + Vec2::new(around, above);
        let hi = (area_max - Vec2::splat(around)).max(lo + Vec2::ONE);
        View::fit_in(min, max, lo, hi, 0, 0)
    };
    let both = params.pin == Pin::Both;
    // The reach grows with the scale: that of the fit without it is the most it can be.
    let (above, around) = super::rope::reach_px(fit(0.0, 0.0).scale, both);
    let first = fit(above, around);
    // Above the highest pin (the overlay's spread raises one by `widen.y`).
    let room_m = max.y - widen.y - params.drive.rise_m();
    let lacking = (above - room_m * first.scale).max(0.0);
    fit(lacking, around)
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
    /// Where each pane's label goes: its box starts at the slot's corner, wraps to its
    /// width and keeps to its height (empty: no label).
    pub slots: Vec<Area>,
}

impl Layout {
    /// One rope on the whole frame, kept clear of the HUD's column when `beside_hud` and the
    /// window can spare it (see [`View::for_rope`]), and of the bottom `reserve` pixels above
    /// the strip (a lesson's caption); its marker track along the bottom.
    pub fn single(
        params: &RopeParams,
        (width, height): (u32, u32),
        beside_hud: bool,
        bands: impl Into<Bands>,
    ) -> Layout {
        let bands = bands.into();
        let margin = margin_px(width, height);
        let bottom = panes_bottom(width, height, bands.reserve, bands.strip);
        // Under the HUD's bar, where it is one (a short window's one lane).
        let top = match bands.bar {
            0 => margin,
            bar => bar as f32 + margin * 0.5,
        };
        let th = track_height(height) as f32;
        let rope_bottom = if room_for_track(bottom, height) {
            bottom - th
        } else {
            bottom
        };
        let beside = beside_hud && bands.bar == 0;
        let view = View::for_rope_between(params, width, height, beside, (top, rope_bottom));
        let track = Area {
            x: margin as u32,
            y: (rope_bottom - margin).max(0.0) as u32,
            w: (width as f32 - 2.0 * margin).max(0.0) as u32,
            h: th as u32,
        };
        // The pane ends above the strip: an exploded rope is clipped to it, not drawn over
        // the strip and the hint.
        let area = Area {
            h: (bottom as u32).min(height),
            ..Area::full(width, height)
        };
        Layout {
            split: false,
            areas: vec![area],
            views: vec![view],
            tracks: vec![track],
            slots: vec![Area::default()],
        }
    }

    /// `lanes` ropes (1 to [`MAX_PANES`]) in one pane, each in its colour, hung a little
    /// apart (see [`OVERLAY_SPREAD`]) on one grid, with a label and a marker track each;
    /// placed as the split view's single pane would be. The labels go in a row across the
    /// pane's top (the ropes under them, in the same order) or in a column down its left (the
    /// ropes beside them), wherever the ropes are drawn the larger.
    pub fn overlay(
        params: &RopeParams,
        (width, height): (u32, u32),
        lanes: usize,
        bands: impl Into<Bands>,
    ) -> Layout {
        let bands = bands.into();
        let lanes = lanes.clamp(1, MAX_PANES);
        let mut layout = Layout::split(params, (width, height), 1, bands, 0);
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
        let rope_max = Vec2::new(area.max().x - inset.x, top as f32);
        let widen = spread_offset(params, lanes - 1, lanes).abs();
        let place = |slots: Vec<Area>| {
            // The ropes clear of every slot: below a row of them, beside a column.
            let right = slots.iter().map(|a| a.x + a.w).max().unwrap_or(area.x);
            let bottom = slots.iter().map(|a| a.y + a.h).max().unwrap_or(area.y);
            let clear = match slots.len() > 1 && slots[0].y == slots[1].y {
                true => Vec2::new(0.0, (bottom - area.y) as f32),
                false => Vec2::new((right - area.x) as f32, 0.0),
            };
            let view = drawn_view(params, (area.min() + inset + clear, rope_max), widen);
            (view, slots)
        };
        // The labels keep above the marker tracks (a label over lane 1's trail of dots hid
        // what the caption says to watch).
        let room = (STACK_SHARE * area.h as f32).min(top.saturating_sub(area.y + 2) as f32);
        let (view, slots) = [true, false]
            .map(|across| place(overlay_slots(area, (height, room as u32), lanes, across)))
            .into_iter()
            .max_by(|a, b| a.0.scale.total_cmp(&b.0.scale))
            .unwrap_or_else(|| place(Vec::new()));
        layout.areas = vec![area; lanes];
        layout.slots = slots;
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
    /// labelled pane: side by side where that draws the ropes 1.5 times as large as
    /// a full grid (any larger than a grid with an empty cell);
    /// the panes keep clear of the strip and the bottom `reserve` pixels above it (a lesson's
    /// caption), and of the HUD's bar across the top, `hud_bar` pixels tall (0: no bar; see
    /// `hud_bar_height`), and each rope of its label, `label_px` tall where the labels drawn
    /// need more than the usual three lines.
    pub fn split(
        params: &RopeParams,
        size: (u32, u32),
        panes: usize,
        bands: impl Into<Bands>,
        label_px: u32,
    ) -> Layout {
        let bands = bands.into();
        let panes = panes.clamp(1, MAX_PANES);
        let grid = (panes.min(2), panes.div_ceil(2));
        let layout = |shape| Layout::grid(params, size, panes, bands, label_px, shape);
        let (square, row) = (layout(grid), layout((panes, 1)));
        // A grid with a cell left empty wastes it: a row is chosen wherever it is larger.
        let gain = if panes % 2 == 1 { 1.0 } else { ROW_GAIN };
        match row.views[0].scale > gain * square.views[0].scale {
            true => row,
            false => square,
        }
    }

    /// `panes` ropes in `cols` × `rows` panes, as [`Layout::split`] lays them out.
    pub(super) fn grid(
        params: &RopeParams,
        (width, height): (u32, u32),
        panes: usize,
        bands: impl Into<Bands>,
        label_px: u32,
        (cols, rows): (usize, usize),
    ) -> Layout {
        let Bands {
            bar: hud_bar,
            reserve,
            strip,
        } = bands.into();
        let w = width as f32;
        let margin = margin_px(width, height);
        let bottom = panes_bottom(width, height, reserve, strip);
        // Always clear of the HUD's bar, however tall it wraps (the egui HUD wraps to rows
        // left of the panel): panes under it would hide their labels and ropes.
        let top = if hud_bar > 0 {
            hud_bar as f32 + margin * 0.5
        } else {
            margin
        };
        let (left, gap) = (margin, margin * 0.5);
        let cell = Vec2::new(
            ((w - margin - left - gap * (cols - 1) as f32) / cols as f32).max(1.0),
            ((bottom - margin - top - gap * (rows - 1) as f32) / rows as f32).max(1.0),
        );
        // The label's box starts a pixel in from the pane's corner, and keeps to its share.
        let label_px = (label_height(height).max(label_px) as f32).min(LABEL_SHARE * cell.y);
        let mut layout = Layout {
            split: true,
            areas: Vec::with_capacity(panes),
            views: Vec::with_capacity(panes),
            tracks: Vec::with_capacity(panes),
            slots: Vec::with_capacity(panes),
        };
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
            layout.push_pane(params, area, cell, inset, label_px, (width, height));
        }
        layout
    }

    /// Adds the pane `area` (a grid's `cell`, unrounded) of a buffer of `size`: its rope's
    /// view inside `inset` under a label of `label_px`, its marker's track at the bottom, and
    /// its label's slot.
    fn push_pane(
        &mut self,
        params: &RopeParams,
        area: Area,
        cell: Vec2,
        inset: Vec2,
        label_px: f32,
        (width, height): (u32, u32),
    ) {
        let rope_min = area.min() + inset + Vec2::new(0.0, label_px);
        // The marker's track: at most a quarter of the rope's room, and none under 8 px.
        let th = (track_height(height) as f32).min((cell.y - label_px - 2.0 * inset.y) / 4.0);
        let th = if th >= 8.0 { th.floor() } else { 0.0 };
        let rope_max = (area.max() - inset - Vec2::new(0.0, th)).max(rope_min + Vec2::ONE);
        self.tracks.push(Area {
            x: (area.min().x + inset.x) as u32,
            y: rope_max.y.max(0.0) as u32,
            w: (cell.x - 2.0 * inset.x).max(0.0) as u32,
            h: th as u32,
        });
        self.slots.push(Area {
            x: area.x + 1,
            y: area.y + 1,
            w: area.w.saturating_sub(2),
            h: (label_px as u32).saturating_sub(1),
        });
        self.areas.push(area);
        let view = drawn_view(params, (rope_min, rope_max), Vec2::ZERO);
        self.views.push(View {
            width,
            height,
            ..view
        });
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

/// The overlay's label slots in `area` (a buffer `height` pixels tall) for `lanes` labels:
/// `across` the pane's top in lane order, else down its left; each [`STACK_LINES`] lines
/// tall, together at most `room` pixels from the pane's top.
fn overlay_slots(area: Area, (height, room): (u32, u32), lanes: usize, across: bool) -> Vec<Area> {
    let n = lanes as u32;
    let full = label_box_height(STACK_LINES, height);
    let gap = 2 * text_scale(height);
    let (w, h) = match across {
        true => (area.w.saturating_sub(2) / n, full.min(room)),
        false => {
            let column = STACK_CHARS * advance(text_scale(height)) + 8 * text_scale(height);
            let each = (room / n).saturating_sub(gap);
            (column.min(area.w.saturating_sub(2)), full.min(each))
        }
    };
    (0..n)
        .map(|i| match across {
            true => Area {
                x: area.x + 1 + i * w,
                y: area.y + 1,
                w: w.saturating_sub(gap),
                h,
            },
            false => Area {
                x: area.x + 1,
                y: area.y + 1 + i * (h + gap),
                w,
                h,
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::hud_bar_height;
    use super::*;

    #[test]
    fn the_overlays_ropes_keep_clear_of_its_label_slots() {
        // The room a 1280x800 window leaves beside its panel, and with the panel hidden, and
        // a short window's.
        for (w, h) in [(924, 800), (1280, 800), (864, 540)] {
            let params = RopeParams::default();
            let l = Layout::overlay(&params, (w, h), 3, (hud_bar_height(w, h), 0));
            let (min, max) = super::super::view::rope_box(&params);
            for (i, view) in l.views.iter().enumerate() {
                let (a, b) = (view.to_screen(min), view.to_screen(max));
                let (left, top) = (a.x.min(b.x), a.y.min(b.y));
                for slot in &l.slots {
                    let right = (slot.x + slot.w) as f32;
                    let bottom = (slot.y + slot.h) as f32;
                    assert!(
                        left >= right || top >= bottom,
                        "{w}x{h}: rope {i}'s box starts at ({left}, {top}), a slot ends at \
                         ({right}, {bottom})"
                    );
                }
            }
        }
    }

    #[test]
    fn four_panes_make_a_two_by_two_grid_that_does_not_overlap_the_hud_or_strip() {
        let (w, h) = (1280, 800);
        // The window's rope swings under its swaying pin.
        let swaying = RopeParams {
            drive: crate::model::rope::Drive::sway(),
            ..RopeParams::default()
        };
        let l = Layout::split(&swaying, (w, h), 4, (hud_bar_height(w, h), 0), 0);
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

    /// The plain launch's three lanes split (V): a 2×2 grid left a cell empty and drew the
    /// ropes smaller than a row of three does.
    #[test]
    fn three_panes_go_in_a_row_where_that_draws_them_larger() {
        let swaying = RopeParams {
            drive: crate::model::rope::Drive::sway(),
            ..RopeParams::default()
        };
        for (w, h) in [(924, 800), (1280, 800), (864, 540)] {
            let l = Layout::split(&swaying, (w, h), 3, (hud_bar_height(w, h), 0), 0);
            assert!(
                l.areas.iter().all(|a| a.y == l.areas[0].y),
                "{w}x{h}: {l:?}"
            );
            let grid = Layout::grid(&swaying, (w, h), 3, (hud_bar_height(w, h), 0), 0, (2, 2));
            assert!(l.views[0].scale > grid.views[0].scale, "{w}x{h}");
        }
    }

    /// One lane under a bar (a short window's HUD) and without the strip (`H`): the rope
    /// keeps under the bar, and takes the strip's room.
    #[test]
    fn one_rope_keeps_under_a_bar_and_takes_the_strips_room_when_it_is_hidden() {
        let params = RopeParams::default();
        let (w, h) = (777, 486);
        let (min, max) = super::super::view::rope_box(&params);
        let top = |l: &Layout| l.views[0].to_screen(max).y.min(l.views[0].to_screen(min).y);
        let bar = Bands {
            bar: 110,
            reserve: 0,
            strip: true,
        };
        let under = Layout::single(&params, (w, h), true, bar);
        assert!(top(&under) >= 110.0, "{}", top(&under));
        let with = Layout::single(&params, (w, h), true, (0, 0));
        let without = Layout::single(
            &params,
            (w, h),
            true,
            Bands {
                strip: false,
                ..bar
            },
        );
        assert!(without.areas[0].h > with.areas[0].h);
        let strip_top = h - super::super::strip_height(w, h);
        assert!(with.areas[0].y + with.areas[0].h <= strip_top);
        for panes in [3, 4] {
            let shown = Layout::split(&params, (w, h), panes, (60, 0), 0);
            let hidden = Bands {
                bar: 0,
                reserve: 0,
                strip: false,
            };
            let taken = Layout::split(&params, (w, h), panes, hidden, 0);
            let bottom = |l: &Layout| l.areas.iter().map(|a| a.y + a.h).max();
            assert!(bottom(&taken) > bottom(&shown), "{panes} panes");
        }
    }

    #[test]
    fn two_panes_sit_side_by_side() {
        let l = Layout::split(&RopeParams::default(), (1280, 720), 2, (0, 0), 0);
        assert_eq!(l.areas.len(), 2);
        assert_eq!(l.areas[0].y, l.areas[1].y);
        assert!(l.areas[0].h > l.areas[0].w / 2);
    }
}
