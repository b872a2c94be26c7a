//! When the window's frames were really shown (present feedback, the `display-feedback` crate):
//! under a headless Weston, Wayland's presentation feedback; under Xvfb, X11's vblank clock
//! (an estimate: each frame at the first vblank after its present returned, or discarded where
//! the next frame's present came first).
//! These check structure, not rate: headless Weston repaints on a software timer (about
//! 17.6 ms with its repaint window at 16 ms) and Xvfb's vblank is a fake 60 Hz one.
//!
//! The Wayland tests need `weston`: `.ci/run` installs it and starts one
//! (`TIMESTEP_ROPE_WESTON` names its socket); elsewhere a test starts its own, and where there
//! is no `weston` it says so and passes, unless CI runs it (`TIMESTEP_ROPE_CI`), where that
//! fails.

use crate::support::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use timestep_lab::hosts::replay::{Stream, open};

/// Frames at the end of a run whose feedback may not have come before the window closed (the
/// frame log holds a frame's rows this many frames, waiting for it).
const LAST_UNHEARD: usize = 8;

/// A headless Weston to run the window on.
struct Weston {
    /// The compositor this test started (none: `.ci/run`'s).
    child: Option<Child>,
    socket: String,
    runtime_dir: PathBuf,
    config: Option<TempFile>,
}

impl Weston {
    /// `.ci/run`'s Weston, or one of this test's own; `None` (the test skips, saying why) where
    /// there is no `weston`, unless CI runs the tests.
    fn start(name: &str) -> Option<Weston> {
        let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
        if let (Ok(socket), Some(runtime_dir)) = (std::env::var("TIMESTEP_ROPE_WESTON"), &runtime) {
            return Some(Weston {
                child: None,
                socket,
                runtime_dir: runtime_dir.clone(),
                config: None,
            });
        }
        let found = Command::new("weston")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            let why = "weston is not installed (apt-get install weston)";
            assert!(
                std::env::var_os("TIMESTEP_ROPE_CI").is_none(),
                "{why}: CI runs the Wayland tests"
            );
            eprintln!("skipped: {why}");
            return None;
        }
        let runtime_dir = runtime
            .filter(|d| d.is_dir())
            .unwrap_or_else(|| private_dir(&temp_path("xdg")));
        let config = TempFile::new(&format!("{name}-weston.ini"));
        // The repaint window as DISPLAY_TRUTH.md found it: frames every ~17.6 ms, not 25.7.
        std::fs::write(&config.0, "[core]\nrepaint-window=16\nidle-time=0\n").expect("ini");
        let socket = format!("timestep-rope-{}-{name}", std::process::id());
        let child = Command::new("weston")
            .args([
                "--backend=headless-backend.so",
                "--width=1280",
                "--height=800",
                "--use-pixman",
                &format!("--socket={socket}"),
                &format!("--config={}", config.arg()),
            ])
            .env("XDG_RUNTIME_DIR", &runtime_dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start weston");
        let mut weston = Weston {
            child: Some(child),
            socket,
            runtime_dir,
            config: Some(config),
        };
        let path = weston.runtime_dir.join(&weston.socket);
        poll_for("weston's socket", HANG_GUARD, || {
            if let Some(Ok(Some(status))) = weston.child.as_mut().map(Child::try_wait) {
                panic!("weston exited with {status}");
            }
            path.exists().then_some(())
        });
        Some(weston)
    }

    /// The window's environment on this compositor: Wayland only.
    fn env(&self) -> Vec<(&'static str, Option<String>)> {
        vec![
            ("WAYLAND_DISPLAY", Some(self.socket.clone())),
            (
                "XDG_RUNTIME_DIR",
                Some(self.runtime_dir.display().to_string()),
            ),
            ("DISPLAY", None),
        ]
    }
}

impl Drop for Weston {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = self.config.take();
    }
}

/// `dir`, made private to its owner (Wayland's runtime directory must be 0700).
fn private_dir(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).expect("runtime dir");
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).expect("chmod 700");
    dir.to_path_buf()
}

/// Starts timestep-rope with `args` and `env`.
fn start(name: &str, args: &[&str], env: &[(&'static str, Option<String>)]) -> Running {
    let env: Vec<(&str, Option<&str>)> = env.iter().map(|(k, v)| (*k, v.as_deref())).collect();
    Running::start_with_env(name, args, &env)
}

/// One frame log row's times and where its display time came from.
#[derive(Debug)]
struct Shown {
    start_s: f64,
    present_s: Option<f64>,
    display_s: Option<f64>,
    source: String,
}

/// The frame log's rows, as [`Shown`].
fn shown(log: &Path) -> Vec<Shown> {
    let text = std::fs::read_to_string(log).expect("the frame log exists");
    read_frame_log(&text);
    let time = |cell: &str| (!cell.is_empty()).then(|| cell.parse::<f64>().expect("a time"));
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            Shown {
                start_s: time(f[col("start_s")]).expect("start_s"),
                present_s: time(f[col("present_s")]),
                display_s: time(f[col("display_s")]),
                source: f[col("display_source")].to_string(),
            }
        })
        .collect()
}

/// The frames the display has had time to answer for (all but the last few), presented.
fn answered(rows: &[Shown]) -> Vec<&Shown> {
    let settled = rows.len().saturating_sub(LAST_UNHEARD);
    rows[..settled]
        .iter()
        .filter(|r| r.present_s.is_some())
        .collect()
}

#[test]
#[ignore = "needs a display"]
fn under_wayland_every_frame_is_logged_shown_or_discarded_and_replay_reads_it_back() {
    let Some(weston) = Weston::start("log") else {
        return;
    };
    let (log, report) = (TempFile::new("wayland.csv"), TempFile::new("wayland.json"));
    // A display timer's lane: the frame protocol hands it the window's feedback.
    let args = [
        "--lanes",
        "fixed+display",
        "--exit-after",
        "4s",
        "--frame-log",
        &log.arg(),
        "--report",
        &report.arg(),
    ];
    let mut app = start("wayland", &args, &weston.env());
    app.assert_clean_exit();
    let rows = shown(&log.0);
    let heard = answered(&rows);
    assert!(
        heard.len() >= 60,
        "only {} frames answered for",
        heard.len()
    );
    // Every frame the compositor had time to answer for: shown, or said discarded; by Wayland.
    let with_time = heard.iter().filter(|r| r.display_s.is_some()).count();
    assert!(
        with_time * 100 >= heard.len() * 99,
        "{with_time} of {} frames have a display time",
        heard.len()
    );
    for r in &heard {
        assert_eq!(r.source, "wayland", "{r:?}");
    }
    // Display times increase, and each comes after its frame began (and so its present call).
    let times: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| r.display_s.map(|d| (r.start_s, d)))
        .collect();
    for pair in times.windows(2) {
        assert!(pair[1].1 > pair[0].1, "display times go back: {pair:?}");
    }
    for (start, display) in &times {
        assert!(
            display > start,
            "shown at {display} before its start {start}"
        );
    }
    // The report: measured, and latency from the present call positive.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report.0).expect("report")).expect("json");
    let display = &json["window"]["display"];
    assert_eq!(display["source"], "wayland", "{display}");
    assert_eq!(display["measured"], true);
    assert!(
        display["latency_ms_mean"]
            .as_f64()
            .is_some_and(|ms| ms > 0.0),
        "{display}"
    );
    assert!(
        display["interval_ms_mean"]
            .as_f64()
            .is_some_and(|ms| ms > 0.0),
        "{display}"
    );
    let lane = &json["lanes"][0];
    let (frames, fed) = (lane["frames"].as_u64(), lane["feedback_frames"].as_u64());
    assert!(
        frames.zip(fed).is_some_and(|(n, f)| f * 10 >= n * 9),
        "the display timer heard of {fed:?} of {frames:?} frames"
    );
    // replay reads the display times back as each frame's time on screen.
    let (selection, summary) = open(&log.0, None, None).expect("replay opens the log");
    let mut stream = Stream::open(&log.0, &selection).expect("the log streams");
    let mut replayed = Vec::new();
    while let Some(f) = stream.next_frame().expect("a frame") {
        replayed.push(f.shown_ns);
    }
    assert_eq!(replayed.len(), rows.len(), "{summary:?}");
    let ns = |s: f64| (s * 1e9).round() as u64;
    for (r, got) in rows.iter().zip(&replayed) {
        let want = match (r.display_s, r.source.as_str()) {
            (Some(d), _) => Some(ns(d)),
            (None, "none") => r.present_s.map(ns),
            (None, _) => None,
        };
        let close = match (want, got) {
            (Some(a), Some(b)) => a.abs_diff(*b) <= 1,
            (a, b) => a == *b,
        };
        assert!(close, "{r:?} replayed as {got:?}");
    }
    let out = Command::new(BIN)
        .args(["replay", &log.arg()])
        .output()
        .expect("run replay");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "needs a display"]
fn under_wayland_the_window_probe_says_what_the_compositor_showed_in_each_mode() {
    let Some(weston) = Weston::start("probe") else {
        return;
    };
    let stdout = TempFile::new("wayland-probe.json");
    let args = ["probe", "--seconds", "1", "--window", "--json"];
    let owned = weston.env();
    let env: Vec<(&str, Option<&str>)> = owned.iter().map(|(k, v)| (*k, v.as_deref())).collect();
    let mut app = Running::start_with_env_and_stdout("wayland-probe", &args, &env, &stdout.0);
    let (status, took) = app.wait_for_exit_within(PATIENCE);
    assert!(status.success(), "stderr:\n{}", app.stderr());
    assert!(took < Duration::from_secs(60));
    let text = std::fs::read_to_string(&stdout.0).expect("stdout");
    let report: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    let display = &report["display"];
    assert_eq!(display["source"], "wayland", "{display}");
    let modes = display["modes"].as_array().expect("modes");
    assert!(!modes.is_empty(), "{display}");
    for m in modes {
        let n = |k: &str| m[k].as_u64().unwrap_or(0);
        assert!(n("shown") + n("discarded") <= n("presented"), "{m}");
        if n("presented") > 20 {
            assert!(n("shown") + n("discarded") > 0, "{m}");
            assert_eq!(m["source"], "wayland", "{m}");
        }
    }
    assert!(
        modes
            .iter()
            .any(|m| m["interval_ms_median"].as_f64().is_some_and(|ms| ms > 0.0)),
        "{display}"
    );
}

#[test]
#[ignore = "needs a display"]
fn under_x11_frames_are_shown_by_the_vblank_clock_an_estimate_after_each_present() {
    let _screen = screen_lock();
    let (log, report) = (TempFile::new("vblank.csv"), TempFile::new("vblank.json"));
    let args = [
        "--lanes",
        "fixed",
        "--exit-after",
        "3s",
        "--frame-log",
        &log.arg(),
        "--report",
        &report.arg(),
    ];
    let mut app = Running::start("vblank", &args);
    app.assert_clean_exit();
    let rows = shown(&log.0);
    let heard = answered(&rows);
    assert!(
        heard.len() >= 30,
        "only {} frames answered for",
        heard.len()
    );
    // Every frame answered for, by the vblank clock: shown at a vblank, or replaced by the next
    // frame before that vblank (Xvfb's presents are not paced), so discarded.
    for r in &heard {
        assert_eq!(r.source, "vblank-clock", "{r:?}");
    }
    let with_time: Vec<&&Shown> = heard.iter().filter(|r| r.display_s.is_some()).collect();
    assert!(
        with_time.len() * 3 >= heard.len(),
        "{} of {} frames shown",
        with_time.len(),
        heard.len()
    );
    for r in &with_time {
        // At the first vblank at or after the present returned (a little before the log's
        // present_s, read just after).
        let (d, p) = (r.display_s.unwrap_or(0.0), r.present_s.unwrap_or(0.0));
        assert!(d >= p - 0.001, "{r:?}");
    }
    // One frame a vblank: the display times increase.
    let times: Vec<f64> = with_time.iter().filter_map(|r| r.display_s).collect();
    for pair in times.windows(2) {
        assert!(pair[1] > pair[0], "display times do not increase: {pair:?}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report.0).expect("report")).expect("json");
    assert_eq!(json["window"]["display"]["source"], "vblank-clock");
    assert_eq!(json["window"]["display"]["measured"], false);
}
