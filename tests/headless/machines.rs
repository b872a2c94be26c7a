//! Displays and machines as they are: a variable-refresh panel with and without LFC, OS clocks
//! and sleeps, and the vsync detector's verdicts on them. All on the simulated clock.

use crate::support::*;
use timestep_lab::analyses::sweep::{self, Axis, SweepConfig};
use timestep_lab::hosts::simulate::vrr::{Lfc, Vrr};
use timestep_lab::hosts::simulate::{self, DisplayConfig, FrameRecord, RenderCost, SimConfig};
use timestep_lab::model::lane::{LaneReport, LaneSpec};
use timestep_lab::protocol::machine::{Machine, Sleep};
use timestep_loop::{Mode, Pacing};

fn vrr(min_hz: f64, max_hz: f64, lfc: Lfc) -> DisplayConfig {
    DisplayConfig {
        display_hz: max_hz,
        vrr: Some(Vrr {
            min_hz,
            max_hz,
            lfc,
        }),
        ..Default::default()
    }
}

/// `mode` on `display`, and every presented frame.
fn presented(display: DisplayConfig, mode: Mode) -> (LaneReport, Vec<FrameRecord>) {
    let mut frames = Vec::new();
    let (report, _) = run_mode(&config(display), mode, |f| frames.push(f.clone()));
    (report, frames)
}

#[test]
fn inside_the_range_a_frame_is_shown_when_ready_so_its_cost_reaches_the_screen() {
    // 48..144 Hz and a render of 4 to 14 ms: every frame is scanned out the moment it is
    // ready (no sooner than 1/144 s after the last), so the time on screen follows the cost,
    // and a loop that animates by its frame start is off by the change in cost.
    let display = DisplayConfig {
        render_cost: RenderCost::Uniform(4 * MS, 14 * MS),
        ..vrr(48.0, 144.0, Lfc::default())
    };
    let (report, frames) = presented(display.clone(), Mode::Interpolated);
    let shown: Vec<u64> = frames.iter().map(|f| f.present_or_start_ns()).collect();
    let gaps: Vec<u64> = shown.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps.iter().all(|&g| (6_944_000..=14_000_000).contains(&g)),
        "{gaps:?}"
    );
    let refresh = report.vblanks.refresh_interval_ms.unwrap();
    assert!(refresh.min == 6.944 && refresh.max <= 14.0, "{refresh:?}");
    assert_eq!(report.vblanks.skipped_vblanks, 0);
    assert!(
        report.shown.stutter_rms_ms > 2.0,
        "{}",
        report.shown.stutter_rms_ms
    );
    // The same loop on a fixed 60 Hz display hides the cost behind the next vblank.
    let fixed = DisplayConfig {
        vrr: None,
        display_hz: 60.0,
        ..display
    };
    let (fixed, _) = presented(fixed, Mode::Interpolated);
    assert!(
        fixed.shown.stutter_rms_ms < 0.001,
        "{}",
        fixed.shown.stutter_rms_ms
    );
}

#[test]
fn below_the_range_lfc_scans_each_frame_twice_and_counts_the_repeat_as_a_skipped_vblank() {
    // 25 to 30 ms frames on 48..144 Hz (below 48 Hz): LFC scans each twice, 12.5 to 15 ms
    // apart, so every frame after the first few has one repeated scanout.
    let display = DisplayConfig {
        render_cost: RenderCost::Uniform(25 * MS, 30 * MS),
        ..vrr(48.0, 144.0, Lfc::default())
    };
    let (report, _) = presented(display.clone(), Mode::Fixed);
    let shown = report.shown.frames;
    assert!(report.vblanks.skipped_vblanks >= shown - 3, "{report:?}");
    assert!(report.vblanks.skipped_vblanks < shown);
    // Without LFC the panel times out at 1/48 s and repeats at once: some frames then wait
    // for a whole cycle, until the driver pins the panel at 144 Hz.
    let (off, frames) = presented(
        DisplayConfig {
            vrr: Some(Vrr {
                lfc: Lfc::Off,
                ..display.vrr.unwrap()
            }),
            ..display
        },
        Mode::Fixed,
    );
    let refresh = off.vblanks.refresh_interval_ms.unwrap();
    assert_eq!(
        refresh.max, 20.833,
        "the first slow frames meet the timeout"
    );
    // Pinned, every scanout is on a 1/144 s grid from the last.
    let tail: Vec<u64> = frames[frames.len() - 20..]
        .iter()
        .map(|f| f.present_or_start_ns())
        .collect();
    assert!(
        tail.windows(2).all(|w| (w[1] - w[0]) % 6_944_000 < 10),
        "{tail:?}"
    );
}

#[test]
fn holding_each_present_to_a_steady_deadline_recovers_what_the_vrr_panel_shows() {
    // The finding: on a VRR panel a cap that spaces frame *starts* does not help (the present
    // still follows the cost), but holding each present to the next deadline does.
    let display = |pacing| DisplayConfig {
        render_cost: RenderCost::Uniform(4 * MS, 14 * MS),
        pacing,
        ..vrr(48.0, 144.0, Lfc::default())
    };
    let stutter = |pacing| {
        run(display(pacing), Mode::Interpolated)
            .0
            .shown
            .stutter_rms_ms
    };
    let (free, cap, hold) = (
        stutter(Pacing::Vsync),
        stutter(Pacing::Cap(60.0)),
        stutter(Pacing::Hold(60.0)),
    );
    assert!(free > 2.0 && cap > 2.0, "{free} {cap}");
    assert!(hold < 0.001, "{hold}");
}

#[test]
fn a_cap_on_windows_default_timer_cannot_hold_60_fps_with_sleep_and_can_with_spin() {
    let machine = |sleep| DisplayConfig {
        vsync: false,
        render_cost: RenderCost::Fixed(2 * MS),
        pacing: Pacing::Cap(60.0),
        machine: Machine::WINDOWS_DEFAULT,
        sleep,
        duration_ns: 2 * S,
        ..Default::default()
    };
    let frame_times = |sleep| {
        let (report, frames) = presented(machine(sleep), Mode::Fixed);
        // From the third frame on (the first two start before the cap has a deadline).
        let times: Vec<u64> = frames[3..].iter().map(|f| f.frame_ns).collect();
        (report, times)
    };
    // Sleep wakes on the 15.625 ms timer interrupt: frames of 15.625 or 31.25 ms, never
    // 16.67.
    let (native, times) = frame_times(Sleep::Native);
    assert!(
        times.iter().all(|&t| t % 15_625_000 == 0),
        "{:?}",
        &times[..10]
    );
    assert_eq!(native.pacing.spin_cpu_ms, Some(0.0));
    // Spinning the last tick: every frame 16.67 ms (to QPC's 100 ns), paid for in CPU.
    let (spin, times) = frame_times(Sleep::Spin);
    assert!(
        times.iter().all(|&t| t.abs_diff(16_666_667) <= 100),
        "{:?}",
        &times[..10]
    );
    let spun = spin.pacing.spin_cpu_ms.unwrap_or(0.0);
    assert!(spun > 1_500.0, "{spun} ms of 2 s spinning");
}

#[test]
fn each_machine_reads_its_clock_in_its_own_steps() {
    for (machine, step) in [
        (Machine::BROWSER, 100_000),
        (Machine::WINDOWS_DEFAULT, 100),
        (Machine::LINUX, 1),
    ] {
        let display = DisplayConfig {
            jitter_ns: 300_000,
            machine: machine.clone(),
            ..display(59.94)
        };
        let (_, frames) = presented(display, Mode::Fixed);
        if step > 1 {
            assert!(
                frames.iter().all(|f| f.frame_ns % step == 0),
                "{machine}: {:?}",
                &frames[..3]
            );
        }
    }
}

#[test]
fn linux_sleeps_wake_late_by_the_slack_never_early() {
    // cap:100 with native sleeps on Linux: each wake-up 54 to 58 µs late; the cap's deadlines
    // keep the average, so frames are 10 ms give or take that lateness.
    let display = DisplayConfig {
        vsync: false,
        render_cost: RenderCost::Fixed(MS),
        pacing: Pacing::Cap(100.0),
        machine: Machine::LINUX,
        sleep: Sleep::Native,
        ..Default::default()
    };
    let (_, frames) = presented(display, Mode::Fixed);
    // From the fourth frame: the third is the first measured from a late wake-up.
    for f in &frames[3..] {
        assert!(f.frame_ns.abs_diff(10 * MS) <= 4_000, "{}", f.frame_ns);
    }
}

#[test]
fn a_steady_render_faster_than_the_display_is_not_called_vsync() {
    // The detector's blind spot: vsync off, a steady 7 ms render on a 60 Hz display looked
    // like a 143 Hz display. A vsynced present cannot come faster than the display.
    let display = DisplayConfig {
        vsync: false,
        render_cost: RenderCost::Fixed(7 * MS),
        ..display(60.0)
    };
    let (report, _) = run(display, Mode::Fixed);
    assert!(!report.vsync.vsync_detected, "{:?}", report.vsync);
    // On a VRR panel the same steady render is shown every 7 ms: the frame times cannot tell
    // that from a 143 Hz display, and the panel's MAX (144) is no faster, so it is called
    // vsynced; the table says what that verdict can mean.
    let on_vrr = DisplayConfig {
        render_cost: RenderCost::Fixed(7 * MS),
        ..vrr(48.0, 144.0, Lfc::default())
    };
    assert!(run(on_vrr, Mode::Fixed).0.vsync.vsync_detected);
}

#[test]
fn a_vrr_sweep_sweeps_frame_rates_each_as_simulate_runs_it() {
    let base = SimConfig {
        lanes: vec![LaneSpec::mode(Mode::Interpolated)],
        display: DisplayConfig {
            duration_ns: 5 * S,
            ..vrr(48.0, 144.0, Lfc::default())
        },
        ..config(display(60.0))
    };
    let cfg = SweepConfig {
        base: base.clone(),
        axis: Axis::Fps,
        rates: vec![30.0, 100.0],
        threads: Some(1),
    };
    let mut rows = Vec::new();
    let never = std::sync::atomic::AtomicBool::new(false);
    sweep::run(
        &cfg,
        &never,
        |_| {},
        |r| {
            rows.push(r);
            Ok(())
        },
    )
    .unwrap();
    let mut csv = sweep::SweepCsv::new(Vec::new());
    csv.row(&rows[0]).unwrap();
    let csv = csv.finish().unwrap();
    assert!(
        csv.starts_with(b"fps,lane,"),
        "{}",
        String::from_utf8_lossy(&csv)
    );
    for row in &rows {
        let alone = SimConfig {
            display: DisplayConfig {
                render_cost: RenderCost::Fixed((1e9 / row.rate).round() as u64),
                ..base.display.clone()
            },
            ..base.clone()
        };
        let mut expected = simulate::run(&alone, |_| {}).unwrap().remove(0).0;
        expected.peak_rss_kib = None;
        assert_eq!(row.report, expected, "{} fps", row.rate);
    }
    // 30 fps is below the range: 33.3 ms over 3 (11.1 ms) is 1 µs nearer the midpoint (13.9
    // ms) than over 2 (16.7 ms), so LFC scans each frame three times; 100 fps is inside it.
    let refresh = |i: usize| rows[i].report.vblanks.refresh_interval_ms.unwrap();
    assert!((refresh(0).mean - 11.111).abs() < 0.05, "{:?}", refresh(0));
    let v = &rows[0].report.vblanks;
    assert!(
        v.skipped_vblanks >= 2 * (rows[0].report.shown.frames - 4),
        "{v:?}"
    );
    assert_eq!((refresh(1).min, refresh(1).max), (10.0, 10.0));
}

#[test]
fn a_probed_machine_wakes_as_its_profile_measured_and_spins_the_rest() {
    use timestep_lab::protocol::machine::{MachineProfile, SleepSample};
    // A hand-written profile: a 1 µs clock, every native sleep exactly 2 ms late, and a 3 ms
    // threshold for spinning.
    let late = |request_ns| SleepSample::from_overshoots(request_ns, vec![2 * MS; 10]);
    let profile = MachineProfile {
        name: "test machine".into(),
        os: "linux".into(),
        clock_resolution_ns: 1_000,
        clock_read_ns: 25.0,
        timer_slack_ns: Some(50_000),
        spin_threshold_ns: 3 * MS,
        native_sleep: [100_000, MS, 5 * MS].map(late).to_vec(),
        spin_sleep: vec![late(MS)],
    };
    let path =
        std::env::temp_dir().join(format!("timestep-rope-machine-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string(&profile).unwrap()).unwrap();
    let machine = Machine::parse(path.to_str().unwrap()).unwrap();
    let _ = std::fs::remove_file(&path);
    let display = |sleep| DisplayConfig {
        vsync: false,
        render_cost: RenderCost::Fixed(2 * MS),
        pacing: Pacing::Cap(100.0),
        machine: machine.clone(),
        sleep,
        jitter_ns: 300_000,
        ..Default::default()
    };
    // Native: every wake 2 ms past the deadline. Spin: natively to 3 ms before it (waking 1 ms
    // before), then 1 ms of spinning a frame; on time.
    let (native, frames) = presented(display(Sleep::Native), Mode::Fixed);
    assert!(
        frames.iter().all(|f| f.frame_ns % 1_000 == 0),
        "1 µs readings"
    );
    let (spin, spun) = presented(display(Sleep::Spin), Mode::Fixed);
    let per_frame = spin.pacing.spin_cpu_ms.unwrap() / spun.len() as f64;
    assert!(
        (per_frame - 1.0).abs() < 0.01,
        "{per_frame} ms spun a frame"
    );
    assert_eq!(native.pacing.spin_cpu_ms, Some(0.0));
    // Spinning, frames start on the cap's deadlines, 10 ms apart; natively, each 2 ms after
    // the deadline the spinning loop met.
    assert!(
        spun[3..]
            .windows(2)
            .all(|w| w[1].start_ns - w[0].start_ns == 10 * MS)
    );
    for (n, s) in frames[3..].iter().zip(&spun[3..]) {
        assert_eq!(n.start_ns - s.start_ns, 2 * MS);
    }
}

#[test]
fn a_year_long_stall_on_a_vrr_panel_repeats_the_frame_every_1_over_min_all_year() {
    // Without LFC the panel times out every 1/48 s through the stall and scans the old frame
    // again: about 1.5 billion repeats, counted in a few steps (one per cycle took minutes and
    // tens of GB before).
    const YEAR: u64 = 365 * 86_400 * S;
    let display = DisplayConfig {
        stalls: vec![stall(S, YEAR)],
        duration_ns: 2 * S,
        ..vrr(48.0, 144.0, Lfc::Off)
    };
    let (report, frames) = presented(display, Mode::Fixed);
    let gap = frames
        .windows(2)
        .map(|w| w[1].present_or_start_ns() - w[0].present_or_start_ns())
        .max();
    let gap = gap.unwrap_or(0);
    assert!(gap > YEAR, "{gap}");
    let skipped = report.vblanks.skipped_vblanks;
    assert_eq!(skipped, gap / 20_833_000, "{report:?}");
    assert_eq!(
        report.vblanks.refresh_interval_ms.map(|r| r.max),
        Some(20.833)
    );
}
