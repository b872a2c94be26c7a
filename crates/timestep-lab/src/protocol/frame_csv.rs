//! The per-frame record, and the one CSV layout it is written in: `simulate --trace`,
//! `replay --trace` and the window's `--frame-log` all write a [`FrameRecord`] per frame per
//! lane, with [`FrameCsv`], under the header [`COLUMNS`]; `replay` reads such a file back
//! (its `lane`, `start_s` and `present_s`, and `display_s` where the window learned when the
//! frame was shown). docs/REFERENCE.md ("The frame record") gives the columns.
//!
//! Times are kept in whole ns and written exactly: seconds to 9 decimals, milliseconds to 6.

use crate::model::lane::{Lane, LaneSpec};
use crate::model::rope::Rope;
use crate::protocol::frame::FrameDone;
use serde::{Deserialize, Serialize};
use std::io::Write;
use timestep_loop::Pacing;

/// The header, in order: the names [`FrameRecord`]'s fields are written under.
pub const COLUMNS: [&str; 15] = [
    "lane",
    "frame",
    "start_s",
    "present_s",
    "display_s",
    "display_source",
    "frame_ms",
    "steps",
    "alpha",
    "shown_s",
    "drift_ms",
    "exploded",
    "pacing",
    "input_ms",
    "step_starts_s",
];

/// The most step starts a row's `step_starts_s` holds: a frame that ran more ticks (a spiral
/// of death at a fine tick ran 65,536) has its first this many written, and its `steps` says
/// how many it ran. So no row this program writes grows without bound: at most
/// `MAX_STEP_STARTS` × [`STEP_START_BYTES`] = 360,448 bytes of step starts, under half of the
/// longest row `replay` reads (`replay::rows::MAX_RECORD_BYTES`, a const assertion there),
/// the other half left for twelve cells of a number or a name each.
pub const MAX_STEP_STARTS: usize = 16_384;

/// The widest step start written: `u64::MAX` ns in seconds (`18446744073.709551615`), and
/// the space before the next.
pub const STEP_START_BYTES: usize =
    (u64::MAX / 1_000_000_000).ilog10() as usize + 1 + ".".len() + 9 + " ".len();

/// One frame of one lane: when it started and reached the screen, what it stepped and showed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameRecord {
    /// The lane's index in the run's list of lanes (not written).
    #[serde(skip)]
    pub lane: usize,
    /// The lane, as named (`interpolated`, `bevy+snap`).
    #[serde(rename = "lane", with = "cells::spec")]
    pub spec: LaneSpec,
    /// The lane's frame number, from 0.
    pub frame: u64,
    /// When the frame started (its input sampled), ns of the host's clock; its steps ran from
    /// then.
    #[serde(rename = "start_s", with = "cells::seconds")]
    pub start_ns: u64,
    /// When the frame became visible, ns of the host's clock (none: never shown; written
    /// empty).
    #[serde(rename = "present_s", with = "cells::maybe_seconds")]
    pub present_ns: Option<u64>,
    /// When the display system said the frame was shown, ns of the host's clock (the
    /// window's present feedback, a frame or more after the present; none: not known, or
    /// discarded: see `display_source`; written empty).
    #[serde(rename = "display_s", with = "cells::maybe_seconds", default)]
    pub display_ns: Option<u64>,
    /// Who said what became of the frame: `wayland`, `x11-present` or `vblank-clock` (with
    /// `display_s` empty: discarded, never shown), or `none` (nobody said: no feedback, or
    /// none in time).
    #[serde(default)]
    pub display_source: DisplaySource,
    /// The measured (noisy, unclamped) frame time handed to the stepper, ns.
    #[serde(rename = "frame_ms", with = "cells::millis")]
    pub frame_ns: u64,
    /// Ticks the frame ran.
    pub steps: u32,
    /// The blend between the last two ticks' states that the frame showed.
    #[serde(with = "cells::fixed6")]
    pub alpha: f64,
    /// The simulation time of the state shown, ns.
    #[serde(rename = "shown_s", with = "cells::seconds")]
    pub shown_ns: u64,
    /// Shown simulation time − measured running time, ms.
    #[serde(with = "cells::fixed6")]
    pub drift_ms: f64,
    /// Whether the rope shown is exploded (written 0 or 1; a lane without a rope: 0).
    #[serde(with = "cells::zero_one")]
    pub exploded: bool,
    /// The pacing the frame ran under.
    #[serde(with = "cells::pacing")]
    pub pacing: Pacing,
    /// From the first key or mouse event the frame used to its present, ns (none: no input).
    #[serde(rename = "input_ms", with = "cells::maybe_millis")]
    pub input_ns: Option<u64>,
    /// When each of the frame's steps started, ns of the host's clock (kept only when
    /// `runs::Controls::step_starts` asks; written space-separated, the first
    /// [`MAX_STEP_STARTS`] of them).
    #[serde(rename = "step_starts_s", with = "cells::seconds_list")]
    pub step_starts_ns: Vec<u64>,
    /// What one step costs on the host, ns (none on a captured or real frame: 0; not
    /// written).
    #[serde(skip)]
    pub step_cost_ns: u64,
}

/// Where a frame record's `display_s` came from (the window's present feedback), by the name
/// the frame log writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DisplaySource {
    /// Wayland's presentation feedback (`wp_presentation`): measured.
    Wayland,
    /// The X11 Present extension's completion of the window's present: measured.
    X11Present,
    /// The first X11 vblank at or after the present returned: an estimate from a clock.
    VblankClock,
    /// Nobody said (no feedback on this platform or host, or none in time).
    #[default]
    None,
}

impl DisplaySource {
    /// Every source, in the order of the docs.
    pub const ALL: [DisplaySource; 4] = [
        DisplaySource::Wayland,
        DisplaySource::X11Present,
        DisplaySource::VblankClock,
        DisplaySource::None,
    ];

    /// Its name in the frame log: `wayland`, `x11-present`, `vblank-clock`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            DisplaySource::Wayland => "wayland",
            DisplaySource::X11Present => "x11-present",
            DisplaySource::VblankClock => "vblank-clock",
            DisplaySource::None => "none",
        }
    }

    /// The source named `name` (as [`DisplaySource::name`] gives it).
    pub fn from_name(name: &str) -> Option<DisplaySource> {
        DisplaySource::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl FrameRecord {
    /// The record of the frame `lane` (index `index`) just ran, `done`, under `pacing`, each
    /// step costing `step_cost_ns`.
    pub fn of(
        index: usize,
        lane: &Lane,
        done: &FrameDone,
        pacing: Pacing,
        step_cost_ns: u64,
    ) -> FrameRecord {
        let last = lane.last();
        FrameRecord {
            lane: index,
            spec: lane.spec(),
            frame: lane.record().metrics().frames().saturating_sub(1),
            start_ns: done.start_ns,
            present_ns: done.shown.map(|s| s.at_ns),
            display_ns: None,
            display_source: DisplaySource::None,
            frame_ns: done.frame_ns,
            steps: last.steps,
            alpha: last.alpha,
            shown_ns: last.shown_ns,
            drift_ms: lane.drift_ms(),
            exploded: lane.rope().is_some_and(Rope::exploded),
            pacing,
            input_ns: None,
            step_starts_ns: lane.record().step_starts().to_vec(),
            step_cost_ns,
        }
    }

    /// A frame of lane `spec` (index 0) numbered `frame` that started at `start_ns` and did
    /// nothing else: no steps, never shown, no feedback, paced by vsync. For a record built by
    /// hand (a test, a tool writing a log), its other fields set with `..`.
    pub fn started(spec: LaneSpec, frame: u64, start_ns: u64) -> FrameRecord {
        FrameRecord {
            lane: 0,
            spec,
            frame,
            start_ns,
            present_ns: None,
            display_ns: None,
            display_source: DisplaySource::None,
            frame_ns: 0,
            steps: 0,
            alpha: 0.0,
            shown_ns: 0,
            drift_ms: 0.0,
            exploded: false,
            pacing: Pacing::Vsync,
            input_ns: None,
            step_starts_ns: Vec::new(),
            step_cost_ns: 0,
        }
    }

    /// When the frame became visible, or (never shown) when it started, ns.
    pub fn present_or_start_ns(&self) -> u64 {
        self.present_ns.unwrap_or(self.start_ns)
    }
}

/// A frame CSV being written: the header [`COLUMNS`] at once, then a row per [`FrameRecord`].
#[derive(Debug)]
pub struct FrameCsv<W: Write> {
    out: csv::Writer<W>,
}

impl<W: Write> FrameCsv<W> {
    /// A frame CSV written to `out`, its header written (buffered) already.
    pub fn new(out: W) -> csv::Result<FrameCsv<W>> {
        let mut out = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        out.write_record(COLUMNS)?;
        Ok(FrameCsv { out })
    }

    /// One frame of one lane.
    pub fn row(&mut self, record: &FrameRecord) -> csv::Result<()> {
        self.out.serialize(record)
    }

    /// Hands what is buffered to the writer.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    /// Every row written through; the writer.
    pub fn finish(self) -> std::io::Result<W> {
        self.out
            .into_inner()
            .map_err(csv::IntoInnerError::into_error)
    }
}

/// How [`FrameRecord`]'s cells are written and read back.
mod cells {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    /// `ns` as a decimal of `10^digits` ns units, exactly: (`1.250000000` s, `16.666667` ms).
    fn decimal(ns: u64, digits: u32) -> String {
        let unit = 10u64.pow(digits);
        format!(
            "{}.{:0width$}",
            ns / unit,
            ns % unit,
            width = digits as usize
        )
    }

    /// A decimal of `10^digits` ns units read back to whole ns (more digits are rounded off).
    fn parse_decimal(text: &str, digits: u32) -> Option<u64> {
        let (whole, fraction) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
        let mut places: String = fraction.chars().take(digits as usize).collect();
        while places.len() < digits as usize {
            places.push('0');
        }
        let whole: u64 = whole.parse().ok()?;
        let part: u64 = if places.is_empty() {
            0
        } else {
            places.parse().ok()?
        };
        whole.checked_mul(10u64.pow(digits))?.checked_add(part)
    }

    fn read<'de, D: Deserializer<'de>>(d: D, digits: u32) -> Result<Option<u64>, D::Error> {
        let text = String::deserialize(d)?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        parse_decimal(&text, digits)
            .map(Some)
            .ok_or_else(|| D::Error::custom(format!("'{text}' is not a time")))
    }

    fn required<'de, D: Deserializer<'de>>(d: D, digits: u32) -> Result<u64, D::Error> {
        read(d, digits)?.ok_or_else(|| D::Error::custom("no value"))
    }

    macro_rules! time_codec {
        ($name:ident, $maybe:ident, $digits:expr) => {
            pub mod $name {
                use super::*;
                pub fn serialize<S: Serializer>(ns: &u64, s: S) -> Result<S::Ok, S::Error> {
                    s.serialize_str(&decimal(*ns, $digits))
                }
                pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
                    required(d, $digits)
                }
            }
            pub mod $maybe {
                use super::*;
                pub fn serialize<S: Serializer>(ns: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
                    s.serialize_str(&ns.map_or(String::new(), |ns| decimal(ns, $digits)))
                }
                pub fn deserialize<'de, D: Deserializer<'de>>(
                    d: D,
                ) -> Result<Option<u64>, D::Error> {
                    read(d, $digits)
                }
            }
        };
    }
    time_codec!(seconds, maybe_seconds, 9);
    time_codec!(millis, maybe_millis, 6);

    /// Times in s, space-separated.
    pub mod seconds_list {
        use super::*;
        pub fn serialize<S: Serializer>(ns: &[u64], s: S) -> Result<S::Ok, S::Error> {
            let written = ns.iter().take(crate::protocol::frame_csv::MAX_STEP_STARTS);
            let cells: Vec<String> = written.map(|&ns| decimal(ns, 9)).collect();
            s.serialize_str(&cells.join(" "))
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
            let text = String::deserialize(d)?;
            text.split_whitespace()
                .map(|t| {
                    parse_decimal(t, 9)
                        .ok_or_else(|| D::Error::custom(format!("'{t}' is not a time")))
                })
                .collect()
        }
    }

    /// A fraction to 6 decimals.
    pub mod fixed6 {
        use super::*;
        pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(&format!("{v:.6}"))
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
            f64::deserialize(d)
        }
    }

    /// A flag as 0 or 1.
    pub mod zero_one {
        use super::*;
        pub fn serialize<S: Serializer>(v: &bool, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_u8(u8::from(*v))
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
            match u8::deserialize(d)? {
                0 => Ok(false),
                1 => Ok(true),
                n => Err(D::Error::custom(format!("{n} is neither 0 nor 1"))),
            }
        }
    }

    /// A lane by its name.
    pub mod spec {
        use super::*;
        use crate::model::lane::{LaneSpec, parse_spec};
        pub fn serialize<S: Serializer>(v: &LaneSpec, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(v)
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<LaneSpec, D::Error> {
            parse_spec(&String::deserialize(d)?).map_err(D::Error::custom)
        }
    }

    /// A pacing by its name.
    pub mod pacing {
        use super::*;
        use timestep_loop::Pacing;
        pub fn serialize<S: Serializer>(v: &Pacing, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(v)
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Pacing, D::Error> {
            String::deserialize(d)?.parse().map_err(D::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lane::parse_spec;

    fn record() -> FrameRecord {
        FrameRecord {
            lane: 1,
            spec: parse_spec("bevy+snap").unwrap_or_else(|e| panic!("{e}")),
            frame: 7,
            start_ns: 1_250_000_001,
            present_ns: Some(1_262_500_000),
            display_ns: Some(1_279_000_000),
            display_source: DisplaySource::Wayland,
            frame_ns: 16_666_667,
            steps: 2,
            alpha: 0.25,
            shown_ns: 1_234_000_000,
            drift_ms: -0.5,
            exploded: true,
            pacing: Pacing::Vsync,
            input_ns: Some(12_345_678),
            step_starts_ns: vec![1_250_000_001, 1_250_030_000],
            step_cost_ns: 0,
        }
    }

    fn written(records: &[FrameRecord]) -> String {
        let mut csv = FrameCsv::new(Vec::new()).unwrap_or_else(|e| panic!("{e}"));
        for r in records {
            csv.row(r).unwrap_or_else(|e| panic!("{e}"));
        }
        String::from_utf8(csv.finish().unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_record_is_written_under_the_one_header_and_read_back_whole() {
        let mut never = record();
        never.present_ns = None;
        never.display_ns = None;
        never.display_source = DisplaySource::None;
        never.input_ns = None;
        never.step_starts_ns.clear();
        let text = written(&[record(), never.clone()]);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(COLUMNS.join(",").as_str()));
        assert_eq!(
            lines.next(),
            Some(
                "bevy+snap,7,1.250000001,1.262500000,1.279000000,wayland,16.666667,2,0.250000,\
                 1.234000000,-0.500000,1,vsync,12.345678,1.250000001 1.250030000"
            )
        );
        assert_eq!(
            lines.next(),
            Some(
                "bevy+snap,7,1.250000001,,,none,16.666667,2,0.250000,1.234000000,-0.500000,1,\
                 vsync,,"
            )
        );
        let mut read = csv::Reader::from_reader(text.as_bytes());
        let back: Vec<FrameRecord> = read
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{e}"));
        let unindexed = |mut r: FrameRecord| {
            r.lane = 0;
            r
        };
        assert_eq!(back, [unindexed(record()), unindexed(never)]);
    }

    #[test]
    fn every_display_source_is_written_by_its_name_and_read_back() {
        for source in DisplaySource::ALL {
            let text = written(&[FrameRecord {
                display_source: source,
                ..record()
            }]);
            let row = text.lines().nth(1).unwrap_or_default();
            assert_eq!(row.split(',').nth(5), Some(source.name()), "{row}");
            assert_eq!(DisplaySource::from_name(source.name()), Some(source));
            let mut read = csv::Reader::from_reader(text.as_bytes());
            let back: Vec<FrameRecord> = read
                .deserialize()
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back[0].display_source, source);
        }
    }

    #[test]
    fn the_header_is_the_records_own_field_names() {
        let mut csv = csv::Writer::from_writer(Vec::new());
        csv.serialize(record()).unwrap_or_else(|e| panic!("{e}"));
        let bytes = csv.into_inner().unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(text.lines().next(), Some(COLUMNS.join(",").as_str()));
    }
}
