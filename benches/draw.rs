//! Drawing cost at 1280×720 (clear, rope, particles, HUD, strip) for 64 and 100,000 particles,
//! and one whole simulated 60 Hz frame: step 16.67 ms of 1 ms steps, blend, draw.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use timestep_rope::draw::{FrameStrip, HudInfo, Renderer, RopeLook, Scene, View};
use timestep_rope::{Mode, Rope, RopeParams, Stepper, TimingConfig};

const W: u32 = 1280;
const H: u32 = 720;

/// A rope that has swung for a second, so it is drawn in a typical pose.
fn swung(particles: usize) -> Rope {
    let mut rope = Rope::new(RopeParams::with_particles(particles));
    for _ in 0..1_000 {
        rope.step(1e-3, true);
    }
    rope
}

fn hud(rope: &Rope) -> HudInfo {
    HudInfo {
        mode: Some(Mode::Interpolated),
        dt_ns: 1_000_000,
        clamp_ns: 250_000_000,
        max_steps: 250,
        particles: rope.len(),
        fps: 60.0,
        frame_ms: 16.667,
        steps: 17,
        alpha: 0.667,
        drift_ms: -1.0,
        dropped_ms: 0.0,
        energy_j: rope.energy(),
        exploded: false,
        paused: false,
        fps_cap: None,
        present_mode: "Fifo (vsync)".into(),
    }
}

fn strip() -> FrameStrip {
    let mut strip = FrameStrip::new(300);
    for i in 0..300 {
        strip.push(16.0 + (i % 7) as f32 * 0.3, 16 + (i % 2) as u32);
    }
    strip
}

fn draw(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw_1280x720");
    for n in [64usize, 100_000] {
        let rope = swung(n);
        let pinned = [0usize];
        let view = View::for_rope(rope.params(), W, H);
        let hud = hud(&rope);
        let strip = strip();
        let mut frame = vec![0u8; (W * H * 4) as usize];
        let mut renderer = Renderer::new();
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                let scene = Scene {
                    rope: RopeLook {
                        positions: &rope.positions().collect::<Vec<_>>(),
                        pinned: &pinned,
                        grabbed: None,
                        exploded: false,
                    },
                    view: &view,
                    hud: Some(&hud),
                    strip: Some(&strip),
                    help: None,
                    banner: None,
                };
                renderer.draw(black_box(&mut frame), W, H, &scene);
            })
        });
    }
    group.finish();
}

fn whole_frame(c: &mut Criterion) {
    let mut rope = swung(RopeParams::default().particles);
    let mut stepper = Stepper::new(
        TimingConfig::new(1_000_000, 250_000_000, None).unwrap(),
        Mode::Interpolated,
    );
    let view = View::for_rope(rope.params(), W, H);
    let pinned = [0usize];
    let mut strip = strip();
    let mut blended = Vec::new();
    let mut frame = vec![0u8; (W * H * 4) as usize];
    let mut renderer = Renderer::new();
    c.bench_function("whole_frame_60hz_default_rope_1280x720", |b| {
        b.iter(|| {
            let stats = stepper.advance(black_box(16_666_667), |s| rope.apply(s));
            rope.blend_into(stats.alpha as f32, &mut blended);
            strip.push(16.667, stats.steps);
            let hud = hud(&rope);
            let scene = Scene {
                rope: RopeLook {
                    positions: &blended,
                    pinned: &pinned,
                    grabbed: None,
                    exploded: rope.exploded(),
                },
                view: &view,
                hud: Some(&hud),
                strip: Some(&strip),
                help: None,
                banner: None,
            };
            renderer.draw(&mut frame, W, H, &scene);
        })
    });
}

criterion_group!(group, draw, whole_frame);
criterion_main!(group);
