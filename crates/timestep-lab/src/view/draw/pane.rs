//! One pane: a rope's grid, and in the split view its label (which lane, its steps and alpha,
//! or its explosion countdown) and border. Everything is clipped to the pane.

use super::canvas::Canvas;
use super::layout::Area;
use super::palette;
use super::text::{self, Part, Texts};
use super::{RopeLook, View};

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
    /// Split view and overlay: the label and border.
    pub label: Option<PaneLabel>,
    /// Where its label goes: its box starts at the slot's corner, wraps to its width and
    /// keeps to its height.
    pub slot: Area,
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

/// A label as drawn: its text scale, its lines (each its runs and colour), and its box.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LabelBox {
    /// The text scale its lines are drawn at.
    pub scale: u32,
    /// Each line's runs and colour, top to bottom.
    pub lines: Vec<(Vec<Run>, super::canvas::Rgb)>,
    /// The box's width and height, px.
    pub w: i64,
    pub h: i64,
    /// One line's height, and the padding inside the box, px.
    line: i64,
    pad: i64,
}

/// The fewest characters a label's slot holds at the usual text scale (a lane's name and its
/// steps: `1 interpolated  58 steps`); a narrower slot draws its label one size smaller.
const SLOT_CHARS: i64 = 24;

/// The line height and padding of a label at text `scale`, px.
fn label_metrics(scale: u32) -> (i64, i64) {
    let s = i64::from(scale.max(1));
    (text::cell(scale).0 + 2 * s, 4 * s)
}

/// The height of a label box of `lines` lines at the usual text scale of a buffer `height`
/// pixels tall, px.
pub(super) fn label_box_height(lines: u32, height: u32) -> u32 {
    let scale = super::text_scale(height);
    let (line, pad) = label_metrics(scale);
    let h = i64::from(lines) * line + 2 * pad - 2 * i64::from(scale.max(1));
    u32::try_from(h).unwrap_or(0)
}

/// `label` laid out in `slot` (where the layout lets it go: its box starts at the slot's
/// corner, wraps its lines to the slot's width and keeps its first lines that fit the slot's
/// height, the lane's name first; none, if even that does not fit), at the text scale of a
/// buffer `height` pixels tall: the usual scale where a slot holds [`SLOT_CHARS`], else one
/// size smaller, no smaller (a buffer of twice the pixel density keeps its labels readable).
/// What the layout leaves room for and what is drawn both come from here.
pub(super) fn label_box(label: &PaneLabel, slot: Area, height: u32) -> LabelBox {
    let w = i64::from(slot.w);
    let usual = super::text_scale(height).max(1);
    let fits = |scale: u32| SLOT_CHARS * text::cell(scale).1 + 10 * i64::from(scale) <= w;
    let scale = if fits(usual) {
        usual
    } else {
        (usual - 1).max(1)
    };
    let detail = if label.exploded {
        palette::BAD
    } else {
        palette::TEXT
    };
    let (s, a) = (i64::from(scale), text::cell(scale).1);
    let (line, pad) = label_metrics(scale);
    let cols = usize::try_from((w - 2 * pad) / a).unwrap_or(0).max(1);
    let mut lines: Vec<(Vec<Run>, _)> = [
        (&label.title, palette::lane(label.colour)),
        (&label.detail, detail),
        (&label.policy, palette::LABEL),
    ]
    .into_iter()
    .flat_map(|(runs, colour)| wrap_runs(runs, cols).into_iter().map(move |l| (l, colour)))
    .collect();
    // k lines take k·line + 2·pad − 2·s.
    let fit = ((i64::from(slot.h) - 2 * pad + 2 * s) / line).max(0);
    lines.truncate(usize::try_from(fit).unwrap_or(0));
    let chars = lines
        .iter()
        .map(|(runs, _)| runs.iter().map(|(t, _)| t.chars().count()).sum::<usize>())
        .max()
        .unwrap_or(0) as i64;
    let (w, h) = match lines.len() {
        0 => (0, 0),
        n => (
            (chars * a + 2 * pad).min(w),
            n as i64 * line + 2 * pad - 2 * s,
        ),
    };
    LabelBox {
        scale,
        w,
        h,
        lines,
        line,
        pad,
    }
}

/// The pane's border, clipped to its area, and its label's box (see [`label_box`]) in `slot`,
/// whose text goes to `texts` (clipped to the pane too): the lane's colour on the title, red
/// when its rope has exploded, an accent border on the focused lane. Returns the box, as
/// drawn.
pub(super) fn draw_label(
    canvas: &mut Canvas,
    texts: &mut Texts,
    (area, slot): (Area, Area),
    label: &PaneLabel,
) -> Area {
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
    let height = u32::try_from(canvas.height()).unwrap_or(0);
    let b = label_box(label, slot, height);
    let (sx, sy, _, _) = rect(slot);
    canvas.blend_rect(sx, sy, b.w, b.h, palette::PANEL, 190);
    if label.focused && b.h > 0 {
        // The lane the keys act on: a lit bar down its label's left (the overlay's panes
        // share one border).
        let bar = 2 * i64::from(b.scale.max(1));
        canvas.blend_rect(sx, sy, bar, b.h, palette::ACCENT, 230);
    }
    for (i, (runs, colour)) in b.lines.iter().enumerate() {
        let parts = runs
            .iter()
            .map(|(t, term)| Part::figure(t.as_str(), *colour, term))
            .collect();
        texts.push(text::TextLine {
            x: sx + b.pad - 1,
            y: sy + b.pad - 1 + i as i64 * b.line,
            scale: b.scale,
            parts,
            clip: Some((x, y, w, h)),
            ..text::TextLine::default()
        });
    }
    Area {
        w: u32::try_from(b.w).unwrap_or(0),
        h: u32::try_from(b.h).unwrap_or(0),
        ..slot
    }
}

/// A label line's runs wrapped to `cols` characters a line: broken between runs (a gap run
/// at a break is dropped), and within a run longer than a line at its spaces (a word longer
/// still is one piece, clipped). One line at least.
fn wrap_runs(runs: &[Run], cols: usize) -> Vec<Vec<Run>> {
    let mut lines: Vec<Vec<Run>> = vec![Vec::new()];
    let mut used = 0;
    for (text, term) in runs.iter().flat_map(|run| split_run(run, cols)) {
        let blank = text.trim().is_empty();
        if used > 0 && used + text.chars().count() > cols {
            if blank {
                continue;
            }
            lines.push(Vec::new());
            used = 0;
        }
        let text = if used == 0 {
            text.trim_start().to_string()
        } else {
            text
        };
        if text.is_empty() {
            continue;
        }
        used += text.chars().count();
        if let Some(last) = lines.last_mut() {
            last.push((text, term));
        }
    }
    // A gap that ended up at a line's end goes too.
    for line in &mut lines {
        while line.last().is_some_and(|(t, _)| t.trim().is_empty()) {
            line.pop();
        }
    }
    lines
}

/// `run` in pieces of at most `cols` characters, cut at its spaces (each piece after the
/// first starts with its space); the whole run where it fits.
fn split_run((text, term): &Run, cols: usize) -> Vec<Run> {
    if text.chars().count() <= cols {
        return vec![(text.clone(), term)];
    }
    let mut pieces: Vec<Run> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let len = current.chars().count() + 1 + word.chars().count();
        if !current.trim().is_empty() && len > cols {
            pieces.push((std::mem::take(&mut current), term));
        }
        if !current.is_empty() || !pieces.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    pieces.push((current, term));
    pieces
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

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(parts: &[(&str, &'static str)]) -> Vec<Run> {
        parts
            .iter()
            .map(|&(t, term)| (t.to_string(), term))
            .collect()
    }

    fn texts(lines: &[Vec<Run>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|(t, _)| t.as_str()).collect())
            .collect()
    }

    #[test]
    fn a_label_line_wraps_between_its_figures_and_keeps_each_ones_meaning() {
        let line = runs(&[
            ("alpha 0.164", "alpha"),
            ("  ", ""),
            ("judder 0.21 px", "judder"),
        ]);
        // Wide enough: one line, as it was.
        assert_eq!(
            texts(&wrap_runs(&line, 40)),
            ["alpha 0.164  judder 0.21 px"]
        );
        // A 15-character pane: each figure on a line of its own, the gap dropped.
        let narrow = wrap_runs(&line, 15);
        assert_eq!(texts(&narrow), ["alpha 0.164", "judder 0.21 px"]);
        assert_eq!(narrow[1][0].1, "judder");
        // A figure longer than the line breaks at its spaces; a word longer still is one
        // piece (the pane clips it).
        let exploded = runs(&[("EXPLODED - reset in 2.3 s", "countdown")]);
        assert_eq!(
            texts(&wrap_runs(&exploded, 15)),
            ["EXPLODED -", "reset in 2.3 s"]
        );
        assert!(
            wrap_runs(&exploded, 15)
                .iter()
                .flatten()
                .all(|r| r.1 == "countdown")
        );
        assert_eq!(
            texts(&wrap_runs(&exploded, 3)),
            ["EXPLODED", "-", "reset", "in", "2.3", "s"]
        );
        // Nothing is lost: the words in order, whatever the width.
        for cols in 1..40 {
            let joined = texts(&wrap_runs(&line, cols)).join(" ");
            let words: Vec<&str> = joined.split_whitespace().collect();
            assert_eq!(words, ["alpha", "0.164", "judder", "0.21", "px"], "{cols}");
        }
        assert_eq!(wrap_runs(&[], 10), [Vec::<Run>::new()]);
    }

    /// The scale of each line a split pane `w` pixels wide draws its label at, in a buffer
    /// whose usual text scale is `scale`.
    fn label_scales(w: u32, scale: u32) -> Vec<u32> {
        let label = PaneLabel {
            title: runs(&[("1 fixed", "lane"), ("  ", ""), ("1 step", "steps")]),
            detail: runs(&[
                ("alpha 0.248", "alpha"),
                ("  ", ""),
                ("judder 0.93 px", "judder"),
            ]),
            policy: runs(&[("tick 33.333ms in 34 substeps of 0.98ms", "substeps")]),
            ..PaneLabel::default()
        };
        // The buffer heights whose usual text scales are 1 to 4.
        let height = [400, 800, 1200, 1600][scale.clamp(1, 4) as usize - 1];
        let slot = Area {
            w,
            h: 400,
            ..Area::default()
        };
        let b = label_box(&label, slot, height);
        vec![b.scale; b.lines.len()]
    }

    #[test]
    fn a_narrow_panes_label_is_one_size_smaller_at_most_and_wraps() {
        // 1280x800 (scale 2): a 465 px pane holds 24 characters of the usual size.
        assert!(label_scales(465, 2).iter().all(|&s| s == 2));
        // The same window at twice the density (2560x1600, scale 4, a 465 px pane): one size
        // smaller (24 px lines, the 12 points of the smallest at 1x), its lines wrapped;
        // not the smallest, 12 px lines, 6 points.
        let dense = label_scales(465, 4);
        assert!(
            dense.len() > 3 && dense.iter().all(|&s| s == 3),
            "{dense:?}"
        );
        assert!(label_scales(100, 2).iter().all(|&s| s == 1));
    }
}
