//! Divergence and long runs: nothing panics, drifts or leaks.

use crate::support::*;
use std::process::Command;
use timestep_lab::simulate::DisplayConfig;
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

fn simulate_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_timestep-rope"))
        .arg("simulate")
        .args(args)
        .arg("--json")
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
#[ignore = "slow: a simulated day; .ci/run runs it optimised (cargo test --release --test headless -- --ignored)"]
fn a_simulated_day_at_59_94_hz_with_jitter_is_exact_drift_free_and_flat_in_memory() {
    let args = [
        "--mode",
        "fixed",
        "--display-hz",
        "59.94",
        "--jitter",
        "0.3ms",
    ];
    let day = simulate_json(&[&args[..], &["--seconds", "86400"]].concat());
    let hour = simulate_json(&[&args[..], &["--seconds", "3600"]].concat());
    let m = &day["lanes"][0];
    let n = |k: &str| m[k].as_u64().unwrap_or_else(|| panic!("{k}: {m}"));
    // Exact: whole steps of exactly dt, nothing dropped, the books balance to the nanosecond.
    assert_eq!(n("consumed_ns"), n("steps") * 1_000_000);
    assert_eq!(
        n("consumed_ns") + n("dropped_ns") + n("remainder_ns"),
        n("measured_ns")
    );
    assert_eq!(n("dropped_ns"), 0);
    assert!(n("remainder_ns") < 1_000_000);
    assert!(n("measured_ns") >= 86_399 * S, "{}", n("measured_ns"));
    assert!(n("frames") > 5_170_000, "{}", n("frames"));
    let drift_ms = m["drift_ms"].as_f64().unwrap();
    assert!(
        drift_ms.abs() < 1.0,
        "drift {drift_ms} ms must stay below dt"
    );
    assert_eq!(m["exploded"], false);
    // Memory does not grow with the length of the run: 24 times longer, same peak (within
    // 1 MiB of allocator noise). Nothing per-frame is kept unless --trace asks for it.
    let peak = |v: &serde_json::Value| v["lanes"][0]["peak_rss_kib"].as_u64();
    if let (Some(day_kib), Some(hour_kib)) = (peak(&day), peak(&hour)) {
        assert!(
            day_kib <= hour_kib + 1_024,
            "a day peaked at {day_kib} KiB, an hour at {hour_kib} KiB"
        );
    }
}
