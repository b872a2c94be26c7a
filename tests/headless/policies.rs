//! Loop policies against the behaviour their sources publish, on the simulated clock only:
//! MonitorSim's double updates, the fuzzy windows and snapping, Godot's jitter fix at 144 Hz,
//! each preset's own rule, and vsync detection.

use crate::support::*;
use timestep_lab::hosts::simulate::{self, DisplayConfig, RenderCost, SimConfig};
use timestep_lab::model::lane::parse_lanes;
use timestep_lab::model::lane::{LaneReport, PolicyReport};
use timestep_lab::model::rope::RopeParams;
use timestep_loop::MaxSubstep;
use timestep_loop::TimingConfig;

/// `lanes` on `display`, ticking at `dt_ns`, with a 2-particle rope (the timing is under test)
/// and 1 ms substeps; each lane's report and its ticks per frame.
fn run_lanes(display: DisplayConfig, dt_ns: u64, lanes: &str) -> Vec<(LaneReport, Vec<u32>)> {
    let cfg = SimConfig {
        timing: TimingConfig::textbook(dt_ns, 250 * MS, None).unwrap(),
        rope: RopeParams::with_particles(2),
        display,
        lanes: parse_lanes(lanes).unwrap(),
        max_substep: MaxSubstep::Set(MS),
        draw: None,
        physics: true,
    };
    let mut steps = vec![Vec::new(); cfg.lanes.len()];
    let runs = simulate::run(&cfg, |f| steps[f.lane].push(f.steps)).unwrap();
    runs.into_iter().map(|(r, _)| r).zip(steps).collect()
}

/// Tyler Glaiel's MonitorSim: 10,000 ticks of a 60 Hz game, timer noise ±(1/60)·0.005 s,
/// 5 ms of rendering, the loop starting on a vblank.
fn monitorsim(hz: f64) -> DisplayConfig {
    DisplayConfig {
        display_hz: hz,
        jitter_ns: 83_333,
        render_cost: RenderCost::Fixed(5 * MS),
        duration_ns: 10_000 * 16_666_667,
        ..Default::default()
    }
}

const TICK_60HZ: u64 = 16_666_667;

/// A lane's double updates, which a tick of about one refresh always counts.
fn doubles(r: &LaneReport) -> u64 {
    r.vblanks
        .double_updates
        .expect("counted at a tick of about one refresh")
}

/// A lane's irregular frames, which a tick of about one refresh always counts.
fn irregular(r: &LaneReport) -> u64 {
    r.vblanks
        .irregular_frames
        .expect("counted at a tick of about one refresh")
}

#[test]
fn monitorsim_a_plain_accumulator_double_updates_a_quarter_of_the_vblanks_at_60_hz() {
    let runs = run_lanes(monitorsim(60.0), TICK_60HZ, "fixed,fixed+snap,fixed+fuzzy");
    let doubles: Vec<u64> = runs.iter().map(|(r, _)| doubles(r)).collect();
    let vblanks = runs[0].0.shown.frames;
    // MonitorSim: 2,535 in 10,002 vsyncs (a coin flip per vblank when the tick is the period).
    let quarter = doubles[0] as f64 / vblanks as f64;
    assert!((0.2..0.3).contains(&quarter), "{doubles:?} of {vblanks}");
    assert_eq!(
        &doubles[1..],
        [0, 0],
        "snapping and the 60-62 window remove them"
    );
}

#[test]
fn monitorsim_at_59_94_hz_fuzzy_leaves_about_ten_and_snapping_none() {
    let runs = run_lanes(
        monitorsim(59.94),
        TICK_60HZ,
        "fixed,fixed+fuzzy,fixed+snap,fixed+fuzzy59",
    );
    let doubles: Vec<u64> = runs.iter().map(|(r, _)| doubles(r)).collect();
    assert!(
        doubles[0] > 0 && doubles[0] <= 40,
        "a few dozen at most: {doubles:?}"
    );
    assert!(
        (5..=15).contains(&doubles[1]),
        "MonitorSim: 10: {doubles:?}"
    );
    assert_eq!(doubles[2], 0, "{doubles:?}");
    // 59-61 never double-updates; it lets the game run slow instead (59.94/60 of real time).
    assert_eq!(doubles[3], 0, "{doubles:?}");
    let speed = runs[3].0.shown.game_speed;
    assert!((speed - 59.94 / 60.0).abs() < 0.002, "{speed}");
}

#[test]
fn monitorsim_at_50_hz_a_60_hz_game_double_updates_every_fifth_vblank() {
    let runs = run_lanes(monitorsim(50.0), TICK_60HZ, "fixed");
    assert_eq!(doubles(&runs[0].0), 1_666);
    assert!(
        runs[0].0.vblanks.pattern.contains("11112"),
        "{}",
        runs[0].0.vblanks.pattern
    );
}

#[test]
fn irregular_frames_count_ticks_outside_floor_and_ceil_and_loops_that_step_the_frame_have_none() {
    // A 60 Hz tick on a 60 Hz display with noise: frames of 0 or 2 ticks are irregular (the
    // frame is one tick long); variable and semi-fixed step the frame itself.
    let runs = run_lanes(monitorsim(60.0), TICK_60HZ, "fixed,variable,semi-fixed");
    let (fixed, _) = &runs[0];
    assert!(irregular(fixed) > 0);
    assert_eq!(
        irregular(fixed),
        fixed.vblanks.zero_step_frames + doubles(fixed),
        "at one tick per vblank, every 0 or 2 is irregular and nothing else is"
    );
    assert_eq!(irregular(&runs[1].0), 0);
    assert_eq!(irregular(&runs[2].0), 0);
}

#[test]
fn godot_holds_exactly_five_ticks_in_every_twelve_frames_at_144_hz_where_fixed_cannot() {
    let display = DisplayConfig {
        display_hz: 144.0,
        jitter_ns: 200_000,
        duration_ns: 60 * S,
        ..Default::default()
    };
    // godot+raw: the jitter fix alone, on the noisy deltas (no smoother); jitter=0 turns the
    // fix off, and then it is a plain accumulator again.
    let runs = run_lanes(
        display,
        TICK_60HZ,
        "godot,godot+raw,fixed,godot+raw+jitter=0",
    );
    let windows = |steps: &[u32]| -> Vec<u32> {
        steps
            .windows(12)
            .skip(144)
            .map(|w| w.iter().sum())
            .collect()
    };
    for (r, steps) in &runs[..2] {
        let w = windows(steps);
        assert!(w.iter().all(|&w| w == 5), "{}: {:?}", r.lane, &w[..24]);
    }
    for (r, steps) in &runs[2..] {
        let w = windows(steps);
        assert!(
            w.contains(&4) && w.contains(&6),
            "{} keeps its rhythm?",
            r.lane
        );
    }
}

#[test]
fn godot_runs_at_most_8_ticks_a_frame_and_drops_the_rest_of_a_stall() {
    let display = DisplayConfig {
        stalls: vec![stall(2 * S, S)],
        duration_ns: 4 * S,
        ..display(60.0)
    };
    let runs = run_lanes(display, MS, "godot");
    let (r, steps) = &runs[0];
    assert_eq!(r.vblanks.max_steps_per_vblank, 8);
    assert_eq!(steps.iter().max(), Some(&8));
    assert!(
        r.books.dropped_ns > 800 * MS,
        "about 52 ticks: {} ns",
        r.books.dropped_ns
    );
    // Whole ticks of exactly 1/60 s, each rounded down to the ns in the report.
    let ticks = (r.books.dropped_ns * 60).div_ceil(S);
    assert_eq!(r.books.dropped_ns, ticks * S / 60, "whole ticks");
}

#[test]
fn bevy_clamps_a_frame_to_250_ms_and_runs_at_most_16_ticks_of_64_hz() {
    let display = DisplayConfig {
        stalls: vec![stall(2 * S, S)],
        duration_ns: 4 * S,
        ..display(60.0)
    };
    let runs = run_lanes(display, MS, "bevy,unity,game-loop");
    let (bevy, unity, game_loop) = (&runs[0].0, &runs[1].0, &runs[2].0);
    assert_eq!(bevy.vblanks.max_steps_per_vblank, 16);
    // The stall makes one frame of exactly 1 s (it ends on a vblank): everything past 250 ms
    // is dropped.
    let stall_frame = 1_000 * MS;
    assert_eq!(bevy.books.dropped_ns, stall_frame - 250 * MS);
    // Unity: past a third of a second, dropped; up to 17 fixed steps of 20 ms.
    assert_eq!(unity.books.dropped_ns, stall_frame - 333_333_300);
    assert!(unity.vblanks.max_steps_per_vblank >= 16);
    // game-loop: its max_frame_time of 0.1 s.
    assert_eq!(game_loop.books.dropped_ns, stall_frame - 100 * MS);
}

#[test]
fn monogame_runs_no_frame_without_a_tick_and_paces_a_144_hz_display_by_its_own_clock() {
    let display = DisplayConfig {
        jitter_ns: 100_000,
        duration_ns: 20 * S,
        ..display(144.0)
    };
    let runs = run_lanes(display, MS, "monogame");
    let (r, steps) = &runs[0];
    assert!(
        steps[1..].iter().all(|&n| n >= 1),
        "every frame after the first ticks"
    );
    assert_eq!(r.vblanks.zero_step_frames, 0);
    // Its sleep-and-retry waits out 2 or 3 vblanks of 6.9 ms per 16.7 ms tick.
    assert!(
        r.vblanks.skipped_vblanks > r.shown.frames,
        "{} skipped in {} frames",
        r.vblanks.skipped_vblanks,
        r.shown.frames
    );
}

#[test]
fn glaiel_resyncs_an_accumulator_past_eight_frames_instead_of_catching_up() {
    // Frames of 7.5 vblanks' worth (a slow 8 Hz display with a 60 Hz hint): the accumulator
    // sometimes climbs past 8 frames and is emptied, the time dropped and no tick run.
    let display = DisplayConfig {
        display_hz: 60.0,
        render_cost: RenderCost::Fixed(120 * MS),
        duration_ns: 20 * S,
        ..Default::default()
    };
    let runs = run_lanes(display, MS, "glaiel,fixed+snap");
    for (r, _) in &runs {
        assert!(r.books.dropped_ns > 0, "{}: nothing resynced", r.lane);
        assert_eq!(PolicyReport::new(&r.policy).resync_over_frames, Some(8));
    }
}

#[test]
fn vsync_is_detected_within_seconds_with_timer_noise_and_not_without_vsync() {
    for hz in [59.94, 144.0] {
        let display = DisplayConfig {
            jitter_ns: 200_000,
            duration_ns: 10 * S,
            ..display(hz)
        };
        let r = &run_lanes(display, MS, "fixed")[0].0;
        assert!(r.vsync.vsync_detected, "{hz} Hz");
        assert!(
            r.vsync.detected_after_s.unwrap_or(99.0) < 3.0,
            "{hz}: {:?}",
            r.vsync.detected_after_s
        );
        let est = r.vsync.refresh_estimate_hz.unwrap_or(0.0);
        assert!((est - hz).abs() < 0.05, "{hz} Hz estimated at {est}");
    }
    let display = DisplayConfig {
        vsync: false,
        render_cost: RenderCost::Uniform(5 * MS, 25 * MS),
        duration_ns: 30 * S,
        ..display(60.0)
    };
    let r = &run_lanes(display, MS, "fixed")[0].0;
    assert!(
        !r.vsync.vsync_detected && r.vsync.detected_after_s.is_none(),
        "{r:?}"
    );
}

#[test]
fn every_preset_reports_the_numbers_its_source_documents() {
    let runs = run_lanes(display(60.0), MS, "presets");
    let by = |name: &str| {
        PolicyReport::new(&runs.iter().find(|(r, _)| r.lane == name).unwrap().0.policy)
    };
    assert_eq!(
        (by("godot").tick_s, by("godot").max_steps),
        (0.016666667, Some(8))
    );
    assert_eq!(by("godot").step_rule, "jitter fix 0.5");
    assert_eq!(
        (by("bevy").tick_s, by("bevy").clamp_s),
        (0.015625, Some(0.25))
    );
    assert_eq!(
        (by("unity").tick_s, by("unity").clamp_s),
        (0.02, Some(0.3333333))
    );
    assert_eq!(
        (by("monogame").tick_s, by("monogame").clamp_s),
        (0.0166667, Some(0.5))
    );
    assert_eq!(by("monogame").clamp_on, "accumulator");
    assert!(by("monogame").waits_for_tick);
    assert_eq!(by("game-loop").clamp_s, Some(0.1));
    assert_eq!(
        (by("glaiel").timer.as_str(), by("glaiel").shows),
        ("snap", "blend")
    );
    for (r, _) in &runs {
        let policy = PolicyReport::new(&r.policy);
        assert!(policy.source.is_some(), "{} cites no source", r.lane);
        assert_eq!(policy.max_substep_s, Some(0.001));
        assert!(
            !physics(r).exploded,
            "{} exploded with 1 ms substeps",
            r.lane
        );
    }
}

/// The `per vblank` table's row for `lane` in `simulate`'s text output, split at spaces.
fn vblank_row<'a>(text: &'a str, lane: &str) -> Vec<&'a str> {
    let table = text.split("per vblank").nth(1).expect("a per vblank table");
    let row = table.lines().find(|l| l.starts_with(&format!("{lane} ")));
    row.expect("the lane's row").split_whitespace().collect()
}

#[test]
fn a_1_ms_tick_at_60_hz_has_no_double_updates_to_count_and_a_60_hz_tick_has() {
    let simulate = |extra: &[&str], json: bool| {
        let common = [
            "simulate",
            "--display-hz",
            "60",
            "--seconds",
            "5",
            "--lanes",
            "fixed",
        ];
        let mut args = [&common[..], extra].concat();
        if json {
            args.push("--json");
        }
        let out = crate::support::run_bin(&args);
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The default 1 ms tick: 16.67 ticks a vblank, every frame 16 or 17 by design.
    let text = simulate(&[], false);
    assert_eq!(
        vblank_row(&text, "fixed")[1..4],
        ["16.67", "n/a", "n/a"],
        "{text}"
    );
    assert!(
        text.contains("\nn/a: doubles and irregular count ticks per vblank"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&simulate(&[], true)).unwrap();
    let lane = &json["lanes"][0];
    assert!(lane["double_updates"].is_null(), "{lane}");
    assert!(lane["irregular_frames"].is_null(), "{lane}");
    assert_eq!(lane["skipped_vblanks"], 0, "counted whatever the tick");
    // A 60 Hz tick: one a vblank, and the counters are numbers again, with no footnote.
    let tick = ["--dt", "60hz", "--max-substep", "1ms"];
    let text = simulate(&tick, false);
    let row = vblank_row(&text, "fixed");
    assert_eq!(row[1], "1.00", "{text}");
    assert!(
        row[2].parse::<u64>().is_ok() && row[3].parse::<u64>().is_ok(),
        "{text}"
    );
    assert!(!text.contains("n/a"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&simulate(&tick, true)).unwrap();
    assert!(json["lanes"][0]["double_updates"].is_u64(), "{json}");
}

#[test]
fn ticks_per_vblank_are_the_steps_each_lane_should_run_a_vblank() {
    // Variable steps once a frame (not 16.67 "ticks" beside a max of 1); semi-fixed covers
    // 16.67 ms in 16 ticks and a sliver, 17 steps; fixed runs 16 or 17 whole ticks.
    let text = crate::support::run_text(&["simulate", "--seconds", "2"]);
    for (lane, want) in [
        ("variable", ["1.00", "0", "0", "0", "0", "1"]),
        ("semi-fixed", ["17.00", "n/a", "n/a", "0", "0", "17"]),
        ("fixed", ["16.67", "n/a", "n/a", "0", "0", "17"]),
    ] {
        assert_eq!(vblank_row(&text, lane)[1..7], want, "{text}");
    }
}
