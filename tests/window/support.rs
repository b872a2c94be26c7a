//! The harness shared by the real-window tests (`basics.rs`, `faults.rs`): start
//! timestep-rope as a child that is killed if a test fails, find its window by pid, drive it
//! with xdotool, poll for conditions with timeouts that only guard against hangs, and read
//! its frame log and memory.
//!
//! Under bare Xvfb there is no window manager: every window opens at (0, 0) and there is one
//! keyboard focus, so windows of tests running side by side would overlap and take each
//! other's pointer and focus. Tests that open a window take turns through [`screen_lock`].

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_timestep-rope");
/// Long enough for a software-rendered window on a loaded CI machine.
pub const PATIENCE: Duration = Duration::from_secs(60);
/// A start-up failure that takes longer than this is a hang.
pub const HANG_GUARD: Duration = Duration::from_secs(20);
/// The frame log's columns: the frame records' layout, the one `simulate --trace` writes.
pub use timestep_lab::protocol::frame_csv::COLUMNS as FRAME_LOG_COLUMNS;

/// The frame log's header line.
pub fn frame_log_header() -> String {
    FRAME_LOG_COLUMNS.join(",")
}

/// Where column `name` is in a frame log's row.
pub fn col(name: &str) -> usize {
    FRAME_LOG_COLUMNS
        .iter()
        .position(|c| *c == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

static SCREEN: Mutex<()> = Mutex::new(());

pub fn screen_lock() -> MutexGuard<'static, ()> {
    SCREEN.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "timestep-rope-faults-{}-{name}",
        std::process::id()
    ))
}

/// A running timestep-rope, killed if the test fails before it exits.
pub struct Running {
    child: Option<Child>,
    stderr_path: PathBuf,
    started: Instant,
}

impl Running {
    pub fn start(name: &str, args: &[&str]) -> Running {
        Running::start_with_env(name, args, &[])
    }

    /// Starts it with environment changes: `(name, Some(value))` sets, `(name, None)` removes.
    pub fn start_with_env(name: &str, args: &[&str], env: &[(&str, Option<&str>)]) -> Running {
        Running::spawn(name, args, env, Stdio::null())
    }

    /// Starts it with its stdout written to `stdout`.
    pub fn start_with_stdout(name: &str, args: &[&str], stdout: &Path) -> Running {
        Running::start_with_env_and_stdout(name, args, &[], stdout)
    }

    /// Starts it with environment changes (as [`Running::start_with_env`]) and its stdout
    /// written to `stdout`.
    pub fn start_with_env_and_stdout(
        name: &str,
        args: &[&str],
        env: &[(&str, Option<&str>)],
        stdout: &Path,
    ) -> Running {
        let file = File::create(stdout).expect("stdout capture file");
        Running::spawn(name, args, env, Stdio::from(file))
    }

    fn spawn(name: &str, args: &[&str], env: &[(&str, Option<&str>)], stdout: Stdio) -> Running {
        let stderr_path = temp_path(&format!("{name}.stderr"));
        let stderr = File::create(&stderr_path).expect("stderr capture file");
        let mut command = Command::new(BIN);
        command.args(args).stdout(stdout).stderr(stderr);
        for &(key, value) in env {
            match value {
                Some(v) => command.env(key, v),
                None => command.env_remove(key),
            };
        }
        let started = Instant::now();
        let child = command.spawn().expect("start timestep-rope");
        Running {
            child: Some(child),
            stderr_path,
            started,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, |c| c.id())
    }

    /// Where the app writes the output file `target` while it runs (it is renamed over
    /// `target` at exit): the file to follow.
    pub fn growing(&self, target: &Path) -> PathBuf {
        crate::pending::temp_path(target, self.pid()).expect("a file name")
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    /// Our own error lines, and any panic (the driver stack may add its own noise, e.g.
    /// Mesa's "XDG_RUNTIME_DIR is invalid" when it probes for Wayland). Warnings are not
    /// errors.
    pub fn our_lines(&self) -> Vec<String> {
        self.stderr()
            .lines()
            .filter(|l| l.starts_with("timestep-rope") || l.contains("panicked"))
            .filter(|l| !l.starts_with("timestep-rope: warning:"))
            .map(str::to_string)
            .collect()
    }

    pub fn warnings(&self) -> usize {
        self.stderr()
            .lines()
            .filter(|l| l.starts_with("timestep-rope: warning:"))
            .count()
    }

    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.as_mut()?.try_wait().expect("try_wait")
    }

    /// Waits for the exit, failing after `limit`; returns the status and the time since
    /// the process was started.
    pub fn wait_for_exit_within(&mut self, limit: Duration) -> (ExitStatus, Duration) {
        let status = poll_for("the process to exit", limit, || self.exited());
        (status, self.started.elapsed())
    }

    pub fn wait_for_exit(&mut self) -> ExitStatus {
        self.wait_for_exit_within(PATIENCE).0
    }

    /// Waits for the exit and checks its status is 0.
    pub fn assert_exits_0(&mut self) {
        let status = self.wait_for_exit();
        assert!(
            status.success(),
            "exit status {status}; stderr:\n{}",
            self.stderr()
        );
    }

    /// Presses Escape in `window` and checks the app then exits with status 0.
    pub fn escape_exits_0(&mut self, window: &str) {
        press(window, "Escape");
        self.assert_exits_0();
    }

    pub fn assert_alive(&mut self, after: &str) {
        if let Some(status) = self.exited() {
            panic!(
                "exited with {status} after {after}; stderr:\n{}",
                self.stderr()
            );
        }
    }

    /// Exit status 0, no panic, no error line of ours.
    pub fn assert_clean_exit(&mut self) {
        self.assert_exits_0();
        assert!(self.our_lines().is_empty(), "stderr:\n{}", self.stderr());
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            if let Ok(None) = child.try_wait() {
                let _ = child.kill();
            }
            let _ = child.wait();
        }
        let _ = std::fs::remove_file(&self.stderr_path);
    }
}

/// Polls `f` every 20 ms until it gives a value, for up to `limit`.
pub fn poll_for<T>(what: &str, limit: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn poll<T>(what: &str, f: impl FnMut() -> Option<T>) -> T {
    poll_for(what, PATIENCE, f)
}

pub fn xdotool(args: &[&str]) -> Option<String> {
    let out = Command::new("xdotool")
        .args(args)
        .output()
        .expect("xdotool is needed for the window tests (apt-get install xdotool)");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The window of the app (winit sets `_NET_WM_PID` on X11).
pub fn find_window(app: &mut Running) -> String {
    let pid = app.pid().to_string();
    poll("the window to appear", || {
        app.assert_alive("starting");
        xdotool(&["search", "--all", "--pid", &pid, "--name", "^timestep-rope"])
            .and_then(|ids| ids.lines().next().map(str::to_string))
    })
}

pub fn geometry(window: &str) -> Option<(u32, u32)> {
    let out = xdotool(&["getwindowgeometry", window])?;
    let size = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("Geometry: "))?;
    let (w, h) = size.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?))
}

pub fn viewable(app: &Running, window: &str) -> bool {
    let pid = app.pid().to_string();
    xdotool(&[
        "search",
        "--all",
        "--onlyvisible",
        "--pid",
        &pid,
        "--name",
        "^timestep-rope",
    ])
    .is_some_and(|ids| ids.lines().any(|id| id == window))
}

/// Focuses the window and types one key into it.
pub fn press(window: &str, key: &str) {
    xdotool(&["windowfocus", "--sync", window]).expect("xdotool windowfocus");
    xdotool(&["key", "--window", window, key]).expect("xdotool key");
}

/// Rows in the frame log so far (the app flushes it a few times a second): `log` is the file
/// being written ([`Running::growing`]).
pub fn frames(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

/// Waits until the log (`log`: the target) has `more` rows beyond `from`: the app is still
/// presenting.
pub fn wait_for_frames(
    app: &mut Running,
    log: &Path,
    from: usize,
    more: usize,
    when: &str,
) -> usize {
    let growing = app.growing(log);
    poll(&format!("{more} more presented frames {when}"), || {
        app.assert_alive(when);
        let now = frames(&growing);
        (now >= from + more).then_some(now)
    })
}

/// Checks the whole frame log: header, every field, every number finite. Returns the
/// `steps` column.
pub fn check_frame_log(log: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(log).expect("the frame log exists");
    read_frame_log(&text).into_iter().map(|r| r.steps).collect()
}

/// One parsed `--frame-log` row.
pub struct LogRow {
    /// The window's clock at the frame's start, s.
    pub start_s: f64,
    pub steps: u32,
    pub lane: String,
    pub exploded: bool,
}

/// Parses a frame log, checking the header and that every numeric field is finite.
pub fn read_frame_log(text: &str) -> Vec<LogRow> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(frame_log_header().as_str()));
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), FRAME_LOG_COLUMNS.len(), "{line}");
            let number = |i: usize| -> f64 {
                let v: f64 = f[i]
                    .parse()
                    .unwrap_or_else(|_| panic!("field {i} of {line}"));
                assert!(v.is_finite(), "field {i} is not finite: {line}");
                v
            };
            for name in ["start_s", "frame_ms", "alpha", "drift_ms"] {
                number(col(name));
            }
            LogRow {
                start_s: number(col("start_s")),
                steps: f[col("steps")]
                    .parse()
                    .unwrap_or_else(|_| panic!("steps in {line}")),
                lane: f[col("lane")].to_string(),
                exploded: match f[col("exploded")] {
                    "0" => false,
                    "1" => true,
                    other => panic!("exploded is {other:?} in {line}"),
                },
            }
        })
        .collect()
}

/// Resident memory of `pid` in KiB, from /proc.
pub fn vm_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()
}

pub fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// Removes a file when dropped, so a failing test leaves nothing behind.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(name: &str) -> TempFile {
        TempFile(temp_path(name))
    }
    pub fn arg(&self) -> String {
        self.0.to_string_lossy().to_string()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
