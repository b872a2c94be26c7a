//! The frame strip: a scrolling graph of the last few hundred frames along the bottom of the
//! screen. Bars are frame times in ms against faint 16.7 and 33.3 ms lines (coloured green,
//! amber or red by which of those they pass); below them, the steps each lane took each frame
//! (violet for one lane; with several, one row per lane in the lane's colour, on one shared
//! scale). A stutter shows up as a bar that sticks out; a spiral of death as steps pinned at
//! the cap.

use super::canvas::{self, Canvas, Rgb};
use super::hud::text_scale;
use super::palette as pal;
use super::text::{self, Align, Part, TextLine, Texts};
use super::wall::StepTimes;
use super::wall::WALL_WINDOW_NS;
use std::collections::VecDeque;

/// Lanes the strip keeps steps for.
const LANES: usize = super::MAX_PANES;

/// One frame: its time, and the steps each lane took.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Frame {
    ms: f32,
    steps: [u32; LANES],
    lanes: u8,
}

/// The last few hundred frames' frame time and steps per lane, oldest first, and when the
/// latest steps ran in wall time.
#[derive(Clone, Debug)]
pub struct FrameStrip {
    capacity: usize,
    frames: VecDeque<Frame>,
    /// When the latest frames and steps started, ns of the window's clock (the wall panel's).
    pub step_times: StepTimes,
    /// Each row's lane colour (see [`pal::lane_colours`]); none set: the row's index.
    colours: Vec<usize>,
}

impl FrameStrip {
    /// A strip that keeps the last `capacity` frames (at least 1).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        FrameStrip {
            capacity,
            frames: VecDeque::with_capacity(capacity.min(1 << 16)),
            step_times: StepTimes::default(),
            colours: Vec::new(),
        }
    }

    /// Row i is drawn in lane colour `colours[i]` (see `palette::lane_colours`).
    pub fn set_colours(&mut self, colours: &[usize]) {
        self.colours.clear();
        self.colours.extend_from_slice(colours);
    }

    /// Row `i`'s lane colour.
    fn colour(&self, i: usize) -> Rgb {
        pal::lane(self.colours.get(i).copied().unwrap_or(i))
    }
    /// A frame of `frame_ms` in which lane i took `steps[i]` steps (at most four lanes kept).
    pub fn push(&mut self, frame_ms: f32, steps: &[u32]) {
        if self.frames.len() == self.capacity {
            self.frames.pop_front();
        }
        let lanes = steps.len().min(LANES);
        let mut frame = Frame {
            ms: frame_ms,
            steps: [0; LANES],
            lanes: lanes as u8,
        };
        frame.steps[..lanes].copy_from_slice(&steps[..lanes]);
        self.frames.push_back(frame);
    }
    /// Frames kept.
    pub fn len(&self) -> usize {
        self.frames.len()
    }
    /// Whether no frame is kept.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
    /// Each frame's time and the steps of its lanes, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = (f32, &[u32])> + '_ {
        self.frames
            .iter()
            .map(|f| (f.ms, &f.steps[..usize::from(f.lanes)]))
    }
    /// How many lanes the newest frame has.
    pub fn lanes(&self) -> usize {
        self.frames.back().map_or(0, |f| usize::from(f.lanes))
    }
    /// How many frames it holds at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
    /// Forgets every frame.
    pub fn clear(&mut self) {
        self.frames.clear();
        self.step_times.clear();
    }
}

/// The reference frame times drawn as dashed lines, with their labels.
const REFERENCES: [(f32, &str); 2] = [(1000.0 / 60.0, "16.7"), (1000.0 / 30.0, "33.3")];
/// Graph tops to choose from, ms (see [`range_ms`]); longer frames are drawn clipped, with a
/// bright cap.
const RANGES_MS: [f32; 8] = [40.0, 50.0, 75.0, 100.0, 150.0, 250.0, 500.0, 1000.0];

/// Strip panel geometry for a `width × height` buffer.
struct Layout {
    scale: u32,
    x: i64,
    y: i64,
    w: i64,
    h: i64,
    pad: i64,
}

impl Layout {
    fn new(width: u32, height: u32) -> Layout {
        let scale = text_scale(height);
        let s = i64::from(scale);
        let margin = 6 * s;
        let h = (i64::from(height) / 5).clamp(28 * s, 100 * s);
        Layout {
            scale,
            x: margin,
            y: i64::from(height) - margin - h,
            w: i64::from(width) - 2 * margin,
            h,
            pad: 4 * s,
        }
    }
}

/// Pixels the strip takes at the bottom of a `width × height` buffer, its margin included.
/// [`super::View::for_rope`] keeps the rope above it.
pub fn strip_height(width: u32, height: u32) -> u32 {
    let l = Layout::new(width, height);
    (i64::from(height) - l.y).clamp(0, i64::from(height)) as u32
}

/// The longest frame drawn green, ms: one 60 Hz refresh (16.7 ms) with timer noise to spare.
const GREEN_UP_TO_MS: f32 = 17.5;
/// The longest frame drawn yellow, ms: two 60 Hz refreshes, one 30 Hz (33.3 ms), with noise
/// to spare; longer is red.
const YELLOW_UP_TO_MS: f32 = 34.0;

fn bar_colour(ms: f32) -> Rgb {
    if ms <= GREEN_UP_TO_MS {
        pal::GOOD
    } else if ms <= YELLOW_UP_TO_MS {
        pal::WARN
    } else {
        pal::BAD
    }
}

/// The graph's top in ms: the smallest of [`RANGES_MS`] that holds nine frames in ten with
/// a tenth to spare, so one long stall does not flatten every other bar.
fn range_ms(strip: &FrameStrip) -> f32 {
    let allowed = strip.len() / 10;
    RANGES_MS
        .iter()
        .copied()
        .find(|&r| strip.iter().filter(|&(ms, _)| ms * 1.1 > r).count() <= allowed)
        .unwrap_or(RANGES_MS[RANGES_MS.len() - 1])
}

/// The steps rows' top: the smallest of 1, 2, 5, 10, 20, 50, … that holds nine frames in
/// ten with a tenth to spare (each frame counted by its busiest lane). Its own scale, like the
/// frame times', and for the same reason: one stall of 120 steps must not flatten the
/// 16-or-17 beat of a 1 ms step at 60 Hz. Shared by every lane, so their rows compare.
fn range_steps(strip: &FrameStrip) -> u32 {
    let allowed = strip.len() / 10;
    let most = |steps: &[u32]| steps.iter().copied().max().unwrap_or(0);
    let fits = |r: u32| {
        strip
            .iter()
            .filter(|&(_, n)| f64::from(most(n)) * 1.1 > f64::from(r))
            .count()
            <= allowed
    };
    let mut decade = 1u32;
    loop {
        for k in [1, 2, 5] {
            let r = decade.saturating_mul(k);
            if fits(r) || r == u32::MAX {
                return r;
            }
        }
        decade = decade.saturating_mul(10);
    }
}

/// Short counts for the 4-character gutter: 250, 9999, 12k, 3M.
fn compact(n: u32) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{}k", n / 1_000),
        _ => format!("{}M", n / 1_000_000),
    }
}

/// Calls `column(x0, x1, value)` for each frame's slot, newest at the right of the `gw`
/// pixels from `gx`, one slot per frame of capacity. Frames that share a pixel column are
/// merged, keeping the largest value, so a one-frame spike is never lost.
fn for_columns(
    strip: &FrameStrip,
    value: impl Fn(f32, &[u32]) -> f32,
    gx: i64,
    gw: i64,
    mut column: impl FnMut(i64, i64, f32),
) {
    let cap = strip.capacity() as f64;
    let first_slot = strip.capacity() - strip.len();
    let slot_x = |slot: usize| gx + (slot as f64 * gw as f64 / cap).floor() as i64;
    let mut pending: Option<(i64, i64, f32)> = None;
    for (i, (ms, steps)) in strip.iter().enumerate() {
        let slot = first_slot + i;
        let (x0, x1) = (slot_x(slot), slot_x(slot + 1).max(slot_x(slot) + 1));
        let v = value(ms, steps);
        pending = match pending {
            Some((p0, p1, pv)) if x0 < p1 => Some((p0, x1.max(p1), pv.max(v))),
            Some((p0, p1, pv)) => {
                column(p0, p1, pv);
                Some((x0, x1, v))
            }
            None => Some((x0, x1, v)),
        };
    }
    if let Some((p0, p1, pv)) = pending {
        column(p0, p1, pv);
    }
}

/// Where the strip's parts go: a header line, then two wells right of a gutter for labels —
/// frame times above, steps below.
struct Geometry {
    l: Layout,
    /// Pixels per text-scale unit, a line's height and a character's advance.
    s: i64,
    g: i64,
    a: i64,
    header_y: i64,
    /// The wells' left edge and width.
    gx: i64,
    gw: i64,
    /// The frame-time well's top and height.
    gy: i64,
    bh: i64,
    /// The steps well's top and height.
    sy: i64,
    sh: i64,
    /// The wall-time row's top and height.
    wy: i64,
    wh: i64,
    /// Whether the wells have room for anything.
    wells: bool,
}

impl Geometry {
    fn new(width: u32, height: u32, lanes: usize) -> Geometry {
        let l = Layout::new(width, height);
        let (s, (g, a)) = (i64::from(l.scale), text::cell(l.scale));
        let header_y = l.y + l.pad;
        let gx = l.x + l.pad + 4 * a + 2 * s;
        let gy = header_y + g + 3 * s;
        let gw = l.x + l.w - l.pad - gx;
        let gh = l.y + l.h - l.pad - gy;
        let lane_gap = 2 * s;
        // Several lanes' rows get half the height, one lane's row under a third.
        let share = if lanes > 1 { 5 } else { 3 };
        let sh = (gh * share / 10).max(4 * s);
        let wh = (gh / 6).max(3 * s);
        let bh = gh - sh - wh - 2 * lane_gap;
        Geometry {
            s,
            g,
            a,
            header_y,
            gx,
            gw,
            gy,
            bh,
            sy: gy + bh + lane_gap,
            sh,
            wy: gy + bh + sh + 2 * lane_gap,
            wh,
            wells: gw >= 8 && bh >= 6,
            l,
        }
    }
}

fn finite(ms: f32) -> f32 {
    if ms.is_finite() { ms.max(0.0) } else { 0.0 }
}

/// Draws `strip` along the bottom of the canvas, its text to `texts`: a header with the
/// series' legends and ranges, frame-time bars in the upper well, steps per frame in the
/// middle one, when the steps ran in wall time in the bottom one.
pub(super) fn draw_strip(canvas: &mut Canvas, texts: &mut Texts, strip: &FrameStrip) {
    let (width, height) = (canvas.width() as u32, canvas.height() as u32);
    let geo = Geometry::new(width, height, strip.lanes());
    if geo.l.w < 8 * geo.g || geo.l.y < 0 {
        return; // Too small a buffer to show anything readable.
    }
    let wells = [
        (geo.gx, geo.gy, geo.gw, geo.bh),
        (geo.gx, geo.sy, geo.gw, geo.sh),
        (geo.gx, geo.wy, geo.gw, geo.wh),
    ];
    let wells = if geo.wells { &wells[..] } else { &[] };
    let panel = (geo.l.x, geo.l.y, geo.l.w, geo.l.h);
    canvas.panel_with_wells(panel, pal::PANEL_STYLE, wells, (pal::GRAPH_BG, 140));
    draw_header(texts, strip, &geo);
    if geo.wells {
        draw_frame_times(canvas, texts, strip, &geo);
        draw_steps(canvas, texts, strip, &geo);
        let row = (geo.gx, geo.wy, geo.gw, geo.wh);
        strip
            .step_times
            .draw(canvas, row, strip.lanes(), &strip.colours, geo.s);
        if geo.wh >= geo.g {
            let wall = Part::figure("wall", pal::LABEL, "wall");
            gutter(texts, &geo, geo.wy, wall);
        }
    }
}

/// `part` right-aligned in the gutter left of the wells, its top at `y`.
fn gutter(texts: &mut Texts, geo: &Geometry, y: i64, part: Part) {
    gutter_at(texts, geo, y, part, geo.l.scale);
}

/// As [`gutter`], at text `scale`.
fn gutter_at(texts: &mut Texts, geo: &Geometry, y: i64, part: Part, scale: u32) {
    texts.push(TextLine {
        x: geo.gx - 2 * geo.s,
        y,
        align: Align::Right,
        scale,
        parts: vec![part],
        ..TextLine::default()
    });
}

/// The series' legends and ranges on the left (the wall row's span with its unit), the
/// latest and worst frame on the right.
fn draw_header(texts: &mut Texts, strip: &FrameStrip, geo: &Geometry) {
    let (l, hy) = (&geo.l, geo.header_y);
    let slowest = strip.iter().map(|(ms, _)| finite(ms)).fold(0.0, f32::max);
    let last = strip.iter().last().map_or(0.0, |(ms, _)| finite(ms));
    let wall_ms = WALL_WINDOW_NS / 1_000_000;
    let parts = vec![
        Part::figure("frame ms", pal::GOOD, "frame ms"),
        Part::plain(" ", pal::LABEL),
        Part::figure(
            format!("0-{:.0}", range_ms(strip)),
            pal::LABEL,
            "frame range",
        ),
        Part::plain("  ", pal::LABEL),
        Part::figure("steps/frame", pal::STEPS, "steps/frame"),
        Part::plain(" ", pal::LABEL),
        Part::figure(
            format!("0-{}", range_steps(strip)),
            pal::LABEL,
            "steps range",
        ),
        Part::plain("  ", pal::LABEL),
        Part::figure(format!("wall last {wall_ms} ms"), pal::LABEL, "wall"),
    ];
    let header_end = texts.put(l.x + l.pad, hy, l.scale, parts);
    let right = format!("last {last:.1}  worst {slowest:.1} ms");
    let rw = i64::from(text::text_width(&right, l.scale));
    let rx = l.x + l.w - l.pad - rw;
    if rx > header_end + 2 * geo.a {
        let part = Part::figure(right, pal::TEXT, "last worst");
        texts.put(rx, hy, l.scale, vec![part]);
    }
    // The bars' colour key between the two, where it fits.
    let key = colour_key();
    let kw: u32 = key.iter().map(|p| text::text_width(&p.text, l.scale)).sum();
    let kx = header_end + 2 * geo.a;
    if kx + i64::from(kw) + 2 * geo.a < rx {
        texts.put(kx, hy, l.scale, key);
    }
}

/// The frame bars' colour key, each bound in its colour: `<17.5 <34 >34 ms` (hovered: the
/// `frame colours` tip, which says what each means).
fn colour_key() -> Vec<Part> {
    let term = "frame colours";
    vec![
        Part::figure(format!("<{GREEN_UP_TO_MS}"), pal::GOOD, term),
        Part::figure(format!(" <{YELLOW_UP_TO_MS}"), pal::WARN, term),
        Part::figure(format!(" >{YELLOW_UP_TO_MS} ms"), pal::BAD, term),
    ]
}

/// Frame-time bars, coloured by which reference they pass (clipped ones get a white cap),
/// under dashed reference lines labelled in the gutter (a label that would overlap the one
/// below it, or a well shorter than a label, is left out).
fn draw_frame_times(canvas: &mut Canvas, texts: &mut Texts, strip: &FrameStrip, geo: &Geometry) {
    let (s, g, gx, gy, gw, bh) = (geo.s, geo.g, geo.gx, geo.gy, geo.gw, geo.bh);
    let top = range_ms(strip);
    let gap = i64::from(gw as f64 / strip.capacity() as f64 >= 3.0);
    let base = gy + bh;
    let y_of = |ms: f32| base - ((ms / top).clamp(0.0, 1.0) * bh as f32).round() as i64;
    for_columns(
        strip,
        |ms, _| finite(ms),
        gx,
        gw,
        |x0, x1, ms| {
            let w = (x1 - x0 - gap).max(1);
            let y = y_of(ms).min(base - 1);
            canvas.fill_rect(x0, y, w, base - y, bar_colour(ms));
            if ms > top {
                canvas.fill_rect(x0, gy, w, 2 * s, pal::TEXT);
            }
        },
    );
    let mut free_above = i64::MAX;
    for (ms, label) in REFERENCES {
        if ms >= top {
            continue;
        }
        let y = y_of(ms);
        canvas.dashed_hline(gx, y, gw, 3 * s, 3 * s, pal::REFERENCE);
        if bh < g {
            continue; // No room for a label beside the well.
        }
        let ly = (y - g / 2).clamp(gy, base - g);
        if ly + g <= free_above {
            gutter(texts, geo, ly, Part::figure(label, pal::LABEL, "reference"));
            free_above = ly - s;
        }
    }
}

/// Steps per frame: dim columns with a bright top, scaled to the largest count, in one row
/// per lane. (Opaque: hundreds of narrow translucent columns would cost more than the rest of
/// the strip.) The gutter holds the scale's top for one lane, each row's lane number for
/// several.
fn draw_steps(canvas: &mut Canvas, texts: &mut Texts, strip: &FrameStrip, geo: &Geometry) {
    let (s, g, gx, gw) = (geo.s, geo.g, geo.gx, geo.gw);
    let steps_top = range_steps(strip);
    let max = steps_top.max(1) as f32;
    let lanes = strip.lanes().max(1) as i64;
    let row_h = geo.sh / lanes;
    let gap = i64::from(gw as f64 / strip.capacity() as f64 >= 3.0);
    for lane in 0..lanes {
        let (bright, dim) = if lanes == 1 {
            (pal::STEPS, pal::STEPS_DIM)
        } else {
            let c = strip.colour(lane as usize);
            (c, canvas::mix(pal::GRAPH_BG, c, 0.3))
        };
        let base = geo.sy + (lane + 1) * row_h;
        for_columns(
            strip,
            |_, n| n.get(lane as usize).copied().unwrap_or(0) as f32,
            gx,
            gw,
            |x0, x1, n| {
                let w = (x1 - x0 - gap).max(1);
                let h = ((n / max).min(1.0) * (row_h - s) as f32).round() as i64;
                if n > 0.0 {
                    let h = h.max(s);
                    let cap = if n > max { pal::TEXT } else { bright };
                    canvas.fill_rect(x0, base - h, w, h, dim);
                    canvas.fill_rect(x0, base - h, w, s, cap);
                }
            },
        );
        if lanes == 1 {
            if row_h >= g {
                let top = Part::figure(compact(steps_top), pal::STEPS, "steps range");
                gutter(texts, geo, base - row_h, top);
            }
            continue;
        }
        // A lane's number, centred on its row: at the usual size where the row is as tall,
        // else smaller, down to the smallest (which may overhang a row of 3/4 its height).
        let fits = (1..=geo.l.scale)
            .rev()
            .find(|&sc| text::cell(sc).0 <= row_h);
        let scale = fits.or((4 * row_h >= 3 * text::cell(1).0).then_some(1));
        if let Some(scale) = scale {
            let number = Part::figure((lane + 1).to_string(), bright, "lane row");
            let y = base - row_h + (row_h - text::cell(scale).0) / 2;
            gutter_at(texts, geo, y, number, scale);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strip_drops_the_oldest_frame_past_its_capacity() {
        let mut s = FrameStrip::new(3);
        for i in 0..5 {
            s.push(i as f32, &[i]);
        }
        assert_eq!(s.len(), 3);
        let kept: Vec<(f32, Vec<u32>)> = s.iter().map(|(ms, n)| (ms, n.to_vec())).collect();
        assert_eq!(kept, vec![(2.0, vec![2]), (3.0, vec![3]), (4.0, vec![4])]);
        assert_eq!(FrameStrip::new(0).capacity(), 1);
    }

    fn drawn(width: u32, height: u32, strip: &FrameStrip) -> Vec<u8> {
        let mut buf = vec![0u8; (width * height * 4) as usize];
        if let Some(mut canvas) = Canvas::new(&mut buf, width, height) {
            draw_strip(&mut canvas, &mut Texts::default(), strip);
        }
        buf
    }

    #[test]
    fn every_lane_row_is_numbered_in_the_split_views_strip() {
        // (At 864x540 a row is under 9 px: too short for any number.)
        for (w, h) in [(1280, 800), (1024, 700), (2560, 1600)] {
            let mut strip = FrameStrip::new(300);
            for _ in 0..300 {
                strip.push(16.7, &[17, 17, 16, 16]);
            }
            let mut buf = vec![0u8; (w * h * 4) as usize];
            let mut texts = Texts::default();
            if let Some(mut canvas) = Canvas::new(&mut buf, w, h) {
                draw_strip(&mut canvas, &mut texts, &strip);
            }
            let numbers: Vec<String> = texts
                .lines()
                .iter()
                .filter(|l| {
                    l.parts
                        .iter()
                        .any(|p| p.tip == super::super::glossary::tip("lane row"))
                })
                .map(TextLine::text)
                .collect();
            assert_eq!(numbers, ["1", "2", "3", "4"], "{w}x{h}");
        }
    }

    #[test]
    fn drawing_the_strip_puts_pixels_only_in_the_bottom_region() {
        let (w, h) = (320u32, 200u32);
        let mut strip = FrameStrip::new(300);
        for i in 0..300 {
            strip.push(if i % 50 == 0 { 45.0 } else { 16.7 }, &[1 + i % 3]);
        }
        let buf = drawn(w, h, &strip);
        let top = h - strip_height(w, h);
        let lit = |y: u32| (0..w).any(|x| buf[((y * w + x) * 4) as usize..][..3] != [0, 0, 0]);
        assert!((top..h).any(lit));
        assert!(!(0..top).any(lit));
        assert!(strip_height(w, h) < h / 3);
    }

    #[test]
    fn the_header_keys_the_bar_colours_and_the_tip_says_what_yellow_is() {
        let mut strip = FrameStrip::new(2);
        strip.push(10.0, &[1]);
        strip.push(30.0, &[1]);
        let (w, h) = (1280u32, 800u32);
        let mut buf = vec![0u8; (w * h * 4) as usize];
        let mut texts = Texts::default();
        if let Some(mut canvas) = Canvas::new(&mut buf, w, h) {
            draw_strip(&mut canvas, &mut texts, &strip);
        }
        let all: String = texts.lines().iter().map(|l| l.text()).collect();
        assert!(all.contains("<17.5 <34 >34 ms"), "{all}");
        assert_eq!(bar_colour(30.0), pal::WARN);
        let tip = crate::view::draw::tip("frame colours").unwrap_or_default();
        for bound in [GREEN_UP_TO_MS, YELLOW_UP_TO_MS] {
            assert!(tip.contains(&format!("{bound} ms")), "{tip}");
        }
        assert!(tip.contains("yellow") && tip.contains("missed"), "{tip}");
    }

    #[test]
    fn a_slow_frame_draws_a_taller_bar_than_a_fast_one() {
        let (w, h) = (640u32, 480u32);
        let mut strip = FrameStrip::new(2);
        strip.push(10.0, &[1]);
        strip.push(30.0, &[1]);
        let buf = drawn(w, h, &strip);
        // The 30 ms bar (amber) covers more pixels than the 10 ms one (green).
        let count = |colour: Rgb| buf.chunks_exact(4).filter(|p| p[..3] == colour).count();
        assert!(count(pal::WARN) > count(pal::GOOD) && count(pal::GOOD) > 0);
    }

    #[test]
    fn each_lane_is_scaled_to_hold_nine_frames_in_ten() {
        let mut strip = FrameStrip::new(100);
        for i in 0..100 {
            strip.push(
                if i == 50 { 120.0 } else { 16.7 },
                &[if i == 50 { 120 } else { 17 }],
            );
        }
        assert_eq!(range_ms(&strip), 40.0);
        assert_eq!(range_steps(&strip), 20);
        let mut ones = FrameStrip::new(10);
        ones.push(16.7, &[1]);
        assert_eq!(range_steps(&ones), 2);
        let mut none = FrameStrip::new(10);
        none.push(16.7, &[0]);
        assert_eq!(range_steps(&none), 1);
        let mut huge = FrameStrip::new(10);
        huge.push(f32::INFINITY, &[u32::MAX]);
        assert_eq!(range_ms(&huge), 1000.0);
        assert!(range_steps(&huge) >= 2_000_000_000);
    }

    #[test]
    fn several_lanes_each_get_a_row_of_steps_in_their_own_colour() {
        let (w, h) = (1280u32, 720u32);
        let mut strip = FrameStrip::new(100);
        for _ in 0..100 {
            strip.push(16.7, &[1, 17, 16, 16]);
        }
        assert_eq!(strip.lanes(), 4);
        let buf = drawn(w, h, &strip);
        for i in 0..4 {
            let c = pal::lane(i);
            let count = buf.chunks_exact(4).filter(|p| p[..3] == c).count();
            assert!(count > 50, "lane {i}: {count} pixels");
        }
    }

    #[test]
    fn strange_frame_times_and_tiny_buffers_draw_without_panicking() {
        let mut strip = FrameStrip::new(10_000);
        for v in [f32::NAN, f32::INFINITY, -5.0, 1e30, 0.0] {
            strip.push(v, &[u32::MAX, 3, 0, 7, 9]);
        }
        for (w, h) in [(1, 1), (2, 300), (300, 2), (50, 40), (4000, 100)] {
            drawn(w, h, &strip);
        }
        drawn(320, 200, &FrameStrip::new(5));
        let mut one = FrameStrip::new(5);
        one.push(16.0, &[3]);
        drawn(320, 200, &one);
    }
}
