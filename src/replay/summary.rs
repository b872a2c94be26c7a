//! What a capture's chosen frames look like, read once before replaying them: how many were
//! displayed, their frame times and display changes (median, 5th and 95th percentiles, max) and
//! the refresh rate the display changes say, if they say one.

use super::CaptureError;
use super::format::Format;
use super::select::{Selection, Stream};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;
use timestep_loop::{VsyncDetector, millis, seconds};

/// Durations below this many microseconds are counted in a flat array; longer ones in a map.
const FLAT_US: u64 = 100_000;

/// What replay runs on, summed up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaptureSummary {
    pub file: String,
    pub format: &'static str,
    /// The application (or, in our own logs, the lane) whose frames were chosen.
    pub app: String,
    /// Its process ID, where the format has one.
    pub process: String,
    pub swapchain: String,
    /// Application frames replayed.
    pub frames: u64,
    pub displayed: u64,
    pub not_displayed: u64,
    /// Displayed frames whose time on screen went back before the one shown before them
    /// (replayed as captured).
    pub display_out_of_order: u64,
    /// Generated frames (frame generation) of the swap chain, counted and skipped.
    pub generated_skipped: u64,
    /// From the first frame's start to the last's, s.
    pub span_s: f64,
    /// What each frame's start is read from.
    pub clock: &'static str,
    /// When a frame reached the screen.
    pub display_times: &'static str,
    /// Frame times: from one frame's start to the next's, ms.
    pub frame_ms: Spread,
    /// From one displayed frame's time on screen to the next's, ms; null with fewer than two.
    pub display_change_ms: Option<Spread>,
    /// The refresh rate the display changes are paced by, to the nearest 0.001 Hz, as the vsync
    /// detector measures it over whole periods; null when they are not paced by one, or too
    /// few to tell.
    pub refresh_hz_estimate: Option<f64>,
    /// What the display changes say: "paced", "not paced", "too few to tell" (the vsync
    /// detector needs 64 or more changes before it decides), or "no display times" (the
    /// format has only presents).
    pub refresh: &'static str,
}

impl CaptureSummary {
    /// Whether the capture says when frames reached the screen (or only when they were
    /// presented).
    pub fn display_times_known(&self) -> bool {
        self.refresh != NO_DISPLAY_TIMES
    }
}

/// [`CaptureSummary::refresh`] of a format that keeps only presents.
const NO_DISPLAY_TIMES: &str = "no display times";

/// Median, 5th and 95th percentiles (nearest rank, to the microsecond) and max, ms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub median: f64,
    pub p5: f64,
    pub p95: f64,
    pub max: f64,
}

/// Durations counted by the microsecond, in bounded memory: a flat array below
/// [`FLAT_US`], a map above (long frames are few).
#[derive(Clone, Debug, Default)]
struct Durations {
    flat: Vec<u64>,
    long: BTreeMap<u64, u64>,
    count: u64,
    max_ns: u64,
}

impl Durations {
    fn push(&mut self, ns: u64) {
        let us = ns / 1_000;
        if us < FLAT_US {
            let i = us as usize;
            if i >= self.flat.len() {
                self.flat.resize(i + 1, 0);
            }
            self.flat[i] += 1;
        } else {
            *self.long.entry(us).or_default() += 1;
        }
        self.count += 1;
        self.max_ns = self.max_ns.max(ns);
    }

    /// The duration of nearest rank `p` (0 to 1), µs.
    fn rank_us(&self, p: f64) -> u64 {
        let rank = ((p * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        let flat = self.flat.iter().enumerate().map(|(us, &n)| (us as u64, n));
        let long = self.long.iter().map(|(&us, &n)| (us, n));
        flat.chain(long)
            .find(|&(_, n)| {
                seen += n;
                seen >= rank
            })
            .map_or(0, |(us, _)| us)
    }

    fn spread(&self) -> Option<Spread> {
        (self.count > 0).then(|| Spread {
            median: self.rank_us(0.5) as f64 / 1e3,
            p5: self.rank_us(0.05) as f64 / 1e3,
            p95: self.rank_us(0.95) as f64 / 1e3,
            max: millis(self.max_ns),
        })
    }
}

/// Reads `selection`'s frames of `path` once and sums them up.
pub fn summarise(path: &Path, selection: &Selection) -> Result<CaptureSummary, CaptureError> {
    let mut stream = Stream::open(path, selection)?;
    let mut frames = Durations::default();
    let mut changes = Durations::default();
    let mut vsync = VsyncDetector::new(None);
    let (mut first, mut last, mut last_shown) = (None, None, None);
    let (mut count, mut displayed) = (0u64, 0u64);
    while let Some(f) = stream.next_frame()? {
        count += 1;
        first.get_or_insert(f.start_ns);
        if let Some(previous) = last {
            frames.push(f.start_ns - previous);
        }
        last = Some(f.start_ns);
        if let Some(shown) = f.shown_ns {
            displayed += 1;
            if let Some(before) = last_shown
                && shown >= before
            {
                changes.push(shown - before);
                vsync.observe(shown - before);
            }
            last_shown = Some(shown);
        }
    }
    let format: Format = selection.format;
    let paced = format.has_display_times() && vsync.vsynced();
    let refresh = if paced {
        vsync.refresh_hz().map(|hz| (hz * 1e3).round() / 1e3)
    } else {
        None
    };
    let verdict = match (format.has_display_times(), paced, vsync.decided()) {
        (false, _, _) => NO_DISPLAY_TIMES,
        (true, true, _) => "paced",
        (true, false, true) => "not paced",
        (true, false, false) => "too few to tell",
    };
    Ok(CaptureSummary {
        file: path.display().to_string(),
        format: format.name(),
        app: selection.app.clone(),
        process: selection.process.clone(),
        swapchain: selection.swapchain.clone(),
        frames: count,
        displayed,
        not_displayed: count - displayed,
        display_out_of_order: stream.out_of_order(),
        generated_skipped: selection.generated_skipped,
        span_s: seconds(last.unwrap_or(0) - first.unwrap_or(0)),
        clock: format.clock(),
        display_times: format.display_times(),
        frame_ms: frames.spread().unwrap_or(Spread {
            median: 0.0,
            p5: 0.0,
            p95: 0.0,
            max: 0.0,
        }),
        display_change_ms: changes.spread(),
        refresh_hz_estimate: refresh,
        refresh: verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_ranks_to_the_microsecond() {
        let mut d = Durations::default();
        for i in 1..=100u64 {
            d.push(i * 1_000_000 + 400);
        }
        d.push(5_000_000_000);
        let s = d.spread().unwrap_or_else(|| panic!("values"));
        assert_eq!((s.median, s.p5, s.p95), (51.0, 6.0, 96.0));
        assert_eq!(s.max, 5_000.0);
    }
}
