//! What `simulate` and `replay` write frame by frame: `--trace` (a frame record per presented
//! frame of every lane, [`crate::protocol::frame_csv`]'s layout) and the points of `--plot`.

use super::FrameRecord;
use crate::protocol::frame_csv::FrameCsv;
use crate::util::fast::millis_signed;
use crate::view::chart::{FramePlot, FramePoint, ThinnedLane};
use std::io::{self, Write};
use timestep_loop::{millis, seconds};

/// `--trace`: the frame records of every lane, one row each, in the layout of
/// [`crate::protocol::frame_csv`]. Keeps the first write error and stops writing; [`Trace::finish`]
/// reports it.
pub struct Trace<W: Write> {
    out: Option<FrameCsv<W>>,
    result: io::Result<()>,
}

impl<W: Write> Trace<W> {
    /// A trace written to `file`.
    pub fn new(file: W) -> Trace<W> {
        match FrameCsv::new(file) {
            Ok(out) => Trace {
                out: Some(out),
                result: Ok(()),
            },
            Err(e) => Trace {
                out: None,
                result: Err(e.into()),
            },
        }
    }

    /// One presented frame.
    pub fn row(&mut self, f: &FrameRecord) {
        if let (Ok(()), Some(out)) = (&self.result, self.out.as_mut()) {
            self.result = out.row(f).map_err(io::Error::from);
        }
    }

    /// The file, every row in it, to be committed; or the first write error.
    pub fn finish(self) -> io::Result<W> {
        self.result?;
        self.out
            .ok_or_else(|| io::Error::other("no trace"))?
            .finish()
    }
}

/// The frame times a plot is drawn from: each lane's frames from its second on (the first has
/// no frame time), up to a length of simulated time (`--plot`, `--plot-seconds`), thinned per
/// column of time ([`ThinnedLane`]): bounded memory however long the run.
pub struct Plotting {
    names: Vec<String>,
    lanes: Vec<ThinnedLane>,
    /// Each lane's first counted frame: (present, shown), ns.
    origin: Vec<Option<(u64, u64)>>,
    limit_ns: u64,
}

impl Plotting {
    /// A plot of the lanes named `lanes`, for the first `limit_ns` of the run (all of it
    /// without).
    pub fn new(lanes: &[String], limit_ns: Option<u64>) -> Plotting {
        Plotting {
            names: lanes.to_vec(),
            lanes: vec![ThinnedLane::default(); lanes.len()],
            origin: vec![None; lanes.len()],
            limit_ns: limit_ns.unwrap_or(u64::MAX),
        }
    }

    /// One presented frame.
    pub fn frame(&mut self, f: &FrameRecord) {
        if f.frame == 0 {
            return;
        }
        let present_ns = f.present_or_start_ns();
        let (p0, s0) = *self.origin[f.lane].get_or_insert((present_ns, f.shown_ns));
        let t_ns = present_ns - p0;
        if t_ns > self.limit_ns {
            return;
        }
        let error_ns = (f.shown_ns as i128 - s0 as i128) - i128::from(t_ns);
        let point = FramePoint {
            t_s: seconds(t_ns),
            error_ms: millis_signed(error_ns),
            ticks: f.steps,
            frame_ms: millis(f.frame_ns),
        };
        self.lanes[f.lane].push(t_ns, point);
    }

    /// What the chart draws: each lane's kept frames.
    pub fn plot(&self) -> FramePlot {
        let lanes = self.names.iter().cloned().zip(self.lanes.iter());
        FramePlot {
            lanes: lanes.map(|(name, l)| (name, l.points())).collect(),
        }
    }
}
