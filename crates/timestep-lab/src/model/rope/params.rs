//! The rope's physical constants, their validation, and the stability bound they imply.

use super::{Drive, Integrator};
use glam::Vec2;

timestep_loop::named_enum! {
    /// Which ends of the rope are fixed in place, as `--pin` lists them. Particle 0 is always
    /// pinned.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Pin as "pin" {
        /// Only particle 0: the rope swings.
        One = "one",
        /// Both ends: the rope sags between them.
        Both = "both",
    }
}

/// A spring stretched past this many rest lengths means the integration has diverged.
/// The default rope's top spring reaches about 1.75 while it swings down from horizontal; a
/// diverging one passes 5 within a few frames.
pub const EXPLODE_STRETCH: f32 = 5.0;

/// Bytes of state per particle: position, velocity, previous position and the step's spring
/// force in the rope (8 × 4 B, as separate x and y arrays), plus the shown copy the window and
/// `simulate --draw` keep (8 B).
pub const BYTES_PER_PARTICLE: usize = 40;

/// Bytes RK4 adds per particle: two stage buffers and the sum (12 × 4 B, `rk4::Scratch`).
pub const RK4_BYTES_PER_PARTICLE: usize = 48;

/// What the maximum rope costs, for the error that refuses a bigger one.
pub fn max_particles_cost() -> String {
    let each = BYTES_PER_PARTICLE + RK4_BYTES_PER_PARTICLE;
    format!(
        "{BYTES_PER_PARTICLE} bytes each, {each} with rk4: up to {} MB of state",
        MAX_PARTICLES * each / 1_000_000
    )
}

/// The rest rule ([`RopeParams::rest_fraction`]'s default): quantities that decay towards zero
/// are flushed to zero once they fall below this fraction of a segment (a length, or a length
/// per second).
///
/// Why: a swinging rope comes to rest by exponential decay — its velocities, and the sideways
/// offsets of a rope hanging straight under its pin, shrink by a constant factor every step for
/// ever. Left alone, after some 15 simulated minutes they reach the `f32` subnormal range
/// (below 1.2e-38), where every operation on them takes a slow path in the CPU, and they stay
/// there (multiplying a small subnormal by the drag's 0.9999 rounds back to itself). A rope at
/// rest then costs several times a rope in motion (docs/PERFORMANCE.md has the measurement).
/// Below 1e-12 of a segment (0.2 pm for the default rope) there is no motion to show or
/// measure, so the rule changes nothing a user can see; it makes rest exact, and keeps every
/// product in the step (offset × offset, speed × direction) well inside the normal range.
/// It is ordinary arithmetic in the step itself — the same on every CPU, in the window and in
/// `simulate` alike — rather than the CPU's flush-to-zero mode, which Rust does not allow a
/// program to switch on (changing MXCSR is undefined behaviour: rust-lang/stdarch#1454).
pub const REST_FRACTION: f32 = 1e-12;

/// The most particles accepted: 10 million cost 400 MB of state, and one simulated second at
/// 1 ms steps about 15 s of one core.
pub const MAX_PARTICLES: usize = 10_000_000;

/// The rope's physical constants, in SI units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeParams {
    /// How many particles, pins included.
    pub particles: usize,
    /// Each particle's mass, kg.
    pub particle_mass_kg: f32,
    /// Hooke constant of each spring, N/m.
    pub stiffness_n_per_m: f32,
    /// Damping along each spring, N·s/m (force per unit of relative velocity along it).
    pub spring_damping_n_s_per_m: f32,
    /// Each spring's length at rest, m.
    pub rest_length_m: f32,
    /// Gravity's acceleration, m/s² (downward).
    pub gravity_m_per_s2: f32,
    /// Per-particle drag, 1/s: with no other force, velocity decays as exp(-rate·t).
    pub damping_per_s: f32,
    /// Which ends are pinned.
    pub pin: Pin,
    /// The rest rule's threshold as a fraction of a segment; [`REST_FRACTION`] unless a
    /// measurement wants to see the rope without it (0 turns it off).
    pub rest_fraction: f32,
    /// How each step is integrated (`--integrator`).
    pub integrator: Integrator,
    /// How the pinned end moves (`--drive`).
    pub drive: Drive,
}

impl Default for RopeParams {
    /// Chosen so that, as in the source article, variable steps hold together on a 75 Hz
    /// display and fall apart at 60 Hz: the stiffest mode's limit is about 15 ms
    /// ([`RopeParams::stability_limit_s`], semi-implicit Euler), between 1/75 s and 1/60 s, while 1 ms fixed steps
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
            rest_fraction: REST_FRACTION,
            integrator: Integrator::Euler,
            drive: Drive::Off,
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
    pub fn validate(&self) -> Result<(), BadParams> {
        if self.particles == 0 {
            return Err(BadParams::NoParticles);
        }
        if self.particles > MAX_PARTICLES {
            return Err(BadParams::TooManyParticles(self.particles));
        }
        if self.pin == Pin::Both && self.particles < 2 {
            return Err(BadParams::BothPinsOneParticle);
        }
        if !(self.damping_per_s.is_finite() && self.damping_per_s >= 0.0) {
            return Err(BadParams::Damping(self.damping_per_s));
        }
        let positive = [
            ("mass", self.particle_mass_kg),
            ("stiffness", self.stiffness_n_per_m),
            ("rest length", self.rest_length_m),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(BadParams::NotPositive(name, v));
            }
        }
        if !(self.rest_fraction.is_finite() && (0.0..1e-3).contains(&self.rest_fraction)) {
            return Err(BadParams::RestFraction(self.rest_fraction));
        }
        if !(self.spring_damping_n_s_per_m.is_finite() && self.spring_damping_n_s_per_m >= 0.0) {
            return Err(BadParams::SpringDamping);
        }
        Ok(())
    }

    /// The largest eigenvalue of the chain's stiffness matrix, in units of k: how much stiffer
    /// than one spring its fastest mode is (just under 4 for long chains).
    pub(super) fn max_mode_factor(&self) -> f64 {
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

    /// The rest rule's length scale, m: a spring offset component smaller than this is treated
    /// as zero (see [`REST_FRACTION`]; zero when the rule is off).
    pub fn rest_length_floor_m(&self) -> f32 {
        self.rest_length_m * self.rest_fraction
    }

    /// The rest rule's speed scale, m/s: a velocity component smaller than this is set to zero
    /// after each step (see [`REST_FRACTION`]; zero when the rule is off).
    pub fn rest_speed_floor_m_per_s(&self) -> f32 {
        self.rest_length_m * self.rest_fraction
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
/// A rope's parameters that cannot make a rope.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BadParams {
    /// No particles.
    #[error("--particles must be at least 1")]
    NoParticles,
    /// More particles than [`MAX_PARTICLES`] (the count given).
    #[error("--particles {0} is more than the maximum {MAX_PARTICLES} ({cost})", cost = max_particles_cost())]
    TooManyParticles(usize),
    /// Both ends pinned on a rope of one particle.
    #[error("--pin both needs --particles 2 or more")]
    BothPinsOneParticle,
    /// A per-particle drag that is negative or not finite, 1/s (the value given).
    #[error("--damping must be a finite rate >= 0 per second, got {0}")]
    Damping(f32),
    /// A quantity (named) that must be positive and finite.
    #[error("the rope's {0} must be positive and finite, got {1}")]
    NotPositive(&'static str, f32),
    /// A rest fraction outside [0, 0.001) (the value given).
    #[error("the rest rule's fraction must be in [0, 0.001), got {0}")]
    RestFraction(f32),
    /// A spring damping that is negative or not finite.
    #[error("the spring damping must be >= 0")]
    SpringDamping,
}
