//! The rope itself: one anti-aliased stroked path through the particles, beads on it, pin
//! mounts and the grabbed particle's highlight, all with tiny-skia straight into the frame.

use super::canvas::Rgb;
use super::palette as pal;
use super::{Area, RopeLook, View};
use glam::Vec2;
use tiny_skia::{
    FillRule, LineCap, LineJoin, Mask, Paint, Path, PathBuilder, PixmapMut, Stroke, Transform,
};

/// More particles than this are drawn as the path alone: beads would be under a pixel apart.
pub const MAX_BEADS: usize = 2_000;
/// At most this many pins are drawn (a rope has one or two; this bounds a strange caller).
const MAX_PINS: usize = 64;
/// Screen coordinates are clamped to ±this many pixels, far off screen but small enough for
/// tiny-skia's fixed-point maths.
const LIMIT_PX: f32 = 1e6;
/// Consecutive points closer than this (in pixels) add nothing to the stroke and are skipped.
const MIN_STEP_PX: f32 = 0.5;

/// Where `p` lands on screen, or `None` if it (or the view) is not finite.
fn screen(view: &View, p: Vec2) -> Option<Vec2> {
    if !p.is_finite() {
        return None;
    }
    let s = view.to_screen(p);
    s.is_finite()
        .then(|| s.clamp(Vec2::splat(-LIMIT_PX), Vec2::splat(LIMIT_PX)))
}

/// The rope's stroke width in pixels for a view of `scale` pixels per metre: about 2.8 cm,
/// never under 2 px nor over 8 px.
pub fn rope_width_px(scale: f32) -> f32 {
    if scale.is_finite() {
        (0.028 * scale).clamp(2.0, 8.0)
    } else {
        2.0
    }
}

pub(crate) fn paint(c: Rgb, alpha: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c[0], c[1], c[2], alpha);
    p.anti_alias = true;
    p
}

pub(crate) fn round_stroke(width: f32) -> Stroke {
    Stroke {
        width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Stroke::default()
    }
}

/// Finishes `pb`, hands the path to `use_path` and returns the emptied builder, keeping its
/// allocation for the next path.
pub(crate) fn with_path(pb: PathBuilder, use_path: impl FnOnce(&Path)) -> PathBuilder {
    match pb.finish() {
        Some(path) => {
            use_path(&path);
            path.clear()
        }
        None => PathBuilder::new(),
    }
}

/// The mean on-screen distance between neighbouring particles (infinite for fewer than two).
fn mean_spacing_px(view: &View, positions: &[Vec2]) -> f32 {
    let (sum, links) = positions
        .windows(2)
        .filter_map(|w| Some(screen(view, w[1])?.distance(screen(view, w[0])?)))
        .fold((0.0f32, 0usize), |(s, n), d| (s + d, n + 1));
    if links == 0 {
        f32::INFINITY
    } else {
        sum / links as f32
    }
}

/// Scratch kept between frames so drawing the rope does not allocate.
#[derive(Debug, Default)]
pub(super) struct RopeScratch {
    /// Every tiny-skia path is built in this builder; its allocation is kept.
    pub path: Option<PathBuilder>,
    /// The rope's screen points after skipping tiny steps; NaN marks a pen-up.
    points: Vec<Vec2>,
}

/// Segments per stroke call. tiny-skia fills a stroke scanline by scanline over all of its
/// edges, so one path of thousands of segments criss-crossing the screen (a diverged rope)
/// costs seconds; strokes of a bounded number of segments stay proportional to their area.
const CHUNK_SEGMENTS: usize = 128;

/// The most pixels the rope's stroke may cover, as a fraction of the buffer: tiny-skia costs
/// about 10 ns per covered pixel, so a tenth of 1280×720 is ~1 ms. Only a scattered,
/// diverged rope gets near it; past it every k-th segment is drawn, which still shows the
/// chaos while bounding the frame's cost.
const STROKE_AREA_BUDGET: f32 = 0.1;
/// The same for the beads, which are skipped as a whole past it (a diverged rope's
/// particles are far apart, so its beads would be large).
const BEAD_AREA_BUDGET: f32 = 0.05;

/// Fills `points` with the screen points of `positions`: pen up (NaN) across non-finite
/// points, steps under [`MIN_STEP_PX`] skipped (but the last point of each run always kept,
/// so the rope's end never moves). Returns the total length, with each segment clamped to
/// the buffer (plus a margin) first, which approximates the length actually drawn.
fn screen_points(view: &View, positions: &[Vec2], points: &mut Vec<Vec2>, w: u32, h: u32) -> f32 {
    points.clear();
    let (lo, hi) = (
        Vec2::splat(-16.0),
        Vec2::new(w as f32 + 16.0, h as f32 + 16.0),
    );
    let mut total = 0.0;
    let mut last: Option<Vec2> = None;
    let mut skipped: Option<Vec2> = None;
    let mut push = |points: &mut Vec<Vec2>, s: Vec2, from: Option<Vec2>| {
        if let Some(f) = from {
            total += s.clamp(lo, hi).distance(f.clamp(lo, hi));
        }
        points.push(s);
    };
    for &p in positions {
        match (screen(view, p), last) {
            (None, _) => {
                if let Some(q) = skipped.take() {
                    push(points, q, last);
                }
                if last.is_some() {
                    points.push(Vec2::NAN);
                }
                last = None;
            }
            (Some(s), None) => {
                push(points, s, None);
                (last, skipped) = (Some(s), None);
            }
            (Some(s), Some(l)) if s.distance_squared(l) < MIN_STEP_PX * MIN_STEP_PX => {
                skipped = Some(s);
            }
            (Some(s), Some(l)) => {
                push(points, s, Some(l));
                (last, skipped) = (Some(s), None);
            }
        }
    }
    if let Some(q) = skipped {
        push(points, q, last);
    }
    total
}

/// How far past its particles a rope's drawing reaches (beads, the pin's support symbol),
/// pixels.
const REACH_PX: f32 = 48.0;

/// The largest bead (or an overlaid rope's pin size) a rope of lines `line_w` pixels wide has.
fn bead_radius(line_w: f32) -> f32 {
    (line_w * 1.5).clamp(3.0, 9.0)
}

/// A pin drawn as the engineering symbol for a fixed support: a ring of radius `r` with a
/// dot, hung from a bar `2·half` long `bar_dy` above it, hatched above the bar up to
/// `hatch_dy`; its lines `thin` wide. Sized by the rope's bead `radius`.
struct PinSymbol {
    r: f32,
    bar_dy: f32,
    half: f32,
    hatch_dy: f32,
    thin: f32,
}

impl PinSymbol {
    fn new(radius: f32, line_w: f32) -> PinSymbol {
        let r = (radius.max(3.0) + 2.5).max(5.0);
        PinSymbol {
            r,
            bar_dy: 2.3 * r,
            half: 1.9 * r,
            hatch_dy: 3.1 * r,
            thin: (line_w * 0.8).clamp(1.5, 3.0),
        }
    }
}

/// How far a rope drawn at `scale` pixels per metre reaches past its particles, pixels: above
/// a pin (its support symbol's hatching), and on every side (a bead with its rim; with both
/// ends pinned, the far pin's bar, which sits near the box's side). A layout that keeps these
/// clear of a label keeps the whole drawing clear of it.
pub(super) fn reach_px(scale: f32, both_pinned: bool) -> (f32, f32) {
    let line_w = rope_width_px(scale);
    let radius = bead_radius(line_w);
    let pin = PinSymbol::new(radius, line_w);
    let above = pin.hatch_dy + pin.thin;
    let bead = radius + 1.25 + pin.thin;
    let around = match both_pinned {
        true => bead.max(pin.half + 0.35 * pin.r + pin.thin),
        false => bead,
    };
    (above, around)
}

/// Draws the rope into `frame`, only inside `clip` (a split-view pane: its area and its mask)
/// if given. The mask, which slows tiny-skia down, is used only when the rope reaches out of
/// the area (it has exploded, or a drag pulled it out).
pub(super) fn draw_rope(
    frame: &mut [u8],
    (width, height): (u32, u32),
    look: &RopeLook,
    view: &View,
    clip: Option<(Area, &Mask)>,
    scratch: &mut RopeScratch,
) {
    let Some(pixmap) = PixmapMut::from_bytes(frame, width, height) else {
        return;
    };
    let line_w = rope_width_px(view.scale);
    let total = screen_points(view, look.positions, &mut scratch.points, width, height);
    let mask = clip
        .filter(|(area, _)| !within(&scratch.points, *area, REACH_PX))
        .map(|(_, mask)| mask);
    let mut painter = Painter {
        pixmap,
        mask,
        pb: scratch.path.take().unwrap_or_default(),
        size: Vec2::new(width as f32, height as f32),
    };
    painter.trail(look, view, line_w);
    let colour = match (look.exploded, look.overlaid) {
        (true, _) => pal::ROPE_EXPLODED,
        (false, true) => pal::lane(look.colour),
        (false, false) => pal::ROPE,
    };
    painter.stroke_rope(&scratch.points, total, line_w, colour);
    // Overlaid ropes go without beads, which would hide one rope under another.
    let radius = if look.overlaid {
        bead_radius(line_w)
    } else {
        painter.beads(look, view, line_w)
    };
    painter.pins(look, view, radius, line_w);
    painter.grabbed(look, view, radius);
    scratch.path = Some(painter.pb);
}

/// Whether every finite point lies at least `margin` pixels inside `area`.
fn within(points: &[Vec2], area: Area, margin: f32) -> bool {
    let lo = Vec2::new(area.x as f32, area.y as f32) + margin;
    let hi = Vec2::new((area.x + area.w) as f32, (area.y + area.h) as f32) - margin;
    points
        .iter()
        .filter(|p| !p.is_nan())
        .all(|p| p.cmpge(lo).all() && p.cmple(hi).all())
}

/// A pixmap being drawn on, through a mask, with one reused path builder.
struct Painter<'a, 'm> {
    pixmap: PixmapMut<'a>,
    mask: Option<&'m Mask>,
    pb: PathBuilder,
    /// The buffer's size, pixels.
    size: Vec2,
}

impl Painter<'_, '_> {
    fn fill(&mut self, colour: Rgb, alpha: u8) {
        let (pixmap, mask) = (&mut self.pixmap, self.mask);
        let pb = std::mem::take(&mut self.pb);
        self.pb = with_path(pb, |path| {
            let id = Transform::identity();
            pixmap.fill_path(path, &paint(colour, alpha), FillRule::Winding, id, mask);
        });
    }

    fn stroke(&mut self, colour: Rgb, alpha: u8, width: f32) {
        let (pixmap, mask) = (&mut self.pixmap, self.mask);
        let pb = std::mem::take(&mut self.pb);
        self.pb = with_path(pb, |path| {
            let id = Transform::identity();
            pixmap.stroke_path(path, &paint(colour, alpha), &round_stroke(width), id, mask);
        });
    }

    /// Whether a circle of radius `r` at `s` can touch the buffer.
    fn on_screen(&self, s: Vec2, r: f32) -> bool {
        s.x > -r && s.y > -r && s.x < self.size.x + r && s.y < self.size.y + r
    }

    /// The rope: strokes of at most [`CHUNK_SEGMENTS`] segments through the screen `points`
    /// (NaN lifts the pen), every k-th segment past the area budget.
    fn stroke_rope(&mut self, points: &[Vec2], total: f32, line_w: f32, colour: Rgb) {
        let budget = STROKE_AREA_BUDGET * self.size.x * self.size.y / line_w;
        let stride = if total > budget {
            (total / budget).ceil() as usize
        } else {
            1
        };
        let mut pen: Option<Vec2> = None;
        let mut prev: Option<Vec2> = None;
        let (mut segment, mut in_chunk) = (0usize, 0usize);
        for &q in points {
            if q.is_nan() {
                prev = None;
                continue;
            }
            if let Some(p) = prev {
                segment += 1;
                if segment % stride == 0 {
                    if pen != Some(p) {
                        self.pb.move_to(p.x, p.y);
                    }
                    self.pb.line_to(q.x, q.y);
                    pen = Some(q);
                    in_chunk += 1;
                    if in_chunk == CHUNK_SEGMENTS {
                        self.stroke(colour, 255, line_w);
                        (pen, in_chunk) = (None, 0);
                    }
                }
            }
            prev = Some(q);
        }
        self.stroke(colour, 255, line_w);
    }

    /// The trail: a dot at each of the free end's last shown positions, the oldest faintest,
    /// under the rope, in the lane's colour.
    fn trail(&mut self, look: &RopeLook, view: &View, line_w: f32) {
        let n = look.trail.len();
        let r = (line_w * 1.2).clamp(2.5, 6.0);
        for (k, &p) in look.trail.iter().enumerate() {
            if let Some(s) = screen(view, p).filter(|&s| self.on_screen(s, r)) {
                self.pb.push_circle(s.x, s.y, r);
                let alpha = 40 + (200 * (k + 1) / n.max(1)) as u8;
                self.fill(pal::lane(look.colour), alpha);
            }
        }
    }

    /// Beads on free particles, when there are few enough to tell apart; never so large that
    /// they overlap on average. Returns the bead radius (pins and the grab are sized by it).
    fn beads(&mut self, look: &RopeLook, view: &View, line_w: f32) -> f32 {
        let n = look.positions.len();
        let spacing = if n <= MAX_BEADS {
            mean_spacing_px(view, look.positions)
        } else {
            0.0
        };
        let radius = bead_radius(line_w).min(0.42 * spacing);
        let bead_area = n as f32 * std::f32::consts::PI * (radius + 1.25).powi(2);
        let fits = bead_area <= BEAD_AREA_BUDGET * self.size.x * self.size.y;
        if n > MAX_BEADS || !fits || radius < 2.0 {
            return radius;
        }
        let bead = if look.exploded {
            pal::BEAD_EXPLODED
        } else {
            pal::BEAD
        };
        for (r, colour) in [(radius + 1.25, pal::BEAD_RIM), (radius, bead)] {
            for (i, &p) in look.positions.iter().enumerate() {
                if let Some(s) = screen(view, p)
                    && self.on_screen(s, r)
                    && look.grabbed.map(|g| g.index) != Some(i)
                    && !look.pinned.contains(&i)
                {
                    self.pb.push_circle(s.x, s.y, r);
                }
            }
            self.fill(colour, 255);
        }
        radius
    }

    /// Pins: a ring with a dot, hung from the engineering symbol for a fixed support (a bar
    /// with hatching above it).
    fn pins(&mut self, look: &RopeLook, view: &View, radius: f32, line_w: f32) {
        let pin = PinSymbol::new(radius, line_w);
        let (pin_r, thin) = (pin.r, pin.thin);
        let pins: Vec<Vec2> = look
            .pinned
            .iter()
            .take(MAX_PINS)
            .filter_map(|&i| look.positions.get(i))
            .filter_map(|&p| screen(view, p))
            .filter(|&s| self.on_screen(s, 4.0 * pin_r))
            .collect();
        for s in &pins {
            let bar_y = s.y - pin.bar_dy;
            let half = pin.half;
            self.pb.move_to(s.x, s.y - pin_r);
            self.pb.line_to(s.x, bar_y);
            self.pb.move_to(s.x - half, bar_y);
            self.pb.line_to(s.x + half, bar_y);
            let hatches = 5;
            for k in 0..hatches {
                let hx = s.x - half + 2.0 * half * (k as f32 + 0.5) / hatches as f32;
                self.pb.move_to(hx - 0.35 * pin_r, bar_y);
                self.pb.line_to(hx + 0.35 * pin_r, s.y - pin.hatch_dy);
            }
            self.pb.push_circle(s.x, s.y, pin_r);
        }
        self.stroke(pal::ACCENT, 255, thin);
        for s in &pins {
            self.pb.push_circle(s.x, s.y, pin_r - thin * 0.5);
        }
        self.fill(pal::PANEL, 255);
        for s in &pins {
            self.pb.push_circle(s.x, s.y, 0.4 * pin_r);
        }
        self.fill(pal::ACCENT, 255);
    }

    /// The grabbed particle: a soft halo, an orange bead and a white ring, and a thin line to
    /// where the hand pulls it while it lags behind.
    fn grabbed(&mut self, look: &RopeLook, view: &View, radius: f32) {
        let Some(grip) = look.grabbed else { return };
        let at = look.positions.get(grip.index);
        let Some(s) = at.and_then(|&p| screen(view, p)) else {
            return;
        };
        let r = (radius * 1.4).max(5.0);
        if let Some(to) = grip.pull.and_then(|p| screen(view, p))
            && to.distance(s) > 2.6 * r
        {
            self.pb.move_to(s.x, s.y);
            self.pb.line_to(to.x, to.y);
            self.stroke(pal::GRAB, 150, 1.5);
        }
        self.pb.push_circle(s.x, s.y, 2.6 * r);
        self.fill(pal::GRAB, 60);
        self.pb.push_circle(s.x, s.y, r);
        self.fill(pal::GRAB, 255);
        self.pb.push_circle(s.x, s.y, r + 2.0);
        self.stroke(pal::TEXT, 220, 1.5);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_closer_than_half_a_pixel_are_skipped_but_the_ends_are_kept() {
        let view = View::fit(Vec2::ZERO, Vec2::new(1.0, 1.0), 100, 100);
        // 100,001 points 1e-5 m (0.001 px) apart: one pixel of rope.
        let line: Vec<Vec2> = (0..=100_000)
            .map(|i| Vec2::new(i as f32 * 1e-7, 0.5))
            .collect();
        let mut points = Vec::new();
        let length = screen_points(&view, &line, &mut points, 100, 100);
        assert!(points.len() <= 4, "{}", points.len());
        assert_eq!(points[0], view.to_screen(line[0]));
        assert_eq!(
            *points.last().unwrap(),
            view.to_screen(*line.last().unwrap())
        );
        assert!((length - 1.0).abs() < 0.01, "{length}");
    }

    #[test]
    fn a_non_finite_point_lifts_the_pen() {
        let view = View::fit(Vec2::ZERO, Vec2::new(1.0, 1.0), 100, 100);
        let line = [
            Vec2::ZERO,
            Vec2::new(0.5, 0.0),
            Vec2::NAN,
            Vec2::new(1.0, 1.0),
            Vec2::X,
        ];
        let mut points = Vec::new();
        screen_points(&view, &line, &mut points, 100, 100);
        assert_eq!(points.len(), 5);
        assert!(points[2].is_nan() && points[3].is_finite());
    }

    #[test]
    fn a_diverged_rope_strewn_across_the_screen_is_still_drawn() {
        let (w, h) = (320u32, 200u32);
        let view = View::fit(Vec2::splat(-1.0), Vec2::splat(1.0), w, h);
        // 20,000 points bouncing between corners: far over the stroke budget, so thinned.
        let scattered: Vec<Vec2> = (0..20_000)
            .map(|i| {
                Vec2::new(
                    if i % 2 == 0 { -0.9 } else { 0.9 },
                    ((i * 37) % 19) as f32 / 10.0 - 0.9,
                )
            })
            .collect();
        let look = RopeLook {
            trail: &[],
            positions: &scattered,
            pinned: &[0],
            grabbed: None,
            exploded: true,
            colour: 0,
            overlaid: false,
        };
        let mut buf = vec![0u8; (w * h * 4) as usize];
        draw_rope(
            &mut buf,
            (w, h),
            &look,
            &view,
            None,
            &mut RopeScratch::default(),
        );
        let red = buf
            .chunks_exact(4)
            .filter(|p| p[..3] == pal::ROPE_EXPLODED)
            .count();
        assert!(red > 100, "{red}");
    }

    #[test]
    fn lesson_2s_two_lanes_trails_are_drawn_in_their_two_lane_colours() {
        let (w, h) = (200u32, 200u32);
        let view = View::fit(Vec2::splat(-1.0), Vec2::splat(1.0), w, h);
        let names: Vec<String> = crate::view::lessons::LESSONS[1]
            .lane_specs()
            .iter()
            .map(ToString::to_string)
            .collect();
        let colours = pal::lane_colours(&names);
        // A rope along the top, its free end's trail along the bottom.
        let rope = [Vec2::new(-0.5, 0.8), Vec2::new(0.5, 0.8)];
        let trail: Vec<Vec2> = (0..8)
            .map(|i| Vec2::new(-0.8 + 0.2 * i as f32, -0.6))
            .collect();
        let newest = screen(&view, trail[7]).unwrap_or_else(|| panic!("on screen"));
        let drawn: Vec<[u8; 3]> = colours
            .iter()
            .map(|&colour| {
                let look = RopeLook {
                    positions: &rope,
                    pinned: &[0],
                    grabbed: None,
                    exploded: false,
                    trail: &trail,
                    colour,
                    overlaid: false,
                };
                let mut buf = vec![0u8; (w * h * 4) as usize];
                let mut scratch = RopeScratch::default();
                draw_rope(&mut buf, (w, h), &look, &view, None, &mut scratch);
                let at = 4 * (newest.y as usize * w as usize + newest.x as usize);
                [buf[at], buf[at + 1], buf[at + 2]]
            })
            .collect();
        assert_eq!(colours.len(), 2);
        assert_ne!(pal::lane(colours[0]), pal::lane(colours[1]));
        // The newest dot, nearly opaque over black, is its lane's colour.
        for (&colour, px) in colours.iter().zip(&drawn) {
            let lane = pal::lane(colour);
            for (c, want) in px.iter().zip(lane) {
                let want = f32::from(want) * 240.0 / 255.0;
                assert!((f32::from(*c) - want).abs() < 8.0, "{px:?}, lane {lane:?}");
            }
        }
    }

    #[test]
    fn the_stroke_is_never_thinner_than_two_pixels() {
        assert_eq!(rope_width_px(1e-6), 2.0);
        assert_eq!(rope_width_px(f32::NAN), 2.0);
        assert_eq!(rope_width_px(1e9), 8.0);
    }
}
