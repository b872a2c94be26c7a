//! The stepping modes' promises, checked on the simulated clock.

use crate::support::*;
use timestep_lab::hosts::simulate::{self, DisplayConfig};
use timestep_lab::model::rope::{Integrator, Previous};
use timestep_lab::model::rope::{Rope, RopeParams};
use timestep_loop::{Mode, Stepper, TimingConfig};

/// The frame patterns a real machine produces: common rates, timer noise and hitches.
fn patterns() -> Vec<(&'static str, DisplayConfig)> {
    vec![
        ("50 Hz", display(50.0)),
        ("100 Hz", display(100.0)),
        ("144 Hz", display(144.0)),
        ("59.94 Hz", display(59.94)),
        (
            "60 Hz with 2 ms timer jitter",
            DisplayConfig {
                jitter_ns: 2 * MS,
                seed: 3,
                ..display(60.0)
            },
        ),
        (
            "75 Hz with stalls",
            DisplayConfig {
                stalls: vec![stall(S / 2, 80 * MS), stall(S, 300 * MS)],
                ..display(75.0)
            },
        ),
    ]
}

/// Steps the default rope in `mode` on `display` and returns the state hash right after step
/// `n`.
fn hash_after_steps(mode: Mode, display: DisplayConfig, n: u64) -> u64 {
    hash_after_steps_with(Integrator::Euler, mode, display, n)
}

fn hash_after_steps_with(
    integrator: Integrator,
    mode: Mode,
    display: DisplayConfig,
    n: u64,
) -> u64 {
    let mut rope = Rope::new(RopeParams {
        integrator,
        ..RopeParams::default()
    });
    let mut stepper = Stepper::new(TimingConfig::textbook(MS, 250 * MS, None).unwrap(), mode);
    let mut hash = None;
    let display = DisplayConfig {
        duration_ns: 100 * S,
        ..display
    };
    each_frame(display, |frame| {
        stepper.advance(frame, |s| {
            if hash.is_none() {
                rope.step(s.dt_s() as f32, Previous::save_on_last(s.last));
                if rope.steps() == n {
                    hash = Some(rope.state_hash());
                }
            }
        });
        hash.is_none()
    });
    hash.expect("the display ran out before n steps")
}

#[test]
fn fixed_and_interpolated_reach_bit_identical_states_whatever_the_frame_pattern() {
    let n = 1_500;
    for integrator in Integrator::ALL {
        let mut reference = Rope::new(RopeParams {
            integrator,
            ..RopeParams::default()
        });
        for _ in 0..n {
            reference.step(1e-3, Previous::Save);
        }
        let expected = reference.state_hash();
        for mode in [Mode::Fixed, Mode::Interpolated] {
            for (name, d) in patterns() {
                let hash = hash_after_steps_with(integrator, mode, d, n);
                assert_eq!(hash, expected, "{mode} with {integrator} on {name}");
            }
        }
    }
}

#[test]
fn variable_and_semi_fixed_states_depend_on_the_display() {
    for mode in [Mode::Variable, Mode::SemiFixed] {
        // Same simulated wall time, same rope, both displays stable: only the frame pattern
        // differs, and so does the state.
        let [a, b] = [display(75.0), display(144.0)].map(|d| {
            let (report, _) = run(
                DisplayConfig {
                    duration_ns: 2 * S,
                    ..d
                },
                mode,
            );
            assert!(!physics(&report).exploded);
            physics(&report).state_hash.clone()
        });
        assert_ne!(a, b, "{mode} should depend on the frame pattern");
        // And unlike fixed steps, not even the states after the same number of steps agree.
        assert_ne!(
            hash_after_steps(mode, display(75.0), 1_000),
            hash_after_steps(mode, display(144.0), 1_000),
            "{mode}"
        );
    }
    // Semi-fixed with frames that are whole milliseconds takes only whole steps and so
    // matches fixed: the difference above comes from the slivers, not from the mode's name.
    let semi = hash_after_steps(Mode::SemiFixed, display(50.0), 1_000);
    let fixed = hash_after_steps(Mode::Fixed, display(50.0), 1_000);
    assert_eq!(semi, fixed);
    let semi = hash_after_steps(Mode::SemiFixed, display(59.94), 1_000);
    assert_ne!(semi, fixed);
}

#[test]
fn fixed_at_59_94_hz_for_an_hour_takes_exactly_floor_of_consumed_over_dt_steps() {
    let cfg = {
        let mut c = config(DisplayConfig {
            duration_ns: 3_600 * S,
            ..display(59.94)
        });
        c.rope.particles = 2; // the timing is under test, not the rope
        c
    };
    let mut last_present = 0;
    let (report, _) = run_mode(&cfg, Mode::Fixed, |f| {
        last_present = f.present_or_start_ns()
    });
    let measured_ns = (report.shown.wall_time_s * 1e9).round() as u64;
    assert_eq!(report.shown.dropped_ms, 0.0);
    assert_eq!(
        report.shown.steps,
        measured_ns / MS,
        "steps == floor(consumed / dt)"
    );
    assert!(
        report.shown.drift_ms.abs() < 1.0,
        "drift {} ms must stay below dt",
        report.shown.drift_ms
    );
    assert!(last_present >= 3_599 * S);
    assert!(report.shown.frames > 215_000);
}

#[test]
fn the_stepper_never_loses_or_invents_time() {
    // consumed + dropped + accumulator == measured, after every frame, in every mode.
    for mode in Mode::ALL {
        let mut s = Stepper::new(TimingConfig::textbook(MS, 50 * MS, Some(20)).unwrap(), mode);
        let d = DisplayConfig {
            jitter_ns: 5 * MS,
            stalls: vec![stall(S, 400 * MS)],
            duration_ns: 3 * S,
            ..display(59.94)
        };
        each_frame(d, |frame| {
            let f = s.advance(frame, |st| assert!(st.dt_ns <= 50 * MS));
            assert!(f.steps <= 20);
            assert!((0.0..1.0).contains(&f.alpha));
            assert_eq!(
                s.consumed_ns() + s.dropped_ns() + s.accumulator_ns(),
                s.measured_ns()
            );
            true
        });
    }
}

#[test]
fn a_five_second_stall_advances_the_simulation_by_at_most_the_clamp() {
    for mode in Mode::ALL {
        let d = DisplayConfig {
            stalls: vec![stall(S, 5 * S)],
            duration_ns: 8 * S,
            ..display(60.0)
        };
        let mut stall_frame = None;
        let (report, _) = run_mode(&config(d), mode, |f| {
            if f.frame_ns > S {
                stall_frame = Some(f.clone());
            }
        });
        let f = stall_frame.expect("the stall shows up as one long frame");
        assert!(u64::from(f.steps) * MS <= 250 * MS || mode == Mode::Variable);
        let dropped_ns = (report.shown.dropped_ms * 1e6).round() as u64;
        assert_eq!(
            dropped_ns,
            f.frame_ns - 250 * MS,
            "{mode}: everything past the clamp is dropped"
        );
        let sim_ns = (report.shown.sim_time_s * 1e9).round() as u64;
        let wall_ns = (report.shown.wall_time_s * 1e9).round() as u64;
        assert!(wall_ns - sim_ns >= dropped_ns, "{mode}");
        assert!(wall_ns - sim_ns < dropped_ns + MS, "{mode}");
    }
}

#[test]
fn variable_steps_hold_the_default_rope_at_75_hz_and_break_it_at_60_hz() {
    let (at75, _) = run(display(75.0), Mode::Variable);
    assert!(
        !physics(&at75).exploded,
        "75 Hz: max stretch {}",
        physics(&at75).max_stretch
    );
    let (at60, _) = run(display(60.0), Mode::Variable);
    assert!(physics(&at60).exploded, "60 Hz should fall apart");
    // The computed stability limit sits between the two frame times.
    let limit = RopeParams::default().stability_limit_s();
    assert!(1.0 / 75.0 < limit && limit < 1.0 / 60.0, "{limit}");
}

#[test]
fn fixed_and_interpolated_hold_from_30_to_240_hz() {
    for hz in [
        30.0, 48.0, 50.0, 59.94, 60.0, 75.0, 90.0, 120.0, 144.0, 165.0, 240.0,
    ] {
        for mode in [Mode::Fixed, Mode::Interpolated, Mode::SemiFixed] {
            let (r, _) = run(display(hz), mode);
            assert!(!physics(&r).exploded, "{mode} at {hz} Hz exploded");
            assert!(
                physics(&r).max_stretch < 2.0,
                "{mode} at {hz} Hz stretched {}",
                physics(&r).max_stretch
            );
        }
    }
}

#[test]
fn interpolation_removes_the_stutter_that_fixed_steps_leave_at_59_94_hz() {
    let (fixed, _) = run(display(59.94), Mode::Fixed);
    let (interp, _) = run(display(59.94), Mode::Interpolated);
    // Interpolated: the shown time advances exactly as the display's (to rounding of the
    // vblank times to whole nanoseconds).
    assert!(
        interp.shown.stutter_max_ms < 1e-5,
        "{}",
        interp.shown.stutter_max_ms
    );
    assert!(interp.shown.stutter_rms_ms < fixed.shown.stutter_rms_ms / 1_000.0);
    // Fixed: 16 or 17 whole steps for a 16.683 ms frame, so it jumps by a fraction of dt.
    assert!(
        fixed.shown.stutter_rms_ms > 0.1 && fixed.shown.stutter_rms_ms < 1.0,
        "{}",
        fixed.shown.stutter_rms_ms
    );
    assert!(
        fixed.shown.stutter_max_ms < 1.0,
        "{}",
        fixed.shown.stutter_max_ms
    );
    assert_eq!(physics(&fixed).state_hash, physics(&interp).state_hash);
}

#[test]
fn each_integrators_bound_is_right_to_the_hertz_on_a_straight_chain() {
    // A straight, weightless chain with its fastest (longitudinal) mode nudged: the mode the
    // bound is computed for, undisturbed by a swing's curvature.
    use timestep_lab::model::rope::Integrator;
    for integrator in Integrator::ALL {
        let params = RopeParams {
            integrator,
            gravity_m_per_s2: 0.0,
            ..RopeParams::default()
        };
        let limit = params.stability_limit_s();
        let holds = (1.0 / limit).ceil();
        let explodes = |hz: f64| {
            let nudged = (0..params.particles)
                .map(|i| glam::Vec2::new(i as f32 * 0.2 + if i % 2 == 1 { 1e-4 } else { 0.0 }, 0.0))
                .collect();
            let mut rope = timestep_lab::model::rope::Rope::with_positions(params, nudged).unwrap();
            let h = (1.0 / hz) as f32;
            (0..(30.0 * hz) as u32).any(|_| {
                rope.step(h, Previous::Keep);
                rope.exploded()
            })
        };
        assert!(
            !explodes(holds),
            "{integrator} at {holds} Hz (bound {limit} s)"
        );
        assert!(
            explodes(holds - 1.0),
            "{integrator} held at {} Hz",
            holds - 1.0
        );
    }
}

#[test]
fn variable_steps_with_rk4_hold_at_60_hz_and_tear_apart_below_its_bound() {
    let mut cfg = config(DisplayConfig {
        duration_ns: 20 * S,
        ..display(60.0)
    });
    cfg.lanes = vec![timestep_lab::model::lane::parse_spec("variable+rk4").unwrap()];
    let r = &simulate::run(&cfg, |_| {}).unwrap()[0].0;
    assert!(
        !physics(r).exploded,
        "RK4 at 60 Hz: stretch {}",
        physics(r).max_stretch
    );
    cfg.display.display_hz = 40.0;
    let r = &simulate::run(&cfg, |_| {}).unwrap()[0].0;
    assert!(physics(r).exploded, "RK4 at 40 Hz held");
    // Euler, on the same frames, does not hold at 60 Hz.
    let (euler, _) = run(display(60.0), Mode::Variable);
    assert!(physics(&euler).exploded);
}
