//! Bitmap text from the public-domain 8×8 font (`font8x8`), blitted straight into the frame at
//! an integer scale.
//!
//! The crate is used without its `unicode` feature, so the glyphs come from its
//! `legacy::BASIC_LEGACY` table: printable ASCII only. [`to_ascii`] maps the few non-ASCII
//! characters our text uses (minus signs, dashes, Greek letters, µ) to ASCII stand-ins, and
//! anything else to `?`.

use super::canvas::{Canvas, Rgb};
use font8x8::legacy::BASIC_LEGACY;

/// Glyph cell size in font pixels (multiply by the scale for screen pixels).
pub const GLYPH: u32 = 8;

/// The ASCII character drawn for `ch`.
pub fn to_ascii(ch: char) -> char {
    match ch {
        ' '..='~' => ch,
        '\t' => ' ',
        '\u{2212}' | '\u{2010}'..='\u{2015}' => '-', // minus, hyphens, en and em dashes
        '\u{00b7}' | '\u{2022}' | '\u{2026}' => '.', // middle dot, bullet, ellipsis
        '\u{00d7}' => 'x',
        '\u{00b1}' => '~',
        '\u{2018}' | '\u{2019}' | '\u{2032}' => '\'',
        '\u{201c}' | '\u{201d}' | '\u{2033}' => '"',
        '\u{2190}' => '<',
        '\u{2192}' => '>',
        '\u{2191}' => '^',
        '\u{2193}' => 'v',
        '\u{2264}' => '<',
        '\u{2265}' => '>',
        '\u{00b5}' | '\u{03bc}' => 'u',
        '\u{03b1}' => 'a',
        '\u{03b2}' => 'b',
        '\u{03b3}' => 'g',
        '\u{03b4}' | '\u{0394}' => 'd',
        '\u{03c9}' => 'w',
        '\u{00a0}' | '\u{2009}' | '\u{202f}' => ' ',
        _ => '?',
    }
}

/// `text` with every character mapped by [`to_ascii`]: what the screen will show.
pub fn ascii(text: &str) -> String {
    text.chars().map(to_ascii).collect()
}

/// Width in pixels of `text` drawn at `scale`.
pub fn text_width(text: &str, scale: u32) -> u32 {
    (text.chars().count() as u32).saturating_mul(GLYPH * scale)
}

/// Draws `text` with its top-left corner at (`x`, `y`); returns the x just past its end.
/// Pixels outside the buffer (or its clip) are skipped, a whole glyph at a time where it can.
pub fn draw_text(canvas: &mut Canvas, x: i64, y: i64, text: &str, scale: u32, c: Rgb) -> i64 {
    let s = i64::from(scale.max(1));
    let advance = i64::from(GLYPH) * s;
    let mut pen = x;
    for ch in text.chars() {
        if pen >= i64::from(canvas.width()) {
            break;
        }
        if canvas.visible(pen, y, advance, advance) {
            draw_glyph(canvas, pen, y, to_ascii(ch), s, c);
        }
        pen += advance;
    }
    pen
}

/// `text` with a one-font-pixel dark shadow below-right, for text not on a panel.
pub fn draw_text_shadowed(
    canvas: &mut Canvas,
    x: i64,
    y: i64,
    text: &str,
    scale: u32,
    c: Rgb,
    shadow: Rgb,
) -> i64 {
    let s = i64::from(scale.max(1));
    draw_text(canvas, x + s, y + s, text, scale, shadow);
    draw_text(canvas, x, y, text, scale, c)
}

fn draw_glyph(canvas: &mut Canvas, x: i64, y: i64, ch: char, s: i64, c: Rgb) {
    let rows = &BASIC_LEGACY[ch as usize & 0x7f];
    for (r, &bits) in rows.iter().enumerate() {
        // Bit 0 is the leftmost pixel; each run of set bits is one rectangle.
        let mut col = 0;
        while col < 8 {
            if bits & (1 << col) == 0 {
                col += 1;
                continue;
            }
            let start = col;
            while col < 8 && bits & (1 << col) != 0 {
                col += 1;
            }
            let (gx, gy) = (x + start as i64 * s, y + r as i64 * s);
            canvas.fill_rect(gx, gy, (col - start) as i64 * s, s, c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_ascii_signs_and_letters_map_to_ascii_stand_ins() {
        assert_eq!(
            ascii("\u{2212}3 \u{2014} \u{03b1}=0.5 \u{00b5}s \u{2603}"),
            "-3 - a=0.5 us ?"
        );
    }

    #[test]
    fn a_glyph_sets_pixels_only_inside_its_scaled_cell() {
        let mut buf = vec![0u8; 40 * 20 * 4];
        let mut c = Canvas::new(&mut buf, 40, 20).unwrap();
        let end = draw_text(&mut c, 2, 2, "H", 2, [255, 255, 255]);
        assert_eq!(end, 18);
        let lit: Vec<(usize, usize)> = (0..20)
            .flat_map(|y| (0..40).map(move |x| (x, y)))
            .filter(|&(x, y)| buf[(y * 40 + x) * 4] == 255)
            .collect();
        assert!(!lit.is_empty());
        assert!(
            lit.iter()
                .all(|&(x, y)| (2..18).contains(&x) && (2..18).contains(&y))
        );
    }

    #[test]
    fn text_running_off_any_edge_is_clipped_without_panicking() {
        let mut buf = vec![0u8; 16 * 8 * 4];
        let mut c = Canvas::new(&mut buf, 16, 8).unwrap();
        draw_text(&mut c, -20, -3, "clipped text", 3, [255, 0, 0]);
        draw_text(&mut c, i64::MIN / 2, 0, "x", 1, [255, 0, 0]);
        draw_text(&mut c, 10, 5, "WW", 1, [255, 0, 0]);
    }
}
