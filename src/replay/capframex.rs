//! CapFrameX session JSON (CXWorld/CapFrameX `source/CapFrameX.Data.Session/Classes/`
//! `Session.cs`, `SessionRun.cs`, `SessionCaptureData.cs`): `{Hash, Info: {ProcessName, ...},
//! Runs: [{CaptureData: {TimeInSeconds: [...], MsBetweenPresents: [...], ...}}]}`, PresentMon
//! 1.x's columns as parallel arrays, one element a frame.
//!
//! Only the arrays replay needs are kept. A run's timeline is `TimeInSeconds` (or, where a
//! version left it out, the running sum of `MsBetweenPresents`); a frame reached the screen
//! `MsUntilDisplayed` after it, unless `Dropped` says it never did, or `MsBetweenDisplayChange`
//! is 0 (CapFrameX 1.7.4 and later read PresentMon 2, which has no Dropped column, and leave 0
//! where PresentMon wrote NA). The runs of an aggregated session play one after another.

use super::CaptureError;
use super::Captured;
use super::rows::Row;
use serde::{Deserialize, Deserializer};
use std::path::Path;

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

/// A JSON array of numbers, where CapFrameX may also write `"NaN"` and `"Infinity"`, or null.
fn numbers<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Number {
        Value(f64),
        /// "NaN", "Infinity": a value CapFrameX could not write as a number.
        Text(serde::de::IgnoredAny),
    }
    let values: Option<Vec<Number>> = Option::deserialize(d)?;
    Ok(values
        .unwrap_or_default()
        .into_iter()
        .map(|n| match n {
            Number::Value(v) => v,
            Number::Text(_) => f64::NAN,
        })
        .collect())
}

/// A session's frames, in memory (its arrays are parallel, so a frame needs all of them).
pub struct JsonRows {
    app: Vec<u8>,
    frames: Vec<Captured>,
    next: usize,
}

impl JsonRows {
    /// Reads the session at `path`.
    pub fn read(path: &Path) -> Result<JsonRows, CaptureError> {
        let bytes = std::fs::read(path)
            .map_err(|e| CaptureError::at(path, None, None, format!("cannot read: {e}")))?;
        let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
        let session: Session = serde_json::from_slice(bytes).map_err(|e| {
            CaptureError::at(
                path,
                Some(e.line() as u64),
                None,
                format!("not a CapFrameX session: {e}"),
            )
        })?;
        if session.runs.is_empty() {
            return Err(CaptureError::at(
                path,
                None,
                None,
                "a JSON file without CapFrameX's Runs".into(),
            ));
        }
        let app = session
            .info
            .process_name
            .or(session.info.game_name)
            .unwrap_or_else(|| "capture".into());
        let mut frames = Vec::new();
        let mut offset_ns = 0u64;
        for (r, run) in session.runs.iter().enumerate() {
            let data = run.capture_data.as_ref().ok_or_else(|| {
                CaptureError::at(
                    path,
                    None,
                    None,
                    format!("run {} has no CaptureData", r + 1),
                )
            })?;
            let end = read_run(path, data, offset_ns, frames.len(), &mut frames)?;
            offset_ns = end;
        }
        Ok(JsonRows {
            app: app.into_bytes(),
            frames,
            next: 0,
        })
    }

    /// The next frame.
    pub fn next_row(&mut self) -> Option<Row<'_>> {
        let frame = *self.frames.get(self.next)?;
        self.next += 1;
        Some(Row {
            group: [&self.app, b"", b""],
            application: true,
            frame,
        })
    }
}

/// One run's frames, its times from `offset_ns`; returns when it ended.
fn read_run(
    path: &Path,
    data: &CaptureData,
    offset_ns: u64,
    before: usize,
    frames: &mut Vec<Captured>,
) -> Result<u64, CaptureError> {
    let n = data.ms_between_presents.len();
    if n == 0 {
        return Err(CaptureError::at(
            path,
            None,
            Some("MsBetweenPresents".into()),
            "no frames".into(),
        ));
    }
    let check = |name: &str, len: usize| {
        if len == 0 || len == n {
            Ok(())
        } else {
            Err(CaptureError::at(
                path,
                None,
                Some(name.into()),
                format!("{len} values for {n} frames"),
            ))
        }
    };
    check("TimeInSeconds", data.time_in_seconds.len())?;
    check("MsUntilDisplayed", data.ms_until_displayed.len())?;
    check(
        "MsBetweenDisplayChange",
        data.ms_between_display_change.len(),
    )?;
    check("Dropped", data.dropped.as_ref().map_or(0, Vec::len))?;
    let mut running_s = 0.0;
    let mut end = offset_ns;
    for i in 0..n {
        let frame = before + i + 1;
        let bad = |name: &str, v: f64| {
            CaptureError::at_frame(path, frame, name, format!("'{v}' is not a time"))
        };
        let t = if data.time_in_seconds.is_empty() {
            running_s += data.ms_between_presents[i] / 1e3;
            running_s
        } else {
            data.time_in_seconds[i]
        };
        if !(t.is_finite() && t >= 0.0) {
            return Err(bad("TimeInSeconds", t));
        }
        let start_ns = offset_ns + (t * 1e9).round() as u64;
        let dropped = data.dropped.as_ref().is_some_and(|d| d[i])
            || data.ms_between_display_change.get(i) == Some(&0.0);
        let shown_ns = match data.ms_until_displayed.get(i) {
            _ if dropped => None,
            Some(&ms) if ms.is_finite() && ms >= 0.0 => Some(start_ns + (ms * 1e6).round() as u64),
            Some(&ms) => return Err(bad("MsUntilDisplayed", ms)),
            None => Some(start_ns),
        };
        end = end.max(shown_ns.unwrap_or(start_ns));
        frames.push(Captured {
            start_ns,
            shown_ns,
            line: frame as u64,
        });
    }
    Ok(end)
}
