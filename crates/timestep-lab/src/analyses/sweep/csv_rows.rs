//! A sweep's `--csv`: one row per configuration, written with `csv::Writer`, made from the
//! report's one schema: the columns are the rate (`display_hz`, or `fps` on a VRR panel), then
//! every field of the lane's report as its JSON writes it, in order, nested objects as dotted
//! columns (`policy.tick_s`), the histogram as one cell (`16x40 17x79`), a null as an empty
//! cell, a figure that is an object or null as that object's columns (empty when null), the
//! rope's columns only when the lanes have a rope.

use super::Row;
use crate::model::lane::{JudderStats, LaneReport, LatencyStats, RefreshInterval};
use serde_json::{Map, Value};
use std::io::{self, Write};

/// The figures of a report that are an object or null, each with its object's empty columns,
/// so every row has the header's columns whichever of them were null.
fn shape(key: &str) -> Option<Value> {
    let shape = match key {
        "judder_px" => serde_json::to_value(JudderStats::default()),
        "latency_ms" => serde_json::to_value(LatencyStats::default()),
        "refresh_interval_ms" => serde_json::to_value(RefreshInterval::default()),
        _ => return None,
    };
    shape.ok()
}

/// A report as (column, cell) pairs, from its JSON (see the module's doc).
pub fn cells(report: &LaneReport) -> serde_json::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    if let Value::Object(fields) = serde_json::to_value(report)? {
        flatten("", &fields, &mut out);
    }
    Ok(out)
}

/// `map`'s fields as cells, their columns named after `prefix`.
fn flatten(prefix: &str, map: &Map<String, Value>, out: &mut Vec<(String, String)>) {
    for (key, value) in map {
        let name = format!("{prefix}{key}");
        match (value, shape(key)) {
            (Value::Object(histogram), _) if key == "steps_histogram" => {
                let cells: Vec<String> =
                    histogram.iter().map(|(k, v)| format!("{k}x{v}")).collect();
                out.push((name, cells.join(" ")));
            }
            (Value::Object(inner), _) => flatten(&format!("{name}."), inner, out),
            (Value::Null, Some(Value::Object(shape))) => {
                out.extend(shape.keys().map(|k| (format!("{name}.{k}"), String::new())));
            }
            (Value::Null, _) => out.push((name, String::new())),
            (Value::String(s), _) => out.push((name, s.clone())),
            (other, _) => out.push((name, other.to_string())),
        }
    }
}

/// A sweep's CSV being written: the header (from the first row's columns), then a row per
/// configuration.
pub struct SweepCsv<W: Write> {
    out: csv::Writer<W>,
    /// Whether the header is written.
    begun: bool,
}

impl<W: Write> SweepCsv<W> {
    /// A CSV written to `out`.
    pub fn new(out: W) -> SweepCsv<W> {
        SweepCsv {
            out: csv::Writer::from_writer(out),
            begun: false,
        }
    }

    /// One configuration's row (the first one also writes the header). The rate is written
    /// as given (`60`, `59.94`), not as a float prints (`60.0`).
    pub fn row(&mut self, row: &Row) -> csv::Result<()> {
        let cells = cells(&row.report).map_err(io::Error::from)?;
        let rate = (row.axis.column().to_string(), row.rate.to_string());
        let all = std::iter::once(rate).chain(cells);
        let (columns, values): (Vec<String>, Vec<String>) = all.unzip();
        if !self.begun {
            self.out.write_record(&columns)?;
            self.begun = true;
        }
        self.out.write_record(&values)
    }

    /// Hands every row written so far to the writer (a file being followed sees them).
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

#[cfg(test)]
mod tests {
    use super::super::Axis;
    use super::*;
    use crate::hosts::simulate::{DisplayConfig, SimConfig};
    use crate::model::lane::parse_lanes;
    use crate::model::rope::{Drive, RopeParams};
    use timestep_loop::TimingConfig;

    const MS: u64 = 1_000_000;

    fn rows(physics: bool) -> Vec<Row> {
        let base = SimConfig {
            timing: TimingConfig::textbook(MS, 250 * MS, None).unwrap_or_else(|e| panic!("{e}")),
            rope: RopeParams {
                drive: Drive::Sway {
                    period_ns: 1_000 * MS,
                },
                ..RopeParams::default()
            },
            display: DisplayConfig {
                duration_ns: 1_500 * MS,
                ..DisplayConfig::default()
            },
            lanes: parse_lanes("fixed,godot,interpolated").unwrap_or_else(|e| panic!("{e}")),
            max_substep: Default::default(),
            draw: None,
            physics,
        };
        let cfg = super::super::SweepConfig {
            base,
            axis: Axis::DisplayHz,
            rates: vec![20.0, 59.94, 120.0],
            threads: Some(1),
        };
        let mut rows = Vec::new();
        let never = std::sync::atomic::AtomicBool::new(false);
        super::super::run(
            &cfg,
            &never,
            |_| {},
            |r| {
                rows.push(r);
                Ok(())
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        rows
    }

    #[test]
    fn each_row_has_every_field_of_the_reports_json_in_its_order() {
        for physics in [false, true] {
            let rows = rows(physics);
            assert_eq!(rows.len(), 9);
            let mut csv = SweepCsv::new(Vec::new());
            rows.iter()
                .for_each(|r| csv.row(r).unwrap_or_else(|e| panic!("{e}")));
            let text = csv.finish().unwrap_or_else(|e| panic!("{e}"));
            let mut read = csv::Reader::from_reader(text.as_slice());
            let header = read.headers().unwrap_or_else(|e| panic!("{e}")).clone();
            let records: Vec<csv::StringRecord> = read
                .records()
                .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
                .collect();
            assert_eq!(records.len(), rows.len());
            for (row, record) in rows.iter().zip(&records) {
                assert_eq!(record.len(), header.len());
                // The columns, their dotted parts joined, are the JSON's fields in order.
                let mut fields: Vec<&str> = header
                    .iter()
                    .skip(1)
                    .map(|h| h.split('.').next().unwrap_or(h))
                    .collect();
                fields.dedup();
                let json = serde_json::to_value(&row.report).unwrap_or_else(|e| panic!("{e}"));
                let keys: Vec<&str> = json
                    .as_object()
                    .map(|m| m.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                assert_eq!(fields, keys, "physics {physics}, {} Hz", row.rate);
                let cell =
                    |column: &str| header.iter().position(|h| h == column).map(|i| &record[i]);
                assert_eq!(cell("display_hz"), Some(row.rate.to_string().as_str()));
                assert_eq!(cell("lane"), Some(row.report.lane.as_str()));
                assert_eq!(cell("mode"), Some(row.report.mode.name()));
                let histogram = cell("steps_histogram").unwrap_or_default();
                assert!(
                    histogram.split(' ').all(|c| c.split_once('x').is_some()),
                    "{histogram}"
                );
            }
            let has = |column: &str| header.iter().any(|h| h == column);
            assert_eq!(has("state_hash"), physics);
            assert!(has("judder_px.rms") && has("policy.tick_s") && has("latency_ms.p99"));
        }
    }

    #[test]
    fn a_figure_that_may_be_null_keeps_its_columns() {
        let mut report = rows(false).swap_remove(0).report;
        let full = cells(&report).unwrap_or_else(|e| panic!("{e}"));
        report.shown.judder_px = None;
        report.latency_ms = None;
        report.vblanks.refresh_interval_ms = None;
        let empty = cells(&report).unwrap_or_else(|e| panic!("{e}"));
        let columns = |c: &[(String, String)]| c.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
        assert_eq!(columns(&full), columns(&empty));
        let judder = empty.iter().find(|(k, _)| k == "judder_px.max");
        assert_eq!(judder.map(|(_, v)| v.as_str()), Some(""));
    }
}
