//! `sweep --plot`: stutter, double updates and drift against the display rate, one line per
//! lane, with the common display rates marked.

use super::{Figure, PlotError, font, page, render, stroke, tidy};
use crate::pending::PendingFile;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use timestep_lab::view::chart::SweepPoint;

/// Rates a reader looks for, marked where the sweep covers them.
const COMMON_HZ: [f64; 7] = [60.0, 75.0, 90.0, 120.0, 144.0, 165.0, 240.0];
/// Double updates are drawn on a log axis; zero sits on its floor.
const LOG_FLOOR: f64 = 0.1;

struct SweepFigure<'a> {
    title: &'a str,
    /// What the rates are, under the x axis.
    rate: &'a str,
    lanes: &'a [(String, Vec<SweepPoint>)],
}

/// Writes the sweep's plot into `out` (as its path's .svg or .png says), titled `title`, its
/// rates described by `rate`.
pub fn plot_sweep(
    out: &mut PendingFile,
    title: &str,
    rate: &str,
    lanes: &[(String, Vec<SweepPoint>)],
) -> Result<(), PlotError> {
    render(out, &SweepFigure { title, rate, lanes })
}

impl SweepFigure<'_> {
    fn x_range(&self) -> (f64, f64) {
        let hz = self.lanes.iter().flat_map(|(_, p)| p.iter().map(|p| p.hz));
        let (lo, hi) = hz.fold((f64::MAX, f64::MIN), |(lo, hi), h| (lo.min(h), hi.max(h)));
        if lo > hi {
            (0.0, 1.0)
        } else if lo == hi {
            (lo - 1.0, hi + 1.0)
        } else {
            (lo, hi)
        }
    }

    fn max_of(&self, f: impl Fn(&SweepPoint) -> Option<f64>) -> f64 {
        let points = self.lanes.iter().flat_map(|(_, p)| p.iter());
        points
            .filter_map(f)
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
    }

    fn min_of(&self, f: impl Fn(&SweepPoint) -> Option<f64>) -> f64 {
        let points = self.lanes.iter().flat_map(|(_, p)| p.iter());
        points
            .filter_map(f)
            .filter(|v| v.is_finite())
            .fold(0.0, f64::min)
    }
}

impl Figure for SweepFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (1200, 1350)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let panels = page(root, self.title, self.lanes.iter().map(|(name, _)| name))?;
        let (x0, x1) = self.x_range();
        let stutter_max = self.max_of(|p| Some(p.stutter_rms_ms)).max(0.1) * 1.05;
        self.panel(
            &panels[0],
            (x0, x1),
            0.0..stutter_max,
            "stutter, rms ms",
            |p| Some(p.stutter_rms_ms),
            &tidy,
        )?;
        let doubles_max = self.max_of(|p| p.double_updates_per_min).max(1.0) * 2.0;
        self.panel(
            &panels[1],
            (x0, x1),
            (LOG_FLOOR..doubles_max).log_scale(),
            "double updates / min (log; 0 on the floor; n/a not drawn)",
            |p| p.double_updates_per_min.map(|d| d.max(LOG_FLOOR)),
            &|v| if *v <= LOG_FLOOR { "0".into() } else { tidy(v) },
        )?;
        let (lo, hi) = (
            self.min_of(|p| Some(p.drift_ms)),
            self.max_of(|p| Some(p.drift_ms)),
        );
        let pad = ((hi - lo) * 0.05).max(0.1);
        self.panel(
            &panels[2],
            (x0, x1),
            lo - pad..hi + pad,
            "drift (shown - wall), ms",
            |p| Some(p.drift_ms),
            &tidy,
        )
    }
}

impl SweepFigure<'_> {
    /// One panel: a line per lane of `value` against the display rate, the common rates marked.
    fn panel<DB: DrawingBackend, Y>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x0, x1): (f64, f64),
        y: Y,
        y_desc: &str,
        value: impl Fn(&SweepPoint) -> Option<f64>,
        y_label: &dyn Fn(&f64) -> String,
    ) -> Result<(), PlotError>
    where
        Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
        Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
    {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
        let mut chart = ChartBuilder::on(area)
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(88)
            .build_cartesian_2d(x0..x1, y)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(self.rate)
            .y_desc(y_desc)
            .label_style(font(18))
            .axis_desc_style(font(20))
            .light_line_style(WHITE.mix(0.0))
            .x_label_formatter(&tidy)
            .y_label_formatter(y_label)
            .draw()
            .map_err(err)?;
        let (ylo, yhi) = {
            let r = chart.y_range();
            (r.start, r.end)
        };
        for hz in COMMON_HZ.into_iter().filter(|h| (x0..=x1).contains(h)) {
            let mark = BLACK.mix(0.25).stroke_width(1);
            chart
                .draw_series(LineSeries::new([(hz, ylo), (hz, yhi)], mark))
                .map_err(err)?;
            let label = font(16).pos(Pos::new(HPos::Center, VPos::Top));
            chart
                .draw_series([Text::new(tidy(&hz), (hz, yhi), label)])
                .map_err(err)?;
        }
        let n = self.lanes.len();
        for (i, (_, points)) in self.lanes.iter().enumerate() {
            let line = points.iter().filter_map(|p| Some((p.hz, value(p)?)));
            chart
                .draw_series(LineSeries::new(line, stroke(i, n, 1)))
                .map_err(err)?;
        }
        Ok(())
    }
}
