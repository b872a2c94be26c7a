//! A sweep's `--csv`: one [`Cells`] row per configuration, written with `csv::Writer`. The
//! columns are the rate (`display_hz`, or `fps` on a VRR panel), then every field of a lane's
//! report in its JSON order, nested objects as dotted columns (`policy.tick_s`), the histogram
//! as one cell (`16x40 17x79`), the rope's columns only when the lanes have a rope.

use super::{Axis, Row};
use crate::model::lane::{JudderStats, LaneReport, LatencyStats, PhysicsReport, RefreshInterval};
use serde::{Serialize, Serializer};
use std::io::Write;

/// A number as the report's JSON writes it: shortest form, and an empty cell where JSON has
/// `null` (not finite).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Num(f64);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.serialize_none()
        }
    }
}

fn num(v: Option<f64>) -> Option<Num> {
    v.map(Num)
}

/// A rate as given (`60`, `59.94`), not as a float prints (`60.0`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rate(f64);

impl Serialize for Rate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// The rate's column on a fixed-rate display.
#[derive(Serialize)]
struct DisplayHz {
    display_hz: Rate,
}

/// The rate's column on a VRR panel.
#[derive(Serialize)]
struct Fps {
    fps: Rate,
}

/// A configuration's cells, from `lane` to `spin_cpu_ms`: every figure but the rope's.
#[derive(Serialize)]
struct Cells<'a> {
    lane: &'a str,
    mode: &'a str,
    state: &'static str,
    frames: u64,
    steps: u64,
    sim_time_s: Num,
    wall_time_s: Num,
    drift_ms: Num,
    dropped_ms: Num,
    discarded_by_timer_ms: Num,
    dropping_frames: u64,
    longest_step_s: Num,
    integration_steps: u64,
    unstable_steps: u64,
    stutter_rms_ms: Num,
    stutter_max_ms: Num,
    #[serde(rename = "judder_px.rms")]
    judder_rms: Option<Num>,
    #[serde(rename = "judder_px.max")]
    judder_max: Option<Num>,
    #[serde(rename = "steps_per_frame.min")]
    steps_min: u32,
    #[serde(rename = "steps_per_frame.mean")]
    steps_mean: Num,
    #[serde(rename = "steps_per_frame.max")]
    steps_max: u32,
    /// Frames per number of steps, `16x40 17x79`.
    steps_histogram: String,
    steps_after_last_shown: u64,
    game_speed: Num,
    measured_ns: u64,
    consumed_ns: u64,
    dropped_ns: u64,
    discarded_by_timer_ns: u64,
    invented_ns: u64,
    remainder_ns: i64,
    #[serde(rename = "policy.summary")]
    summary: &'a str,
    #[serde(rename = "policy.tick_s")]
    tick_s: Num,
    #[serde(rename = "policy.timer")]
    timer: &'a str,
    #[serde(rename = "policy.step_rule")]
    step_rule: &'a str,
    #[serde(rename = "policy.clamp_s")]
    clamp_s: Option<Num>,
    #[serde(rename = "policy.clamp_on")]
    clamp_on: &'static str,
    #[serde(rename = "policy.max_steps")]
    max_steps: Option<u32>,
    #[serde(rename = "policy.resync_over_frames")]
    resync_over_frames: Option<u64>,
    #[serde(rename = "policy.waits_for_tick")]
    waits_for_tick: bool,
    #[serde(rename = "policy.shows")]
    shows: &'static str,
    #[serde(rename = "policy.max_substep_s")]
    max_substep_s: Option<Num>,
    #[serde(rename = "policy.substeps_per_tick")]
    substeps_per_tick: u64,
    #[serde(rename = "policy.source")]
    source: Option<&'static str>,
    vsync_detected: bool,
    refresh_estimate_hz: Option<Num>,
    detected_after_s: Option<Num>,
    ticks_per_vblank: Option<Num>,
    double_updates: Option<u64>,
    irregular_frames: Option<u64>,
    skipped_vblanks: u64,
    zero_step_frames: u64,
    max_steps_per_vblank: u32,
    pattern: &'a str,
    off_beat_frames: u64,
    beat_period_predicted_s: Option<Num>,
    beat_period_measured_s: Option<Num>,
    #[serde(rename = "refresh_interval_ms.min")]
    refresh_min: Option<Num>,
    #[serde(rename = "refresh_interval_ms.mean")]
    refresh_mean: Option<Num>,
    #[serde(rename = "refresh_interval_ms.max")]
    refresh_max: Option<Num>,
    #[serde(rename = "latency_ms.mean")]
    latency_mean: Option<Num>,
    #[serde(rename = "latency_ms.p99")]
    latency_p99: Option<Num>,
    #[serde(rename = "latency_ms.max")]
    latency_max: Option<Num>,
    pacing: &'a str,
    render_interval_ms: Option<Num>,
    missed_intervals: u64,
    spin_cpu_ms: Option<Num>,
}

/// The rope's cells (a sweep with `--physics`).
#[derive(Serialize)]
struct PhysicsCells<'a> {
    energy_start_j: Num,
    energy_end_j: Num,
    max_stretch: Num,
    exploded: bool,
    exploded_at_s: Option<Num>,
    explosions: u64,
    exploded_at_end: bool,
    integrator: &'a str,
    stable_below_s: Num,
    state_hash: &'a str,
}

/// The last cell.
#[derive(Serialize)]
struct Tail {
    peak_rss_kib: Option<u64>,
}

impl<'a> Cells<'a> {
    fn of(r: &'a LaneReport) -> Cells<'a> {
        let (shown, books, policy, vblanks) = (&r.shown, &r.books, &r.policy, &r.vblanks);
        let judder = shown.judder_px.as_ref();
        let refresh = vblanks.refresh_interval_ms.as_ref();
        let latency = r.latency_ms.as_ref();
        let judder = |f: fn(&JudderStats) -> f64| num(judder.map(f));
        let refresh = |f: fn(&RefreshInterval) -> f64| num(refresh.map(f));
        let latency = |f: fn(&LatencyStats) -> f64| num(latency.map(f));
        let histogram = shown
            .steps_histogram
            .iter()
            .map(|(k, v)| format!("{k}x{v}"));
        Cells {
            lane: &r.lane,
            mode: &r.mode,
            state: r.state.name(),
            frames: shown.frames,
            steps: shown.steps,
            sim_time_s: Num(shown.sim_time_s),
            wall_time_s: Num(shown.wall_time_s),
            drift_ms: Num(shown.drift_ms),
            dropped_ms: Num(shown.dropped_ms),
            discarded_by_timer_ms: Num(shown.discarded_by_timer_ms),
            dropping_frames: shown.dropping_frames,
            longest_step_s: Num(shown.longest_step_s),
            integration_steps: shown.integration_steps,
            unstable_steps: shown.unstable_steps,
            stutter_rms_ms: Num(shown.stutter_rms_ms),
            stutter_max_ms: Num(shown.stutter_max_ms),
            judder_rms: judder(|j| j.rms),
            judder_max: judder(|j| j.max),
            steps_min: shown.steps_per_frame.min,
            steps_mean: Num(shown.steps_per_frame.mean),
            steps_max: shown.steps_per_frame.max,
            steps_histogram: histogram.collect::<Vec<_>>().join(" "),
            steps_after_last_shown: shown.steps_after_last_shown,
            game_speed: Num(shown.game_speed),
            measured_ns: books.measured_ns,
            consumed_ns: books.consumed_ns,
            dropped_ns: books.dropped_ns,
            discarded_by_timer_ns: books.discarded_by_timer_ns,
            invented_ns: books.invented_ns,
            remainder_ns: books.remainder_ns,
            summary: &policy.summary,
            tick_s: Num(policy.tick_s),
            timer: &policy.timer,
            step_rule: &policy.step_rule,
            clamp_s: num(policy.clamp_s),
            clamp_on: policy.clamp_on,
            max_steps: policy.max_steps,
            resync_over_frames: policy.resync_over_frames,
            waits_for_tick: policy.waits_for_tick,
            shows: policy.shows,
            max_substep_s: num(policy.max_substep_s),
            substeps_per_tick: policy.substeps_per_tick,
            source: policy.source,
            vsync_detected: r.vsync.vsync_detected,
            refresh_estimate_hz: num(r.vsync.refresh_estimate_hz),
            detected_after_s: num(r.vsync.detected_after_s),
            ticks_per_vblank: num(vblanks.ticks_per_vblank),
            double_updates: vblanks.double_updates,
            irregular_frames: vblanks.irregular_frames,
            skipped_vblanks: vblanks.skipped_vblanks,
            zero_step_frames: vblanks.zero_step_frames,
            max_steps_per_vblank: vblanks.max_steps_per_vblank,
            pattern: &vblanks.pattern,
            off_beat_frames: vblanks.off_beat_frames,
            beat_period_predicted_s: num(vblanks.beat_period_predicted_s),
            beat_period_measured_s: num(vblanks.beat_period_measured_s),
            refresh_min: refresh(|i| i.min),
            refresh_mean: refresh(|i| i.mean),
            refresh_max: refresh(|i| i.max),
            latency_mean: latency(|l| l.mean),
            latency_p99: latency(|l| l.p99),
            latency_max: latency(|l| l.max),
            pacing: &r.pacing.pacing,
            render_interval_ms: num(r.pacing.render_interval_ms),
            missed_intervals: r.pacing.missed_intervals,
            spin_cpu_ms: num(r.pacing.spin_cpu_ms),
        }
    }
}

impl<'a> PhysicsCells<'a> {
    fn of(p: &'a PhysicsReport) -> PhysicsCells<'a> {
        PhysicsCells {
            energy_start_j: Num(p.energy_start_j),
            energy_end_j: Num(p.energy_end_j),
            max_stretch: Num(p.max_stretch),
            exploded: p.exploded,
            exploded_at_s: num(p.exploded_at_s),
            explosions: p.explosions,
            exploded_at_end: p.exploded_at_end,
            integrator: &p.integrator,
            stable_below_s: Num(p.stable_below_s),
            state_hash: &p.state_hash,
        }
    }
}

/// A sweep's CSV being written: the header (from the first row's columns), then a row per
/// configuration.
pub struct SweepCsv<W: Write> {
    out: csv::Writer<W>,
}

impl<W: Write> SweepCsv<W> {
    /// A CSV written to `out`.
    pub fn new(out: W) -> SweepCsv<W> {
        SweepCsv {
            out: csv::Writer::from_writer(out),
        }
    }

    /// One configuration's row (the first one also writes the header).
    pub fn row(&mut self, row: &Row) -> csv::Result<()> {
        let rate = Rate(row.rate);
        match row.axis {
            Axis::DisplayHz => self.cells(DisplayHz { display_hz: rate }, &row.report),
            Axis::Fps => self.cells(Fps { fps: rate }, &row.report),
        }
    }

    fn cells(&mut self, rate: impl Serialize, r: &LaneReport) -> csv::Result<()> {
        let (cells, tail) = (
            Cells::of(r),
            Tail {
                peak_rss_kib: r.peak_rss_kib,
            },
        );
        match &r.physics {
            Some(p) => self.out.serialize((rate, cells, PhysicsCells::of(p), tail)),
            None => self.out.serialize((rate, cells, tail)),
        }
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
    use super::*;
    use crate::hosts::simulate::{DisplayConfig, SimConfig};
    use crate::model::lane::parse_lanes;
    use crate::model::rope::{Drive, RopeParams};
    use serde_json::{Map, Value};
    use timestep_loop::TimingConfig;

    const MS: u64 = 1_000_000;

    /// The object a report field that may be null holds, when it is not.
    fn shape(name: &str) -> Option<Value> {
        match name {
            "judder_px" => serde_json::to_value(JudderStats::default()).ok(),
            "latency_ms" => serde_json::to_value(LatencyStats::default()).ok(),
            "refresh_interval_ms" => serde_json::to_value(RefreshInterval::default()).ok(),
            _ => None,
        }
    }

    /// The report's JSON as the CSV's (column, cell) pairs: nested objects dotted, the
    /// histogram one cell, a null that may be an object as that object's empty cells.
    fn flattened(prefix: &str, map: &Map<String, Value>) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (key, value) in map {
            let name = format!("{prefix}{key}");
            match (value, shape(key)) {
                (Value::Object(inner), _) if key != "steps_histogram" => {
                    out.extend(flattened(&format!("{name}."), inner));
                }
                (Value::Object(h), _) => {
                    let cells: Vec<String> = h.iter().map(|(k, v)| format!("{k}x{v}")).collect();
                    out.push((name, cells.join(" ")));
                }
                (Value::Null, Some(Value::Object(shape))) => {
                    out.extend(shape.keys().map(|k| (format!("{name}.{k}"), String::new())));
                }
                (Value::Null, _) => out.push((name, String::new())),
                (Value::String(s), _) => out.push((name, s.clone())),
                (other, _) => out.push((name, other.to_string())),
            }
        }
        out
    }

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
            let json = |r: &Row| match serde_json::to_value(&r.report) {
                Ok(Value::Object(map)) => map,
                other => panic!("{other:?}"),
            };
            for (row, record) in rows.iter().zip(read.records()) {
                let record = record.unwrap_or_else(|e| panic!("{e}"));
                let mut expected = vec![("display_hz".to_string(), row.rate.to_string())];
                expected.extend(flattened("", &json(row)));
                let got: Vec<(String, String)> = header
                    .iter()
                    .zip(record.iter())
                    .map(|(h, c)| (h.to_string(), c.to_string()))
                    .collect();
                assert_eq!(got, expected, "physics {physics}, {} Hz", row.rate);
            }
            let has = |column: &str| header.iter().any(|h| h == column);
            assert_eq!(has("state_hash"), physics);
            assert!(has("judder_px.rms") && has("policy.tick_s") && has("latency_ms.p99"));
        }
    }
}
