//! Divergence and long runs: nothing panics, drifts or leaks.

use crate::support::*;
use timestep_lab::hosts::simulate::DisplayConfig;
use timestep_loop::Mode;

#[test]
fn variable_steps_at_20_hz_explode_again_and_again_and_never_draw_a_nan() {
    let mut cfg = config(DisplayConfig {
        duration_ns: 60 * S,
        ..display(20.0)
    });
    // Every presented frame is rasterised with the window's drawing code, which first checks
    // that every position it is handed is finite.
    cfg.draw = Some((320, 200));
    let (report, positions) = run_mode(&cfg, Mode::Variable, |_| {});
    assert!(physics(&report).exploded);
    // Reset 2 s after each explosion, and at 20 Hz it explodes again within a second or so.
    assert!(
        physics(&report).explosions >= 10,
        "{} explosions",
        physics(&report).explosions
    );
    assert_eq!(report.drawing.map(|d| d.draw_nonfinite_frames), Some(0));
    assert!(physics(&report).energy_end_j.is_finite() && physics(&report).max_stretch.is_finite());
    assert!(positions.iter().all(|p| p.is_finite()));
    assert_eq!(report.shown.frames, 1_200);
}
