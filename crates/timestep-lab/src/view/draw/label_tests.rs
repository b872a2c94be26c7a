//! No pane label covers a rope or its pin: at every window size and pixel density, in the
//! split view and the overlay, with the lanes of the plain launch, of four engines, of a 60 Hz
//! tick cut into substeps and of every lesson, with the control panel open or closed. Each
//! lane runs for a while on a 60 Hz clock first, so its labels hold the figures a window shows.

use super::rope::reach_px;
use super::view::rope_box;
use super::*;
use crate::model::lane::{Lane, LaneSpec, parse_lanes};
use crate::model::rope::{Drive, RopeParams};
use crate::view::lessons::LESSONS;
use timestep_loop::{MaxSubstep, PolicyEnv, TimingConfig};

/// A 60 Hz frame, ns.
const FRAME_NS: u64 = 16_666_667;

/// One set of lanes and the rope and loop they run.
struct Case {
    what: String,
    specs: Vec<LaneSpec>,
    rope: RopeParams,
    env: PolicyEnv,
    caption: Vec<String>,
}

/// The window's own loop: a 1 ms tick, 250 ms clamp; presets' ticks in 1 ms substeps.
fn window_env(tick_ns: u64, max_substep: MaxSubstep) -> PolicyEnv {
    let timing = TimingConfig::textbook(tick_ns, 250_000_000, None);
    PolicyEnv::textbook(timing.unwrap_or_else(|e| panic!("{e}"))).with_max_substep(max_substep)
}

fn cases() -> Vec<Case> {
    let swaying = RopeParams {
        drive: Drive::sway(),
        ..RopeParams::default()
    };
    let lanes = |names: &str| parse_lanes(names).unwrap_or_else(|e| panic!("{e}"));
    let plain = |what: &str, names: &str, env| Case {
        what: what.to_string(),
        specs: lanes(names),
        rope: swaying,
        env,
        caption: Vec::new(),
    };
    let mut cases = vec![
        plain(
            "the plain launch",
            "interpolated,unity+tick=10hz,variable",
            window_env(1_000_000, MaxSubstep::Default),
        ),
        plain(
            "four engines",
            "godot,bevy,unity,glaiel",
            window_env(1_000_000, MaxSubstep::Default),
        ),
        // --dt 60hz, then the panel's Add substeps: "tick 16.667ms in 17 substeps of 0.98ms".
        plain(
            "a 60 Hz tick in substeps",
            "interpolated,unity+tick=10hz,variable",
            window_env(FRAME_NS, MaxSubstep::Set(980_000)),
        ),
        plain(
            "the four modes",
            "variable,semi-fixed,fixed,interpolated",
            window_env(1_000_000, MaxSubstep::Default),
        ),
        Case {
            rope: RopeParams {
                drive: Drive::Circle {
                    period_ns: 3_000_000_000,
                },
                ..swaying
            },
            ..plain(
                "the four modes, circling",
                "variable,semi-fixed,fixed,interpolated",
                window_env(1_000_000, MaxSubstep::Default),
            )
        },
    ];
    for (i, lesson) in LESSONS.iter().enumerate() {
        let specs = lesson.lane_specs();
        if specs.len() < 2 {
            continue;
        }
        cases.push(Case {
            what: format!("lesson {}", i + 1),
            specs,
            rope: RopeParams {
                drive: lesson.drive,
                ..RopeParams::default()
            },
            env: PolicyEnv::textbook(lesson.timing()).with_max_substep(lesson.max_substep()),
            caption: lesson.caption_lines(i + 1),
        });
    }
    cases
}

/// `case`'s lanes after `frames` frames at 60 Hz.
fn run(case: &Case, frames: u64) -> Vec<Lane> {
    let mut lanes: Vec<Lane> = case
        .specs
        .iter()
        .map(|&spec| Lane::new(spec, &case.rope, &case.env).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    for i in 1..=frames {
        for lane in &mut lanes {
            lane.advance(FRAME_NS, i * FRAME_NS);
        }
    }
    lanes
}

/// The box a rope drawn with `view` can reach, pixels (its world box, with the beads past it
/// and the pin's support symbol above its pin), as `(left, top, right, bottom)`.
fn reach_of(params: &RopeParams, view: &View) -> (f32, f32, f32, f32) {
    let (min, max) = rope_box(params);
    let (a, b) = (view.to_screen(min), view.to_screen(max));
    let (above, around) = reach_px(view.scale, params.pin == crate::model::rope::Pin::Both);
    let pin = view.to_screen(Vec2::new(0.0, params.drive.rise_m()));
    (
        a.x.min(b.x) - around,
        (a.y.min(b.y) - around).min(pin.y - above),
        a.x.max(b.x) + around,
        a.y.max(b.y) + around,
    )
}

/// Whether the label box `a` and the pixel box `r` overlap.
fn overlaps(a: Area, (l, t, r, b): (f32, f32, f32, f32)) -> bool {
    let (x0, y0) = (a.x as f32, a.y as f32);
    let (x1, y1) = (x0 + a.w as f32, y0 + a.h as f32);
    x0 < r && l < x1 && y0 < b && t < y1
}

/// Checks every label box the screen drew against every rope's reach and every particle
/// drawn; `Err` says which.
fn check(screen: &Screen, lanes: &[&Lane], params: &RopeParams) -> Result<(), String> {
    let layout = screen.layout();
    // Nor a marker's track, which the plain launch's caption says to watch.
    for (k, label) in screen.label_boxes().iter().enumerate() {
        let track = layout.tracks.iter().filter(|t| t.h > 0).find(|t| {
            let r = (
                t.x as f32,
                t.y as f32,
                (t.x + t.w) as f32,
                (t.y + t.h) as f32,
            );
            overlaps(*label, r)
        });
        if let Some(t) = track {
            return Err(format!("label {k} {label:?} covers the marker track {t:?}"));
        }
    }
    for (i, lane) in lanes.iter().enumerate() {
        let view = layout.views[i];
        let reach = reach_of(params, &view);
        let drawn: Vec<Vec2> = screen.drawn(i).iter().map(|&p| view.to_screen(p)).collect();
        for (k, label) in screen.label_boxes().iter().enumerate() {
            if overlaps(*label, reach) {
                return Err(format!(
                    "label {k} {label:?} covers lane {} ({})'s reach {reach:?}",
                    i + 1,
                    lane.name()
                ));
            }
            if let Some(p) = drawn.iter().find(|p| label.contains(**p)) {
                return Err(format!("label {k} {label:?} covers lane {}'s {p}", i + 1));
            }
        }
    }
    Ok(())
}

#[test]
fn no_label_covers_a_rope_or_its_pin_at_any_size_view_or_lesson() {
    // Window sizes in physical pixels, and the panel's width and the HUD bar's height egui
    // gives at that density (1x: 356 and 64 px; 2x: twice that; 0: hidden or the pixel HUD).
    let windows = [
        ((864, 540), 1),
        ((1105, 691), 1),
        ((1280, 800), 1),
        ((1920, 1080), 1),
        ((2560, 1600), 2),
        ((1728, 1080), 2),
        ((640, 480), 1),
    ];
    let mut buf = Vec::new();
    let (mut checked, mut labels, mut labelled) = (0, 0, 0);
    for case in cases() {
        let lanes = run(&case, 120);
        let shown: Vec<&Lane> = lanes.iter().collect();
        for &((w, h), density) in &windows {
            for (panel, bar) in [(0, 0), (356 * density, 64 * density)] {
                for overlay in [false, true] {
                    let arrangement = Arrangement {
                        size: (w, h),
                        lanes: shown.len(),
                        split: true,
                        hud: true,
                        overlay,
                        panel,
                        bar,
                    };
                    let mut screen = Screen::new(&case.rope, arrangement);
                    screen.set_caption(&case.caption);
                    buf.resize((w * h * 4) as usize, 0);
                    let frame = Overlay {
                        keep: true,
                        ..Overlay::default()
                    };
                    screen.draw(&mut buf, &shown, &frame);
                    let view = if overlay { "overlay" } else { "split" };
                    let at = format!("{} at {w}x{h} ({view}, panel {panel})", case.what);
                    assert_eq!(screen.label_boxes().len(), shown.len(), "{at}");
                    labels += shown.len();
                    labelled += screen.label_boxes().iter().filter(|a| a.h > 0).count();
                    if let Err(e) = check(&screen, &shown, &case.rope) {
                        panic!("{at}: {e}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 200, "{checked}");
    // Labels are left out only where a pane is too short for one line of them.
    assert!(
        labelled * 20 >= labels * 19,
        "{labelled} of {labels} labels drawn"
    );
}

/// The room a label needs grows the layout's band: a label of five wrapped lines keeps the
/// ropes below all five.
#[test]
fn a_label_that_wraps_pushes_the_ropes_down() {
    let params = RopeParams::default();
    let (w, h) = (1280, 800);
    let usual = Layout::split(&params, (w, h), 4, (64, 0), 0);
    let tall = 120;
    let pushed = Layout::split(&params, (w, h), 4, (64, 0), tall);
    assert_ne!(usual.views, pushed.views);
    for ((area, view), slot) in pushed.areas.iter().zip(&pushed.views).zip(&pushed.slots) {
        let (_, top, _, _) = reach_of(&params, view);
        assert!(top >= (area.y + tall) as f32, "{top} vs {}", area.y + tall);
        assert_eq!(slot.y + slot.h, area.y + tall);
    }
}

/// The trial: in the overlay, Tab moved the focus and nothing on screen said so (the lanes
/// share one pane border). The focused lane's label has a lit bar down its left.
#[test]
fn the_focused_lanes_label_is_lit_in_the_overlay() {
    let case = &cases()[0];
    let lanes = run(case, 10);
    let shown: Vec<&Lane> = lanes.iter().collect();
    let (w, h) = (1280, 800);
    let arrangement = Arrangement {
        size: (w, h),
        lanes: shown.len(),
        split: true,
        hud: true,
        overlay: true,
        panel: 0,
        bar: 64,
    };
    let mut buf = vec![0u8; (w * h * 4) as usize];
    let lit = |focused: usize, buf: &mut Vec<u8>| -> Vec<bool> {
        let mut screen = Screen::new(&case.rope, arrangement);
        let frame = Overlay {
            focused,
            keep: true,
            ..Overlay::default()
        };
        screen.draw(buf, &shown, &frame);
        let accent = super::palette::ACCENT;
        screen
            .label_boxes()
            .iter()
            .map(|b| {
                let i = ((b.y + b.h / 2) * w + b.x) as usize * 4;
                let px = &buf[i..i + 3];
                px.iter().zip(accent).all(|(&p, a)| p.abs_diff(a) < 40)
            })
            .collect()
    };
    assert_eq!(lit(1, &mut buf), [false, true, false]);
    assert_eq!(lit(2, &mut buf), [false, false, true]);
}
