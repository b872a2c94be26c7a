//! What a sweep writes besides its CSV (`csv_rows.rs`): JSON rows, and a summary per lane (best, worst and median rates; the beat at the
//! common rates) kept small enough to hold for any number of configurations.

use super::{Axis, Row};
use crate::model::lane::{LaneState, TICK_COUNTERS_BELOW};
use crate::view::chart::SweepPoint;
use serde::Serialize;
use serde_json::{Map, Value};
use std::io::{self, Write};

/// A sweep's `--json` as it is written: one object, its `config`, then its `rows` streamed one
/// compact object per line as configurations finish, then the fields of its end. Every value is
/// serialised by serde; only the streamed object's punctuation is written here.
#[derive(Clone, Debug, Default)]
pub struct SweepJson {
    rows: u64,
}

impl SweepJson {
    /// Begins the object on `out` with `config`.
    pub fn begin(&self, out: &mut impl Write, config: &impl Serialize) -> io::Result<()> {
        out.write_all(b"{\"config\": ")?;
        serde_json::to_writer(&mut *out, config)?;
        out.write_all(b",\n\"rows\": [")
    }

    /// One row: `{"display_hz": ..., <the lane's report>}` (`fps` on a VRR panel).
    pub fn row(&mut self, out: &mut impl Write, row: &Row) -> io::Result<()> {
        out.write_all(if self.rows == 0 { b"\n" } else { b",\n" })?;
        let mut object = Map::new();
        object.insert(row.axis.column().into(), Value::from(row.rate));
        if let Value::Object(report) = serde_json::to_value(&row.report)? {
            object.extend(report);
        }
        serde_json::to_writer(&mut *out, &object)?;
        self.rows += 1;
        Ok(())
    }

    /// Ends the rows, then the object with `end`'s fields and a newline.
    pub fn end(&self, out: &mut impl Write, end: &impl Serialize) -> io::Result<()> {
        out.write_all(b"\n]")?;
        end.serialize(&mut serde_json::Serializer::with_formatter(
            &mut *out,
            Continued(0),
        ))?;
        writeln!(out)
    }
}

/// serde_json's compact layout, but for the outermost object, whose fields continue one already
/// open: it opens with a comma rather than a brace.
struct Continued(usize);

impl serde_json::ser::Formatter for Continued {
    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.0 += 1;
        out.write_all(if self.0 == 1 { b"," } else { b"{" })
    }

    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.0 -= 1;
        out.write_all(b"}")
    }
}

/// The rates a reader looks for; the summary gives the beat at those the sweep covers.
const COMMON_HZ: [f64; 9] = [
    59.94, 60.0, 75.0, 119.88, 120.0, 143.86, 144.0, 165.0, 240.0,
];

/// What the summary keeps of one configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Kept {
    point: SweepPoint,
    beat_predicted_s: Option<f64>,
    beat_measured_s: Option<f64>,
    state: LaneState,
}

/// Per lane, the few figures of each configuration that the table and the plot need.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    names: Vec<String>,
    kept: Vec<Vec<Kept>>,
    axis: Axis,
    /// Each configuration's simulated length, s.
    run_s: f64,
}

impl Summary {
    /// A summary of lanes `names` over rates that are `axis`'s.
    pub fn new(names: Vec<String>, axis: Axis) -> Summary {
        let kept = vec![Vec::new(); names.len()];
        Summary {
            names,
            kept,
            axis,
            run_s: 0.0,
        }
    }

    /// Keeps `row`'s figures; `minutes` is each configuration's simulated length.
    pub fn add(&mut self, row: &Row, minutes: f64) {
        let r = &row.report;
        self.run_s = minutes * 60.0;
        self.kept[row.lane].push(Kept {
            point: SweepPoint {
                hz: row.rate,
                stutter_rms_ms: r.shown.stutter_rms_ms,
                double_updates_per_min: r.vblanks.double_updates.map(|n| n as f64 / minutes),
                drift_ms: r.shown.drift_ms,
            },
            beat_predicted_s: r.vblanks.beat_period_predicted_s,
            beat_measured_s: r.vblanks.beat_period_measured_s,
            state: r.state,
        });
    }

    /// Each lane's points, for the plot.
    pub fn series(&self) -> Vec<(String, Vec<SweepPoint>)> {
        let points = self
            .kept
            .iter()
            .map(|k| k.iter().map(|k| k.point).collect());
        self.names.iter().cloned().zip(points).collect()
    }

    /// Per lane: the best and worst rate for stutter and (when `wide`) for double updates, and
    /// the medians, over the rates where the lane held; then where it exploded or fell behind.
    pub fn write_table(&self, out: &mut impl Write, wide: bool) -> io::Result<()> {
        let mut head = format!("{:<22} {:>40}", "", "stutter rms, ms");
        let unit = self.axis.unit();
        let (best, worst) = (format!("best ({unit})"), format!("worst ({unit})"));
        let mut sub = format!("{:<22} {:>14} {:>14} {:>10}", "lane", best, worst, "median");
        if wide {
            head += &format!("   {:>44}", "double updates / min");
            sub += &format!("   {:>16} {:>16} {:>10}", best, worst, "median");
        }
        writeln!(out, "{head}\n{sub}   did not hold")?;
        for (name, kept) in self.names.iter().zip(&self.kept) {
            let held: Vec<Kept> = kept.iter().filter(|k| k.state.is_ok()).copied().collect();
            let mut line = format!("{name:<22} ");
            if kept.is_empty() {
                line += "(no configuration finished)";
            } else {
                let stutter = Extremes::of(&held, |k| Some(k.point.stutter_rms_ms));
                line += &extremes_cells(stutter.as_ref(), [14, 14, 10], 3, "-");
                if wide {
                    // n/a where the lane held only at rates whose vblanks hold 2 ticks or more.
                    let doubles = Extremes::of(&held, |k| k.point.double_updates_per_min);
                    let none = if held.is_empty() { "-" } else { "n/a" };
                    line += "   ";
                    line += &extremes_cells(doubles.as_ref(), [16, 16, 10], 1, none);
                }
            }
            let mut cell = vec![String::new()];
            if !kept.is_empty() {
                line += "   ";
                cell = did_not_hold_cell(&failures(kept), line.chars().count(), wide);
            }
            writeln!(out, "{}", format!("{line}{}", cell[0]).trim_end())?;
            for more in &cell[1..] {
                writeln!(out, "{:width$}{more}", "", width = line.chars().count())?;
            }
        }
        writeln!(
            out,
            "best, worst and median over the rates where the lane held (state ok)"
        )?;
        if wide && self.any_na() {
            writeln!(
                out,
                "double updates: only over rates where a vblank holds fewer than \
                 {TICK_COUNTERS_BELOW} ticks; n/a where it held at none (a tick much shorter \
                 than the refresh, e.g. 1 ms, runs several every frame by design)"
            )?;
        }
        self.write_beats(out, wide)
    }

    /// Whether any configuration that held had no double-update count (n/a).
    fn any_na(&self) -> bool {
        let held = self.kept.iter().flatten().filter(|k| k.state.is_ok());
        held.clone()
            .any(|k| k.point.double_updates_per_min.is_none())
    }

    /// The beat at the common rates the sweep covers, predicted / measured, for fixed-tick
    /// lanes; unless `wide`, only as many rates as fit [`crate::util::fit::COLUMNS`].
    fn write_beats(&self, out: &mut impl Write, wide: bool) -> io::Result<()> {
        let fit = (crate::util::fit::COLUMNS - 22) / 16;
        let covered: Vec<f64> = COMMON_HZ
            .into_iter()
            .filter(|hz| self.kept.iter().flatten().any(|k| same(k.point.hz, *hz)))
            .take(if wide { usize::MAX } else { fit })
            .collect();
        let fixed: Vec<usize> = (0..self.names.len())
            .filter(|&i| self.kept[i].iter().any(|k| k.beat_predicted_s.is_some()))
            .collect();
        if covered.is_empty() || fixed.is_empty() {
            return Ok(());
        }
        writeln!(
            out,
            "\nbeat period, s: the time between frames that run a tick more or less than the \
             rest, predicted from the refresh and tick rates / measured (-: none; > run: \
             longer than the run)"
        )?;
        write!(out, "{:<22}", "lane")?;
        for hz in &covered {
            write!(out, " {:>15}", format!("{hz} Hz"))?;
        }
        writeln!(out)?;
        for i in fixed {
            write!(out, "{:<22}", self.names[i])?;
            for hz in &covered {
                let k = self.kept[i].iter().find(|k| same(k.point.hz, *hz));
                let cell = k.map_or("".into(), |k| self.beat_cell(k));
                write!(out, " {cell:>15}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// A rate's beat, predicted / measured: `-` for none, and a measured `> run` where the
    /// prediction is longer than the run (no two off-beat frames can fall in it).
    fn beat_cell(&self, k: &Kept) -> String {
        let measured = match (k.beat_measured_s, k.beat_predicted_s) {
            (None, Some(p)) if p > self.run_s => "> run".into(),
            (m, _) => secs(m),
        };
        format!("{}/{measured}", secs(k.beat_predicted_s))
    }

    /// The summary as JSON: per lane, the same figures as the table.
    pub fn to_json(&self) -> Value {
        let lanes = self.names.iter().zip(&self.kept).map(|(name, all)| {
            let rate = self.axis.column();
            let kept: Vec<Kept> = all.iter().filter(|k| k.state.is_ok()).copied().collect();
            let kept = &kept;
            let rates_where = |state: LaneState| -> Vec<f64> {
                let at = all.iter().filter(|k| k.state == state);
                at.map(|k| k.point.hz).collect()
            };
            let ext = |f: fn(&Kept) -> Option<f64>| {
                Extremes::of(kept, f).map(|e| {
                    serde_json::json!({
                        "best": {rate: e.best.0, "value": e.best.1},
                        "worst": {rate: e.worst.0, "value": e.worst.1},
                        "median": e.median,
                    })
                })
            };
            serde_json::json!({
                "lane": name,
                "exploded_at": rates_where(LaneState::Exploded),
                "unstable_step_at": rates_where(LaneState::UnstableStep),
                "fallen_behind_at": rates_where(LaneState::FallenBehind),
                "stutter_rms_ms": ext(|k| Some(k.point.stutter_rms_ms)),
                "double_updates_per_min": ext(|k| k.point.double_updates_per_min),
            })
        });
        Value::Array(lanes.collect())
    }
}

/// Best (least), worst (most; the lowest rate on ties) and median of one figure over a lane's
/// rates.
struct Extremes {
    best: (f64, f64),
    worst: (f64, f64),
    median: f64,
}

/// Best, worst and median as table cells of `widths`, to `decimals` places; `none` in each
/// where there are none.
fn extremes_cells(e: Option<&Extremes>, widths: [usize; 3], decimals: usize, none: &str) -> String {
    let [b, w, m] = widths;
    match e {
        Some(e) => format!(
            "{:>b$} {:>w$} {:>m$.decimals$}",
            at(e.best, decimals),
            at(e.worst, decimals),
            e.median
        ),
        None => format!("{none:>b$} {none:>w$} {none:>m$}"),
    }
}

impl Extremes {
    /// Over the rates where `f` has a value (a counter that is n/a at a rate ranks nowhere).
    fn of(kept: &[Kept], f: impl Fn(&Kept) -> Option<f64>) -> Option<Extremes> {
        let values: Vec<(f64, f64)> = kept
            .iter()
            .filter_map(|k| Some((k.point.hz, f(k)?)))
            .collect();
        let best = *values.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
        let worst = values
            .iter()
            .rev()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .copied()?;
        let mut sorted: Vec<f64> = values.iter().map(|v| v.1).collect();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        Some(Extremes {
            best,
            worst,
            median,
        })
    }
}

/// Where a lane did not hold, a part a state, e.g. "exploded at 37 rates (30-66 Hz)"; none
/// where it always did.
fn failures(kept: &[Kept]) -> Vec<String> {
    let states = [
        LaneState::Exploded,
        LaneState::UnstableStep,
        LaneState::FallenBehind,
    ];
    let parts = states.into_iter().filter_map(|state| {
        let rates: Vec<f64> = kept
            .iter()
            .filter(|k| k.state == state)
            .map(|k| k.point.hz)
            .collect();
        match rates.as_slice() {
            [] => None,
            [one] => Some(format!("{state} at {one} Hz")),
            [lo, .., hi] => Some(format!("{state} at {} rates ({lo}-{hi} Hz)", rates.len())),
        }
    });
    parts.collect()
}

/// The `did not hold` cell of `parts`, starting at character `column` of its line: one line
/// when `wide`, else a line a part, each cut to end within [`crate::util::fit::COLUMNS`], the lines
/// after the first meant to be printed under it, in the same column (not wrapped back to the
/// line's start, where they would read as a line of their own).
fn did_not_hold_cell(parts: &[String], column: usize, wide: bool) -> Vec<String> {
    if wide || parts.is_empty() {
        return vec![parts.join(", ")];
    }
    let room = crate::util::fit::COLUMNS.saturating_sub(column).max(20);
    let last = parts.len() - 1;
    let with_commas = parts.iter().enumerate().map(|(i, p)| match i < last {
        true => format!("{p},"),
        false => p.clone(),
    });
    with_commas
        .flat_map(|p| crate::util::fit::wrap(&p, room))
        .collect()
}

fn at((hz, value): (f64, f64), decimals: usize) -> String {
    format!("{value:.decimals$} ({hz})")
}

fn secs(s: Option<f64>) -> String {
    match s {
        None => "-".into(),
        Some(s) if s >= 10.0 => format!("{s:.1}"),
        Some(s) => format!("{s:.3}"),
    }
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lane at `rates`, each in `state`, with no beat.
    fn kept(rates: impl IntoIterator<Item = f64>, state: LaneState) -> Vec<Kept> {
        let at = |hz| Kept {
            point: SweepPoint {
                hz,
                stutter_rms_ms: 0.0,
                double_updates_per_min: None,
                drift_ms: 0.0,
            },
            beat_predicted_s: None,
            beat_measured_s: None,
            state,
        };
        rates.into_iter().map(at).collect()
    }

    fn table(summary: &Summary, wide: bool) -> String {
        let mut out = Vec::new();
        summary.write_table(&mut out, wide).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn where_a_lane_did_not_hold_stays_in_its_column_within_the_width() {
        let mut summary = Summary::new(vec!["variable".into(), "fixed".into()], Axis::DisplayHz);
        let mut rates: Vec<f64> = (30..=66).map(f64::from).chain([59.94]).collect();
        rates.sort_by(f64::total_cmp);
        summary.kept[0] = kept(rates, LaneState::UnstableStep);
        summary.kept[0].extend(kept([240.0], LaneState::FallenBehind));
        summary.kept[1] = kept([30.0, 240.0], LaneState::Ok);
        let text = table(&summary, false);
        let column = text
            .lines()
            .find_map(|l| l.find("did not hold"))
            .unwrap_or(0);
        let lines: Vec<&str> = text.lines().collect();
        let row = lines
            .iter()
            .position(|l| l.starts_with("variable"))
            .unwrap();
        assert!(
            lines
                .iter()
                .all(|l| l.chars().count() <= crate::util::fit::COLUMNS),
            "{text}"
        );
        // The cell starts on the lane's line, under its heading, and goes on in that column.
        assert_eq!(
            lines[row].find("unstable step at 38 rates"),
            Some(column),
            "{text}"
        );
        let cell: String = lines[row..]
            .iter()
            .take_while(|l| !l.starts_with("fixed"))
            .map(|l| format!("{} ", l.get(column..).unwrap_or("").trim()))
            .collect();
        let want = "unstable step at 38 rates (30-66 Hz), fallen behind at 240 Hz";
        assert_eq!(cell.trim(), want, "{text}");
        assert!(
            lines[row + 1..]
                .iter()
                .take(2)
                .all(|l| l[..column].trim().is_empty())
        );
        // With --wide it is one line.
        let wide = table(&summary, true);
        assert!(
            wide.lines()
                .any(|l| l.starts_with("variable") && l.ends_with(want)),
            "{wide}"
        );
    }
}
