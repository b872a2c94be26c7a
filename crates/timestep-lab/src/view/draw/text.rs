//! The text over a frame, as data: drawing lays each line out in the buffer's pixels and hands
//! it back as a [`TextLine`] (where, how large, in which colours, and what each figure means);
//! the window paints the lines with egui, in a real font at any scale, and gives each figure
//! its tooltip. The library draws no glyphs itself.
//!
//! Sizes are in cells: at text scale `n` a line is [`line_height`] pixels tall and a character
//! advances [`advance`] pixels (a monospace font's advance, about 0.6 of its size), so widths
//! are known before the text is painted. The smallest scale is still readable: 12 px lines of
//! 7 px characters (a font of about 11.7 px); from scale 2 up, 8 and 5 px per unit.

use super::canvas::{Rect, Rgb};
use super::glossary;

/// A line's height in pixels per text-scale unit, from scale 2 up.
const GLYPH: u32 = 8;
/// A character's advance in pixels per text-scale unit, from scale 2 up.
const ADVANCE: u32 = 5;
/// The smallest scale's line height and advance, pixels: readable, where 8 and 5 are not.
const SMALLEST: (u32, u32) = (12, 7);

/// A line's height in pixels at text `scale` (0 reads as 1).
pub fn line_height(scale: u32) -> u32 {
    match scale {
        0 | 1 => SMALLEST.0,
        n => GLYPH.saturating_mul(n),
    }
}

/// A character's advance in pixels at text `scale` (0 reads as 1): the window sizes its
/// monospace font so that each character takes exactly this.
pub fn advance(scale: u32) -> u32 {
    match scale {
        0 | 1 => SMALLEST.1,
        n => ADVANCE.saturating_mul(n),
    }
}

/// A line's height and a character's advance in pixels at text `scale`, as `i64` for layout
/// arithmetic.
pub fn cell(scale: u32) -> (i64, i64) {
    (i64::from(line_height(scale)), i64::from(advance(scale)))
}

/// Width in pixels of `text` at `scale`.
pub fn text_width(text: &str, scale: u32) -> u32 {
    (text.chars().count() as u32).saturating_mul(advance(scale))
}

/// One run of a line's text in one colour; a figure's run carries what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The run's characters.
    pub text: String,
    /// The colour it is painted in.
    pub colour: Rgb,
    /// The figure's meaning, in one sentence with its unit (see [`glossary`]); `None`: not a
    /// figure.
    pub tip: Option<&'static str>,
}

impl Part {
    /// Text that is not a figure.
    pub fn plain(text: impl Into<String>, colour: Rgb) -> Part {
        Part {
            text: text.into(),
            colour,
            tip: None,
        }
    }

    /// A figure, with the meaning the glossary gives `term`.
    pub fn figure(text: impl Into<String>, colour: Rgb, term: &str) -> Part {
        Part {
            tip: glossary::tip(term),
            ..Part::plain(text, colour)
        }
    }
}

/// Which point of a line its `x` is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Align {
    /// `x` is the line's left edge.
    #[default]
    Left,
    /// `x` is the line's centre.
    Centre,
    /// `x` is the line's right edge.
    Right,
}

/// One line of text over the frame, in the buffer's pixels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextLine {
    /// The line's left edge, centre or right edge, as `align` says, px.
    pub x: i64,
    /// The line's top, px.
    pub y: i64,
    /// Which point of the line `x` is.
    pub align: Align,
    /// The text scale: the line is [`line_height`] pixels tall, each character [`advance`]
    /// wide.
    pub scale: u32,
    /// Its runs, left to right.
    pub parts: Vec<Part>,
    /// Drawn with a dark shadow below-right (text that is not on a panel).
    pub shadow: bool,
    /// What it is clipped to (a pane's label to its pane); `None`: the buffer.
    pub clip: Option<Rect>,
}

impl TextLine {
    /// Its width in pixels.
    pub fn width(&self) -> i64 {
        self.parts
            .iter()
            .map(|p| i64::from(text_width(&p.text, self.scale)))
            .sum()
    }

    /// The rectangle it takes, pixels.
    pub fn rect(&self) -> Rect {
        let w = self.width();
        let left = match self.align {
            Align::Left => self.x,
            Align::Centre => self.x - w / 2,
            Align::Right => self.x - w,
        };
        (left, self.y, w, i64::from(line_height(self.scale)))
    }

    /// Its text, every run joined.
    pub fn text(&self) -> String {
        self.parts.iter().map(|p| p.text.as_str()).collect()
    }
}

/// The lines one frame shows, in drawing order (a later line is over an earlier one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Texts {
    lines: Vec<TextLine>,
}

impl Texts {
    /// Forgets the last frame's lines.
    pub fn clear(&mut self) {
        self.lines.clear();
    }

    /// Every line, in drawing order.
    pub fn lines(&self) -> &[TextLine] {
        &self.lines
    }

    /// Forgets the lines so far that `rect` overlaps: a panel drawn over them in the buffer
    /// hides them, as it hides the pixels under it (the text is painted over the whole
    /// buffer).
    pub fn cover(&mut self, (x, y, w, h): Rect) {
        self.lines.retain(|line| {
            let (lx, ly, lw, lh) = line.rect();
            lx >= x + w || lx + lw <= x || ly >= y + h || ly + lh <= y
        });
    }

    /// Adds `line`; returns the x just past its right end.
    pub fn push(&mut self, line: TextLine) -> i64 {
        let end = match line.align {
            Align::Left => line.x + line.width(),
            Align::Centre => line.x + line.width() / 2,
            Align::Right => line.x,
        };
        if !line.parts.iter().all(|p| p.text.is_empty()) {
            self.lines.push(line);
        }
        end
    }

    /// Adds `parts` as a left-aligned line at (`x`, `y`); returns the x just past its end.
    pub fn put(&mut self, x: i64, y: i64, scale: u32, parts: Vec<Part>) -> i64 {
        self.push(TextLine {
            x,
            y,
            scale: scale.max(1),
            parts,
            ..TextLine::default()
        })
    }

    /// As [`Texts::put`], for one plain run.
    pub fn plain(&mut self, x: i64, y: i64, scale: u32, text: &str, colour: Rgb) -> i64 {
        self.put(x, y, scale, vec![Part::plain(text, colour)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_as_wide_as_its_characters_and_its_end_follows() {
        let mut t = Texts::default();
        let end = t.put(
            10,
            0,
            2,
            vec![
                Part::plain("ab", [1, 2, 3]),
                Part::plain("\u{00b5}s", [1, 2, 3]),
            ],
        );
        assert_eq!(end, 10 + 4 * 10);
        let small = Texts::default().put(0, 0, 1, vec![Part::plain("abc", [0; 3])]);
        assert_eq!(small, 3 * 7);
        assert_eq!(t.lines()[0].text(), "ab\u{00b5}s");
        assert_eq!(t.plain(0, 0, 1, "", [0; 3]), 0);
        assert_eq!(t.lines().len(), 1, "an empty line is left out");
    }

    #[test]
    fn the_smallest_scale_is_readable_and_larger_ones_grow_in_steps() {
        // A font of about 11.7 px at the smallest, where 8 px lines of 5 px characters (the
        // old scale 1, a font near 8 px) could not be read.
        assert_eq!((line_height(0), advance(0)), (12, 7));
        assert_eq!((line_height(1), advance(1)), (12, 7));
        assert_eq!(cell(2), (16, 10));
        assert_eq!(cell(4), (32, 20));
        for s in 1..8 {
            assert!(line_height(s + 1) > line_height(s) && advance(s + 1) > advance(s));
        }
    }

    #[test]
    fn a_panel_over_lines_hides_those_it_overlaps_and_no_other() {
        let mut t = Texts::default();
        t.plain(0, 0, 1, "under", [0; 3]);
        t.plain(0, 100, 1, "beside", [0; 3]);
        t.push(TextLine {
            x: 200,
            y: 20,
            align: Align::Right,
            scale: 1,
            parts: vec![Part::plain("right", [0; 3])],
            ..TextLine::default()
        });
        t.cover((10, 4, 50, 20));
        let left: Vec<String> = t.lines().iter().map(TextLine::text).collect();
        assert_eq!(left, ["beside", "right"]);
        t.cover((180, 25, 5, 5));
        assert_eq!(t.lines().len(), 1, "the right-aligned line ends at its x");
    }

    #[test]
    fn a_figure_carries_its_glossary_sentence_and_plain_text_none() {
        assert_eq!(
            Part::figure("1.0 px", [0; 3], "judder").tip,
            glossary::tip("judder")
        );
        assert!(Part::figure("1.0 px", [0; 3], "judder").tip.is_some());
        assert_eq!(Part::plain("Keys", [0; 3]).tip, None);
    }
}
