//! Captures made to break the reader: each is refused with one line naming the file (and where),
//! status 2, and no report, or read as it should be; none panics, hangs or holds the file whole.
//! The byte-level cases are unit tests beside the readers (`src/replay/rows.rs`,
//! `capframex.rs`, `select.rs`, `summary.rs`); these run the real binary.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A directory of this test's own (`name`) for its captures.
fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("timestep-rope-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `replay` with `args`, killing it after a minute (a guard: every case here ends in well
/// under a second), and with `stdin`.
fn replay(args: &[&str], stdin: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_timestep-rope"))
        .arg("replay")
        .args(args)
        .args(["--lanes", "fixed"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().expect("kill");
            panic!("replay {args:?} still running after a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// Asserts `out` is one line of error, status 2, no report, saying each of `words`.
fn refused(out: &Output, words: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(out.stdout.is_empty(), "printed a report: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "should say {word}: {stderr}");
    }
}

const HEADER: &str =
    "Application,ProcessID,SwapChainAddress,CPUStartQPC,MsCPUBusy,MsUntilDisplayed\n";

#[test]
fn hostile_files_are_one_line_naming_the_file_and_where() {
    let dir = dir("hostile");
    let long = format!(
        "{HEADER}game.exe,7,0x1,100,1.0,2.0\n{}",
        "9".repeat(2 << 20)
    );
    let far =
        format!("{HEADER}game.exe,7,0x1,100,1.0,2.0\ngame.exe,7,0x1,3155760000000000000,1.0,2.0\n");
    let json = |data: &str| format!("{{\"Runs\":[{{\"CaptureData\":{{{data}}}}}]}}");
    let cases: [(&str, Vec<u8>, &[&str]); 6] = [
        (
            "long.csv",
            long.into_bytes(),
            &["line 3", "longer than 1048576 bytes"],
        ),
        (
            "far.csv",
            far.into_bytes(),
            &["line 3", "CPUStartQPC", "146 years"],
        ),
        (
            "utf8.csv",
            [HEADER.as_bytes(), b"game.exe,7,0x1,1\xff0,1.0,2.0\n"].concat(),
            &["line 2", "column CPUStartQPC", "is not a number"],
        ),
        (
            "early.csv",
            format!("{HEADER}game.exe,7,0x1,100,1.0,-9.0\n").into_bytes(),
            &[
                "line 2",
                "column MsUntilDisplayed",
                "before the frame's start",
            ],
        ),
        (
            "dropped.json",
            json(r#""MsBetweenPresents":[16.6,16.6],"Dropped":[true]"#).into_bytes(),
            &["column Dropped", "1 value(s) for 2 frame(s)"],
        ),
        (
            "wrapped.json",
            json(r#""MsBetweenPresents":[16.6,1e300]"#).into_bytes(),
            &["frame 2", "column TimeInSeconds", "146 years"],
        ),
    ];
    for (name, bytes, says) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = replay(&[path.to_str().unwrap()], Stdio::null());
        refused(&out, &[&[name][..], says].concat());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_empty_capframex_array_counts_as_left_out() {
    let dir = dir("empty-array");
    let path = dir.join("empty-dropped.json");
    let json = r#"{"Runs":[{"CaptureData":{"MsBetweenPresents":[16.6],"Dropped":[]}}]}"#;
    std::fs::write(&path, json).unwrap();
    let out = replay(&[path.to_str().unwrap(), "--json"], Stdio::null());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["capture"]["frames"], 1);
    assert_eq!(report["capture"]["displayed"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_capture_that_is_not_a_regular_file_is_refused_without_waiting_for_it() {
    let dir = dir("fifo");
    let fifo = dir.join("capture.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    // Opening a FIFO with no writer blocks: before, this waited for ever.
    let out = replay(&[fifo.to_str().unwrap()], Stdio::null());
    refused(
        &out,
        &[
            "capture.fifo",
            "is not a regular file: save the capture to a file first",
        ],
    );
    // A pipe, given as the reader's stdin.
    let out = replay(&["/dev/stdin"], Stdio::piped());
    refused(&out, &["/dev/stdin", "is not a regular file"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_a_capture_says_is_printed_escaped_never_raw() {
    // An application named with an ESC sequence (red text), a CR/LF that would start a fake
    // report line, and a right-to-left override; a process ID and a swap chain alike. Replayed,
    // advised on, asked for by another name: no byte of it reaches the terminal as it is.
    let dir = dir("escaped");
    let evil = "\"ga\x1b[31mme\r\nreplayed ok: 0 dropped\u{202e}.exe\"";
    let mut csv = String::from(HEADER);
    for i in 0..200u64 {
        let qpc = 1_000_000 + i * 166_667;
        csv += &format!("{evil},\"7\x07\",\"0x1\x1b]0;title\x07\",{qpc},1.0,2.0\n");
    }
    let path = dir.join("evil.csv");
    std::fs::write(&path, csv).unwrap();
    let p = path.to_str().unwrap();
    let check = |out: &Output| {
        for stream in [&out.stdout, &out.stderr] {
            let text = String::from_utf8_lossy(stream);
            let raw = text
                .chars()
                .find(|&c| (c.is_control() && c != '\n') || c == '\u{202e}');
            assert_eq!(raw, None, "{text}");
            assert!(
                !text.lines().any(|l| l.starts_with("replayed ok")),
                "{text}"
            );
        }
    };
    let out = replay(&[p], Stdio::null());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let prose = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        prose.contains(r"ga\u{1b}[31mme\r\nreplayed ok: 0 dropped\u{202e}.exe (process 7\u{7}"),
        "{stdout}"
    );
    check(&out);
    check(&replay(&[p, "--app", "other.exe"], Stdio::null()));
    // Chosen by its name: the "For a verdict" line repeats it, quoted to run as printed.
    let name = "ga\x1b[31mme\r\nreplayed ok: 0 dropped\u{202e}.exe";
    let chosen = replay(&[p, "--app", name], Stdio::null());
    assert!(
        chosen.status.success(),
        "{}",
        String::from_utf8_lossy(&chosen.stderr)
    );
    check(&chosen);
    let verdict = String::from_utf8_lossy(&chosen.stdout);
    assert!(
        verdict.contains(r"--app $'ga\x1b[31mme\r\nreplayed ok: 0 dropped\u202e.exe'"),
        "{verdict}"
    );
    let advise = Command::new(env!("CARGO_BIN_EXE_timestep-rope"))
        .args(["advise", p])
        .output()
        .expect("the binary runs");
    check(&advise);
    let _ = std::fs::remove_dir_all(&dir);
}
