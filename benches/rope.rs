//! Rope step cost: ours (struct of arrays) beside the textbook structure (particles as objects,
//! one boxed force generator per spring end, walked through a registry each step), same physics,
//! measured side by side in one run, each size both **in motion** and **at rest**. Reported as
//! particle-steps per second.
//!
//! - In motion: the rope from `RopeParams::with_particles(n)` one simulated second after it was
//!   let go from horizontal.
//! - At rest: for 16 and 1,024 particles, the rope after one simulated hour of 1 ms steps
//!   (stepped into place before timing). For 100,000 particles an hour of stepping would take
//!   minutes and still not settle it (its slowest swing takes hours), so it is loaded at its
//!   static equilibrium, hanging straight down, with a sideways ripple of 1e-30 m: what an hour
//!   of drag leaves of a swing.
//!
//! Every timed iteration starts from a fresh copy of that state (the copy is not timed), so an
//! "in motion" rope cannot come to rest over a long measurement.

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use std::hint::black_box;
use timestep_lab::model::rope::{Integrator, Previous};
use timestep_lab::model::rope::{Rope, RopeParams};

/// The textbook rope, as in the particle-physics-engine books the source article builds on.
/// Same physics as ours, the rest rule included, so the ratio compares structure with structure.
mod textbook {
    use glam::Vec2;
    use timestep_lab::model::rope::RopeParams;

    fn flush(v: Vec2, floor: f32) -> Vec2 {
        let f = |c: f32| if c.abs() < floor { 0.0 } else { c };
        Vec2::new(f(v.x), f(v.y))
    }

    pub struct Particle {
        pub position: Vec2,
        pub velocity: Vec2,
        pub force_accum: Vec2,
        pub inverse_mass: f32,
        pub damping_per_s: f32,
        pub rest_speed: f32,
    }

    impl Particle {
        fn integrate(&mut self, dt: f32) {
            if self.inverse_mass <= 0.0 {
                return;
            }
            self.velocity += self.force_accum * (self.inverse_mass * dt);
            self.velocity *= (-self.damping_per_s * dt).exp();
            self.velocity = flush(self.velocity, self.rest_speed);
            self.position += self.velocity * dt;
        }
    }

    pub trait ForceGenerator {
        fn update_force(&self, particles: &mut [Particle], target: usize, dt: f32);
    }

    pub struct Gravity(pub Vec2);
    impl ForceGenerator for Gravity {
        fn update_force(&self, p: &mut [Particle], target: usize, _dt: f32) {
            if p[target].inverse_mass > 0.0 {
                let m = 1.0 / p[target].inverse_mass;
                p[target].force_accum += self.0 * m;
            }
        }
    }

    /// One end of a damped spring: pulls `target` toward `other`.
    pub struct Spring {
        pub other: usize,
        pub k: f32,
        pub c: f32,
        pub rest: f32,
        pub floor: f32,
    }
    impl ForceGenerator for Spring {
        fn update_force(&self, p: &mut [Particle], target: usize, _dt: f32) {
            let d = flush(p[self.other].position - p[target].position, self.floor);
            let len = d.length();
            let u = if len > 0.0 { d / len } else { Vec2::ZERO };
            let closing = (p[self.other].velocity - p[target].velocity).dot(u);
            p[target].force_accum += u * (self.k * (len - self.rest) + self.c * closing);
        }
    }

    pub struct Registration {
        pub particle: usize,
        pub generator: Box<dyn ForceGenerator>,
    }

    pub struct Rope {
        pub particles: Vec<Particle>,
        pub registry: Vec<Registration>,
    }

    impl Rope {
        pub fn new(params: &RopeParams, positions: &[Vec2], velocities: &[Vec2]) -> Rope {
            let particles = positions
                .iter()
                .zip(velocities)
                .enumerate()
                .map(|(i, (&position, &velocity))| Particle {
                    position,
                    velocity,
                    force_accum: Vec2::ZERO,
                    inverse_mass: if i == 0 {
                        0.0
                    } else {
                        1.0 / params.particle_mass_kg
                    },
                    damping_per_s: params.damping_per_s,
                    rest_speed: params.rest_speed_floor_m_per_s(),
                })
                .collect::<Vec<_>>();
            let mut registry = Vec::new();
            let n = particles.len();
            for i in 0..n {
                registry.push(Registration {
                    particle: i,
                    generator: Box::new(Gravity(Vec2::new(0.0, -params.gravity_m_per_s2))),
                });
                for other in [i.wrapping_sub(1), i + 1] {
                    if other < n {
                        registry.push(Registration {
                            particle: i,
                            generator: Box::new(Spring {
                                other,
                                k: params.stiffness_n_per_m,
                                c: params.spring_damping_n_s_per_m,
                                rest: params.rest_length_m,
                                floor: params.rest_length_floor_m(),
                            }),
                        });
                    }
                }
            }
            Rope {
                particles,
                registry,
            }
        }

        /// The same state as one of ours.
        pub fn like(rope: &timestep_lab::model::rope::Rope) -> Rope {
            let pos: Vec<Vec2> = rope.positions().collect();
            let vel: Vec<Vec2> = rope.velocities().collect();
            Rope::new(rope.params(), &pos, &vel)
        }

        pub fn step(&mut self, dt: f32) {
            for p in &mut self.particles {
                p.force_accum = Vec2::ZERO;
            }
            for r in &self.registry {
                r.generator
                    .update_force(&mut self.particles, r.particle, dt);
            }
            for p in &mut self.particles {
                p.integrate(dt);
            }
        }
    }
}

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// Steps per timed iteration: enough that the per-iteration overhead is negligible for small
/// ropes.
const STEPS: u64 = 10;
const DT: f32 = 1e-3;

/// The default rope for `n` particles, one simulated second after it was let go.
fn in_motion(n: usize) -> Rope {
    let mut rope = Rope::new(RopeParams::with_particles(n));
    for _ in 0..1_000 {
        rope.step(DT, Previous::Keep);
    }
    rope
}

/// The default rope for `n` particles at rest; see the file's comment for how.
fn at_rest(n: usize) -> Rope {
    let params = RopeParams::with_particles(n);
    if n > 10_000 {
        return hanging_with_ripple(params);
    }
    let mut rope = Rope::new(params);
    for _ in 0..3_600_000 {
        rope.step(DT, Previous::Keep);
    }
    rope
}

/// Static equilibrium hanging straight down: spring j carries the weight of every particle
/// below it, and a sideways ripple of 1e-30 m.
fn hanging_with_ripple(p: RopeParams) -> Rope {
    let n = p.particles;
    let weight = f64::from(p.particle_mass_kg) * f64::from(p.gravity_m_per_s2);
    let mut y = 0.0f64;
    let mut positions = vec![Vec2::ZERO];
    for j in 0..n - 1 {
        let carried = (n - 1 - j) as f64 * weight;
        y -= f64::from(p.rest_length_m) + carried / f64::from(p.stiffness_n_per_m);
        let ripple = 1e-30 * ((j + 1) as f64 * 0.7).sin();
        positions.push(Vec2::new(ripple as f32, y as f32));
    }
    Rope::with_positions(p, positions).expect("a valid hanging rope")
}

/// Large ropes are copied once per timed iteration (memory); small ones in batches.
fn batch(n: usize) -> BatchSize {
    if n > 10_000 {
        BatchSize::PerIteration
    } else {
        BatchSize::SmallInput
    }
}

fn bench_ours(group: &mut Group, name: &str, start: &Rope) {
    let n = start.len();
    group.throughput(Throughput::Elements(STEPS * n as u64));
    group.bench_with_input(
        BenchmarkId::new(format!("ours/{name}"), n),
        start,
        |b, s| {
            b.iter_batched_ref(
                || s.clone(),
                |rope| {
                    for i in 0..STEPS {
                        rope.step(black_box(DT), Previous::save_on_last(i + 1 == STEPS));
                    }
                },
                batch(n),
            );
        },
    );
    assert!(!start.exploded(), "the bench rope must not explode");
}

fn bench_textbook(group: &mut Group, name: &str, start: &Rope) {
    let n = start.len();
    group.throughput(Throughput::Elements(STEPS * n as u64));
    group.bench_with_input(
        BenchmarkId::new(format!("textbook/{name}"), n),
        start,
        |b, s| {
            b.iter_batched_ref(
                || textbook::Rope::like(s),
                |rope| {
                    for _ in 0..STEPS {
                        rope.step(black_box(DT));
                    }
                },
                batch(n),
            );
        },
    );
}

fn rope_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("rope_step");
    for n in [16usize, 1_024, 100_000] {
        if n > 10_000 {
            group.sample_size(20);
        }
        for (name, start) in [("in motion", in_motion(n)), ("at rest", at_rest(n))] {
            bench_ours(&mut group, name, &start);
            bench_textbook(&mut group, name, &start);
        }
    }
    group.finish();
}

/// The rest rule's effect, measured: the default rope settled for an hour and stepped with the
/// rule off (its state is then full of subnormal floats) and on. `examples/rest_rule.rs` shows
/// how the cost grows over the hour.
fn rest_rule(c: &mut Criterion) {
    let mut group = c.benchmark_group("rest_rule");
    for (name, fraction) in [
        ("off", 0.0),
        ("on", timestep_lab::model::rope::REST_FRACTION),
    ] {
        let params = RopeParams {
            rest_fraction: fraction,
            ..RopeParams::default()
        };
        let mut rope = Rope::new(params);
        for _ in 0..3_600_000 {
            rope.step(DT, Previous::Keep);
        }
        bench_ours(&mut group, &format!("rule {name}, an hour settled"), &rope);
    }
    group.finish();
}

/// The two implementations agree (same physics), so the ratio compares like with like.
fn check_same_physics() {
    let params = RopeParams::default();
    let mut ours = Rope::new(params);
    let mut book = textbook::Rope::like(&ours);
    for _ in 0..2_000 {
        ours.step(DT, Previous::Keep);
        book.step(DT);
    }
    let worst = ours
        .positions()
        .zip(&book.particles)
        .map(|(a, b)| (a - b.position).length())
        .fold(0.0f32, f32::max);
    assert!(
        worst < 1e-3,
        "textbook baseline diverged from ours by {worst} m"
    );
}

/// Cost per particle-step across sizes, for docs/scaling.png (scripts/perf_plot.py reads it):
/// from cache-resident ropes to one that spills out of the L3. Stepped continuously from
/// horizontal, so small ropes come to rest during the measurement; with the rest rule that
/// costs nothing.
fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(20);
    for n in [
        16usize, 64, 256, 1_024, 4_096, 16_384, 65_536, 100_000, 262_144, 1_048_576,
    ] {
        let params = RopeParams::with_particles(n);
        group.throughput(Throughput::Elements(STEPS * n as u64));
        group.bench_with_input(BenchmarkId::new("ours", n), &params, |b, p| {
            let mut rope = Rope::new(*p);
            b.iter(|| {
                for i in 0..STEPS {
                    rope.step(black_box(DT), Previous::save_on_last(i + 1 == STEPS));
                }
            });
        });
        if n <= 262_144 {
            group.bench_with_input(BenchmarkId::new("textbook", n), &params, |b, _| {
                let mut rope = textbook::Rope::like(&Rope::new(params));
                b.iter(|| {
                    for _ in 0..STEPS {
                        rope.step(black_box(DT));
                    }
                });
            });
        }
    }
    group.finish();
}

/// RK4 against semi-implicit Euler on the same rope, same run: four force evaluations a step
/// against one (the target: at most 4.5× at 100,000 particles).
fn integrators(c: &mut Criterion) {
    let mut group = c.benchmark_group("integrators");
    for n in [16, 1_024, 100_000] {
        if n > 10_000 {
            group.sample_size(20);
        }
        let start = in_motion(n);
        for integrator in Integrator::ALL {
            let mut rope = start.clone();
            rope.set_integrator(integrator);
            bench_ours(&mut group, integrator.name(), &rope);
        }
    }
    group.finish();
}

/// A whole `simulate --mode fixed` run of the default rope over ten simulated minutes at
/// 60 Hz — the frame protocol, the loop, the books and the rope — ours against the textbook
/// structure stepped by the very same loop: a timing-only lane keeps the same time and books,
/// and its host steps the textbook rope at the start of every tick. The ratio of the two is
/// the whole run's; the step alone's is `rope_step/16`.
fn whole_run(c: &mut Criterion) {
    use timestep_lab::hosts::simulate::{self, Display, DisplayConfig, SimConfig};
    use timestep_lab::model::lane::{Lane, LaneSpec};
    use timestep_lab::protocol::frame::{FrameDone, Frames, Host, Shown, Wall};
    use timestep_loop::{Mode, Pacer, Pacing, PolicyEnv, TimingConfig};

    /// The simulated display, with a textbook rope stepped as each tick begins.
    struct Textbook {
        display: Display,
        rope: textbook::Rope,
    }
    impl Wall for Textbook {
        fn now_ns(&mut self) -> u64 {
            Wall::now_ns(&mut self.display)
        }
        fn sleep(&mut self, ns: u64) {
            Wall::sleep(&mut self.display, ns);
        }
    }
    impl Host for Textbook {
        fn read_ns(&mut self) -> u64 {
            Host::read_ns(&mut self.display)
        }
        fn step_time_ns(&mut self, start_ns: u64, index: u64) -> u64 {
            self.rope.step(DT);
            start_ns + index
        }
        type Error = std::convert::Infallible;
        fn present(
            &mut self,
            frame: &FrameDone,
            lanes: &[Lane],
            ran: &[bool],
        ) -> Result<Option<Shown>, Self::Error> {
            Host::present(&mut self.display, frame, lanes, ran)
        }
    }

    let cfg = SimConfig {
        timing: TimingConfig::textbook(1_000_000, 250_000_000, None).unwrap(),
        rope: RopeParams::default(),
        display: DisplayConfig {
            duration_ns: 600 * timestep_loop::NS_PER_S,
            ..DisplayConfig::default()
        },
        lanes: vec![LaneSpec::mode(Mode::Fixed)],
        max_substep: Default::default(),
        draw: None,
        physics: true,
    };
    let mut group = c.benchmark_group("whole_run");
    group.sample_size(10);
    group.bench_function("ours/fixed 600 s", |b| {
        b.iter(|| simulate::run(&cfg, |_| {}).unwrap())
    });
    group.bench_function("textbook/fixed 600 s", |b| {
        b.iter(|| {
            let mut lane = Lane::timing_only(cfg.lanes[0], &cfg.env()).unwrap();
            lane.keep_step_starts(true);
            let display = Display::new(cfg.display.clone());
            let mut frames = Frames::new(Pacer::new(Pacing::Vsync, Some(60.0)));
            frames.anchor(display.start_ns());
            let rope = textbook::Rope::like(&Rope::new(cfg.rope));
            let mut host = Textbook { display, rope };
            let mut lanes = [lane];
            while !host.display.finished() {
                let Ok(_) = frames.run(&mut host, &mut lanes);
            }
            let _ = PolicyEnv::default();
            black_box(host.rope.particles.len())
        })
    });
    group.finish();
}

/// What a sweep costs with and without a rope in every configuration, in one run: 2 display
/// rates × the ten default lanes × 60 s, one thread.
fn sweep_rope(c: &mut Criterion) {
    use std::sync::atomic::AtomicBool;
    use timestep_lab::analyses::sweep::{self, SweepConfig};
    use timestep_lab::hosts::simulate::{DisplayConfig, SimConfig};
    use timestep_lab::model::lane::LaneSpec;
    use timestep_loop::TimingConfig;

    let lanes = [LaneSpec::every_mode(), LaneSpec::every_preset()].concat();
    let base = SimConfig {
        timing: TimingConfig::textbook(1_000_000, 250_000_000, None).unwrap(),
        rope: RopeParams::default(),
        display: DisplayConfig {
            duration_ns: 60 * timestep_loop::NS_PER_S,
            ..DisplayConfig::default()
        },
        lanes,
        max_substep: Default::default(),
        draw: None,
        physics: false,
    };
    let mut group = c.benchmark_group("sweep_60s_x2_rates_x10_lanes");
    group.sample_size(10);
    for physics in [true, false] {
        let cfg = SweepConfig {
            axis: timestep_lab::analyses::sweep::Axis::DisplayHz,
            base: SimConfig {
                physics,
                ..base.clone()
            },
            rates: vec![60.0, 144.0],
            threads: Some(1),
        };
        let name = if physics { "with rope" } else { "timing only" };
        group.bench_function(name, |b| {
            b.iter(|| {
                let never = AtomicBool::new(false);
                let mut rows = 0;
                sweep::run(
                    &cfg,
                    &never,
                    |_| {},
                    |_| {
                        rows += 1;
                        Ok(())
                    },
                )
                .unwrap();
                rows
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    check_same_physics();
    whole_run(c);
    sweep_rope(c);
    rope_step(c);
    rest_rule(c);
    scaling(c);
    integrators(c);
}

criterion_group!(group, benches);
criterion_main!(group);
