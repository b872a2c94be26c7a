//! The `display` timer: step by when the frame being built will be seen, not by when the CPU
//! got round to it.
//!
//! It is fed present feedback: when past frames were really displayed (Wayland's
//! `wp_presentation`, a capture's display times, the simulated display's scan-outs), arriving a
//! frame or more late, and the refresh period when the display states one. From them it
//! predicts the display time of the frame being built, the way Android's frame pacing library
//! (Swappy) and the Vulkan present-timing sample (Vulkan-Samples PR #1535) do: the last known
//! display time plus whole refresh periods, the number of periods chosen by when the frame can
//! be ready: its own clock reading plus the least recent read-to-display latency. It then
//! hands the stepper the predicted display-to-display interval instead of the measured one, so
//! the simulation advances exactly as the screen will, which is what PresentMon's animation
//! error measures (change in simulation time minus change in display time per displayed frame).
//!
//! It never uses a frame's own display time or any later one: feedback names a frame already
//! begun, and a prediction is made when its frame begins. A miss is corrected by the next
//! feedback, which moves the grid. Without feedback, or without a refresh period, it hands on
//! the measured time; and it keeps, for every displayed frame, what its prediction would have
//! cost in animation error beside what the measured time would have, switching to the measured
//! time while predictions do worse (a tearing or variable-refresh display shows frames as they
//! finish, off any grid), as a frame pacer switches modes.

use std::collections::VecDeque;

/// Frames remembered for their feedback: feedback older than this is ignored.
const REMEMBERED: usize = 64;
/// Recent read-to-display latencies the prediction takes the least of.
const LATENCIES: usize = 8;
/// Weight of each new displayed frame in the mean squared errors: 1/32.
const EMA_SHIFT: f64 = 1.0 / 32.0;
/// Predictions are dropped for the measured time while their mean squared error exceeds this
/// many times the measured time's (1.25: 12% more rms), and taken up again once it falls
/// below it.
const GIVE_UP_RATIO: f64 = 1.25;
/// Below this mean squared error, ns², either source is as good as exact (0.1 ms rms).
const EXACT_MS_NS2: f64 = 1e10;

/// A frame begun: its clock reading on the timer's own timeline, and what was predicted of it.
#[derive(Clone, Copy, Debug)]
struct Begun {
    frame: u64,
    read_ns: u64,
    predicted_ns: Option<u64>,
}

/// A frame whose display time is known.
#[derive(Clone, Copy, Debug)]
struct Known {
    frame: u64,
    read_ns: u64,
    shown_ns: u64,
    predicted_ns: Option<u64>,
}

/// What the `display` timer did with its feedback, over the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DisplayBooks {
    /// Frames whose time was handed on from predictions (the rest: as measured).
    pub predicted_frames: u64,
    /// Time handed on from predictions, ns.
    pub predicted_ns: u64,
    /// Frames with feedback: displayed or discarded.
    pub feedback: u64,
    /// Of those, frames the display discarded (never shown).
    pub discarded: u64,
    /// Sum over displayed frames of how far the prediction was from the display time the
    /// feedback brought: what feedback corrected, ns.
    pub corrected_ns: u64,
    /// Predictions off by half a refresh period or more (a frame shown a vblank early or late).
    pub missed: u64,
    /// Times the timer switched between predictions and the measured time.
    pub switches: u64,
}

/// The `display` timer's state.
#[derive(Clone, Debug)]
pub(crate) struct DisplayPredictor {
    /// The timer's own timeline: every measured frame time so far, summed, ns.
    read_ns: u64,
    begun: VecDeque<Begun>,
    /// The latest frame known displayed.
    last_shown: Option<Known>,
    /// Recent read-to-display latencies, ns, oldest first.
    latencies: VecDeque<u64>,
    /// The refresh period the display stated, ns.
    refresh_ns: Option<u64>,
    /// Mean squared animation error, ns², of predictions and of the measured time, over
    /// displayed frames (none before the first pair of displayed frames).
    error_predicted: Option<f64>,
    error_measured: Option<f64>,
    /// Whether the time handed on comes from predictions now: from the first prediction on,
    /// until they do worse than the measured time.
    predicting: bool,
    books: DisplayBooks,
}

impl Default for DisplayPredictor {
    fn default() -> Self {
        DisplayPredictor {
            read_ns: 0,
            begun: VecDeque::new(),
            last_shown: None,
            latencies: VecDeque::new(),
            refresh_ns: None,
            error_predicted: None,
            error_measured: None,
            predicting: true,
            books: DisplayBooks::default(),
        }
    }
}

impl DisplayPredictor {
    /// The time to hand on for frame number `frame` (the loop's count), of `raw_ns` measured
    /// time, on a display whose period the loop's vsync detector assumes as `vsync_period_ns`
    /// (used when feedback states none).
    pub(crate) fn filter(&mut self, frame: u64, raw_ns: u64, vsync_period_ns: Option<u64>) -> u64 {
        self.read_ns = self.read_ns.saturating_add(raw_ns);
        let period = self.refresh_ns.or(vsync_period_ns);
        let before = self.begun.back().copied();
        // The frame before, as predicted then; or, when it was begun before any feedback,
        // as the same rule would have predicted it.
        let previous =
            before.and_then(|b| b.predicted_ns.or_else(|| self.predict(b.read_ns, period)));
        let predicted = self.predict(self.read_ns, period);
        let predicted = match (predicted, previous) {
            (Some(p), Some(q)) => Some(p.max(q)),
            (p, _) => p,
        };
        if self.begun.len() == REMEMBERED {
            self.begun.pop_front();
        }
        self.begun.push_back(Begun {
            frame,
            read_ns: self.read_ns,
            predicted_ns: predicted,
        });
        match (self.predicting, predicted, previous) {
            (true, Some(p), Some(q)) => {
                let handed = p - q;
                self.books.predicted_frames += 1;
                self.books.predicted_ns = self.books.predicted_ns.saturating_add(handed);
                handed
            }
            _ => raw_ns,
        }
    }

    /// When a frame read at `read_ns` on the timer's timeline will be displayed: on the grid of
    /// vblanks through the last known display time, the first at or after the time it can be
    /// ready (its reading plus the least recent latency, less a quarter period for the
    /// reading's noise), and at least one period after that display. A frame is shown at the
    /// first vblank after it is ready (a later frame ready sooner replaces it): the least
    /// latency is its readiness, where a median would put a frame that is ready early in its
    /// period a vblank late.
    fn predict(&self, read_ns: u64, period_ns: Option<u64>) -> Option<u64> {
        let known = self.last_shown?;
        let period = period_ns.filter(|p| *p > 0)?;
        let latency = self.latencies.iter().copied().min()?;
        let ready = read_ns.saturating_add(latency).saturating_sub(period / 4);
        let ahead = ready.saturating_sub(known.shown_ns);
        let periods = ahead.div_ceil(period).max(1);
        Some(
            known
                .shown_ns
                .saturating_add(periods.saturating_mul(period)),
        )
    }

    /// Feedback: frame `frame` was shown `after_read_ns` after its clock reading (`None`: it
    /// was discarded), on a display of `refresh_ns` when stated. Feedback on a frame not yet
    /// begun, or too old to be remembered, is ignored.
    pub(crate) fn feedback(
        &mut self,
        frame: u64,
        after_read_ns: Option<u64>,
        refresh_ns: Option<u64>,
    ) {
        let Some(begun) = self.begun.iter().find(|b| b.frame == frame).copied() else {
            return;
        };
        self.books.feedback += 1;
        if let Some(r) = refresh_ns.filter(|r| *r > 0) {
            self.refresh_ns = Some(r);
        }
        let Some(after) = after_read_ns else {
            self.books.discarded += 1;
            return;
        };
        let shown_ns = begun.read_ns.saturating_add(after);
        if self.latencies.len() == LATENCIES {
            self.latencies.pop_front();
        }
        self.latencies.push_back(after);
        let now = Known {
            frame,
            read_ns: begun.read_ns,
            shown_ns,
            predicted_ns: begun.predicted_ns,
        };
        self.score(now);
        if self.last_shown.is_none_or(|k| k.frame < frame) {
            self.last_shown = Some(now);
        }
    }

    /// Books the prediction's miss, and what predictions and the measured time would each have
    /// cost in animation error since the last displayed frame; switches between them.
    fn score(&mut self, now: Known) {
        if let Some(p) = now.predicted_ns {
            let miss = p.abs_diff(now.shown_ns);
            self.books.corrected_ns = self.books.corrected_ns.saturating_add(miss);
            if self.refresh_ns.is_some_and(|r| miss >= r / 2) {
                self.books.missed += 1;
            }
        }
        let Some(before) = self.last_shown.filter(|k| k.frame < now.frame) else {
            return;
        };
        let shown = signed(now.shown_ns) - signed(before.shown_ns);
        let measured = signed(now.read_ns) - signed(before.read_ns) - shown;
        self.error_measured = Some(ema(self.error_measured, measured));
        if let (Some(p), Some(q)) = (now.predicted_ns, before.predicted_ns) {
            let predicted = signed(p) - signed(q) - shown;
            self.error_predicted = Some(ema(self.error_predicted, predicted));
        }
        self.choose();
    }

    /// Predictions while they do no worse than the measured time (with some slack once
    /// taken up, so one miss does not flip the source back and forth).
    fn choose(&mut self) {
        let (Some(p), Some(m)) = (self.error_predicted, self.error_measured) else {
            return;
        };
        let predicting = if self.predicting {
            p <= m * GIVE_UP_RATIO + EXACT_MS_NS2
        } else {
            p <= m || p < EXACT_MS_NS2
        };
        if predicting != self.predicting {
            self.books.switches += 1;
            self.predicting = predicting;
        }
    }

    /// Forgets what the display did (after a pause: the timeline moved on without the display).
    pub(crate) fn forget(&mut self) {
        self.last_shown = None;
        self.latencies.clear();
        for b in &mut self.begun {
            b.predicted_ns = None;
        }
    }

    /// Whether the time handed on comes from predictions now.
    pub(crate) fn predicting(&self) -> bool {
        self.predicting
    }

    /// What it did with its feedback.
    pub(crate) fn books(&self) -> DisplayBooks {
        self.books
    }
}

/// `ns` as a signed count, for differences.
fn signed(ns: u64) -> i128 {
    i128::from(ns)
}

/// A mean squared error updated by one more error `e_ns`.
fn ema(mean: Option<f64>, e_ns: i128) -> f64 {
    let sq = (e_ns as f64) * (e_ns as f64);
    match mean {
        None => sq,
        Some(m) => m + (sq - m) * EMA_SHIFT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 59.94 Hz, in whole ns.
    const P: u64 = 16_683_350;

    /// When the run starts, ns.
    const BASE: u64 = 1_000_000_000;

    /// A loop presented on a `P` display: frame i read `noise(i)` off `BASE + i·P` and shown
    /// at `BASE + shown(i)` (none: discarded), its feedback arriving `delay` frames late.
    /// Returns what was handed on for each frame, and the timer.
    fn run(
        frames: u64,
        delay: u64,
        refresh: Option<u64>,
        noise: impl Fn(u64) -> i64,
        shown: impl Fn(u64) -> Option<u64>,
    ) -> (Vec<u64>, DisplayPredictor) {
        let mut d = DisplayPredictor::default();
        let read = |i: u64| (BASE + i * P).saturating_add_signed(noise(i));
        let mut handed = Vec::new();
        let mut last = read(0);
        for i in 0..frames {
            if let Some(k) = i.checked_sub(delay) {
                let after = shown(k).map(|s| (BASE + s).saturating_sub(read(k)));
                d.feedback(k, after, refresh);
            }
            handed.push(d.filter(i, read(i).saturating_sub(last), None));
            last = read(i).max(last);
        }
        (handed, d)
    }

    #[test]
    fn with_noisy_reads_on_a_steady_display_it_hands_on_exact_periods() {
        // Reads ±2 ms off; each frame shown two vblanks after its own.
        let noise = |i: u64| ((i * 7_919 % 4_001) as i64 - 2_000) * 1_000;
        let shown = |i: u64| Some((i + 2) * P);
        let (handed, d) = run(600, 2, Some(P), noise, shown);
        // After a few frames of feedback every frame is handed exactly one period.
        assert!(handed[10..].iter().all(|h| *h == P), "{:?}", &handed[..20]);
        assert!(d.predicting());
        assert_eq!(d.books().missed, 0);
        assert_eq!(d.books().feedback, 598);
    }

    #[test]
    fn without_feedback_or_a_period_it_hands_on_the_measured_time() {
        let noise = |i: u64| ((i * 13 % 7) as i64) * 100_000;
        let (handed, d) = run(50, 2, None, noise, |i| Some((i + 2) * P));
        let mut expected = Vec::new();
        let mut last = 1_000_000_000 + noise(0) as u64;
        for i in 0..50u64 {
            let r = 1_000_000_000 + i * P + noise(i) as u64;
            expected.push(r - last);
            last = r;
        }
        assert_eq!(handed, expected);
        assert_eq!(d.books().predicted_frames, 0);
    }

    const MISSED_AFTER_A_SLIP: u64 = 9;

    #[test]
    fn a_frame_shown_late_is_a_miss_and_the_next_prediction_follows_the_display() {
        // Frame 40 slips a vblank and every frame after it stays a vblank later.
        let shown = |i: u64| Some(if i < 40 { i + 2 } else { i + 3 } * P);
        let (handed, d) = run(100, 2, Some(P), |_| 0, shown);
        // Frame 40 itself, 41 (begun before 40's feedback came, two frames late), and those
        // begun while the least of the last eight latencies is still the old one: a latency
        // that grows is learnt in eight frames (one that shrinks, at once).
        assert_eq!(d.books().missed, MISSED_AFTER_A_SLIP);
        assert!(handed[60..].iter().all(|h| *h == P));
    }

    #[test]
    fn frames_shown_off_any_grid_fall_back_to_the_measured_time() {
        // A tearing display: each frame shown 3 ms after its read, reads 10-30 ms apart.
        let gaps: Vec<u64> = (0..300u64)
            .map(|i| 10_000_000 + (i * 7_919 % 20) * 1_000_000)
            .collect();
        let mut d = DisplayPredictor::default();
        let mut handed = Vec::new();
        for (i, gap) in (0u64..).zip(&gaps) {
            if let Some(k) = i.checked_sub(2) {
                d.feedback(k, Some(3_000_000), Some(P));
            }
            handed.push(d.filter(i, *gap, None));
        }
        assert!(!d.predicting());
        let measured = &gaps;
        assert_eq!(handed[100..], measured[100..]);
    }

    #[test]
    fn a_frames_own_display_time_and_later_ones_never_change_what_it_was_handed() {
        let noise = |i: u64| ((i * 7_919 % 4_001) as i64 - 2_000) * 1_000;
        let steady = |i: u64| Some((i + 2) * P);
        let (base, _) = run(200, 1, Some(P), noise, steady);
        for moved in [20u64, 57, 120] {
            // Frame `moved` (and only it) shown anywhere else: a vblank late, early, or not
            // at all. Every frame up to and including it was handed the same time.
            for shown in [Some((moved + 3) * P), Some((moved + 1) * P), None] {
                let changed = move |i: u64| if i == moved { shown } else { steady(i) };
                let (handed, _) = run(200, 1, Some(P), noise, changed);
                assert_eq!(
                    handed[..=moved as usize],
                    base[..=moved as usize],
                    "{moved}"
                );
            }
        }
    }

    #[test]
    fn a_discarded_frame_is_booked_and_moves_no_prediction() {
        let shown = |i: u64| (i % 10 != 5).then_some((i + 2) * P);
        let (handed, d) = run(100, 2, Some(P), |_| 0, shown);
        assert_eq!(d.books().discarded, 10);
        assert!(handed[10..].iter().all(|h| *h == P));
    }

    /// The prediction rule written out plainly, from the whole history: frame `n` (read at
    /// `reads[n]` on the timer's timeline) is predicted from the frames whose feedback came
    /// before it began (`k + delay <= n`), shown at `shown[k]`: the latest of them is the
    /// grid's anchor, the least of the last eight latencies, less a quarter period, when the
    /// frame is ready; the first vblank then or after, at least one period after the anchor.
    fn model(reads: &[u64], shown: &[u64], delay: usize, period: u64, n: usize) -> Option<u64> {
        let known: Vec<usize> = (0..n.checked_sub(delay).map_or(0, |m| m + 1)).collect();
        let last = *known.last()?;
        let latency = known
            .iter()
            .rev()
            .take(8)
            .map(|&k| shown[k] - reads[k])
            .min()?;
        let ready = reads[n] + latency - period / 4;
        let ahead = ready.saturating_sub(shown[last]) as f64 / period as f64;
        Some(shown[last] + (ahead.ceil() as u64).max(1) * period)
    }

    #[test]
    fn every_prediction_is_the_rule_as_written_out_plainly() {
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |range: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % range
        };
        for delay in [1usize, 2, 3] {
            // Reads off their vblank by up to ±3 ms; frames shown 1-3 vblanks after.
            let n: usize = 300;
            let reads: Vec<u64> = (0..n as u64)
                .map(|i| 5 * P + i * P + next(6_000_000) - 3_000_000)
                .collect();
            let shown: Vec<u64> = (0..n as u64).map(|i| (i + 6 + next(3)) * P).collect();
            let mut d = DisplayPredictor::default();
            let mut last = reads[0];
            for i in 0..n {
                if let Some(k) = i.checked_sub(delay) {
                    d.feedback(k as u64, Some(shown[k] - reads[k]), Some(P));
                }
                d.filter(i as u64, reads[i] - last, None);
                last = reads[i];
                let made = d.begun.back().and_then(|b| b.predicted_ns);
                let before = d.begun.iter().rev().nth(1).and_then(|b| b.predicted_ns);
                // Predictions never go back: the rule's, or the one before when it would.
                let expected = model(&reads, &shown, delay, P, i)
                    .map(|p| p - (reads[0]))
                    .map(|p| before.map_or(p, |q| p.max(q)));
                assert_eq!(made, expected, "frame {i}, delay {delay}");
            }
        }
    }

    #[test]
    fn feedback_on_a_frame_not_begun_is_ignored() {
        let mut d = DisplayPredictor::default();
        d.filter(0, P, Some(P));
        d.feedback(1, Some(P), Some(P));
        d.feedback(0, Some(P), Some(P));
        assert_eq!(d.books().feedback, 1);
    }
}
