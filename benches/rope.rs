//! Rope step cost: ours (struct of arrays) beside the textbook structure (particles as objects,
//! one boxed force generator per spring end, walked through a registry each step), same physics,
//! measured side by side in one run. Reported as particle-steps per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use std::hint::black_box;
use timestep_rope::{Rope, RopeParams};

/// The textbook rope, as in the particle-physics-engine books the source article builds on.
mod textbook {
    use glam::Vec2;

    pub struct Particle {
        pub position: Vec2,
        pub velocity: Vec2,
        pub force_accum: Vec2,
        pub inverse_mass: f32,
        pub damping_per_s: f32,
    }

    impl Particle {
        fn integrate(&mut self, dt: f32) {
            if self.inverse_mass <= 0.0 {
                return;
            }
            self.velocity += self.force_accum * (self.inverse_mass * dt);
            self.velocity *= (-self.damping_per_s * dt).exp();
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
    }
    impl ForceGenerator for Spring {
        fn update_force(&self, p: &mut [Particle], target: usize, _dt: f32) {
            let d = p[self.other].position - p[target].position;
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
        pub fn new(params: &timestep_rope::RopeParams) -> Rope {
            let particles = params
                .initial_positions()
                .into_iter()
                .enumerate()
                .map(|(i, position)| Particle {
                    position,
                    velocity: Vec2::ZERO,
                    force_accum: Vec2::ZERO,
                    inverse_mass: if i == 0 {
                        0.0
                    } else {
                        1.0 / params.particle_mass_kg
                    },
                    damping_per_s: params.damping_per_s,
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

fn rope_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("rope_step");
    for n in [64usize, 1_024, 100_000] {
        let params = RopeParams::with_particles(n);
        // 10 steps per iteration so the per-iteration overhead is negligible for small ropes.
        group.throughput(Throughput::Elements(10 * n as u64));
        group.bench_with_input(BenchmarkId::new("ours", n), &params, |b, p| {
            let mut rope = Rope::new(*p);
            b.iter(|| {
                for i in 0..10 {
                    rope.step(black_box(1e-3), i == 9);
                }
            });
            assert!(!rope.exploded(), "the bench rope must not explode");
        });
        group.bench_with_input(BenchmarkId::new("textbook", n), &params, |b, p| {
            let mut rope = textbook::Rope::new(p);
            b.iter(|| {
                for _ in 0..10 {
                    rope.step(black_box(1e-3));
                }
            });
            black_box(rope.particles[n - 1].position);
        });
    }
    group.finish();
}

/// The two implementations agree (same physics), so the ratio compares like with like.
fn check_same_physics() {
    let params = RopeParams::default();
    let mut ours = Rope::new(params);
    let mut book = textbook::Rope::new(&params);
    for _ in 0..2_000 {
        ours.step(1e-3, false);
        book.step(1e-3);
    }
    let worst = ours
        .positions()
        .iter()
        .zip(&book.particles)
        .map(|(a, b)| (*a - b.position).length())
        .fold(0.0f32, f32::max);
    assert!(
        worst < 1e-3,
        "textbook baseline diverged from ours by {worst} m"
    );
    let _ = Vec2::ZERO;
}

fn benches(c: &mut Criterion) {
    check_same_physics();
    rope_step(c);
}

criterion_group!(group, benches);
criterion_main!(group);
