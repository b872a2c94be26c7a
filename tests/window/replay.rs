//! `--replay`: the window plays a real capture (PresentMon's gold test case 5, bundled under
//! `tests/data/presentmon/`). Its frames must take the capture's times, not the window's own.

use crate::support::*;
use std::path::Path;
use timestep_lab::hosts::replay::{Stream, open};

/// The capture's frames: (start, time on screen if ever shown), ns on its own timeline.
fn captured(path: &Path) -> Vec<(u64, Option<u64>)> {
    let (selection, _) = open(path, None, None).expect("the capture opens");
    let mut stream = Stream::open(path, &selection).expect("the capture streams");
    let mut frames = Vec::new();
    while let Some(f) = stream.next_frame().expect("a frame") {
        frames.push((f.start_ns, f.shown_ns));
    }
    frames
}

#[test]
#[ignore = "needs a display"]
fn the_window_replays_a_capture_frame_for_frame_and_starts_it_over() {
    let capture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/presentmon/test_case_5.csv");
    let frames = captured(&capture);
    assert_eq!(frames.len(), 258);
    let log = TempFile::new("replay-frames.csv");
    // One lane, so the log has one row a frame (a plain launch has three).
    let args = [
        "--mode",
        "interpolated",
        "--replay",
        capture.to_str().expect("a UTF-8 path"),
        "--frame-log",
        &log.arg(),
    ];
    let _screen = screen_lock();
    let mut app = Running::start("replay", &args);
    let window = find_window(&mut app);
    // A pass and a bit, however slowly the window draws.
    wait_for_frames(&mut app, &log.0, 0, frames.len() + 10, "replaying");
    app.escape_exits_0(&window);
    assert!(app.our_lines().is_empty(), "stderr:\n{}", app.stderr());
    let text = std::fs::read_to_string(&log.0).expect("the frame log exists");
    let rows = read_frame_log(&text);
    let fields: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert!(
        rows.len() > frames.len(),
        "a pass and more: {} rows",
        rows.len()
    );
    // Each window frame is the capture's next: its frame time the capture's, and it is
    // shown at the capture's time on screen (never, where the game never showed it).
    let ms = |ns: u64| ns as f64 / 1e6;
    for (i, (row, f)) in rows.iter().zip(&fields).enumerate().take(frames.len()) {
        let want_ms = if i == 0 {
            0.0
        } else {
            ms(frames[i].0 - frames[i - 1].0)
        };
        let frame_ms: f64 = f[col("frame_ms")].parse().expect("frame_ms");
        assert!(
            (frame_ms - want_ms).abs() < 0.0011,
            "frame {}: {frame_ms} ms, captured {want_ms}",
            i + 1
        );
        let present = f[col("present_s")];
        match frames[i].1 {
            Some(shown) => {
                let present_s: f64 = present.parse().expect("present_s");
                let held_ms = (present_s - row.start_s) * 1e3;
                let want = ms(shown - frames[i].0);
                assert!(
                    (held_ms - want).abs() < 0.001,
                    "frame {}: {held_ms} ms, captured {want}",
                    i + 1
                );
            }
            None => assert_eq!(present, "", "frame {} was never shown", i + 1),
        }
    }
    // Then it starts over, its timeline carried on.
    let after = &rows[frames.len()];
    assert!(after.start_s > rows[frames.len() - 1].start_s);
}
