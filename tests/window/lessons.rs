//! The lessons in the real window: each runs, shows its lanes and its caption; L and Shift+L
//! step through them.

use crate::support::*;
use timestep_lab::view::lessons::LESSONS;

fn title(window: &str) -> String {
    xdotool(&["getwindowname", window]).unwrap_or_default()
}

#[test]
#[ignore = "needs a display"]
fn every_lesson_runs_with_its_lanes_and_draws_its_caption() {
    for (i, lesson) in LESSONS.iter().enumerate() {
        let n = (i + 1).to_string();
        let shot = TempFile::new(&format!("lesson-{n}.png"));
        let log = TempFile::new(&format!("lesson-{n}.csv"));
        let args = [
            "--lesson",
            &n,
            "--exit-after",
            "3s",
            "--screenshot",
            &shot.arg(),
            "--frame-log",
            &log.arg(),
        ];
        let mut app = Running::start(&format!("lesson-{n}"), &args);
        app.assert_clean_exit();
        let text = std::fs::read_to_string(&log.0).expect("the frame log exists");
        let rows = read_frame_log(&text);
        assert!(!rows.is_empty(), "lesson {n} presented nothing");
        let mut lanes: Vec<String> = Vec::new();
        for r in &rows {
            if !lanes.contains(&r.lane) {
                lanes.push(r.lane.clone());
            }
        }
        assert_eq!(lanes.join(","), lesson.lanes_text(), "lesson {n}");
        // The caption: a panel of text across the bottom of the panes, above the strip.
        let image = tiny_skia::Pixmap::load_png(&shot.0).expect("the screenshot is a PNG");
        let (w, h) = (image.width(), image.height());
        let strip = timestep_lab::view::draw::strip_height(w, h);
        let band = (h - strip - 90)..(h - strip - 8);
        let lit = band
            .flat_map(|y| (w / 4..3 * w / 4).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let p = image.pixel(x, y).expect("in range");
                u32::from(p.red()) + u32::from(p.green()) + u32::from(p.blue()) > 500
            })
            .count();
        assert!(lit > 300, "lesson {n}: only {lit} bright caption pixels");
    }
}

#[test]
#[ignore = "needs a display"]
fn l_and_shift_l_step_through_the_lessons() {
    let _screen = screen_lock();
    let mut app = Running::start("lesson-keys", &["--lesson", "1"]);
    let window = find_window(&mut app);
    let wait = |want: &str| {
        poll(&format!("a title with {want:?}"), || {
            title(&window).contains(want).then_some(())
        })
    };
    wait("lesson 1 \u{2014}");
    press(&window, "l");
    wait("lesson 2 \u{2014} split view: fixed | interpolated");
    press(&window, "shift+l");
    wait("lesson 1 \u{2014}");
    // Before the first lesson: the plain view it was launched with (three lanes overlaid).
    press(&window, "shift+l");
    poll("the plain view's title", || {
        let plain = "timestep-rope \u{2014} overlay: interpolated | unity+tick=100ms | variable";
        (title(&window) == plain).then_some(())
    });
    press(&window, "shift+l");
    wait("lesson 7 \u{2014} interpolated");
    app.assert_alive("stepping through the lessons");
    // Esc leaves the lesson first, and only then quits.
    press(&window, "Escape");
    poll("Esc to leave the lesson", || {
        let plain = "timestep-rope \u{2014} overlay: interpolated | unity+tick=100ms | variable";
        (title(&window) == plain).then_some(())
    });
    app.assert_alive("Esc in a lesson");
    app.escape_exits_0(&window);
}
