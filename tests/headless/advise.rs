//! `advise`: it never picks a loop that did not hold, its pick is the best by the rule it prints,
//! its verdicts on the textbook situations, its figures against replay's on a gold capture, its
//! width, and the line that points `simulate`, `sweep` and `replay` at it. All on the simulated
//! clock (or a capture's own).

use crate::support::{bin, run_json as json, run_text as text};
use serde_json::Value;
use timestep_lab::analyses::advise::{
    CPU_STEP_PERCENT, FPS_STEP, LATENCY_STEP_MS, RULE, STUTTER_STEP_MS,
};

const CAPTURE: &str = "tests/data/presentmon/test_case_5.csv";

/// `advise ARGS --json`, parsed.
fn advise(args: &[&str]) -> Value {
    let mut all = vec!["advise", "--json"];
    all.extend_from_slice(args);
    json(&all)
}

fn list(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("not a list: {v}"))
}

fn name(v: &Value) -> (String, String) {
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    (s("lane"), s("pacing"))
}

/// A ranked loop's key under the rule, from its printed figures.
fn key(r: &Value) -> (u64, bool, u64, std::cmp::Reverse<u64>, u64) {
    let steps = |v: f64, step: f64| (v / step).floor() as u64;
    let f = |k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
    let latency = r["latency_mean_ms"]
        .as_f64()
        .map_or(u64::MAX, |l| steps(l, LATENCY_STEP_MS));
    (
        steps(f("stutter_rms_ms"), STUTTER_STEP_MS),
        r["deterministic"] != Value::Bool(true),
        latency,
        std::cmp::Reverse((f("fps") / FPS_STEP).round() as u64),
        steps(f("cpu_percent"), CPU_STEP_PERCENT),
    )
}

/// The rule's checks on one verdict: nothing dropped is ranked, the ranking is in the rule's
/// order, the pick is its first and the runner-up its second.
fn obeys_its_rule(v: &Value) {
    assert_eq!(v["rule"], RULE);
    let ranking = list(&v["ranking"]);
    let dropped: Vec<_> = list(&v["dropped"]).iter().map(name).collect();
    for r in ranking {
        assert!(
            !dropped.contains(&name(r)),
            "{:?} is ranked and dropped",
            name(r)
        );
    }
    for d in list(&v["dropped"]) {
        assert_ne!(d["state"], "ok", "{d}");
    }
    for pair in ranking.windows(2) {
        assert!(
            key(&pair[0]) <= key(&pair[1]),
            "{} before {}",
            pair[0],
            pair[1]
        );
    }
    assert_eq!(v["recommended"], ranking[0]);
    assert_eq!(v["runner_up"], ranking[1]);
}

#[test]
fn it_never_picks_a_loop_that_exploded_or_fell_behind_on_the_same_run() {
    // Unsubstepped, the presets' 60 Hz ticks and variable's 60 Hz steps tear the rope apart
    // (its stable step is 15.07 ms); timer noise starves fuzzy59's window, which falls behind.
    let flags = [
        "--dt",
        "10ms",
        "--max-substep",
        "off",
        "--jitter",
        "300us",
        "--seconds",
        "5",
    ];
    let v = advise(&flags);
    obeys_its_rule(&v);
    let states: Vec<String> = list(&v["dropped"])
        .iter()
        .map(|d| d["state"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(states.iter().any(|s| s == "exploded"), "{states:?}");
    assert!(states.iter().any(|s| s == "fallen behind"), "{states:?}");
    // The same lanes in simulate, on the same flags: the ranked are exactly those that held.
    let lanes: Vec<String> = list(&v["ranking"])
        .iter()
        .chain(list(&v["dropped"]))
        .map(|r| name(r).0)
        .collect();
    let joined = lanes.join(",");
    let mut args = vec!["simulate", "--json", "--lanes", &joined];
    args.extend_from_slice(&flags);
    let sim = json(&args);
    for lane in list(&sim["lanes"]) {
        let held = lane["state"] == "ok";
        let ranked = list(&v["ranking"])
            .iter()
            .any(|r| r["lane"] == lane["lane"]);
        assert_eq!(held, ranked, "{}: state {}", lane["lane"], lane["state"]);
    }
}

#[test]
fn a_tick_equal_to_the_refresh_with_timer_noise_is_not_left_to_a_raw_accumulator() {
    let v = advise(&[
        "--display-hz",
        "60",
        "--dt",
        "60hz",
        "--jitter",
        "300us",
        "--render-cost",
        "5ms",
        "--seconds",
        "20",
    ]);
    obeys_its_rule(&v);
    let pick = &v["recommended"];
    for raw in ["fixed", "interpolated", "game-loop"] {
        assert_ne!(pick["lane"], raw);
    }
    let fixed = list(&v["ranking"])
        .iter()
        .find(|r| r["lane"] == "fixed")
        .unwrap_or_else(|| panic!("fixed held"));
    let stutter = |r: &Value| r["stutter_rms_ms"].as_f64().unwrap_or(f64::MAX);
    assert!(
        stutter(fixed) > 5.0,
        "the raw accumulator double-steps: {fixed}"
    );
    assert!(stutter(pick) < 0.25, "{pick}");
}

#[test]
fn on_a_vrr_panel_with_a_varying_render_it_paces_steadily() {
    let v = advise(&[
        "--vrr",
        "48..144",
        "--render-cost",
        "4ms..14ms",
        "--jitter",
        "300us",
        "--dt",
        "60hz",
        "--seconds",
        "20",
    ]);
    obeys_its_rule(&v);
    let pacing = v["recommended"]["pacing"].as_str().unwrap_or_default();
    assert!(pacing.starts_with("hold:"), "{}", v["recommended"]);
    // What it beat: the best loop presenting as soon as each frame is ready.
    let ready = list(&v["ranking"]).iter().find(|r| r["pacing"] == "vsync");
    let ready = ready.unwrap_or_else(|| panic!("a vsync-paced loop held"));
    assert!(ready["stutter_rms_ms"].as_f64() > Some(1.0), "{ready}");
}

#[test]
fn on_gold_capture_5_its_figures_are_replays() {
    let v = advise(&[CAPTURE]);
    obeys_its_rule(&v);
    let ranking = list(&v["ranking"]);
    // The same loops at the same tick: advise's 60 Hz, its presets told it (`+tick=`).
    let lanes: Vec<&str> = ranking.iter().filter_map(|r| r["lane"].as_str()).collect();
    let lanes = lanes.join(",");
    let replay = json(&[
        "replay",
        CAPTURE,
        "--json",
        "--max-substep",
        "1ms",
        "--dt",
        "60hz",
        "--lanes",
        &lanes,
    ]);
    let mut compared = 0;
    for lane in list(&replay["lanes"]) {
        let Some(r) = ranking.iter().find(|r| r["lane"] == lane["lane"]) else {
            assert_ne!(lane["state"], "ok", "{} held in replay", lane["lane"]);
            continue;
        };
        assert_eq!(
            r["stutter_rms_ms"], lane["stutter_rms_ms"],
            "{}",
            lane["lane"]
        );
        assert_eq!(
            r["latency_mean_ms"], lane["latency_ms"]["mean"],
            "{}",
            lane["lane"]
        );
        assert_eq!(r["game_speed"], lane["game_speed"], "{}", lane["lane"]);
        compared += 1;
    }
    assert!(compared >= 8, "only {compared} lanes in common");
}

/// A loop that drops no time keeps the game's time, whatever its accumulator holds at the end:
/// advise's game speed is the books' kept time, so it cannot call a loop slow that replay shows
/// dropping nothing (capture 5: monogame and game-loop end holding half a 60 Hz tick, 8 ms).
#[test]
fn on_gold_capture_5_a_loop_that_drops_nothing_runs_the_game_at_speed_1() {
    let v = advise(&[CAPTURE]);
    let replay = json(&["replay", CAPTURE, "--json", "--max-substep", "1ms"]);
    let ranking = list(&v["ranking"]);
    for lane in list(&replay["lanes"]) {
        let ns = |k: &str| lane[k].as_f64().unwrap_or_else(|| panic!("{k} in {lane}"));
        let kept = ns("measured_ns") + ns("invented_ns") - ns("dropped_ns");
        let speed = lane["game_speed"].as_f64().unwrap_or(f64::NAN);
        assert!((speed - kept / ns("measured_ns")).abs() < 1e-12, "{lane}");
    }
    for loop_name in ["monogame", "game-loop"] {
        let r = ranking.iter().find(|r| r["lane"] == loop_name);
        let r = r.unwrap_or_else(|| panic!("{loop_name} ranked"));
        assert_eq!(r["game_speed"].as_f64(), Some(1.0), "{r}");
        assert!(!r["costs"].to_string().contains("slow"), "{r}");
    }
}

#[test]
fn every_line_fits_100_columns() {
    let situations: [&[&str]; 6] = [
        &[
            "advise",
            "--display-hz",
            "144",
            "--jitter",
            "2ms",
            "--seconds",
            "5",
        ],
        &[
            "advise",
            "--vrr",
            "48..144",
            "--render-cost",
            "4ms..14ms",
            "--seconds",
            "5",
        ],
        &["advise", CAPTURE, "--engine", "godot"],
        &[
            "advise",
            "--engine",
            "bevy",
            "--seconds",
            "5",
            "--vsync",
            "off",
            "--render-cost",
            "3ms",
        ],
        &[
            "advise",
            "--engine",
            "unity",
            "--seconds",
            "5",
            "--dt",
            "60hz",
        ],
        &[
            "advise",
            "--engine",
            "monogame",
            "--seconds",
            "5",
            "--machine",
            "windows-default",
        ],
    ];
    for args in situations {
        let out = text(args);
        assert!(out.contains("Rule: "), "{args:?}");
        for line in out.lines() {
            assert!(line.chars().count() <= 100, "{args:?}: {line}");
        }
    }
}

#[test]
fn an_engine_gets_its_own_settings_for_its_own_loops() {
    let v = advise(&["--engine", "godot", "--display-hz", "144", "--seconds", "5"]);
    for r in list(&v["ranking"]) {
        assert!(
            r["lane"].as_str().is_some_and(|l| l.starts_with("godot")),
            "{r}"
        );
    }
    let settings = list(&v["how"]["settings"]);
    let names: Vec<&str> = settings.iter().filter_map(|s| s["name"].as_str()).collect();
    assert!(
        names.contains(&"physics/common/physics_ticks_per_second"),
        "{names:?}"
    );
    let interpolation = settings
        .iter()
        .find(|s| s["name"] == "physics/common/physics_interpolation")
        .unwrap_or_else(|| panic!("{names:?}"));
    let blends = v["recommended"]["lane"]
        .as_str()
        .is_some_and(|l| l.contains("interpolated"));
    assert_eq!(interpolation["value"], blends.to_string());
}

#[test]
fn simulate_sweep_and_replay_end_with_advise_for_the_same_situation() {
    let sim = text(&[
        "--dt",
        "60hz",
        "simulate",
        "--display-hz",
        "144",
        "--jitter",
        "2ms",
    ]);
    let last = sim.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "For a verdict: timestep-rope advise --display-hz 144 --jitter 2ms --dt 60hz"
    );
    // The line runs as it is.
    let words: Vec<&str> = last.split_whitespace().skip(5).collect();
    let mut again = vec!["advise", "--seconds", "2"];
    again.extend(words);
    assert!(text(&again).contains("Recommended:"));

    let replay = text(&["replay", CAPTURE, "--lanes", "fixed"]);
    let last = replay.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        format!("For a verdict: timestep-rope advise {CAPTURE}")
    );

    let sweep = text(&[
        "sweep",
        "--display-hz",
        "60,144",
        "--seconds",
        "1",
        "--lanes",
        "fixed",
    ]);
    let last = sweep.lines().last().unwrap_or_default();
    // One second of 60 Hz is too short for a verdict: the line asks for the shortest that is not.
    assert_eq!(
        last,
        "For a verdict: timestep-rope advise --display-hz 60 --seconds 2"
    );
}

#[test]
fn a_simulated_run_that_showed_too_few_frames_is_a_verdict_with_a_warning() {
    // Frames of 5 to 60 ms: two seconds could hold 400 of them, and held 63.
    let slow = [
        "--render-cost",
        "5ms..60ms",
        "--vsync",
        "off",
        "--seconds",
        "2",
    ];
    let prose = text(&[&["advise"][..], &slow].concat());
    let prose = prose.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        prose.contains("Warning: too short for a verdict: 63 frames displayed over 2.000 s")
            && prose.contains("run longer (--seconds)"),
        "{prose}"
    );
    let v = advise(&slow);
    assert!(v.to_string().contains("too short for a verdict"), "{v}");
    assert!(!text(&["advise", "--seconds", "2"]).contains("Warning"));
}

/// The program's text for `args` run in `dir`, which must succeed.
fn text_in(dir: &std::path::Path, args: &[&str]) -> String {
    let out = bin()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The words after "For a verdict: timestep-rope" on the last line of `out`.
fn verdict_words(out: &str) -> Vec<String> {
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("For a verdict: timestep-rope advise"),
        "{out}"
    );
    last.split_whitespace()
        .skip(4)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_verdict_line_runs_as_printed_after_a_vrr_sweep_and_for_a_capture_named_like_a_flag() {
    // A --vrr sweep sets each configuration's render time from its --fps rate; advise --vrr
    // wants the render time given, and gets the first rate's.
    let sweep = text(&[
        "sweep",
        "--vrr",
        "48..144",
        "--fps",
        "50,90",
        "--seconds",
        "1",
        "--lanes",
        "fixed",
    ]);
    let words = verdict_words(&sweep);
    assert_eq!(
        words.join(" "),
        "advise --vrr 48..144 --render-cost 20ms --seconds 2.4"
    );
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    assert!(text(&args).contains("Recommended:"));

    // Frames of 5 to 25 ms on a panel: the line asks for a run long enough at 25 ms a frame
    // (120 of them: 3 s), where advise itself refuses only what is too short at 5 ms.
    let sim = text(&[
        "simulate",
        "--vrr",
        "48..144",
        "--lfc",
        "off",
        "--render-cost",
        "5ms..25ms",
        "--seconds",
        "1",
    ]);
    let words = verdict_words(&sim);
    assert!(words.join(" ").ends_with("--seconds 3"), "{words:?}");
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    assert!(!text(&args).contains("Warning: too short"), "{words:?}");

    // A capture whose name starts with '-' is given from the current directory.
    let dir = crate::support::scratch("advise-dash");
    std::fs::copy(CAPTURE, dir.join("-x.csv")).unwrap();
    let replay = text_in(&dir, &["replay", "--lanes", "fixed", "--", "-x.csv"]);
    let words = verdict_words(&replay);
    assert_eq!(words.join(" "), "advise ./-x.csv");
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    assert!(text_in(&dir, &args).contains("Recommended:"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_verdict_line_pastes_as_one_command() {
    let out = text(&[
        "simulate",
        "--display-hz",
        "144",
        "--jitter",
        "2ms",
        "--dt",
        "60hz",
        "--render-cost",
        "4ms..12ms",
        "--machine",
        "windows-default",
        "--step-cost",
        "1ms",
        "--seconds",
        "2",
        "--lanes",
        "fixed",
    ]);
    let at = out
        .rfind("For a verdict:")
        .unwrap_or_else(|| panic!("{out}"));
    let tail: Vec<&str> = out[at..].lines().collect();
    assert!(tail.iter().all(|l| l.chars().count() <= 100), "{tail:?}");
    // Each line but the last continues the command, and no flag is parted from its value.
    for line in &tail[1..tail.len() - 1] {
        assert!(line.ends_with(" \\"), "{line}");
    }
    for line in &tail[1..] {
        let last = line.trim_end_matches(" \\").split_whitespace().last();
        assert!(!last.is_some_and(|w| w.starts_with("--")), "{line}");
    }
    let command = tail[1..].join(" ").replace(" \\", " ");
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(&words[..2], ["timestep-rope", "advise"], "{tail:?}");
    assert!(
        words.windows(2).any(|w| w == ["--seconds", "2"]),
        "{tail:?}"
    );
}

#[test]
fn the_reference_states_the_rule_it_prints() {
    let reference = std::fs::read_to_string("docs/REFERENCE.md").expect("the reference");
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words(&reference).contains(&words(RULE)),
        "docs/REFERENCE.md lacks: {RULE}"
    );
}

/// A ranked loop of `v` by its lane and pacing.
fn find<'a>(v: &'a Value, lane: &str, pacing: &str) -> &'a Value {
    list(&v["ranking"])
        .iter()
        .find(|r| name(r) == (lane.to_string(), pacing.to_string()))
        .unwrap_or_else(|| panic!("{lane} ({pacing}) not ranked"))
}

#[test]
fn a_blending_cost_is_the_measured_difference_against_the_same_loop_unblended() {
    let v = advise(&["--engine", "godot", "--seconds", "2"]);
    let mut seen = 0;
    for r in list(&v["ranking"]) {
        let costs: Vec<&str> = list(&r["costs"]).iter().filter_map(Value::as_str).collect();
        assert!(!costs.iter().any(|c| c.contains("one tick")), "{costs:?}");
        let Some(cost) = costs.iter().find(|c| c.starts_with("blending")) else {
            continue;
        };
        let (lane, pacing) = name(r);
        let plain = lane.replace("+interpolated", "");
        let other = find(&v, &plain, &pacing);
        let diff = r["latency_mean_ms"].as_f64().unwrap_or(f64::NAN)
            - other["latency_mean_ms"].as_f64().unwrap_or(f64::NAN);
        assert!(cost.contains(&format!("{diff:+.1} ms")), "{cost} vs {diff}");
        seen += 1;
    }
    assert_eq!(
        seen, 2,
        "both of Godot's blending loops state a measured cost"
    );
}

#[test]
fn the_runner_up_is_another_loop() {
    // Here monogame holds first under vsync, cap:144 and hold:144.
    let v = advise(&["--vrr", "48..144", "--render-cost", "5ms", "--seconds", "2"]);
    let (best, next) = (name(&v["recommended"]), name(&v["runner_up"]));
    assert_ne!(best.0, next.0, "{best:?} then {next:?}");
}

#[test]
fn bare_advise_states_every_assumption() {
    // Read as prose: the wrapping of the 100-column text does not matter.
    let prose = |args: &[&str]| text(args).split_whitespace().collect::<Vec<_>>().join(" ");
    let out = prose(&["advise", "--seconds", "2"]);
    for said in [
        "60 Hz display, vsync on",
        "renders in 0ns",
        "jitter ±0ns",
        "machine exact",
        "2 s per loop",
        "every loop ticks at 60hz, the rate games tick at, a preset within a microsecond of it at its own: --dt sets another",
        "substeps of at most 1ms",
        "its stable step is 15.07 ms with euler",
    ] {
        assert!(out.contains(said), "no '{said}' in:\n{out}");
    }
    let dt = prose(&["advise", "--seconds", "2", "--dt", "20ms"]);
    assert!(dt.contains("every loop ticks at 50hz (--dt)"), "{dt}");
}

#[test]
fn the_table_shows_the_stutter_band_it_is_sorted_by() {
    let out = text(&[
        "advise",
        "--display-hz",
        "144",
        "--jitter",
        "2ms",
        "--seconds",
        "2",
    ]);
    let mut last = 0.0;
    let mut rows = 0;
    for line in out.lines().filter(|l| l.contains(") ")) {
        let Some(band) = line.split('(').nth(1).and_then(|b| b.split(')').next()) else {
            continue;
        };
        let Some((low, high)) = band.split_once('-') else {
            continue;
        };
        let (Ok(low), Ok(high)) = (low.parse::<f64>(), high.parse::<f64>()) else {
            continue;
        };
        let shown: f64 = line
            .split('(')
            .next()
            .and_then(|h| h.split_whitespace().last())
            .and_then(|v| v.parse().ok())
            .unwrap_or(f64::NAN);
        assert!(low <= shown && shown < high + 0.005, "{line}");
        assert!(low >= last, "not sorted by band: {line}");
        last = low;
        rows += 1;
    }
    assert!(rows >= 2, "no bands in:\n{out}");
}

/// `advise ARGS` as prose: its words, whatever the wrapping.
fn prose(args: &[&str]) -> String {
    text(args).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_capture_verdict_carries_replays_caveats() {
    // MonoGame's loop ran on the captured starts: marked as replay marks it, and its setup
    // names no pacing of its own.
    let out = prose(&["advise", CAPTURE, "--engine", "monogame"]);
    assert!(
        out.contains("Recommended: monogame*, tick 16.6667ms, pacing as captured"),
        "{out}"
    );
    assert!(
        out.contains("* monogame ran open loop: its loop waits"),
        "{out}"
    );
    assert!(!out.contains("Pacer::new(\"vsync\""), "{out}");
    assert!(!out.contains("Warning"), "{out}");
    // Seven displayed frames are too few for a verdict.
    let out = prose(&["advise", "tests/data/presentmon/test_case_1.csv"]);
    assert!(out.contains("Warning: too short for a verdict"), "{out}");
    // PresentMon 1.x records no CPU start: the same run gives other figures.
    let out = prose(&["advise", "tests/data/presentmon/test_case_5_v1.csv"]);
    assert!(out.contains("has no CPU start time"), "{out}");
}

#[test]
fn a_display_rate_may_carry_its_unit() {
    let with = json(&[
        "simulate",
        "--json",
        "--display-hz",
        "144hz",
        "--seconds",
        "1",
        "--lanes",
        "fixed",
    ]);
    let without = json(&[
        "simulate",
        "--json",
        "--display-hz",
        "144",
        "--seconds",
        "1",
        "--lanes",
        "fixed",
    ]);
    assert_eq!(with["config"], without["config"]);
    assert_eq!(with["config"]["display_hz"], 144.0);
}

#[test]
fn the_terms_it_uses_are_explained_once_each() {
    let out = text(&[
        "advise",
        "--vrr",
        "48..144",
        "--render-cost",
        "5ms",
        "--seconds",
        "1",
    ]);
    let terms = out
        .split("\nTerms:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no terms in:\n{out}"));
    for term in ["hold:R:", "cap:R:", "fuzzy59:", "LFC:", "fallen behind:"] {
        assert_eq!(terms.matches(term).count(), 1, "{term} in:\n{terms}");
    }
    // A term the text does not use is not explained.
    let plain = text(&["advise", "--engine", "monogame", "--seconds", "2"]);
    assert!(
        !plain.contains("hold:R:") && !plain.contains("LFC:"),
        "{plain}"
    );
}

#[test]
fn a_presets_option_is_said_against_the_source_it_follows() {
    let out = text(&["simulate", "--lanes", "godot+jitter=0", "--seconds", "1"]);
    let prose = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(prose.contains("jitter fix 0,"), "{out}");
    assert!(
        prose.contains("(that source's defaults, with +jitter=0 as above)"),
        "{out}"
    );
}

/// A timer that discards time by its own rule (the snap's rounding to whole-ns refresh periods,
/// Glaiel's resync on the first frame) has not fallen behind: on a steady 60 Hz display both
/// snapping lanes hold, their discards in the books, and `advise` may rank them.
#[test]
fn a_snapping_timer_on_a_steady_display_holds_its_discards_in_the_books() {
    let flags = ["--display-hz", "60", "--seconds", "60"];
    let mut args = vec!["simulate", "--json", "--lanes", "glaiel,fixed+snap"];
    args.extend_from_slice(&flags);
    let sim = json(&args);
    for lane in list(&sim["lanes"]) {
        assert_eq!(lane["state"], "ok", "{}", lane["lane"]);
    }
    let v = advise(&flags);
    let ranked: Vec<String> = list(&v["ranking"]).iter().map(|r| name(r).0).collect();
    assert!(ranked.iter().any(|n| n == "glaiel"), "{ranked:?}");
}

/// The command a verdict printed to run `pick` alone, run with `--json`: every lane held.
fn holds_when_run_as_printed(pick: &Value, situation: &[&str]) {
    assert_eq!(pick["checked"], true, "{situation:?}: {pick}");
    let check = pick["check"].as_str().unwrap_or_default();
    let mut words: Vec<&str> = check.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"timestep-rope"), "{check}");
    words.remove(0);
    words.push("--json");
    let run = json(&words);
    for lane in list(&run["lanes"]) {
        assert_eq!(lane["state"], "ok", "{situation:?}: `{check}`: {lane}");
    }
}

#[test]
fn the_pick_and_the_runner_up_hold_when_run_as_printed_over_a_grid_of_situations() {
    // Ticks above the rope's stable step (15.07 ms) and below it, with and without substeps;
    // fixed and variable-refresh displays; timer noise; a render cost. A 25 ms tick with timer
    // noise and a 5 ms render got `interpolated` recommended, integrated in 1 ms substeps,
    // while `simulate --lanes interpolated` with the same flags stepped whole ticks and
    // exploded: the verdict now names the substeps it ran, and runs the pick that way.
    let grid = [
        "",
        "--dt 40hz --jitter 2ms --render-cost 5ms",
        "--dt 10ms --max-substep off --jitter 300us",
        "--display-hz 144 --jitter 2ms",
        "--display-hz 59.94 --jitter 2ms --render-cost 8ms",
        "--vrr 48..144 --render-cost 4ms..14ms --jitter 300us",
        "--dt auto --display-hz 144 --step-cost 1ms",
        "--dt 20hz --vsync off --render-cost 3ms",
    ];
    for flags in grid {
        let situation: Vec<&str> = flags.split_whitespace().collect();
        let mut args = vec!["--seconds", "3"];
        args.extend_from_slice(&situation);
        let v = advise(&args);
        obeys_its_rule(&v);
        holds_when_run_as_printed(&v["recommended"], &situation);
        holds_when_run_as_printed(&v["runner_up"], &situation);
    }
}

#[test]
fn without_dt_it_answers_for_a_60_hz_tick_and_dt_auto_ranks_the_ticks() {
    let v = advise(&["--display-hz", "144", "--seconds", "3"]);
    assert_eq!(v["ticks"], serde_json::json!(["60hz"]));
    for r in list(&v["ranking"]) {
        let tick = r["tick"].as_str().unwrap_or_default();
        // MonoGame and Glaiel keep their own 60 Hz ticks, which their units round.
        assert!(
            ["60hz", "16.6667ms", "16.666666ms", "frame"].contains(&tick),
            "{r}"
        );
    }
    let v = advise(&["--display-hz", "144", "--seconds", "3", "--dt", "auto"]);
    assert_eq!(
        v["ticks"],
        serde_json::json!(["30hz", "50hz", "60hz", "120hz", "144hz"])
    );
    let ticks: std::collections::BTreeSet<&str> = list(&v["ranking"])
        .iter()
        .filter_map(|r| r["tick"].as_str())
        .collect();
    for tick in ["30hz", "50hz", "120hz", "144hz"] {
        assert!(ticks.contains(tick), "{tick} in {ticks:?}");
    }
    // A loop that waits for a 30 Hz tick shows half the frames: with a tick's CPU to save, it
    // was the pick ("monogame+tick=30hz", 30 fps on a 60 Hz display).
    let v = advise(&["--seconds", "3", "--dt", "auto", "--step-cost", "1ms"]);
    let fps = v["recommended"]["fps"].as_f64().unwrap_or_default();
    assert!(fps > 55.0, "{}", v["recommended"]);
    let out = text(&[
        "advise",
        "--display-hz",
        "144",
        "--seconds",
        "3",
        "--dt",
        "auto",
    ]);
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Best loop of whole ticks at each tick"))
        .skip(2)
        .take(5)
        .collect();
    let firsts: Vec<&str> = table
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(firsts, ["30hz", "50hz", "60hz", "120hz", "144hz"], "{out}");
}
