//! Drawing the rope, the HUD and the frame-time strip into an RGBA8 `&mut [u8]`.
//!
//! Pure: no winit, pixels or wgpu. The window draws into pixels' frame; `simulate --draw`
//! draws into an off-screen buffer with the very same code.
//!
//! A frame is drawn back to front: a dark vertical gradient with a faint metre grid, the rope
//! (tiny-skia, anti-aliased), the frame strip along the bottom, the HUD top-left, then the
//! help panel and the banner when asked for. Every pixel written is opaque (straight alpha
//! equals premultiplied), so the buffer can be shown as `Rgba8UnormSrgb` as it is.
//!
//! One concept per file: [`View`] (metres to pixels) in `view.rs`, the rope in `rope.rs`,
//! [`HudInfo`] in `hud.rs`, [`FrameStrip`] in `strip.rs`, the 8×8 font in `text.rs`, and
//! rectangle fills in `canvas.rs`.

mod canvas;
mod hud;
#[cfg(test)]
mod preview;
mod rope;
mod strip;
mod text;
mod view;

pub use hud::{HudInfo, hud_column_width, text_scale};
pub use rope::{MAX_BEADS, rope_width_px};
pub use strip::{FrameStrip, strip_height};
pub use text::{ascii, to_ascii};
pub use view::View;

use canvas::{Canvas, PanelStyle};
use glam::Vec2;
use text::GLYPH;

/// The colours, in one place so the screen stays one palette.
mod palette {
    use super::canvas::{PanelStyle, Rgb};

    pub const BG_TOP: Rgb = [25, 28, 37];
    pub const BG_BOTTOM: Rgb = [12, 14, 19];
    pub const GRID: Rgb = [160, 176, 210];
    pub const ROPE: Rgb = [226, 206, 164];
    pub const BEAD: Rgb = [255, 243, 214];
    pub const BEAD_RIM: Rgb = [16, 18, 24];
    pub const ROPE_EXPLODED: Rgb = [255, 72, 72];
    pub const BEAD_EXPLODED: Rgb = [255, 168, 160];
    pub const ACCENT: Rgb = [79, 195, 247];
    pub const GRAB: Rgb = [255, 166, 72];
    pub const PANEL: Rgb = [9, 11, 15];
    pub const PANEL_ALPHA: u8 = 205;
    pub const PANEL_BORDER: Rgb = [58, 64, 80];
    pub const PANEL_STYLE: PanelStyle = PanelStyle {
        fill: PANEL,
        alpha: PANEL_ALPHA,
        border: PANEL_BORDER,
    };
    pub const TEXT: Rgb = [234, 238, 246];
    pub const LABEL: Rgb = [132, 142, 163];
    pub const GOOD: Rgb = [61, 214, 148];
    pub const WARN: Rgb = [255, 202, 76];
    pub const BAD: Rgb = [255, 92, 92];
    pub const STEPS: Rgb = [196, 140, 255];
    /// STEPS at about 30 % over the graph's near-black background.
    pub const STEPS_DIM: Rgb = [62, 45, 82];
    /// Reference lines: light grey at about 65 % over the graph's background.
    pub const REFERENCE: Rgb = [130, 135, 148];
    pub const GRAPH_BG: Rgb = [0, 0, 0];
}

/// What to draw of the rope this frame (already blended in interpolated mode).
#[derive(Clone, Copy, Debug)]
pub struct RopeLook<'a> {
    pub positions: &'a [Vec2],
    /// Indices of pinned particles (drawn as pins).
    pub pinned: &'a [usize],
    /// The particle held by the mouse, if any.
    pub grabbed: Option<usize>,
    pub exploded: bool,
}

/// Everything one frame shows.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    pub rope: RopeLook<'a>,
    pub view: &'a View,
    pub hud: Option<&'a HudInfo>,
    pub strip: Option<&'a FrameStrip>,
    /// The key help overlay's lines, when shown.
    pub help: Option<&'a [String]>,
    /// A large centred message, e.g. "EXPLODED — resetting in 1.4 s (R)".
    pub banner: Option<&'a str>,
}

/// Draws scenes; keeps scratch buffers between frames so drawing does not allocate.
#[derive(Debug, Default)]
pub struct Renderer {
    /// One row of background pixels, copied into every row of the frame.
    row: Vec<u8>,
    rope: rope::RopeScratch,
    /// Grid columns and rows, `(pixel, alpha)`.
    grid_x: Vec<(i64, u8)>,
    grid_y: Vec<(i64, u8)>,
}

impl Renderer {
    pub fn new() -> Self {
        Renderer::default()
    }

    /// Draws `scene` into `frame`, an RGBA8 buffer of `width × height` pixels. Does nothing
    /// (and never panics) if the buffer is empty or its length does not match.
    pub fn draw(&mut self, frame: &mut [u8], width: u32, height: u32, scene: &Scene) {
        let Some(mut canvas) = Canvas::new(frame, width, height) else {
            return;
        };
        grid_lines(
            scene.view,
            width,
            height,
            &mut self.grid_x,
            &mut self.grid_y,
        );
        let (top, bottom) = (palette::BG_TOP, palette::BG_BOTTOM);
        canvas.clear_gradient(top, bottom, palette::GRID, &self.grid_x, &mut self.row);
        for &(y, alpha) in &self.grid_y {
            canvas.blend_rect(0, y, i64::from(width), 1, palette::GRID, alpha);
        }

        rope::draw_rope(
            frame,
            width,
            height,
            &scene.rope,
            scene.view,
            &mut self.rope,
        );

        let Some(mut canvas) = Canvas::new(frame, width, height) else {
            return;
        };
        if let Some(strip) = scene.strip {
            strip::draw_strip(&mut canvas, strip);
        }
        let scale = text_scale(height);
        if let Some(hud) = scene.hud {
            hud::draw_hud(&mut canvas, hud, scale);
        }
        // The help panel goes last: when the user asks for it, it must be readable over
        // everything, the banner included.
        if let Some(message) = scene.banner {
            draw_banner(&mut canvas, message, scene.rope.exploded);
        }
        if let Some(lines) = scene.help {
            draw_help(&mut canvas, lines, scale);
        }
    }
}

/// Faint grid lines at a round number of metres, at least ~64 px apart, as `(pixel, alpha)`
/// for columns (`xs`) and rows (`ys`); the axes through particle 0 a little brighter.
fn grid_lines(
    view: &View,
    width: u32,
    height: u32,
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
    let lines = |origin: f32, extent: u32, out: &mut Vec<(i64, u8)>| {
        let first = (-origin / step).ceil();
        let last = ((extent as f32 - origin) / step).floor();
        if first.is_finite() && last.is_finite() && last - first < 4096.0 {
            for k in first as i64..=last as i64 {
                let at = (origin + k as f32 * step).round() as i64;
                out.push((at, if k == 0 { 22 } else { 11 }));
            }
        }
    };
    lines(view.origin_px.x, width, xs);
    lines(view.origin_px.y, height, ys);
}

/// Where a help line's key ends and its description begins: at the first run of two or more
/// spaces, else (a key that filled or overflowed its padded column) at the first space from
/// just before the column where the other lines' descriptions start.
fn key_split(line: &str, column: Option<usize>) -> usize {
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
fn description_column(lines: &[String]) -> Option<usize> {
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

/// The help overlay: `lines` on a centred panel. Each line's key (see [`key_split`]) is drawn
/// in the accent colour, the rest in white.
fn draw_help(canvas: &mut Canvas, lines: &[String], scale: u32) {
    let s = i64::from(scale);
    let g = i64::from(GLYPH) * s;
    let line_h = g + 4 * s;
    let pad = 10 * s;
    let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as i64;
    let (w, h) = (
        cols * g + 2 * pad,
        lines.len() as i64 * line_h - 4 * s + 2 * pad,
    );
    let x = (i64::from(canvas.width()) - w) / 2;
    let y = ((i64::from(canvas.height()) - h) / 2).max(0);
    let style = PanelStyle {
        alpha: 235,
        border: palette::ACCENT,
        ..palette::PANEL_STYLE
    };
    canvas.panel((x, y, w, h), style);
    let column = description_column(lines);
    for (i, line) in lines.iter().enumerate() {
        let ty = y + pad + i as i64 * line_h;
        if ty > i64::from(canvas.height()) {
            break;
        }
        let (key, rest) = line.split_at(key_split(line, column));
        let end = text::draw_text(canvas, x + pad, ty, key, scale, palette::ACCENT);
        text::draw_text(canvas, end, ty, rest, scale, palette::TEXT);
    }
}

/// A large message on a band across the middle of the screen: red when the rope exploded.
fn draw_banner(canvas: &mut Canvas, message: &str, exploded: bool) {
    let (w, h) = (i64::from(canvas.width()), i64::from(canvas.height()));
    let chars = message.chars().count().max(1) as i64;
    let mut scale: i64 = if h >= 480 { 4 } else { 2 };
    while scale > 1 && chars * i64::from(GLYPH) * scale > w - 16 {
        scale -= 1;
    }
    let g = i64::from(GLYPH) * scale;
    let band_h = g + 8 * scale;
    let y = (h - band_h) / 2;
    let (edge, colour) = if exploded {
        (palette::BAD, palette::BAD)
    } else {
        (palette::ACCENT, palette::TEXT)
    };
    canvas.blend_rect(0, y, w, band_h, palette::PANEL, 190);
    canvas.blend_rect(0, y, w, 2, edge, 200);
    canvas.blend_rect(0, y + band_h - 2, w, 2, edge, 200);
    let x = (w - chars * g) / 2;
    let s = scale as u32;
    text::draw_text_shadowed(canvas, x, y + 4 * scale, message, s, colour, palette::PANEL);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rope::{Pin, Rope, RopeParams};
    use crate::timing::Mode;

    const W: u32 = 320;
    const H: u32 = 200;

    fn pixel(buf: &[u8], w: u32, p: Vec2) -> [u8; 4] {
        let i = ((p.y as u32 * w + p.x as u32) * 4) as usize;
        buf[i..i + 4].try_into().unwrap()
    }

    fn render(rope: &Rope, view: &View, w: u32, h: u32) -> Vec<u8> {
        let pinned = rope.pinned_indices();
        let scene = Scene {
            rope: RopeLook {
                positions: &rope.positions().collect::<Vec<_>>(),
                pinned: &pinned,
                grabbed: None,
                exploded: false,
            },
            view,
            hud: None,
            strip: None,
            help: None,
            banner: None,
        };
        let mut buf = vec![0u8; (w * h * 4) as usize];
        Renderer::new().draw(&mut buf, w, h, &scene);
        buf
    }

    /// What `view` draws with no rope at all.
    fn background(view: &View) -> Vec<u8> {
        let scene = Scene {
            rope: RopeLook {
                positions: &[],
                pinned: &[],
                grabbed: None,
                exploded: false,
            },
            view,
            hud: None,
            strip: None,
            help: None,
            banner: None,
        };
        let mut buf = vec![0u8; (W * H * 4) as usize];
        Renderer::new().draw(&mut buf, W, H, &scene);
        buf
    }

    #[test]
    fn a_default_rope_changes_pixels_along_it_and_leaves_a_far_corner_as_background() {
        let rope = Rope::new(RopeParams::default());
        let view = View::for_rope(rope.params(), W, H);
        let buf = render(&rope, &view, W, H);
        let bg = background(&view);
        // Midway between two particles the stroke covers the pixel.
        let a = view.to_screen(rope.position(5));
        let b = view.to_screen(rope.position(6));
        let mid = (a + b) * 0.5;
        assert_ne!(pixel(&buf, W, mid), pixel(&bg, W, mid));
        for p in rope.positions() {
            let s = view.to_screen(p);
            assert_ne!(pixel(&buf, W, s), pixel(&bg, W, s), "at {s}");
        }
        let corner = Vec2::new(W as f32 - 1.0, H as f32 - 1.0);
        assert_eq!(pixel(&buf, W, corner), pixel(&bg, W, corner));
        assert!(buf.chunks_exact(4).all(|p| p[3] == 255));
    }

    #[test]
    fn a_pinned_particle_looks_different_from_a_free_one() {
        let rope = Rope::new(RopeParams::default());
        let view = View::for_rope(rope.params(), W, H);
        let buf = render(&rope, &view, W, H);
        let pin = pixel(&buf, W, view.to_screen(rope.position(0)));
        let free = pixel(&buf, W, view.to_screen(rope.position(4)));
        assert_ne!(pin, free);
        assert_eq!(&pin[..3], &palette::ACCENT);
    }

    #[test]
    fn both_pins_are_drawn_when_both_ends_are_pinned() {
        let rope = Rope::new(RopeParams {
            pin: Pin::Both,
            ..Default::default()
        });
        let view = View::for_rope(rope.params(), W, H);
        let buf = render(&rope, &view, W, H);
        let last = rope.positions().last().unwrap();
        assert_eq!(&pixel(&buf, W, view.to_screen(last))[..3], &palette::ACCENT);
    }

    #[test]
    fn non_finite_and_absurd_positions_draw_without_panicking() {
        let bad = [
            Vec2::ZERO,
            Vec2::new(f32::NAN, 0.0),
            Vec2::new(0.3, -0.2),
            Vec2::new(f32::INFINITY, f32::NEG_INFINITY),
            Vec2::new(1e30, -1e30),
            Vec2::new(-1e30, 3.0),
            Vec2::new(0.5, -0.5),
            Vec2::new(f32::MAX, f32::MIN),
        ];
        let views = [
            View::fit(Vec2::splat(-1.0), Vec2::splat(1.0), W, H),
            View {
                scale: f32::NAN,
                origin_px: Vec2::ZERO,
                width: W,
                height: H,
            },
            View {
                scale: 1e30,
                origin_px: Vec2::splat(1e30),
                width: W,
                height: H,
            },
            View {
                scale: 0.0,
                origin_px: Vec2::ZERO,
                width: W,
                height: H,
            },
        ];
        let mut strip = FrameStrip::new(10);
        strip.push(f32::NAN, 3);
        let hud = HudInfo {
            fps: f64::NAN,
            energy_j: f64::INFINITY,
            ..Default::default()
        };
        for view in &views {
            let scene = Scene {
                rope: RopeLook {
                    positions: &bad,
                    pinned: &[0, 1, 4, 99],
                    grabbed: Some(3),
                    exploded: true,
                },
                view,
                hud: Some(&hud),
                strip: Some(&strip),
                help: Some(&["\u{2603} snow".to_string()]),
                banner: Some("EXPLODED \u{2014} press R"),
            };
            let mut buf = vec![0u8; (W * H * 4) as usize];
            Renderer::new().draw(&mut buf, W, H, &scene);
            assert!(buf.chunks_exact(4).all(|p| p[3] == 255));
        }
    }

    #[test]
    fn a_buffer_of_the_wrong_length_or_zero_size_is_left_alone() {
        let rope = Rope::new(RopeParams::default());
        let view = View::for_rope(rope.params(), W, H);
        let scene = Scene {
            rope: RopeLook {
                positions: &rope.positions().collect::<Vec<_>>(),
                pinned: &[0],
                grabbed: None,
                exploded: false,
            },
            view: &view,
            hud: None,
            strip: None,
            help: None,
            banner: None,
        };
        let mut r = Renderer::new();
        let mut short = vec![7u8; (W * H * 4) as usize - 4];
        r.draw(&mut short, W, H, &scene);
        assert!(short.iter().all(|&b| b == 7));
        let mut empty: Vec<u8> = Vec::new();
        r.draw(&mut empty, 0, H, &scene);
        r.draw(&mut empty, W, 0, &scene);
    }

    #[test]
    fn help_keys_are_split_at_the_description_column() {
        let lines: Vec<String> = [
            "Keys",
            "M / Space    next mode",
            "Left / Right step",
            "1 / 2 / 3 / 4 pick a mode",
            "R            reset",
        ]
        .map(String::from)
        .to_vec();
        let column = description_column(&lines);
        assert_eq!(column, Some(13));
        let split = |l: &str| l.split_at(key_split(l, column)).0.to_string();
        assert_eq!(split(&lines[0]), "");
        assert_eq!(split(&lines[1]), "M / Space");
        assert_eq!(split(&lines[2]), "Left / Right");
        assert_eq!(split(&lines[3]), "1 / 2 / 3 / 4");
        assert_eq!(split("\u{2014}\u{2014}"), "");
        assert_eq!(key_split("x", Some(40)), 0);
    }

    #[test]
    fn the_strip_hud_help_and_banner_all_leave_their_mark() {
        let rope = Rope::new(RopeParams::default());
        let view = View::for_rope(rope.params(), W, H);
        let mut strip = FrameStrip::new(100);
        for i in 0..100 {
            strip.push(16.0 + (i % 7) as f32, 16);
        }
        let hud = HudInfo {
            mode: Some(Mode::Fixed),
            ..Default::default()
        };
        let plain = render(&rope, &view, W, H);
        let help = ["Space  pause".to_string()];
        let scene = Scene {
            rope: RopeLook {
                positions: &rope.positions().collect::<Vec<_>>(),
                pinned: &[0],
                grabbed: Some(5),
                exploded: false,
            },
            view: &view,
            hud: Some(&hud),
            strip: Some(&strip),
            help: Some(&help),
            banner: Some("PAUSED"),
        };
        let mut buf = vec![0u8; (W * H * 4) as usize];
        Renderer::new().draw(&mut buf, W, H, &scene);
        let changed = |x: u32, y: u32| {
            pixel(&buf, W, Vec2::new(x as f32, y as f32))
                != pixel(&plain, W, Vec2::new(x as f32, y as f32))
        };
        assert!(changed(12, 12), "HUD");
        assert!((0..W).any(|x| changed(x, H - 12)), "strip");
        assert!((0..W).any(|x| changed(x, H / 2)), "banner");
    }
}
