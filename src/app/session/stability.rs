//! Lanes whose step is above their rope's stable step: what the screen and the terminal say
//! of them, naming the lanes (each lane by the number its label starts with), and the fixes
//! the panel offers, each only where it makes one of those lanes stable.

use super::{Refused, Session};
use timestep_lab::model::fixes::stability_warning;
use timestep_lab::model::fixes::{Stepping, fix_substep_ns};
use timestep_lab::model::lane::Lane;
use timestep_lab::model::rope::Integrator;
use timestep_loop::MaxSubstep;

/// How the stability warning is fixed from the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// Substeps short enough for the rope: half the smallest stable step among the unstable
    /// lanes' integrators, at most 1 ms.
    Substeps,
    /// The unstable lanes on Euler whose step RK4 holds switch to RK4 (the others keep
    /// theirs).
    Rk4,
}

/// Whether `lane`'s step is above its rope's stable step with its integrator.
fn unstable(lane: &Lane) -> bool {
    lane.rope()
        .is_some_and(|rope| Stepping::of_lane(lane, rope.params()).unstable(rope.params()))
}

/// Whether RK4 would hold `lane`'s step where its integrator does not.
fn rk4_helps(lane: &Lane) -> bool {
    lane.rope()
        .is_some_and(|rope| Stepping::of_lane(lane, rope.params()).rk4_helps(rope.params()))
}

impl Session {
    /// The lanes whose step is above their rope's stable step, by index.
    fn unstable_lanes(&self) -> Vec<usize> {
        (0..self.lanes.len())
            .filter(|&i| unstable(&self.lanes[i]))
            .collect()
    }

    /// What to say of the unstable lanes, each different warning once after the lanes it is
    /// about: "Lanes 2 fixed, 3 interpolated: tick 50.00 ms is above ... with Euler ...". One
    /// lane alone is not named.
    pub fn stability_warnings(&self) -> Vec<String> {
        let mut said: Vec<(String, Vec<String>)> = Vec::new();
        for i in self.unstable_lanes() {
            let Some(line) = stability_warning(&self.lanes[i]) else {
                continue;
            };
            let name = format!("{} {}", i + 1, self.lanes[i].name());
            match said.iter_mut().find(|(l, _)| *l == line) {
                Some((_, names)) => names.push(name),
                None => said.push((line, vec![name])),
            }
        }
        let alone = self.lanes.len() == 1;
        said.into_iter()
            .map(|(line, names)| match (alone, names.len()) {
                (true, _) => line,
                (false, 1) => format!("Lane {}: {line}", names.join(", ")),
                (false, _) => format!("Lanes {}: {line}", names.join(", ")),
            })
            .collect()
    }

    /// The panel's stability warning (see [`Session::stability_warnings`]), if a lane is
    /// unstable.
    pub fn tick_warning(&self) -> Option<String> {
        let lines = self.stability_warnings();
        (!lines.is_empty()).then(|| lines.join("\n"))
    }

    /// The fixes that would make an unstable lane stable: substeps where the substep they set
    /// is not the one in use, RK4 where a lane on Euler would hold its step with it.
    pub fn fixes(&self) -> Vec<Fix> {
        let unstable = self.unstable_lanes();
        let mut fixes = Vec::new();
        let substep = self.fix_substep_ns(&unstable);
        if !unstable.is_empty() && self.knob_env().max_substep != MaxSubstep::Set(substep) {
            fixes.push(Fix::Substeps);
        }
        if unstable.iter().any(|&i| rk4_helps(&self.lanes[i])) {
            fixes.push(Fix::Rk4);
        }
        fixes
    }

    /// The substep the panel's fix sets for the lanes `unstable`: [`fix_substep_ns`] of the
    /// smallest stable step among their integrators (Euler's with none), as the commands say it.
    fn fix_substep_ns(&self, unstable: &[usize]) -> u64 {
        let limit_s = unstable
            .iter()
            .filter_map(|&i| self.lanes[i].integrator())
            .chain(unstable.is_empty().then_some(Integrator::Euler))
            .map(|i| self.rope.stability_limit_for(i))
            .fold(f64::INFINITY, f64::min);
        fix_substep_ns(limit_s)
    }

    /// The panel's fix for an unstable step (see [`Fix`]), by the reset rule.
    pub fn fix_stability(&mut self, fix: Fix) -> Result<(), Refused> {
        match fix {
            Fix::Substeps => {
                let ns = self.fix_substep_ns(&self.unstable_lanes());
                let env = self.knob_env();
                self.retime(env.with_max_substep(MaxSubstep::Set(ns)))
            }
            Fix::Rk4 => {
                for lane in self.lanes.iter_mut().filter(|lane| rk4_helps(lane)) {
                    lane.set_integrator(Integrator::Rk4)?;
                }
                Ok(())
            }
        }
    }
}
