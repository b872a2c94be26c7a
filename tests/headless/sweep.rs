//! `sweep` and the plots: a sweep's rows are exactly `simulate`'s figures, the files have one
//! row per configuration and name every lane, Ctrl-C keeps what finished, and the beat
//! measured is the one the rates predict.

use crate::support::run_bin as run;
use crate::support::*;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use timestep_lab::analyses::sweep::{self, SweepConfig};
use timestep_lab::hosts::simulate::{self, DisplayConfig, Phase, RenderCost, SimConfig};
use timestep_lab::model::lane::{LaneSpec, LaneState, parse_lanes};
use timestep_lab::model::rope::RopeParams;
use timestep_loop::MaxSubstep;
use timestep_loop::TimingConfig;

/// A file in the test's own temporary directory.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("timestep-rope-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn base(lanes: &str, seconds: u64) -> SimConfig {
    SimConfig {
        timing: TimingConfig::textbook(MS, 250 * MS, None).unwrap(),
        rope: RopeParams::with_particles(4),
        display: DisplayConfig {
            jitter_ns: 300_000,
            render_cost: RenderCost::Uniform(MS, 4 * MS),
            phase: Phase::Random,
            duration_ns: seconds * S,
            ..Default::default()
        },
        lanes: parse_lanes(lanes).unwrap(),
        max_substep: MaxSubstep::Default,
        draw: None,
        physics: true,
    }
}

#[test]
fn a_sweeps_row_for_a_rate_is_what_simulate_reports_for_that_rate() {
    let cfg = SweepConfig {
        axis: sweep::Axis::DisplayHz,
        base: base("modes,presets,fixed+snap,godot+interpolated", 3),
        rates: vec![59.94, 144.0],
        threads: Some(2),
    };
    let mut rows = Vec::new();
    let never = AtomicBool::new(false);
    let outcome = sweep::run(
        &cfg,
        &never,
        |_| {},
        |r| {
            rows.push(r);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(outcome.done, cfg.configs());
    assert!(!outcome.interrupted);
    for (i, &hz) in cfg.rates.iter().enumerate() {
        // simulate runs every lane together, in lockstep, each on its own display copy.
        let together = SimConfig {
            display: DisplayConfig {
                display_hz: hz,
                ..cfg.base.display.clone()
            },
            ..cfg.base.clone()
        };
        for (lane, (mut expected, _)) in simulate::run(&together, |_| {})
            .unwrap()
            .into_iter()
            .enumerate()
        {
            expected.peak_rss_kib = None;
            let row = &rows[i * cfg.base.lanes.len() + lane];
            assert_eq!((row.rate, row.lane), (hz, lane));
            assert_eq!(row.report, expected, "{hz} Hz, {}", expected.lane);
        }
    }
}

/// Every row of a sweep of `cfg`, in order.
fn rows_of(cfg: &SweepConfig) -> Vec<sweep::Row> {
    let mut rows = Vec::new();
    let never = AtomicBool::new(false);
    sweep::run(
        cfg,
        &never,
        |_| {},
        |r| {
            rows.push(r);
            Ok(())
        },
    )
    .unwrap();
    rows
}

#[test]
fn a_sweep_without_a_rope_reports_every_timing_figure_as_one_with_a_rope_does() {
    // Explosions included: at 30 Hz variable steps tear the rope apart and it is reset, which
    // must not touch the loop's time.
    let with = SweepConfig {
        axis: sweep::Axis::DisplayHz,
        base: base("modes,presets,fixed+snap,fixed+fuzzy59", 4),
        rates: vec![30.0, 59.94, 75.0, 144.0],
        threads: Some(2),
    };
    let without = SweepConfig {
        axis: sweep::Axis::DisplayHz,
        base: SimConfig {
            physics: false,
            ..with.base.clone()
        },
        ..with.clone()
    };
    let (a, b) = (rows_of(&with), rows_of(&without));
    assert_eq!(a.len(), b.len());
    assert!(a.iter().any(|r| physics(&r.report).explosions > 0));
    for (mut a, b) in a.into_iter().zip(b) {
        assert!(a.report.physics.is_some() && b.report.physics.is_none());
        a.report.physics = None;
        // Only a rope explodes; without one, where the rope exploded here the steps were past
        // the stable step often enough to say so (a short run's rope may not have yet).
        assert_ne!(b.report.state, LaneState::Exploded, "{} Hz", a.rate);
        if a.report.state == LaneState::Exploded {
            assert_eq!(b.report.state, LaneState::UnstableStep, "{} Hz", a.rate);
        }
        a.report.state = b.report.state;
        assert_eq!(a, b, "{} Hz, {}", a.rate, a.report.lane);
    }
}

#[test]
fn ctrl_c_stops_a_sweep_inside_a_configuration_between_frames() {
    // One configuration of 30 simulated days (hours of work) with Ctrl-C already pressed:
    // before, a configuration ran to its end; now it stops at its first frame boundary.
    let cfg = base("glaiel", 30 * 24 * 3600);
    let stop = AtomicBool::new(true);
    let row = sweep::run_one(
        &cfg,
        sweep::Axis::DisplayHz,
        60.0,
        cfg.lanes[0],
        Some(&stop),
    );
    assert!(
        row.unwrap().is_none(),
        "an interrupted configuration has no row"
    );
    let short = base("glaiel", 1);
    let row = sweep::run_one(&short, sweep::Axis::DisplayHz, 60.0, short.lanes[0], None);
    assert_eq!(row.unwrap().map(|r| r.shown.frames > 50), Some(true));
}

#[test]
fn an_interrupted_sweep_stops_between_configurations_and_keeps_what_finished() {
    let cfg = SweepConfig {
        axis: sweep::Axis::DisplayHz,
        base: base("fixed,variable", 1),
        rates: sweep::parse_rates("30..90").unwrap(),
        threads: Some(1),
    };
    let stop = AtomicBool::new(false);
    let mut rows = Vec::new();
    // Ctrl-C arrives once the first batch is done.
    let outcome = sweep::run(
        &cfg,
        &stop,
        |_| stop.store(true, Ordering::SeqCst),
        |r| {
            rows.push((r.rate, r.lane));
            Ok(())
        },
    )
    .unwrap();
    assert!(outcome.interrupted);
    assert!(
        outcome.done > 0 && outcome.done < cfg.configs(),
        "{outcome:?}"
    );
    assert_eq!(rows.len() as u64, outcome.done);
    assert_eq!(
        rows[..3],
        [(30.0, 0), (30.0, 1), (31.0, 0)],
        "in rate and lane order"
    );
}

#[test]
fn the_beat_measured_is_the_one_predicted_from_the_refresh_and_tick_rates() {
    // 59.94 Hz against a 60 Hz tick beats every 16.7 s; 75 Hz against 1 ms ticks (13.33 a
    // frame) every third frame, 40 ms.
    let cases = [
        (59.94, 16_666_667, 16.683),
        (75.0, MS, 0.040),
        (144.0, MS, 0.125),
    ];
    for (hz, tick, predicted) in cases {
        let cfg = SimConfig {
            timing: TimingConfig::textbook(tick, 250 * MS, None).unwrap(),
            display: DisplayConfig {
                display_hz: hz,
                duration_ns: 200 * S,
                ..Default::default()
            },
            lanes: vec![LaneSpec::mode(timestep_loop::Mode::Fixed)],
            max_substep: MaxSubstep::Set(MS),
            ..base("fixed", 1)
        };
        let r = &simulate::run(&cfg, |_| {}).unwrap()[0].0;
        let p = r.vblanks.beat_period_predicted_s.unwrap();
        assert!(
            (p - predicted).abs() < predicted * 1e-3,
            "{hz} Hz predicted {p}"
        );
        let m = r.vblanks.beat_period_measured_s.unwrap();
        assert!(
            (m - p).abs() < p * 0.1,
            "{hz} Hz: measured {m}, predicted {p}"
        );
    }
}

/// The text of every `<text>` element of an SVG, trimmed.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let inner = t.split_once('>')?.1;
            Some(inner.split_once("</text>")?.0.trim().to_string())
        })
        .collect()
}

/// The CSV's lines, each split into cells (quoted cells may hold commas).
fn csv_cells(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| {
            let (mut cells, mut cell, mut quoted) = (Vec::new(), String::new(), false);
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match (c, quoted) {
                    ('"', true) if chars.peek() == Some(&'"') => {
                        cell.push('"');
                        chars.next();
                    }
                    ('"', _) => quoted = !quoted,
                    (',', false) => cells.push(std::mem::take(&mut cell)),
                    _ => cell.push(c),
                }
            }
            cells.push(cell);
            cells
        })
        .collect()
}

#[test]
fn sweep_writes_a_csv_row_per_rate_and_lane_and_plots_that_name_every_lane() {
    let (csv, svg, png) = (temp("rows.csv"), temp("sweep.svg"), temp("sweep.png"));
    let lanes = "fixed,godot,bevy+snap";
    let common = ["sweep", "--display-hz", "59.94,60,75..77", "--seconds", "1"];
    let out = run(&[
        &common[..],
        &["--lanes", lanes, "--csv", csv.to_str().unwrap()],
    ]
    .concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("best (Hz)") && table.contains("bevy+snap"),
        "{table}"
    );
    let rows = csv_cells(&std::fs::read_to_string(&csv).unwrap());
    assert_eq!(rows.len(), 1 + 5 * 3, "a header and rates x lanes rows");
    let header = &rows[0];
    assert_eq!(header[0], "display_hz");
    for column in [
        "lane",
        "stutter_rms_ms",
        "double_updates",
        "policy.tick_s",
        "pattern",
    ] {
        assert!(header.iter().any(|h| h == column), "{column} missing");
    }
    assert!(rows.iter().all(|r| r.len() == header.len()));
    assert_eq!(
        (rows[1][0].as_str(), rows[1][1].as_str()),
        ("59.94", "fixed")
    );
    assert_eq!(rows[15][1], "bevy+snap");

    for plot in [&svg, &png] {
        let out = run(&[
            &common[..],
            &["--lanes", lanes, "--plot", plot.to_str().unwrap()],
        ]
        .concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    let texts = svg_texts(&text);
    for lane in lanes.split(',') {
        assert!(
            texts.iter().any(|t| t == lane),
            "{lane} not named in {texts:?}"
        );
    }
    let image = tiny_skia::Pixmap::load_png(&png).expect("a valid PNG");
    assert_eq!((image.width(), image.height()), (1200, 1350));
    let inked = image.pixels().iter().filter(|p| p.red() < 128).count();
    assert!(
        inked > 10_000,
        "the PNG has lines and text ({inked} dark pixels)"
    );
}

#[test]
fn simulate_plots_every_lane_frame_by_frame() {
    let svg = temp("frames.svg");
    let out = run(&[
        "simulate",
        "--dt",
        "60hz",
        "--max-substep",
        "1ms",
        "--jitter",
        "300us",
        "--lanes",
        "fixed,interpolated,fixed+fuzzy",
        "--plot",
        svg.to_str().unwrap(),
        "--plot-seconds",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let texts = svg_texts(&std::fs::read_to_string(&svg).unwrap());
    for name in [
        "fixed",
        "interpolated",
        "fixed+fuzzy",
        "ticks per frame",
        "time, s",
    ] {
        assert!(texts.iter().any(|t| t == name), "{name} not in {texts:?}");
    }
}

#[test]
fn ctrl_c_ends_a_sweep_with_130_and_complete_rows() {
    let csv = temp("interrupted.csv");
    let child = bin()
        .args(["sweep", "--seconds", "60", "--csv", csv.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait (on the file being written, not the clock) until rows have been written, then
    // press Ctrl-C.
    let growing = crate::pending::temp_path(&csv, child.id()).unwrap();
    let mut polls = 0;
    while std::fs::read_to_string(&growing).map_or(0, |t| t.lines().count()) < 3 {
        polls += 1;
        assert!(polls < 6_000, "no rows after a minute");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted after"), "{stderr}");
    // What finished replaced the file; nothing is left beside it.
    assert!(!growing.exists());
    let rows = csv_cells(&std::fs::read_to_string(&csv).unwrap());
    assert!(rows.len() > 2 && rows.len() < 2_141, "{} rows", rows.len());
    assert!(
        rows.iter().all(|r| r.len() == rows[0].len()),
        "a row was cut short"
    );
}

/// A figure that is an object on one row and null on another (judder needs 64 frames: a
/// 1.5 s run at 30 Hz has 45, at 120 Hz 180) keeps its columns on every row, so a row's cells
/// stay under their names.
#[test]
fn a_figure_null_on_the_first_row_keeps_its_columns_on_every_row() {
    let csv = temp("judder.csv");
    let out = run(&[
        "sweep",
        "--drive",
        "sway",
        "--display-hz",
        "30,120",
        "--seconds",
        "1.5",
        "--lanes",
        "fixed",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = csv_cells(&std::fs::read_to_string(&csv).unwrap());
    assert_eq!(rows.len(), 3, "a header and two rows");
    let header = &rows[0];
    assert!(rows.iter().all(|r| r.len() == header.len()), "{rows:?}");
    let rms = header
        .iter()
        .position(|h| h == "judder_px.rms")
        .expect("judder_px.rms");
    let lane = header.iter().position(|h| h == "lane").unwrap_or(1);
    assert_eq!(rows[1][rms], "", "30 Hz: too few frames to judge");
    assert!(
        rows[2][rms].parse::<f64>().is_ok_and(|v| v > 0.0),
        "{:?}",
        rows[2]
    );
    assert_eq!(rows[2][lane], "fixed");
}

/// `sweep ARGS --json`'s object.
fn sweep_json(args: &[&str]) -> serde_json::Value {
    let out = run(&[&["sweep", "--json"][..], args].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The `state` of each row, in order.
fn states(json: &serde_json::Value) -> Vec<(String, String)> {
    let rows = json["rows"].as_array().expect("rows");
    let field = |r: &serde_json::Value, k: &str| r[k].as_str().unwrap_or("?").to_string();
    rows.iter()
        .map(|r| (field(r, "lane"), field(r, "state")))
        .collect()
}

#[test]
fn at_60_hz_variable_is_marked_and_never_called_best() {
    // Without --physics no rope is stepped: every 16.7 ms step is past Euler's 15.07 ms stable
    // step, which is what it says (unstable step); with one, the rope's own explosions do.
    let args = [
        "--display-hz",
        "60",
        "--lanes",
        "variable,fixed",
        "--seconds",
        "3",
    ];
    for (physics, state, at) in [
        (&[][..], "unstable step", "unstable_step_at"),
        (&["--physics"][..], "exploded", "exploded_at"),
    ] {
        let json = sweep_json(&[&args[..], physics].concat());
        let want = [("variable", state), ("fixed", "ok")];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(states(&json), want, "{physics:?}");
        let summary = &json["summary"][0];
        assert_eq!(summary["lane"], "variable");
        assert_eq!(summary[at], serde_json::json!([60.0]));
        assert!(summary["stutter_rms_ms"].is_null(), "no best: {summary}");
    }
    let out = run(&[&["sweep"][..], &args[..]].concat());
    let table = String::from_utf8_lossy(&out.stdout);
    let row = table
        .lines()
        .find(|l| l.starts_with("variable"))
        .unwrap_or("");
    assert!(row.contains("unstable step at 60 Hz"), "{table}");
    assert!(
        !row.contains("(60)"),
        "a lane that did not hold has no best rate: {row}"
    );
    // At 75 Hz the same loop holds.
    let json = sweep_json(&[
        "--display-hz",
        "75",
        "--lanes",
        "variable",
        "--seconds",
        "3",
    ]);
    assert_eq!(states(&json)[0].1, "ok");
}

#[test]
fn a_loop_whose_ticks_cost_more_than_they_cover_is_marked_fallen_behind() {
    // 1.2 ms of CPU per 1 ms tick: the spiral of death, held off only by the step cap.
    let json = sweep_json(&[
        "--display-hz",
        "60",
        "--lanes",
        "fixed,godot",
        "--seconds",
        "3",
        "--step-cost",
        "1.2ms",
    ]);
    let got = states(&json);
    assert_eq!(got[0], ("fixed".into(), "fallen behind".into()));
    assert_eq!(got[1], ("godot".into(), "ok".into()));
    assert_eq!(
        json["summary"][0]["fallen_behind_at"],
        serde_json::json!([60.0])
    );
    let csv = temp("behind.csv");
    let out = run(&[
        "sweep",
        "--display-hz",
        "60",
        "--lanes",
        "fixed",
        "--seconds",
        "3",
        "--step-cost",
        "1.2ms",
        "--csv",
        csv.to_str().unwrap_or(""),
    ]);
    assert!(out.status.success());
    let rows = csv_cells(&std::fs::read_to_string(&csv).unwrap_or_default());
    let column = rows[0]
        .iter()
        .position(|h| h == "state")
        .expect("a state column");
    assert_eq!(rows[1][column], "fallen behind");
}

#[test]
fn a_lone_stall_or_jitter_past_the_stable_step_is_not_called_unstable() {
    // One 20 ms stall at 100 Hz, and ±300 us of jitter at 68 Hz (14.7 ms frames), take a few
    // variable steps past Euler's 15.07 ms stable step; the rope survives both (--physics
    // measures it), and without a rope so few such steps are no reason to mark the lane.
    let cases: [&[&str]; 2] = [
        &["--display-hz", "100", "--stall", "2s:20ms"],
        &["--display-hz", "68", "--jitter", "300us"],
    ];
    for case in cases {
        let args = [case, &["--lanes", "variable", "--seconds", "10"][..]].concat();
        for physics in [&[][..], &["--physics"][..]] {
            let json = sweep_json(&[&args[..], physics].concat());
            let row = &json["rows"][0];
            assert_eq!(row["state"], "ok", "{case:?} {physics:?}: {row}");
            let unstable = row["unstable_steps"].as_u64().unwrap_or(0);
            let steps = row["integration_steps"].as_u64().unwrap_or(0);
            assert!(unstable > 0 && unstable * 10 < steps, "{case:?}: {row}");
        }
    }
}

#[test]
fn a_sweep_never_counts_or_ranks_double_updates_where_a_vblank_holds_many_ticks() {
    // fixed ticks at 1 ms (16.67 a vblank at 60 Hz), godot at 60 Hz: at 25 Hz it holds 2.4 a
    // vblank, so its double updates are n/a there and ranked over 60 and 144 Hz alone.
    let csv = temp("na.csv");
    let args = [
        "sweep",
        "--display-hz",
        "25,60,144",
        "--seconds",
        "2",
        "--lanes",
        "fixed,godot",
    ];
    let files = ["--csv", csv.to_str().unwrap(), "--wide"];
    let out = run(&[&args[..], &files].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    let fixed = table.lines().find(|l| l.starts_with("fixed ")).unwrap();
    assert_eq!(fixed.matches("n/a").count(), 3, "{table}");
    assert!(table.contains("n/a where it held at none"), "{table}");
    let rows = csv_cells(&std::fs::read_to_string(&csv).unwrap());
    let column = rows[0].iter().position(|h| h == "double_updates").unwrap();
    for row in &rows[1..] {
        let (hz, lane, cell) = (&row[0], &row[1], &row[column]);
        let counted = lane == "godot" && hz != "25";
        assert_eq!(
            cell.parse::<u64>().is_ok(),
            counted,
            "{hz} Hz {lane}: {cell:?}"
        );
        assert_eq!(cell.is_empty(), !counted, "{hz} Hz {lane}: {cell:?}");
    }
    let out = run(&[&args[..], &["--json"]].concat());
    assert!(out.status.success());
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let summary = value["summary"].as_array().unwrap();
    assert!(
        summary[0]["double_updates_per_min"].is_null(),
        "{}",
        summary[0]
    );
    let godot = &summary[1]["double_updates_per_min"];
    for end in ["best", "worst"] {
        assert_ne!(godot[end]["display_hz"], 25.0, "25 Hz is n/a: {godot}");
    }
}

#[test]
fn the_rates_a_lane_did_not_hold_at_are_in_its_did_not_hold_column() {
    // The default width: `unstable step at 37 rates (30-66 Hz)` does not fit beside the
    // stutter, and once wrapped back to the line's start it read as a line of its own, under
    // a blank column.
    let args = [
        "sweep",
        "--display-hz",
        "30..70",
        "--lanes",
        "variable,fixed",
    ];
    let out = run(&[&args[..], &["--seconds", "2"]].concat());
    let table = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    let column = lines.iter().find_map(|l| l.find("did not hold")).unwrap();
    let row = lines
        .iter()
        .position(|l| l.starts_with("variable"))
        .unwrap();
    assert_eq!(
        lines[row].find("unstable step at 37 rates"),
        Some(column),
        "{table}"
    );
    // The cell goes on under its heading, not under the lane's name.
    assert!(lines[row + 1][..column].trim().is_empty(), "{table}");
    assert_eq!(lines[row + 1].trim(), "(30-66 Hz)", "{table}");
    assert!(lines[row + 2].starts_with("fixed"), "{table}");
}

#[test]
fn the_beat_table_says_what_the_run_can_and_cannot_show() {
    let args = ["sweep", "--display-hz", "59.94,60,119.88"];
    let lanes = [
        "--lanes",
        "godot,monogame,game-loop,glaiel",
        "--seconds",
        "60",
    ];
    let table = crate::support::run_text(&[&args[..], &lanes[..]].concat());
    let beats = table.split("beat period, s").nth(1).expect("a beat table");
    let cells = |lane: &str| -> Vec<String> {
        let row = beats.lines().find(|l| l.starts_with(&format!("{lane} ")));
        let row = row.unwrap_or_else(|| panic!("{lane}: {table}"));
        row.split_whitespace().skip(1).map(String::from).collect()
    };
    // 59.94 Hz, 60 Hz, 119.88 Hz. MonoGame's tick (166,667 × 100 ns) beats at 60 Hz every
    // 8,333 s: none in a minute, said so (once "8333.3/-"); it waits for its tick, so at
    // 119.88 Hz no frame runs one more or less (once "0.017/-"); three extra ticks 16.7 s
    // apart measure 16.7 s (once the run over three, 30.0 or 20.0).
    assert_eq!(
        cells("monogame"),
        ["16.7/16.7", "8333.3/>", "run", "-/-"],
        "{table}"
    );
    assert_eq!(cells("game-loop")[0], "16.7/16.7", "{table}");
    // A lone off-beat frame at the start is no beat (once "-/60.0"); Glaiel's snap takes
    // 59.94 Hz for 1/60 s, so its 60 Hz tick has no beat there (once "16.7/60.0").
    assert_eq!(cells("godot")[1], "-/-", "{table}");
    assert_eq!(cells("glaiel")[..2], ["-/-", "-/-"], "{table}");
}

#[test]
fn the_first_line_names_the_tick_the_modes_step() {
    // A new user read a sweep beside advise (whose presets are told 60 Hz) and could not tell
    // which tick the sweep ran.
    let args = "sweep --display-hz 60,144 --seconds 1 --lanes fixed --dt 60hz";
    let out = crate::support::run_text(&args.split(' ').collect::<Vec<_>>());
    let first = out.lines().next().unwrap_or_default();
    assert!(first.contains("× 1 lanes, dt 60hz, 1 s each"), "{first}");
}
