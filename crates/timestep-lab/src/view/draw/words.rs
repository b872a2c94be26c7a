//! How a lane's loop is worded on screen: its tick, clamp and cap, the vsync it sees, its
//! pacing and judder, the hint that loops look alike. The HUD, the pane labels and the panel
//! all say a loop this way.

use super::figures::{ms, num, trim};
use crate::model::fixes::step_and_limit_s;
use crate::model::lane::{Judder, Lane};
use crate::model::rope::Integrator;
use timestep_loop::{Mode, Pacer, Pacing, millis};

/// A loop's clamp as the HUD and the panel say it: as `tick_text` writes a tick, or "off".
pub fn clamp_text(clamp_ns: Option<u64>) -> String {
    clamp_ns.map_or_else(|| "off".into(), tick_text)
}

/// A loop's step cap as the HUD and the panel say it: the number, or "unlimited".
pub fn max_steps_text(cap: Option<u32>) -> String {
    cap.map_or_else(|| "unlimited".into(), |n| n.to_string())
}

/// The judder row: pixels, rms over the last second; "-" until known, "no drive" without one.
pub(super) fn judder_text(judder: &Judder) -> String {
    if !judder.drive().is_on() {
        return "no drive".into();
    }
    judder
        .recent_rms()
        .map_or_else(|| "-".into(), |px| format!("{} px rms", num(px, 2)))
}

/// A tick as the screen shows it: ms to at most three decimals, trailing zeros dropped
/// (`33.333ms`, `16.667ms`, `1ms`).
pub fn tick_text(ns: u64) -> String {
    format!("{}ms", ms(ns, 3))
}

/// A lane's tick in short: `16.667ms x17 smooth` (17 substeps, the smooth timer), and
/// `unstable>15.1ms` after it when the step is above the rope's stable step.
pub fn tick_summary(lane: &Lane) -> String {
    let p = lane.policy();
    if p.mode == Mode::Variable {
        return format!("{}{}", variable_words(p), loop_suffix(lane));
    }
    let tick = tick_text(p.timing.tick_ns());
    let substeps = p.substeps_per_tick();
    let sub = if substeps > 1 {
        format!(" x{substeps}")
    } else {
        String::new()
    };
    format!("{tick}{sub}{}", loop_suffix(lane))
}

/// A lane's tick in words, for its pane label: `tick 100ms in 100 substeps of 1ms`, `tick
/// 16.667ms` without substeps, `1 step/frame` for a variable lane; and whether the tick is
/// cut into substeps (the `substeps` tooltip says why).
pub fn tick_words(lane: &Lane) -> (String, bool) {
    let p = lane.policy();
    if p.mode == Mode::Variable {
        return (variable_words(p), p.max_substep_ns.is_some());
    }
    let tick_ns = p.timing.tick_ns();
    let tick = tick_text(tick_ns);
    match p.substeps_per_tick() {
        n if n > 1 => {
            let sub = tick_text(tick_ns / n);
            (format!("tick {tick} in {n} substeps of {sub}"), true)
        }
        _ => (format!("tick {tick}"), false),
    }
}

/// The hint for lanes whose loops cannot be told apart at this frame time, `None` where
/// they can: two or more lanes step on a tick (not variable) and every such tick is at most an
/// eighth of `frame_ns`, so each frame runs many ticks and what they show differs by under a
/// tick (at 1 ms, under a millimetre of motion). It names the lesson where they part (a
/// coarser tick alone would explode the rope without substeps).
pub fn alike_tip<'a>(lanes: impl IntoIterator<Item = &'a Lane>, frame_ns: u64) -> Option<String> {
    let ticks: Vec<u64> = lanes
        .into_iter()
        .map(Lane::policy)
        .filter(|p| p.mode != Mode::Variable)
        .map(|p| p.timing.tick_ns())
        .collect();
    let longest = ticks.iter().copied().max()?;
    (ticks.len() >= 2 && longest.saturating_mul(8) <= frame_ns).then(|| {
        // From the plain view, L opens lesson 1; the lesson is that many presses away.
        let n = crate::view::lessons::COARSE_TICK;
        let keys = match n {
            1 => "L".to_string(),
            2 => "L twice".to_string(),
            n => format!("L {n} times"),
        };
        format!(
            "{} ticks look alike at {:.0} fps: lesson {n} shows them part ({keys})",
            tick_text(longest),
            1e9 / frame_ns as f64,
        )
    })
}

/// A variable lane's step in words: `1 step/frame`, or with substeps (which keep a long
/// frame's step within the stable step) `1 step/frame in substeps of at most 7.5ms`.
fn variable_words(p: &timestep_loop::Policy) -> String {
    match p.max_substep_ns {
        Some(ns) => format!("1 step/frame in substeps of at most {}", tick_text(ns)),
        None => "1 step/frame".into(),
    }
}

/// What follows the tick in [`tick_summary`] and [`tick_words`]: ` smooth`, ` rk4`, and
/// ` unstable>15.1ms` when the step is above the rope's stable step.
pub fn loop_suffix(lane: &Lane) -> String {
    let unstable = match step_and_limit_s(lane) {
        Some((step, limit)) if step > limit => format!(" unstable>{:.1}ms", limit * 1e3),
        _ => String::new(),
    };
    format!(" {}{}{unstable}", lane.timer(), integrator_suffix(lane))
}

/// " rk4" when the lane integrates with RK4 (Euler, the default, goes unsaid).
fn integrator_suffix(lane: &Lane) -> String {
    match lane.integrator() {
        Some(Integrator::Rk4) => " rk4".into(),
        _ => String::new(),
    }
}

/// What the frame times say of vsync, in short: the display's rate, or "no vsync seen" (not
/// the program's own pacing, which may cap the frames all the same), or "deciding".
pub fn vsync_summary(lane: &Lane) -> String {
    let v = lane.vsync();
    match (v.vsynced(), v.refresh_hz(), v.assumed_period_ns()) {
        (true, Some(hz), _) => format!("{hz:.2} Hz"),
        (false, _, None) if v.detected_after_ns().is_some() || v.hint_ns().is_none() => {
            "no vsync seen".into()
        }
        _ => "deciding".into(),
    }
}

/// The pacing row: `vsync`, `cap 59.94 fps`, `adaptive 22.0ms 1 miss`, `late 16.8ms`.
pub fn pacing_summary(pacer: &Pacer) -> String {
    let ms = pacer
        .interval_ns()
        .map_or(String::new(), |ns| format!(" {}ms", num(millis(ns), 1)));
    let misses = match pacer.missed() {
        0 => String::new(),
        1 => " 1 miss".into(),
        n => format!(" {n} misses"),
    };
    match pacer.pacing() {
        Pacing::Vsync => "vsync".into(),
        Pacing::Cap(hz) => format!("cap {} fps{misses}", trim(hz, 2)),
        Pacing::Hold(hz) => format!("hold {} fps{misses}", trim(hz, 2)),
        Pacing::Adaptive => format!("adaptive{ms}{misses}"),
        Pacing::Late => format!("late{ms}{misses}"),
        other => format!("{other}{ms}{misses}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use timestep_loop::TimingConfig;

    #[test]
    fn loops_whose_ticks_are_far_inside_a_frame_are_named_alike_and_no_others() {
        let lanes = |names: &str| {
            crate::model::lane::parse_lanes(names)
                .unwrap_or_else(|e| panic!("{e}"))
                .into_iter()
                .map(|spec| {
                    // The window's 1 ms tick.
                    let timing = TimingConfig::textbook(1_000_000, 250_000_000, None);
                    let env = timestep_loop::PolicyEnv::textbook(timing.expect("a loop"));
                    let rope = crate::model::rope::RopeParams::default();
                    Lane::new(spec, &rope, &env).unwrap_or_else(|e| panic!("{e}"))
                })
                .collect::<Vec<_>>()
        };
        let frame_60 = 16_666_667;
        // The split view's four modes at the 1 ms tick: three tick-based loops, alike.
        let modes = lanes("variable,semi-fixed,fixed,interpolated");
        let tip = alike_tip(&modes, frame_60);
        assert!(
            tip.as_deref()
                .is_some_and(|t| t.starts_with("1ms ticks look alike")),
            "{tip:?}"
        );
        // The plain launch: Unity's 100 ms tick differs from interpolation's at any rate.
        assert_eq!(
            alike_tip(&lanes("interpolated,unity+tick=100ms,variable"), frame_60),
            None
        );
        // One tick-based lane has nothing to be alike with; a 60 Hz tick (Godot's) shows
        // its own.
        assert_eq!(alike_tip(&lanes("variable,interpolated"), frame_60), None);
        assert_eq!(alike_tip(&lanes("godot,interpolated"), frame_60), None);
        // At 1 ms, alike up to 125 fps (a frame of 8 ticks); above that, not named so.
        assert!(alike_tip(&modes, 8_000_000).is_some());
        assert_eq!(alike_tip(&modes, 7_999_999), None);
    }

    #[test]
    fn a_tick_reads_to_the_microsecond_without_trailing_zeros() {
        assert_eq!(tick_text(33_333_333), "33.333ms");
        assert_eq!(tick_text(16_666_667), "16.667ms");
        assert_eq!(tick_text(1_000_000), "1ms");
        assert_eq!(tick_text(2_500_000), "2.5ms");
    }
}
