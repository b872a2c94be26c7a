//! Property tests: the duration parser and the stepper under arbitrary input.

use proptest::prelude::*;
use timestep_loop::{Mode, Stepper, TimingConfig};
use timestep_loop::{format_duration, parse_duration};

const MAX_NS: u64 = timestep_loop::MAX_DURATION_NS;

fn mode() -> impl Strategy<Value = Mode> {
    prop::sample::select(Mode::ALL.to_vec())
}

proptest! {
    #[test]
    fn the_parser_never_panics_on_any_text(s in "\\PC{0,24}") {
        let _ = parse_duration(&s);
    }

    #[test]
    fn the_parser_never_panics_on_number_like_text(s in "[-+]?[0-9]{0,22}(\\.[0-9]{0,12})?(ns|us|µs|ms|s|x|)") {
        if let Ok(ns) = parse_duration(&s) {
            prop_assert!(ns <= MAX_NS);
        }
    }

    #[test]
    fn every_duration_formats_and_parses_back_exactly(ns in 0..=MAX_NS) {
        prop_assert_eq!(parse_duration(&format_duration(ns)), Ok(ns));
    }

    #[test]
    fn whole_units_parse_exactly(n in 0u64..1_000_000) {
        prop_assert_eq!(parse_duration(&format!("{n}ns")), Ok(n));
        prop_assert_eq!(parse_duration(&format!("{n}us")), Ok(n * 1_000));
        prop_assert_eq!(parse_duration(&format!("{n}ms")), Ok(n * 1_000_000));
        prop_assert_eq!(parse_duration(&format!("0.{n:06}")), Ok(n * 1_000));
    }

    #[test]
    fn negative_values_are_always_refused(n in 1u64..u64::MAX, unit in prop::sample::select(vec!["", "s", "ms", "us", "ns"])) {
        let text = format!("-{n}{unit}");
        prop_assert!(parse_duration(&text).is_err());
    }

    /// Any frame-time sequence, any settings: the step cap holds, alpha stays in [0, 1), no
    /// step is longer than dt except variable mode's, and no time is lost or invented.
    #[test]
    fn the_stepper_keeps_its_books_for_any_frame_sequence(
        dt in 1u64..50_000_000,
        clamp_steps in 1u64..400,
        cap in prop::option::of(1u32..300),
        frames in prop::collection::vec(
            // Up to an hour a frame: any sequence a real clock could produce.
            prop_oneof![0u64..100_000_000, 0u64..3_600_000_000_000, Just(0u64)],
            1..200,
        ),
        modes in prop::collection::vec(mode(), 1..4),
    ) {
        let clamp = dt * clamp_steps;
        let cfg = TimingConfig::textbook(dt, clamp, cap).unwrap();
        let mut s = Stepper::new(cfg, modes[0]);
        for (i, &frame) in frames.iter().enumerate() {
            s.set_mode(modes[i % modes.len()]);
            let mode = s.mode();
            let mut taken = 0u32;
            let f = s.advance(frame, |st| {
                taken += 1;
                if mode != Mode::Variable {
                    assert!(st.dt_ns <= dt);
                }
                assert!(st.dt_ns > 0);
            });
            prop_assert_eq!(taken, f.steps);
            prop_assert!(f.steps <= cfg.max_steps().unwrap_or(u32::MAX));
            prop_assert!((0.0..1.0).contains(&f.alpha), "alpha {}", f.alpha);
            prop_assert!(f.clamped_ns <= clamp);
            prop_assert_eq!(s.consumed_ns() + s.dropped_ns() + s.accumulator_ns(), s.measured_ns());
            if mode.accumulates() {
                prop_assert!(s.accumulator_ns() < dt);
                prop_assert_eq!(f.consumed_ns, u64::from(f.steps) * dt);
            } else {
                prop_assert_eq!(s.accumulator_ns(), 0);
            }
        }
    }
}

proptest! {
    /// Frame times no clock could produce (near u64::MAX) still never panic the stepper.
    #[test]
    fn absurd_frame_times_never_panic_the_stepper(
        frames in prop::collection::vec(any::<u64>(), 1..50),
        mode in mode(),
    ) {
        let cfg = TimingConfig::textbook(1_000_000, 250_000_000, None).unwrap();
        let mut s = Stepper::new(cfg, mode);
        for frame in frames {
            let f = s.advance(frame, |_| {});
            prop_assert!(f.steps <= cfg.max_steps().unwrap_or(u32::MAX));
            prop_assert!((0.0..1.0).contains(&f.alpha));
        }
    }
}
