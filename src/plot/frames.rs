//! `simulate --plot`: one display, frame by frame: each lane's shown-time error, its ticks per
//! vblank and its frame time over the run.

use super::{Figure, PlotError, colour, font, page, render, stroke, tidy};
use crate::pending::PendingFile;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use timestep_lab::view::chart::{FramePlot, FramePoint};

struct FramesFigure<'a> {
    title: &'a str,
    plot: &'a FramePlot,
}

/// Writes the frame-by-frame plot into `out` (as its path's .svg or .png says), titled
/// `title`.
pub fn plot_frames(out: &mut PendingFile, title: &str, plot: &FramePlot) -> Result<(), PlotError> {
    render(out, &FramesFigure { title, plot })
}

impl FramesFigure<'_> {
    fn points(&self) -> impl Iterator<Item = &FramePoint> {
        self.plot.lanes.iter().flat_map(|(_, p)| p.iter())
    }

    fn range(&self, f: impl Fn(&FramePoint) -> f64) -> (f64, f64) {
        let (lo, hi) = self
            .points()
            .map(f)
            .filter(|v| v.is_finite())
            .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if lo > hi {
            (0.0, 1.0)
        } else {
            let pad = ((hi - lo) * 0.06).max(0.05);
            (lo - pad, hi + pad)
        }
    }
}

impl Figure for FramesFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (1200, 1200)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let panels = page(
            root,
            self.title,
            self.plot.lanes.iter().map(|(name, _)| name),
        )?;
        let t = self.range(|p| p.t_s);
        let t = (t.0.max(0.0), t.1);
        let error = self.range(|p| p.error_ms);
        self.panel(&panels[0], t, error, "shown - displayed time, ms", |p| {
            p.error_ms
        })?;
        // Ticks are drawn a little apart per lane so that equal counts do not hide each other.
        let n = self.plot.lanes.len().max(1) as f64;
        let ticks = self.range(|p| f64::from(p.ticks));
        let ticks = (ticks.0.min(0.0) - 0.2, ticks.1 + 0.3);
        self.panel_offset(&panels[1], t, ticks, "ticks per frame", n)?;
        let frame = self.range(|p| p.frame_ms);
        if self.one_clock() {
            return self.shared_panel(&panels[2], t, frame, "frame time (every lane), ms");
        }
        self.panel(&panels[2], t, frame, "frame time, ms", |p| p.frame_ms)
    }
}

impl FramesFigure<'_> {
    fn chart<'b, DB: DrawingBackend>(
        area: &'b DrawingArea<DB, Shift>,
        (t0, t1): (f64, f64),
        (y0, y1): (f64, f64),
        y_desc: &str,
    ) -> Result<ChartContext<'b, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>, PlotError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
        let mut chart = ChartBuilder::on(area)
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(88)
            .build_cartesian_2d(t0..t1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time, s")
            .y_desc(y_desc)
            .label_style(font(18))
            .axis_desc_style(font(20))
            .light_line_style(WHITE.mix(0.0))
            .x_label_formatter(&tidy)
            .y_label_formatter(&tidy)
            .draw()
            .map_err(err)?;
        Ok(chart)
    }

    /// Whether every lane ran on the same frames (a capture's, or one display's without a
    /// lane that waits): their frame times are then one line, not one per lane on top of
    /// each other.
    fn one_clock(&self) -> bool {
        let frames = |points: &[FramePoint]| points.iter().map(|p| (p.t_s, p.frame_ms)).collect();
        let mut lanes = self.plot.lanes.iter().map(|(_, p)| frames(p));
        let first: Option<Vec<(f64, f64)>> = lanes.next();
        first.is_some_and(|first| lanes.all(|l| l == first))
    }

    /// The frame time every lane shares, as one grey line.
    fn shared_panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        t: (f64, f64),
        y: (f64, f64),
        y_desc: &str,
    ) -> Result<(), PlotError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
        let mut chart = Self::chart(area, t, y, y_desc)?;
        let points = self.plot.lanes.first().map_or(&[][..], |(_, p)| p);
        let line = points.iter().map(|p| (p.t_s, p.frame_ms));
        chart
            .draw_series(LineSeries::new(line, BLACK.mix(0.7).stroke_width(2)))
            .map_err(err)?;
        Ok(())
    }

    /// A line per lane of `value` over time.
    fn panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        t: (f64, f64),
        y: (f64, f64),
        y_desc: &str,
        value: impl Fn(&FramePoint) -> f64,
    ) -> Result<(), PlotError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
        let mut chart = Self::chart(area, t, y, y_desc)?;
        let n = self.plot.lanes.len();
        for (i, (_, points)) in self.plot.lanes.iter().enumerate() {
            let line = points.iter().map(|p| (p.t_s, value(p)));
            chart
                .draw_series(LineSeries::new(line, stroke(i, n, 2)))
                .map_err(err)?;
        }
        Ok(())
    }

    /// Ticks per frame as dots, each lane nudged by a fraction of a tick so all stay visible.
    fn panel_offset<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        t: (f64, f64),
        y: (f64, f64),
        y_desc: &str,
        lanes: f64,
    ) -> Result<(), PlotError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
        let mut chart = Self::chart(area, t, y, y_desc)?;
        for (i, (_, points)) in self.plot.lanes.iter().enumerate() {
            let nudge = (i as f64 - (lanes - 1.0) / 2.0) * 0.12;
            let dots = points.iter().map(|p| {
                let at = (p.t_s, f64::from(p.ticks) + nudge);
                Circle::new(at, 3, colour(i).filled())
            });
            chart.draw_series(dots).map_err(err)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(name: &str, frame_ms: &[f64]) -> (String, Vec<FramePoint>) {
        let points = frame_ms
            .iter()
            .enumerate()
            .map(|(i, &ms)| FramePoint {
                t_s: i as f64 * 0.016,
                error_ms: 0.0,
                ticks: 16,
                frame_ms: ms,
            })
            .collect();
        (name.into(), points)
    }

    #[test]
    fn lanes_on_the_same_frames_share_one_frame_time_line() {
        let figure = |lanes| FramePlot { lanes };
        let same = figure(vec![
            lane("fixed", &[16.0, 17.0]),
            lane("godot", &[16.0, 17.0]),
        ]);
        let own = figure(vec![
            lane("fixed", &[16.0, 17.0]),
            lane("monogame", &[16.7, 16.7]),
        ]);
        let shares = |plot: &FramePlot| FramesFigure { title: "", plot }.one_clock();
        assert!(shares(&same));
        assert!(!shares(&own));
        assert!(!shares(&FramePlot::default()));
    }
}
