//! Outputs that are streams, as a shell hands them over: `--trace /dev/stdout >> log.txt` adds
//! to `log.txt` after what it held, in the order the program writes, and renames nothing over
//! it; and runs that a signal ends leave no temporary file beside their targets.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A fresh directory of the test's own.
fn dir(name: &str) -> PathBuf {
    crate::support::scratch(&format!("streams-{name}"))
}

/// The hidden names in `dir`: temporary files left behind.
fn hidden(dir: &Path) -> Vec<String> {
    let names = std::fs::read_dir(dir).expect("the dir").map(|e| {
        let name = e.expect("an entry").file_name();
        name.to_string_lossy().into_owned()
    });
    names.filter(|n| n.starts_with('.')).collect()
}

/// The program run by `sh` in `dir` with `args` and then the shell's `redirect`
/// (`>> log.txt`), as a user types it.
fn shell(dir: &Path, args: &[&str], redirect: &str) -> Output {
    let mut c = crate::support::bin();
    let script = format!("\"$0\" \"$@\" {redirect}");
    let program = c.get_program().to_owned();
    c = Command::new("sh");
    c.arg("-c").arg(script).arg(program).args(args);
    c.env_remove("DISPLAY").current_dir(dir);
    c.output().expect("sh runs")
}

const EARLIER: &str = "an earlier line\nand another\n";

/// The outputs of every command, each a stream the shell opened with `>>`, and what must
/// follow the earlier lines in that file, in order.
fn cases() -> Vec<(Vec<&'static str>, &'static str, Vec<&'static str>)> {
    let sim = ["simulate", "--seconds", "0.1", "--lanes", "fixed"];
    let replay = ["replay", "run.csv", "--lanes", "fixed"];
    let sweep = [
        "sweep",
        "--seconds",
        "0.2",
        "--display-hz",
        "60,75",
        "--lanes",
        "fixed",
    ];
    let with = |base: &[&'static str], more: &[&'static str]| [base, more].concat();
    let trace_then_report = vec!["lane,frame,start_s", "fixed,5,", "For a verdict"];
    let svg_then_report = vec!["<svg", "</svg>", "For a verdict"];
    vec![
        (
            with(&sim, &["--trace", "/dev/stdout"]),
            ">> out.txt",
            trace_then_report.clone(),
        ),
        (
            with(&sim, &["--dump-state", "/dev/fd/1"]),
            ">> out.txt",
            vec!["{\"lanes\"", "For a verdict"],
        ),
        (
            with(&sim, &["--plot", "stdout.svg"]),
            ">> out.txt",
            svg_then_report.clone(),
        ),
        (
            with(&sim, &["--trace", "/dev/stderr"]),
            "2>> out.txt",
            vec!["lane,frame,start_s", "fixed,5,"],
        ),
        (
            with(&sim, &["--trace", "/dev/fd/3"]),
            "3>> out.txt",
            vec!["lane,frame,start_s", "fixed,5,"],
        ),
        (
            with(&replay, &["--trace", "/proc/self/fd/1"]),
            ">> out.txt",
            trace_then_report,
        ),
        (
            with(&replay, &["--plot", "stdout.svg"]),
            ">> out.txt",
            svg_then_report,
        ),
        (
            with(&sweep, &["--csv", "/dev/stdout"]),
            ">> out.txt",
            vec![
                "2 display rates",
                "display_hz,lane",
                "60,fixed",
                "75,fixed",
                "2 of 2 configurations",
            ],
        ),
        (
            with(&sweep, &["--plot", "stdout.svg"]),
            ">> out.txt",
            // The plot is drawn from the summary, after it is printed.
            vec!["2 display rates", "2 of 2 configurations", "<svg", "</svg>"],
        ),
        (
            vec!["probe", "--seconds", "0.05", "--out", "/dev/fd/1"],
            ">> out.txt",
            vec!["{", "\"spin_sleep\"", "}\n", "clock resolution"],
        ),
    ]
}

#[test]
fn every_output_given_a_stream_the_shell_appends_to_follows_what_the_file_held() {
    let dir = dir("appended");
    let capture = std::fs::read("tests/data/presentmon/test_case_5.csv").expect("a capture");
    std::fs::write(dir.join("run.csv"), capture).expect("a copy");
    // A plot's name must end in .svg or .png: a link of that name to stdout.
    std::os::unix::fs::symlink("/dev/stdout", dir.join("stdout.svg")).expect("a link");
    for (args, redirect, follows) in cases() {
        std::fs::write(dir.join("out.txt"), EARLIER).expect("the earlier lines");
        let out = shell(&dir, &args, redirect);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?} {redirect}: {stderr}");
        let text = std::fs::read_to_string(dir.join("out.txt")).expect("out.txt");
        let Some(rest) = text.strip_prefix(EARLIER) else {
            panic!("{args:?} {redirect}: the earlier lines are gone:\n{text}");
        };
        let mut at = 0;
        for word in follows {
            let Some(found) = rest[at..].find(word) else {
                panic!("{args:?} {redirect}: no {word:?} after byte {at}:\n{rest}");
            };
            at += found + word.len();
        }
        assert_eq!(
            hidden(&dir),
            Vec::<String>::new(),
            "{args:?}: a temporary file"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_trace_to_stdout_redirected_to_a_file_is_the_trace_then_the_report() {
    let dir = dir("truncated");
    std::fs::write(dir.join("out.txt"), EARLIER).expect("an old file");
    let args = [
        "simulate",
        "--seconds",
        "0.1",
        "--lanes",
        "fixed",
        "--trace",
        "/dev/stdout",
    ];
    let out = shell(&dir, &args, "> out.txt");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("out.txt")).expect("out.txt");
    let header = "lane,frame,start_s,present_s,display_s,display_source,frame_ms,steps,alpha,shown_s,drift_ms";
    assert!(text.starts_with(header), "{text}");
    let rows = text.lines().skip(1).take_while(|l| l.starts_with("fixed,"));
    assert_eq!(rows.count(), 6, "six frames in 0.1 s at 60 Hz:\n{text}");
    // The verdict line asks for the shortest run a verdict takes (0.1 s shows 6 frames).
    assert!(text.trim_end().ends_with("advise --seconds 2"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_outputs_on_one_redirected_stream_are_both_written_in_turn() {
    // `> log 2>&1` sends stdout and stderr to one file: two outputs given as them are the
    // program's streams, not two files one of which would replace the other.
    let dir = dir("one-stream");
    for (outputs, redirect) in [
        (
            ["--trace", "/dev/stdout", "--dump-state", "/dev/stderr"],
            "> log.txt 2>&1",
        ),
        (
            ["--trace", "/dev/stdout", "--dump-state", "/dev/stdout"],
            "> log.txt",
        ),
    ] {
        let args = [
            &["simulate", "--seconds", "0.1", "--lanes", "fixed"][..],
            &outputs,
        ]
        .concat();
        let out = shell(&dir, &args, redirect);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let log = std::fs::read_to_string(dir.join("log.txt")).expect("log.txt");
        assert!(log.starts_with("lane,frame,start_s"), "{log}");
        assert!(log.contains("\"positions\""), "the dumped state in:\n{log}");
    }
    // A stream is still compared with the inputs: appending to the capture being read is not.
    std::fs::copy("tests/data/presentmon/test_case_0.csv", dir.join("cap.csv")).expect("copy");
    let out = shell(
        &dir,
        &["replay", "cap.csv", "--trace", "/dev/stdout"],
        ">> cap.csv",
    );
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stream_whose_reader_goes_early_is_no_error() {
    // `simulate --trace /dev/stdout | head`: once head has its lines and goes, the rest of the
    // trace has nowhere to go, as the table has not; status 0, and nothing said.
    let dir = dir("reader-gone");
    let runs: [&[&str]; 3] = [
        &["simulate", "--seconds", "20", "--trace", "/dev/stdout"],
        &[
            "sweep",
            "--seconds",
            "2",
            "--display-hz",
            "60,75",
            "--csv",
            "/dev/stdout",
        ],
        &[
            "simulate",
            "--seconds",
            "20",
            "--trace",
            "/dev/fd/1",
            "--json",
        ],
    ];
    for args in runs {
        let mut child = crate::support::bin()
            .args(args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut first = [0u8; 64];
        if let Some(out) = child.stdout.as_mut() {
            std::io::Read::read_exact(out, &mut first).expect("the first bytes");
        }
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("it ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `args` started in `dir`, once it is writing `target`: its temporary file beside it holds
/// more than a header. Polled, not timed; a minute is only a guard against a hang.
fn started(dir: &Path, args: &[&str], target: &str) -> Child {
    let mut child = crate::support::bin()
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let prefix = format!(".{target}.tmp-{}", child.id());
    let guard = std::time::Instant::now();
    loop {
        let writing = hidden(dir).into_iter().find(|n| n.starts_with(&prefix));
        let len = writing.and_then(|n| std::fs::metadata(dir.join(n)).ok());
        if len.is_some_and(|m| m.len() > 4096) {
            return child;
        }
        let ended = child.try_wait().expect("wait");
        assert!(
            ended.is_none() && guard.elapsed().as_secs() < 60,
            "{args:?} never got going"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Sends `signals` (`TERM`, `HUP`), in order, to `child`.
fn signal(child: &Child, signals: &[&str]) {
    for s in signals {
        let sent = Command::new("kill")
            .arg(format!("-{s}"))
            .arg(child.id().to_string())
            .status();
        assert!(sent.expect("kill runs").success(), "kill -{s}");
    }
}

/// A capture in our own frame records' layout, of `frames` frames at 60 Hz: long enough to
/// replay for many seconds, small to write.
fn long_capture(path: &Path, frames: u64) {
    let mut text = String::from("lane,start_s,present_s\n");
    for i in 0..frames {
        let start = i * 16_666_667;
        let present = start + 10_000_000;
        let s = |ns: u64| format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000);
        text.push_str(&format!("fixed,{},{}\n", s(start), s(present)));
    }
    std::fs::write(path, text).expect("the capture");
}

/// The long runs a signal may end: `simulate` and `replay`, each writing `t.csv`.
fn long_runs(dir: &Path) -> [Vec<&'static str>; 2] {
    long_capture(&dir.join("long.csv"), 300_000);
    [
        vec![
            "simulate",
            "--seconds",
            "36000",
            "--lanes",
            "fixed",
            "--trace",
            "t.csv",
        ],
        vec!["replay", "long.csv", "--trace", "t.csv"],
    ]
}

#[test]
fn sigterm_or_sighup_stops_a_run_as_ctrl_c_does_writing_its_files_status_130() {
    let dir = dir("signalled");
    for args in long_runs(&dir) {
        for sig in ["TERM", "HUP"] {
            std::fs::write(dir.join("t.csv"), "the old trace").expect("an old trace");
            let child = started(&dir, &args, "t.csv");
            signal(&child, &[sig]);
            let out = child.wait_with_output().expect("it ends");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(130), "{args:?} {sig}: {stderr}");
            let report = String::from_utf8_lossy(&out.stdout);
            assert!(report.contains("interrupted"), "{args:?} {sig}: {report}");
            let trace = std::fs::read_to_string(dir.join("t.csv")).expect("the trace");
            assert!(
                trace.starts_with("lane,frame,"),
                "{args:?} {sig}: {trace:.80}"
            );
            assert!(trace.ends_with('\n'), "{args:?} {sig}: the trace is whole");
            assert_eq!(hidden(&dir), Vec::<String>::new(), "{args:?} {sig}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_signal_ends_a_run_at_once_leaving_its_files_as_they_were() {
    let dir = dir("signalled-twice");
    for args in long_runs(&dir) {
        std::fs::write(dir.join("t.csv"), "the old trace").expect("an old trace");
        let child = started(&dir, &args, "t.csv");
        // Both arrive together: stopped, the process holds them pending until it goes on, so
        // the run cannot finish its files between the first and the second.
        signal(&child, &["STOP", "TERM", "HUP", "CONT"]);
        let out = child.wait_with_output().expect("it ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{args:?}: {stderr}");
        let trace = std::fs::read_to_string(dir.join("t.csv")).expect("the trace");
        assert_eq!(trace, "the old trace", "{args:?}");
        assert_eq!(hidden(&dir), Vec::<String>::new(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_output_paths_are_refused_before_anything_runs_and_long_names_are_written() {
    let dir = dir("refused");
    let capture = std::fs::read("tests/data/presentmon/test_case_5.csv").expect("a capture");
    std::fs::write(dir.join("run.csv"), capture).expect("a copy");
    std::fs::write(dir.join("file"), "a file").expect("a file");
    std::os::unix::fs::symlink("loop", dir.join("loop")).expect("a looping link");
    let commands: [(&[&str], &str); 4] = [
        (&["simulate", "--seconds", "0.1"], "--trace"),
        (&["replay", "run.csv"], "--trace"),
        (
            &["sweep", "--seconds", "0.1", "--display-hz", "60"],
            "--csv",
        ),
        (&["probe", "--seconds", "0.05"], "--out"),
    ];
    for (command, flag) in commands {
        for (path, says) in [
            ("newdir/", "names a directory"),
            ("file/", "names a directory"),
            ("loop", "symlink that loops"),
        ] {
            let mut c = crate::support::bin();
            let out = c
                .args(command)
                .args([flag, path])
                .current_dir(&dir)
                .output();
            let out = out.expect("the binary runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{command:?} {flag} {path}: {stderr}"
            );
            assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
            let named = format!("{flag} '{path}'");
            assert!(stderr.contains(&named) && stderr.contains(says), "{stderr}");
            assert!(out.stdout.is_empty(), "{command:?} {flag} {path}: it ran");
        }
    }
    assert_eq!(hidden(&dir), Vec::<String>::new());
    assert!(!dir.join("newdir").exists() && !dir.join(".newdir").exists());
    // The longest names a file may have: the temporary name beside each fits too.
    for len in [246, 250, 255] {
        let name = "t".repeat(len);
        let args = ["simulate", "--seconds", "0.1", "--trace", &name];
        let out = crate::support::bin().args(args).current_dir(&dir).output();
        let out = out.expect("the binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "a name of {len} bytes: {stderr}");
        let trace = std::fs::read_to_string(dir.join(&name)).expect("the trace");
        assert!(trace.starts_with("lane,frame,"), "{len}");
    }
    assert_eq!(hidden(&dir), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}
