//! What is drawn over everything else: the key help panel, the key hint, a lesson's caption
//! and the centred banner. Their panels are drawn into the buffer, their text goes to a
//! [`Texts`].

use super::canvas::{Canvas, PanelStyle};
use super::palette;
use super::text::{self, Align, Part, TextLine, Texts};

/// Where a help line's key ends and its description begins: at the first run of two or more
/// spaces, else (a key that filled or overflowed its padded column) at the first space from
/// just before the column where the other lines' descriptions start.
pub(super) fn key_split(line: &str, column: Option<usize>) -> usize {
    if let Some(at) = line.find("  ").filter(|&at| at > 0) {
        return at;
    }
    let Some(from) = column.and_then(|c| c.checked_sub(1)).filter(|&f| f > 0) else {
        return 0;
    };
    line.char_indices()
        .find(|&(i, ch)| i >= from && ch == ' ')
        .map_or(0, |(i, _)| i)
}

/// The column most lines' descriptions start at (after a run of two or more spaces).
pub(super) fn description_column(lines: &[String]) -> Option<usize> {
    let start = |l: &String| {
        let at = l.find("  ").filter(|&at| at > 0)?;
        Some(at + l[at..].len() - l[at..].trim_start_matches(' ').len())
    };
    let starts: Vec<usize> = lines.iter().filter_map(start).collect();
    starts
        .iter()
        .copied()
        .max_by_key(|&c| starts.iter().filter(|&&d| d == c).count())
}

/// The help overlay: `lines` on a centred panel, which hides the text under it. Each line's
/// key (see [`key_split`]) is drawn in the accent colour, the rest in white.
pub(super) fn draw_help(
    canvas: &mut Canvas,
    texts: &mut Texts,
    lines: &[String],
    scale: u32,
    room: u32,
) {
    // Too wide for the room at the smallest size (a 777 px window beside the panel): the
    // descriptions wrap under themselves, where their right ends went under the panel.
    let fit = (i64::from(room) - 20) / text::cell(1).1;
    let column = description_column(lines);
    let wrapped = wrap_help(lines, usize::try_from(fit).unwrap_or(0), column);
    let lines = wrapped.as_slice();
    let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as i64;
    // Smaller where the lines would not fit the room left of the panel, or the height.
    let rows = lines.len() as i64;
    let height = i64::from(canvas.height());
    let tall = |s: u32, gap: i64| rows * (text::cell(s).0 + gap) - gap + 20 * i64::from(s);
    let mut scale = scale.max(1);
    while scale > 1
        && (cols * text::cell(scale).1 + 20 * i64::from(scale) > i64::from(room)
            || tall(scale, 4 * i64::from(scale)) > height)
    {
        scale -= 1;
    }
    let (s, (g, a)) = (i64::from(scale), text::cell(scale));
    // The lines closer together where the smallest size is still too tall with the usual gap.
    let gap = if tall(scale, 4 * s) > height {
        s
    } else {
        4 * s
    };
    let line_h = g + gap;
    let pad = 10 * s;
    let (w, h) = (cols * a + 2 * pad, tall(scale, gap));
    let x = ((i64::from(room) - w) / 2).max(0);
    let y = ((i64::from(canvas.height()) - h) / 2).max(0);
    let style = PanelStyle {
        alpha: 235,
        border: palette::ACCENT,
        ..palette::PANEL_STYLE
    };
    canvas.panel((x, y, w, h), style);
    texts.cover((x, y, w, h));
    for (i, line) in lines.iter().enumerate() {
        let ty = y + pad + i as i64 * line_h;
        if ty > i64::from(canvas.height()) {
            break;
        }
        let (key, rest) = line.split_at(key_split(line, column));
        let parts = vec![
            Part::plain(key, palette::ACCENT),
            Part::plain(rest, palette::TEXT),
        ];
        texts.put(x + pad, ty, scale, parts);
    }
}

/// `lines` each at most `fit` characters: a longer one is broken at its spaces, each piece
/// after the first starting under its description (`column`); a line that fits, or with no
/// room to wrap in, is kept whole.
fn wrap_help(lines: &[String], fit: usize, column: Option<usize>) -> Vec<String> {
    let indent = column.unwrap_or(0).min(fit / 2);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if line.chars().count() <= fit || fit <= indent + 8 {
            out.push(line.clone());
            continue;
        }
        let mut current = String::new();
        for word in line.split(' ') {
            let len = current.chars().count() + 1 + word.chars().count();
            if len > fit && !current.trim().is_empty() {
                out.push(std::mem::take(&mut current));
                current = " ".repeat(indent);
                current.push_str(word);
            } else {
                if !current.is_empty() || word.is_empty() {
                    current.push(' ');
                }
                current.push_str(word);
            }
        }
        out.push(current);
    }
    out
}

/// The bottom of the panes: the top of the strip when it is shown, else the buffer's bottom.
fn panes_bottom(w: u32, h: u32, above_strip: bool) -> i64 {
    if above_strip {
        i64::from(h) - i64::from(super::strip_height(w, h))
    } else {
        i64::from(h)
    }
}

/// The key hint: one line of shadowed text at the bottom right of the panes, the `room`
/// pixels left of the panel (smaller if that is narrow; left out if it is narrower still).
/// Returns the pixels it takes from the bottom of the panes (0 if left out).
pub(super) fn draw_hint(
    canvas: &Canvas,
    texts: &mut Texts,
    hint: &str,
    above_strip: bool,
    room: u32,
) -> i64 {
    let (full_w, h) = (canvas.width().max(0) as u32, canvas.height().max(0) as u32);
    let w = room.min(full_w);
    let mut scale = super::text_scale(h);
    while scale > 1 && text::text_width(hint, scale) + 16 * scale > w {
        scale -= 1;
    }
    let (tw, s) = (i64::from(text::text_width(hint, scale)), i64::from(scale));
    if tw + 16 > i64::from(w) {
        return 0;
    }
    let g = text::cell(scale).0;
    let y = panes_bottom(full_w, h, above_strip) - g - 3 * s;
    texts.push(TextLine {
        x: i64::from(w) - 8 * s,
        y,
        align: Align::Right,
        scale,
        parts: vec![Part::plain(hint, palette::LABEL)],
        shadow: true,
        clip: None,
    });
    g + 4 * s
}

/// A caption's `lines` as drawn in a `w × h` buffer, and their text scale: the usual scale,
/// each line wrapped at spaces to the width (a longer word is cut); a smaller scale only where
/// the wrapped band would leave a single rope no room above its marker's track (see
/// [`super::layout::room_for_track`]). A long line wraps rather than shrinking to a
/// hard-to-read size.
fn caption_fit(w: u32, h: u32, lines: &[String]) -> (Vec<String>, i64) {
    let strip = i64::from(super::strip_height(w, h));
    let above_strip = if 10 * (i64::from(h) - strip) >= 6 * i64::from(h) {
        i64::from(h) - strip
    } else {
        i64::from(h)
    };
    let mut scale = i64::from(super::text_scale(h));
    loop {
        let wrapped = wrap(lines, caption_chars(w, scale));
        let bottom = above_strip - band_at(h, wrapped.len(), scale);
        let fits = super::layout::room_for_track(bottom as f32, h);
        if fits || scale <= 1 {
            return (wrapped, scale);
        }
        scale -= 1;
    }
}

/// How many characters a caption's line holds at `scale` in `w` pixels (1 at least).
fn caption_chars(w: u32, scale: i64) -> usize {
    let chars = (i64::from(w) - 24) / text::cell(scale_u32(scale)).1;
    usize::try_from(chars).unwrap_or(0).max(1)
}

/// A text scale held as `i64` for layout arithmetic, back as the `u32` text takes (1 at least).
fn scale_u32(scale: i64) -> u32 {
    u32::try_from(scale.max(1)).unwrap_or(1)
}

/// `lines` wrapped at spaces to `chars` characters at most; a word longer than that is cut.
fn wrap(lines: &[String], chars: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let mut current = String::new();
        for word in line.split(' ') {
            let (n, len) = (current.chars().count(), word.chars().count());
            if n > 0 && n + 1 + len > chars {
                out.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
            while current.chars().count() > chars {
                let cut: String = current.chars().take(chars).collect();
                current = current.chars().skip(chars).collect();
                out.push(cut);
            }
        }
        out.push(current);
    }
    out
}

/// The height of a caption's panel of `lines` lines at text scale `scale`.
fn panel_height_at(lines: usize, scale: i64) -> i64 {
    let line_h = text::cell(scale_u32(scale)).0 + 4 * scale;
    lines as i64 * line_h - 4 * scale + 2 * 6 * scale
}

/// The band a caption's panel of `lines` lines at `scale` takes with the key hint under it
/// and the gap above.
fn band_at(h: u32, lines: usize, scale: i64) -> i64 {
    let s = super::text_scale(h);
    let hint = text::cell(s).0 + 4 * i64::from(s);
    panel_height_at(lines, scale) + hint + 8
}

/// The band along the bottom of the panes that a caption of `lines` takes in a `w × h`
/// buffer, wrapped, with the key hint under it and the gap above: what the layout keeps the
/// panes clear of (without a caption, the hint's line alone, so no marker runs under it).
pub fn caption_band(w: u32, h: u32, lines: &[String]) -> u32 {
    if lines.is_empty() {
        let s = super::text_scale(h);
        return u32::try_from(text::cell(s).0 + 4 * i64::from(s)).unwrap_or(0);
    }
    let (wrapped, scale) = caption_fit(w, h, lines);
    let band = band_at(h, wrapped.len(), scale);
    u32::try_from(band).unwrap_or(0)
}

/// A lesson's caption: a panel across the bottom of the panes (above the strip when it is
/// shown, and `lift` pixels higher still, for the hint), its first line the lesson's title in
/// the accent colour, centred in the `room` pixels left of the panel. Lines too long for
/// that wrap.
pub(super) fn draw_caption(
    canvas: &mut Canvas,
    texts: &mut Texts,
    lines: &[String],
    above_strip: bool,
    lift: i64,
    room: u32,
) {
    let (full_w, h) = (canvas.width().max(0) as u32, canvas.height().max(0) as u32);
    let w = room.min(full_w);
    let (wrapped, scale) = caption_fit(w, h, lines);
    // The title's lines, wrapped the same way, are drawn in the accent colour.
    let title = wrap(&lines[..lines.len().min(1)], caption_chars(w, scale)).len();
    let lines = wrapped;
    let chars = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let chars = chars.max(1) as i64;
    let s = scale_u32(scale);
    let (g, advance) = text::cell(s);
    let line_h = g + 4 * scale;
    let pad = 6 * scale;
    let panel_h = panel_height_at(lines.len(), scale);
    let y = (panes_bottom(full_w, h, above_strip) - lift - panel_h - 8).max(0);
    let panel_w = (chars * advance + 2 * pad).min(i64::from(w));
    let x = (i64::from(w) - panel_w) / 2;
    canvas.panel((x, y, panel_w, panel_h), palette::PANEL_STYLE);
    for (i, line) in lines.iter().enumerate() {
        let colour = if i < title {
            palette::ACCENT
        } else {
            palette::TEXT
        };
        texts.plain(x + pad, y + pad + i as i64 * line_h, s, line, colour);
    }
}

/// A large message on a band across the middle of the `room` pixels left of the panel, which
/// hides the text under it: red when the rope exploded.
pub(super) fn draw_banner(
    canvas: &mut Canvas,
    texts: &mut Texts,
    message: &str,
    exploded: bool,
    room: u32,
) {
    let (w, h) = (
        i64::from(canvas.width()).min(i64::from(room)),
        i64::from(canvas.height()),
    );
    let chars = message.chars().count().max(1) as i64;
    // Twice the usual text size.
    let mut scale = 2 * i64::from(super::text_scale(u32::try_from(h).unwrap_or(0)));
    while scale > 1 && chars * text::cell(scale_u32(scale)).1 > w - 16 {
        scale -= 1;
    }
    let g = text::cell(scale_u32(scale)).0;
    let band_h = g + 8 * scale;
    let y = (h - band_h) / 2;
    let (edge, colour) = if exploded {
        (palette::BAD, palette::BAD)
    } else {
        (palette::ACCENT, palette::TEXT)
    };
    canvas.blend_rect(0, y, w, band_h, palette::PANEL, 190);
    texts.cover((0, y, w, band_h));
    canvas.blend_rect(0, y, w, 2, edge, 200);
    canvas.blend_rect(0, y + band_h - 2, w, 2, edge, 200);
    // An explosion's countdown is a figure; a pause is not.
    let part = match exploded {
        true => Part::figure(message, colour, "countdown"),
        false => Part::plain(message, colour),
    };
    texts.push(TextLine {
        x: w / 2,
        y: y + 4 * scale,
        align: Align::Centre,
        scale: scale_u32(scale),
        parts: vec![part],
        shadow: true,
        clip: None,
    });
}
