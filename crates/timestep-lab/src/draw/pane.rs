//! One pane: a rope's grid, and in the split view its label (which lane, its steps and alpha,
//! or its explosion countdown) and border. Everything is clipped to the pane.

use super::canvas::Canvas;
use super::layout::Area;
use super::palette;
use super::text::{self, GLYPH, Part, Texts};
use super::{RopeLook, View};

/// The label length the pane's text size is chosen for, characters.
const LABEL_CHARS: i64 = 32;
/// A typical label's width in characters (a lane's name, its steps and its judder): the
/// overlay keeps its rope clear of a column of labels this wide.
pub(super) const LABEL_TYPICAL_CHARS: u32 = 28;

/// One run of a label's line: its text and the glossary term of the figure it shows ("":
/// not a figure).
pub type Run = (String, &'static str);

/// What a split-view pane says about its lane, a line at a time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PaneLabel {
    /// The key that shows this lane alone (1 to 4), the lane's name and its steps this frame.
    pub title: Vec<Run>,
    /// "alpha 0.420  drift -0.420 ms", or the explosion countdown.
    pub detail: Vec<Run>,
    /// The loop in short: "16.667ms x17 smooth  59.94 Hz".
    pub policy: Vec<Run>,
    /// The lane's colour index (its steps in the strip share it).
    pub colour: usize,
    /// Whether the lane's rope has exploded (the label's detail line turns red).
    pub exploded: bool,
    /// The lane the keys act on.
    pub focused: bool,
    /// Which label of the pane this is: the overlay stacks one per lane, 0 at the top.
    pub row: u32,
}

/// A marker that moves at a constant speed in the simulation time a lane shows, as Blur
/// Busters' UFO test moves at a constant speed on screen: a frame that shows no new tick
/// leaves it standing, a frame of two ticks makes it jump. Its last positions are drawn from
/// the oldest (top of the track) to the newest (bottom): a straight slope where the motion
/// shown is even, a staircase where it judders.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marker<'a> {
    /// Where it runs; empty: no marker.
    pub track: Area,
    /// The simulation time shown by each of the last frames, ns, oldest first.
    pub shown_ns: &'a [u64],
    /// The lane's colour index.
    pub colour: usize,
}

/// The simulation time the marker takes to cross its track.
pub const MARKER_PERIOD_NS: u64 = 1_000_000_000;
/// How many of a lane's last frames its marker shows.
pub const MARKER_FRAMES: usize = 12;

/// One rope and where it goes.
#[derive(Clone, Debug)]
pub struct Pane<'a> {
    /// The rope to draw.
    pub rope: RopeLook<'a>,
    /// How the rope's metres map to the pane's pixels.
    pub view: View,
    /// The pane's rectangle; drawing is clipped to it.
    pub area: Area,
    /// Split view only: the label and border.
    pub label: Option<PaneLabel>,
    /// The lane's marker and its track.
    pub marker: Marker<'a>,
}

/// Faint grid lines at a round number of metres, at least ~64 px apart, across `area`, as
/// `(pixel, alpha)` for columns (`xs`) and rows (`ys`); the axes through particle 0 a little
/// brighter.
pub(super) fn grid_lines(
    view: &View,
    area: Area,
    xs: &mut Vec<(i64, u8)>,
    ys: &mut Vec<(i64, u8)>,
) {
    xs.clear();
    ys.clear();
    let scale = view.scale;
    if !(scale.is_finite() && scale > 0.0 && view.origin_px.is_finite()) {
        return;
    }
    let want_m = 64.0 / scale;
    let decade = 10f32.powf(want_m.log10().floor());
    let Some(step_m) = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * decade)
        .find(|&s| s >= want_m)
    else {
        return;
    };
    let step = step_m * scale;
    if !(step.is_finite() && step >= 8.0) {
        return;
    }
    let lines = |origin: f32, from: u32, extent: u32, out: &mut Vec<(i64, u8)>| {
        let first = ((from as f32 - origin) / step).ceil();
        let last = ((from as f32 + extent as f32 - origin) / step).floor();
        if first.is_finite() && last.is_finite() && last - first < 4096.0 {
            for k in first as i64..=last as i64 {
                let at = (origin + k as f32 * step).round() as i64;
                out.push((at, if k == 0 { 22 } else { 11 }));
            }
        }
    };
    lines(view.origin_px.x, area.x, area.w, xs);
    lines(view.origin_px.y, area.y, area.h, ys);
}

/// The pane's grid lines (`xs` columns, `ys` rows), clipped to its area.
pub(super) fn draw_grid(canvas: &mut Canvas, area: Area, xs: &[(i64, u8)], ys: &[(i64, u8)]) {
    let (x, y, w, h) = rect(area);
    canvas.clip_to(x, y, w, h);
    canvas.vlines(xs, y, h, palette::GRID);
    for &(gy, alpha) in ys {
        canvas.blend_rect(x, gy, w, 1, palette::GRID, alpha);
    }
}

/// The pane's border, clipped to its area, and its label's panel, whose text goes to `texts`
/// (clipped to the pane too): the lane's colour on the title, red when its rope has exploded,
/// an accent border on the focused lane.
pub(super) fn draw_label(
    canvas: &mut Canvas,
    texts: &mut Texts,
    area: Area,
    label: &PaneLabel,
    scale: u32,
) {
    let (x, y, w, h) = rect(area);
    canvas.clip_to(x, y, w, h);
    let border = if label.focused {
        palette::ACCENT
    } else {
        palette::PANEL_BORDER
    };
    for (bx, by, bw, bh) in [
        (x, y, w, 1),
        (x, y + h - 1, w, 1),
        (x, y, 1, h),
        (x + w - 1, y, 1, h),
    ] {
        canvas.blend_rect(bx, by, bw, bh, border, 220);
    }
    // The usual text size where a label of LABEL_CHARS fits the pane (the same for every
    // pane), else the smallest.
    let fits =
        |scale: u32| LABEL_CHARS * i64::from(text::ADVANCE * scale) + 10 * i64::from(scale) <= w;
    let scale = if fits(scale) { scale } else { 1 };
    let detail = if label.exploded {
        palette::BAD
    } else {
        palette::TEXT
    };
    let lines = [
        (&label.title, palette::lane(label.colour)),
        (&label.detail, detail),
        (&label.policy, palette::LABEL),
    ];
    let chars = lines
        .iter()
        .map(|(runs, _)| runs.iter().map(|(t, _)| t.chars().count()).sum::<usize>())
        .max()
        .unwrap_or(0) as i64;
    let s = i64::from(scale);
    let pad = 4 * s;
    let line = i64::from(GLYPH) * s + 2 * s;
    let panel_w = (chars * i64::from(text::ADVANCE) * s + 2 * pad).min(w - 2);
    let panel_h = 3 * line + 2 * pad - 2 * s;
    // The overlay's labels stack down the pane, one per lane.
    let top = y + i64::from(label.row) * (panel_h + 2 * s);
    canvas.blend_rect(x + 1, top + 1, panel_w, panel_h, palette::PANEL, 190);
    for (i, (runs, colour)) in lines.into_iter().enumerate() {
        let parts = runs
            .iter()
            .map(|(t, term)| Part::figure(t.as_str(), colour, term))
            .collect();
        texts.push(text::TextLine {
            x: x + pad,
            y: top + pad + i as i64 * line,
            scale,
            parts,
            clip: Some((x, y, w, h)),
            ..text::TextLine::default()
        });
    }
}

/// The pane's marker (see [`Marker`]), clipped to the pane: a faint track, then the marker's
/// last positions, each frame a row down, the newest largest and brightest. Positions are
/// taken relative to the newest, so the marks stay together when it wraps round.
pub(super) fn draw_marker(canvas: &mut Canvas, pane: &Pane) {
    let m = &pane.marker;
    let Some(&newest) = m.shown_ns.last() else {
        return;
    };
    let (x, y, w, h) = rect(m.track);
    if w < 4 || h < 2 {
        return;
    }
    let (ax, ay, aw, ah) = rect(pane.area);
    canvas.clip_to(ax, ay, aw, ah);
    canvas.blend_rect(x, y + h / 2, w, 1, palette::GRID, 40);
    let colour = palette::lane(m.colour);
    let px_per_ns = w as f64 / MARKER_PERIOD_NS as f64;
    let head = x + ((newest % MARKER_PERIOD_NS) as f64 * px_per_ns) as i64;
    let n = m.shown_ns.len() as i64;
    let row = (h / MARKER_FRAMES as i64).max(1);
    for (k, &shown) in m.shown_ns.iter().enumerate() {
        let k = k as i64;
        let behind = (newest.saturating_sub(shown) as f64 * px_per_ns) as i64;
        let mx = head - behind;
        let my = y + h - (n - k) * row;
        let (size, alpha) = if k + 1 == n {
            (row.max(4) + 3, 255)
        } else {
            (row.max(4), (70 + 150 * (k + 1) / n) as u8)
        };
        canvas.blend_rect(mx - size / 2, my, size, size.min(h), colour, alpha);
    }
}

fn rect(a: Area) -> (i64, i64, i64, i64) {
    (
        i64::from(a.x),
        i64::from(a.y),
        i64::from(a.w),
        i64::from(a.h),
    )
}
