//! Replaying captures: PresentMon's own gold captures in its three column sets, the MangoHud
//! and CapFrameX layouts (hand-written fixtures), and this program's own trace and frame log,
//! round trip.

use crate::support::*;
use std::path::{Path, PathBuf};
use timestep_lab::hosts::replay::{self, CaptureSummary, ReplayConfig, Selection};
use timestep_lab::hosts::simulate::{
    self, Controls, DisplayConfig, FrameRecord, RenderCost, SimConfig,
};
use timestep_lab::model::lane::{LaneReport, parse_lanes};
use timestep_lab::model::rope::RopeParams;
use timestep_loop::TimingConfig;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn gold(case: usize, set: &str) -> PathBuf {
    data(&format!("presentmon/test_case_{case}{set}.csv"))
}

fn config(capture: &Path, lanes: &str, clamp_ns: u64) -> ReplayConfig {
    ReplayConfig {
        capture: capture.to_owned(),
        app: None,
        swapchain: None,
        timing: TimingConfig::textbook(MS, clamp_ns, None).unwrap(),
        rope: RopeParams::default(),
        lanes: parse_lanes(lanes).unwrap(),
        max_substep: Default::default(),
        feedback_delay: timestep_lab::protocol::feedback::FEEDBACK_DELAY,
    }
}

fn opened(path: &Path, app: Option<&str>, swapchain: Option<&str>) -> (Selection, CaptureSummary) {
    replay::open(path, app, swapchain).unwrap_or_else(|e| panic!("{e}"))
}

/// Every presented frame of every lane.
fn frames_of(cfg: &ReplayConfig, s: &Selection, summary: &CaptureSummary) -> Vec<FrameRecord> {
    let mut frames = Vec::new();
    replay::run_with(cfg, s, summary, Controls::default(), |f| {
        frames.push(f.clone())
    })
    .unwrap_or_else(|e| panic!("{e:?}"));
    frames
}

/// The gold file's groups: (application, process, swap chain).
fn groups(path: &Path) -> Vec<[String; 3]> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim_start_matches('\u{feff}') == name)
            .unwrap()
    };
    let (a, p, s) = (
        col("Application"),
        col("ProcessID"),
        col("SwapChainAddress"),
    );
    let mut seen: Vec<[String; 3]> = Vec::new();
    for r in reader.records() {
        let r = r.unwrap();
        let key = [r[a].to_string(), r[p].to_string(), r[s].to_string()];
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    seen
}

/// The gold animation errors of `group`'s displayed frames, in order (`None`: NA).
fn animation_errors(
    path: &Path,
    group: &[String; 3],
    shown: &str,
    error: &str,
) -> Vec<Option<f64>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim_start_matches('\u{feff}') == name)
            .unwrap()
    };
    let (a, p, s) = (
        col("Application"),
        col("ProcessID"),
        col("SwapChainAddress"),
    );
    let (d, e) = (col(shown), col(error));
    reader
        .records()
        .map(|r| r.unwrap())
        .filter(|r| [&r[a], &r[p], &r[s]] == [&group[0], &group[1], &group[2]] && &r[d] != "NA")
        .map(|r| r[e].parse::<f64>().ok())
        .collect()
}

#[test]
fn msanimationerror_is_the_stutter_of_a_loop_that_animates_by_its_frame_start() {
    // PresentMon's MsAnimationError is (ΔCPU start − Δtime on screen) between displayed frames:
    // what a variable step shows against when it is seen. Every group of every gold capture,
    // in the current and the v2 column sets, frame by frame, to PresentMon's 0.1 µs.
    let mut compared = 0;
    for case in 0..=5 {
        for (set, shown, error) in [
            ("", "MsUntilDisplayed", "MsAnimationError"),
            ("_v2", "DisplayLatency", "AnimationError"),
        ] {
            let path = gold(case, set);
            for group in groups(&path) {
                let (selection, summary) = opened(&path, Some(&group[1]), Some(&group[2]));
                // No clamp in the way: the variable step is the whole frame.
                let cfg = config(&path, "variable", 10_000 * MS);
                let ours = frames_of(&cfg, &selection, &summary);
                let theirs = animation_errors(&path, &group, shown, error);
                assert_eq!(ours.len(), theirs.len(), "{} {group:?}", path.display());
                for (k, gold) in theirs.iter().enumerate().skip(1) {
                    let Some(gold) = gold else { continue };
                    let (a, b) = (&ours[k - 1], &ours[k]);
                    let stutter = (b.shown_ns as i128 - a.shown_ns as i128)
                        - (b.present_or_start_ns() as i128 - a.present_or_start_ns() as i128);
                    let ms = stutter as f64 / 1e6;
                    assert!(
                        (ms - gold).abs() < 0.00005,
                        "{} {group:?} displayed frame {k}: ours {ms}, PresentMon's {gold}",
                        path.display()
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 2_400, "{compared} frames compared");
}

#[test]
fn the_busiest_application_is_chosen_dwm_left_out_and_its_figures_summed_up() {
    let (s, summary) = opened(&gold(5, ""), None, None);
    assert_eq!(
        (s.app.as_str(), s.process.as_str()),
        ("PresentBench.exe", "24892")
    );
    assert_eq!(s.swapchain, "0x2A70D2CAC00");
    // PresentBench presents every ~11 ms into a 60 Hz compositor: a third never displayed.
    assert_eq!(
        (summary.frames, summary.displayed, summary.not_displayed),
        (258, 174, 84)
    );
    assert_eq!(summary.refresh_hz_estimate, Some(60.0));
    assert!(
        (summary.frame_ms.median - 11.065).abs() < 0.01,
        "{:?}",
        summary.frame_ms
    );
    let changes = summary
        .display_change_ms
        .unwrap_or_else(|| panic!("displayed"));
    assert!((changes.median - 16.664).abs() < 0.01, "{changes:?}");
    // The three column sets agree on what the frames were.
    let (_, v2) = opened(&gold(5, "_v2"), None, None);
    assert_eq!((v2.frames, v2.displayed), (258, 174));
    let (v1s, v1) = opened(&gold(5, "_v1"), None, None);
    assert_eq!(v1s.swapchain, "0x000002A70D2CAC00");
    assert_eq!(v1.not_displayed, 84);
    // dwm.exe only when asked for; a process by its ID.
    let (dwm, _) = opened(&gold(5, ""), Some("DWM.EXE"), None);
    assert_eq!(dwm.app, "dwm.exe");
    let (by_pid, _) = opened(&gold(0, ""), Some("11112"), None);
    assert_eq!(
        (by_pid.app.as_str(), by_pid.swapchain.as_str()),
        ("Presenter.exe", "0x0")
    );
}

#[test]
fn a_display_time_that_goes_back_is_replayed_as_captured_and_counted() {
    // test_case_4, Presenter.exe 5236: one frame reached the screen before the frame before it.
    let (_, summary) = opened(&gold(4, ""), Some("5236"), None);
    assert_eq!(summary.display_out_of_order, 1);
}

#[test]
fn mangohud_and_capframex_layouts_are_read_by_their_names() {
    let (s, m) = opened(&data("fixtures/mangohud_with_info.csv"), None, None);
    assert_eq!(s.app, "mangohud_with_info");
    assert_eq!((m.frames, m.displayed, m.format), (40, 40, "MangoHud CSV"));
    assert_eq!(
        m.refresh_hz_estimate, None,
        "MangoHud logs no display times"
    );
    assert!((m.frame_ms.max - 41.387).abs() < 0.001, "{:?}", m.frame_ms);
    let (_, v) = opened(&data("fixtures/mangohud_versioned.csv"), None, None);
    assert_eq!(v.frames, 12);
    let (_, p) = opened(&data("fixtures/mangohud_plain.csv"), None, None);
    assert_eq!(p.frames, 20);
    let (s, c) = opened(&data("fixtures/capframex.json"), None, None);
    assert_eq!(s.app, "ExampleGame.exe");
    assert_eq!((c.frames, c.displayed, c.not_displayed), (40, 38, 2));
    let err = replay::open(&data("fixtures/mangohud_with_info_summary.csv"), None, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("_summary.csv") && err.contains("per-frame log"),
        "{err}"
    );
}

/// A simulate run's trace, replayed lane by lane.
#[test]
fn simulates_trace_replayed_gives_simulates_reports_for_every_lane_that_does_not_pace_itself() {
    let lanes = "modes,godot,bevy,unity,game-loop,glaiel,fixed+snap,fixed+fuzzy59";
    let cfg = SimConfig {
        timing: TimingConfig::textbook(MS, 250 * MS, None).unwrap(),
        rope: RopeParams::default(),
        display: DisplayConfig {
            display_hz: 60.0,
            render_cost: RenderCost::Uniform(2 * MS, 24 * MS),
            duration_ns: 20 * S,
            ..Default::default()
        },
        lanes: parse_lanes(lanes).unwrap(),
        max_substep: Default::default(),
        draw: None,
        physics: true,
    };
    let path = std::env::temp_dir().join(format!("timestep-rope-trace-{}.csv", std::process::id()));
    let file = crate::pending::for_flag("--trace", Some(&path))
        .unwrap()
        .unwrap();
    let mut trace = simulate::Trace::new(file);
    let controls = Controls {
        step_starts: true,
        ..Controls::default()
    };
    let sim = simulate::run_with(&cfg, controls, |f| trace.row(f)).unwrap();
    trace.finish().unwrap().commit().unwrap();
    for (spec, ran) in cfg.lanes.iter().zip(&sim.lanes) {
        let name = spec.to_string();
        let (selection, summary) = opened(&path, Some(&name), None);
        assert_eq!(summary.refresh_hz_estimate, Some(60.0));
        let mut rcfg = config(&path, &name, 250 * MS);
        rcfg.app = Some(name.clone());
        let replayed: Vec<LaneReport> = replay::run(&rcfg, &selection, &summary).unwrap();
        let (mut ours, mut theirs) = (replayed[0].clone(), ran.report.clone());
        ours.peak_rss_kib = None;
        theirs.peak_rss_kib = None;
        // A capture does not say how its game waited; the simulated machine measured it.
        assert_eq!(theirs.pacing.spin_cpu_ms, Some(0.0));
        theirs.pacing.spin_cpu_ms = None;
        assert_eq!(ours, theirs, "{name}");
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn monogames_wait_is_open_loop_on_a_capture_and_says_so() {
    let cfg = config(&gold(5, ""), "monogame,fixed", 250 * MS);
    let (s, summary) = opened(&gold(5, ""), None, None);
    let reports = replay::run(&cfg, &s, &summary).unwrap();
    assert!(reports[0].open_loop.is_some() && reports[1].open_loop.is_none());
    // At about 90 fps most frames hold less than MonoGame's 60 Hz tick: those sit out, and
    // every frame it ran holds a tick.
    assert_eq!(reports[0].vblanks.zero_step_frames, 0);
    assert!(reports[0].shown.frames < reports[1].shown.frames);
}

#[test]
fn a_bad_capture_is_one_line_naming_the_file_and_where_with_status_2() {
    let dir = std::env::temp_dir().join(format!("timestep-rope-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let header = "Application,ProcessID,SwapChainAddress,CPUStartQPC,MsCPUBusy,MsUntilDisplayed";
    let cases: [(&str, String, &[&str], &[&str]); 9] = [
        ("empty.csv", String::new(), &[], &["empty"]),
        ("blank.csv", "\n\n  \n".into(), &[], &["empty"]),
        (
            "unknown.csv",
            "time,value\n1,2\n".into(),
            &[],
            &["no format matches", "PresentMon", "MangoHud", "CapFrameX"],
        ),
        (
            "no-app.csv",
            format!("{header}\ngame.exe,7,0x1,100,1.0,2.0\n"),
            &["--app", "other.exe"],
            &["no frames of 'other.exe'", "game.exe (1 frames)"],
        ),
        (
            "bad-number.csv",
            format!("{header}\ngame.exe,7,0x1,100,1.0,2.0\ngame.exe,7,0x1,200,fast,2.0\n"),
            &[],
            &["line 3", "column MsCPUBusy", "'fast' is not a number"],
        ),
        (
            "backwards.csv",
            format!("{header}\ngame.exe,7,0x1,100000,1.0,2.0\ngame.exe,7,0x1,50000,1.0,NA\n"),
            &[],
            &["line 3", "time goes backwards", "line 2"],
        ),
        (
            "no-chain.csv",
            format!("{header}\ngame.exe,7,0x1,100,1.0,2.0\n"),
            &["--swapchain", "0x2"],
            &["no swap chain 0x2", "0x1 (1 frames)"],
        ),
        (
            "only-dwm.csv",
            format!("{header}\ndwm.exe,7,0x1,100,1.0,2.0\n"),
            &[],
            &["compositor", "--app dwm.exe"],
        ),
        (
            "short-row.csv",
            format!("{header}\ngame.exe,7,0x1,100\ngame.exe,7,0x1,200,1.0,2.0\n"),
            &[],
            &["line 2", "4 fields where the header has 6"],
        ),
    ];
    for (name, content, flags, says) in cases {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let path = path.to_str().unwrap();
        // The subcommand, and the window's --replay (checked before any window opens, so
        // the same line comes without a display).
        for mut args in [vec!["replay", path], vec!["--replay", path]] {
            args.extend_from_slice(flags);
            let out = run_bin(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
            assert!(stderr.contains(name), "{name} not named: {stderr}");
            for word in says {
                assert!(
                    stderr.contains(word),
                    "{args:?} should say {word}: {stderr}"
                );
            }
            assert!(out.stdout.is_empty(), "{args:?} printed a report");
        }
    }
    let out = run_bin(&["--app", "game.exe"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--app") && stderr.contains("--replay"),
        "{stderr}"
    );
    let out = run_bin(&["replay", "/nonexistent-dir/capture.csv"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("capture.csv") && stderr.contains("cannot read"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_prints_the_captures_summary_above_the_lanes_and_json_has_it() {
    let path = gold(5, "");
    let out = run_bin(&[
        "replay",
        path.to_str().unwrap(),
        "--lanes",
        "fixed,monogame",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("replayed "), "{text}");
    assert!(
        text.contains("258 frames over 2.892 s: 174 displayed, 84 never displayed"),
        "{text}"
    );
    assert!(
        text.contains("monogame* ") && text.contains("* monogame ran open loop"),
        "{text}"
    );
    let out = run_bin(&[
        "replay",
        path.to_str().unwrap(),
        "--lanes",
        "fixed",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let capture = &json["capture"];
    for key in [
        "format",
        "app",
        "swapchain",
        "frames",
        "displayed",
        "not_displayed",
        "generated_skipped",
        "span_s",
        "clock",
        "display_times",
        "frame_ms",
        "display_change_ms",
        "refresh_hz_estimate",
    ] {
        assert!(!capture[key].is_null(), "capture.{key} missing: {capture}");
    }
    assert_eq!(capture["frame_ms"]["median"], 11.065);
    assert_eq!(capture["refresh_hz_estimate"], 60.0);
    assert_eq!(capture["refresh"], "paced");
    assert_eq!(json["lanes"][0]["lane"], "fixed");
}

#[test]
fn the_summary_says_why_a_capture_has_no_refresh() {
    // 60 Hz on screen, but 16 display changes are too few for the vsync detector to decide;
    // MangoHud keeps no display times at all, so its changes are the presents'.
    let says = |path: &Path, line: &str| {
        let out = run_bin(&["replay", path.to_str().unwrap(), "--lanes", "fixed"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.lines().any(|l| l.starts_with(line)), "{line}: {text}");
        text.into_owned()
    };
    let short = says(&gold(0, ""), "display changes: median 16.679 ms");
    assert!(short.contains("; refresh too few to tell"), "{short}");
    let mangohud = says(&data("fixtures/mangohud_plain.csv"), "presents: median");
    let summary_lines = mangohud.split("\ndt ").next().unwrap();
    assert!(!summary_lines.contains("refresh"), "{mangohud}");
    let (_, summary) = opened(&data("fixtures/mangohud_plain.csv"), None, None);
    assert_eq!(
        (summary.refresh, summary.refresh_hz_estimate),
        ("no display times", None)
    );
}

#[test]
fn captures_are_read_in_any_capitalisation_with_quotes_crlf_and_milliseconds() {
    let dir = std::env::temp_dir().join(format!("timestep-rope-caps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("written-by-another-tool.csv");
    let mut text = String::from(
        "\u{feff}\"application\",\"processid\",\"swapchainaddress\",CPUSTARTTIME,mscpubusy,msuntildisplayed\r\n",
    );
    for i in 0..200u32 {
        let start = 1000.0 + f64::from(i) * 16.6667;
        text += &format!("\"my game, the sequel.exe\",7,0x10,{start:.4},4.0000,9.0000\r\n");
    }
    std::fs::write(&path, text).unwrap();
    let (s, summary) = opened(&path, None, None);
    assert_eq!(s.app, "my game, the sequel.exe");
    assert_eq!((summary.frames, summary.displayed), (200, 200));
    assert!(
        (summary.frame_ms.median - 16.666).abs() < 0.002,
        "{:?}",
        summary.frame_ms
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many lanes [`every_lane`] names.
fn every_lane_count() -> usize {
    use timestep_loop::{Mode, Preset, TimerKind};
    (Mode::ALL.len() + Preset::ALL.len()) * TimerKind::ALL.len()
}

/// Every lane there is: each mode with each timer, and each preset with each timer.
fn every_lane() -> String {
    use timestep_loop::{Mode, Preset, TimerKind};
    let modes = Mode::ALL.map(Mode::name);
    let presets = Preset::ALL.map(Preset::name);
    let lanes: Vec<String> = modes
        .iter()
        .chain(&presets)
        .flat_map(|b| TimerKind::ALL.map(|t| format!("{b}+{}", t.name())))
        .collect();
    lanes.join(",")
}

/// A capture written to a temporary file.
fn capture_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("timestep-rope-gaps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Replays `path` in every lane; each lane's books must balance.
fn replay_every_lane(path: &Path) -> Vec<LaneReport> {
    let cfg = config(path, &every_lane(), 250 * MS);
    let (s, summary) = opened(path, None, None);
    let reports = replay::run(&cfg, &s, &summary).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(reports.len(), every_lane_count());
    for r in &reports {
        let b = &r.books;
        let left = i128::from(b.measured_ns) + i128::from(b.invented_ns);
        let right =
            i128::from(b.consumed_ns) + i128::from(b.dropped_ns) + i128::from(b.remainder_ns);
        assert_eq!(left, right, "{}: {b:?}", r.lane);
    }
    reports
}

#[test]
fn a_gap_of_a_billion_seconds_costs_every_lane_bounded_work_and_its_books_balance() {
    // 200 frames paced at 60 Hz, then one a billion seconds later. Before, glaiel (no clamp,
    // no cap) integrated all 6e10 ticks of the gap (about 11 hours), and every lane on the
    // paced refresh counted its 6e10 skipped vblanks one by one (half an hour a lane).
    let mut text = String::from("lane,start_s,present_s\n");
    for i in 0..200 {
        let t = f64::from(i) / 60.0;
        text += &format!("x,{t:.6},{:.6}\n", t + 1.0 / 60.0);
    }
    text += "x,1000000000,1000000000.016667\n";
    let reports = replay_every_lane(&capture_file("gap.csv", &text));
    for r in &reports {
        // The gap was stepped as each loop's clamp and cap say, the rest dropped: at most
        // 65,536 ticks in its frame on top of the 200 frames' few thousand.
        assert!(
            r.shown.steps < 70_000 + 200 * 20,
            "{}: {}",
            r.lane,
            r.shown.steps
        );
        assert!(r.books.consumed_ns < 2_000 * S, "{}", r.lane);
        if r.lane.ends_with("+raw") {
            assert!(r.books.dropped_ns > 999_990_000 * S, "{}", r.lane);
        }
        if r.vsync.vsync_detected {
            // About 6e10 refresh cycles of the gap, at the rate the capture measured.
            assert!(
                r.vblanks.skipped_vblanks.abs_diff(60_000_000_000) < 10_000_000,
                "{}: {}",
                r.lane,
                r.vblanks.skipped_vblanks
            );
        }
    }
    assert!(reports.iter().any(|r| r.vsync.vsync_detected));
}

/// A MangoHud capture (`fps,frametime,elapsed`: ms, and ns since the start) of `rows` frames
/// `gap_s` apart.
fn gaps_capture(rows: u64, gap_s: u64) -> PathBuf {
    let mut text = String::from("fps,frametime,elapsed\n");
    for i in 1..=rows {
        text += &format!(
            "{},{}.0,{}\n",
            1.0 / gap_s as f64,
            gap_s * 1_000,
            i * gap_s * S
        );
    }
    capture_file(&format!("gaps-{rows}-{gap_s}.csv"), &text)
}

/// Each lane's name, ticks in all and most ticks in one frame, replayed on `path`.
fn ticks_of(path: &Path, lanes: &str) -> Vec<(String, u64, u64)> {
    let (s, summary) = opened(path, None, None);
    let reports = replay::run(&config(path, lanes, 250 * MS), &s, &summary)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let most = |r: &LaneReport| {
        let counts = r.shown.steps_histogram.keys().map(|k| u64::from(*k));
        counts.max().unwrap_or(0)
    };
    let of = |r: &LaneReport| (r.lane.clone(), r.shown.steps, most(r));
    reports.iter().map(of).collect()
}

#[test]
fn replays_work_grows_with_the_rows_and_not_with_the_gaps() {
    // Frames 20 minutes apart, as /tmp/gaps.csv: no refresh rate can be known from them.
    // Before, glaiel applied neither of Glaiel's limits without one and ran the 65,536-tick
    // ceiling in every frame (500 such rows: 25 s). Every lane whose rules bound a frame
    // stays within them; the gap's length costs nothing, a row costs at most one frame's
    // bound. Glaiel's limits come with his timer: glaiel+raw, glaiel+smooth and
    // glaiel+display have none.
    let unbounded = ["glaiel+raw", "glaiel+smooth", "glaiel+display"];
    let lanes = every_lane();
    let lanes: Vec<&str> = lanes
        .split(',')
        .filter(|l| !unbounded.contains(l))
        .collect();
    let lanes = lanes.join(",");
    let minutes = ticks_of(&gaps_capture(40, 1_200), &lanes);
    let days = ticks_of(&gaps_capture(40, 20 * 86_400), &lanes);
    let twice = ticks_of(&gaps_capture(80, 1_200), &lanes);
    assert_eq!(minutes.len(), every_lane_count() - unbounded.len());
    for ((m, d), t) in minutes.iter().zip(&days).zip(&twice) {
        // The most of any lane here: the 250 ms clamp of 1 ms ticks.
        assert!(m.2 <= 250 && t.2 <= 250, "{m:?} {t:?}");
        assert_eq!(m, d, "the gap's length changed the work");
        assert!(t.1 <= 2 * m.1 + 250, "{m:?} {t:?}");
    }
    // A lane with no limit of its own gets what it asked for, up to the ceiling.
    for (lane, _, most) in ticks_of(&gaps_capture(2, 1_200), &unbounded.join(",")) {
        assert_eq!(most, u64::from(timestep_loop::MAX_FRAME_STEPS), "{lane}");
    }
}

#[test]
fn a_frame_busy_for_31_years_costs_every_lane_bounded_work_and_its_books_balance() {
    // One corrupted cell (PresentMon MsCPUBusy = 1e12, 31 years, within the readers' limit of
    // 2^62 ns; 1e38 is refused by the reader) puts the last frame on screen decades later:
    // before, its skipped vblanks were counted one by one for hours.
    let mut text = String::from(
        "Application,ProcessID,SwapChainAddress,CPUStartQPC,MsCPUBusy,MsUntilDisplayed\n",
    );
    for i in 0..200u64 {
        let busy = if i == 199 { "1e12" } else { "1.0" };
        text += &format!("game.exe,7,0x1,{},{busy},2.0\n", 100 + i * 166_667);
    }
    let reports = replay_every_lane(&capture_file("busy.csv", &text));
    let skipped: Vec<u64> = reports.iter().map(|r| r.vblanks.skipped_vblanks).collect();
    assert!(
        skipped.iter().any(|&n| n > 50_000_000_000),
        "the frame at the end of time skipped its vblanks: {skipped:?}"
    );
}

#[test]
fn ctrl_c_stops_a_glaiel_replay_at_the_frame_after_a_gap() {
    // Ctrl-C pressed while glaiel stepped a 100-day gap: before, that one frame took 331 s
    // before the run polled the flag again; now the frame is bounded and the run stops at
    // the next frame boundary, the second gap never begun.
    let day = 86_400.0;
    let mut text = String::from("lane,start_s,present_s\n");
    for t in [0.0, 0.0166, 100.0 * day, 100.0 * day + 0.0166, 200.0 * day] {
        text += &format!("x,{t},{}\n", t + 0.0166);
    }
    let path = capture_file("two-gaps.csv", &text);
    let cfg = config(&path, "glaiel", 250 * MS);
    let (s, summary) = opened(&path, None, None);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let controls = Controls {
        stop: Some(&stop),
        ..Default::default()
    };
    let mut seen = Vec::new();
    let outcome = replay::run_with(&cfg, &s, &summary, controls, |f| {
        seen.push(f.frame);
        if f.start_ns >= 100 * 86_400 * S {
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    })
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(outcome.interrupted);
    assert_eq!(seen, [0, 1, 2], "stopped after the first gap's frame");
    assert_eq!(outcome.span_ns, 100 * 86_400 * S);
}

#[test]
fn a_lane_that_explodes_on_a_capture_is_marked_so_in_the_table_and_the_json() {
    // MangoHud's frames reach 41 ms: variable steps that long tear the rope apart.
    let path = data("fixtures/mangohud_with_info.csv");
    let path = path.to_str().unwrap();
    let v = run_json(&["replay", path, "--lanes", "variable,fixed", "--json"]);
    let lanes = v["lanes"].as_array().unwrap();
    let states: Vec<&str> = lanes.iter().map(|l| l["state"].as_str().unwrap()).collect();
    assert_eq!(states, ["exploded", "ok"]);
    let out = run_bin(&["replay", path, "--lanes", "variable,fixed"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let row = |lane: &str| {
        let mut rows = text.lines().filter(|l| !l.contains("stable below"));
        let found = rows.find(|l| l.split_whitespace().next() == Some(lane));
        found.unwrap_or("").to_string()
    };
    assert!(row("variable").contains("exploded"), "{text}");
    assert!(
        row("fixed").split_whitespace().nth(1) == Some("ok"),
        "{text}"
    );
}

/// `replay`'s text output of `path` in `lanes`, and its `--json` object.
fn replayed(path: &Path, lanes: &str) -> (String, serde_json::Value) {
    let args = ["replay", path.to_str().unwrap(), "--lanes", lanes];
    let out = run_bin(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = run_bin(&[&args[..], &["--json"]].concat());
    let json = serde_json::from_slice(&json.stdout).unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), json)
}

#[test]
fn the_summary_says_why_lanes_differ_on_gold_capture_5_each_reason_measured() {
    // PresentBench renders every ~11 ms into a 60 Hz compositor: a third of its frames are
    // never shown, and a frame's CPU start is 5.5 ms rms off its time on screen, which is what
    // interpolated shows (100 times game-loop's stutter).
    let (text, json) = replayed(&gold(5, ""), "interpolated,game-loop");
    let why = text.split("why lanes differ here:\n").nth(1).expect(&text);
    let lines: Vec<&str> = why.lines().take_while(|l| l.starts_with("  ")).collect();
    let why = lines.join(" ");
    for said in [
        "84 of 258 frames (32.6%) never reached the screen",
        "PresentBench.exe began 88.9 frames a second on a display showing 60.0",
        "interpolated blends to each frame's CPU start time, which is 5.536 ms rms off",
    ] {
        assert!(why.contains(said), "{said}: {text}");
    }
    let reasons = json["why_lanes_differ"].as_array().unwrap();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    let capture = &json["capture"];
    let error = capture["start_error_rms_ms"].as_f64().unwrap();
    let interpolated = json["lanes"][0]["stutter_rms_ms"].as_f64().unwrap();
    assert!(
        (error - interpolated).abs() < 0.001,
        "{error} against {interpolated}"
    );
    assert!((capture["render_fps"].as_f64().unwrap() - 88.9).abs() < 0.05);
    // Without a blending lane, the blending line is not said.
    let (text, _) = replayed(&gold(5, ""), "fixed,game-loop");
    assert!(text.contains("never reached the screen"), "{text}");
    assert!(!text.contains(" blend"), "{text}");
}

#[test]
fn the_start_error_is_presentmons_animation_error_on_every_gold_capture() {
    // The summary's start_error_rms_ms is the RMS of PresentMon's own MsAnimationError over
    // the displayed frames of the group replayed.
    for case in 0..=5 {
        for (set, shown, error) in [
            ("", "MsUntilDisplayed", "MsAnimationError"),
            ("_v2", "DisplayLatency", "AnimationError"),
        ] {
            let path = gold(case, set);
            let (_, summary) = opened(&path, None, None);
            let group = [
                summary.app.clone(),
                summary.process.clone(),
                summary.swapchain.clone(),
            ];
            let theirs: Vec<f64> = animation_errors(&path, &group, shown, error)
                .into_iter()
                .skip(1)
                .flatten()
                .collect();
            let rms = (theirs.iter().map(|e| e * e).sum::<f64>() / theirs.len() as f64).sqrt();
            let ours = summary.start_error_rms_ms.unwrap();
            assert!(
                (ours - rms).abs() < 0.0001,
                "{}: ours {ours}, PresentMon's {rms}",
                path.display()
            );
        }
    }
}

#[test]
fn a_capture_shown_as_it_was_rendered_gives_no_reason_for_lanes_to_differ() {
    // 300 frames begun exactly every 16.6667 ms, each on screen 11.25 ms later, none lost: the
    // game renders at its display's rate and a frame's start keeps time with the screen.
    let mut text =
        "Application,ProcessID,SwapChainAddress,FrameType,CPUStartQPC,MsCPUBusy,MsUntilDisplayed\n"
            .to_string();
    for i in 0..300u64 {
        text += &format!(
            "game.exe,42,0x1F00,Application,{},3.2500,8.0000\n",
            i * 166_667
        );
    }
    let path = capture_file("steady.csv", &text);
    let (text, json) = replayed(&path, "interpolated,game-loop");
    assert!(text.contains("300 frames over"), "{text}");
    assert!(!text.contains("why lanes differ"), "{text}");
    assert_eq!(json["why_lanes_differ"], serde_json::json!([]));
    let capture = &json["capture"];
    assert!(
        capture["start_error_rms_ms"].as_f64().unwrap() < 0.001,
        "{capture}"
    );
    let (render, display) = (
        capture["render_fps"].as_f64(),
        capture["display_fps"].as_f64(),
    );
    assert!(
        (render.unwrap() - display.unwrap()).abs() < 0.01,
        "{capture}"
    );
}

/// The books of `lane`, a lane report in JSON: measured, consumed, dropped, remainder and
/// invented, ns.
fn books_of(lane: &serde_json::Value) -> [i128; 5] {
    let ns = |k: &str| {
        let v = &lane[k];
        v.as_i64()
            .map(i128::from)
            .or(v.as_u64().map(i128::from))
            .unwrap_or_else(|| panic!("{k} in {lane}"))
    };
    [
        ns("measured_ns"),
        ns("consumed_ns"),
        ns("dropped_ns"),
        ns("remainder_ns"),
        ns("invented_ns"),
    ]
}

#[test]
fn every_lanes_time_adds_up_to_the_time_replayed_on_every_gold_capture() {
    // Capture 5 never displays 84 of its 258 frames: before, their ticks (930 of the fixed
    // lane's 2,891, 0.93 s) were in no frame's count, so its histogram covered 1.96 s of 2.89;
    // and MonoGame sitting out capture 1's last frames lost their 9 ms from its books.
    for case in 0..=5 {
        for set in ["", "_v1", "_v2"] {
            let path = gold(case, set);
            let v = run_json(&["replay", path.to_str().unwrap(), "--json"]);
            let replayed_ns = (v["replayed_s"].as_f64().unwrap() * 1e9).round() as i128;
            for lane in v["lanes"].as_array().unwrap() {
                let [measured, consumed, dropped, remainder, invented] = books_of(lane);
                let at = format!("{} on {}", lane["lane"], path.display());
                assert_eq!(measured, replayed_ns, "{at}");
                assert_eq!(
                    consumed + dropped + remainder,
                    replayed_ns + invented,
                    "{at}"
                );
                let tick_ns = (lane["policy"]["tick_s"].as_f64().unwrap() * 1e9).ceil() as i128;
                // Less than a tick, or up to half a tick more under Godot's jitter fix.
                assert!(
                    2 * remainder.abs() <= 3 * tick_ns,
                    "{at}: {remainder} ns left over"
                );
                let histogram = lane["steps_histogram"].as_object().unwrap();
                let shown: u64 = histogram
                    .iter()
                    .map(|(k, n)| k.parse::<u64>().unwrap() * n.as_u64().unwrap())
                    .sum();
                let after = lane["steps_after_last_shown"].as_u64();
                assert_eq!(
                    Some(shown + after.unwrap_or(u64::MAX)),
                    lane["steps"].as_u64(),
                    "{at}"
                );
            }
        }
    }
    let text = run_text(&["replay", gold(5, "").to_str().unwrap()]);
    assert!(
        text.contains("time replayed: 2891.562300 ms, the first frame's start to the last's"),
        "{text}"
    );
    assert!(
        text.contains("fixed           2891.000000     0.000000     0.562300     0.000000"),
        "{text}"
    );
}

#[test]
fn wide_figures_stay_apart_in_every_table_replay_prints() {
    // Frames twenty minutes apart: hundreds of millions of ms dropped, wider than any column's
    // usual width. Each row still splits into its columns.
    let dir = scratch("wide");
    let path = dir.join("gaps.csv");
    let mut csv = String::from("fps,frametime,elapsed\n");
    for i in 1..=20u64 {
        csv += &format!("0.000833,1200000.0,{}\n", i * 1_200_000_000_000);
    }
    std::fs::write(&path, csv).unwrap();
    let text = run_text(&["replay", path.to_str().unwrap(), "--wide"]);
    let books = text
        .split("where each lane's went, ms:")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let rows: Vec<&str> = books
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("simulated +"))
        .collect();
    assert_eq!(rows.len(), 10, "{books}");
    for row in rows {
        assert_eq!(row.split_whitespace().count(), 5, "{row}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
