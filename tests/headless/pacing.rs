//! Render pacing and input latency on the simulated clock: the adaptive interval follows the
//! render cost, late pacing reads input later, interpolation costs at most a tick of latency,
//! and the trace says when each step ran.

use crate::support::*;
use timestep_lab::hosts::simulate::{self, DisplayConfig, FrameRecord, Ramp, RenderCost};
use timestep_lab::model::lane::LaneReport;
use timestep_lab::model::lane::LaneSpec;
use timestep_loop::Mode;
use timestep_loop::Pacing;

fn run_paced(display: DisplayConfig, lanes: &[Mode]) -> Vec<LaneReport> {
    let cfg = simulate::SimConfig {
        lanes: lanes.iter().map(|&m| LaneSpec::mode(m)).collect(),
        ..config(display)
    };
    reports(&cfg)
}

fn adaptive(render_cost: RenderCost, seconds: u64) -> DisplayConfig {
    DisplayConfig {
        vsync: false,
        render_cost,
        pacing: Pacing::Adaptive,
        duration_ns: seconds * S,
        ..Default::default()
    }
}

#[test]
fn adaptive_pacing_settles_just_above_a_20_ms_render_and_then_misses_nothing() {
    let settle = &run_paced(
        adaptive(RenderCost::Fixed(20 * MS), 5),
        &[Mode::Interpolated],
    )[0];
    let interval = settle.pacing.render_interval_ms.unwrap();
    assert!(
        (20.0..=25.0).contains(&interval),
        "{interval} ms for a 20 ms render"
    );
    let longer = &run_paced(
        adaptive(RenderCost::Fixed(20 * MS), 60),
        &[Mode::Interpolated],
    )[0];
    assert_eq!(
        longer.pacing.missed_intervals, settle.pacing.missed_intervals,
        "no miss after settling"
    );
    // Handed the time between expected presents, the blend lands on the present exactly.
    assert!(
        longer.shown.stutter_rms_ms < 1e-3,
        "{}",
        longer.shown.stutter_rms_ms
    );
    assert_eq!(longer.pacing.pacing, timestep_loop::Pacing::Adaptive);
}

#[test]
fn adaptive_pacing_follows_a_ramp_up_and_back_down() {
    let ramp = Ramp::new(&[5 * MS, 25 * MS, 5 * MS]).unwrap();
    let cfg = simulate::SimConfig {
        lanes: vec![LaneSpec::mode(Mode::Interpolated)],
        ..config(adaptive(RenderCost::Ramp(ramp), 30))
    };
    let mut frames: Vec<FrameRecord> = Vec::new();
    let runs = simulate::run(&cfg, |f| frames.push(f.clone())).unwrap();
    let r = &runs[0].0;
    assert_eq!(
        r.pacing.missed_intervals, 0,
        "a slow ramp is followed, never overrun"
    );
    // Frame lengths rise with the cost to the middle of the run and fall back after.
    let length_at = |t_ns: u64| {
        let i = frames
            .iter()
            .position(|f| f.present_or_start_ns() >= t_ns)
            .unwrap();
        frames[i + 1].present_or_start_ns() - frames[i].present_or_start_ns()
    };
    let (early, middle, late) = (length_at(2 * S), length_at(15 * S), length_at(28 * S));
    assert!(
        middle > 2 * early && middle > 2 * late,
        "{early} {middle} {late}"
    );
    assert!((25 * MS..=30 * MS).contains(&middle), "{middle}");
    assert!(
        r.pacing.render_interval_ms.unwrap() < 7.0,
        "back down at the end"
    );
}

#[test]
fn late_pacing_reads_input_later_than_vsync_at_60_hz_with_a_4_ms_frame() {
    let display = |pacing| DisplayConfig {
        render_cost: RenderCost::Fixed(4 * MS),
        pacing,
        duration_ns: 30 * S,
        ..Default::default()
    };
    let vsync = &run_paced(display(Pacing::Vsync), &[Mode::Fixed])[0];
    let late = &run_paced(display(Pacing::Late), &[Mode::Fixed])[0];
    let (v, l) = (vsync.latency_ms.unwrap(), late.latency_ms.unwrap());
    // Plain vsync samples input right after the last vblank and shows it at the next one.
    assert!((v.mean - 16.67).abs() < 0.1, "{v:?}");
    assert!(l.mean < v.mean - 3.0, "late {l:?} against vsync {v:?}");
    assert_eq!(late.pacing.render_interval_ms, Some(16.806723));
}

#[test]
fn interpolation_costs_at_most_one_tick_of_latency_over_fixed_on_the_same_frames() {
    for (tick, hz) in [(MS, 59.94), (16_666_667, 144.0), (20 * MS, 60.0)] {
        let mut cfg = config(DisplayConfig {
            display_hz: hz,
            jitter_ns: 300_000,
            duration_ns: 20 * S,
            ..Default::default()
        });
        cfg.timing = timestep_loop::TimingConfig::textbook(tick, 250 * MS, None).unwrap();
        cfg.max_substep = timestep_loop::MaxSubstep::Set(MS);
        cfg.lanes = vec![
            LaneSpec::mode(Mode::Fixed),
            LaneSpec::mode(Mode::Interpolated),
        ];
        let runs = simulate::run(&cfg, |_| {}).unwrap();
        let (f, i) = (runs[0].0.latency_ms.unwrap(), runs[1].0.latency_ms.unwrap());
        let tick_ms = tick as f64 / 1e6;
        assert!(
            i.mean >= f.mean && i.mean <= f.mean + tick_ms,
            "{hz}: {f:?} {i:?}"
        );
        assert!(i.max <= f.max + tick_ms + 1e-9, "{hz}: {f:?} {i:?}");
    }
}

#[test]
fn the_trace_says_when_each_step_ran_back_to_back_at_the_start_of_its_frame() {
    // Jiadong Chen's article: fixed steps are not periodic in wall time; they bunch at the frame's start.
    let cfg = simulate::SimConfig {
        lanes: vec![LaneSpec::mode(Mode::Fixed)],
        ..config(DisplayConfig {
            step_cost_ns: 50_000,
            duration_ns: S,
            ..Default::default()
        })
    };
    let mut frames: Vec<FrameRecord> = Vec::new();
    simulate::run(&cfg, |f| frames.push(f.clone())).unwrap();
    let f = &frames[10];
    let starts: Vec<u64> = f.step_starts_ns.clone();
    assert_eq!(starts.len(), f.steps as usize);
    assert_eq!(starts[0], f.start_ns);
    assert!(starts.windows(2).all(|w| w[1] - w[0] == 50_000));
    // All of a frame's 16 or 17 steps (simulating 16 ms) run within its first millisecond.
    assert!(starts.last().unwrap() - f.start_ns < MS);
    assert!(frames[11].start_ns - starts.last().unwrap() > 15 * MS);
}
