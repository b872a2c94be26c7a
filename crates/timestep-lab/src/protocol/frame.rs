//! The frame protocol, written once for every host: wait as the loops ask (an engine's own
//! wait, then nothing else until the pacing's sleep at the end), read the clock, advance every
//! lane, present, record what each lane showed and when it reached the screen, then wait what
//! the pacing asks (the host's `pace`).
//!
//! Only the [`Host`] differs, and it supplies the clock, the sleep and the present: the
//! simulated display (`simulate`, `sweep`), the window (winit and pixels), and a replayed
//! capture. A host with several lanes feeds them all the same frame times; a lane whose engine
//! waits for a whole tick (MonoGame) while others are ready sits that frame out, and is handed
//! the time it missed with its next frame.

use crate::model::lane::{Lane, Vblank};
use crate::protocol::feedback::{Displayed, Feedback};
pub use crate::protocol::wall::Wall;
use crate::util::fast::period_ns_f;
use timestep_loop::Pacer;

/// Where frames get their time and their waits (its [`Wall`]), and their presents.
pub trait Host: Wall {
    /// Why a present failed (the window's GPU); a host whose presents cannot fail (the
    /// simulated display, a capture) says [`std::convert::Infallible`].
    type Error: std::error::Error;
    /// What the loop's timer reads now, ns (monotonic): frame times are differences of these.
    /// A real clock reads the time itself; a simulated one may be noisy.
    fn read_ns(&mut self) -> u64 {
        self.now_ns()
    }
    /// Whether a loop's own wait can move when its frame starts (not on a capture, whose frame
    /// starts are fixed: a lane that would wait sits the frame out instead).
    fn can_wait(&self) -> bool {
        true
    }
    /// When a lane's `index`-th step of the frame that started at `start_ns` begins, ns (asked
    /// only where step start times are kept). A real host reads its clock; a simulated one
    /// adds its step cost.
    fn step_time_ns(&mut self, start_ns: u64, index: u64) -> u64 {
        let _ = (start_ns, index);
        self.now_ns()
    }
    /// The pacing's wait at the end of a frame, `ns`: slept here, unless the host waits
    /// elsewhere before its next frame (the window, in its event loop, serving its events
    /// meanwhile).
    fn pace(&mut self, ns: u64) {
        self.sleep(ns);
    }
    /// Display times learned since the last call (present feedback), oldest first, pushed
    /// onto `out`; asked at the start of every frame. Real feedback arrives a frame or more
    /// late. A host that learns none (the default) pushes none.
    fn displayed(&mut self, out: &mut Vec<Displayed>) {
        let _ = out;
    }
    /// Whether the host learns display times at all ([`Host::displayed`]): asked every frame
    /// before anything is kept for them.
    fn gives_feedback(&self) -> bool {
        false
    }
    /// Shows the frame just run: `ran[i]` says whether lane i stepped this frame. Returns when
    /// it became visible, `None` when nothing was shown (the frame is skipped, and the next
    /// one tries again), or why the host cannot present at all.
    fn present(
        &mut self,
        frame: &FrameDone,
        lanes: &[Lane],
        ran: &[bool],
    ) -> Result<Option<Shown>, Self::Error>;
}

/// A presented frame: when it became visible, and at which vblank when presents wait for them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    /// When it became visible, ns of the host's time.
    pub at_ns: u64,
    /// The vblank it was scanned out at; none without vsync.
    pub vblank: Option<Vblank>,
}

/// Vblank numbers for presents whose vblank the host cannot ask the display for (the window,
/// a capture): each present is a whole number of refresh periods (at least one) after the last
/// one, the number nearest to the time measured between them. Without vsync, or without a
/// refresh rate, there are none: each present counts as its own vblank, as in
/// `simulate --vsync off`.
#[derive(Clone, Copy, Debug, Default)]
pub struct VblankCounter {
    period_ns: Option<f64>,
    last: Option<(u64, u64)>,
}

impl VblankCounter {
    /// Counts vblanks of a display at `refresh_hz` when presents wait for them (`vsync`).
    pub fn new(refresh_hz: Option<f64>, vsync: bool) -> VblankCounter {
        let period_ns = refresh_hz
            .filter(|hz| vsync && hz.is_finite() && *hz > 0.0)
            .map(period_ns_f);
        VblankCounter {
            period_ns,
            last: None,
        }
    }

    /// The vblank a present measured at `at_ns` landed on.
    pub fn at(&mut self, at_ns: u64) -> Option<Vblank> {
        let period_ns = self.period_ns?;
        let index = match self.last {
            None => 1,
            Some((index, then)) => {
                let periods = (at_ns.saturating_sub(then) as f64 / period_ns).round();
                index + (periods as u64).max(1)
            }
        };
        self.last = Some((index, at_ns));
        Some(Vblank::fixed(index, period_ns))
    }
}

/// What one frame did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameDone {
    /// The host's count of frames run, from 0: what present feedback names it by.
    pub number: u64,
    /// When the frame started stepping (its input sampled), ns.
    pub start_ns: u64,
    /// The frame time handed to the lanes that ran (a lane that sat frames out gets theirs
    /// too), ns.
    pub frame_ns: u64,
    /// When it reached the screen, if it did.
    pub shown: Option<Shown>,
    /// Whether the frame was paused (no lane stepped).
    pub paused: bool,
    /// `hold:HZ` pacing: the host presents it no sooner than this, ns.
    pub present_not_before_ns: Option<u64>,
}

/// One host's frames: its pacing, its last timer reading, and what each lane has not yet been
/// handed.
#[derive(Clone, Debug)]
pub struct Frames {
    pacer: Pacer,
    last_read_ns: Option<u64>,
    /// Per lane: time of frames it sat out, to be handed to it with its next one.
    pending_ns: Vec<u64>,
    ran: Vec<bool>,
    paused: bool,
    /// The host's time handed to no lane, ns: paused frames', and the program's own pauses
    /// before a [`Frames::restart`]. The lanes see the host's clock less this (an explosion's
    /// countdown holds while paused; a present after a pause is no jump in what was shown).
    excluded_ns: u64,
    /// How much of it the lanes' last present had seen.
    excluded_at_present: u64,
    /// The reading before a [`Frames::restart`], until the next reading excludes what came
    /// after it.
    restarted_from: Option<u64>,
    /// Frames run so far: the next frame's number.
    number: u64,
    /// Present feedback to the lanes' `display` timers, once one has asked for it (boxed: most
    /// runs never do).
    feedback: Option<Box<Feedback>>,
}

impl Frames {
    /// Frames paced by `pacer`; the first frame is measured from the first reading, unless
    /// [`Frames::anchor`] says otherwise.
    pub fn new(pacer: Pacer) -> Frames {
        Frames {
            pacer,
            last_read_ns: None,
            pending_ns: Vec::new(),
            ran: Vec::new(),
            paused: false,
            excluded_ns: 0,
            excluded_at_present: 0,
            restarted_from: None,
            number: 0,
            feedback: None,
        }
    }

    /// The next frame is measured from this timer reading.
    pub fn anchor(&mut self, read_ns: u64) {
        self.last_read_ns = Some(read_ns);
    }

    /// The next frame is measured from its own reading: what came before it is handed to no
    /// lane (the host's own pause, not the loop's), and the lanes' clock leaves it out.
    pub fn restart(&mut self) {
        self.restarted_from = self.last_read_ns.take().or(self.restarted_from);
    }

    /// The next frame is measured from this timer reading, unless a reading was taken already.
    pub fn anchor_once(&mut self, read_ns: u64) {
        self.last_read_ns.get_or_insert(read_ns);
    }

    /// Paces with `pacer` from now on.
    pub fn set_pacer(&mut self, pacer: Pacer) {
        self.pacer = pacer;
    }

    /// The pacing and what it measured.
    pub fn pacer(&self) -> &Pacer {
        &self.pacer
    }

    /// Pauses or resumes: a paused frame's time is discarded, so resuming is not one giant
    /// frame, and no lane steps or records.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Whether frames are paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether lane `i` stepped in the last frame.
    pub fn ran(&self, i: usize) -> bool {
        self.ran.get(i).copied().unwrap_or(false)
    }

    /// The time of the frames lane `i` sat out since it last ran, not yet handed to it, ns.
    pub fn pending_ns(&self, i: usize) -> u64 {
        self.pending_ns.get(i).copied().unwrap_or(0)
    }

    /// Runs one frame of `lanes` on `host`. A present that fails ends the frame there, with
    /// the host's error: the lanes have stepped, but nothing is recorded as shown and the
    /// pacing's sleep is not taken.
    pub fn run<H: Host>(
        &mut self,
        host: &mut H,
        lanes: &mut [Lane],
    ) -> Result<FrameDone, H::Error> {
        self.pending_ns.resize(lanes.len(), 0);
        self.ran.resize(lanes.len(), false);
        let measured = self.read(host);
        let mut frame_ns = self.pacer.begin(host.now_ns(), measured);
        if !self.paused && host.can_wait() {
            frame_ns += self.wait_for_a_tick(host, lanes, frame_ns);
        }
        let fed = host.gives_feedback() && lanes.iter().any(Lane::takes_display_feedback);
        if fed {
            let feedback = self.feedback.get_or_insert_default();
            host.displayed(feedback.inbox());
            feedback.hand_on(lanes);
        }
        let start_ns = host.now_ns();
        if self.paused {
            self.excluded_ns = self.excluded_ns.saturating_add(frame_ns);
        }
        let live_ns = start_ns.saturating_sub(self.excluded_ns);
        for (i, lane) in lanes.iter_mut().enumerate() {
            let handed = self.pending_ns[i].saturating_add(frame_ns);
            self.ran[i] = !self.paused && lane.due_in_ns(handed) == 0;
            if self.ran[i] {
                self.pending_ns[i] = 0;
                lane.advance_timed(handed, live_ns, &mut |k| host.step_time_ns(start_ns, k));
            } else {
                if !self.paused {
                    self.pending_ns[i] = handed;
                }
                lane.hold(live_ns);
            }
        }
        let number = self.number;
        self.number += 1;
        if fed {
            let read_ns = self.last_read_ns.unwrap_or(start_ns);
            if let Some(feedback) = self.feedback.as_mut() {
                feedback.begun(number, read_ns, lanes, &self.ran);
            }
        }
        let mut done = FrameDone {
            number,
            start_ns,
            frame_ns,
            shown: None,
            paused: self.paused,
            present_not_before_ns: self.pacer.present_not_before_ns(),
        };
        done.shown = host.present(&done, lanes, &self.ran)?;
        if let Some(shown) = done.shown {
            self.presented(lanes, shown, start_ns);
        }
        let wait = self.pacer.end(host.now_ns());
        host.pace(wait);
        Ok(done)
    }

    /// The lanes that ran this frame record it, shown as `shown`, on their clock (the host's
    /// less the time handed to none): after a pause or the program's own, the present is no
    /// jump in what they showed, and their present-to-present measures start again.
    fn presented(&mut self, lanes: &mut [Lane], shown: Shown, start_ns: u64) {
        let gap = self.excluded_ns != self.excluded_at_present;
        self.excluded_at_present = self.excluded_ns;
        let live = |ns: u64| ns.saturating_sub(self.excluded_ns);
        for (lane, _) in lanes.iter_mut().zip(&self.ran).filter(|(_, ran)| **ran) {
            if gap {
                lane.after_gap();
            }
            lane.presented(live(shown.at_ns), shown.vblank, live(start_ns));
        }
    }

    /// The time since the last reading, ns (none after a restart: the time since the reading
    /// before it is handed to no lane).
    fn read<H: Host>(&mut self, host: &mut H) -> u64 {
        let reading = host.read_ns();
        let Some(last) = self.last_read_ns.replace(reading) else {
            if let Some(from) = self.restarted_from.take() {
                let skipped = reading.saturating_sub(from);
                self.excluded_ns = self.excluded_ns.saturating_add(skipped);
            }
            return 0;
        };
        reading.saturating_sub(last)
    }

    /// MonoGame's loop does not run a frame before a whole tick is due: it sleeps and reads
    /// the clock again. With several lanes the host waits only while none is ready. Returns
    /// the time measured while waiting.
    fn wait_for_a_tick<H: Host>(&mut self, host: &mut H, lanes: &[Lane], frame_ns: u64) -> u64 {
        let mut waited = 0;
        loop {
            let due = lanes
                .iter()
                .zip(&self.pending_ns)
                .map(|(lane, pending)| lane.due_in_ns(pending + frame_ns + waited))
                .min()
                .unwrap_or(0);
            if due == 0 {
                return waited;
            }
            host.sleep(due.max(1));
            waited += self.read(host);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lane::LaneSpec;
    use timestep_loop::{Mode, NS_PER_MS, Pacing, PolicyEnv};

    /// What [`Failing`]'s presents fail with.
    #[derive(Debug, PartialEq, thiserror::Error)]
    #[error("the surface is gone")]
    struct Gone;

    /// A host on a clock the test moves, whose presents are shown at once until the
    /// `fail_at`-th, which fails.
    struct Failing {
        now_ns: u64,
        presents: u32,
        fail_at: u32,
    }

    impl Wall for Failing {
        fn now_ns(&mut self) -> u64 {
            self.now_ns
        }
        fn sleep(&mut self, ns: u64) {
            self.now_ns += ns;
        }
    }

    impl Host for Failing {
        type Error = Gone;
        fn present(
            &mut self,
            _frame: &FrameDone,
            _lanes: &[Lane],
            _ran: &[bool],
        ) -> Result<Option<Shown>, Gone> {
            self.presents += 1;
            if self.presents >= self.fail_at {
                return Err(Gone);
            }
            Ok(Some(Shown {
                at_ns: self.now_ns,
                vblank: None,
            }))
        }
    }

    #[test]
    fn a_failed_present_reaches_the_caller_and_no_lane_counts_it_shown() {
        let lane = Lane::timing_only(LaneSpec::mode(Mode::Fixed), &PolicyEnv::default());
        let mut lanes = [lane.unwrap_or_else(|e| panic!("{e}"))];
        let mut frames = Frames::new(Pacer::new(Pacing::Vsync, None));
        frames.anchor(0);
        let mut host = Failing {
            now_ns: 0,
            presents: 0,
            fail_at: 2,
        };
        host.now_ns += 16 * NS_PER_MS;
        let done = frames.run(&mut host, &mut lanes);
        assert_eq!(
            done.map(|d| d.shown.map(|s| s.at_ns)),
            Ok(Some(16 * NS_PER_MS))
        );
        assert_eq!(lanes[0].record().metrics().frames(), 1);
        host.now_ns += 16 * NS_PER_MS;
        assert_eq!(frames.run(&mut host, &mut lanes), Err(Gone));
        assert_eq!(lanes[0].record().metrics().frames(), 1);
    }
}
