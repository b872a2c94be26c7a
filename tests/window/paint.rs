//! What egui costs a frame under a software renderer (issue 36), counted rather than timed:
//! the report's `window.ui_paints` (frames in which egui's triangles were rasterised) and
//! `window.ui_painted_share` (the share of the window's pixels they covered).

use crate::support::*;

/// The report's `window` object.
fn window_costs(report: &TempFile) -> serde_json::Value {
    let text = std::fs::read_to_string(&report.0).expect("the report is written");
    let json: serde_json::Value = serde_json::from_str(&text).expect("the report is JSON");
    json["window"].clone()
}

/// A count from the report's `window` object.
fn count(window: &serde_json::Value, name: &str) -> u64 {
    window[name]
        .as_u64()
        .unwrap_or_else(|| panic!("no {name} in {window}"))
}

#[test]
#[ignore = "needs a display"]
fn a_running_window_paints_again_only_the_part_of_the_ui_that_changed() {
    let _screen = screen_lock();
    let report = TempFile::new("paint-running.json");
    let args = [
        "--lanes",
        "interpolated",
        "--exit-after",
        "5s",
        "--report",
        &report.arg(),
    ];
    let mut app = Running::start("paint-running", &args);
    app.assert_clean_exit();
    let window = window_costs(&report);
    assert!(count(&window, "frames") >= 10, "{window}");
    // The HUD's figures and the pane label change every frame; the panel, the bar and the
    // rest of the text do not, and are not painted again. Before, every frame painted the
    // whole window's worth of egui (a share of 1).
    let share = window["ui_painted_share"].as_f64().expect("a share");
    assert!(
        share < 0.25,
        "egui painted {share} of the window a frame: {window}"
    );
}

#[test]
#[ignore = "needs a display"]
fn a_paused_window_whose_ui_does_not_change_reuses_the_painted_ui() {
    let _screen = screen_lock();
    let (report, log) = (
        TempFile::new("paint-paused.json"),
        TempFile::new("paint-paused.csv"),
    );
    // One lane: a row of the frame log is a frame.
    let args = [
        "--lanes",
        "interpolated",
        "--report",
        &report.arg(),
        "--frame-log",
        &log.arg(),
    ];
    let mut app = Running::start("paint-paused", &args);
    let window = find_window(&mut app);
    let seen = wait_for_frames(&mut app, &log.0, 0, 20, "starting");
    press(&window, "p");
    wait_for_frames(&mut app, &log.0, seen, 80, "paused");
    press(&window, "Escape");
    app.assert_clean_exit();
    let costs = window_costs(&report);
    let (frames, paints) = (count(&costs, "frames"), count(&costs, "ui_paints"));
    // Paused, nothing on screen changes: the panel, the HUD and the labels painted once are
    // shown again. Before, egui painted every frame (paints == frames).
    assert!(
        frames >= paints + 40,
        "{paints} of {frames} frames painted egui: {costs}"
    );
}
