//! CapFrameX session JSON (CXWorld/CapFrameX `source/CapFrameX.Data.Session/Classes/`
//! `Session.cs`, `SessionRun.cs`, `SessionCaptureData.cs`): `{Hash, Info: {ProcessName, ...},
//! Runs: [{CaptureData: {TimeInSeconds: [...], MsBetweenPresents: [...], ...}}]}`, PresentMon
//! 1.x's columns as parallel arrays, one element a frame.
//!
//! Only the arrays replay needs are kept. A run's timeline is `TimeInSeconds` (or, where a
//! version left it out, the running sum of `MsBetweenPresents`); a frame reached the screen
//! `MsUntilDisplayed` after it, unless `Dropped` says it never did, or `MsBetweenDisplayChange`
//! is 0 (CapFrameX 1.7.4 and later read PresentMon 2, which has no Dropped column, and leave 0
//! where PresentMon wrote NA). The runs of an aggregated session play one after another. An
//! array that is empty counts as left out; one of another length than `MsBetweenPresents` is
//! an error naming it.
//!
//! The file is streamed through the JSON parser (never held whole): every other member is
//! skipped as it is read, and one value (a string, a number) may be at most
//! [`MAX_RECORD_BYTES`] long. What is kept is those five arrays, 8 bytes a frame for each of
//! the four of numbers and 1 for `Dropped`: at most 33 bytes a frame (twice that for a moment
//! while an array grows). Frames are made from them one at a time as they are read, their times
//! checked: each is a time below [`super::MAX_TIME_NS`], and their sums too.

use super::rows::{MAX_RECORD_BYTES, Row};
use super::{CaptureError, Captured, moved_ns, sum_ns, time_ns};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Session {
    #[serde(default)]
    info: Info,
    #[serde(default)]
    runs: Vec<Run>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Info {
    #[serde(default)]
    process_name: Option<String>,
    #[serde(default)]
    game_name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Run {
    capture_data: Option<CaptureData>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct CaptureData {
    #[serde(default, deserialize_with = "numbers")]
    time_in_seconds: Vec<f64>,
    #[serde(default, deserialize_with = "numbers")]
    ms_between_presents: Vec<f64>,
    #[serde(default, deserialize_with = "numbers")]
    ms_until_displayed: Vec<f64>,
    #[serde(default, deserialize_with = "numbers")]
    ms_between_display_change: Vec<f64>,
    #[serde(default)]
    dropped: Option<Vec<bool>>,
}

/// A JSON array of numbers, or null (no array), where CapFrameX may also write `"NaN"` and
/// `"Infinity"`: anything not a number is kept as NaN.
fn numbers<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    let values: Option<Vec<Number>> = Option::deserialize(d)?;
    Ok(values
        .unwrap_or_default()
        .into_iter()
        .map(|n| n.0)
        .collect())
}

/// One element of [`numbers`]: its value, or NaN for anything else.
struct Number(f64);

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumberVisitor)
    }
}

struct NumberVisitor;

impl<'de> Visitor<'de> for NumberVisitor {
    type Value = Number;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
        Ok(Number(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
        Ok(Number(v as f64))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
        Ok(Number(v as f64))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Number, E> {
        Ok(Number(f64::NAN))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Number, E> {
        Ok(Number(f64::NAN))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Number, E> {
        Ok(Number(f64::NAN))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Number, A::Error> {
        IgnoredAny.visit_seq(seq).map(|_| Number(f64::NAN))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Number, A::Error> {
        IgnoredAny.visit_map(map).map(|_| Number(f64::NAN))
    }
}

/// A JSON file read through a limit: no token (a string, a number, a run of spaces) longer than
/// [`MAX_RECORD_BYTES`], so the parser never holds more of one than that.
struct Tokens {
    file: File,
    /// Inside a string, and just after its backslash.
    in_string: bool,
    escaped: bool,
    /// Bytes since the last `{}[],:` outside a string, or a string's start or end.
    run: u64,
    exceeded: bool,
}

impl Tokens {
    fn scan(&mut self, bytes: &[u8]) -> io::Result<()> {
        for &b in bytes {
            let boundary = if self.in_string {
                let end = !self.escaped && b == b'"';
                self.escaped = !self.escaped && b == b'\\';
                end
            } else {
                matches!(b, b'{' | b'}' | b'[' | b']' | b',' | b':' | b'"')
            };
            if b == b'"' && boundary {
                self.in_string = !self.in_string;
            }
            self.run = if boundary { 0 } else { self.run + 1 };
            if self.run > MAX_RECORD_BYTES {
                self.exceeded = true;
                return Err(io::Error::other("a value too long"));
            }
        }
        Ok(())
    }
}

impl Read for Tokens {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.scan(&buf[..n])?;
        Ok(n)
    }
}

/// A session's arrays, made into frames one at a time.
pub struct JsonRows {
    path: PathBuf,
    app: Vec<u8>,
    runs: Vec<CaptureData>,
    /// The run being read, and its next frame.
    run: usize,
    index: usize,
    /// Frames made so far (the next is number `made + 1`).
    made: usize,
    /// Where the run's times start: where the runs before it ended.
    offset_ns: u64,
    /// The latest time of the runs so far (a start, or a time on screen).
    end_ns: u64,
    /// The running sum of `MsBetweenPresents`, s, for a run without `TimeInSeconds`.
    running_s: f64,
}

impl JsonRows {
    /// Reads the session in `file` (at `path`), streaming.
    pub fn read(path: &Path, file: File) -> Result<JsonRows, CaptureError> {
        let session = parse(path, file)?;
        let err = |message: String| CaptureError::at(path, None, None, message);
        if session.runs.is_empty() {
            return Err(err("a JSON file without CapFrameX's Runs".into()));
        }
        let app = session
            .info
            .process_name
            .or(session.info.game_name)
            .unwrap_or_else(|| "capture".into());
        let mut runs = Vec::with_capacity(session.runs.len());
        for (r, run) in session.runs.into_iter().enumerate() {
            let data = run
                .capture_data
                .ok_or_else(|| err(format!("run {} has no CaptureData", r + 1)))?;
            check_lengths(path, r + 1, &data)?;
            runs.push(data);
        }
        Ok(JsonRows {
            path: path.to_owned(),
            app: app.into_bytes(),
            runs,
            run: 0,
            index: 0,
            made: 0,
            offset_ns: 0,
            end_ns: 0,
            running_s: 0.0,
        })
    }

    /// The next frame.
    pub fn next_row(&mut self) -> Result<Option<Row<'_>>, CaptureError> {
        while self.run < self.runs.len() && self.index == self.runs[self.run].len() {
            self.run += 1;
            self.index = 0;
            self.offset_ns = self.end_ns;
            self.running_s = 0.0;
        }
        if self.run == self.runs.len() {
            return Ok(None);
        }
        self.made += 1;
        let frame = self.frame()?;
        self.index += 1;
        self.end_ns = self.end_ns.max(frame.shown_ns.unwrap_or(frame.start_ns));
        Ok(Some(Row {
            group: [&self.app, b"", b""],
            application: true,
            frame,
        }))
    }

    /// Frame `self.index` of run `self.run`.
    fn frame(&mut self) -> Result<Captured, CaptureError> {
        let (data, i, number) = (&self.runs[self.run], self.index, self.made);
        let bad = |name: &str, v: f64, why: String| {
            let v = crate::util::quote::quoted_number(v);
            CaptureError::at_frame(&self.path, number, name, format!("'{v}': {why}"))
        };
        let t = if data.time_in_seconds.is_empty() {
            self.running_s += data.ms_between_presents[i] / 1e3;
            self.running_s
        } else {
            data.time_in_seconds[i]
        };
        let start_ns = time_ns(t * 1e9)
            .and_then(|t| sum_ns(self.offset_ns, t))
            .map_err(|e| bad("TimeInSeconds", t, e.to_string()))?;
        let dropped = data.dropped.as_ref().and_then(|d| d.get(i)) == Some(&true)
            || data.ms_between_display_change.get(i) == Some(&0.0);
        let shown_ns = match data.ms_until_displayed.get(i) {
            _ if dropped => None,
            Some(&ms) if !ms.is_finite() => {
                return Err(bad("MsUntilDisplayed", ms, "not a time".into()));
            }
            Some(&ms) => Some(
                moved_ns(start_ns, ms * 1e6, start_ns)
                    .map_err(|e| bad("MsUntilDisplayed", ms, e.to_string()))?,
            ),
            None => Some(start_ns),
        };
        Ok(Captured {
            start_ns,
            shown_ns,
            line: number as u64,
        })
    }
}

impl CaptureData {
    /// Its frames: one a value of `MsBetweenPresents`.
    fn len(&self) -> usize {
        self.ms_between_presents.len()
    }
}

/// Parses `file` as a session, streaming.
fn parse(path: &Path, file: File) -> Result<Session, CaptureError> {
    let tokens = Tokens {
        file,
        in_string: false,
        escaped: false,
        run: 0,
        exceeded: false,
    };
    let mut reader = BufReader::with_capacity(1 << 16, tokens);
    let io = |e: io::Error| CaptureError::at(path, None, None, format!("cannot read: {e}"));
    if reader.fill_buf().map_err(io)?.starts_with(b"\xef\xbb\xbf") {
        reader.consume(3);
    }
    let mut de = serde_json::Deserializer::from_reader(&mut reader);
    let session = Session::deserialize(&mut de).and_then(|s| de.end().map(|()| s));
    session.map_err(|e| {
        let message = if reader.get_ref().exceeded {
            format!("a value longer than {MAX_RECORD_BYTES} bytes (1 MiB), the most replay reads")
        } else {
            format!("not a CapFrameX session: {e}")
        };
        CaptureError::at(path, Some(e.line() as u64), None, message)
    })
}

/// Checks that run `run`'s arrays have a value for every frame (or are left out).
fn check_lengths(path: &Path, run: usize, data: &CaptureData) -> Result<(), CaptureError> {
    let n = data.len();
    let at = |name: &str, message: String| {
        CaptureError::at(
            path,
            None,
            Some(name.into()),
            format!("run {run}: {message}"),
        )
    };
    if n == 0 {
        return Err(at("MsBetweenPresents", "no frames".into()));
    }
    let lengths = [
        ("TimeInSeconds", data.time_in_seconds.len()),
        ("MsUntilDisplayed", data.ms_until_displayed.len()),
        (
            "MsBetweenDisplayChange",
            data.ms_between_display_change.len(),
        ),
        ("Dropped", data.dropped.as_ref().map_or(0, Vec::len)),
    ];
    for (name, len) in lengths {
        if len != 0 && len != n {
            return Err(at(name, format!("{len} value(s) for {n} frame(s)")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::rows::tests::{file, frames};

    /// The error reading the session `json`, as a file named `name`.
    fn error(name: &str, json: &str) -> String {
        let path = file(name, json.as_bytes());
        frames(&path).map_or_else(|e| e.to_string(), |f| panic!("{name} read as {f:?}"))
    }

    fn says(text: &str, words: &[&str]) {
        for w in words {
            assert!(text.contains(w), "'{text}' should say '{w}'");
        }
    }

    fn session(data: &str) -> String {
        format!(
            "{{\"Info\":{{\"ProcessName\":\"game.exe\"}},\"Runs\":[{{\"CaptureData\":{{{data}}}}}]}}"
        )
    }

    #[test]
    fn an_empty_array_is_left_out_and_one_of_another_length_is_named() {
        let path = file(
            "empty-dropped.json",
            session(r#""MsBetweenPresents":[16.6],"Dropped":[]"#).as_bytes(),
        );
        let f = frames(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((f.len(), f[0].shown_ns), (1, Some(16_600_000)));
        for name in [
            "TimeInSeconds",
            "MsUntilDisplayed",
            "MsBetweenDisplayChange",
            "Dropped",
        ] {
            let two = if name == "Dropped" {
                "[false,true]"
            } else {
                "[1,2]"
            };
            let json = session(&format!(
                r#""MsBetweenPresents":[16.6,16.6,16.6],"{name}":{two}"#
            ));
            let err = error(&format!("short-{name}.json"), &json);
            says(
                &err,
                &[
                    &format!("short-{name}.json"),
                    &format!("column {name}"),
                    "2 value(s) for 3 frame(s)",
                ],
            );
        }
    }

    #[test]
    fn sums_past_the_limit_are_refused_not_wrapped() {
        let err = error("sum.json", &session(r#""MsBetweenPresents":[16.6,1e300]"#));
        says(
            &err,
            &["sum.json", "frame 2", "column TimeInSeconds", "2^62 ns"],
        );
        let err = error(
            "late.json",
            &session(r#""MsBetweenPresents":[16.6],"MsUntilDisplayed":[1e300]"#),
        );
        says(&err, &["frame 1", "column MsUntilDisplayed", "2^62 ns"]);
        let err = error(
            "early.json",
            &session(r#""MsBetweenPresents":[16.6],"MsUntilDisplayed":[-20]"#),
        );
        says(
            &err,
            &[
                "frame 1",
                "column MsUntilDisplayed",
                "before the frame's start",
            ],
        );
        // Two runs of 126 years each: the second's offset puts it past the limit.
        let run = r#"{"CaptureData":{"MsBetweenPresents":[1],"TimeInSeconds":[4e9]}}"#;
        let err = error("runs.json", &format!("{{\"Runs\":[{run},{run}]}}"));
        says(&err, &["frame 2", "column TimeInSeconds", "2^62 ns"]);
    }

    #[test]
    fn a_json_value_past_the_limit_is_refused() {
        let name = "x".repeat(2 << 20);
        let err = error(
            "long.json",
            &format!("{{\"Info\":{{\"ProcessName\":\"{name}\"}}}}"),
        );
        says(&err, &["long.json", "a value longer than 1048576 bytes"]);
        // Escaped quotes do not end a string; whitespace runs count too.
        let escaped = "\\\"".repeat(1 << 20);
        let err = error(
            "escaped.json",
            &format!("{{\"Info\":{{\"GameName\":\"{escaped}\"}}}}"),
        );
        says(&err, &["a value longer than"]);
        let err = error(
            "spaces.json",
            &format!("{{\"Runs\":{}[]}}", " ".repeat(2 << 20)),
        );
        says(&err, &["a value longer than"]);
    }
}
