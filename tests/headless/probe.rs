//! `probe` as a user runs it: a short probe's JSON and the profile it writes, Ctrl-C, and bad
//! flags refused before anything is measured. Nothing here asserts on how long a sleep took.

use crate::support::{bin, run_bin as run};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use timestep_lab::analyses::probe::REQUESTS_NS;
use timestep_lab::protocol::machine::{MachineProfile, QUANTILES, SleepSample};

/// A path in the temporary directory, removed when dropped.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let file = format!("timestep-rope-probe-{}-{name}", std::process::id());
        Temp(std::env::temp_dir().join(file))
    }
    fn arg(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Every sleep was measured at least once and its quantiles never decrease.
fn check_sleeps(list: &[SleepSample]) {
    let requests: Vec<u64> = list.iter().map(|s| s.request_ns).collect();
    assert_eq!(requests, REQUESTS_NS);
    for s in list {
        assert!(s.samples > 0, "{s:?}");
        assert_eq!(s.overshoot_ns.len(), QUANTILES.len());
        assert!(s.overshoot_ns.is_sorted(), "{s:?}");
        assert!(s.p50_ns() <= s.p99_ns() && s.p99_ns() <= s.max_ns());
    }
}

#[test]
fn a_short_probe_prints_one_json_object_and_writes_a_profile_that_loads() {
    let out = Temp::new("profile.json");
    let run = run(&["probe", "--seconds", "0.5", "--json", "--out", out.arg()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{}: {stderr}", run.status);
    assert!(stderr.is_empty(), "{stderr}");
    let report: Value = serde_json::from_slice(&run.stdout).expect("one JSON object");
    for key in [
        "budget_s",
        "took_s",
        "interrupted",
        "profile",
        "quantiles",
        "clock",
        "timer_slack_source",
        "spin_threshold_source",
        "sleeps",
        "presents",
    ] {
        assert!(report.get(key).is_some(), "no {key}: {report}");
    }
    assert_eq!(report["interrupted"], false);
    assert_eq!(report["budget_s"], 0.5);
    assert_eq!(report["presents"], Value::Null);
    let profile = MachineProfile::load(&out.0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(serde_json::to_value(&profile).unwrap(), report["profile"]);
    assert!(profile.clock_resolution_ns > 0 && profile.clock_read_ns > 0.0);
    check_sleeps(&profile.native_sleep);
    check_sleeps(&profile.spin_sleep);
    let rows = report["sleeps"].as_array().expect("sleeps");
    assert_eq!(rows.len(), REQUESTS_NS.len());
    for row in rows {
        for kind in ["native", "spin"] {
            let p = |q: &str| row[kind][q].as_f64().expect("a figure");
            assert!(
                p("p50_us") <= p("p99_us") && p("p99_us") <= p("max_us"),
                "{row}"
            );
        }
    }
}

#[test]
fn the_table_says_each_figure_it_measured() {
    let run = run(&["probe", "--seconds", "0.2"]);
    assert!(run.status.success());
    let text = String::from_utf8_lossy(&run.stdout);
    for line in [
        "clock: one Instant::now() costs",
        "clock resolution:",
        "spin_sleep threshold:",
        "sleep overshoot (woke - asked), µs",
        "  0.1 ms",
        "    5 ms",
    ] {
        assert!(text.contains(line), "no '{line}' in:\n{text}");
    }
}

#[test]
fn bad_seconds_and_an_unwritable_out_are_one_line_with_status_2() {
    for (args, flag) in [
        (&["probe", "--seconds", "0"][..], "--seconds"),
        (&["probe", "--seconds", "-1"], "--seconds"),
        (&["probe", "--seconds", "600.5"], "--seconds"),
        (&["probe", "--seconds", "nan"], "--seconds"),
        (&["probe", "--seconds", "soon"], "--seconds"),
        (
            &["probe", "--out", "/nonexistent-dir/profile.json"],
            "--out",
        ),
    ] {
        let run = run(args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
        assert!(run.stdout.is_empty(), "{args:?} measured something");
    }
    let run = run(&["probe", "--out", "/nonexistent-dir/profile.json"]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("/nonexistent-dir/profile.json"), "{stderr}");
}

#[test]
fn a_window_probe_without_a_display_fails_in_one_line_and_leaves_out_as_it_was() {
    let out = Temp::new("no-display.json");
    let run = run(&["probe", "--window", "--out", out.arg()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no display found"), "{stderr}");
    assert!(run.stdout.is_empty());
    assert!(!out.0.exists(), "--out was left behind");
    // A file that was there is left as it was.
    std::fs::write(&out.0, "an older profile").unwrap();
    let again = self::run(&["probe", "--window", "--out", out.arg()]);
    assert_eq!(again.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&out.0).unwrap(), "an older profile");
}

#[test]
fn ctrl_c_stops_a_probe_between_sleeps_and_prints_what_it_measured_with_130() {
    let out = Temp::new("interrupted.json");
    let mut child = bin()
        .args(["probe", "--seconds", "60", "--progress", "--json"])
        .args(["--out", out.arg()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Wait for the bar to say sleeps have run (on the output, not the clock), then Ctrl-C.
    let stderr = child.stderr.take().expect("piped");
    let mut lines = BufReader::new(stderr).lines().map_while(Result::ok);
    let moved = |l: &str| l.contains("ms measured") && !l.contains(" 0/");
    let seen = lines.by_ref().find(|l| moved(l));
    assert!(seen.is_some(), "no progress line");
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_end(&mut stdout)
        .expect("stdout");
    let status = child.wait().expect("the probe ends");
    assert_eq!(status.code(), Some(130));
    let report: Value = serde_json::from_slice(&stdout).expect("one JSON object");
    assert_eq!(report["interrupted"], true);
    let profile = MachineProfile::load(&out.0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(serde_json::to_value(&profile).unwrap(), report["profile"]);
    assert!(profile.native_sleep.iter().all(|s| s.samples > 0));
}
