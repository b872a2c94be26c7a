//! `--drive`: the pinned end follows an exact path of simulated time, so a driven rope is as
//! deterministic as a still one; and judder, what a driven end shows of the loop.

use crate::support::*;
use timestep_lab::model::lane::{Lane, LaneSpec};
use timestep_lab::model::rope::Drive;
use timestep_lab::model::rope::RopeParams;
use timestep_lab::view::draw::judge_as_drawn;
use timestep_loop::{MaxSubstep, Mode, PolicyEnv, TimingConfig};

fn driven() -> RopeParams {
    RopeParams {
        drive: Drive::sway(),
        ..RopeParams::default()
    }
}

/// The textbook loop at a 1 ms tick, 250 ms clamp (the app's own default, not the crate's).
fn one_ms() -> PolicyEnv {
    PolicyEnv::textbook(TimingConfig::textbook(MS, 250 * MS, None).unwrap())
}

/// A fixed lane stepped by frames of `frame_ns` until it has simulated `sim_ns`.
fn fixed_after(frame_ns: u64, sim_ns: u64) -> Lane {
    let env = one_ms();
    let rope = driven();
    let mut lane = Lane::new(LaneSpec::mode(Mode::Fixed), &rope, &env).unwrap();
    judge_as_drawn(&mut lane, &rope);
    let mut now = 0;
    while lane.stepper().sim_ns() + frame_ns <= sim_ns {
        now += frame_ns;
        lane.advance(frame_ns, now);
    }
    let rest = sim_ns - lane.stepper().sim_ns();
    lane.advance(rest, now + rest);
    lane
}

#[test]
fn a_driven_rope_reaches_the_same_state_whatever_the_frames() {
    // 3 s of 1 ms ticks, taken 16.667, 6.944 or 33.333 ms at a time: the pin is where the
    // path has it at each tick, so the state is bit for bit the same.
    let hashes: Vec<u64> = [16_666_667, 6_944_444, 33_333_333]
        .iter()
        .map(|&f| fixed_after(f, 3 * S).rope().unwrap().state_hash())
        .collect();
    assert_eq!(hashes[0], hashes[1]);
    assert_eq!(hashes[0], hashes[2]);
    let still = Lane::new(
        LaneSpec::mode(Mode::Fixed),
        &RopeParams::default(),
        &one_ms(),
    )
    .unwrap();
    assert_ne!(still.rope().unwrap().state_hash(), hashes[0]);
}

#[test]
fn the_pin_is_where_the_path_says_at_the_simulated_time() {
    let lane = fixed_after(16_666_667, 1_300 * MS);
    let rope = lane.rope().unwrap();
    let (offset, velocity) = Drive::sway().at(1_300.0 * MS as f64);
    assert!(
        rope.position(0).distance(offset) < 1e-6,
        "{:?}",
        rope.position(0)
    );
    assert!(rope.velocity(0).distance(velocity) < 1e-5);
}

#[test]
fn fixed_and_interpolated_take_the_same_driven_steps_and_end_the_same() {
    let display = display(59.94);
    let cfg = simulate_config(display, driven(), "fixed,interpolated");
    let runs = timestep_lab::hosts::simulate::run(&cfg, |_| {}).unwrap();
    let hash = |i: usize| physics(&runs[i].0).state_hash.clone();
    assert_eq!(hash(0), hash(1));
}

fn simulate_config(
    display: timestep_lab::hosts::simulate::DisplayConfig,
    rope: RopeParams,
    lanes: &str,
) -> timestep_lab::hosts::simulate::SimConfig {
    timestep_lab::hosts::simulate::SimConfig {
        rope,
        lanes: timestep_lab::model::lane::parse_lanes(lanes).unwrap(),
        ..config(display)
    }
}

#[test]
fn a_coarse_tick_judders_by_pixels_when_shown_latest_and_not_when_blended() {
    // --dt 20hz --max-substep 1ms on a 60 Hz display: fixed shows each 50 ms tick for three
    // frames, so the driven end jumps; interpolated shows where the path is.
    let cfg = timestep_lab::hosts::simulate::SimConfig {
        timing: TimingConfig::textbook(50 * MS, 250 * MS, None).unwrap(),
        max_substep: MaxSubstep::Set(MS),
        ..simulate_config(display(60.0), driven(), "fixed,interpolated")
    };
    let runs = timestep_lab::hosts::simulate::run(&cfg, |_| {}).unwrap();
    let judder = |i: usize| runs[i].0.shown.judder_px.unwrap();
    // The sway's steady 0.98 m/s: 0.91 px rms, 1.32 px at worst.
    assert!(
        judder(0).rms > 0.8 && judder(0).max > 1.2,
        "{:?}",
        judder(0)
    );
    assert!(
        judder(1).rms < 0.05 && judder(1).max < 0.5,
        "{:?}",
        judder(1)
    );
    // At the default 1 ms tick fixed's judder is a fraction of a pixel; without a drive there
    // is none to report.
    let fine = simulate_config(display(60.0), driven(), "fixed");
    let r = timestep_lab::hosts::simulate::run(&fine, |_| {}).unwrap();
    assert!(r[0].0.shown.judder_px.unwrap().rms < 0.1);
    let still = simulate_config(display(60.0), RopeParams::default(), "fixed");
    let r = timestep_lab::hosts::simulate::run(&still, |_| {}).unwrap();
    assert_eq!(r[0].0.shown.judder_px, None);
}

/// A rope of `params` hanging still under its pin, stepped with the drive at 1 ms ticks from
/// simulated time `from_ms` for `ms` milliseconds; returns the pin's positions, one a tick,
/// and whether the rope exploded.
fn drive_ticks(
    rope: &mut timestep_lab::model::rope::Rope,
    from_ms: u32,
    ms: u32,
) -> Vec<glam::Vec2> {
    use timestep_lab::model::rope::Previous;
    (from_ms + 1..=from_ms + ms)
        .map(|tick| {
            rope.drive_to(f64::from(tick) * 1e6);
            rope.step(0.001, Previous::Keep);
            rope.position(0)
        })
        .collect()
}

/// The fastest the pin moved between ticks of 1 ms, m/s.
fn fastest(pins: &[glam::Vec2]) -> f32 {
    pins.windows(2)
        .map(|w| w[0].distance(w[1]) / 0.001)
        .fold(0.0, f32::max)
}

#[test]
fn a_new_drive_takes_the_pin_over_from_where_it_is_and_the_rope_holds() {
    use timestep_lab::model::rope::HANDOVER_NS;
    // The 3 s each drive runs below holds its whole handover.
    const { assert!(HANDOVER_NS < 3e9) };
    let mut rope = timestep_lab::model::rope::Rope::new(driven());
    // 4.5 s of sway: the pin swings at its far side, 1.2 m from its place.
    let before = drive_ticks(&mut rope, 0, 4_500);
    let at = *before.last().unwrap();
    assert!(at.x.abs() > 1.0, "{at}");
    // D: the circle, which starts at the pin's place. Before the handover the pin jumped
    // there in one tick (1.2 m: the first spring six times its rest length) and the rope
    // exploded.
    for drive in [
        Drive::Circle {
            period_ns: 3_000_000_000,
        },
        Drive::Off,
        Drive::sway(),
    ] {
        rope.set_drive(drive);
        let from = rope.position(0);
        let pins = drive_ticks(&mut rope, 4_500, 3_000);
        assert!(
            pins[0].distance(from) < 0.01,
            "{drive}: jumped to {}",
            pins[0]
        );
        // Its own speed (about 1 m/s) and the handover's, under 2 m/s.
        assert!(fastest(&pins) < 3.2, "{drive}: {} m/s", fastest(&pins));
        assert!(!rope.exploded(), "{drive}");
        // After the handover, on the drive's own path.
        let t = 7_500.0e6;
        let on_path = drive.at(t).0;
        if drive.is_on() {
            let end = *pins.last().unwrap();
            assert!(end.distance(on_path) < 1e-4, "{drive}: {end} vs {on_path}");
        }
        rope.reset();
        drive_ticks(&mut rope, 0, 0);
    }
}

#[test]
fn a_rope_reset_under_a_moving_drive_is_not_torn_at_its_pin() {
    let mut rope = timestep_lab::model::rope::Rope::new(driven());
    drive_ticks(&mut rope, 0, 4_500);
    // R (or the reset after an explosion): the rope back in its starting line, its pin at its
    // place, while the drive's path is 1.2 m to the side.
    rope.reset();
    assert_eq!(rope.position(0), glam::Vec2::ZERO);
    let pins = drive_ticks(&mut rope, 4_500, 3_000);
    assert!(pins[0].length() < 0.01, "jumped to {}", pins[0]);
    assert!(!rope.exploded());
    assert!(fastest(&pins) < 3.2, "{} m/s", fastest(&pins));
}
