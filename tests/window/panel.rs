//! The control panel in the real window: shown at launch, hidden with its key, and in the
//! `--screenshot` either way as the user sees it.

use crate::support::*;

/// Bright pixels (text) in the panel's corner of a screenshot: right of the pin, above
/// the height the rope can swing to, where nothing else is drawn.
fn text_in_panel_corner(shot: &std::path::Path) -> usize {
    let image = tiny_skia::Pixmap::load_png(shot).expect("the screenshot is a PNG");
    let _ = std::fs::remove_file(shot);
    let (w, h) = (image.width(), image.height());
    assert!(w >= 400 && h >= 200, "{w}x{h}");
    let mut bright = 0;
    for y in 40..130 {
        for x in w - 280..w - 20 {
            let p = image.pixel(x, y).expect("in range").demultiply();
            let luma =
                (u32::from(p.red()) * 3 + u32::from(p.green()) * 6 + u32::from(p.blue())) / 10;
            if luma > 120 {
                bright += 1;
            }
        }
    }
    bright
}

/// A 3 s run's screenshot, with `keys` typed into the window first.
fn screenshot(name: &str, keys: &[&str]) -> std::path::PathBuf {
    let shot = temp_path(name);
    let shot_arg = shot.to_string_lossy().to_string();
    let args = [
        "--exit-after",
        "3s",
        "--screenshot",
        &shot_arg,
        "--drive",
        "off",
    ];
    let mut app = Running::start(name, &args);
    if !keys.is_empty() {
        let window = find_window(&mut app);
        for key in keys {
            press(&window, key);
        }
    }
    app.assert_exits_0();
    shot
}

#[test]
#[ignore = "needs a display"]
fn the_panel_shows_at_launch_in_the_screenshot_and_its_key_hides_it() {
    let _screen = screen_lock();
    let shown = text_in_panel_corner(&screenshot("panel-shown.png", &[]));
    let hidden = text_in_panel_corner(&screenshot("panel-hidden.png", &["F2"]));
    eprintln!("bright pixels in the panel's corner: shown {shown}, hidden {hidden}");
    assert!(shown > 300, "only {shown} bright pixels where the panel is");
    assert!(hidden * 10 < shown, "hidden {hidden}, shown {shown}");
}
