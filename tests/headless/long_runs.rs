//! Long `simulate` runs as a user meets them: the estimate said before a long run (or early in
//! one whose frames make it long), progress,
//! Ctrl-C keeping what was measured, and memory that does not grow with the lanes. Progress is
//! forced with `--progress` (stderr is a pipe here); the signal is sent once the first progress
//! line is seen, so nothing here waits on the wall clock.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Output, Stdio};

use crate::support::bin as binary;

fn json(stdout: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(stdout);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("one JSON object: {e}: {text}"))
}

/// The percentage a progress line shows ("... [====>   ]  12% of ...").
fn percent(line: &str) -> Option<u32> {
    let before = line.split("% of").next()?;
    before.rsplit(' ').next()?.parse().ok()
}

/// Starts `simulate` with `args` and reads its stderr up to the first progress line past 0 %;
/// returns
/// the child and the lines read. The rest of stderr is drained in the background, so the
/// child never writes to a closed pipe.
fn start_until_progress(args: &[&str]) -> (Child, Vec<String>) {
    let past_0 = |line: &str| line.contains("% of") && percent(line).is_some_and(|p| p > 0);
    start_until(args, usize::MAX, past_0)
}

/// How long a stderr may stay silent before [`start_until`] takes the run for hung: a guard,
/// not a measure.
const SILENCE: std::time::Duration = std::time::Duration::from_secs(120);

/// Starts `simulate` with `args` and reads its stderr up to the first line `wanted`, among its
/// first `most` lines; returns the child and the lines read (as [`start_until_progress`]).
fn start_until(args: &[&str], most: usize, wanted: impl Fn(&str) -> bool) -> (Child, Vec<String>) {
    let mut child = binary()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stderr = child.stderr.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(SILENCE) {
        let found = wanted(&line);
        lines.push(line);
        if found {
            return (child, lines);
        }
        if lines.len() >= most {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("no such line: {lines:?}");
}

fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

fn finish(mut child: Child) -> Output {
    let mut stdout = Vec::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_end(&mut stdout).expect("stdout");
    }
    let status = child.wait().expect("the run ends");
    Output {
        status,
        stdout,
        stderr: Vec::new(),
    }
}

#[test]
fn a_short_run_says_nothing_on_stderr_and_prints_one_json_object() {
    let out = binary()
        .args(["simulate", "--seconds", "1", "--progress", "--json"])
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = json(&out.stdout);
    assert_eq!(report["interrupted"], false);
    assert!((report["simulated_s"].as_f64().unwrap() - 1.0).abs() < 0.02);
}

#[test]
fn an_unpaced_run_says_early_how_many_frames_it_is_how_long_and_how_to_shorten_it() {
    // `--vsync off --render-cost 1ns`: nothing bounds the run but its frame count, ten
    // billion a lane, and each frame's own work is most of it. It used to run for hours with
    // an estimate of the rope's work alone, or none. Now, once its first half second is
    // measured, it says so.
    let args = [
        "simulate",
        "--vsync",
        "off",
        "--render-cost",
        "1ns",
        "--progress",
        "--json",
    ];
    // It comes after the rope's estimate and the bar's first line, long before the bar moves;
    // on a loaded machine the rope's estimate (its step cost measured slow) can already be
    // within twice the measured pace, and is then the line that says it.
    let (child, lines) = start_until(&args, 5, |line| {
        line.contains("frames on each of") || line.contains("rope steps of")
    });
    let said = lines.last().map(String::as_str).unwrap_or_default();
    let measured = [
        "timestep-rope: this run is 10.0 billion frames on each of 4 lanes",
        "(one every 1ns at most, set by the render cost alone)",
        "on this machine at the pace of its first",
    ];
    if said.contains("frames on each of") {
        for words in measured {
            assert!(said.contains(words), "{words:?} in {said:?}");
        }
    }
    assert!(
        said.contains(" would take about 10 s; Ctrl-C stops it and reports what ran"),
        "{said:?}"
    );
    // The --seconds it names is a run the program takes.
    let seconds = said
        .split("--seconds ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no --seconds in {said:?}"));
    assert!(
        seconds.parse::<f64>().is_ok_and(|s| s > 0.0 && s < 10.0),
        "{said}"
    );
    interrupt(&child);
    let out = finish(child);
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(json(&out.stdout)["interrupted"], true);
}

#[test]
fn a_long_advise_says_how_long_it_will_take_and_shows_its_progress() {
    // Every candidate for ten minutes of a 200-particle rope: seconds of work here, once run
    // with nothing said. Now simulate's estimate line and bar, ending with what Ctrl-C does to
    // advise (it stops the runs: no verdict, status 130, as simulate's 130); a shorter run it
    // names is one advise takes.
    let args = [
        "advise",
        "--seconds",
        "600",
        "--particles",
        "200",
        "--progress",
    ];
    let (child, lines) = start_until(&args, 5, |line| line.contains("% of 23 lanes x 600s"));
    let said = lines.first().map(String::as_str).unwrap_or_default();
    for words in [
        "timestep-rope: this run is 14.1 million rope steps of 200 particles over 23 lanes",
        "; Ctrl-C stops it, with no verdict",
    ] {
        assert!(said.contains(words), "{words:?} in {said:?}");
    }
    if let Some(rest) = said.split("--seconds ").nth(1) {
        let seconds: f64 = rest
            .split(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0.0);
        assert!(
            seconds >= 2.0,
            "advise refuses a run under 2 s at 60 Hz: {said}"
        );
    }
    interrupt(&child);
    let out = finish(child);
    assert!(out.stdout.is_empty(), "a verdict after Ctrl-C");
    assert_eq!(out.status.code(), Some(130));
}

#[test]
fn ctrl_c_stops_a_long_run_at_a_frame_and_reports_what_ran_with_valid_files() {
    let dir = std::env::temp_dir().join(format!("long-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (trace, dump, plot) = (dir.join("t.csv"), dir.join("d.json"), dir.join("p.svg"));
    let (t, d, p) = (
        trace.to_str().unwrap(),
        dump.to_str().unwrap(),
        plot.to_str().unwrap(),
    );
    // A minute of four lanes of 100,000 particles: tens of seconds of work anywhere.
    let args = [
        "simulate",
        "--particles",
        "100000",
        "--seconds",
        "60",
        "--progress",
        "--json",
        "--trace",
        t,
        "--dump-state",
        d,
        "--plot",
        p,
    ];
    let (child, lines) = start_until_progress(&args);
    assert!(
        lines[0].starts_with("timestep-rope: this run is")
            && lines[0].contains("rope steps of 100000 particles over 4 lanes")
            && lines[0].contains("on this machine"),
        "{lines:?}"
    );
    interrupt(&child);
    let out = finish(child);
    assert_eq!(out.status.code(), Some(130));
    let report = json(&out.stdout);
    assert_eq!(report["interrupted"], true);
    let reached = report["simulated_s"].as_f64().unwrap();
    assert!(reached > 0.0 && reached < 60.0, "{reached}");
    let lanes = report["lanes"].as_array().unwrap();
    assert_eq!(
        lanes.len(),
        4,
        "small lanes run together: all four reported"
    );
    for lane in lanes {
        assert!(lane["wall_time_s"].as_f64().unwrap() <= reached);
    }
    // The files are whole for the part that ran.
    let csv = std::fs::read_to_string(&trace).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    let columns = timestep_lab::protocol::frame_csv::COLUMNS.len();
    assert!(rows.len() > 1 && rows.iter().all(|r| r.split(',').count() == columns));
    let frames = lanes
        .iter()
        .map(|l| l["frames"].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(rows.len() as u64 - 1, frames, "one row per frame reported");
    let positions = json(&std::fs::read(&dump).unwrap());
    assert_eq!(
        positions["lanes"][0]["positions"].as_array().unwrap().len(),
        100_000
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.trim_end().ends_with("</svg>"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_run_of_big_lanes_names_the_lanes_it_never_started() {
    // Three lanes of 400,000 particles are too big to run together: they run one at a time,
    // and Ctrl-C during the first leaves the other two unrun.
    let args = [
        "simulate",
        "--particles",
        "400000",
        "--seconds",
        "60",
        "--lanes",
        "fixed,interpolated,semi-fixed",
        "--progress",
        "--json",
    ];
    let (child, _) = start_until_progress(&args);
    interrupt(&child);
    let out = finish(child);
    assert_eq!(out.status.code(), Some(130));
    let report = json(&out.stdout);
    assert_eq!(report["lanes"].as_array().unwrap().len(), 1);
    assert_eq!(
        report["lanes_not_run"],
        serde_json::json!(["interpolated", "semi-fixed"])
    );
}

/// The process's peak RSS, KiB, as the last lane's report states it.
fn peak_kib(particles: &str, lanes: &str) -> f64 {
    let out = binary()
        .args(["simulate", "--particles", particles, "--lanes", lanes])
        .args(["--seconds", "0.05", "--json"])
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let report = json(&out.stdout);
    let lanes = report["lanes"].as_array().unwrap();
    lanes.last().unwrap()["peak_rss_kib"].as_f64().unwrap()
}

#[test]
fn four_lanes_of_a_million_particles_hold_one_rope_at_a_time() {
    let base = peak_kib("16", "fixed");
    let one = peak_kib("1000000", "fixed") - base;
    let four = peak_kib("1000000", "fixed,fixed,fixed,fixed") - base;
    // One rope is about 32 MB; four held together would be four times that.
    assert!(one > 25_000.0, "one rope: {one} KiB");
    assert!(
        four < 1.5 * one,
        "four lanes: {four} KiB against one rope's {one} KiB"
    );
}
