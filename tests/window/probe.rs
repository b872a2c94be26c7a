//! `probe --window` on a real display: every present mode the surface offers presents, and
//! the JSON says how often. Nothing asserts on how long a present took.

use crate::support::*;

#[test]
#[ignore = "needs a display"]
fn a_window_probe_times_the_presents_of_every_present_mode() {
    let _screen = screen_lock();
    let stdout = TempFile::new("probe.json");
    let mut app = Running::start_with_stdout(
        "probe",
        &["probe", "--seconds", "1", "--window", "--json"],
        &stdout.0,
    );
    app.assert_exits_0();
    let text = std::fs::read_to_string(&stdout.0).expect("stdout");
    let report: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    assert_eq!(report["interrupted"], false);
    assert_eq!(report["presents"]["per_mode_s"], 1.0);
    let modes = report["presents"]["modes"].as_array().expect("modes");
    assert!(!modes.is_empty(), "{report}");
    let counted = |m: &&serde_json::Value| m["count"].as_u64().is_some_and(|n| n > 0);
    assert!(
        modes.iter().any(|m| counted(&m)),
        "no mode presented: {modes:?}"
    );
    for m in modes.iter().filter(counted) {
        let ms = |q: &str| m[q].as_f64().expect("a figure");
        assert!(ms("p5_ms") <= ms("median_ms") && ms("median_ms") <= ms("p95_ms"));
        assert!(ms("p95_ms") <= ms("max_ms") && ms("p5_ms") > 0.0, "{m}");
    }
    // The clock and the sleeps were measured too, after the window.
    assert!(report["profile"].is_object(), "{report}");
}
