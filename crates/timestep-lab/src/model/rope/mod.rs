//! The mass-spring rope: particles joined to their neighbours by damped Hooke springs, under
//! gravity and a per-particle drag, integrated with semi-implicit (symplectic) Euler.
//!
//! State is a struct of arrays — x, y, vx, vy as separate `f32` arrays — in SI units (metres,
//! m/s), with particle 0 at the origin and y pointing up. A `previous` copy of the positions is
//! kept for blending: it holds the state one step before the current one. Positions are handed
//! out as `glam::Vec2` values.
//!
//! `params.rs` holds the constants and the stability bound; `euler.rs` the step itself.

mod drive;
mod euler;
#[cfg(test)]
mod hand_tests;
mod integrator;
mod params;
mod rk4;
mod stability;

use drive::Handover;
pub use drive::{Drive, DriveError, HANDOVER_NS};
pub use integrator::Integrator;
pub use params::{
    BYTES_PER_PARTICLE, BadParams, EXPLODE_STRETCH, MAX_PARTICLES, Pin, REST_FRACTION, RopeParams,
    max_particles_cost,
};

use glam::Vec2;

/// What a step does with `previous`, the positions a shown blend starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Previous {
    /// Leaves `previous` as it is: a step whose starting state is never shown.
    Keep,
    /// Copies the current positions into `previous` before stepping: a frame's last step,
    /// the only one whose starting state is ever shown.
    Save,
}

impl Previous {
    /// [`Previous::Save`] on a frame's last step, [`Previous::Keep`] on the others.
    pub fn save_on_last(last: bool) -> Previous {
        if last { Previous::Save } else { Previous::Keep }
    }
}

/// A particle held by the mouse: it is drawn towards `target` and carries `velocity` (the
/// drag's), so releasing it flings the rope. It moves at most [`HELD_SPEED_M_PER_S`], and no
/// farther from a pin than [`HELD_STRETCH`] rest lengths per spring between them, so no hand
/// stretches a spring further than a stable step can hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grab {
    /// The particle held.
    pub index: usize,
    /// Where it is held, m (the rope's coordinates).
    pub target: Vec2,
    /// The drag's velocity, m/s, which the particle carries while held.
    pub velocity: Vec2,
}

/// The fastest a held particle moves towards the cursor (and the fastest it is flung), m/s:
/// about 800 px/s at the window's default scale, so it keeps up with a drag, while the tension
/// wave that pulls the rest of the default rope after it (13 m/s: a rest length times
/// `√(k/m)`) stretches its springs by well under one rest length. A cursor that jumps (a quick
/// drag, several of whose events arrive between two frames) used to put the particle there in
/// one step: a spring 14 times its rest length, and an exploded rope at a stable tick.
pub const HELD_SPEED_M_PER_S: f32 = 8.0;

/// The farthest a held particle is pulled from a pin, in rest lengths per spring between
/// them: half of [`EXPLODE_STRETCH`]. Dragging the particle next to the pin across the window
/// used to stretch that one spring past it.
pub const HELD_STRETCH: f32 = 2.0;

/// How much energy a hand may give a rope beyond what it started with, in the energy of one
/// of its springs stretched by this many rest lengths (17.6 J for the default rope). Past it
/// the hand holds still (a still hand does no work) and lets go without a fling, until the
/// rope's damping has taken the excess away: however it is shaken, no spring can be pulled
/// near [`EXPLODE_STRETCH`] by energy the hand put in. Fast drags back and forth pumped a rope
/// at 1 ms steps from 10 J to a spring five times its rest length.
pub const HAND_ENERGY_STRETCH: f32 = 2.0;

/// Two component arrays of one vector quantity for `n` particles, padded with zeros to the
/// step's [`euler::padded_len`].
#[derive(Clone, Debug, PartialEq)]
struct Xy {
    n: usize,
    x: Vec<f32>,
    y: Vec<f32>,
}

impl Xy {
    fn zeros(n: usize) -> Xy {
        let padded = euler::padded_len(n);
        Xy {
            n,
            x: vec![0.0; padded],
            y: vec![0.0; padded],
        }
    }

    fn from_points(points: &[Vec2]) -> Xy {
        let mut xy = Xy::zeros(points.len());
        for (i, p) in points.iter().enumerate() {
            xy.set(i, *p);
        }
        xy
    }

    fn get(&self, i: usize) -> Vec2 {
        assert!(i < self.n, "particle {i} of {}", self.n);
        Vec2::new(self.x[i], self.y[i])
    }

    fn set(&mut self, i: usize, v: Vec2) {
        self.x[i] = v.x;
        self.y[i] = v.y;
    }

    fn iter(&self) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        let n = self.n;
        self.x[..n]
            .iter()
            .zip(&self.y[..n])
            .map(|(&x, &y)| Vec2::new(x, y))
    }

    fn copy_from(&mut self, other: &Xy) {
        self.x.copy_from_slice(&other.x);
        self.y.copy_from_slice(&other.y);
    }

    /// Replaces non-finite entries with `with`.
    fn sanitise(&mut self, with: Vec2) {
        for i in 0..self.n {
            if !(self.x[i].is_finite() && self.y[i].is_finite()) {
                self.set(i, with);
            }
        }
    }
}

/// The rope's state and its integrator.
#[derive(Clone, Debug)]
pub struct Rope {
    params: RopeParams,
    pos: Xy,
    vel: Xy,
    /// Positions one step before `pos`, for blending.
    prev: Xy,
    /// Scratch for the step's spring forces; kept to avoid allocating per step.
    force: Xy,
    /// The step's constants (the drag's `exp(−rate·dt)` among them) for the last step length
    /// seen: fixed steps all have the same length, so they are worked out once, not every step.
    coefficients: (f32, euler::Coefficients),
    /// RK4's stages and sums, made the first time RK4 steps this rope.
    rk4: Option<Box<rk4::Scratch>>,
    /// The pinned particles: each one's index, place and velocity (particle 0's move with
    /// `--drive`).
    anchors: Vec<(usize, Vec2, Vec2)>,
    /// Where particle 0 is pinned when the drive is at its start.
    home: Vec2,
    /// A new drive taking the pin over from where it was (see [`HANDOVER_NS`]).
    handover: Option<Handover>,
    grab: Option<Grab>,
    /// Where the held particle is, and how fast it moves: it goes towards the grab's target
    /// at most [`HELD_SPEED_M_PER_S`].
    held: (Vec2, Vec2),
    /// The rope's energy when it was made, J, and whether the hand may still add to it (see
    /// [`HAND_ENERGY_STRETCH`]).
    start_energy_j: f64,
    hand_works: bool,
    exploded: bool,
    max_stretch: f32,
    steps: u64,
}

/// A rope that cannot be built from what it was given.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BadRope {
    /// Parameters that cannot make a rope.
    #[error(transparent)]
    Params(#[from] BadParams),
    /// A count of positions or velocities (`what`) that is not one per particle.
    #[error("{given} {what} for {n} particles")]
    Count {
        /// How many were given.
        given: usize,
        /// "positions" or "velocities".
        what: &'static str,
        /// How many particles the rope has.
        n: usize,
    },
    /// A position or velocity (`what`) with a NaN or infinite component.
    #[error("{0} must be finite")]
    NotFinite(&'static str),
}

impl Rope {
    /// A rope in its starting line (level, from particle 0), at rest.
    pub fn new(params: RopeParams) -> Self {
        Rope::build(params, &params.initial_positions(), None)
    }

    /// A rope at the given positions (pins hold their given places), e.g. hanging straight
    /// down, at rest or with the given velocities. There must be `params.particles` finite
    /// entries of each.
    pub fn with_state(
        params: RopeParams,
        positions: &[Vec2],
        velocities: Option<&[Vec2]>,
    ) -> Result<Self, BadRope> {
        params.validate()?;
        let n = params.particles;
        for (what, v) in [("positions", Some(positions)), ("velocities", velocities)] {
            let Some(v) = v else { continue };
            if v.len() != n {
                return Err(BadRope::Count {
                    given: v.len(),
                    what,
                    n,
                });
            }
            if !v.iter().all(|p| p.is_finite()) {
                return Err(BadRope::NotFinite(what));
            }
        }
        Ok(Rope::build(params, positions, velocities))
    }

    /// A rope at rest at the given positions; see [`Rope::with_state`].
    pub fn with_positions(params: RopeParams, positions: Vec<Vec2>) -> Result<Self, BadRope> {
        Rope::with_state(params, &positions, None)
    }

    fn build(params: RopeParams, pos: &[Vec2], vel: Option<&[Vec2]>) -> Self {
        let n = pos.len();
        let mut anchors = vec![(0, pos[0], Vec2::ZERO)];
        if params.pin == Pin::Both && n > 1 {
            anchors.push((n - 1, pos[n - 1], Vec2::ZERO));
        }
        let home = pos[0];
        let pos = Xy::from_points(pos);
        let mut rope = Rope {
            params,
            prev: pos.clone(),
            vel: vel.map_or_else(|| Xy::zeros(n), Xy::from_points),
            force: Xy::zeros(n),
            pos,
            coefficients: (0.0, euler::Coefficients::new(&params, 0.0)),
            rk4: None,
            anchors,
            home,
            handover: None,
            grab: None,
            held: (Vec2::ZERO, Vec2::ZERO),
            start_energy_j: 0.0,
            hand_works: true,
            exploded: false,
            max_stretch: 1.0,
            steps: 0,
        };
        // Pins (and their velocities) in place from the start, so a step without a hand need
        // not put them back before it integrates: only its end does.
        rope.hold();
        rope.start_energy_j = rope.energy();
        rope
    }

    /// Back to the starting line, at rest; a moving drive takes the pin over from its place
    /// (see [`HANDOVER_NS`]) rather than jerking it onto its path.
    pub fn reset(&mut self) {
        *self = Rope::new(self.params);
        if self.params.drive.is_on() {
            self.handover = Some(Handover::from(Vec2::ZERO));
        }
    }

    /// The rope's parameters.
    pub fn params(&self) -> &RopeParams {
        &self.params
    }
    /// The number of particles.
    pub fn len(&self) -> usize {
        self.pos.n
    }
    /// Whether the rope has no particles (never true of one built from valid parameters).
    pub fn is_empty(&self) -> bool {
        self.pos.n == 0
    }
    /// Particle `i`'s position. Panics if `i` is out of range, like indexing.
    pub fn position(&self, i: usize) -> Vec2 {
        self.pos.get(i)
    }
    /// Particle `i`'s velocity.
    pub fn velocity(&self, i: usize) -> Vec2 {
        self.vel.get(i)
    }
    /// Every particle's position, m, from particle 0.
    pub fn positions(&self) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        self.pos.iter()
    }
    /// The positions last kept by [`Rope::save_previous`], m: what a blend starts from.
    pub fn previous_positions(&self) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        self.prev.iter()
    }
    /// Every particle's velocity, m/s, from particle 0.
    pub fn velocities(&self) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        self.vel.iter()
    }
    /// The indices of the pinned particles (particle 0, and the last with `Pin::Both`).
    pub fn pinned_indices(&self) -> Vec<usize> {
        self.anchors.iter().map(|&(i, _, _)| i).collect()
    }

    /// Whether particle `i` is held fixed by a pin.
    pub fn is_pinned(&self, i: usize) -> bool {
        self.anchors.iter().any(|&(a, _, _)| a == i)
    }
    /// True once the integration has diverged; the rope then stops stepping until reset.
    pub fn exploded(&self) -> bool {
        self.exploded
    }
    /// The largest spring length / rest length seen since the last reset.
    pub fn max_stretch(&self) -> f32 {
        self.max_stretch
    }
    /// Integration steps taken since the last reset.
    pub fn steps(&self) -> u64 {
        self.steps
    }
    /// The particle held by the mouse, if any.
    pub fn grab(&self) -> Option<Grab> {
        self.grab
    }

    /// Holds a particle, drawn towards a point (or lets go with `None`, and the particle
    /// keeps the velocity it was held with: a fling). Pinned particles cannot be grabbed. A
    /// particle newly held stays where it is until the steps move it towards the point (see
    /// [`Grab`]); one already there takes the grab's velocity, at most
    /// [`HELD_SPEED_M_PER_S`].
    pub fn set_grab(&mut self, grab: Option<Grab>) {
        let grab = grab.filter(|g| g.index < self.len() && !self.is_pinned(g.index));
        if let Some(g) = grab {
            if self.grab.map(|held| held.index) != Some(g.index) {
                let i = g.index;
                self.held = (self.pos.get(i), self.vel.get(i));
            }
            self.hand_works = self.energy() <= self.start_energy_j + self.hand_energy_j();
            if !self.hand_works {
                self.held.1 = Vec2::ZERO;
            } else if self.held.0 == self.within_reach(g.target, g.index) {
                self.held.1 = g.velocity.clamp_length_max(HELD_SPEED_M_PER_S);
            }
        }
        self.grab = grab;
        self.hold();
    }

    /// Puts the pins and the held particle where they belong.
    fn hold(&mut self) {
        for &(i, at, velocity) in &self.anchors {
            self.pos.set(i, at);
            self.vel.set(i, velocity);
        }
        if let Some(g) = self.grab {
            self.pos.set(g.index, self.held.0);
            self.vel.set(g.index, self.held.1);
        }
    }

    /// Moves the held particle towards its grab's target for a step of `dt` seconds: at most
    /// [`HELD_SPEED_M_PER_S`], to a target kept within reach of the pins; there, it moves
    /// with the drag. The hand's energy is checked at every step (a frame of many ticks let
    /// one grab add 90 J); a hand that may not add more holds still, and lets the particle
    /// slip towards a pin that sways out of reach (a driven pin pulling on a particle held
    /// still stretched the springs between until the rope exploded).
    fn approach(&mut self, dt: f32) {
        let Some(g) = self.grab else {
            return;
        };
        if self.hand_works && self.energy() > self.start_energy_j + self.hand_energy_j() {
            self.hand_works = false;
        }
        if !self.hand_works {
            let (at, _) = self.held;
            let kept = self.within_reach(at, g.index);
            self.held = (kept, (kept - at) / dt);
            return;
        }
        let target = self.within_reach(g.target, g.index);
        let (at, _) = self.held;
        let most = HELD_SPEED_M_PER_S * dt;
        let to = target - at;
        self.held = if to.length() <= most {
            (target, g.velocity.clamp_length_max(HELD_SPEED_M_PER_S))
        } else {
            let step = to * (most / to.length());
            (at + step, step / dt)
        };
    }

    /// The most energy a hand may add to this rope, J (see [`HAND_ENERGY_STRETCH`]).
    fn hand_energy_j(&self) -> f64 {
        let p = &self.params;
        let stretch = f64::from(HAND_ENERGY_STRETCH * p.rest_length_m);
        0.5 * f64::from(p.stiffness_n_per_m) * stretch * stretch
    }

    /// `target` moved, if it must be, to within [`HELD_STRETCH`] rest lengths per spring
    /// of every pin, for particle `index`.
    fn within_reach(&self, mut target: Vec2, index: usize) -> Vec2 {
        for &(pin, at, _) in &self.anchors {
            let springs = pin.abs_diff(index) as f32;
            let reach = springs * self.params.rest_length_m * HELD_STRETCH;
            let from = target - at;
            if from.length() > reach {
                target = at + from.normalize_or_zero() * reach;
            }
        }
        target
    }

    /// The free particle nearest to `point` within `radius`, if any.
    pub fn nearest_free(&self, point: Vec2, radius: f32) -> Option<usize> {
        self.positions()
            .enumerate()
            .filter(|&(i, _)| !self.is_pinned(i))
            .map(|(i, p)| (i, p.distance_squared(point)))
            .filter(|&(_, d2)| d2 <= radius * radius)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// The integrator the next steps use.
    pub fn integrator(&self) -> Integrator {
        self.params.integrator
    }

    /// Switches the integrator; the state carries on from where it is.
    pub fn set_integrator(&mut self, integrator: Integrator) {
        self.params.integrator = integrator;
    }

    /// Keeps the positions now as the ones a blend starts from.
    pub fn save_previous(&mut self) {
        self.prev.copy_from(&self.pos);
    }

    /// Puts particle 0 where the drive has it at simulated time `t_ns`, moving as the drive
    /// does; with no drive, nothing changes.
    pub fn drive_to(&mut self, t_ns: f64) {
        let drive = self.params.drive;
        if !drive.is_on() || self.exploded {
            return;
        }
        let handed = self.handover.as_mut().and_then(|h| h.at(drive, t_ns));
        if handed.is_none() {
            self.handover = None;
        }
        let (offset, velocity) = handed.unwrap_or_else(|| drive.at(t_ns));
        self.anchors[0].1 = self.home + offset;
        self.anchors[0].2 = velocity;
        self.hold();
    }

    /// Drives particle 0 with `drive` from now on: from where the pin is, easing into the
    /// drive's path over [`HANDOVER_NS`] of steps; `Off` leaves it where it is.
    pub fn set_drive(&mut self, drive: Drive) {
        if drive != self.params.drive {
            self.handover = Some(Handover::from(self.anchors[0].1 - self.home));
        }
        self.params.drive = drive;
        if !drive.is_on() {
            self.anchors[0].2 = Vec2::ZERO;
            self.hold();
        }
    }

    /// One step of `dt` seconds with the rope's integrator; `previous` says whether the
    /// current positions are first kept as the start of the shown blend.
    pub fn step(&mut self, dt: f32, previous: Previous) {
        if self.exploded || dt <= 0.0 {
            return;
        }
        if previous == Previous::Save {
            self.save_previous();
        }
        // Only a hand moves anything between steps without putting it back itself (every
        // other change holds at once), so only then is the state held again before the step;
        // a hold before every step would cost a 16-particle step as much as its own end's.
        if self.grab.is_some() {
            self.approach(dt);
            self.hold();
        }
        if self.coefficients.0 != dt {
            self.coefficients = (dt, euler::Coefficients::new(&self.params, dt));
        }
        let padded = self.pos.x.len();
        let state = euler::State {
            n: self.pos.n,
            x: &mut self.pos.x,
            y: &mut self.pos.y,
            vx: &mut self.vel.x,
            vy: &mut self.vel.y,
            fx: &mut self.force.x,
            fy: &mut self.force.y,
        };
        let outcome = match self.params.integrator {
            Integrator::Euler => euler::step(&self.coefficients.1, state),
            Integrator::Rk4 => {
                let scratch = self
                    .rk4
                    .get_or_insert_with(|| Box::new(rk4::Scratch::new(padded)));
                let hold = rk4::Constraints {
                    pins: &self.anchors,
                    held: self.grab.map(|g| (g.index, self.held.0, self.held.1)),
                };
                rk4::step(&self.coefficients.1, state, scratch, &hold)
            }
        };
        self.max_stretch = self.max_stretch.max(outcome.worst_stretch);
        self.hold();
        self.steps += 1;
        if outcome.diverged {
            self.explode();
        }
    }

    /// Marks the rope as diverged and replaces any non-finite value, so that nothing drawn or
    /// measured later sees a NaN.
    fn explode(&mut self) {
        self.exploded = true;
        let origin = self.home;
        self.pos.sanitise(origin);
        self.prev.sanitise(origin);
        self.vel.sanitise(Vec2::ZERO);
        if !self.max_stretch.is_finite() {
            self.max_stretch = f32::MAX;
        }
    }

    /// Writes `previous.lerp(current, alpha)` into `out` (resized to fit). Never changes the rope.
    pub fn blend_into(&self, alpha: f32, out: &mut Vec<Vec2>) {
        out.clear();
        out.extend(
            self.previous_positions()
                .zip(self.positions())
                .map(|(a, b)| a.lerp(b, alpha)),
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
            .positions()
            .zip(self.velocities())
            .map(|(x, v)| 0.5 * m * f64::from(v.length_squared()) + m * g * f64::from(x.y))
            .sum();
        let springs: f64 = self
            .positions()
            .zip(self.positions().skip(1))
            .map(|(a, b)| {
                let ext = f64::from((b - a).length()) - rest;
                0.5 * k * ext * ext
            })
            .sum();
        moving + springs
    }

    /// FNV-1a over the bits of every position and then every velocity (x then y for each):
    /// equal hashes mean bit-identical states.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for v in self.positions().chain(self.velocities()) {
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
