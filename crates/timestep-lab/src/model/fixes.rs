//! What to do about a run whose loop the rope or the display trips, in one place for the window
//! and the commands: a tick (or substep) above the rope's stable step, which explodes the rope
//! however well the loop is paced, and its fix; and a fixed tick that equals the refresh, whose
//! frames land on the tick boundary and run 0, 1 or 2 ticks each.
//!
//! The window's HUD and panel decide with [`Stepping`] and [`fix_substep_ns`]; `simulate`,
//! `sweep`, `replay` and `advise` print [`tick_fix`]'s and [`flip_line`]'s lines once a run.

use crate::model::lane::{Lane, LaneReport, LaneSpec};
use crate::model::rope::{Integrator, RopeParams};
use std::io::{self, Write};
use timestep_loop::{Mode, Policy, PolicyEnv, format_duration, seconds};

/// How one lane integrates its rope: the step it takes and the integrator it takes it with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stepping {
    /// The longest step the rope is integrated over, s: the tick, or its substep; `None` for
    /// a variable lane, whose step is the frame's.
    pub step_s: Option<f64>,
    /// The same, in whole ns (the tick ÷ its substeps), as it is said.
    pub step_ns: u64,
    /// Whether the tick is cut into substeps.
    pub substepped: bool,
    /// The integrator the lane steps its rope with.
    pub integrator: Integrator,
    /// Whether the lane names its integrator itself (`+rk4`, `+euler`), so that the run's
    /// `--integrator` does not change it.
    pub own_integrator: bool,
}

impl Stepping {
    /// A lane of `policy` integrating with `integrator` (named by the lane itself:
    /// `own_integrator`).
    pub fn of(policy: &Policy, integrator: Integrator, own_integrator: bool) -> Stepping {
        let tick_ns = policy.timing.tick_ns();
        let substeps = policy.substeps_per_tick().max(1);
        Stepping {
            step_s: (policy.mode != Mode::Variable).then(|| tick_ns as f64 / 1e9 / substeps as f64),
            step_ns: tick_ns / substeps,
            substepped: substeps > 1,
            integrator,
            own_integrator,
        }
    }

    /// `lane` as it steps now: its rope's integrator, or without a rope the one it names or
    /// else `params`'.
    pub fn of_lane(lane: &Lane, params: &RopeParams) -> Stepping {
        let own = lane.spec().integrator;
        let integrator = lane
            .integrator()
            .unwrap_or_else(|| own.unwrap_or(params.integrator));
        Stepping::of(lane.policy(), integrator, own.is_some())
    }

    /// The lanes `specs` as a run with `env` and a rope of `params` builds them (one that
    /// cannot be built is left out: the run refuses it).
    pub fn of_specs(specs: &[LaneSpec], env: &PolicyEnv, params: &RopeParams) -> Vec<Stepping> {
        specs
            .iter()
            .filter_map(|&spec| Lane::timing_only(spec, env).ok())
            .map(|lane| Stepping::of_lane(&lane, params))
            .collect()
    }

    /// Whether the step is within `integrator`'s stable step on a rope of `params`; `None`
    /// for a variable lane.
    pub fn holds_with(&self, params: &RopeParams, integrator: Integrator) -> Option<bool> {
        self.step_s
            .map(|step| step <= params.stability_limit_for(integrator))
    }

    /// Whether the step is above its own integrator's stable step (never for a variable lane).
    pub fn unstable(&self, params: &RopeParams) -> bool {
        self.holds_with(params, self.integrator) == Some(false)
    }

    /// Whether RK4 would hold the step where the lane's own integrator does not.
    pub fn rk4_helps(&self, params: &RopeParams) -> bool {
        self.unstable(params)
            && self.integrator != Integrator::Rk4
            && self.holds_with(params, Integrator::Rk4) == Some(true)
    }
}

/// The substep that holds a rope whose smallest stable step among the lanes to fix is
/// `limit_s`: half of it, from 1 µs to at most 1 ms (1 ms for the default rope), ns. The
/// window's **Add substeps** sets it; the commands name it as `--max-substep`.
pub fn fix_substep_ns(limit_s: f64) -> u64 {
    let half = limit_s * 1e9 / 2.0;
    if half.is_finite() {
        half.clamp(1e3, 1e6) as u64
    } else {
        1_000_000
    }
}

/// An integrator as a sentence names it: `Euler`, `RK4`.
pub fn integrator_title(integrator: Integrator) -> &'static str {
    match integrator {
        Integrator::Euler => "Euler",
        Integrator::Rk4 => "RK4",
    }
}

/// Lanes whose step is above the rope's stable step, and the fix: see [`tick_fix`].
#[derive(Clone, Debug, PartialEq)]
pub struct TickFix {
    /// The shortest and longest of those steps, ns.
    pub steps_ns: (u64, u64),
    /// What those steps are: `tick`, `substep`, or `step` where both.
    pub what: &'static str,
    /// Their integrators, each with its stable step on this rope, s (Euler first).
    pub limits: Vec<(Integrator, f64)>,
    /// The `--max-substep` that holds every one of them, ns ([`fix_substep_ns`]).
    pub substep_ns: u64,
    /// Where RK4 holds every one of them too: its stable step, s, and whether the run's
    /// `--integrator rk4` reaches them all (else each lane needs `+rk4`).
    pub rk4: Option<(f64, bool)>,
}

/// What to say of `lanes` (a rope of `params`) whose step is above their integrator's stable
/// step, the window's rule: every lane but a variable one (its step is the frame's) whose tick,
/// or substep, is longer. `None` when no lane's is. The fix is substeps short enough for the
/// strictest of their integrators, and RK4 where its stable step holds every one of them.
pub fn tick_fix(lanes: &[Stepping], params: &RopeParams) -> Option<TickFix> {
    let unstable: Vec<&Stepping> = lanes.iter().filter(|s| s.unstable(params)).collect();
    let lo = unstable.iter().map(|s| s.step_ns).min()?;
    let hi = unstable.iter().map(|s| s.step_ns).max().unwrap_or(lo);
    let what = match (
        unstable.iter().all(|s| s.substepped),
        unstable.iter().any(|s| s.substepped),
    ) {
        (true, _) => "substep",
        (false, false) => "tick",
        (false, true) => "step",
    };
    let limits: Vec<(Integrator, f64)> = Integrator::ALL
        .into_iter()
        .filter(|&i| unstable.iter().any(|s| s.integrator == i))
        .map(|i| (i, params.stability_limit_for(i)))
        .collect();
    let strictest = limits.iter().map(|l| l.1).fold(f64::INFINITY, f64::min);
    let rk4 = unstable.iter().all(|s| s.rk4_helps(params)).then(|| {
        let run_wide = unstable.iter().all(|s| !s.own_integrator);
        (params.stability_limit_for(Integrator::Rk4), run_wide)
    });
    Some(TickFix {
        steps_ns: (lo, hi),
        what,
        limits,
        substep_ns: fix_substep_ns(strictest),
        rk4,
    })
}

impl TickFix {
    /// The line the commands print (under a table that says the lanes exploded, or in a sweep
    /// without a rope that their step was unstable): "tick 25.00 ms is above this rope's
    /// stable step with Euler, 15.07 ms: the fix is --max-substep 1ms" (and ", or
    /// --integrator rk4 (RK4's stable step is 21.53 ms)" where RK4 holds it too).
    pub fn line(&self) -> String {
        let ms = |ns: u64| format!("{:.2}", ns as f64 / 1e6);
        let (lo, hi) = self.steps_ns;
        let steps = if lo == hi {
            format!("{} {} ms is", self.what, ms(lo))
        } else {
            format!("{}s of {} to {} ms are", self.what, ms(lo), ms(hi))
        };
        let limits: Vec<String> = self
            .limits
            .iter()
            .map(|&(i, s)| format!("with {}, {:.2} ms", integrator_title(i), s * 1e3))
            .collect();
        let mut fix = format!("--max-substep {}", format_duration(self.substep_ns));
        if let Some((rk4_s, run_wide)) = self.rk4 {
            let how = if run_wide {
                "--integrator rk4"
            } else {
                "+rk4 on those lanes"
            };
            fix += &format!(", or {how} (RK4's stable step is {:.2} ms)", rk4_s * 1e3);
        }
        format!(
            "{steps} above this rope's stable step {}: the fix is {fix}",
            limits.join(" and ")
        )
    }
}

/// Whether `report`'s lane shows the latest tick of a fixed step (no blending) that equals
/// `refresh_hz`, and ran 0, 1 and 2 or more ticks on different frames: its frames land on the
/// tick boundary, so which side each falls decides its ticks. The caller gives the refresh only
/// where every frame came at least a refresh after the last (vsync on a fixed-rate display,
/// `DisplayConfig::vsynced_hz`; a capture whose frames came at its refresh), so that a frame
/// runs no tick only from where it lands; the refresh it matched, Hz, or `None`.
pub fn flips(report: &LaneReport, refresh_hz: Option<f64>) -> Option<f64> {
    let hz = refresh_hz.filter(|hz| *hz > 0.0)?;
    if report.mode != Mode::Fixed || report.policy.mode.blends() {
        return None;
    }
    let (tick_s, period_s) = (seconds(report.policy.timing.tick_ns()), 1.0 / hz);
    if (tick_s - period_s).abs() > period_s * FLIP_TOLERANCE {
        return None;
    }
    let frames = |ticks: fn(u64) -> bool| -> u64 {
        let h = &report.shown.steps_histogram;
        h.iter()
            .filter(|(k, _)| ticks(u64::from(**k)))
            .map(|(_, n)| n)
            .sum()
    };
    // The first frame runs no tick on any loop: a flip runs none again later.
    let flipped = frames(|t| t == 0) >= 2 && frames(|t| t == 1) >= 1 && frames(|t| t >= 2) >= 1;
    flipped.then_some(hz)
}

/// How near a tick must be to the refresh period to equal it, as a share of the period: 59.94
/// Hz is 0.1 % off 60 Hz (a beat every 16.7 s, another story), a preset's 60 Hz tick in 100 ns
/// units (MonoGame's) 0.0002 %.
pub const FLIP_TOLERANCE: f64 = 1e-4;

/// How near a capture's frame rate must be to its refresh for its frames to have come at the
/// refresh (a vsynced game), as a share of the refresh: only then is the refresh handed to
/// [`flips`] for a replayed lane.
pub const PACED_TOLERANCE: f64 = 0.01;

/// The line for lanes whose fixed tick equals the refresh and flips 0/1/2 ticks a frame (see
/// [`flips`]), each named with the refresh it met: "fixed at 60 Hz: the tick equals the
/// refresh, so the frames land on the tick boundary and run 0, 1 or 2 ticks; a snapping or
/// smoothing timer (+snap, +smooth) or blending (interpolated) helps". `None` without any.
pub fn flip_line(flipping: &[(String, f64)]) -> Option<String> {
    let mut rates: Vec<(f64, Vec<&str>)> = Vec::new();
    for (name, hz) in flipping {
        match rates.iter_mut().find(|(r, _)| r == hz) {
            Some((_, names)) if !names.contains(&name.as_str()) => names.push(name),
            Some(_) => {}
            None => rates.push((*hz, vec![name])),
        }
    }
    if rates.is_empty() {
        return None;
    }
    let who: Vec<String> = rates
        .iter()
        .map(|(hz, names)| format!("{} at {} Hz", names.join(", "), rate_text(*hz)))
        .collect();
    // The textbook lanes blend as the interpolated mode, a preset with +interpolated.
    let textbook = |name: &str| name == "fixed" || name.starts_with("fixed+");
    let blend = match (
        flipping.iter().all(|(n, _)| textbook(n)),
        flipping.iter().any(|(n, _)| textbook(n)),
    ) {
        (true, _) => "blending (interpolated)",
        (false, false) => "blending (+interpolated)",
        (false, true) => "blending (interpolated, or +interpolated on a preset)",
    };
    Some(format!(
        "{}: the tick equals the refresh, so the frames land on the tick boundary and run 0, 1 \
         or 2 ticks; a snapping or smoothing timer (+snap, +smooth) or {blend} helps",
        who.join("; ")
    ))
}

/// A refresh rate as said: whole Hz as such (`60`), else to two decimals (`59.94`).
fn rate_text(hz: f64) -> String {
    let rounded = (hz * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        format!("{rounded}")
    }
}

/// The lines a command prints once a run, in order: [`tick_fix`]'s of `lanes` on a rope of
/// `params`, then [`flip_line`]'s of `flipping` (the lanes [`flips`] found, with their refresh).
pub fn lines(lanes: &[Stepping], params: &RopeParams, flipping: &[(String, f64)]) -> Vec<String> {
    let tick = tick_fix(lanes, params).map(|fix| fix.line());
    tick.into_iter().chain(flip_line(flipping)).collect()
}

/// Writes `lines` after a blank line (nothing without any): how the commands' text ends,
/// before the line pointing at `advise`.
pub fn write_lines(out: &mut impl Write, lines: &[String]) -> io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The longest step `lane` integrates its rope with, and the longest its integrator keeps this
/// rope stable at, seconds; `None` for a lane with no fixed step (variable) or no rope.
pub(crate) fn step_and_limit_s(lane: &Lane) -> Option<(f64, f64)> {
    let params = lane.rope()?.params();
    let stepping = Stepping::of_lane(lane, params);
    Some((
        stepping.step_s?,
        params.stability_limit_for(stepping.integrator),
    ))
}

/// What to say when `lane`'s step is above its integrator's stable step on this rope (the
/// rope will explode however well the loop paces it), and what to do instead; `None` when it
/// is below. "tick 16.67 ms is above this rope's stable step with Euler, 15.07 ms: it will
/// explode; add substeps (--max-substep) or use RK4". The rule is [`crate::model::fixes`]'.
pub fn stability_warning(lane: &Lane) -> Option<String> {
    let params = lane.rope()?.params();
    let stepping = Stepping::of_lane(lane, params);
    if !stepping.unstable(params) {
        return None;
    }
    let what = if stepping.substepped {
        "substep"
    } else {
        "tick"
    };
    // RK4 is offered only where its own stable step holds this step.
    let fix = match stepping.integrator {
        Integrator::Rk4 => "add substeps (--max-substep) or a shorter --dt",
        _ if stepping.rk4_helps(params) => "add substeps (--max-substep) or use RK4",
        _ => "add substeps (--max-substep) or a shorter --dt (RK4 is unstable at it too)",
    };
    Some(format!(
        "{what} {:.2} ms is above this rope's stable step with {}, {:.2} ms: it will \
         explode; {fix}",
        stepping.step_s.unwrap_or_default() * 1e3,
        integrator_title(stepping.integrator),
        params.stability_limit_for(stepping.integrator) * 1e3
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use timestep_loop::{MaxSubstep, TimingConfig};

    const MS: u64 = 1_000_000;

    /// The every-mode lanes at `tick_ns` with `max_substep`, on the default rope with
    /// `integrator`.
    fn lanes(tick_ns: u64, max_substep: MaxSubstep, integrator: Integrator) -> Vec<Stepping> {
        let timing = TimingConfig::textbook(tick_ns, 250 * MS, None).unwrap_or_default();
        let env = PolicyEnv::textbook(timing).with_max_substep(max_substep);
        let params = RopeParams {
            integrator,
            ..RopeParams::default()
        };
        Stepping::of_specs(&LaneSpec::every_mode(), &env, &params)
    }

    #[test]
    fn a_40_hz_tick_is_fixed_by_1_ms_substeps_alone() {
        let p = RopeParams::default();
        let fix = tick_fix(&lanes(25 * MS, MaxSubstep::Default, Integrator::Euler), &p);
        let fix = fix.unwrap_or_else(|| panic!("25 ms is above Euler's 15.07 ms"));
        assert_eq!(fix.substep_ns, MS);
        assert_eq!(fix.rk4, None, "RK4's stable step is below 25 ms too");
        assert_eq!(
            fix.line(),
            "tick 25.00 ms is above this rope's stable step with Euler, 15.07 ms: the fix is \
             --max-substep 1ms"
        );
        // The fix holds: nothing is said with it.
        let fixed = lanes(25 * MS, MaxSubstep::Set(fix.substep_ns), Integrator::Euler);
        assert_eq!(tick_fix(&fixed, &p), None);
    }

    #[test]
    fn a_50_hz_tick_is_fixed_by_substeps_or_rk4_and_both_are_named() {
        let p = RopeParams::default();
        let fix = tick_fix(&lanes(20 * MS, MaxSubstep::Default, Integrator::Euler), &p);
        let line = fix.map(|f| f.line()).unwrap_or_default();
        let rk4 = p.stability_limit_for(Integrator::Rk4) * 1e3;
        assert!(
            line.ends_with(&format!(
                "the fix is --max-substep 1ms, or --integrator rk4 (RK4's stable step is \
                 {rk4:.2} ms)"
            )),
            "{line}"
        );
        let rk4_p = RopeParams {
            integrator: Integrator::Rk4,
            ..p
        };
        let on_rk4 = lanes(20 * MS, MaxSubstep::Default, Integrator::Rk4);
        assert_eq!(tick_fix(&on_rk4, &rk4_p), None);
    }

    #[test]
    fn variable_lanes_and_short_ticks_say_nothing() {
        let p = RopeParams::default();
        assert_eq!(
            tick_fix(&lanes(MS, MaxSubstep::Default, Integrator::Euler), &p),
            None
        );
        let variable = Stepping::of_specs(
            &[LaneSpec::mode(Mode::Variable)],
            &PolicyEnv::textbook(TimingConfig::textbook(40 * MS, 250 * MS, None).unwrap()),
            &p,
        );
        assert_eq!(tick_fix(&variable, &p), None);
    }

    #[test]
    fn substeps_still_too_long_are_said_as_substeps() {
        let p = RopeParams::default();
        // 33.33 ms in two substeps of 16.67 ms.
        let fix = tick_fix(
            &lanes(33_333_333, MaxSubstep::Set(20 * MS), Integrator::Euler),
            &p,
        );
        let line = fix.map(|f| f.line()).unwrap_or_default();
        assert!(line.starts_with("substep 16.67 ms is above"), "{line}");
    }

    #[test]
    fn the_flip_line_names_the_lanes_their_refresh_and_what_helps() {
        let line = flip_line(&[("fixed".into(), 60.0)]).unwrap_or_default();
        assert_eq!(
            line,
            "fixed at 60 Hz: the tick equals the refresh, so the frames land on the tick \
             boundary and run 0, 1 or 2 ticks; a snapping or smoothing timer (+snap, +smooth) \
             or blending (interpolated) helps"
        );
        let line = flip_line(&[
            ("fixed".into(), 144.0),
            ("game-loop".into(), 60.0),
            ("game-loop".into(), 60.0),
        ])
        .unwrap_or_default();
        assert!(
            line.starts_with("fixed at 144 Hz; game-loop at 60 Hz: the tick"),
            "{line}"
        );
        assert!(line.contains("+interpolated on a preset"), "{line}");
        let line = flip_line(&[("game-loop".into(), 60.0)]).unwrap_or_default();
        assert!(
            line.ends_with("or blending (+interpolated) helps"),
            "{line}"
        );
        assert_eq!(flip_line(&[]), None);
    }

    #[test]
    fn the_fix_substep_is_half_the_stable_step_at_most_1_ms() {
        assert_eq!(fix_substep_ns(0.015), MS);
        assert_eq!(fix_substep_ns(0.0008), 400_000);
        assert_eq!(fix_substep_ns(1e-9), 1_000);
        assert_eq!(fix_substep_ns(f64::INFINITY), MS);
    }
}
