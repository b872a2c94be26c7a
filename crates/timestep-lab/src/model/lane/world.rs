//! A lane's world: the rope its loop steps, the divergence watch that resets an exploded rope,
//! and the figures kept across resets.

use crate::model::rope::{Integrator, Previous, Rope, RopeParams};
use crate::model::watch::{ExplosionWatch, Watch};
use timestep_loop::StepRun;

/// A rope and what happens to it when it diverges.
#[derive(Clone, Debug)]
pub struct World {
    rope: Rope,
    watch: ExplosionWatch,
    /// What the divergence watch said on the last frame.
    watched: Watch,
    energy_start_j: f64,
    /// The largest stretch over every life of the rope (a reset starts a new one).
    max_stretch: f32,
    /// The run's integrator, which a lane's `+rk4` / `+euler` overrides.
    base_integrator: Integrator,
    /// Simulated time integrated so far, ns: where the drive has the pin (the loop's clock,
    /// which a reset leaves alone).
    sim_ns: u64,
}

impl World {
    /// A rope of `params`, stepped with `integrator` if given, else `params`' own.
    pub fn new(params: &RopeParams, integrator: Option<Integrator>) -> World {
        let rope = Rope::new(RopeParams {
            integrator: integrator.unwrap_or(params.integrator),
            ..*params
        });
        World {
            energy_start_j: rope.energy(),
            rope,
            watch: ExplosionWatch::default(),
            watched: Watch::Fine,
            max_stretch: 1.0,
            base_integrator: params.integrator,
            sim_ns: 0,
        }
    }

    /// Integrates a run of the loop's steps, each in its equal substeps. Only the first
    /// substep of a frame's last step saves the state the blend starts from.
    /// A driven pin is put where the drive has it at the end of each substep first.
    pub fn integrate(&mut self, run: StepRun) {
        let h = run.step.substep_s() as f32;
        let substeps = run.step.substeps.max(1);
        let (dt_ns, driven) = (run.step.dt_ns, self.rope.params().drive.is_on());
        for i in 0..run.count {
            let last = run.step.last && i + 1 == run.count;
            for j in 0..substeps {
                let save = last && j == 0;
                if driven {
                    // The blend starts from where the pin was, before the drive moves it.
                    if save {
                        self.rope.save_previous();
                    }
                    let into = (j + 1) as f64 * dt_ns as f64 / substeps as f64;
                    self.rope.drive_to(self.sim_ns as f64 + into);
                    self.rope.step(h, Previous::Keep);
                } else {
                    self.rope.step(h, Previous::save_on_last(save));
                }
            }
            self.sim_ns += dt_ns;
        }
    }

    /// Drives the pin with `drive` from now on.
    pub fn set_drive(&mut self, drive: crate::model::rope::Drive) {
        self.rope.set_drive(drive);
    }

    /// The divergence watch at `now_ns` (wall time): an exploded rope is shown for a while,
    /// then reset.
    pub fn watch(&mut self, now_ns: u64) {
        self.watched = self.watch.check(self.rope.exploded(), now_ns);
        if self.watched == Watch::ResetNow {
            self.reset();
        }
    }

    /// The one reset rule, for an explosion and for the user's R alike: the rope goes back to
    /// its starting line, at rest, and the pending explosion is forgotten. The loop's clock
    /// carries on — simulated time, the accumulator and the books — because it belongs to the
    /// loop, not to the rope: restarting it would show up as a jump in the shown time, i.e. as
    /// stutter and drift that the loop never made.
    pub fn reset(&mut self) {
        self.max_stretch = self.max_stretch.max(self.rope.max_stretch());
        self.rope.reset();
        self.watch.clear();
        self.watched = Watch::Fine;
    }

    /// Steps with `integrator` from now on, or the run's with `None`; the state carries
    /// on.
    pub fn set_integrator(&mut self, integrator: Option<Integrator>) {
        self.rope
            .set_integrator(integrator.unwrap_or(self.base_integrator));
    }

    /// The integrator the rope steps with.
    pub fn integrator(&self) -> Integrator {
        self.rope.integrator()
    }
    /// The run's integrator (before a lane's own overrides it).
    pub fn base_integrator(&self) -> Integrator {
        self.base_integrator
    }
    /// The rope.
    pub fn rope(&self) -> &Rope {
        &self.rope
    }
    /// The rope, to hold a particle.
    pub fn rope_mut(&mut self) -> &mut Rope {
        &mut self.rope
    }
    /// The explosion watch.
    pub fn watch_state(&self) -> &ExplosionWatch {
        &self.watch
    }
    /// What the divergence watch said on the last frame.
    pub fn watched(&self) -> Watch {
        self.watched
    }
    /// The rope's energy when the lane started, J.
    pub fn energy_start_j(&self) -> f64 {
        self.energy_start_j
    }
    /// The largest spring stretch over the whole run, across resets.
    pub fn max_stretch(&self) -> f32 {
        self.max_stretch.max(self.rope.max_stretch())
    }
}
