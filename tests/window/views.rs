//! The plain launch's overlay, its report, a paused frame, and every view resized through the
//! heights of a half-screen window, in the real window.

use crate::support::*;

/// A lane's figures from `--report`: its name, whether it exploded, its judder rms (px).
fn lanes_of(report: &str) -> Vec<(String, bool, f64)> {
    let json: serde_json::Value = serde_json::from_str(report).expect("the report is JSON");
    let lanes = json["lanes"].as_array().expect("a lanes array");
    lanes
        .iter()
        .map(|l| {
            let name = l["lane"].as_str().unwrap_or_default().to_string();
            let exploded = l["explosions"].as_u64().unwrap_or(0) > 0;
            let judder = l["judder_px"]["rms"].as_f64().unwrap_or(f64::NAN);
            (name, exploded, judder)
        })
        .collect()
}

#[test]
#[ignore = "needs a display"]
fn a_plain_launchs_report_shows_lanes_that_differ() {
    let report = TempFile::new("plain.json");
    let args = ["--exit-after", "8s", "--report", &report.arg()];
    let mut app = Running::start("plain", &args);
    app.assert_exits_0();
    let text = std::fs::read_to_string(&report.0).expect("the report is written");
    let lanes = lanes_of(&text);
    let names: Vec<&str> = lanes.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["interpolated", "unity+tick=100ms", "variable"]);
    let (_, interpolated_exploded, interpolated) = lanes[0];
    let (_, _, unity) = lanes[1];
    let (_, variable_exploded, _) = lanes[2];
    assert!(!interpolated_exploded, "{text}");
    // The lanes differ in what the report can hold on any machine: under 66 fps (Xvfb runs
    // unpaced at 20-45) variable explodes while interpolated holds; and Unity's step at 10 Hz
    // judders more than interpolated 1 ms ticks. The real clock is uneven on a loaded machine
    // (interpolation's judder rose from 0.25 px to 2.1 px while other windows ran, and at a
    // load of 16 on two cores the margin fell to 1.4 times), so the judder margin here is 1.5
    // times and either difference passes; the several-times figure is held on the scripted
    // clock, in src/app/session/tests.rs:
    // `a_plain_launch_shows_lanes_that_differ_within_10_s_unpaced_as_under_xvfb`.
    assert!(
        variable_exploded || unity >= 1.5 * interpolated,
        "no difference: variable held, unity judders {unity} px, interpolated {interpolated} px"
    );
    eprintln!(
        "plain launch: variable exploded {variable_exploded}, judder unity {unity:.3} px, \
         interpolated {interpolated:.3} px"
    );
}

/// Pixels of `image` within 40 of `colour` in every channel.
fn pixels_near(image: &tiny_skia::Pixmap, colour: [u8; 3]) -> usize {
    image
        .pixels()
        .iter()
        .map(|p| p.demultiply())
        .filter(|p| {
            let c = [p.red(), p.green(), p.blue()];
            c.iter().zip(colour).all(|(a, b)| a.abs_diff(b) <= 40)
        })
        .count()
}

#[test]
#[ignore = "needs a display"]
fn the_overlay_draws_each_lane_in_its_colour_and_a_paused_frame_steps_back() {
    let _screen = screen_lock();
    let (shot, log) = (TempFile::new("paused.png"), TempFile::new("paused.csv"));
    let args = ["--screenshot", &shot.arg(), "--frame-log", &log.arg()];
    let mut app = Running::start("paused", &args);
    let window = find_window(&mut app);
    let seen = wait_for_frames(&mut app, &log.0, 0, 60, "starting");
    press(&window, "p");
    for _ in 0..4 {
        press(&window, "comma");
    }
    wait_for_frames(&mut app, &log.0, seen, 30, "paused");
    press(&window, "Escape");
    app.assert_clean_exit();
    let image = tiny_skia::Pixmap::load_png(&shot.0).expect("the screenshot is a PNG");
    // Interpolated's orange and unity's yellow (`palette::LANES`): ropes, labels, markers.
    for (lane, colour) in [("interpolated", [240, 160, 40]), ("unity", [238, 226, 90])] {
        let n = pixels_near(&image, colour);
        assert!(n > 300, "only {n} pixels in {lane}'s colour");
    }
    // The last frames logged were paused: no lane stepped.
    let text = std::fs::read_to_string(&log.0).expect("the frame log");
    let rows = read_frame_log(&text);
    assert!(rows.iter().rev().take(30).all(|r| r.steps == 0));
}

/// Window heights the sweep passes through: every fourth from 400 to 600 px (a window snapped
/// to half of a 1080p screen is about 500 px tall).
const HALF_SCREEN_HEIGHTS: std::ops::RangeInclusive<u32> = 400..=600;

/// Starts the window with `args`, presses `keys`, and resizes it through
/// [`HALF_SCREEN_HEIGHTS`], checking it presents at each; Esc then exits 0.
fn resize_through_half_screen(name: &str, args: &[&str], keys: &[&str]) {
    let log = TempFile::new(&format!("{name}.csv"));
    let mut all = args.to_vec();
    let log_arg = log.arg();
    all.extend(["--frame-log", &log_arg]);
    let mut app = Running::start(name, &all);
    let window = find_window(&mut app);
    let mut seen = wait_for_frames(&mut app, &log.0, 0, 5, "starting");
    for key in keys {
        press(&window, key);
    }
    for h in HALF_SCREEN_HEIGHTS.step_by(4) {
        xdotool(&["windowsize", &window, "1280", &h.to_string()]).expect("windowsize");
        poll(&format!("{name}: the window to become 1280x{h}"), || {
            (geometry(&window) == Some((1280, h))).then_some(())
        });
        seen = wait_for_frames(&mut app, &log.0, seen, 2, &format!("{name} at 1280x{h}"));
    }
    // Esc closes the help first, then the lesson, then quits.
    let closes = usize::from(keys.contains(&"F1")) + usize::from(args.contains(&"--lesson"));
    for _ in 0..=closes {
        press(&window, "Escape");
    }
    app.assert_clean_exit();
}

#[test]
#[ignore = "needs a display"]
fn the_overlay_a_lesson_and_a_paused_frame_resized_through_400_to_600_px_tall_keep_presenting() {
    let _screen = screen_lock();
    resize_through_half_screen("half-overlay", &[], &[]);
    resize_through_half_screen("half-lesson", &["--lesson", "4"], &[]);
    resize_through_half_screen("half-paused", &[], &["p", "comma", "comma", "F1"]);
}
