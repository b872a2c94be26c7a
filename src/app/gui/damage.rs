//! What changed in egui's picture from one frame to the next, found by comparing its shapes
//! (before tessellation), as rectangles of physical pixels to paint again. Under a software
//! rasterizer painting egui's triangles over the whole window costs about as much as the
//! frame itself; the figures that change every frame (the HUD's frame time, a pane's blend
//! factor) cover a few thousandths of it.

use egui::epaint::{ClippedShape, Shape};
use egui::{Pos2, Rect};

/// A rectangle of physical pixels: left, top, width, height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PxRect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl PxRect {
    /// Its area in pixels.
    pub fn area(&self) -> u64 {
        u64::from(self.w) * u64::from(self.h)
    }

    /// The rectangle in egui's points at `ppp` pixels per point.
    pub fn to_points(self, ppp: f32) -> Rect {
        let at = |x: u32, y: u32| Pos2::new(x as f32 / ppp, y as f32 / ppp);
        Rect::from_min_max(at(self.x, self.y), at(self.x + self.w, self.y + self.h))
    }

    /// Whether the two share a pixel or an edge (then they are painted as one).
    fn touches(&self, other: &PxRect) -> bool {
        self.x <= other.x + other.w
            && other.x <= self.x + self.w
            && self.y <= other.y + other.h
            && other.y <= self.y + self.h
    }

    /// The smallest rectangle holding both.
    fn union(&self, other: &PxRect) -> PxRect {
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        let right = (self.x + self.w).max(other.x + other.w);
        let bottom = (self.y + self.h).max(other.y + other.h);
        PxRect {
            x,
            y,
            w: right - x,
            h: bottom - y,
        }
    }
}

/// What of the painted UI must be painted again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Damage {
    /// Nothing: the picture painted last stands.
    None,
    /// All of it, on a cleared target.
    Whole,
    /// These rectangles, which do not touch one another: each is cleared and everything
    /// over it painted again, clipped to it.
    Rects(Vec<PxRect>),
}

impl Damage {
    /// The pixels it paints on a `size` target.
    pub fn area(&self, size: [u32; 2]) -> u64 {
        match self {
            Damage::None => 0,
            Damage::Whole => u64::from(size[0]) * u64::from(size[1]),
            Damage::Rects(rects) => rects.iter().map(PxRect::area).sum(),
        }
    }
}

/// How far past its bounds a shape may paint, physical pixels: egui's anti-aliasing feathers
/// every edge by one (its bounds already hold a stroke's width and a shadow's blur); two, to
/// be safe.
const FEATHER_PX: f32 = 2.0;

/// At most this many rectangles are painted (each costs a draw of its own, and a mesh for
/// every shape it clips); more are merged, the two that waste the fewest pixels first.
const MAX_RECTS: usize = 16;

/// How far ahead [`changed`] looks for a shape that was added or taken away.
const LOOKAHEAD: usize = 16;

/// What painting `new` over a target showing `old` must paint again, on a `size` target at
/// `ppp` pixels per point: the rectangle of every shape, old and new, that [`changed`] finds
/// changed; the whole target when that is half of it or more.
pub fn between(old: &[ClippedShape], new: &[ClippedShape], ppp: f32, size: [u32; 2]) -> Damage {
    let changed = changed(old, new);
    let rects = merged(changed.iter().filter_map(|s| pixels_of(s, ppp, size)));
    let rects = at_most(rects, MAX_RECTS);
    let area: u64 = rects.iter().map(PxRect::area).sum();
    if rects.is_empty() {
        Damage::None
    } else if 2 * area >= u64::from(size[0]) * u64::from(size[1]) {
        Damage::Whole
    } else {
        Damage::Rects(rects)
    }
}

/// The shapes of `old` and of `new` that are not the same shape at the same place in paint
/// order. The common end is left; the rest are walked together: a shape equal to its
/// partner is left; one that is not is taken as added (or taken away) when its partner comes
/// up among the next [`LOOKAHEAD`] shapes of the other, else as changed, with its partner.
/// Shapes left keep their order, so wherever no changed shape paints, the same shapes paint
/// in the same order.
fn changed<'a>(old: &'a [ClippedShape], new: &'a [ClippedShape]) -> Vec<&'a ClippedShape> {
    let end = old.iter().rev().zip(new.iter().rev());
    let end = end.take_while(|(a, b)| a == b).count();
    let (old, new) = (&old[..old.len() - end], &new[..new.len() - end]);
    let found = |shape: &ClippedShape, within: &[ClippedShape]| {
        within.iter().take(LOOKAHEAD).position(|s| s == shape)
    };
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < old.len() && j < new.len() {
        if old[i] == new[j] {
            (i, j) = (i + 1, j + 1);
        } else if let Some(k) = found(&old[i], &new[j + 1..]) {
            out.extend(&new[j..=j + k]);
            j += k + 1;
        } else if let Some(k) = found(&new[j], &old[i + 1..]) {
            out.extend(&old[i..=i + k]);
            i += k + 1;
        } else {
            out.extend([&old[i], &new[j]]);
            (i, j) = (i + 1, j + 1);
        }
    }
    out.extend(old[i..].iter().chain(&new[j..]));
    out
}

/// Where `shape` can paint, points: epaint's visual bounds, but nowhere for a text with no
/// glyph (an empty label, a run of spaces), to which epaint gives infinite bounds.
fn bounds(shape: &Shape) -> Rect {
    match shape {
        Shape::Text(text) if text.galley.num_vertices == 0 && text.underline.is_empty() => {
            Rect::NOTHING
        }
        shape => shape.visual_bounding_rect(),
    }
}

/// The pixels `shape` can paint on a `size` target at `ppp`, if any: its bounds within its
/// clip, widened by [`FEATHER_PX`] and rounded out to whole pixels.
fn pixels_of(shape: &ClippedShape, ppp: f32, size: [u32; 2]) -> Option<PxRect> {
    let rect = bounds(&shape.shape).intersect(shape.clip_rect);
    if !rect.is_positive() {
        return None;
    }
    let px =
        |v: f32, round: fn(f32) -> f32, limit: u32| round(v * ppp).clamp(0.0, limit as f32) as u32;
    let (x0, y0) = (rect.min.x - FEATHER_PX / ppp, rect.min.y - FEATHER_PX / ppp);
    let (x1, y1) = (rect.max.x + FEATHER_PX / ppp, rect.max.y + FEATHER_PX / ppp);
    let (x0, y0) = (px(x0, f32::floor, size[0]), px(y0, f32::floor, size[1]));
    let (x1, y1) = (px(x1, f32::ceil, size[0]), px(y1, f32::ceil, size[1]));
    (x1 > x0 && y1 > y0).then_some(PxRect {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    })
}

/// `rects` with every two that touch made one, until none touch.
fn merged(rects: impl IntoIterator<Item = PxRect>) -> Vec<PxRect> {
    let mut out: Vec<PxRect> = Vec::new();
    for mut rect in rects {
        while let Some(i) = out.iter().position(|r| r.touches(&rect)) {
            rect = rect.union(&out.swap_remove(i));
        }
        out.push(rect);
    }
    out
}

/// `rects` (none touching) merged two by two until at most `n` are left, each time the two
/// whose union holds the fewest pixels neither holds; none touch after.
fn at_most(mut rects: Vec<PxRect>, n: usize) -> Vec<PxRect> {
    while rects.len() > n.max(1) {
        let waste = |(i, j): (usize, usize)| {
            let (a, b) = (&rects[i], &rects[j]);
            a.union(b).area() - a.area() - b.area()
        };
        let pairs = (0..rects.len()).flat_map(|i| (i + 1..rects.len()).map(move |j| (i, j)));
        let Some((i, j)) = pairs.min_by_key(|&p| waste(p)) else {
            break;
        };
        let b = rects.swap_remove(j);
        let a = rects.swap_remove(i);
        rects = merged(rects.into_iter().chain([a.union(&b)]));
    }
    rects
}

/// The shapes of `shapes` that paint in `rects`, each clipped to the rectangle it paints in,
/// rectangle by rectangle (at `ppp` pixels per point): tessellated and painted on a target
/// whose `rects` were cleared, they paint there what all of `shapes` would.
pub fn clipped_to(shapes: &[ClippedShape], rects: &[PxRect], ppp: f32) -> Vec<ClippedShape> {
    let mut out = Vec::new();
    for rect in rects.iter().map(|r| r.to_points(ppp)) {
        for shape in shapes {
            let clip = shape.clip_rect.intersect(rect);
            let reach = bounds(&shape.shape).expand(FEATHER_PX / ppp);
            if clip.is_positive() && reach.intersects(clip) {
                out.push(ClippedShape {
                    clip_rect: clip,
                    shape: shape.shape.clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
