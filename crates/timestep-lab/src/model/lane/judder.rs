//! Judder: how far the driven end of the rope is shown from where steady motion would put it
//! at that present, in pixels at the window's default scale.
//!
//! With `--drive` on, the pin follows an exact path p(t) of simulated time. A frame presented
//! at P showing simulation time S shows the pin at p(S). Steady motion would show it at
//! p(P − lag): the constant lag between what is shown and when is no judder (it is latency), so
//! it is removed — as the mean of P − S over the last [`LAG_FRAMES`] frames, which also takes
//! out a slow drift. What is left, |p(S) − p(P − lag)|, is the jump the eye sees. Frames count
//! once the first window of them has set the lag.

use crate::model::rope::Drive;
use serde::Serialize;
use std::collections::VecDeque;

/// Frames the lag is averaged over (about a second at 60 Hz).
pub const LAG_FRAMES: usize = 64;

/// A lane's judder so far.
#[derive(Clone, Debug, Default)]
pub struct Judder {
    drive: Drive,
    px_per_m: f64,
    lags: VecDeque<f64>,
    lag_sum: f64,
    sum_sq: f64,
    max: f64,
    frames: u64,
    /// The squares of the last [`LAG_FRAMES`] frames' judder, and their sum: what the HUD
    /// shows.
    recent: VecDeque<f64>,
    recent_sum: f64,
}

/// Judder over a run, pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct JudderStats {
    /// Root mean square of the per-frame judder, px.
    pub rms: f64,
    /// The largest judder of any one frame, px.
    pub max: f64,
}

impl Judder {
    /// Judder of a pin driven by `drive`, measured in pixels of `px_per_m`.
    pub fn new(drive: Drive, px_per_m: f64) -> Judder {
        Judder {
            drive,
            px_per_m,
            ..Judder::default()
        }
    }

    /// The loop changed (its mode, its timer): the lag and the recent frames are measured
    /// afresh, so the HUD's figure is the new loop's, not a mix of both (a mode change read
    /// 52 to 78 px for a second). The run's totals carry on.
    pub fn restart_window(&mut self) {
        self.lags.clear();
        self.lag_sum = 0.0;
        self.recent.clear();
        self.recent_sum = 0.0;
    }

    /// A frame showing simulation time `shown_ns`, presented at `present_ns`.
    pub fn frame(&mut self, shown_ns: u64, present_ns: u64) {
        if !self.drive.is_on() {
            return;
        }
        let lag = present_ns as f64 - shown_ns as f64;
        if self.lags.len() == LAG_FRAMES {
            self.lag_sum -= self.lags.pop_front().unwrap_or(0.0);
        }
        self.lags.push_back(lag);
        self.lag_sum += lag;
        // Until the lag is known (a full window), there is nothing to remove it from.
        if self.lags.len() < LAG_FRAMES {
            return;
        }
        let mean_lag = self.lag_sum / self.lags.len() as f64;
        let shown = self.drive.at(shown_ns as f64).0;
        let steady = self.drive.at(present_ns as f64 - mean_lag).0;
        let px = f64::from(shown.distance(steady)) * self.px_per_m;
        self.sum_sq += px * px;
        self.max = self.max.max(px);
        self.frames += 1;
        if self.recent.len() == LAG_FRAMES {
            self.recent_sum -= self.recent.pop_front().unwrap_or(0.0);
        }
        self.recent.push_back(px * px);
        self.recent_sum += px * px;
    }

    /// The rms of the last `LAG_FRAMES` frames (the HUD's: it follows a change of mode or
    /// tick); none without a drive or before the lag is known.
    pub fn recent_rms(&self) -> Option<f64> {
        (!self.recent.is_empty())
            .then(|| (self.recent_sum.max(0.0) / self.recent.len() as f64).sqrt())
    }

    /// The rms and the largest so far; none without a drive or a frame.
    pub fn stats(&self) -> Option<JudderStats> {
        (self.frames > 0).then(|| JudderStats {
            rms: (self.sum_sq / self.frames as f64).sqrt(),
            max: self.max,
        })
    }

    /// The drive it measures.
    pub fn drive(&self) -> Drive {
        self.drive
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn a_constant_lag_is_no_judder_and_a_late_frame_is() {
        let sway = Drive::Sway {
            period_ns: 4_000_000_000,
        };
        let mut steady = Judder::new(sway, 100.0);
        for i in 1..200u64 {
            // Every frame shows the state of 20 ms before its present.
            steady.frame(i * 16 * MS, i * 16 * MS + 20 * MS);
        }
        let s = steady.stats().unwrap();
        assert!(s.max < 1e-3, "{s:?}");
        // Alternating 0 and 2 ticks of 16 ms: every other frame shows 16 ms of motion late.
        let mut uneven = Judder::new(sway, 100.0);
        for i in 1..200u64 {
            let shown = if i % 2 == 0 {
                i * 16 * MS
            } else {
                (i - 1) * 16 * MS
            };
            uneven.frame(shown, i * 16 * MS + 20 * MS);
        }
        // The pin moves at most its steady speed, 1.2 m / (0.5 s + 1 s / π) = 1.467 m/s:
        // 8 ms off the mean lag is up to 1.17 cm, 1.17 px.
        let u = uneven.stats().unwrap();
        assert!(u.max > 1.0 && u.max < 1.18, "{u:?}");
        assert!(u.rms > 0.4, "{u:?}");
        assert_eq!(Judder::new(Drive::Off, 100.0).stats(), None);
    }
}
