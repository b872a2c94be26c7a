//! What a capture's chosen frames look like, read once before replaying them: how many were
//! displayed, their frame times and display changes (median, 5th and 95th percentiles, max) and
//! the refresh rate the display changes say, if they say one.

use super::CaptureError;
use super::format::Format;
use super::select::{Selection, Stream};
use crate::util::tally::Tally;
use serde::Serialize;
use std::path::Path;
use timestep_loop::{VsyncDetector, millis, seconds};

/// What replay runs on, summed up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaptureSummary {
    /// The capture's path, as given.
    pub file: String,
    /// The capture's format, by name.
    pub format: &'static str,
    /// The application (or, in our own logs, the lane) whose frames were chosen.
    pub app: String,
    /// Its process ID, where the format has one.
    pub process: String,
    /// The swap chain's address (PresentMon), or empty.
    pub swapchain: String,
    /// Application frames replayed.
    pub frames: u64,
    /// Application frames replayed that reached the screen.
    pub displayed: u64,
    /// Application frames replayed that never reached the screen.
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
    /// What the loop's clock reads, in a few words ("CPU start time", "present time", …).
    pub clock_reads: &'static str,
    /// Frames begun a second: frames − 1 over the span of their starts; null with fewer than
    /// two or no span.
    pub render_fps: Option<f64>,
    /// Frames shown a second: displayed frames − 1 over the span of their times on screen;
    /// null with fewer than two, or without display times.
    pub display_fps: Option<f64>,
    /// Between consecutive displayed frames, (start − previous start) − (on screen − previous
    /// on screen), RMS, ms: the stutter of a loop that shows each frame at its clock reading
    /// (PresentMon's `MsAnimationError`); null with fewer than two, or without display times.
    pub start_error_rms_ms: Option<f64>,
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

/// Median, 5th and 95th percentiles (nearest rank, to the microsecond; over 100 ms, within 0.1%
/// once there are more than 4,096 distinct durations over it) and max (to the ns), ms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// The median, ms.
    pub median: f64,
    /// The 5th percentile, ms.
    pub p5: f64,
    /// The 95th percentile, ms.
    pub p95: f64,
    /// The longest, ms.
    pub max: f64,
}

/// Frame times or display changes, counted by the microsecond in bounded memory
/// ([`Tally`]: over 100 ms, within 0.1 % once there are more than 4,096 distinct ones).
#[derive(Clone, Debug)]
struct Durations(Tally);

impl Default for Durations {
    fn default() -> Self {
        Durations(Tally::new(1_000))
    }
}

impl Durations {
    fn push(&mut self, ns: u64) {
        self.0.push(ns);
    }

    /// The duration of nearest rank `p` (0 to 1), µs: the start of its bin or bucket.
    fn rank_us(&self, p: f64) -> u64 {
        self.0.bin_at(p).map_or(0, |b| b.lo_ns / 1_000)
    }

    fn spread(&self) -> Option<Spread> {
        (self.0.count() > 0).then(|| Spread {
            median: self.rank_us(0.5) as f64 / 1e3,
            p5: self.rank_us(0.05) as f64 / 1e3,
            p95: self.rank_us(0.95) as f64 / 1e3,
            max: millis(self.0.max_ns()),
        })
    }
}

/// The displayed frames, as they come: the span of their times on screen, and how far their
/// starts are apart against their times on screen.
#[derive(Clone, Copy, Debug, Default)]
struct Displayed {
    first_ns: Option<u64>,
    last_ns: u64,
    /// The previous displayed frame's start and time on screen.
    previous: Option<(u64, u64)>,
    errors: u64,
    error_squares: f64,
}

impl Displayed {
    /// A frame begun at `start_ns`, on screen at `shown_ns`; one shown before the one before it
    /// is counted in the span only.
    fn push(&mut self, start_ns: u64, shown_ns: u64) {
        self.first_ns = Some(self.first_ns.map_or(shown_ns, |f| f.min(shown_ns)));
        self.last_ns = self.last_ns.max(shown_ns);
        match self.previous {
            Some((_, before)) if shown_ns < before => return,
            Some((start, shown)) => {
                let e = (start_ns as f64 - start as f64) - (shown_ns - shown) as f64;
                self.errors += 1;
                self.error_squares += e * e;
            }
            None => {}
        }
        self.previous = Some((start_ns, shown_ns));
    }

    /// Frames shown a second, from `count` of them.
    fn fps(&self, count: u64) -> Option<f64> {
        let span = self.last_ns - self.first_ns?;
        (count > 1 && span > 0).then(|| (count - 1) as f64 / seconds(span))
    }

    fn error_rms_ms(&self) -> Option<f64> {
        (self.errors > 0).then(|| (self.error_squares / self.errors as f64).sqrt() / 1e6)
    }
}

/// What one pass over a capture's frames gathers.
struct Pass {
    /// Frame start to frame start, ns.
    frames: Durations,
    /// Shown to shown (the display changing), ns.
    changes: Durations,
    vsync: VsyncDetector,
    first: Option<u64>,
    last: Option<u64>,
    last_shown: Option<u64>,
    count: u64,
    displayed: u64,
    on_screen: Displayed,
}

impl Pass {
    fn new() -> Pass {
        Pass {
            frames: Durations::default(),
            changes: Durations::default(),
            vsync: VsyncDetector::new(None),
            first: None,
            last: None,
            last_shown: None,
            count: 0,
            displayed: 0,
            on_screen: Displayed::default(),
        }
    }

    fn push(&mut self, start_ns: u64, shown_ns: Option<u64>) {
        self.count += 1;
        self.first.get_or_insert(start_ns);
        if let Some(previous) = self.last {
            self.frames.push(start_ns - previous);
        }
        self.last = Some(start_ns);
        let Some(shown) = shown_ns else { return };
        self.displayed += 1;
        self.on_screen.push(start_ns, shown);
        if let Some(before) = self.last_shown
            && shown >= before
        {
            self.changes.push(shown - before);
            self.vsync.observe(shown - before);
        }
        self.last_shown = Some(shown);
    }

    /// The refresh rate the display times show (to a thousandth of a Hz) and the verdict on
    /// pacing.
    fn refresh(&self, format: Format) -> (Option<f64>, &'static str) {
        let paced = format.has_display_times() && self.vsync.vsynced();
        let refresh = paced
            .then(|| self.vsync.refresh_hz().map(|hz| (hz * 1e3).round() / 1e3))
            .flatten();
        let verdict = match (format.has_display_times(), paced, self.vsync.decided()) {
            (false, _, _) => NO_DISPLAY_TIMES,
            (true, true, _) => "paced",
            (true, false, true) => "not paced",
            (true, false, false) => "too few to tell",
        };
        (refresh, verdict)
    }
}

/// Reads `selection`'s frames of `path` once and sums them up.
pub fn summarise(path: &Path, selection: &Selection) -> Result<CaptureSummary, CaptureError> {
    let mut stream = Stream::open(path, selection)?;
    let mut pass = Pass::new();
    while let Some(f) = stream.next_frame()? {
        pass.push(f.start_ns, f.shown_ns);
    }
    let format: Format = selection.format;
    let (refresh, verdict) = pass.refresh(format);
    let shown = |v: Option<f64>| v.filter(|_| format.has_display_times());
    Ok(CaptureSummary {
        file: path.display().to_string(),
        format: format.name(),
        app: selection.app.clone(),
        process: selection.process.clone(),
        swapchain: selection.swapchain.clone(),
        frames: pass.count,
        displayed: pass.displayed,
        not_displayed: pass.count - pass.displayed,
        display_out_of_order: stream.out_of_order(),
        generated_skipped: selection.generated_skipped,
        span_s: seconds(pass.last.unwrap_or(0) - pass.first.unwrap_or(0)),
        clock: format.clock(),
        display_times: format.display_times(),
        frame_ms: pass.frames.spread().unwrap_or(Spread {
            median: 0.0,
            p5: 0.0,
            p95: 0.0,
            max: 0.0,
        }),
        display_change_ms: pass.changes.spread(),
        refresh_hz_estimate: refresh,
        refresh: verdict,
        clock_reads: format.clock_reads(),
        render_fps: span_fps(pass.count, pass.first, pass.last),
        display_fps: shown(pass.on_screen.fps(pass.displayed)),
        start_error_rms_ms: shown(pass.on_screen.error_rms_ms()),
    })
}

/// `count` frames begun from `first` to `last` (ns), a second.
fn span_fps(count: u64, first: Option<u64>, last: Option<u64>) -> Option<f64> {
    let span = last? - first?;
    (count > 1 && span > 0).then(|| (count - 1) as f64 / seconds(span))
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

    #[test]
    fn long_durations_are_counted_in_a_bounded_number_of_buckets_within_a_tenth_of_a_percent() {
        let mut d = Durations::default();
        // A million distinct durations from 100 ms to about 1.2 days, then the longest.
        for i in 0..1_000_000u64 {
            d.push(100_000_000 + i * i * 100 + i);
        }
        d.push(crate::hosts::replay::MAX_TIME_NS);
        assert!(
            d.0.long_entries() < 30_000,
            "{} buckets",
            d.0.long_entries()
        );
        let s = d.spread().unwrap_or_else(|| panic!("values"));
        let true_median = (100_000_000 + 500_000u64 * 500_000 * 100 + 500_000) as f64 / 1e6;
        assert!(
            s.median <= true_median && s.median >= true_median * 0.999,
            "{} against {true_median}",
            s.median
        );
        assert_eq!(s.max, millis(crate::hosts::replay::MAX_TIME_NS));
    }

    #[test]
    fn a_few_thousand_long_durations_are_kept_to_the_microsecond() {
        let mut d = Durations::default();
        let exact = 4_096;
        for i in 0..exact {
            d.push(100_000_000 + i * 1_337_000);
        }
        assert_eq!(d.rank_us(0.5), 100_000 + (exact / 2 - 1) * 1_337);
    }
}
