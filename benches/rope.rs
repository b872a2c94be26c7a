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

/// Our step split across two threads (rayon::join per pass, a join between the passes), to
/// measure whether the second core pays. Same arithmetic as `Rope::step`'s kernel.
mod two_threads {
    use glam::Vec2;
    use timestep_rope::RopeParams;

    pub struct Rope {
        pub p: RopeParams,
        pub pos: Vec<Vec2>,
        pub vel: Vec<Vec2>,
        pub tension: Vec<Vec2>,
    }

    impl Rope {
        pub fn new(p: RopeParams) -> Rope {
            let pos = p.initial_positions();
            let n = pos.len();
            Rope {
                p,
                pos,
                vel: vec![Vec2::ZERO; n],
                tension: vec![Vec2::ZERO; n + 1],
            }
        }

        #[multiversion::multiversion(targets("x86_64+avx2+fma"))]
        fn springs(p: &RopeParams, pos: &[Vec2], vel: &[Vec2], out: &mut [Vec2]) {
            let (k, c, rest) = (
                p.stiffness_n_per_m,
                p.spring_damping_n_s_per_m,
                p.rest_length_m,
            );
            let m = out.len();
            let (a, b, va, vb) = (&pos[..m], &pos[1..m + 1], &vel[..m], &vel[1..m + 1]);
            for ((((t, pa), pb), qa), qb) in out.iter_mut().zip(a).zip(b).zip(va).zip(vb) {
                let d = *pb - *pa;
                let len = d.length();
                let u = if len > 0.0 { d / len } else { Vec2::ZERO };
                *t = u * (k * (len - rest) + c * (*qb - *qa).dot(u));
            }
        }

        #[multiversion::multiversion(targets("x86_64+avx2+fma"))]
        fn integrate(p: &RopeParams, dt: f32, pos: &mut [Vec2], vel: &mut [Vec2], t: &[Vec2]) {
            let kick = dt / p.particle_mass_kg;
            let decay = (-p.damping_per_s * dt).exp();
            let accel = Vec2::new(0.0, -p.gravity_m_per_s2 * dt);
            let m = pos.len();
            let (t_in, t_out) = (&t[1..m + 1], &t[..m]);
            for (((x, v), ti), to) in pos.iter_mut().zip(vel.iter_mut()).zip(t_in).zip(t_out) {
                *v = (*v + accel + (*ti - *to) * kick) * decay;
                *x += *v * dt;
            }
        }

        pub fn step(&mut self, dt: f32) {
            let n = self.pos.len();
            let mid = n / 2;
            let p = &self.p;
            let (pos, vel) = (&self.pos, &self.vel);
            // Pass 1: springs [0, mid) and [mid, n-1), written to tension[1..].
            let (lo, hi) = self.tension[1..n].split_at_mut(mid);
            rayon::join(
                || Self::springs(p, &pos[..mid + 1], &vel[..mid + 1], lo),
                || Self::springs(p, &pos[mid..], &vel[mid..], hi),
            );
            // Pass 2: particles [0, mid) and [mid, n).
            let t = &self.tension;
            let (pl, ph) = self.pos.split_at_mut(mid);
            let (vl, vh) = self.vel.split_at_mut(mid);
            rayon::join(
                || Self::integrate(p, dt, pl, vl, &t[..mid + 1]),
                || Self::integrate(p, dt, ph, vh, &t[mid..]),
            );
            self.pos[0] = Vec2::ZERO;
            self.vel[0] = Vec2::ZERO;
        }
    }
}

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// Ours: 10 steps per iteration, so the per-iteration overhead is negligible for small ropes.
fn bench_ours(group: &mut Group, params: RopeParams) {
    let n = params.particles;
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
}

fn bench_textbook(group: &mut Group, params: RopeParams) {
    let n = params.particles;
    group.throughput(Throughput::Elements(10 * n as u64));
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

fn rope_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("rope_step");
    for n in [64usize, 1_024, 100_000] {
        let params = RopeParams::with_particles(n);
        bench_ours(&mut group, params);
        group.bench_with_input(BenchmarkId::new("two_threads", n), &params, |b, p| {
            let mut rope = two_threads::Rope::new(*p);
            b.iter(|| {
                for _ in 0..10 {
                    rope.step(black_box(1e-3));
                }
            });
            black_box(rope.pos[n - 1]);
        });
        bench_textbook(&mut group, params);
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

/// Cost per particle-step across sizes, for docs/scaling.png (scripts/perf_plot.py reads it):
/// from cache-resident ropes to one that spills out of the 32 MB L3.
fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(20);
    for n in [
        16usize, 64, 256, 1_024, 4_096, 16_384, 65_536, 100_000, 262_144, 1_048_576,
    ] {
        let params = RopeParams::with_particles(n);
        bench_ours(&mut group, params);
        if n <= 262_144 {
            bench_textbook(&mut group, params);
        }
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    check_same_physics();
    rope_step(c);
    scaling(c);
}

criterion_group!(group, benches);
criterion_main!(group);
