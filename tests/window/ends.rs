//! How the window's run ends, and what it leaves: its outputs given as streams are written
//! where the shell pointed them, after what the file held; SIGTERM quits it as Escape does,
//! writing its files (status 130); an X server that goes away leaves no temporary file and
//! the targets as they were.

use crate::support::{Running, TempFile, screen_lock};
use std::path::Path;
use std::process::{Command, Stdio};

const EARLIER: &str = "an earlier line\nand another\n";

/// The hidden names in `dir` that start with `.NAME` of `target`: its temporary files.
fn temporary_files(target: &Path) -> Vec<String> {
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return Vec::new();
    };
    let prefix = format!(".{}.tmp-", name.to_string_lossy());
    let names = std::fs::read_dir(dir).expect("the dir").map(|e| {
        let name = e.expect("an entry").file_name();
        name.to_string_lossy().into_owned()
    });
    names.filter(|n| n.starts_with(&prefix)).collect()
}

#[test]
#[ignore = "needs a display"]
fn the_frame_log_and_report_given_as_streams_follow_what_the_shell_had_in_the_files() {
    let _screen = screen_lock();
    let (out, err) = (TempFile::new("streams.out"), TempFile::new("streams.err"));
    for f in [&out, &err] {
        std::fs::write(&f.0, EARLIER).expect("the earlier lines");
    }
    let script = format!("\"$0\" \"$@\" >> '{}' 2>> '{}'", out.arg(), err.arg());
    let args = ["--frame-log", "/dev/stdout", "--report", "/dev/stderr"];
    let status = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(crate::support::BIN)
        .args(args)
        .args(["--exit-after", "1s"])
        .status()
        .expect("sh runs");
    let err_text = std::fs::read_to_string(&err.0).expect("the errors");
    assert!(status.success(), "{err_text}");
    let log = std::fs::read_to_string(&out.0).expect("the log");
    let log = log.strip_prefix(EARLIER).expect("the earlier lines kept");
    let rows = crate::support::read_frame_log(log);
    assert!(rows.len() > 1, "a second of frames:\n{log}");
    let report = err_text
        .strip_prefix(EARLIER)
        .expect("the earlier lines kept");
    assert!(report.contains("{\n  \"lanes\": ["), "{report}");
}

#[test]
#[ignore = "needs a display"]
fn sigterm_quits_the_window_as_escape_does_writing_its_files_with_status_130() {
    let _screen = screen_lock();
    let (log, report) = (TempFile::new("term.csv"), TempFile::new("term.json"));
    std::fs::write(&log.0, "the old log").expect("an old log");
    let args = ["--frame-log", &log.arg(), "--report", &report.arg()];
    let mut app = Running::start("term", &args);
    crate::support::wait_for_frames(&mut app, &log.0, 0, 5, "before SIGTERM");
    let sent = Command::new("kill")
        .args(["-TERM", &app.pid().to_string()])
        .status();
    assert!(sent.expect("kill runs").success());
    let status = app.wait_for_exit();
    assert_eq!(status.code(), Some(130), "{}", app.stderr());
    let rows = crate::support::check_frame_log(&log.0);
    assert!(rows.len() >= 5, "the log is written");
    let json = std::fs::read_to_string(&report.0).expect("the report is written");
    assert!(json.contains("\"lanes\""), "{json}");
    assert!(temporary_files(&log.0).is_empty() && temporary_files(&report.0).is_empty());
}

/// A private X server on a free display; its number.
fn private_xvfb() -> (std::process::Child, String) {
    let mut xvfb = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1280x800x24"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb runs");
    let mut number = String::new();
    let stdout = xvfb.stdout.as_mut().expect("its stdout");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut number)
        .expect("Xvfb says its display");
    (xvfb, format!(":{}", number.trim()))
}

#[test]
#[ignore = "needs a display"]
fn an_x_server_that_goes_away_leaves_the_files_as_they_were_and_nothing_beside() {
    let (mut xvfb, display) = private_xvfb();
    let log = TempFile::new("lost-x.csv");
    std::fs::write(&log.0, "the old log").expect("an old log");
    let args = ["--frame-log", &log.arg()];
    let env = [("DISPLAY", Some(display.as_str()))];
    let mut app = Running::start_with_env("lost-x", &args, &env);
    crate::support::wait_for_frames(&mut app, &log.0, 0, 5, "before the X server goes");
    xvfb.kill().expect("the X server is killed");
    let _ = xvfb.wait();
    let status = app.wait_for_exit();
    assert!(!status.success(), "{}", app.stderr());
    let now = std::fs::read_to_string(&log.0).expect("the log");
    assert_eq!(now, "the old log");
    assert_eq!(temporary_files(&log.0), Vec::<String>::new());
}
