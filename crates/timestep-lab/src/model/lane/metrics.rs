//! What a lane measures of its presented frames: steps per frame, stutter and drift, on the
//! one scale every policy is judged by (defined in docs/REFERENCE.md).

use std::collections::BTreeMap;

/// Steps per presented frame (its own, and those of frames never shown before it): least, mean
/// and most.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct StepsPerFrame {
    /// The fewest steps any presented frame took.
    pub min: u32,
    /// Steps per presented frame, on average.
    pub mean: f64,
    /// The most steps any presented frame took.
    pub max: u32,
}

/// Running smoothness and step statistics over a stream of presented frames.
#[derive(Clone, Debug)]
pub struct Metrics {
    frames: u64,
    steps_min: u32,
    steps_max: u32,
    steps_sum: u64,
    first: Option<(u64, u64)>,
    last: Option<(u64, u64)>,
    stutter_sq_sum: f64,
    stutter_max_ns: u64,
    stutter_count: u64,
    /// Frames by steps taken: up to [`SMALL`] by index, more in the map.
    small: [u64; SMALL],
    large: BTreeMap<u32, u64>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            frames: 0,
            steps_min: 0,
            steps_max: 0,
            steps_sum: 0,
            first: None,
            last: None,
            stutter_sq_sum: 0.0,
            stutter_max_ns: 0,
            stutter_count: 0,
            small: [0; SMALL],
            large: BTreeMap::new(),
        }
    }
}

/// Step counts kept in a flat array (the common ones: a frame of 1 ms ticks at 30 Hz is 34).
const SMALL: usize = 64;

impl Metrics {
    /// Adds a frame presented at `present_ns` showing simulation time `shown_ns`, `steps` steps
    /// on from the frame presented before it.
    ///
    /// The very first frame has no frame time (there is no frame before it), so smoothness and
    /// drift are measured from the second frame on.
    pub fn push(&mut self, present_ns: u64, shown_ns: u64, steps: u32) {
        if self.frames == 0 {
            self.steps_min = steps;
        } else if self.first.is_none() {
            self.first = Some((present_ns, shown_ns));
        }
        self.steps_min = self.steps_min.min(steps);
        self.steps_max = self.steps_max.max(steps);
        self.steps_sum += u64::from(steps);
        match self.small.get_mut(steps as usize) {
            Some(n) => *n += 1,
            None => *self.large.entry(steps).or_default() += 1,
        }
        if let Some((p0, s0)) = self.last {
            // (S_i − S_{i−1}) − (P_i − P_{i−1}): how far the shown motion jumps ahead of or
            // lags behind the display's own progress this frame.
            let e = (shown_ns as i128 - s0 as i128) - (present_ns as i128 - p0 as i128);
            let e_ns = crate::util::fast::f64_of(e);
            self.stutter_sq_sum += e_ns * e_ns;
            self.stutter_max_ns = self.stutter_max_ns.max(e.unsigned_abs() as u64);
            self.stutter_count += 1;
        }
        if self.frames > 0 {
            self.last = Some((present_ns, shown_ns));
        }
        self.frames += 1;
    }

    /// Presented frames counted so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }
    /// Root mean square of the per-frame stutter, (S_i − S_{i−1}) − (P_i − P_{i−1}), ns.
    pub fn stutter_rms_ns(&self) -> f64 {
        if self.stutter_count == 0 {
            0.0
        } else {
            (self.stutter_sq_sum / self.stutter_count as f64).sqrt()
        }
    }
    /// The largest per-frame stutter, in either direction, ns.
    pub fn stutter_max_ns(&self) -> u64 {
        self.stutter_max_ns
    }
    /// (S_last − S_0) − (P_last − P_0), ns.
    pub fn drift_ns(&self) -> i128 {
        match (self.first, self.last) {
            (Some((p0, s0)), Some((p1, s1))) => {
                (s1 as i128 - s0 as i128) - (p1 as i128 - p0 as i128)
            }
            _ => 0,
        }
    }
    /// Least, mean and most steps per presented frame.
    pub fn steps_per_frame(&self) -> StepsPerFrame {
        StepsPerFrame {
            min: self.steps_min,
            mean: if self.frames == 0 {
                0.0
            } else {
                self.steps_sum as f64 / self.frames as f64
            },
            max: self.steps_max,
        }
    }
    /// How many frames took each number of steps (counts that no frame took left out).
    pub fn histogram(&self) -> BTreeMap<u32, u64> {
        let small = (0u32..).zip(self.small).filter(|&(_, n)| n > 0);
        small
            .chain(self.large.iter().map(|(&k, &n)| (k, n)))
            .collect()
    }
}
