//! What a lane measures of its presented frames: steps per frame, stutter and drift, on the
//! one scale every policy is judged by (see the README's "Definitions").

use std::collections::BTreeMap;

/// Steps per presented frame: least, mean and most.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct StepsPerFrame {
    pub min: u32,
    pub mean: f64,
    pub max: u32,
}

/// Running smoothness and step statistics over a stream of presented frames.
#[derive(Clone, Debug, Default)]
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
    histogram: BTreeMap<u32, u64>,
}

impl Metrics {
    /// Adds a frame presented at `present_ns` showing simulation time `shown_ns`.
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
        *self.histogram.entry(steps).or_default() += 1;
        if let Some((p0, s0)) = self.last {
            // (S_i − S_{i−1}) − (P_i − P_{i−1}): how far the shown motion jumps ahead of or
            // lags behind the display's own progress this frame.
            let e = (shown_ns as i128 - s0 as i128) - (present_ns as i128 - p0 as i128);
            self.stutter_sq_sum += (e as f64) * (e as f64);
            self.stutter_max_ns = self.stutter_max_ns.max(e.unsigned_abs() as u64);
            self.stutter_count += 1;
        }
        if self.frames > 0 {
            self.last = Some((present_ns, shown_ns));
        }
        self.frames += 1;
    }

    pub fn frames(&self) -> u64 {
        self.frames
    }
    pub fn stutter_rms_ns(&self) -> f64 {
        if self.stutter_count == 0 {
            0.0
        } else {
            (self.stutter_sq_sum / self.stutter_count as f64).sqrt()
        }
    }
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
    /// How many frames took each number of steps.
    pub fn histogram(&self) -> &BTreeMap<u32, u64> {
        &self.histogram
    }
}

/// How many vblanks the pattern keeps.
pub const PATTERN_VBLANKS: usize = 240;

/// Tyler Glaiel's MonitorSim counters, kept per vblank beside stutter and drift: how many ticks
/// each new frame ran, and the vblanks that showed no new frame. Without vsync each presented
/// frame counts as a vblank.
#[derive(Clone, Debug, Default)]
pub struct Vblanks {
    last: Option<u64>,
    frames: u64,
    double_updates: u64,
    irregular_frames: u64,
    skipped_vblanks: u64,
    zero_step_frames: u64,
    max_steps_per_vblank: u32,
    /// Ticks per vblank, the last [`PATTERN_VBLANKS`] of them (0 for a vblank without a new
    /// frame).
    pattern: std::collections::VecDeque<u32>,
}

impl Vblanks {
    /// Vblanks from the last present to vblank `index` (1 for the first present).
    pub fn span_to(&self, index: u64) -> u64 {
        self.last
            .map_or(1, |last| index.saturating_sub(last).max(1))
    }

    /// A new frame with `ticks` ticks, shown at vblank `index` (if presents wait for vblanks),
    /// when `expected` ticks would have kept exact time (its vblanks × period ÷ tick).
    pub fn record(&mut self, index: Option<u64>, ticks: u32, expected: f64) {
        if let (Some(i), Some(last)) = (index, self.last) {
            for _ in last + 1..i {
                self.skipped_vblanks += 1;
                self.push(0);
            }
        }
        if self.frames > 0 {
            self.double_updates += u64::from(ticks >= 2);
            self.zero_step_frames += u64::from(ticks == 0);
            let t = f64::from(ticks);
            // A tick that is the period to the nearest ns (`60hz`) expects exactly one.
            let near = expected.round();
            let expected = if (expected - near).abs() < 1e-6 {
                near
            } else {
                expected
            };
            self.irregular_frames += u64::from(t < expected.floor() || t > expected.ceil());
            self.max_steps_per_vblank = self.max_steps_per_vblank.max(ticks);
            self.push(ticks);
        }
        self.frames += 1;
        self.last = index.or(self.last);
    }

    fn push(&mut self, ticks: u32) {
        if self.pattern.len() == PATTERN_VBLANKS {
            self.pattern.pop_front();
        }
        self.pattern.push_back(ticks);
    }

    /// Vblanks whose new frame ran two ticks or more (MonitorSim's "double updates").
    pub fn double_updates(&self) -> u64 {
        self.double_updates
    }
    /// Frames whose tick count is outside floor/ceil of their vblanks × period ÷ tick: the
    /// same idea for any tick.
    pub fn irregular_frames(&self) -> u64 {
        self.irregular_frames
    }
    /// Vblanks that showed no new frame.
    pub fn skipped_vblanks(&self) -> u64 {
        self.skipped_vblanks
    }
    /// Presented frames that ran no tick (a repeated picture).
    pub fn zero_step_frames(&self) -> u64 {
        self.zero_step_frames
    }
    pub fn max_steps_per_vblank(&self) -> u32 {
        self.max_steps_per_vblank
    }

    /// Ticks per vblank for the last 240 vblanks, as MonitorSim prints them (`0101111201…`),
    /// or comma-separated when any count is above 9.
    pub fn pattern(&self) -> String {
        if self.pattern.iter().all(|&n| n <= 9) {
            self.pattern
                .iter()
                .map(|n| char::from(b'0' + *n as u8))
                .collect()
        } else {
            let counts: Vec<String> = self.pattern.iter().map(u32::to_string).collect();
            counts.join(",")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vblank_counters_follow_monitorsim() {
        let mut v = Vblanks::default();
        v.record(Some(1), 0, 1.0); // the first frame is not counted
        v.record(Some(2), 1, 1.0);
        v.record(Some(3), 2, 1.0); // a double update
        v.record(Some(5), 1, 2.0); // one vblank skipped, and too few ticks for two vblanks
        v.record(Some(6), 0, 1.0); // a repeated picture
        assert_eq!(v.pattern(), "12010");
        assert_eq!(v.double_updates(), 1);
        assert_eq!(v.skipped_vblanks(), 1);
        assert_eq!(v.zero_step_frames(), 1);
        assert_eq!(v.irregular_frames(), 3);
        assert_eq!(v.max_steps_per_vblank(), 2);
        v.record(Some(7), 12, 1.0);
        assert!(v.pattern().ends_with(",0,12"), "{}", v.pattern());
    }
}
