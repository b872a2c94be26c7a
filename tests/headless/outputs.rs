//! Output files as a user meets them: an output that is an input, or another output, is
//! refused before anything is written; a run that fails leaves a file already there exactly as
//! it was and nothing beside it; a run that finishes replaces it whole.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn command(dir: &Path, args: &[&str]) -> Command {
    let mut c = crate::support::bin();
    c.args(args).current_dir(dir);
    c
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    command(dir, args).output().expect("the binary runs")
}

/// A fresh directory of the test's own.
fn dir(name: &str) -> PathBuf {
    crate::support::scratch(&format!("outputs-{name}"))
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the dir")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A real capture, copied into `dir` as `run.csv`; its bytes.
fn capture(dir: &Path) -> Vec<u8> {
    let bytes = std::fs::read("tests/data/presentmon/test_case_5.csv").expect("the capture");
    std::fs::write(dir.join("run.csv"), &bytes).expect("a copy");
    bytes
}

#[test]
fn a_trace_onto_its_own_capture_is_refused_however_it_is_spelled_and_the_capture_kept() {
    let dir = dir("capture");
    let bytes = capture(&dir);
    let absolute = dir.join("run.csv").to_string_lossy().into_owned();
    std::fs::hard_link(dir.join("run.csv"), dir.join("hard.csv")).expect("a hard link");
    #[cfg(unix)]
    std::os::unix::fs::symlink("run.csv", dir.join("soft.csv")).expect("a symlink");
    let mut cases = vec![
        ["run.csv", "run.csv"],
        ["./run.csv", "run.csv"],
        ["run.csv", absolute.as_str()],
        ["run.csv", "hard.csv"],
    ];
    if cfg!(unix) {
        cases.extend([["soft.csv", "run.csv"], ["run.csv", "soft.csv"]]);
    }
    for [input, output] in cases {
        for flag in ["--trace", "--plot"] {
            let output = if flag == "--plot" {
                // A plot's name must end in .svg: a link of that name to the capture.
                let link = dir.join("plot.svg");
                let _ = std::fs::remove_file(&link);
                std::fs::hard_link(dir.join(output), &link).expect("a hard link");
                "plot.svg"
            } else {
                output
            };
            let out = run_in(&dir, &["replay", input, flag, output]);
            let e = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{input} {flag} {output}: {e}");
            assert_eq!(e.trim_end().lines().count(), 1, "{e}");
            assert!(e.contains(flag) && e.contains("the capture"), "{e}");
            assert!(out.stdout.is_empty(), "{input} {output}: the replay ran");
            let now = std::fs::read(dir.join("run.csv")).expect("the capture is there");
            assert!(now == bytes, "{input} {flag} {output}: the capture changed");
        }
    }
    let mut expected = vec!["hard.csv", "plot.svg", "run.csv"];
    if cfg!(unix) {
        expected.push("soft.csv");
    }
    assert_eq!(names(&dir), expected, "nothing else was written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_onto_a_machine_profile_or_the_windows_capture_is_refused() {
    let dir = dir("inputs");
    let bytes = capture(&dir);
    let probe = run_in(&dir, &["probe", "--seconds", "0.05", "--out", "m.json"]);
    assert!(probe.status.success(), "{}", stderr(&probe));
    let profile = std::fs::read(dir.join("m.json")).expect("the profile");
    for (args, flag) in [
        (
            &["simulate", "--machine", "m.json", "--trace", "./m.json"][..],
            "--trace",
        ),
        (
            &["sweep", "--machine", "m.json", "--csv", "m.json"],
            "--csv",
        ),
        (
            &["--replay", "run.csv", "--frame-log", "./run.csv"],
            "--frame-log",
        ),
        (&["--replay", "run.csv", "--report", "run.csv"], "--report"),
    ] {
        let out = run_in(&dir, args);
        let e = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(flag) && e.lines().count() == 1, "{args:?}: {e}");
    }
    assert!(std::fs::read(dir.join("m.json")).expect("m.json") == profile);
    assert!(std::fs::read(dir.join("run.csv")).expect("run.csv") == bytes);
    assert_eq!(names(&dir), ["m.json", "run.csv"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_window_that_fails_after_its_files_were_created_leaves_them_as_they_were() {
    if cfg!(any(target_os = "macos", target_os = "windows")) {
        return; // there is always a display there
    }
    let dir = dir("window");
    let files = ["frames.csv", "report.json", "shot.png"];
    for f in files {
        std::fs::write(dir.join(f), format!("the old {f}")).expect("an old file");
    }
    let out = run_in(
        &dir,
        &[
            "--frame-log",
            "frames.csv",
            "--report",
            "report.json",
            "--screenshot",
            "shot.png",
            "--exit-after",
            "1s",
        ],
    );
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "no display: {e}");
    assert!(e.contains("no display"), "{e}");
    for f in files {
        let now = std::fs::read_to_string(dir.join(f)).expect("the old file is there");
        assert_eq!(now, format!("the old {f}"));
    }
    assert_eq!(names(&dir), files, "no temporary file is left");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn a_sweep_whose_report_cannot_be_written_leaves_its_csv_as_it_was() {
    let dir = dir("sweep");
    std::fs::write(dir.join("rows.csv"), "the old rows").expect("an old file");
    let full = std::fs::File::create("/dev/full").expect("/dev/full");
    let out = command(
        &dir,
        &[
            "sweep",
            "--seconds",
            "1",
            "--display-hz",
            "60,75",
            "--lanes",
            "fixed",
            "--csv",
            "rows.csv",
        ],
    )
    .stdout(Stdio::from(full))
    .output()
    .expect("the binary runs");
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "stdout is full: {e}");
    assert!(e.contains("writing the sweep failed"), "{e}");
    let now = std::fs::read_to_string(dir.join("rows.csv")).expect("rows.csv");
    assert_eq!(now, "the old rows");
    assert_eq!(names(&dir), ["rows.csv"], "no temporary file is left");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_that_finishes_replaces_its_files_whole_and_leaves_nothing_beside() {
    let dir = dir("replace");
    let old = "an old file, longer than the trace's header line, and then some more";
    for f in ["t.csv", "state.json", "f.svg"] {
        std::fs::write(dir.join(f), old).expect("an old file");
    }
    let out = run_in(
        &dir,
        &[
            "simulate",
            "--seconds",
            "0.5",
            "--lanes",
            "fixed",
            "--trace",
            "t.csv",
            "--dump-state",
            "state.json",
            "--plot",
            "f.svg",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let trace = std::fs::read_to_string(dir.join("t.csv")).expect("the trace");
    assert!(trace.starts_with("lane,frame,"), "{trace}");
    assert_eq!(trace.lines().count(), 1 + 30, "the header and 30 frames");
    let state = std::fs::read_to_string(dir.join("state.json")).expect("the state");
    assert!(
        state.starts_with("{\"lanes\"") && !state.contains(old),
        "{state}"
    );
    let svg = std::fs::read_to_string(dir.join("f.svg")).expect("the plot");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(names(&dir), ["f.svg", "state.json", "t.csv"]);
    let _ = std::fs::remove_dir_all(&dir);
}
