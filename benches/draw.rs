//! Drawing cost at 1280×720 with the window's own scene building (lanes → panes, HUD, strip):
//! one rope of 64 and of 100,000 particles; the split view of four default ropes beside the
//! single view of one, measured in the same run; and one whole simulated 60 Hz frame (step
//! 16.67 ms of 1 ms steps, blend, draw).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use timestep_lab::model::lane::{Lane, LaneSpec};
use timestep_lab::model::rope::RopeParams;
use timestep_lab::view::draw::{Arrangement, HudInfo, Overlay, Screen};
use timestep_loop::{Mode, PolicyEnv};

const W: u32 = 1280;
const H: u32 = 720;

/// A lane of `particles` that has run for a second of 60 Hz frames, so it is drawn in a
/// typical pose.
fn swung(spec: LaneSpec, particles: usize) -> Lane {
    // The app's 1 ms tick (the crate's default is 60 Hz, too long for a stiff rope).
    let timing = timestep_loop::TimingConfig::textbook(1_000_000, 250_000_000, None).unwrap();
    let env = PolicyEnv::textbook(timing);
    let params = RopeParams::with_particles(particles);
    let mut lane = Lane::new(spec, &params, &env).unwrap();
    for i in 1..=60 {
        lane.advance(16_666_667, i * 16_666_667);
    }
    lane
}

/// Draws `lanes` as the window does (its [`Screen`]): the single view for one, the split view
/// for several, with a full strip.
struct Picture {
    screen: Screen,
    frame: Vec<u8>,
}

impl Picture {
    fn new(lanes: &[Lane]) -> Picture {
        let params = *lanes[0].rope().unwrap().params();
        let arrangement = Arrangement {
            size: (W, H),
            lanes: lanes.len(),
            split: lanes.len() > 1,
            hud: true,
            overlay: false,
            panel: 0,
            bar: 0,
        };
        let mut screen = Screen::new(&params, arrangement);
        for i in 0..300 {
            let steps = [16 + (i % 2) as u32; 4];
            screen.push_frame(16_000_000 + (i % 7) * 300_000, &steps[..lanes.len()]);
        }
        Picture {
            screen,
            frame: vec![0u8; (W * H * 4) as usize],
        }
    }

    fn draw(&mut self, lanes: &[&Lane]) {
        let hud = HudInfo {
            fps: 60.0,
            frame_ms: 16.667,
            present_mode: "Fifo (vsync)".into(),
            ..HudInfo::new(lanes)
        };
        let overlay = Overlay {
            hud: Some(&hud),
            strip: true,
            ..Overlay::default()
        };
        self.screen
            .draw(black_box(&mut self.frame), lanes, &overlay);
    }
}

fn draw(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw_1280x720");
    for n in [64usize, 100_000] {
        let lane = swung(LaneSpec::mode(Mode::Interpolated), n);
        let mut picture = Picture::new(std::slice::from_ref(&lane));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| picture.draw(&[&lane]))
        });
    }
    group.finish();
}

/// The split view of the four default ropes (one per mode) against the single view of one.
fn split_view(c: &mut Criterion) {
    let mut group = c.benchmark_group("view_1280x720");
    let lanes: Vec<Lane> = LaneSpec::every_mode()
        .into_iter()
        .map(|spec| swung(spec, 16))
        .collect();
    let mut single = Picture::new(&lanes[3..]);
    group.bench_function("single", |b| b.iter(|| single.draw(&[&lanes[3]])));
    let mut split = Picture::new(&lanes);
    let all: Vec<&Lane> = lanes.iter().collect();
    group.bench_function("split_4", |b| b.iter(|| split.draw(&all)));
    group.finish();
}

fn whole_frame(c: &mut Criterion) {
    let mut lane = swung(LaneSpec::mode(Mode::Interpolated), 16);
    let mut picture = Picture::new(std::slice::from_ref(&lane));
    let mut now = 60 * 16_666_667;
    c.bench_function("whole_frame_60hz_default_rope_1280x720", |b| {
        b.iter(|| {
            now += 16_666_667;
            let stats = *lane.advance(black_box(16_666_667), now);
            picture.screen.push_frame(16_666_667, &[stats.steps]);
            picture.draw(&[&lane]);
        })
    });
}

criterion_group!(group, draw, split_view, whole_frame);
criterion_main!(group);
