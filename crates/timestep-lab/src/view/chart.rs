//! What the charts show: plain data collected by a run, drawn by the binary's plots; a lane's
//! frames for the frame plot thinned per column of time, so a plot costs bounded memory.

/// One presented frame of one lane, as the plot shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FramePoint {
    /// When it was presented, s from the first frame.
    pub t_s: f64,
    /// (S_i − S_1) − (P_i − P_1): the shown simulation time against the display's, ms.
    pub error_ms: f64,
    /// Ticks this frame ran.
    pub ticks: u32,
    /// The measured frame time, ms.
    pub frame_ms: f64,
}

/// The frames of every lane, as collected by `simulate`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FramePlot {
    /// Each lane's name and its frames, in order.
    pub lanes: Vec<(String, Vec<FramePoint>)>,
}

/// What the plot shows of one (display rate, lane) configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    /// The display's refresh rate (or the frame rate, on a VRR sweep), Hz.
    pub hz: f64,
    /// The lane's stutter, rms, ms.
    pub stutter_rms_ms: f64,
    /// Double updates a minute of the run; null (n/a) where a vblank holds 2 ticks or more:
    /// not drawn.
    pub double_updates_per_min: Option<f64>,
    /// Shown simulation time against presented wall time at the end of the run, ms.
    pub drift_ms: f64,
}

/// Columns of time a lane's frames are thinned into: at least twice the frame plot's width in
/// pixels, so that a pixel column never spans more than two of them.
pub const PLOT_COLUMNS: u64 = 2_048;

/// The first columns' width, ns; doubled, columns merged in pairs, each time the frames
/// reach past the last column.
const FIRST_COLUMN_NS: u64 = 1_000_000;

/// The values the frame plot draws, each kept at its least and its most in every column.
const DRAWN: [fn(&FramePoint) -> f64; 3] = [|p| p.error_ms, |p| f64::from(p.ticks), |p| p.frame_ms];

/// One column's frames as the chart needs them: for each drawn value, the frame holding its
/// least and the frame holding its most (the first, on a tie).
#[derive(Clone, Copy, Debug, Default)]
struct Extremes([Option<FramePoint>; 2 * DRAWN.len()]);

impl Extremes {
    fn add(&mut self, p: FramePoint) {
        for (i, value) in DRAWN.iter().enumerate() {
            let v = value(&p);
            let [least, most] = &mut self.0[2 * i..2 * i + 2] else {
                continue;
            };
            if least.is_none_or(|l| v < value(&l)) {
                *least = Some(p);
            }
            if most.is_none_or(|m| v > value(&m)) {
                *most = Some(p);
            }
        }
    }

    /// Both columns' frames as one column's, the earlier column's first.
    fn merged(mut self, later: &Extremes) -> Extremes {
        for p in later.0.iter().flatten() {
            self.add(*p);
        }
        self
    }
}

/// One lane's frames for the plot, in bounded memory: per column of time (at most
/// [`PLOT_COLUMNS`]) the frames holding each drawn value's least and most, so every spike and
/// dip a pixel column would show is kept, whatever the number of frames.
#[derive(Clone, Debug)]
pub struct ThinnedLane {
    column_ns: u64,
    columns: Vec<Extremes>,
}

impl Default for ThinnedLane {
    fn default() -> Self {
        ThinnedLane {
            column_ns: FIRST_COLUMN_NS,
            columns: Vec::new(),
        }
    }
}

impl ThinnedLane {
    /// A frame `t_ns` after the lane's first.
    pub fn push(&mut self, t_ns: u64, p: FramePoint) {
        while t_ns / self.column_ns >= PLOT_COLUMNS {
            self.halve();
        }
        let col = (t_ns / self.column_ns) as usize;
        if col >= self.columns.len() {
            self.columns.resize(col + 1, Extremes::default());
        }
        self.columns[col].add(p);
    }

    /// Columns twice as wide, each two merged into one.
    fn halve(&mut self) {
        self.column_ns = self.column_ns.saturating_mul(2);
        let pairs = self.columns.chunks(2);
        self.columns = pairs
            .map(|pair| match pair {
                [a, b] => a.merged(b),
                [a] => *a,
                _ => Extremes::default(),
            })
            .collect();
    }

    /// The frames kept, in time order, each once.
    pub fn points(&self) -> Vec<FramePoint> {
        let mut out = Vec::new();
        for column in &self.columns {
            let mut kept: Vec<FramePoint> = column.0.iter().flatten().copied().collect();
            kept.sort_by(|a, b| {
                let key = |p: &FramePoint| [p.t_s, p.error_ms, f64::from(p.ticks), p.frame_ms];
                let (a, b) = (key(a), key(b));
                a.iter()
                    .zip(&b)
                    .map(|(x, y)| x.total_cmp(y))
                    .fold(std::cmp::Ordering::Equal, std::cmp::Ordering::then)
            });
            kept.dedup();
            out.extend(kept);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frame `i` of a made-up run `every_ns` apart: values that wander, with rare spikes.
    fn frame(i: u64, every_ns: u64) -> (u64, FramePoint) {
        let t_ns = i * every_ns;
        let wobble = (i * 7_919 % 1_000) as f64 / 100.0;
        let spike = if i.is_multiple_of(9_973) { 400.0 } else { 0.0 };
        let p = FramePoint {
            t_s: t_ns as f64 / 1e9,
            error_ms: wobble - 5.0 - spike,
            ticks: (i * 31 % 5) as u32 + if i.is_multiple_of(7_877) { 60 } else { 0 },
            frame_ms: 16.0 + wobble + spike,
        };
        (t_ns, p)
    }

    /// Each drawn value's least and most per column of `column_ns`.
    fn extremes(points: &[FramePoint], column_ns: u64) -> Vec<(u64, [f64; 6])> {
        let mut out: Vec<(u64, [f64; 6])> = Vec::new();
        for p in points {
            let col = (p.t_s * 1e9).round() as u64 / column_ns;
            if out.last().is_none_or(|(c, _)| *c != col) {
                out.push((
                    col,
                    [f64::MAX, f64::MIN, f64::MAX, f64::MIN, f64::MAX, f64::MIN],
                ));
            }
            if let Some((_, e)) = out.last_mut() {
                for (i, value) in DRAWN.iter().enumerate() {
                    e[2 * i] = e[2 * i].min(value(p));
                    e[2 * i + 1] = e[2 * i + 1].max(value(p));
                }
            }
        }
        out
    }

    #[test]
    fn a_thinned_lane_draws_the_same_extremes_in_every_column_as_every_frame() {
        // 300,000 frames 1 ms apart (5 minutes): thinned to at most 6 frames a column.
        let (mut thinned, mut all) = (ThinnedLane::default(), Vec::new());
        for i in 0..300_000 {
            let (t_ns, p) = frame(i, 1_000_000);
            thinned.push(t_ns, p);
            all.push(p);
        }
        let kept = thinned.points();
        assert!(kept.len() <= 6 * PLOT_COLUMNS as usize, "{}", kept.len());
        assert!(kept.len() > PLOT_COLUMNS as usize / 2, "{}", kept.len());
        assert!(
            kept.windows(2).all(|w| w[0].t_s <= w[1].t_s),
            "in time order"
        );
        let w = thinned.column_ns;
        assert_eq!(extremes(&kept, w), extremes(&all, w));
    }

    #[test]
    fn a_short_run_keeps_every_frame() {
        // 600 frames of 60 Hz: each in a column of its own, none thinned out.
        let mut thinned = ThinnedLane::default();
        let all: Vec<FramePoint> = (0..600)
            .map(|i| {
                let (t_ns, p) = frame(i, 16_666_667);
                thinned.push(t_ns, p);
                p
            })
            .collect();
        assert_eq!(thinned.points(), all);
    }
}
