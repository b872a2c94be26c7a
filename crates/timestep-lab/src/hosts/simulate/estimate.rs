//! How much work a run is, and how long it should take on this machine, known before it
//! starts: rope steps (ticks × substeps, or one a frame for variable steps) × particles, lane
//! by lane, at a step cost measured here and now.
//!
//! What it counts is the rope's stepping, which is what makes a run long; a frame's own
//! bookkeeping (a few hundred nanoseconds) and `--draw`'s rasterising are left out, and the
//! progress bar's ETA, measured as the run goes, covers them.

use super::{DisplayConfig, SimConfig};
use crate::model::rope::{Integrator, Previous, Rope, RopeParams};
use std::time::{Duration, Instant};
use timestep_loop::{Mode, Pacing, format_duration, period_ns, seconds};

/// The particles the step cost is measured with, at most: beyond it the cost per particle is
/// flat (docs/PERFORMANCE.md), so a longer rope's is scaled up from this one's.
const PROBE_PARTICLES: usize = 4_096;

/// How long the step cost is measured for.
const PROBE_TIME: Duration = Duration::from_millis(20);

/// A run projected to take longer than this, s, is told what `--seconds` would take about
/// [`SHORTER_RUN_S`].
const SHORTEN_ABOVE_S: f64 = 60.0;

/// The length, s, of the shorter run a long one is pointed to.
const SHORTER_RUN_S: f64 = 10.0;

/// What sets how many frames a run presents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Presents wait for the display's vblanks (the fastest of a `--vrr` panel's).
    Refresh,
    /// The pacing: a cap or a hold, or late pacing's limit.
    Pacing,
    /// Nothing waits: each frame takes its render cost and no more.
    RenderCost,
}

/// The shortest a run's frames can be, and what sets it: a run's frames are at most its
/// length over this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameBound {
    /// The shortest a frame can be, ns (at least 1).
    pub every_ns: u64,
    /// What sets it.
    pub by: Pace,
}

impl FrameBound {
    /// The bound of `display`: the longest of the refresh period (with vsync), the pacing's
    /// period and the least render cost (the step cost only lengthens frames).
    pub fn of(display: &DisplayConfig) -> FrameBound {
        let fastest_hz = display.vrr.map_or(display.display_hz, |v| v.max_hz);
        let refresh = display.vsync.then(|| period_ns(fastest_hz)).flatten();
        let pacing = match display.pacing {
            Pacing::Cap(hz) | Pacing::Hold(hz) => period_ns(hz),
            Pacing::Late => period_ns(display.display_hz),
            _ => None,
        };
        let render = Some(display.render_cost.min_ns());
        let (every_ns, by) = [
            (refresh, Pace::Refresh),
            (pacing, Pace::Pacing),
            (render, Pace::RenderCost),
        ]
        .into_iter()
        .filter_map(|(ns, by)| Some((ns?, by)))
        .max_by_key(|&(ns, _)| ns)
        .unwrap_or((0, Pace::RenderCost));
        FrameBound {
            every_ns: every_ns.max(1),
            by,
        }
    }

    /// The most frames a lane presents in `duration_ns`.
    pub fn frames(&self, duration_ns: u64) -> u128 {
        u128::from(duration_ns).div_ceil(u128::from(self.every_ns))
    }

    /// The line said once a long run's first `measured_s` have been measured here: each of
    /// its `lanes`' frames over `run_ns`, what sets them, and the whole run projected at that
    /// pace (`projected_s`), with how to shorten it to no less than `shortest_s`.
    pub fn line(
        &self,
        lanes: usize,
        (run_ns, shortest_s): (u64, f64),
        measured_s: f64,
        projected_s: f64,
    ) -> String {
        let by = match self.by {
            Pace::Refresh => "the display's refresh",
            Pace::Pacing => "the pacing",
            Pace::RenderCost => "the render cost alone",
        };
        format!(
            "this run is {} frames on each of {lanes} lane{} (one every {} at most, set by \
             {by}), about {} on this machine at the pace of its first {measured_s:.1} s{}",
            count(self.frames(run_ns) as f64),
            if lanes == 1 { "" } else { "s" },
            format_duration(self.every_ns),
            span(projected_s),
            shorter(seconds(run_ns), projected_s, shortest_s),
        )
    }
}

/// The whole run's time, s, projected from `elapsed_s` spent on `done_ns` of its `total_ns`
/// (simulated time over all lanes); `None` before any of it is done.
pub fn projected_s(elapsed_s: f64, done_ns: u64, total_ns: u64) -> Option<f64> {
    (done_ns > 0).then(|| elapsed_s * total_ns as f64 / done_ns as f64)
}

/// For a run of `run_s` projected to take `projected_s` here: past [`SHORTEN_ABOVE_S`], the
/// `--seconds` that would take about [`SHORTER_RUN_S`], or `shortest_s` (the shortest run the
/// command takes) if that is longer, and what it would take (as a clause to add to a line);
/// nothing when no shorter run is taken.
fn shorter(run_s: f64, projected_s: f64, shortest_s: f64) -> String {
    if !projected_s.is_finite() || projected_s <= SHORTEN_ABOVE_S {
        return String::new();
    }
    let ten = (run_s * SHORTER_RUN_S / projected_s).max(1e-9);
    if ten < shortest_s {
        if shortest_s >= run_s {
            return String::new();
        }
        let took = span(projected_s * shortest_s / run_s);
        return format!("; --seconds {shortest_s} would take about {took}");
    }
    let decimals = (-ten.log10().floor()).max(0.0) as usize;
    format!(
        "; --seconds {ten:.decimals$} would take about {}",
        span(SHORTER_RUN_S)
    )
}

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
        let frames = FrameBound::of(&cfg.display).frames(cfg.display.duration_ns);
        let lanes = cfg
            .lanes
            .iter()
            .filter_map(|spec| {
                let policy = spec.looped.policy(&env).ok()?;
                let ticks = ns / u128::from(policy.timing.tick_ns());
                let substeps = u128::from(policy.substeps_per_tick());
                // A frame's step in substeps: its share of the run in whole substeps, and
                // one for what is left over.
                let per_frame = match policy.max_substep_ns {
                    Some(most) => frames + ns / u128::from(most.max(1)),
                    None => frames,
                };
                let steps = match policy.mode {
                    Mode::Variable => per_frame,
                    Mode::SemiFixed => ticks * substeps + frames,
                    Mode::Fixed | Mode::Interpolated => ticks * substeps,
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

    /// The line said before a long run of `run_s`: the work and how long it should take here
    /// (`seconds`).
    pub fn line(&self, seconds: f64, run_s: f64, shortest_s: f64) -> String {
        let lanes = self.lanes.len();
        format!(
            "this run is {} rope steps of {} particles over {lanes} lane{} ({} particle-steps), \
             about {} on this machine{}",
            count(self.steps() as f64),
            self.particles,
            if lanes == 1 { "" } else { "s" },
            count(self.particle_steps()),
            span(seconds),
            shorter(run_s, seconds, shortest_s),
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
    use crate::hosts::simulate::DisplayConfig;
    use crate::model::lane::parse_spec;
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
        // Substepped at 1 ms (advise's runs): variable splits each frame, semi-fixed each
        // 20 ms tick; they were counted a step a frame and a step a tick.
        let substepped = SimConfig {
            max_substep: timestep_loop::MaxSubstep::Set(1_000_000),
            ..config(20_000_000, 1, "variable,semi-fixed")
        };
        let steps: Vec<u128> = Work::of(&substepped).lanes.iter().map(|l| l.0).collect();
        assert_eq!(steps, [60 + 1_000, 50 * 20 + 60]);
    }

    /// `seconds` of `display`, as the flags would give it.
    fn bound(display: DisplayConfig) -> (FrameBound, u128) {
        let b = FrameBound::of(&display);
        (b, b.frames(display.duration_ns))
    }

    #[test]
    fn the_frames_a_run_presents_are_set_by_its_refresh_its_pacing_or_its_render_cost() {
        use crate::hosts::simulate::RenderCost;
        use crate::hosts::simulate::vrr::{Lfc, Vrr};
        let ten_s = DisplayConfig::default();
        assert_eq!(
            bound(ten_s.clone()),
            (
                FrameBound {
                    every_ns: 16_666_667,
                    by: Pace::Refresh
                },
                600
            )
        );
        // --vsync off --render-cost 1ns: nothing but the frame count bounds the run, ten
        // billion frames a lane (issue 37: hours, with nothing said).
        let unpaced = DisplayConfig {
            vsync: false,
            render_cost: RenderCost::Fixed(1),
            ..ten_s.clone()
        };
        let (b, frames) = bound(unpaced.clone());
        assert_eq!(
            (b.by, b.every_ns, frames),
            (Pace::RenderCost, 1, 10_000_000_000)
        );
        // A render cost of 0 is a frame of 1 ns: the clock's unit.
        let free = DisplayConfig {
            render_cost: RenderCost::Fixed(0),
            ..unpaced.clone()
        };
        assert_eq!(bound(free).1, 10_000_000_000);
        // A cap bounds it; a render cost longer than the refresh period does, with vsync.
        let capped = DisplayConfig {
            pacing: Pacing::Cap(100.0),
            ..unpaced.clone()
        };
        assert_eq!(
            bound(capped),
            (
                FrameBound {
                    every_ns: 10_000_000,
                    by: Pace::Pacing
                },
                1_000
            )
        );
        let slow = DisplayConfig {
            render_cost: RenderCost::Uniform(25_000_000, 40_000_000),
            ..ten_s.clone()
        };
        assert_eq!(bound(slow).1, 400);
        // A VRR panel presents at most at its fastest.
        let vrr = DisplayConfig {
            vrr: Some(Vrr {
                min_hz: 48.0,
                max_hz: 144.0,
                lfc: Lfc::Off,
            }),
            ..ten_s
        };
        // (Its period in whole ns, 6,944,444, goes 1,440.0002 times into 10 s: at most 1,441.)
        assert_eq!(bound(vrr).1, 1_441);
        // Variable steps take one rope step a frame: the unpaced run's are counted as such.
        let mut cfg = config(1_000_000, 10, "variable");
        cfg.display = unpaced;
        assert_eq!(Work::of(&cfg).lanes[0].0, 10_000_000_000);
    }

    #[test]
    fn a_long_runs_measured_line_says_its_frames_their_pace_and_how_to_shorten_it() {
        let b = FrameBound {
            every_ns: 1,
            by: Pace::RenderCost,
        };
        // Four lanes, 0.5 s in, 1/100,000 of the way: hours.
        let projected = projected_s(0.5, 400_000, 40_000_000_000).unwrap_or_default();
        assert_eq!(projected, 50_000.0);
        let line = b.line(4, (10_000_000_000, 1e-9), 0.5, projected);
        assert_eq!(
            line,
            "this run is 10.0 billion frames on each of 4 lanes (one every 1ns at most, set by \
             the render cost alone), about 13.9 h on this machine at the pace of its first 0.5 s; \
             --seconds 0.002 would take about 10 s"
        );
        assert_eq!(projected_s(0.5, 0, 1), None);
        // A run of a minute or less is not told to shorten itself.
        assert!(
            !b.line(1, (1_000_000_000, 1e-9), 0.5, 30.0)
                .contains("--seconds")
        );
        // Never shorter than the command takes (advise: a verdict's shortest run), nor a
        // "shorter" run that is not.
        assert_eq!(
            shorter(10.0, 3_600.0, 2.0),
            "; --seconds 2 would take about 12 min"
        );
        assert_eq!(shorter(10.0, 3_600.0, 10.0), "");
        assert_eq!(
            shorter(10.0, 1e9, 1e-9),
            "; --seconds 0.0000001 would take about 10 s"
        );
    }

    #[test]
    fn the_line_says_the_work_and_the_time() {
        let w = Work::of(&config(1, 1, "fixed"));
        let line = w.line(48.0, 1.0, 1e-9);
        assert!(
            line.contains("1.0 billion rope steps of 16 particles over 1 lane"),
            "{line}"
        );
        assert!(line.contains("16.0 billion particle-steps"), "{line}");
        assert!(line.contains("about 48 s"), "{line}");
        assert_eq!(span(4.0 * 3_600.0), "4.0 h");
    }
}
