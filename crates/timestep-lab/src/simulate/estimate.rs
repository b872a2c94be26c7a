//! How much work a run is, and how long it should take on this machine, known before it
//! starts: rope steps (ticks × substeps, or one a frame for variable steps) × particles, lane
//! by lane, at a step cost measured here and now.
//!
//! What it counts is the rope's stepping, which is what makes a run long; a frame's own
//! bookkeeping (a few hundred nanoseconds) and `--draw`'s rasterising are left out, and the
//! progress bar's ETA, measured as the run goes, covers them.

use super::SimConfig;
use crate::rope::{Integrator, Previous, Rope, RopeParams};
use std::time::{Duration, Instant};
use timestep_loop::Mode;
use timestep_loop::seconds;

/// The particles the step cost is measured with, at most: beyond it the cost per particle is
/// flat (docs/PERFORMANCE.md), so a longer rope's is scaled up from this one's.
const PROBE_PARTICLES: usize = 4_096;

/// How long the step cost is measured for.
const PROBE_TIME: Duration = Duration::from_millis(20);

/// A run's work: each lane's rope steps and integrator, and the rope's particles.
#[derive(Clone, Debug, PartialEq)]
pub struct Work {
    /// Each lane's rope steps over the run, and the integrator it steps with.
    pub lanes: Vec<(u128, Integrator)>,
    /// Particles in the rope.
    pub particles: usize,
}

impl Work {
    /// The steps each lane of `cfg` will take over the run (a whole run's worth: clamps and
    /// caps can only make it fewer).
    pub fn of(cfg: &SimConfig) -> Work {
        let env = cfg.env();
        let ns = u128::from(cfg.display.duration_ns);
        let frames = (seconds(cfg.display.duration_ns) * cfg.display.display_hz).ceil() as u128;
        let lanes = cfg
            .lanes
            .iter()
            .filter_map(|spec| {
                let policy = spec.looped.policy(&env).ok()?;
                let ticks = ns / u128::from(policy.timing.tick_ns());
                let steps = match policy.mode {
                    Mode::Variable => frames,
                    Mode::SemiFixed => ticks + frames,
                    Mode::Fixed | Mode::Interpolated => {
                        ticks * u128::from(policy.substeps_per_tick())
                    }
                };
                Some((steps, spec.integrator.unwrap_or(cfg.rope.integrator)))
            })
            .collect();
        Work {
            lanes,
            particles: cfg.rope.particles,
        }
    }

    /// Rope steps over all lanes.
    pub fn steps(&self) -> u128 {
        self.lanes.iter().map(|&(s, _)| s).sum()
    }

    /// Rope steps × particles over all lanes.
    pub fn particle_steps(&self) -> f64 {
        self.steps() as f64 * self.particles as f64
    }

    /// Seconds the work should take here: each integrator in use has its step on `rope`
    /// measured once.
    pub fn seconds_here(&self, rope: &RopeParams) -> f64 {
        Integrator::ALL
            .into_iter()
            .map(|integrator| {
                let steps: u128 = self
                    .lanes
                    .iter()
                    .filter(|l| l.1 == integrator)
                    .map(|l| l.0)
                    .sum();
                if steps == 0 {
                    0.0
                } else {
                    steps as f64 * measure_step_s(rope, integrator)
                }
            })
            .sum()
    }

    /// The line said before a long run: the work and how long it should take here.
    pub fn line(&self, seconds: f64) -> String {
        let lanes = self.lanes.len();
        format!(
            "this run is {} rope steps of {} particles over {lanes} lane{} ({} particle-steps), \
             about {} on this machine; Ctrl-C stops it and reports what ran",
            count(self.steps() as f64),
            self.particles,
            if lanes == 1 { "" } else { "s" },
            count(self.particle_steps()),
            span(seconds),
        )
    }
}

/// Seconds one step of `rope` with `integrator` takes here: a rope of at most
/// [`PROBE_PARTICLES`] particles, with the same parameters, is stepped for about
/// [`PROBE_TIME`] (in motion, at 1 ms, inside every integrator's bound), and the cost scaled
/// to the whole rope.
pub fn measure_step_s(rope: &RopeParams, integrator: Integrator) -> f64 {
    let probe = RopeParams {
        particles: rope.particles.clamp(2, PROBE_PARTICLES),
        integrator,
        ..*rope
    };
    let mut r = Rope::new(probe);
    let started = Instant::now();
    let mut steps = 0u32;
    while started.elapsed() < PROBE_TIME && steps < 1_000_000 {
        for _ in 0..16 {
            r.step(1e-3, Previous::Keep);
        }
        steps += 16;
    }
    let per_step = started.elapsed().as_secs_f64() / f64::from(steps);
    per_step * (rope.particles as f64 / probe.particles as f64).max(1.0)
}

/// A count as people say it: 950, 16 thousand, 4.2 million, 3.6 billion, 6.4e13.
fn count(n: f64) -> String {
    match n {
        n if n < 1e4 => format!("{n:.0}"),
        n if n < 1e6 => format!("{:.0} thousand", n / 1e3),
        n if n < 1e9 => format!("{:.1} million", n / 1e6),
        n if n < 1e12 => format!("{:.1} billion", n / 1e9),
        n => format!("{n:.1e}"),
    }
}

/// A duration as people say it: 3 s, 4 min, 2.5 h, 3 days.
fn span(s: f64) -> String {
    match s {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5_400.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3_600.0),
        s => format!("{:.0} days", s / 86_400.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::parse_spec;
    use crate::simulate::DisplayConfig;
    use timestep_loop::TimingConfig;

    fn config(dt_ns: u64, seconds: u64, lanes: &str) -> SimConfig {
        SimConfig {
            timing: TimingConfig::textbook(dt_ns, 250_000_000, None).unwrap_or_default(),
            rope: RopeParams::default(),
            display: DisplayConfig {
                display_hz: 60.0,
                duration_ns: seconds * 1_000_000_000,
                ..Default::default()
            },
            lanes: lanes.split(',').map(|l| parse_spec(l).unwrap()).collect(),
            max_substep: Default::default(),
            draw: None,
            physics: true,
        }
    }

    #[test]
    fn steps_are_ticks_times_substeps_or_frames() {
        // 1 s at a 1 ns tick is a billion ticks; variable steps once a frame; semi-fixed
        // takes the ticks and one sliver a frame; Unity's 20 ms tick substeps into 1 ms.
        let w = Work::of(&config(1, 1, "fixed,variable,semi-fixed"));
        let steps: Vec<u128> = w.lanes.iter().map(|l| l.0).collect();
        assert_eq!(steps, [1_000_000_000, 60, 1_000_000_060]);
        let w = Work::of(&config(1_000_000, 10, "unity+rk4"));
        assert_eq!(w.lanes, [(500 * 20, Integrator::Rk4)]);
    }

    #[test]
    fn the_line_says_the_work_and_the_time() {
        let w = Work::of(&config(1, 1, "fixed"));
        let line = w.line(48.0);
        assert!(
            line.contains("1.0 billion rope steps of 16 particles over 1 lane"),
            "{line}"
        );
        assert!(line.contains("16.0 billion particle-steps"), "{line}");
        assert!(line.contains("about 48 s"), "{line}");
        assert_eq!(span(4.0 * 3_600.0), "4.0 h");
    }
}
