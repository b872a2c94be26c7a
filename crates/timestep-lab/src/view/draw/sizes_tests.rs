//! Every view drawn at every size: no buffer size may panic (a split view 1280x500 once did).
//! Every part's geometry is worked out at each size, on a canvas clipped to nothing so the
//! sweep spends no time filling pixels.

use super::*;
use crate::model::rope::{Rope, RopeParams};
use crate::view::lessons::LESSONS;

#[test]
fn every_lesson_has_a_pane_for_each_of_its_lanes() {
    for l in &LESSONS {
        let lanes = l.lane_specs().len();
        assert!(
            (1..=MAX_PANES).contains(&lanes),
            "{}: {lanes} lanes",
            l.title
        );
    }
}

/// Long help lines, as the window's help has (its key column, then a description).
fn help() -> Vec<String> {
    let mut lines = vec!["Keys".to_string()];
    lines.extend((0..20).map(|i| format!("Shift+{i:<6}  does something with the loop, {i}")));
    lines
}

/// A strip of uneven frames with `lanes` lanes.
fn strip(lanes: usize) -> FrameStrip {
    let mut strip = FrameStrip::new(300);
    for i in 0..300u32 {
        let steps: Vec<u32> = (0..lanes as u32).map(|l| (i + l) % 40).collect();
        strip.push(if i % 37 == 0 { 120.0 } else { 16.7 }, &steps);
    }
    strip
}

/// A HUD for `lanes` lanes, its strings as long as the window's get.
fn hud(lanes: usize) -> HudInfo {
    let row = |i: usize| LaneRow {
        name: format!("fixed+fuzzy {i}"),
        tick: "16.667ms x17 smooth".into(),
        vsync: "59.94 Hz".into(),
        judder: "1.02 px rms".into(),
        ..Default::default()
    };
    HudInfo {
        pacing: "adaptive 22.0ms 1 miss".into(),
        present_mode: "FifoRelaxed (vsync)".into(),
        input: "10.0 ms, mean 10.0".into(),
        lanes: (0..lanes).map(row).collect(),
        ..Default::default()
    }
}

/// What goes over the panes in one sweep.
#[derive(Clone, Copy)]
struct Overlays {
    hud: bool,
    caption: bool,
    help: bool,
    banner: bool,
    /// The lanes overlaid in one pane.
    overlay: bool,
    /// Paused and stepped back: the HUD says so.
    paused: bool,
}

/// Draws `lanes` panes (one: the single view) with `overlays` at every size in `sizes`: the
/// layout, each pane's grid, label and (with `ropes`) rope, then the overlays, as
/// [`Renderer::draw`] does. The canvas is clipped to nothing, so every size's geometry is
/// worked out and no time goes on filling pixels; the ropes (tiny-skia's, the slow part) are
/// drawn for real at one size in seven.
fn sweep(lanes: usize, overlays: Overlays, ropes: bool, sizes: &[(u32, u32)]) {
    let params = RopeParams::default();
    let positions: Vec<Vec2> = Rope::new(params).positions().collect();
    let (help, strip) = (help(), strip(lanes));
    let hud = HudInfo {
        paused: overlays.paused,
        rewound: if overlays.paused { 599 } else { 0 },
        overlay: overlays.overlay,
        ..hud(lanes)
    };
    let caption = LESSONS[1].caption_lines(2);
    let shown_ns: Vec<u64> = (0..12u64)
        .map(|i| i * 16_666_667 + (i % 3) * 20_000_000)
        .collect();
    let mut scratch = rope::RopeScratch::default();
    let (mut grid_x, mut grid_y) = (Vec::new(), Vec::new());
    let mut buf = Vec::new();
    for &(w, h) in sizes {
        let reserve = match overlays.caption {
            true => overlay::caption_band(w, h, &caption),
            false => 0,
        };
        let layout = if lanes == 1 {
            Layout::single(&params, (w, h), overlays.hud, (0, reserve))
        } else if overlays.overlay {
            Layout::overlay(
                &params,
                (w, h),
                lanes,
                (bar_of(overlays.hud, w, h), reserve),
            )
        } else {
            Layout::split(
                &params,
                (w, h),
                lanes,
                (bar_of(overlays.hud, w, h), reserve),
                0,
            )
        };
        let panes: Vec<Pane> = (0..lanes)
            .map(|i| Pane {
                rope: RopeLook {
                    positions: &positions,
                    pinned: &[0],
                    grabbed: Some(Grip {
                        index: 3,
                        pull: Some(Vec2::new(9.0, -9.0)),
                    }),
                    exploded: i == 0,
                    trail: &positions,
                    colour: i,
                    overlaid: overlays.overlay,
                },
                view: layout.views[i],
                area: layout.areas[i],
                label: (lanes > 1).then(|| PaneLabel {
                    title: vec![
                        (format!("{} fixed+fuzzy", i + 1), "lane"),
                        ("  steps 17".into(), "steps"),
                    ],
                    detail: vec![("EXPLODED - resetting in 1.4 s (R now)".into(), "countdown")],
                    policy: vec![
                        ("16.667ms x17 smooth".into(), "loop"),
                        ("  59.94 Hz".into(), "vsync"),
                    ],
                    colour: i,
                    exploded: i == 0,
                    focused: i == 0,
                }),
                slot: layout.slots[i],
                marker: Marker {
                    track: layout.tracks[i],
                    shown_ns: &shown_ns,
                    colour: i,
                },
            })
            .collect();
        let scene = Scene {
            panes: &panes,
            hud: overlays.hud.then_some(&hud),
            strip: overlays.hud.then_some(&strip),
            help: overlays.help.then_some(&help[..]),
            banner: overlays
                .banner
                .then_some("EXPLODED - resetting in 1.4 s (R now)"),
            caption: overlays.caption.then_some(&caption[..]),
            hint: overlays
                .caption
                .then_some("L: next lesson  Shift+L: back  Esc: leave the lesson  F1: keys"),
            // The window's panel beside the help, where there is one.
            panel: if overlays.help { w / 3 } else { 0 },
        };
        buf.resize(w as usize * h as usize * 4, 0);
        let mut texts = Texts::default();
        let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for pane in &panes {
                if ropes && (w + h) % 7 == 0 {
                    rope::draw_rope(&mut buf, (w, h), &pane.rope, &pane.view, None, &mut scratch);
                }
                pane::grid_lines(&pane.view, pane.area, &mut grid_x, &mut grid_y);
                let Some(mut canvas) = Canvas::new(&mut buf, w, h) else {
                    return;
                };
                canvas.clip_to(0, 0, 0, 0);
                pane::draw_grid(&mut canvas, pane.area, &grid_x, &grid_y);
                pane::draw_marker(&mut canvas, pane);
                if let Some(label) = &pane.label {
                    pane::draw_label(&mut canvas, &mut texts, (pane.area, pane.slot), label);
                }
            }
            if let Some(mut canvas) = Canvas::new(&mut buf, w, h) {
                canvas.clip_to(0, 0, 0, 0);
                draw_overlays(&mut canvas, &mut texts, &scene);
            }
        }));
        assert!(drawn.is_ok(), "{lanes} lane(s) at {w}x{h} panicked");
        // Each pane label's text is clipped to its own pane.
        for line in texts.lines() {
            if let Some(clip) = line.clip {
                let pane = |a: &Area| {
                    (
                        i64::from(a.x),
                        i64::from(a.y),
                        i64::from(a.w),
                        i64::from(a.h),
                    )
                };
                assert!(
                    panes.iter().any(|p| pane(&p.area) == clip),
                    "{lanes} lane(s) at {w}x{h}: {:?} clipped to {clip:?}",
                    line.text()
                );
            }
        }
    }
}

/// Every height from 1 to 1,200 at a few widths, every width from 1 to 2,000 at a few heights.
fn every_size() -> Vec<(u32, u32)> {
    let mut sizes: Vec<(u32, u32)> = Vec::new();
    for w in [1, 97, 320, 1280] {
        sizes.extend((1..=1200).map(|h| (w, h)));
    }
    for h in [1, 60, 240, 500] {
        sizes.extend((1..=2000).map(|w| (w, h)));
    }
    sizes
}

const ALL: Overlays = Overlays {
    hud: true,
    caption: true,
    help: true,
    banner: true,
    overlay: false,
    paused: false,
};

#[test]
fn every_pane_count_with_every_overlay_draws_at_every_size() {
    let sizes = every_size();
    for lanes in 1..=MAX_PANES {
        sweep(lanes, ALL, true, &sizes);
    }
}

#[test]
fn every_pane_count_without_the_hud_draws_at_every_size() {
    let sizes = every_size();
    let bare = Overlays {
        hud: false,
        help: false,
        banner: false,
        caption: true,
        overlay: false,
        paused: false,
    };
    for lanes in 1..=MAX_PANES {
        sweep(lanes, bare, false, &sizes);
    }
}

#[test]
fn the_overlay_and_a_paused_frame_draw_at_every_size() {
    let sizes = every_size();
    for lanes in 2..=MAX_PANES {
        let overlay = Overlays {
            overlay: true,
            ..ALL
        };
        sweep(lanes, overlay, true, &sizes);
    }
    for lanes in 1..=MAX_PANES {
        let paused = Overlays {
            paused: true,
            overlay: lanes > 1,
            caption: false,
            ..ALL
        };
        sweep(lanes, paused, false, &sizes);
    }
}

/// The top row a lesson's caption (and the hint under it) paints over a bare `w × h` frame
/// with the strip shown, found by drawing it.
fn caption_top(lines: &[String], w: u32, h: u32) -> u32 {
    let strip = FrameStrip::new(300);
    let hint = "L: next lesson  Shift+L: back  Esc: leave the lesson  F1: keys";
    let draw = |caption: Option<&[String]>, hint: Option<&str>| {
        let scene = Scene {
            panes: &[],
            strip: Some(&strip),
            caption,
            hint,
            ..Scene::default()
        };
        let mut buf = vec![0u8; (w * h * 4) as usize];
        Renderer::new().draw(&mut buf, w, h, &scene);
        buf
    };
    let (bare, with) = (draw(None, None), draw(Some(lines), Some(hint)));
    let row = (w * 4) as usize;
    (0..h)
        .find(|&y| {
            let at = y as usize * row..(y as usize + 1) * row;
            bare[at.clone()] != with[at]
        })
        .unwrap_or(h)
}

#[test]
fn no_lessons_caption_covers_a_pane_or_a_rope() {
    let params = RopeParams::default();
    for (i, lesson) in LESSONS.iter().enumerate() {
        let lines = lesson.caption_lines(i + 1);
        let lanes = lesson.lane_specs().len();
        for (w, h) in [(1280, 800), (1920, 1080), (1024, 768), (800, 600)] {
            let top = caption_top(&lines, w, h);
            let reserve = overlay::caption_band(w, h, &lines);
            let bottom = if lanes > 1 {
                let layout =
                    Layout::split(&params, (w, h), lanes, (hud_bar_height(w, h), reserve), 0);
                let bar = hud_bar_height(w, h);
                let under = layout.areas.iter().find(|a| a.y < bar);
                assert!(
                    under.is_none(),
                    "lesson {} at {w}x{h}: {under:?} under the HUD",
                    i + 1
                );
                let area = |a: &Area| a.y + a.h;
                layout.areas.iter().map(area).max().unwrap_or(0)
            } else {
                // One lane fills the frame: its rope's box, and its marker's track.
                let layout = Layout::single(&params, (w, h), true, (0, reserve));
                let (min, _) = view::rope_box(&params);
                let rope = layout.views[0].to_screen(min).y.ceil() as u32;
                let track = layout.tracks[0];
                rope.max(track.y + track.h)
            };
            assert!(
                bottom <= top,
                "lesson {} at {w}x{h}: panes reach row {bottom}, the caption starts at {top} (reserve {reserve}, strip {})",
                i + 1,
                strip_height(w, h)
            );
        }
    }
}

/// Without a caption the key hint still has a band of its own: no pane, rope or marker
/// track runs under it (the trial saw the marker's newest square on the hint's words).
#[test]
fn the_key_hint_covers_no_pane() {
    let params = RopeParams::default();
    let hint = "F1: keys  F2: panel  L: lessons  M: mode  Tab: lane  V: split  P: pause  Esc: quit";
    for (w, h) in [
        (1280, 800),
        (1920, 1080),
        (1024, 768),
        (800, 600),
        (930, 800),
    ] {
        // The hint is text only (egui paints it): its line's top, as laid out.
        let strip = FrameStrip::new(300);
        let scene = Scene {
            strip: Some(&strip),
            hint: Some(hint),
            ..Scene::default()
        };
        let mut buf = vec![0u8; (w * h * 4) as usize];
        let mut renderer = Renderer::new();
        let texts = renderer.draw(&mut buf, w, h, &scene);
        let line = texts.lines().iter().find(|l| l.text() == hint);
        let top = line.map_or(0, |l| l.rect().1) as u32;
        let reserve = overlay::caption_band(w, h, &[]);
        let split = Layout::split(&params, (w, h), 4, (hud_bar_height(w, h), reserve), 0);
        let single = Layout::single(&params, (w, h), true, (0, reserve));
        for a in split.areas.iter().chain(&single.tracks) {
            assert!(
                a.y + a.h <= top,
                "{w}x{h}: {a:?} runs under the hint at row {top}"
            );
        }
    }
}

/// The pixel HUD's bar height when `hud`, else 0.
fn bar_of(hud: bool, w: u32, h: u32) -> u32 {
    if hud { hud_bar_height(w, h) } else { 0 }
}

/// Issue 26: at 1280x800 with the control panel open (764 pixels left of it), a lesson's
/// caption wrapped to the room rather than shrinking below the usual text scale.
#[test]
fn lesson_captions_wrap_at_the_usual_scale_left_of_the_panel() {
    let (w, h, panel) = (1280, 800, 516);
    for (i, lesson) in LESSONS.iter().enumerate() {
        let lines = lesson.caption_lines(i + 1);
        let scene = Scene {
            panes: &[],
            caption: Some(&lines),
            panel,
            ..Scene::default()
        };
        let mut buf = vec![0u8; (w * h * 4) as usize];
        let mut renderer = Renderer::new();
        let texts = renderer.draw(&mut buf, w, h, &scene).lines();
        let words = |t: &TextLine| t.parts.iter().map(|p| p.text.as_str()).collect::<String>();
        let drawn: String = texts.iter().map(words).collect::<Vec<_>>().join(" ");
        assert_eq!(drawn, lines.join(" "), "lesson {}: every word drawn", i + 1);
        for t in texts {
            let right = t.x + i64::from(super::text::text_width(&words(t), t.scale));
            assert_eq!(t.scale, 2, "lesson {}: {:?} drawn small", i + 1, words(t));
            assert!(
                right <= i64::from(w - panel),
                "lesson {}: {t:?} under the panel",
                i + 1
            );
        }
    }
}

/// The key help fits the height as well as the width: at 864x540 (a 1024x600 screen's
/// window) its 37 lines were cut off at both ends; it steps down a size instead.
#[test]
fn the_key_help_fits_the_frame_at_small_sizes() {
    let lines: Vec<String> = (0..37)
        .map(|i| format!("Key{i:<10} what key {i} does, in a line of usual length"))
        .collect();
    for (w, h) in [(864, 540), (1280, 800), (1105, 691)] {
        let scene = Scene {
            help: Some(&lines),
            ..Scene::default()
        };
        let mut buf = vec![0u8; (w * h * 4) as usize];
        let mut renderer = Renderer::new();
        let texts = renderer.draw(&mut buf, w, h, &scene);
        assert_eq!(texts.lines().len(), 37, "{w}x{h}: every line drawn");
        for line in texts.lines() {
            let (_, y, _, lh) = line.rect();
            assert!(
                y >= 0 && y + lh <= i64::from(h),
                "{w}x{h}: {:?} at {y}",
                line.text()
            );
        }
    }
}

/// The help in a room narrower than its lines at the smallest size (a window 420 px wide; the
/// trial saw "the last 10 s are kep" cut by the panel): its descriptions wrap to the room.
#[test]
fn the_key_help_wraps_to_a_narrow_room() {
    let lines: Vec<String> = (0..20)
        .map(|i| format!("Key{i:<10} paused: one frame back (the last 10 s are kept) {i}"))
        .collect();
    let (w, h, panel) = (420, 800, 0);
    let scene = Scene {
        help: Some(&lines),
        panel,
        ..Scene::default()
    };
    let mut buf = vec![0u8; (w * h * 4) as usize];
    let mut renderer = Renderer::new();
    let texts = renderer.draw(&mut buf, w, h, &scene);
    let words = |t: &TextLine| {
        t.text()
            .split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let drawn: Vec<String> = texts.lines().iter().flat_map(words).collect();
    let given: Vec<String> = lines
        .iter()
        .flat_map(|l| l.split_whitespace().map(String::from))
        .collect();
    assert_eq!(drawn, given, "every word, in order");
    for line in texts.lines() {
        let (x, _, lw, _) = line.rect();
        assert!(
            x + lw <= i64::from(w - panel),
            "{:?} ends at {}",
            line.text(),
            x + lw
        );
    }
}
