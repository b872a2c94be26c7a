//! Renders sample frames to `/tmp/timestep-rope-*.png` for a look by eye:
//! `cargo test --lib writes_preview_pngs -- --ignored`.

use super::*;
use crate::model::rope::{Pin, Previous, Rope, RopeParams};
use timestep_loop::Mode;

fn save(name: &str, buf: Vec<u8>, w: u32, h: u32) {
    let size = tiny_skia::IntSize::from_wh(w, h).unwrap();
    let pixmap = tiny_skia::Pixmap::from_vec(buf, size).unwrap();
    pixmap
        .save_png(format!("/tmp/timestep-rope-{name}.png"))
        .unwrap();
}

/// Saves the `cw × ch` region at (`x`, `y`) blown up `zoom` times, to judge anti-aliasing.
#[allow(clippy::too_many_arguments)]
fn save_zoom(name: &str, buf: &[u8], w: u32, h: u32, x: i32, y: i32, cw: u32, ch: u32, zoom: u32) {
    let size = tiny_skia::IntSize::from_wh(w, h).unwrap();
    let full = tiny_skia::Pixmap::from_vec(buf.to_vec(), size).unwrap();
    let part = full
        .clone_rect(tiny_skia::IntRect::from_xywh(x, y, cw, ch).unwrap())
        .unwrap();
    let mut out = tiny_skia::Pixmap::new(cw * zoom, ch * zoom).unwrap();
    let paint = tiny_skia::PixmapPaint {
        quality: tiny_skia::FilterQuality::Nearest,
        ..Default::default()
    };
    let t = tiny_skia::Transform::from_scale(zoom as f32, zoom as f32);
    out.draw_pixmap(0, 0, part.as_ref(), &paint, t, None);
    out.save_png(format!("/tmp/timestep-rope-{name}.png"))
        .unwrap();
}

fn swung(params: RopeParams, seconds: f32) -> Rope {
    let mut rope = Rope::new(params);
    for _ in 0..(seconds * 1000.0) as usize {
        rope.step(0.001, Previous::Save);
    }
    rope
}

fn strip() -> FrameStrip {
    let mut strip = FrameStrip::new(300);
    for i in 0..300u32 {
        // A 60 Hz display with timer jitter, a few missed vsyncs and one long stall, stepped
        // at a fixed 1 ms.
        let jitter = ((i * 7919) % 13) as f32 * 0.1 - 0.6;
        let ms = match i {
            120 => 41.0,
            200..=203 => 33.3,
            260 => 120.0,
            _ => 16.67 + jitter,
        };
        strip.push(ms, &[(ms + (i % 3) as f32 * 0.4).floor() as u32]);
    }
    strip
}

fn hud(particles: usize) -> HudInfo {
    HudInfo {
        timing: timestep_loop::TimingConfig::textbook(1_000_000, 250_000_000, None).ok(),
        particles,
        fps: 59.94,
        frame_ms: 16.683,
        paused: true,
        rewound: 0,
        overlay: false,
        pacing: "vsync".into(),
        input: "12.4 ms, mean 11.9".into(),
        present_mode: "Fifo (vsync)".into(),
        display: None,
        lanes: vec![LaneRow {
            name: Mode::Interpolated.name().into(),
            mode: Mode::Interpolated.name().into(),
            steps: 17,
            alpha: 0.3456,
            drift_ms: -0.412,
            dropped_ms: 104.0,
            energy_j: -2.375,
            exploded: false,
            tick: "1ms raw".into(),
            vsync: "59.94 Hz".into(),
            judder: "0.42 px rms".into(),
        }],
        capture: None,
    }
}

fn frame(
    rope: &Rope,
    w: u32,
    h: u32,
    grabbed: Option<Grip>,
    help: Option<&[String]>,
    banner: Option<&str>,
) -> Vec<u8> {
    let view = View::for_rope(rope.params(), w, h);
    let pinned = rope.pinned_indices();
    let hud = hud(rope.len());
    let strip = strip();
    let positions: Vec<Vec2> = rope.positions().collect();
    let panes = [Pane {
        rope: RopeLook {
            trail: &[],
            colour: 0,
            overlaid: false,
            positions: &positions,
            pinned: &pinned,
            grabbed,
            exploded: rope.exploded(),
        },
        view,
        area: Area::full(w, h),
        label: None,
        slot: Area::default(),
        marker: Marker::default(),
    }];
    let scene = Scene {
        panes: &panes,
        hud: Some(&hud),
        strip: Some(&strip),
        help,
        banner,
        ..Scene::default()
    };
    let mut buf = vec![0u8; (w * h * 4) as usize];
    Renderer::new().draw(&mut buf, w, h, &scene);
    buf
}

#[test]
#[ignore = "a look by eye: writes PNGs to /tmp, asserts nothing"]
fn writes_preview_pngs() {
    let rope = swung(RopeParams::default(), 0.45);
    let grip = Grip {
        index: 9,
        pull: Some(Vec2::new(1.0, -3.5)),
    };
    let buf = frame(&rope, 1280, 720, Some(grip), None, None);
    save_zoom("zoom", &buf, 1280, 720, 610, 10, 260, 180, 4);
    save_zoom("strip-zoom", &buf, 1280, 720, 0, 560, 640, 160, 2);
    save("swing", buf, 1280, 720);
    let rope = swung(
        RopeParams {
            pin: Pin::Both,
            ..Default::default()
        },
        0.7,
    );
    save("both", frame(&rope, 1280, 720, None, None, None), 1280, 720);
    let rope = swung(RopeParams::default(), 0.45);
    save("small", frame(&rope, 320, 200, None, None, None), 320, 200);
    let rope = swung(
        RopeParams {
            particles: 100_000,
            ..Default::default()
        },
        0.01,
    );
    save("huge", frame(&rope, 1280, 720, None, None, None), 1280, 720);
    let rope = swung(
        RopeParams {
            particles: 500,
            ..Default::default()
        },
        3.0,
    );
    save("many", frame(&rope, 1280, 720, None, None, None), 1280, 720);
    // Shaped like the app's key table: keys padded to 12 columns.
    let help: Vec<String> = [
        ("Keys", ""),
        ("M / Space", "next mode"),
        ("1 / 2 / 3 / 4", "variable, semi-fixed, fixed, interpolated"),
        ("R", "reset the rope"),
        ("P", "pause / resume"),
        ("S", "inject a 300 ms stall"),
        ("[ / ]", "fps cap down / up"),
        ("Tab", "hide / show the HUD"),
        ("? / F1", "this help"),
        ("Esc / Q", "quit"),
        ("mouse drag", "grab the rope, release to fling"),
    ]
    .map(|(k, d)| {
        if d.is_empty() {
            k.to_string()
        } else {
            format!("{k:<12} {d}")
        }
    })
    .to_vec();
    let rope = swung(RopeParams::default(), 3.0);
    save(
        "help",
        frame(&rope, 1280, 720, None, Some(&help), None),
        1280,
        720,
    );
    let exploded = RopeParams {
        stiffness_n_per_m: 20_000.0,
        ..Default::default()
    };
    let mut rope = Rope::new(exploded);
    for _ in 0..10 {
        rope.step(0.016, Previous::Save);
    }
    save(
        "exploded",
        frame(
            &rope,
            1280,
            720,
            None,
            Some(&help),
            Some("EXPLODED \u{2014} press R to reset"),
        ),
        1280,
        720,
    );
}

/// A diverged rope of 2,000 particles strewn across the screen: drawn thinned out (see
/// `STROKE_AREA_BUDGET`), and the test prints how long that took.
#[test]
#[ignore = "a look by eye: writes PNGs to /tmp, asserts nothing"]
fn writes_a_scattered_rope_png() {
    let (w, h) = (1280u32, 720u32);
    let view = View::fit(Vec2::splat(-1.0), Vec2::splat(1.0), w, h);
    let mut seed = 12345u64;
    let mut rnd = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0
    };
    let pos: Vec<Vec2> = (0..2000).map(|_| Vec2::new(rnd(), rnd())).collect();
    let rope = RopeLook {
        trail: &[],
        colour: 0,
        overlaid: false,
        positions: &pos,
        pinned: &[0],
        grabbed: None,
        exploded: true,
    };
    let panes = [Pane {
        rope,
        view,
        area: Area::full(w, h),
        label: None,
        slot: Area::default(),
        marker: Marker::default(),
    }];
    let scene = Scene {
        panes: &panes,
        ..Scene::default()
    };
    let mut buf = vec![0u8; (w * h * 4) as usize];
    let mut r = Renderer::new();
    let best = (0..10)
        .map(|_| {
            let t = std::time::Instant::now();
            r.draw(&mut buf, w, h, &scene);
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::MAX, f64::min);
    println!("a scattered 2,000-particle rope: {best:.2} ms");
    save("scattered", buf, w, h);
}
