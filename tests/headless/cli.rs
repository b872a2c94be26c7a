//! The binary as a user runs it: bad flags, `simulate`'s JSON, trace and dump files.

use crate::support::run_bin as run;
use std::process::Command;

/// Every bad value a user can type, and the word the one-line error must name.
pub const BAD_INPUT: &[(&[&str], &str)] = &[
    // Only advise chooses the tick.
    (&["simulate", "--dt", "auto"], "--dt auto"),
    (&["sweep", "--dt", "auto"], "--dt auto"),
    (&["--dt", "auto"], "--dt auto"),
    // Durations: zero, negative, NaN, infinite, absurd, garbage, below resolution.
    (&["--dt", "0"], "--dt"),
    (&["--dt", "-1ms"], "--dt"),
    (&["--dt", "abc"], "--dt"),
    (&["--dt", "nan"], "--dt"),
    (&["--dt", "inf"], "--dt"),
    (&["--dt", "1e-3"], "--dt"),
    (&["--dt", ""], "--dt"),
    (&["--dt", "0.5ns"], "--dt"),
    (&["--dt", "99999999999999999999999s"], "--dt"),
    (&["--dt", "400000000s"], "--dt"),
    (&["--clamp", "0.5ms"], "--clamp"),
    (&["--clamp", "-250ms"], "--clamp"),
    (&["--dt", "10ms", "--clamp", "5ms"], "--clamp"),
    (&["--max-steps", "0"], "--max-steps"),
    (&["--max-steps", "-3"], "--max-steps"),
    (&["--max-steps", "lots"], "--max-steps"),
    // The rope.
    (&["--particles", "0"], "--particles"),
    (&["--particles", "-5"], "--particles"),
    (&["--particles", "10000001"], "--particles"),
    (&["--particles", "1e6"], "--particles"),
    (&["--damping", "-1"], "--damping"),
    (&["--damping", "nan"], "--damping"),
    (&["--pin", "middle"], "--pin"),
    (&["--pin", "both", "--particles", "1"], "--pin"),
    // The window.
    (&["--mode", "wobbly"], "--mode"),
    (&["--fps-cap", "0"], "--fps-cap"),
    (&["--fps-cap", "-60"], "--fps-cap"),
    (&["--fps-cap", "inf"], "--fps-cap"),
    (&["--vsync", "maybe"], "--vsync"),
    (&["--exit-after", "0"], "--exit-after"),
    (&["--exit-after", "soon"], "--exit-after"),
    (
        &["--screenshot", "/nonexistent-dir/shot.png"],
        "--screenshot",
    ),
    (&["--screenshot", "shot.jpg"], "--screenshot"),
    (
        &["--frame-log", "/nonexistent-dir/frames.csv"],
        "--frame-log",
    ),
    (&["--bogus"], "--bogus"),
    // simulate.
    (&["simulate", "--mode", "wobbly"], "--mode"),
    (&["simulate", "--display-hz", "0"], "--display-hz"),
    (&["simulate", "--display-hz", "-60"], "--display-hz"),
    (&["simulate", "--display-hz", "nan"], "--display-hz"),
    (&["simulate", "--display-hz", "1e9"], "--display-hz"),
    (&["simulate", "--seconds", "-1"], "--seconds"),
    (&["simulate", "--seconds", "0"], "--seconds"),
    (&["simulate", "--seconds", "1e12"], "--seconds"),
    (&["simulate", "--seconds", "1e-300"], "--seconds"),
    (&["sweep", "--seconds", "1e-300"], "--seconds"),
    (&["simulate", "--jitter", "-1ms"], "--jitter"),
    (&["simulate", "--render-cost", "slow"], "--render-cost"),
    (&["simulate", "--stall", "2s"], "--stall"),
    (&["simulate", "--stall", ":300ms"], "--stall"),
    (&["simulate", "--stall", "2s:"], "--stall"),
    (&["simulate", "--stall", "2s:-1ms"], "--stall"),
    (&["simulate", "--stall", "abc:def"], "--stall"),
    (&["simulate", "--vsync", "off"], "--vsync"),
    (&["simulate", "--draw", "0x0"], "--draw"),
    (&["simulate", "--draw", "1280"], "--draw"),
    (&["simulate", "--draw", "99999x99999"], "--draw"),
    (&["simulate", "--draw", "-1x-1"], "--draw"),
    (
        &[
            "simulate",
            "--machine",
            "tests/data/fixtures/machine_clock_1e18.json",
            "--sleep",
            "native",
        ],
        "machine_clock_1e18.json: clock_resolution_ns is 1000000000000000000; it must be 1 to",
    ),
    (&["simulate", "--seed", "-1"], "--seed"),
    (
        &["simulate", "--trace", "/nonexistent-dir/trace.csv"],
        "--trace",
    ),
    (
        &["simulate", "--dump-state", "/nonexistent-dir/state.json"],
        "--dump-state",
    ),
    // Lanes, policies and the more honest display.
    (&["simulate", "--lanes", "fixed+wobbly"], "--lanes"),
    (&["simulate", "--lanes", "unreal"], "--lanes"),
    (&["simulate", "--lanes", "variable+fuzzy"], "--lanes"),
    (&["simulate", "--lanes", "semi-fixed+fuzzy59"], "--lanes"),
    (&["simulate", "--lanes", "bevy+tick=0hz"], "--lanes"),
    (&["simulate", "--lanes", "godot+jitter=-1"], "--lanes"),
    (&["--lanes", "presets"], "--lanes"),
    (&["simulate", "--lanes", "bevy+jitter=0.5"], "--lanes"),
    (&["simulate", "--lanes", "fixed+tick=60hz"], "--lanes"),
    (&["simulate", "--lanes", "fixed,,godot"], "--lanes"),
    (&["--dt", "0hz"], "--dt"),
    (&["--dt", "-60hz"], "--dt"),
    (&["--dt", "1e12hz"], "--dt"),
    (&["--dt", "0.0000000001hz"], "--dt"),
    (&["--max-substep", "0"], "--max-substep"),
    (&["--max-substep", "sometimes"], "--max-substep"),
    (&["simulate", "--phase", "-2ms"], "--phase"),
    (&["simulate", "--phase", "soon"], "--phase"),
    (&["simulate", "--step-cost", "-1ms"], "--step-cost"),
    (&["simulate", "--render-cost", "25ms..5ms"], "--render-cost"),
    (&["simulate", "--render-cost", "ramp:5ms"], "--render-cost"),
    (&["simulate", "--render-cost", "5ms..slow"], "--render-cost"),
    // A bare number other than 0 has no unit (2 ms? 2 s?): every duration flag but --dt.
    (&["simulate", "--jitter", "2"], "--jitter"),
    (&["simulate", "--step-cost", "1"], "--step-cost"),
    (&["simulate", "--render-cost", "5"], "--render-cost"),
    (&["simulate", "--render-cost", "5ms..25"], "--render-cost"),
    (
        &["simulate", "--render-cost", "ramp:5..25ms"],
        "--render-cost",
    ),
    (&["simulate", "--phase", "2"], "--phase"),
    (&["simulate", "--stall", "2:300ms"], "--stall"),
    (&["simulate", "--stall", "2s:0.3"], "--stall"),
    (&["simulate", "--clamp", "0.25"], "--clamp"),
    (&["--max-substep", "1"], "--max-substep"),
    (&["simulate", "--drive", "sway:6"], "--drive"),
    (&["--exit-after", "2"], "--exit-after"),
    // A required argument left out is named, on the one line.
    (&["replay"], "not provided: <CAPTURE>"),
    (&["completions"], "not provided: <SHELL>"),
    // Pacing.
    (&["simulate", "--pacing", "cap:0"], "--pacing"),
    (&["simulate", "--pacing", "sometimes"], "--pacing"),
    (&["simulate", "--pacing", "cap:fast"], "--pacing"),
    (
        &[
            "simulate",
            "--render-cost",
            "ramp:1ms..2ms..3ms..4ms..5ms..6ms..7ms..8ms..9ms",
        ],
        "--render-cost",
    ),
    (
        &["simulate", "--vsync", "off", "--pacing", "adaptive"],
        "--vsync",
    ),
    (&["simulate", "--pacing", "hold:"], "--pacing"),
    // Variable refresh, machines, sleeps.
    (
        &["simulate", "--vrr", "48..144", "--display-hz", "60"],
        "--display-hz",
    ),
    (&["simulate", "--vrr", "0..144"], "--vrr"),
    (&["simulate", "--vrr", "144..48"], "--vrr"),
    (&["simulate", "--vrr", "60..60"], "--vrr"),
    (&["simulate", "--vrr", "60..65"], "--vrr"),
    (&["simulate", "--vrr", "48"], "--vrr"),
    (&["simulate", "--vrr", "48..fast"], "--vrr"),
    (&["simulate", "--vrr", "48..144", "--lfc", "1.5"], "--lfc"),
    (
        &["simulate", "--vrr", "48..144", "--lfc", "sometimes"],
        "--lfc",
    ),
    (&["simulate", "--lfc", "2.5"], "--lfc"),
    (
        &[
            "simulate",
            "--vrr",
            "48..144",
            "--vsync",
            "off",
            "--render-cost",
            "5ms",
        ],
        "--vrr",
    ),
    (
        &["sweep", "--vrr", "48..144", "--display-hz", "60"],
        "--display-hz",
    ),
    (&["sweep", "--fps", "30..60"], "--fps"),
    (
        &["sweep", "--vrr", "48..144", "--render-cost", "5ms"],
        "--render-cost",
    ),
    (&["simulate", "--machine", "amiga"], "--machine"),
    (
        &["simulate", "--machine", "/nonexistent-dir/machine.json"],
        "--machine",
    ),
    (&["simulate", "--sleep", "doze"], "--sleep"),
    (&["--sleep", "doze"], "--sleep"),
    // Drives and lessons.
    (&["--drive", "wobble"], "--drive"),
    (&["--drive", "sway:0"], "--drive"),
    (&["simulate", "--drive", "circle:fast"], "--drive"),
    (&["simulate", "--drive", "off:2s"], "--drive"),
    (&["--lesson", "0"], "--lesson"),
    (&["--lesson", "8"], "--lesson"),
    (&["--lesson", "two"], "--lesson"),
    // Capture choices: a negative value reaches replay's own check, which names the flag.
    (
        &[
            "replay",
            "tests/data/presentmon/test_case_0.csv",
            "--app",
            "-1",
        ],
        "--app",
    ),
    (
        &[
            "replay",
            "tests/data/presentmon/test_case_0.csv",
            "--swapchain",
            "-1",
        ],
        "--swapchain",
    ),
    (
        &[
            "--replay",
            "tests/data/presentmon/test_case_0.csv",
            "--app",
            "-1",
        ],
        "--app",
    ),
    (&["--lesson", "2", "--lanes", "fixed"], "--lesson"),
    // Loop and rope flags on a subcommand that runs neither.
    (&["lessons", "--dt", "5ms"], "--dt"),
    (&["--particles", "5", "lessons"], "--particles"),
    (&["probe", "--lanes", "fixed"], "--lanes"),
    (&["completions", "bash", "--drive", "sway"], "--drive"),
    (&["man", "simulate", "--integrator", "rk4"], "--integrator"),
    // Integrators.
    (&["--integrator", "verlet"], "--integrator"),
    (&["simulate", "--integrator", ""], "--integrator"),
    (&["sweep", "--integrator", "RK5"], "--integrator"),
    (&["simulate", "--lanes", "fixed+verlet"], "--lanes"),
    (&["simulate", "--lanes", "fixed+rk4+euler"], "--lanes"),
    (&["simulate", "--lanes", "fixed+raw+snap"], "--lanes"),
    // Sweeps and plots.
    (&["sweep", "--display-hz", "240..30"], "--display-hz"),
    (&["sweep", "--display-hz", ""], "--display-hz"),
    (&["sweep", "--display-hz", "30.."], "--display-hz"),
    (&["sweep", "--display-hz", "30..240:0"], "--display-hz"),
    (&["sweep", "--display-hz", "30..240:-2"], "--display-hz"),
    (&["sweep", "--display-hz", "sixty"], "--display-hz"),
    (&["sweep", "--display-hz", "60,,75"], "--display-hz"),
    (&["sweep", "--display-hz", "0..60"], "--display-hz"),
    (&["sweep", "--display-hz", "1..10000:0.001"], "--display-hz"),
    (&["sweep", "--display-hz", "1..9000:0.05"], "1000000"),
    (&["sweep", "--seconds", "0"], "--seconds"),
    (&["sweep", "--threads", "0"], "--threads"),
    (&["sweep", "--plot", "/tmp/sweep.gif"], "--plot"),
    (&["sweep", "--plot", "/nonexistent-dir/sweep.svg"], "--plot"),
    (&["sweep", "--csv", "/nonexistent-dir/sweep.csv"], "--csv"),
    (&["sweep", "--mode", "fixed"], "--mode"),
    (&["simulate", "--plot", "/tmp/frames.jpeg"], "--plot"),
    (
        &["simulate", "--plot", "/nonexistent-dir/frames.png"],
        "--plot",
    ),
    (&["simulate", "--plot-seconds", "2"], "--plot"),
    // Two outputs that are one file, an output that is the input (paths not there: nothing
    // runs either way).
    (
        &[
            "simulate",
            "--trace",
            "/tmp/timestep-rope-clash.csv",
            "--dump-state",
            "/tmp/./timestep-rope-clash.csv",
        ],
        "--dump-state",
    ),
    (
        &[
            "simulate",
            "--trace",
            "/tmp/timestep-rope-clash.svg",
            "--plot",
            "/tmp/timestep-rope-clash.svg",
        ],
        "--plot",
    ),
    (
        &[
            "--frame-log",
            "/tmp/timestep-rope-clash.csv",
            "--report",
            "/tmp//timestep-rope-clash.csv",
        ],
        "--report",
    ),
    (
        &[
            "--screenshot",
            "/tmp/timestep-rope-clash.png",
            "--frame-log",
            "/tmp/timestep-rope-clash.png",
        ],
        "--frame-log",
    ),
    (
        &[
            "sweep",
            "--csv",
            "/tmp/timestep-rope-clash.svg",
            "--plot",
            "/tmp/timestep-rope-clash.svg",
        ],
        "--plot",
    ),
    (
        &[
            "replay",
            "/tmp/timestep-rope-clash.csv",
            "--trace",
            "/tmp/timestep-rope-clash.csv",
        ],
        "--trace",
    ),
    (
        &["simulate", "--plot", "/tmp/f.svg", "--plot-seconds", "-1"],
        "--plot-seconds",
    ),
    // advise: an unknown engine, a capture with a simulated display's flags, --app without a
    // capture, a capture that is not there, both refresh rates, no time to run.
    (&["advise", "--engine", "unreal"], "--engine"),
    (
        &[
            "advise",
            "tests/data/presentmon/test_case_5.csv",
            "--jitter",
            "1ms",
        ],
        "--jitter",
    ),
    (
        &[
            "advise",
            "tests/data/presentmon/test_case_5.csv",
            "--display-hz",
            "60",
        ],
        "--display-hz",
    ),
    (&["advise", "--app", "game.exe"], "--app"),
    (&["advise", "--vrr", "48..144"], "--render-cost"),
    (&["advise", "no-such-capture.csv"], "no-such-capture.csv"),
    (
        &["advise", "--vrr", "48..144", "--display-hz", "60"],
        "--display-hz",
    ),
    (&["advise", "--seconds", "0"], "--seconds"),
    (&["advise", "--vsync", "off"], "--vsync"),
    (
        &["advise", "--engine", "godot", "--lanes", "fixed"],
        "--lanes",
    ),
    (
        &["advise", "--engine", "bevy", "--pacing", "hold:60"],
        "--pacing",
    ),
    // Rates below one a second (issue 37): a display, a panel, a cap, a hold, a sweep; advise
    // on a run too short to show the frames a verdict wants.
    (&["simulate", "--display-hz", "0.5"], "--display-hz"),
    (&["advise", "--display-hz", "1e-300"], "--display-hz"),
    (&["sweep", "--display-hz", "0.5..60"], "--display-hz"),
    (
        &["simulate", "--vrr", "0.5..60", "--render-cost", "5ms"],
        "--vrr",
    ),
    (&["--fps-cap", "0.01"], "--fps-cap"),
    (&["simulate", "--pacing", "cap:1e-300"], "--pacing"),
    (&["simulate", "--pacing", "hold:0.5"], "--pacing"),
    (&["advise", "--seconds", "1e-9"], "--seconds"),
    (&["advise", "--seconds", "1"], "--seconds"),
    // An output path refused before the run (issue 37): a directory, named with its '/'.
    (
        &["simulate", "--trace", "/tmp/timestep-rope-newdir/"],
        "--trace",
    ),
];

/// A bare number for a duration says what to add; `--dt` alone keeps bare seconds, which its
/// help promises (`0.001 (seconds)`), and 0 is zero in any unit.
#[test]
fn a_bare_number_for_a_duration_asks_for_a_unit() {
    let out = run(&["simulate", "--jitter", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("'--jitter <D>': '2' has no unit: give one, e.g. 2ms or 2s"),
        "{stderr}"
    );
    for ok in [
        &["simulate", "--dt", "0.001", "--seconds", "0.1"][..],
        &["simulate", "--jitter", "0", "--seconds", "0.1"],
    ] {
        let out = run(ok);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{ok:?}: {stderr}");
    }
}

#[test]
fn every_bad_value_exits_2_with_one_line_naming_it_and_starts_nothing() {
    assert!(BAD_INPUT.len() >= 25);
    for (args, flag) in BAD_INPUT {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Status 2, not 1: had a window been attempted (DISPLAY is unset here), it would have
        // failed with "no display" and status 1; had simulate run, stdout would hold a report.
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains(flag),
            "{args:?} should name {flag}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed a report");
    }
}

#[test]
fn a_frame_cap_below_one_hz_is_refused_alike_by_every_command_that_takes_one() {
    // `--fps-cap 0.01` was a window waiting 100 s a frame, deaf to Escape and --exit-after;
    // `cap:1e-300` never started a second frame. The simulated hosts would not hang, but they
    // take the same rates and refuse them the same way.
    let floor = timestep_loop::MIN_HZ;
    let refused: [(&[&str], &str, &str); 8] = [
        (&["--fps-cap", "0.01"], "--fps-cap", "0.01"),
        (&["--fps-cap", "0.5hz"], "--fps-cap", "0.5hz"),
        (&["--pacing", "cap:1e-300"], "--pacing", "cap:1e-300"),
        (&["--pacing", "hold:0.5"], "--pacing", "hold:0.5"),
        (
            &["simulate", "--pacing", "cap:0.99"],
            "--pacing",
            "cap:0.99",
        ),
        (&["sweep", "--pacing", "hold:0.01"], "--pacing", "hold:0.01"),
        (&["advise", "--pacing", "cap:0.1"], "--pacing", "cap:0.1"),
        (&["--fps-cap", "20000"], "--fps-cap", "20000"),
    ];
    for (args, flag, value) in refused {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        let says = format!("{value} must be {floor} to 10000 Hz");
        assert!(
            stderr.contains(flag) && stderr.contains(&says),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?} printed a report");
    }
    // The floor itself is a rate like any other.
    let at_floor = run(&["simulate", "--pacing", "cap:1", "--seconds", "3", "--json"]);
    assert_eq!(at_floor.status.code(), Some(0));
}

#[test]
fn simulate_json_is_one_object_with_every_field_and_the_lanes_in_the_order_given() {
    let out = run(&[
        "simulate",
        "--json",
        "--seconds",
        "2",
        "--display-hz",
        "59.94",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let config = &v["config"];
    for key in [
        "dt_s",
        "clamp_s",
        "max_steps",
        "particles",
        "particle_mass_kg",
        "stiffness_n_per_m",
        "rest_length_m",
        "gravity_m_per_s2",
        "damping_per_s",
        "pin",
        "drive",
        "display_hz",
    ] {
        assert!(!config[key].is_null(), "config.{key} missing");
    }
    assert_eq!(config["dt_s"], 0.001);
    assert_eq!(
        config["drive"], "off",
        "simulate keeps the pin still unless asked"
    );
    assert_eq!(config["display_hz"], 59.94);
    let modes = v["lanes"].as_array().unwrap();
    let names: Vec<&str> = modes.iter().map(|m| m["lane"].as_str().unwrap()).collect();
    assert_eq!(names, ["variable", "semi-fixed", "fixed", "interpolated"]);
    for m in modes {
        assert_eq!(m["lane"], m["mode"]);
        for key in [
            "frames",
            "steps",
            "sim_time_s",
            "wall_time_s",
            "drift_ms",
            "dropped_ms",
            "stutter_rms_ms",
            "stutter_max_ms",
            "energy_start_j",
            "energy_end_j",
            "max_stretch",
            "exploded",
        ] {
            assert!(m[key].is_number() || m[key].is_boolean(), "{key} in {m}");
        }
        for key in ["min", "mean", "max"] {
            assert!(m["steps_per_frame"][key].is_number());
        }
        assert!(m["state_hash"].is_string());
    }
    // 2 s at 59.94 Hz: 120 vblanks.
    assert_eq!(modes[2]["frames"], 120);
    assert_eq!(modes[2]["state_hash"], modes[3]["state_hash"]);
}

#[test]
fn simulate_marks_each_lane_ok_exploded_or_fallen_behind() {
    // At 60 Hz variable steps (16.7 ms) pass Euler's bound (15.07 ms); a 1.2 ms tick cost on
    // a 1 ms tick is the spiral of death, which the step cap turns into slow motion.
    let args = [
        "simulate",
        "--seconds",
        "3",
        "--display-hz",
        "60",
        "--lanes",
        "variable,fixed",
    ];
    let states = |extra: &[&str]| {
        let out = run(&[&args[..], extra, &["--json"]].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let lanes = v["lanes"].as_array().unwrap().clone();
        lanes
            .iter()
            .map(|l| l["state"].as_str().unwrap_or("?").to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(states(&[]), ["exploded", "ok"]);
    assert_eq!(
        states(&["--step-cost", "1.2ms"]),
        ["exploded", "fallen behind"]
    );
    let out = run(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let mut rows = text.lines().filter(|l| !l.contains("stable below"));
    let row = rows.find(|l| l.starts_with("variable ")).unwrap_or("");
    assert_eq!(row.split_whitespace().nth(1), Some("exploded"), "{text}");
}

#[test]
fn simulate_runs_the_lanes_given_in_their_order_with_a_row_each() {
    let out = run(&[
        "simulate",
        "--json",
        "--seconds",
        "1",
        "--lanes",
        "interpolated,variable,interpolated",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let lanes = v["lanes"].as_array().unwrap();
    let names: Vec<&str> = lanes.iter().map(|l| l["lane"].as_str().unwrap()).collect();
    assert_eq!(names, ["interpolated", "variable", "interpolated"]);
    // The same lane twice on the same frame times: the same state.
    assert_eq!(lanes[0]["state_hash"], lanes[2]["state_hash"]);
    let args = [
        "simulate",
        "--seconds",
        "1",
        "--lanes",
        "fixed,variable",
        "--wide",
    ];
    let table = run(&args);
    let text = String::from_utf8_lossy(&table.stdout);
    // The wide table's rows end with the state hash: one per lane, in the order given.
    let is_hash = |w: &str| w.len() == 16 && w.chars().all(|c| c.is_ascii_hexdigit());
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.split_whitespace().last().is_some_and(is_hash))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(
        rows[0].starts_with("fixed") && rows[1].starts_with("variable"),
        "{text}"
    );
}

#[test]
fn simulate_prints_a_readable_table_by_default() {
    let out = run(&["simulate", "--seconds", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for word in [
        "variable",
        "semi-fixed",
        "fixed",
        "interpolated",
        "stutter",
        "drift",
        "stable below",
    ] {
        assert!(text.contains(word), "{word} missing from\n{text}");
    }
}

/// The commands that print text by default, each short: `simulate`, a two-rate `sweep`, a
/// `replay`, `advise`, `lessons` (117 columns once) and `probe` (111 once).
const TABLES: [&[&str]; 6] = [
    &["simulate", "--seconds", "2"],
    &["sweep", "--display-hz", "60,144", "--seconds", "2"],
    &["replay", "tests/data/presentmon/test_case_0.csv"],
    &["advise", "--seconds", "2"],
    &["lessons"],
    &["probe", "--seconds", "0.05"],
];

#[test]
fn default_tables_fit_100_columns_counted_in_characters() {
    for args in TABLES {
        let out = run(args);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        for line in text.lines() {
            assert!(line.chars().count() <= 100, "{args:?}: {line}");
        }
    }
}

#[test]
fn wide_brings_every_column_back() {
    let wide = |args: &[&str]| {
        let out = run(&[args, &["--wide"]].concat());
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let columns = [
        "energy J",
        "stretch",
        "exploded",
        "state hash",
        "ticks per vblank",
    ];
    for args in [TABLES[0], TABLES[2]] {
        let text = wide(args);
        for column in columns.iter().chain(&["frames", "sim s", "stutter ms"]) {
            assert!(
                text.contains(column),
                "{args:?} --wide: no {column} in\n{text}"
            );
        }
    }
    let text = wide(TABLES[1]);
    for column in ["double updates / min", "stutter rms, ms", "did not hold"] {
        assert!(
            text.contains(column),
            "sweep --wide: no {column} in\n{text}"
        );
    }
}

#[test]
fn trace_has_a_row_per_presented_frame_per_lane_and_dump_has_positions() {
    let dir = std::env::temp_dir().join(format!("timestep-rope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("trace.csv");
    let dump = dir.join("state.json");
    let out = run(&[
        "simulate",
        "--json",
        "--seconds",
        "1",
        "--mode",
        "fixed",
        "--particles",
        "8",
        "--trace",
        trace.to_str().unwrap(),
        "--dump-state",
        dump.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let frames = report["lanes"][0]["frames"].as_u64().unwrap();

    let csv = std::fs::read_to_string(&trace).unwrap();
    let mut lines = csv.lines();
    let columns = timestep_lab::protocol::frame_csv::COLUMNS;
    assert_eq!(lines.next(), Some(columns.join(",").as_str()));
    let at = |name: &str| columns.iter().position(|c| *c == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len() as u64, frames);
    assert!(
        rows.iter()
            .all(|r| r.len() == columns.len() && r[at("lane")] == "fixed")
    );
    let steps: u64 = rows
        .iter()
        .map(|r| r[at("steps")].parse::<u64>().unwrap())
        .sum();
    assert_eq!(steps, report["lanes"][0]["steps"].as_u64().unwrap());
    // One start time per step, each at or after the frame's start.
    for r in &rows {
        let starts: Vec<f64> = r[at("step_starts_s")]
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(starts.len(), r[at("steps")].parse::<usize>().unwrap());
        let start: f64 = r[at("start_s")].parse().unwrap();
        assert!(starts.iter().all(|&t| t >= start));
    }

    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).unwrap()).unwrap();
    let positions = state["lanes"][0]["positions"].as_array().unwrap();
    assert_eq!(state["lanes"][0]["lane"], "fixed");
    assert_eq!(positions.len(), 8);
    assert_eq!(positions[0], serde_json::json!([0.0, 0.0]));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn help_groups_the_flags_under_headings_for_every_subcommand() {
    let cases: [(&[&str], &[&str]); 6] = [
        (
            &["--help"],
            &[
                "Loop:", "Rope:", "Window:", "Pacing:", "Output:", "Capture:",
            ],
        ),
        (
            &["simulate", "--help"],
            &[
                "Display:",
                "Machine and pacing:",
                "Loop:",
                "Rope:",
                "Output:",
            ],
        ),
        (
            &["sweep", "--help"],
            &["Display:", "Output:", "Run:", "Loop:", "Rope:"],
        ),
        (
            &["replay", "--help"],
            &["Capture:", "Output:", "Loop:", "Rope:"],
        ),
        (&["probe", "--help"], &["Run:", "Output:"]),
        (&["lessons", "--help"], &["Usage: timestep-rope lessons"]),
    ];
    for (args, headings) in cases {
        let out = run(args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        for heading in headings {
            assert!(
                text.lines().any(|l| l.starts_with(heading)),
                "{args:?} has no {heading} heading:\n{text}"
            );
        }
    }
}

#[test]
fn completions_and_man_pages_come_from_the_one_flag_definition() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        for word in ["simulate", "replay", "--vrr", "--lesson"] {
            assert!(text.contains(word), "{shell} completions lack {word}");
        }
    }
    let out = run(&["man"]);
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(
        page.starts_with(".ie") && page.contains(".TH timestep-rope 1"),
        "{page}"
    );
    assert!(page.contains("\\-\\-lesson") && page.contains("simulate"));
    let out = run(&["man", "simulate"]);
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains(".TH timestep-rope-simulate 1"), "{page}");
    // The shared flags are on the subcommand's page too.
    assert!(
        page.contains("\\-\\-vrr") && page.contains("\\-\\-dt"),
        "{page}"
    );
    let out = run(&["man", "nope"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("no subcommand 'nope'") && stderr.contains("simulate"));
}

/// A reader that has gone (`| head -c1`) is no error for what only prints: the write fails
/// with a broken pipe, and the program exits 0 saying nothing (clap_complete alone would
/// panic on it).
#[test]
fn printing_commands_exit_0_quietly_when_the_reader_has_gone() {
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["man", "simulate"],
        &["lessons"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_timestep-rope"))
            .args(args)
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn every_help_fits_100_columns() {
    for sub in [
        None,
        Some("simulate"),
        Some("sweep"),
        Some("replay"),
        Some("advise"),
        Some("probe"),
        Some("lessons"),
        Some("completions"),
        Some("man"),
    ] {
        let args: Vec<&str> = sub.into_iter().chain(["--help"]).collect();
        let out = run(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        for line in text.lines() {
            assert!(line.chars().count() <= 100, "{args:?}: {line}");
        }
    }
}
