//! Plain pixel work on the RGBA8 frame: clears, opaque and translucent rectangles, dashed lines.
//!
//! Everything here is axis-aligned and integer, so it needs no anti-aliasing and runs as slice
//! fills and copies. Every rectangle is clipped to the buffer, so any coordinates are safe.

/// A straight-alpha RGB colour; every pixel written is opaque.
pub type Rgb = [u8; 3];

/// A rectangle in pixels: x, y, width, height.
pub type Rect = (i64, i64, i64, i64);

/// How a panel looks: a translucent fill with a one-pixel border.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PanelStyle {
    pub fill: Rgb,
    pub alpha: u8,
    pub border: Rgb,
}

/// The frame being drawn: `width × height` RGBA8 pixels, rows top to bottom. Drawing is
/// clipped to the buffer, or to a smaller rectangle set with [`Canvas::clip_to`].
pub struct Canvas<'a> {
    data: &'a mut [u8],
    width: i32,
    height: i32,
    /// The drawable rectangle, `x0, y0, x1, y1` (the whole buffer unless clipped).
    limit: (i64, i64, i64, i64),
}

impl<'a> Canvas<'a> {
    /// Wraps `data`, or `None` if it is not exactly `width × height × 4` bytes, is empty, or
    /// is too large to address with `i32` coordinates.
    pub fn new(data: &'a mut [u8], width: u32, height: u32) -> Option<Self> {
        let (w, h) = (i32::try_from(width).ok()?, i32::try_from(height).ok()?);
        let len = (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(4)?;
        if w == 0 || h == 0 || data.len() != len {
            return None;
        }
        Some(Canvas {
            data,
            width: w,
            height: h,
            limit: (0, 0, i64::from(w), i64::from(h)),
        })
    }

    /// From now on, draws only inside the rectangle and what was drawable before (a clip
    /// narrows; it never widens).
    pub fn clip_to(&mut self, x: i64, y: i64, w: i64, h: i64) {
        self.limit = match self.clip(x, y, w, h) {
            Some((x0, y0, x1, y1)) => (x0 as i64, y0 as i64, x1 as i64, y1 as i64),
            None => (0, 0, 0, 0),
        };
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    /// Fills every row with a colour running from `top` to `bottom`, with one-pixel vertical
    /// lines of `line` blended in at each `(x, alpha)` of `columns`. `row` is scratch, reused
    /// between frames: each row is one `copy_from_slice` of it, rebuilt only when the colour
    /// changes (a subtle gradient changes every few dozen rows).
    pub fn clear_gradient(
        &mut self,
        top: Rgb,
        bottom: Rgb,
        line: Rgb,
        columns: &[(i64, u8)],
        row: &mut Vec<u8>,
    ) {
        let stride = self.width as usize * 4;
        row.resize(stride, 0);
        let mut current: Option<Rgb> = None;
        let last = (self.height - 1).max(1) as f32;
        for (y, dst) in self.data.chunks_exact_mut(stride).enumerate() {
            let t = y as f32 / last;
            let c = mix(top, bottom, t);
            if current != Some(c) {
                fill_pixels(row, c);
                for &(x, alpha) in columns {
                    if (0..i64::from(self.width)).contains(&x) {
                        let at = x as usize * 4;
                        Blend::new(line, alpha).apply(&mut row[at..at + 4]);
                    }
                }
                current = Some(c);
            }
            dst.copy_from_slice(row);
        }
    }

    /// The part of the rectangle inside the drawable rectangle, as pixel bounds.
    fn clip(&self, x: i64, y: i64, w: i64, h: i64) -> Option<(usize, usize, usize, usize)> {
        let (lx0, ly0, lx1, ly1) = self.limit;
        let x0 = x.clamp(lx0, lx1);
        let y0 = y.clamp(ly0, ly1);
        let x1 = x.saturating_add(w.max(0)).clamp(lx0, lx1);
        let y1 = y.saturating_add(h.max(0)).clamp(ly0, ly1);
        (x1 > x0 && y1 > y0).then_some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
    }

    /// An opaque rectangle.
    pub fn fill_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let stride = self.width as usize * 4;
        for row in y0..y1 {
            let start = row * stride;
            fill_pixels(&mut self.data[start + x0 * 4..start + x1 * 4], c);
        }
    }

    /// A rectangle of `c` at `alpha` / 255 over what is there.
    pub fn blend_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb, alpha: u8) {
        if alpha == 255 {
            return self.fill_rect(x, y, w, h, c);
        }
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let stride = self.width as usize * 4;
        let blend = Blend::new(c, alpha);
        for row in y0..y1 {
            let start = row * stride;
            blend.apply(&mut self.data[start + x0 * 4..start + x1 * 4]);
        }
    }

    /// A translucent panel with a one-pixel border, the backdrop of all text.
    pub fn panel(&mut self, rect: Rect, style: PanelStyle) {
        self.panel_with_wells(rect, style, &[], ([0; 3], 0));
    }

    /// A panel with darker "wells" (graph backgrounds) in it: `well`'s colour at its alpha
    /// over the panel's fill, blended in the same single pass, so no pixel is blended twice.
    /// Wells must not overlap and must be sorted by x.
    pub fn panel_with_wells(
        &mut self,
        rect: Rect,
        style: PanelStyle,
        wells: &[Rect],
        well: (Rgb, u8),
    ) {
        let (x, y, w, h) = rect;
        let (fill, alpha, border) = (style.fill, style.alpha, style.border);
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let (wc, wa) = over(well, (fill, alpha));
        let (outer, inner) = (Blend::new(fill, alpha), Blend::new(wc, wa));
        let stride = self.width as usize * 4;
        for row in y0..y1 {
            let line = &mut self.data[row * stride..(row + 1) * stride];
            let mut at = x0;
            for &(wx, wy, ww, wh) in wells {
                let (row_i, wx0, wx1) = (row as i64, wx.max(at as i64), (wx + ww).min(x1 as i64));
                if row_i < wy || row_i >= wy + wh || wx1 <= wx0 {
                    continue;
                }
                let (wx0, wx1) = (wx0 as usize, wx1 as usize);
                outer.apply(&mut line[at * 4..wx0 * 4]);
                inner.apply(&mut line[wx0 * 4..wx1 * 4]);
                at = wx1;
            }
            outer.apply(&mut line[at * 4..x1 * 4]);
        }
        self.blend_rect(x, y, w, 1, border, 200);
        self.blend_rect(x, y + h - 1, w, 1, border, 200);
        self.blend_rect(x, y + 1, 1, h - 2, border, 200);
        self.blend_rect(x + w - 1, y + 1, 1, h - 2, border, 200);
    }

    /// One-pixel vertical lines of `c` at each `(x, alpha)` of `columns`, `h` rows from `y`:
    /// a faint grid, row by row (a `blend_rect` per line would redo the set-up every row).
    pub fn vlines(&mut self, columns: &[(i64, u8)], y: i64, h: i64, c: Rgb) {
        let (lx0, _, lx1, _) = self.limit;
        let lines: Vec<(usize, Blend)> = columns
            .iter()
            .filter(|&&(x, _)| (lx0..lx1).contains(&x))
            .map(|&(x, alpha)| (x as usize * 4, Blend::new(c, alpha)))
            .collect();
        let Some((_, y0, _, y1)) = self.clip(lx0, y, lx1 - lx0, h) else {
            return;
        };
        let stride = self.width as usize * 4;
        for row in self.data[y0 * stride..y1 * stride].chunks_exact_mut(stride) {
            for (at, blend) in &lines {
                blend.apply(&mut row[*at..*at + 4]);
            }
        }
    }

    /// A horizontal dashed line, `dash` pixels on and `gap` off.
    pub fn dashed_hline(&mut self, x: i64, y: i64, w: i64, dash: i64, gap: i64, c: Rgb) {
        let period = (dash + gap).max(1);
        let mut at = 0;
        while at < w {
            self.fill_rect(x + at, y, dash.min(w - at), 1, c);
            at += period;
        }
    }
}

/// `c` at `alpha` / 255 over opaque pixels, in 16-bit integer maths that the compiler
/// vectorises: four pixels (16 bytes) per iteration.
struct Blend {
    /// Source times alpha for 4 pixels' worth of bytes.
    src: [u16; 16],
    /// 255 on alpha bytes, ORed in so every pixel comes out opaque.
    opaque: [u8; 16],
    keep: u16,
}

impl Blend {
    fn new(c: Rgb, alpha: u8) -> Blend {
        let a = u16::from(alpha);
        let px = [c[0], c[1], c[2], 255].map(|v| u16::from(v) * a);
        let mut src = [0u16; 16];
        for (i, s) in src.iter_mut().enumerate() {
            *s = px[i % 4];
        }
        let opaque = std::array::from_fn(|i| if i % 4 == 3 { 255 } else { 0 });
        Blend {
            src,
            opaque,
            keep: 255 - a,
        }
    }

    // Kept out of line: inlined into a caller's loop it has been seen to lose its
    // vectorisation and run three times slower.
    #[inline(never)]
    fn apply(&self, bytes: &mut [u8]) {
        let mut quads = bytes.chunks_exact_mut(16);
        for q in &mut quads {
            self.apply_quad(q.try_into().expect("chunks of 16"));
        }
        let rest = quads.into_remainder();
        for ((b, s), o) in rest.iter_mut().zip(&self.src).zip(&self.opaque) {
            *b = self.mix(*b, *s) | o;
        }
    }

    #[inline(always)]
    fn apply_quad(&self, q: &mut [u8; 16]) {
        for ((b, s), o) in q.iter_mut().zip(&self.src).zip(&self.opaque) {
            *b = self.mix(*b, *s) | o;
        }
    }

    /// (src·a + dst·(255 − a)) / 255, rounded, without a division; at most 65,407, so u16.
    #[inline(always)]
    fn mix(&self, dst: u8, src_a: u16) -> u8 {
        let v = src_a + u16::from(dst) * self.keep + 128;
        ((v + (v >> 8)) >> 8) as u8
    }
}

/// The single colour and alpha equivalent to blending `top` over `under` (each a colour and
/// an alpha out of 255), over any opaque background.
pub fn over(top: (Rgb, u8), under: (Rgb, u8)) -> (Rgb, u8) {
    let (at, au) = (f32::from(top.1) / 255.0, f32::from(under.1) / 255.0);
    let a = at + au * (1.0 - at);
    if a <= 0.0 {
        return ([0; 3], 0);
    }
    let c = [0, 1, 2].map(|k| {
        let v = (f32::from(top.0[k]) * at + f32::from(under.0[k]) * au * (1.0 - at)) / a;
        v.round().clamp(0.0, 255.0) as u8
    });
    (c, (a * 255.0).round() as u8)
}

/// Linear mix of two colours, `t` in [0, 1].
pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    [0, 1, 2].map(|k| (f32::from(a[k]) + (f32::from(b[k]) - f32::from(a[k])) * t).round() as u8)
}

/// Writes opaque `c` into every whole pixel of `bytes`.
fn fill_pixels(bytes: &mut [u8], c: Rgb) {
    // Four pixels per store; the compiler turns this into vector moves.
    let px = [c[0], c[1], c[2], 255];
    let quad: [u8; 16] = std::array::from_fn(|i| px[i % 4]);
    let mut quads = bytes.chunks_exact_mut(16);
    for q in &mut quads {
        q.copy_from_slice(&quad);
    }
    for p in quads.into_remainder().chunks_exact_mut(4) {
        p.copy_from_slice(&px);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_canvas_refuses_a_buffer_of_the_wrong_length_or_zero_size() {
        let mut buf = vec![0u8; 4 * 4 * 4];
        assert!(Canvas::new(&mut buf, 4, 4).is_some());
        assert!(Canvas::new(&mut buf, 4, 3).is_none());
        assert!(Canvas::new(&mut [], 0, 4).is_none());
    }

    #[test]
    fn rectangles_far_outside_the_buffer_are_clipped_away() {
        let mut buf = vec![0u8; 8 * 8 * 4];
        let mut c = Canvas::new(&mut buf, 8, 8).unwrap();
        c.fill_rect(i64::MIN, i64::MIN, i64::MAX, i64::MAX, [255, 0, 0]);
        c.blend_rect(-5, 6, 100, 100, [0, 255, 0], 128);
        assert_eq!(&buf[..4], &[0, 0, 0, 0]);
        assert_eq!(&buf[(6 * 8) * 4..(6 * 8) * 4 + 4], &[0, 128, 0, 255]);
    }

    #[test]
    fn a_well_looks_the_same_as_blending_twice() {
        let mut once = vec![0u8; 8 * 4 * 4];
        let mut twice = once.clone();
        for (i, b) in once.iter_mut().chain(twice.iter_mut()).enumerate() {
            *b = (i * 37 % 251) as u8;
        }
        twice.copy_from_slice(&once);
        let style = PanelStyle {
            fill: [9, 11, 15],
            alpha: 205,
            border: [60, 60, 60],
        };
        let mut c = Canvas::new(&mut once, 8, 4).unwrap();
        c.panel_with_wells((0, 0, 8, 4), style, &[(2, 1, 4, 2)], ([0, 0, 0], 140));
        let mut c = Canvas::new(&mut twice, 8, 4).unwrap();
        c.panel((0, 0, 8, 4), style);
        c.blend_rect(2, 1, 4, 2, [0, 0, 0], 140);
        for (a, b) in once.iter().zip(&twice) {
            assert!(a.abs_diff(*b) <= 2, "{once:?}\n{twice:?}");
        }
    }

    #[test]
    fn blending_at_full_and_zero_alpha_gives_the_source_and_the_destination() {
        let mut buf = vec![100u8; 2 * 2 * 4];
        let mut c = Canvas::new(&mut buf, 2, 2).unwrap();
        c.blend_rect(0, 0, 1, 1, [200, 0, 255], 255);
        c.blend_rect(1, 0, 1, 1, [200, 0, 255], 0);
        assert_eq!(&buf[..8], &[200, 0, 255, 255, 100, 100, 100, 255]);
    }
}
