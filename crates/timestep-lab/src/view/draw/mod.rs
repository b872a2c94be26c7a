//! Drawing lanes, the HUD and the frame-time strip into an RGBA8 `&mut [u8]`.
//!
//! Pure: no winit, pixels or wgpu. The window draws into pixels' frame; `simulate --draw`
//! draws into an off-screen buffer with the very same code.
//!
//! A frame is drawn back to front: a dark vertical gradient, then each [`Pane`] — its faint
//! metre grid, its rope (tiny-skia, anti-aliased) and, in the split view, its label — clipped to
//! its own rectangle, then the frame strip along the bottom, the HUD top-left, and the help
//! panel and the banner when asked for. Every pixel written is opaque (straight alpha equals
//! premultiplied), so the buffer can be shown as `Rgba8UnormSrgb` as it is.
//!
//! Text is not drawn into the buffer: drawing lays it out and returns it as [`Texts`] (each
//! line's place, size, colours, and each figure's meaning from the [`glossary`]), for the
//! window to paint over the buffer in a real font.
//!
//! One concept per file: [`View`] (metres to pixels) in `view.rs`, [`Layout`] (where each pane
//! goes) in `layout.rs`, a pane's grid and label in `pane.rs`, the rope in `rope.rs`,
//! [`HudInfo`] in `hud.rs`, [`FrameStrip`] in `strip.rs`, help and banner in `overlay.rs`, the
//! colours in `palette.rs`, text as data in `text.rs`, what each figure means in
//! `glossary.rs`, and rectangle fills in `canvas.rs`.

mod canvas;
mod figures;
pub mod glossary;
mod hud;
mod lanes;
mod layout;
mod overlay;
mod palette;

/// A rope bead's fill colour, RGB: what a screenshot of a rope shows most of.
pub const BEAD: canvas::Rgb = palette::BEAD;
#[cfg(test)]
mod label_tests;
mod pane;
#[cfg(test)]
mod preview;
mod rope;
mod screen;
#[cfg(test)]
mod sizes_tests;
mod strip;
mod text;
mod view;
mod wall;
mod words;

pub use figures::ms;
pub use glossary::{LEGEND, tip};
pub use hud::{CaptureCaption, DisplayInfo, HudCell, HudInfo, LaneRow, text_scale};
pub use lanes::{LanePanes, Replay, explosion_banner};
pub use layout::{Area, Bands, Layout, MAX_PANES, OVERLAY_SPREAD, label_height};
pub use palette::lane_colours;
pub use pane::{Marker, Pane, PaneLabel, Run};
pub use screen::{Arrangement, Overlay, Screen};
pub use strip::FrameStrip;
pub use text::{Align, Part, TextLine, Texts, advance, cell, line_height};
pub use view::{DEFAULT_SIZE, View, default_px_per_m, judge_as_drawn};
pub use words::{alike_tip, clamp_text, max_steps_text, pacing_summary, vsync_summary};

use hud::{hud_bar_height, hud_column_width};
pub use strip::strip_height;

use canvas::Canvas;
use glam::Vec2;
use tiny_skia::{FillRule, Mask, PathBuilder, Transform};

/// A particle the mouse holds, in every rope: which, and where the hand pulls it, m (the
/// rope's coordinates; `None`: where it is). A held particle follows at a bounded speed, no
/// farther than its springs allow: a line to where it is pulled shows how far it lags.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Grip {
    /// The particle held.
    pub index: usize,
    /// Where the hand pulls it, m.
    pub pull: Option<Vec2>,
}

/// What to draw of one rope this frame (already blended where its mode blends).
#[derive(Clone, Copy, Debug)]
pub struct RopeLook<'a> {
    /// Every particle's position to draw, m, from particle 0.
    pub positions: &'a [Vec2],
    /// Indices of pinned particles (drawn as pins).
    pub pinned: &'a [usize],
    /// The particle held by the mouse, if any.
    pub grabbed: Option<Grip>,
    /// Whether the rope has exploded (drawn in the explosion's colour).
    pub exploded: bool,
    /// The free end's last shown positions, oldest first (the `G` trail): drawn as fading
    /// dots, evenly spaced when the motion shown is smooth.
    pub trail: &'a [Vec2],
    /// The lane's colour (an index for `palette::lane`): its trail is drawn in it in every
    /// view, so each lane's trail is told apart.
    pub colour: usize,
    /// The overlay: the rope too is drawn in the lane's colour, so several ropes in one pane
    /// can be told apart. `false`: the rope's own colour.
    pub overlaid: bool,
}

/// Everything one frame shows (`Default`: nothing at all, no panel).
#[derive(Clone, Copy, Debug, Default)]
pub struct Scene<'a> {
    /// One pane for the single view, up to [`MAX_PANES`] for the split view.
    pub panes: &'a [Pane<'a>],
    /// The HUD's figures; None: no HUD.
    pub hud: Option<&'a HudInfo>,
    /// The frame-time strip along the bottom; None: no strip.
    pub strip: Option<&'a FrameStrip>,
    /// The key help overlay's lines, when shown.
    pub help: Option<&'a [String]>,
    /// A large centred message, e.g. "EXPLODED - resetting in 1.4 s (R now)".
    pub banner: Option<&'a str>,
    /// A lesson's caption, in a band under the panes (the layout keeps them clear of it).
    pub caption: Option<&'a [String]>,
    /// A one-line key hint, right-aligned along the bottom of the panes (under the caption).
    pub hint: Option<&'a str>,
    /// Pixels along the right edge that the window's control panel covers: the hint,
    /// caption, banner and help keep left of them (0: none).
    pub panel: u32,
}

/// What goes over the panes (their text to `texts`): the strip, the HUD, a lesson's caption,
/// the banner, and last the help panel (when the user asks for it, it must be readable over
/// everything).
fn draw_overlays(canvas: &mut Canvas, texts: &mut Texts, scene: &Scene) {
    let scale = text_scale(canvas.height() as u32);
    if let Some(strip) = scene.strip {
        strip::draw_strip(canvas, texts, strip);
    }
    if let Some(hud) = scene.hud {
        hud::draw_hud(canvas, texts, hud, scale);
    }
    let strip = scene.strip.is_some();
    let room = room_width(canvas.width().max(0) as u32, scene.panel);
    let hint_h = scene.hint.map_or(0, |hint| {
        overlay::draw_hint(canvas, texts, hint, strip, room)
    });
    if let Some(lines) = scene.caption {
        overlay::draw_caption(canvas, texts, lines, strip, hint_h, room);
    }
    if let Some(message) = scene.banner {
        let exploded = scene.panes.iter().any(|p| p.rope.exploded);
        overlay::draw_banner(canvas, texts, message, exploded, room);
    }
    if let Some(lines) = scene.help {
        overlay::draw_help(canvas, texts, lines, scale, room);
    }
}

/// The width left of a control panel `panel` pixels wide in a buffer `width` wide: what the
/// panes and the overlays use. The panel is not made room for (it covers the panes) when that
/// would leave under a third of the width.
pub fn room_width(width: u32, panel: u32) -> u32 {
    let left = width.saturating_sub(panel);
    if left >= width / 3 { left } else { width }
}

/// A clip mask, the pane area it covers and the buffer size it was made for.
type PaneMask = (Area, (u32, u32), Mask);

/// Draws scenes; keeps scratch buffers between frames so drawing does not allocate.
#[derive(Debug, Default)]
pub struct Renderer {
    /// One row of background pixels, copied into every row of the frame.
    row: Vec<u8>,
    rope: rope::RopeScratch,
    /// Grid columns and rows, `(pixel, alpha)`.
    grid_x: Vec<(i64, u8)>,
    grid_y: Vec<(i64, u8)>,
    /// A clip mask per pane of the split view, for the buffer size and areas they were made
    /// for.
    masks: Vec<Option<PaneMask>>,
    /// The last frame's text.
    texts: Texts,
    /// Where the last frame drew its pane labels' boxes.
    labels: Vec<Area>,
}

impl Renderer {
    /// A renderer whose scratch buffers are empty until its first frame.
    pub fn new() -> Self {
        Renderer::default()
    }

    /// Draws `scene` into `frame`, an RGBA8 buffer of `width × height` pixels, and returns
    /// its text, for the caller to paint over it. Does nothing (and never panics) if the
    /// buffer is empty or its length does not match: the text is then empty too.
    pub fn draw(&mut self, frame: &mut [u8], width: u32, height: u32, scene: &Scene) -> &Texts {
        self.texts.clear();
        self.labels.clear();
        let Some(mut canvas) = Canvas::new(frame, width, height) else {
            return &self.texts;
        };
        let (top, bottom) = (palette::BG_TOP, palette::BG_BOTTOM);
        canvas.clear_gradient(top, bottom, palette::GRID, &[], &mut self.row);
        let mut last_area = None;
        for (i, p) in scene.panes.iter().enumerate() {
            // The overlay's panes share one area: its grid is drawn once, under every rope.
            let overlaid = last_area == Some(p.area);
            last_area = Some(p.area);
            self.draw_pane(frame, (width, height), i, p, overlaid);
        }
        // Labels over every rope: an overlaid rope must not cross another lane's label. The
        // focused lane's last, so its lit border is not drawn over where panes share one.
        let lit = |i: &usize| scene.panes[*i].label.as_ref().is_some_and(|l| l.focused);
        let (lit, rest): (Vec<usize>, Vec<usize>) = (0..scene.panes.len()).partition(lit);
        let mut boxes = vec![None; scene.panes.len()];
        for i in rest.into_iter().chain(lit) {
            let p = &scene.panes[i];
            if let (Some(label), Some(mut canvas)) = (&p.label, Canvas::new(frame, width, height)) {
                let at = (p.area, p.slot);
                boxes[i] = Some(pane::draw_label(&mut canvas, &mut self.texts, at, label));
            }
        }
        self.labels.extend(boxes.into_iter().flatten());
        if let Some(mut canvas) = Canvas::new(frame, width, height) {
            draw_overlays(&mut canvas, &mut self.texts, scene);
        }
        &self.texts
    }

    /// Where the last frame drew its pane labels' boxes (their text inside them), pixels, in
    /// pane order.
    pub fn label_boxes(&self) -> &[Area] {
        &self.labels
    }

    /// One pane: grid (unless `overlaid` on the pane before, in the same area), marker
    /// track and rope, all inside its area (its label comes after every pane's rope).
    fn draw_pane(
        &mut self,
        frame: &mut [u8],
        size: (u32, u32),
        index: usize,
        pane: &Pane,
        overlaid: bool,
    ) {
        let full = pane.area == Area::full(size.0, size.1);
        if !overlaid {
            pane::grid_lines(&pane.view, pane.area, &mut self.grid_x, &mut self.grid_y);
        }
        if let Some(mut canvas) = Canvas::new(frame, size.0, size.1) {
            if !overlaid {
                pane::draw_grid(&mut canvas, pane.area, &self.grid_x, &self.grid_y);
            }
            pane::draw_marker(&mut canvas, pane);
        }
        let clip = if full {
            None
        } else {
            clip_mask(&mut self.masks, index, pane.area, size).map(|m| (pane.area, m))
        };
        rope::draw_rope(frame, size, &pane.rope, &pane.view, clip, &mut self.rope);
    }
}

/// The clip mask for pane `index` covering `area` of a `size` buffer, made once and kept in
/// `masks` while the layout stays the same.
fn clip_mask(
    masks: &mut Vec<Option<PaneMask>>,
    index: usize,
    area: Area,
    size: (u32, u32),
) -> Option<&Mask> {
    if masks.len() <= index {
        masks.resize_with(index + 1, || None);
    }
    let fresh = |(a, s, _): &PaneMask| *a == area && *s == size;
    if !masks[index].as_ref().is_some_and(fresh) {
        let mut mask = Mask::new(size.0, size.1)?;
        let rect =
            tiny_skia::Rect::from_xywh(area.x as f32, area.y as f32, area.w as f32, area.h as f32)?;
        let path = PathBuilder::from_rect(rect);
        mask.fill_path(&path, FillRule::Winding, false, Transform::identity());
        masks[index] = Some((area, size, mask));
    }
    masks[index].as_ref().map(|(_, _, m)| m)
}

#[cfg(test)]
mod tests {
    use super::overlay::{description_column, key_split};
    use super::*;
    use crate::model::rope::{Pin, Rope, RopeParams};

    const W: u32 = 320;
    const H: u32 = 200;

    fn pixel(buf: &[u8], w: u32, p: Vec2) -> [u8; 4] {
        let i = ((p.y as u32 * w + p.x as u32) * 4) as usize;
        buf[i..i + 4].try_into().unwrap()
    }

    /// The single view of `rope`: one pane on the whole buffer.
    fn single<'a>(rope: RopeLook<'a>, view: &View, w: u32, h: u32) -> Pane<'a> {
        Pane {
            rope,
            view: *view,
            area: Area::full(w, h),
            label: None,
            slot: Area::default(),
            marker: Marker::default(),
        }
    }

    fn look<'a>(positions: &'a [Vec2], pinned: &'a [usize]) -> RopeLook<'a> {
        RopeLook {
            trail: &[],
            colour: 0,
            overlaid: false,
            positions,
            pinned,
            grabbed: None,
            exploded: false,
        }
    }

    fn render(rope: &Rope, view: &View, w: u32, h: u32) -> Vec<u8> {
        let pinned = rope.pinned_indices();
        let positions: Vec<Vec2> = rope.positions().collect();
        drawn(&[single(look(&positions, &pinned), view, w, h)], w, h)
    }

    /// What `view` draws with no rope at all.
    fn background(view: &View) -> Vec<u8> {
        drawn(&[single(look(&[], &[]), view, W, H)], W, H)
    }

    /// `panes` drawn into a fresh `w` × `h` buffer.
    fn drawn(panes: &[Pane<'_>], w: u32, h: u32) -> Vec<u8> {
        let mut buf = vec![0u8; (w * h * 4) as usize];
        Renderer::new().draw(
            &mut buf,
            w,
            h,
            &Scene {
                panes,
                ..Scene::default()
            },
        );
        buf
    }

    /// A held particle that lags its hand (at its speed or its reach) shows a line to where
    /// the hand pulls it: the trial saw it stop hundreds of pixels from the cursor with
    /// nothing linking the two.
    #[test]
    fn a_held_particle_that_lags_its_hand_shows_a_line_to_it() {
        let rope = Rope::new(RopeParams::default());
        let view = View::for_rope(rope.params(), W, H);
        let (pinned, positions) = (rope.pinned_indices(), rope.positions().collect::<Vec<_>>());
        let end = positions.len() - 1;
        let pull = positions[end] + Vec2::new(0.0, -2.0);
        let draw = |pull: Option<Vec2>| {
            let grip = Grip { index: end, pull };
            let look = RopeLook {
                grabbed: Some(grip),
                ..look(&positions, &pinned)
            };
            let panes = [single(look, &view, W, H)];
            let mut buf = vec![0u8; (W * H * 4) as usize];
            let scene = Scene {
                panes: &panes,
                ..Scene::default()
            };
            Renderer::new().draw(&mut buf, W, H, &scene);
            buf
        };
        let (still, pulled) = (draw(None), draw(Some(pull)));
        let mid = (view.to_screen(positions[end]) + view.to_screen(pull)) * 0.5;
        assert_eq!(pixel(&still, W, mid), pixel(&background(&view), W, mid));
        assert_ne!(pixel(&pulled, W, mid), pixel(&still, W, mid));
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
        strip.push(f32::NAN, &[3]);
        let hud = HudInfo {
            fps: f64::NAN,
            lanes: vec![LaneRow {
                energy_j: f64::INFINITY,
                ..Default::default()
            }],
            ..Default::default()
        };
        for view in &views {
            let rope = RopeLook {
                trail: &[],
                grabbed: Some(Grip {
                    index: 3,
                    pull: None,
                }),
                exploded: true,
                ..look(&bad, &[0, 1, 4, 99])
            };
            let panes = [single(rope, view, W, H)];
            let scene = Scene {
                panes: &panes,
                hud: Some(&hud),
                strip: Some(&strip),
                help: Some(&["\u{2603} snow".to_string()]),
                banner: Some("EXPLODED \u{2014} press R"),
                ..Scene::default()
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
        let positions: Vec<Vec2> = rope.positions().collect();
        let panes = [single(look(&positions, &[0]), &view, W, H)];
        let scene = Scene {
            panes: &panes,
            ..Scene::default()
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
            strip.push(16.0 + (i % 7) as f32, &[16]);
        }
        let hud = HudInfo {
            lanes: vec![LaneRow {
                name: "fixed".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let plain = render(&rope, &view, W, H);
        let help = ["Space  pause".to_string()];
        let positions: Vec<Vec2> = rope.positions().collect();
        let rope_look = RopeLook {
            trail: &[],
            grabbed: Some(Grip {
                index: 5,
                pull: None,
            }),
            ..look(&positions, &[0])
        };
        let panes = [single(rope_look, &view, W, H)];
        let scene = Scene {
            panes: &panes,
            hud: Some(&hud),
            strip: Some(&strip),
            help: Some(&help),
            banner: Some("PAUSED"),
            ..Scene::default()
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

    /// Four panes of the split view at 1280×720, pane 0's rope given by `first`.
    fn split_frame(first: &[Vec2], exploded: bool) -> (Vec<u8>, Layout) {
        let (w, h) = (1280, 720);
        let params = RopeParams::default();
        let layout = Layout::split(&params, (w, h), 4, (hud_bar_height(w, h), 0), 0);
        let hanging: Vec<Vec2> = Rope::new(params).positions().collect();
        let label = |i: usize| PaneLabel {
            title: vec![(format!("{} lane", i + 1), "lane")],
            detail: vec![("steps 17".into(), "steps")],
            policy: vec![("1ms raw  60.00 Hz".into(), "loop")],
            colour: i,
            exploded: false,
            focused: i == 0,
        };
        let panes: Vec<Pane> = (0..4)
            .map(|i| Pane {
                rope: RopeLook {
                    trail: &[],
                    exploded: i == 0 && exploded,
                    ..look(if i == 0 { first } else { &hanging }, &[0])
                },
                view: layout.views[i],
                area: layout.areas[i],
                label: Some(label(i)),
                slot: layout.slots[i],
                marker: Marker::default(),
            })
            .collect();
        let mut buf = vec![0u8; (w * h * 4) as usize];
        Renderer::new().draw(
            &mut buf,
            w,
            h,
            &Scene {
                panes: &panes,
                ..Scene::default()
            },
        );
        (buf, layout)
    }

    #[test]
    fn an_exploding_rope_in_one_pane_changes_no_pixel_outside_it() {
        let calm: Vec<Vec2> = Rope::new(RopeParams::default()).positions().collect();
        // A diverged rope: particles strewn metres apart in every direction, far past the
        // pane's edges (it is about 3 m across).
        let wild: Vec<Vec2> = (0..calm.len())
            .map(|i| {
                let a = i as f32 * 2.4;
                Vec2::new(a.cos(), a.sin()) * (i as f32 * 0.5)
            })
            .collect();
        let (before, layout) = split_frame(&calm, false);
        let (after, _) = split_frame(&wild, true);
        let pane = layout.areas[0];
        let mut inside_changed = 0;
        for y in 0..720u32 {
            for x in 0..1280u32 {
                let i = ((y * 1280 + x) * 4) as usize;
                let same = before[i..i + 4] == after[i..i + 4];
                if pane.contains(Vec2::new(x as f32 + 0.5, y as f32 + 0.5)) {
                    inside_changed += usize::from(!same);
                } else {
                    assert!(same, "pixel ({x}, {y}) outside pane 0 changed");
                }
            }
        }
        assert!(
            inside_changed > 1_000,
            "the explosion was drawn: {inside_changed} pixels"
        );
        let red = after
            .chunks_exact(4)
            .filter(|p| p[..3] == palette::ROPE_EXPLODED)
            .count();
        assert!(red > 100, "{red}");
    }
}
