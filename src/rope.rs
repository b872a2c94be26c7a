//! The mass-spring rope: particles joined to their neighbours by damped Hooke springs, under
//! gravity and a per-particle drag, integrated with semi-implicit (symplectic) Euler.
//!
//! State is a struct of arrays of `glam::Vec2` in SI units (metres, m/s), with particle 0 at the
//! origin and y pointing up. A `previous` copy of the positions is kept for blending: it holds
//! the state one step before the current one.

use crate::timing::{Mode, Step};
use glam::Vec2;
use std::fmt;
use std::str::FromStr;

/// Which ends of the rope are fixed in place. Particle 0 is always pinned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pin {
    /// Only particle 0: the rope swings.
    One,
    /// Both ends: the rope sags between them.
    Both,
}

impl Pin {
    pub fn name(self) -> &'static str {
        match self {
            Pin::One => "one",
            Pin::Both => "both",
        }
    }
}

impl fmt::Display for Pin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Pin {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "one" => Ok(Pin::One),
            "both" => Ok(Pin::Both),
            _ => Err(format!("unknown pin '{s}' (expected one or both)")),
        }
    }
}

/// A spring stretched past this many rest lengths means the integration has diverged.
/// The default rope's top spring reaches about 1.75 while it swings down from horizontal; a
/// diverging one passes 5 within a few frames.
pub const EXPLODE_STRETCH: f32 = 5.0;

/// Bytes of state per particle: position, velocity, previous position and spring force in
/// the rope (4 × 8 B), plus the window's blended copy (8 B).
pub const BYTES_PER_PARTICLE: usize = 40;

/// The most particles accepted: 10 million cost 400 MB of state, and one simulated second at
/// 1 ms steps about 15 s of one core.
pub const MAX_PARTICLES: usize = 10_000_000;

/// The rope's physical constants, in SI units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeParams {
    pub particles: usize,
    pub particle_mass_kg: f32,
    /// Hooke constant of each spring, N/m.
    pub stiffness_n_per_m: f32,
    /// Damping along each spring, N·s/m (force per unit of relative velocity along it).
    pub spring_damping_n_s_per_m: f32,
    pub rest_length_m: f32,
    pub gravity_m_per_s2: f32,
    /// Per-particle drag, 1/s: with no other force, velocity decays as exp(-rate·t).
    pub damping_per_s: f32,
    pub pin: Pin,
}

impl Default for RopeParams {
    /// Chosen so that, as in the source article, variable steps hold together on a 75 Hz
    /// display and fall apart at 60 Hz: the stiffest mode's limit is about 15 ms
    /// ([`RopeParams::stability_limit_s`]), between 1/75 s and 1/60 s, while 1 ms fixed steps
    /// are 15 times inside it.
    fn default() -> Self {
        RopeParams {
            particles: 16,
            particle_mass_kg: 0.05,
            stiffness_n_per_m: 220.0,
            spring_damping_n_s_per_m: 0.02,
            rest_length_m: 0.2,
            gravity_m_per_s2: 9.81,
            damping_per_s: 0.1,
            pin: Pin::One,
        }
    }
}

impl RopeParams {
    /// The default rope with `particles` particles.
    ///
    /// Mass and stiffness stay those of the default, so k/m — and with it the fastest mode and
    /// the stability bound, the whole timing lesson — is the same for every particle count. A
    /// chain that long must then have longer segments, or it cannot carry its own weight: the
    /// top spring's static stretch is (N − 1)·g / ((k/m)·L0), so beyond the default 16
    /// particles the rest length grows as (N − 1)/15 to keep that stretch at 17 %.
    pub fn with_particles(particles: usize) -> Self {
        let d = RopeParams::default();
        let segments = particles.saturating_sub(1) as f32;
        let base = d.particles.saturating_sub(1) as f32;
        RopeParams {
            particles,
            rest_length_m: d.rest_length_m * (segments / base).max(1.0),
            ..d
        }
    }

    /// Checks the values a user can set.
    pub fn validate(&self) -> Result<(), String> {
        if self.particles == 0 {
            return Err("--particles must be at least 1".into());
        }
        if self.particles > MAX_PARTICLES {
            return Err(format!(
                "--particles {} is more than the maximum {MAX_PARTICLES} ({BYTES_PER_PARTICLE} bytes each: {} MB of state)",
                self.particles,
                MAX_PARTICLES * BYTES_PER_PARTICLE / 1_000_000
            ));
        }
        if self.pin == Pin::Both && self.particles < 2 {
            return Err("--pin both needs --particles 2 or more".into());
        }
        if !(self.damping_per_s.is_finite() && self.damping_per_s >= 0.0) {
            return Err(format!(
                "--damping must be a finite rate >= 0 per second, got {}",
                self.damping_per_s
            ));
        }
        let positive = [
            ("mass", self.particle_mass_kg),
            ("stiffness", self.stiffness_n_per_m),
            ("rest length", self.rest_length_m),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!(
                    "the rope's {name} must be positive and finite, got {v}"
                ));
            }
        }
        if !(self.spring_damping_n_s_per_m.is_finite() && self.spring_damping_n_s_per_m >= 0.0) {
            return Err("the spring damping must be >= 0".into());
        }
        Ok(())
    }

    /// The largest eigenvalue of the chain's stiffness matrix, in units of k: how much stiffer
    /// than one spring its fastest mode is (just under 4 for long chains).
    fn max_mode_factor(&self) -> f64 {
        let free = match self.pin {
            Pin::One => self.particles - 1,
            Pin::Both => self.particles.saturating_sub(2),
        };
        if free == 0 {
            return 0.0;
        }
        let n = free as f64;
        let angle = match self.pin {
            // One fixed end, one free end: 4 sin²((2n-1)π / (2(2n+1))).
            Pin::One => (2.0 * n - 1.0) * std::f64::consts::PI / (2.0 * (2.0 * n + 1.0)),
            // Both ends fixed: 4 sin²(nπ / (2(n+1))).
            Pin::Both => n * std::f64::consts::PI / (2.0 * (n + 1.0)),
        };
        4.0 * angle.sin().powi(2)
    }

    /// The longest step semi-implicit Euler can take on this rope without its fastest mode
    /// growing, in seconds.
    ///
    /// For that mode (ω² = λk/m, spring damping γ = λc/m, drag d applied as exp(-d·h)) one step
    /// maps (x, v) by a 2×2 matrix with trace T = 1 − a·h²ω² + a(1 − hγ) and determinant
    /// D = a(1 − hγ), a = exp(−d·h). It is stable while |T| < 1 + D; the boundary
    /// a·h²ω² = 2 + 2a(1 − hγ) is found by bisection. Undamped it is the familiar h = 2/ω.
    pub fn stability_limit_s(&self) -> f64 {
        let lambda = self.max_mode_factor();
        if lambda == 0.0 {
            return f64::INFINITY;
        }
        let m = f64::from(self.particle_mass_kg);
        let w2 = lambda * f64::from(self.stiffness_n_per_m) / m;
        let gamma = lambda * f64::from(self.spring_damping_n_s_per_m) / m;
        let d = f64::from(self.damping_per_s);
        let unstable = |h: f64| {
            let a = (-d * h).exp();
            a * h * h * w2 >= 2.0 + 2.0 * a * (1.0 - h * gamma) || h * gamma >= 2.0
        };
        let (mut lo, mut hi) = (0.0, 4.0 / w2.sqrt());
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if unstable(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        lo
    }

    /// Where each particle starts: a straight horizontal line to the right of particle 0, at
    /// rest length for `Pin::One` (so it swings down), or spanning 80 % of its length between
    /// the two pins for `Pin::Both` (so it sags).
    pub fn initial_positions(&self) -> Vec<Vec2> {
        let spacing = match self.pin {
            Pin::One => self.rest_length_m,
            Pin::Both => 0.8 * self.rest_length_m,
        };
        (0..self.particles)
            .map(|i| Vec2::new(i as f32 * spacing, 0.0))
            .collect()
    }
}

/// A particle held by the mouse: it follows `target` and carries `velocity` (the drag's), so
/// releasing it flings the rope.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grab {
    pub index: usize,
    pub target: Vec2,
    pub velocity: Vec2,
}

/// The rope's state and its integrator.
#[derive(Clone, Debug)]
pub struct Rope {
    params: RopeParams,
    pos: Vec<Vec2>,
    vel: Vec<Vec2>,
    /// Positions one step before `pos`, for blending.
    prev: Vec<Vec2>,
    /// Spring forces, `n + 1` long with zero sentinels at both ends; kept to avoid
    /// allocating per step.
    force: Vec<Vec2>,
    anchors: Vec<(usize, Vec2)>,
    grab: Option<Grab>,
    exploded: bool,
    max_stretch: f32,
    steps: u64,
}

impl Rope {
    pub fn new(params: RopeParams) -> Self {
        Rope::build(params, params.initial_positions())
    }

    /// A rope at rest at the given positions (pins hold their given places), e.g. hanging
    /// straight down. `positions` must have `params.particles` finite entries.
    pub fn with_positions(params: RopeParams, positions: Vec<Vec2>) -> Result<Self, String> {
        params.validate()?;
        if positions.len() != params.particles {
            return Err(format!(
                "{} positions for {} particles",
                positions.len(),
                params.particles
            ));
        }
        if !positions.iter().all(|p| p.is_finite()) {
            return Err("positions must be finite".into());
        }
        Ok(Rope::build(params, positions))
    }

    fn build(params: RopeParams, pos: Vec<Vec2>) -> Self {
        let n = pos.len();
        let mut anchors = vec![(0, pos[0])];
        if params.pin == Pin::Both && n > 1 {
            anchors.push((n - 1, pos[n - 1]));
        }
        Rope {
            params,
            prev: pos.clone(),
            vel: vec![Vec2::ZERO; n],
            force: vec![Vec2::ZERO; n + 1],
            pos,
            anchors,
            grab: None,
            exploded: false,
            max_stretch: 1.0,
            steps: 0,
        }
    }

    /// Back to the starting line, at rest.
    pub fn reset(&mut self) {
        *self = Rope::new(self.params);
    }

    pub fn params(&self) -> &RopeParams {
        &self.params
    }
    pub fn len(&self) -> usize {
        self.pos.len()
    }
    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }
    pub fn positions(&self) -> &[Vec2] {
        &self.pos
    }
    pub fn previous_positions(&self) -> &[Vec2] {
        &self.prev
    }
    pub fn velocities(&self) -> &[Vec2] {
        &self.vel
    }
    /// The indices of the pinned particles (particle 0, and the last with `Pin::Both`).
    pub fn pinned_indices(&self) -> Vec<usize> {
        self.anchors.iter().map(|&(i, _)| i).collect()
    }

    /// Whether particle `i` is held fixed by a pin.
    pub fn is_pinned(&self, i: usize) -> bool {
        self.anchors.iter().any(|&(a, _)| a == i)
    }
    /// True once the integration has diverged; the rope then stops stepping until reset.
    pub fn exploded(&self) -> bool {
        self.exploded
    }
    /// The largest spring length / rest length seen since the last reset.
    pub fn max_stretch(&self) -> f32 {
        self.max_stretch
    }
    pub fn steps(&self) -> u64 {
        self.steps
    }
    pub fn grab(&self) -> Option<Grab> {
        self.grab
    }

    /// Holds a particle at a point (or lets go with `None`). Pinned particles cannot be grabbed.
    pub fn set_grab(&mut self, grab: Option<Grab>) {
        self.grab = grab.filter(|g| g.index < self.len() && !self.is_pinned(g.index));
        if let Some(g) = self.grab {
            self.pos[g.index] = g.target;
            self.vel[g.index] = g.velocity;
        }
    }

    /// The free particle nearest to `point` within `radius`, if any.
    pub fn nearest_free(&self, point: Vec2, radius: f32) -> Option<usize> {
        self.pos
            .iter()
            .enumerate()
            .filter(|&(i, _)| !self.is_pinned(i))
            .map(|(i, p)| (i, p.distance_squared(point)))
            .filter(|&(_, d2)| d2 <= radius * radius)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// Takes one step the stepper asked for. Every caller — the window, `simulate`, the
    /// benches — steps through here, so a step of `dt_ns` is the same `f32` everywhere and
    /// their states agree bit for bit.
    pub fn apply(&mut self, step: Step) {
        self.step(step.dt_s(), step.last);
    }

    /// One semi-implicit Euler step of `dt` seconds. `save_previous` copies the current
    /// positions into `previous` first; the stepper asks for it on each frame's last step,
    /// which is the only one whose starting state is ever shown.
    pub fn step(&mut self, dt: f32, save_previous: bool) {
        if self.exploded || dt <= 0.0 {
            return;
        }
        if save_previous {
            self.prev.copy_from_slice(&self.pos);
        }
        let (worst, bad) = integrate(
            &self.params,
            dt,
            &mut self.pos,
            &mut self.vel,
            &mut self.force,
        );
        self.max_stretch = self.max_stretch.max(worst);
        for &(i, at) in &self.anchors {
            self.pos[i] = at;
            self.vel[i] = Vec2::ZERO;
        }
        if let Some(g) = self.grab {
            self.pos[g.index] = g.target;
            self.vel[g.index] = g.velocity;
        }
        self.steps += 1;
        if bad {
            self.explode();
        }
    }

    /// Marks the rope as diverged and replaces any non-finite value, so that nothing drawn or
    /// measured later sees a NaN.
    fn explode(&mut self) {
        self.exploded = true;
        let origin = self.anchors[0].1;
        for v in [&mut self.pos, &mut self.prev] {
            for x in v.iter_mut().filter(|x| !x.is_finite()) {
                *x = origin;
            }
        }
        for v in self.vel.iter_mut().filter(|v| !v.is_finite()) {
            *v = Vec2::ZERO;
        }
        if !self.max_stretch.is_finite() {
            self.max_stretch = f32::MAX;
        }
    }

    /// The positions to show in `mode`: in interpolated mode `previous.lerp(current, alpha)`,
    /// written into `scratch`; otherwise the current state. Never changes the rope.
    pub fn shown<'a>(&'a self, mode: Mode, alpha: f64, scratch: &'a mut Vec<Vec2>) -> &'a [Vec2] {
        if mode == Mode::Interpolated {
            self.blend_into(alpha as f32, scratch);
            scratch
        } else {
            &self.pos
        }
    }

    /// Writes `previous.lerp(current, alpha)` into `out` (resized to fit). Never changes the rope.
    pub fn blend_into(&self, alpha: f32, out: &mut Vec<Vec2>) {
        out.clear();
        out.extend(
            self.prev
                .iter()
                .zip(&self.pos)
                .map(|(a, b)| a.lerp(*b, alpha)),
        );
    }

    /// Kinetic + gravitational + spring energy in joules, with y = 0 as the zero of height.
    pub fn energy(&self) -> f64 {
        let p = self.params;
        let m = f64::from(p.particle_mass_kg);
        let g = f64::from(p.gravity_m_per_s2);
        let k = f64::from(p.stiffness_n_per_m);
        let rest = f64::from(p.rest_length_m);
        let moving: f64 = self
            .pos
            .iter()
            .zip(&self.vel)
            .map(|(x, v)| 0.5 * m * f64::from(v.length_squared()) + m * g * f64::from(x.y))
            .sum();
        let springs: f64 = self
            .pos
            .windows(2)
            .map(|w| {
                let ext = f64::from((w[1] - w[0]).length()) - rest;
                0.5 * k * ext * ext
            })
            .sum();
        moving + springs
    }

    /// FNV-1a over the bits of every position and velocity: equal hashes mean bit-identical
    /// states.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for v in self.pos.iter().chain(&self.vel) {
            for bits in [v.x.to_bits(), v.y.to_bits()] {
                for byte in bits.to_le_bytes() {
                    h ^= u64::from(byte);
                    h = h.wrapping_mul(0x0000_0100_0000_01b3);
                }
            }
        }
        h
    }
}

/// One semi-implicit Euler step of the whole chain, in two passes over the arrays. Returns the
/// largest spring stretch at the start of the step and whether anything diverged.
///
/// Compiled twice (baseline and AVX2+FMA) and picked at run time; no operation here is fused or
/// reordered differently between the two, so both give bit-identical states.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
fn integrate(
    p: &RopeParams,
    dt: f32,
    pos: &mut [Vec2],
    vel: &mut [Vec2],
    tension: &mut [Vec2],
) -> (f32, bool) {
    let n = pos.len();
    let (k, c, rest) = (
        p.stiffness_n_per_m,
        p.spring_damping_n_s_per_m,
        p.rest_length_m,
    );
    // Pass 1: the force each spring j (particles j, j+1) pulls particle j with, written to
    // tension[j + 1]. tension[0] and tension[n] stay zero, so particle i's net spring force is
    // tension[i + 1] − tension[i] with no special cases at the ends. Straight loops over
    // equal-length slices: the compiler elides the bounds checks and vectorises them.
    //
    // Reductions are kept integer so they do not pin the loops to scalar code: a float sum or
    // max has an order the compiler must keep; the bits of non-negative floats order exactly
    // like the floats, and an integer max or OR can be done in any order.
    let springs = n.saturating_sub(1);
    let (a, b) = (&pos[..springs], &pos[1..]);
    let (va, vb) = (&vel[..springs], &vel[1..]);
    let mut worst_bits = 0u32;
    let mut bad = false;
    let inv_rest = 1.0 / rest;
    for ((((t, pa), pb), qa), qb) in tension[1..n].iter_mut().zip(a).zip(b).zip(va).zip(vb) {
        let d = *pb - *pa;
        let len = d.length();
        let stretch = len * inv_rest;
        bad |= stretch.is_nan() | (stretch > EXPLODE_STRETCH);
        worst_bits = worst_bits.max(stretch.to_bits());
        let u = if len > 0.0 { d / len } else { Vec2::ZERO };
        let closing = (*qb - *qa).dot(u);
        *t = u * (k * (len - rest) + c * closing);
    }

    // Pass 2: semi-implicit Euler, with the drag applied exactly as exp(−rate·dt).
    let inv_m = 1.0 / p.particle_mass_kg;
    let decay = (-p.damping_per_s * dt).exp();
    let accel = Vec2::new(0.0, -p.gravity_m_per_s2 * dt);
    let kick = inv_m * dt;
    let (t_in, t_out) = (&tension[1..n + 1], &tension[..n]);
    for (((x, v), ti), to) in pos.iter_mut().zip(vel.iter_mut()).zip(t_in).zip(t_out) {
        *v = (*v + accel + (*ti - *to) * kick) * decay;
        *x += *v * dt;
        bad |= !(x.x.is_finite() & x.y.is_finite());
    }
    (f32::from_bits(worst_bits), bad)
}
