//! Present feedback: when past frames were really shown, as a host learns it, and how it
//! reaches the lanes whose loop steps by it (the `display` timer). It is the one thing that
//! flows back, from the present to the timer.

use crate::model::lane::Lane;
use std::collections::VecDeque;

/// A past frame's display, as the host learned it (present feedback: Wayland's
/// `wp_presentation`, a capture's display times, the simulated display's scan-outs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Displayed {
    /// Which frame: its frame's number (`FrameDone::number`).
    pub frame: u64,
    /// When it was shown, ns of the host's time (as [`crate::protocol::wall::Wall::now_ns`]); `None`: the display
    /// discarded it.
    pub at_ns: Option<u64>,
    /// The display's refresh period then, ns, when the host knows it (a variable-refresh
    /// panel states its fastest, as `wp_presentation` does).
    pub refresh_ns: Option<u64>,
}

/// Frames remembered for present feedback: feedback on older ones is not handed on.
const FEEDBACK_FRAMES: usize = 64;

/// How many frames late a simulated or replayed display's present feedback arrives unless
/// told (`--feedback-delay`): Wayland's `presented` event comes after the frame's vblank, by
/// which time the loop is building the next frame or the one after it.
pub const FEEDBACK_DELAY: u64 = 2;
/// The latest present feedback may be, frames: well within what is remembered for it.
pub const MAX_FEEDBACK_DELAY: u64 = 32;
const _: () = assert!(MAX_FEEDBACK_DELAY < FEEDBACK_FRAMES as u64);

/// Present feedback a host knows at once (the simulated display's scan-outs, a capture's
/// display times), handed on a fixed number of frames late, as real feedback arrives.
#[derive(Clone, Debug)]
pub struct LateFeedback {
    delay: u64,
    queue: VecDeque<Displayed>,
    /// Frames presented so far.
    presented: u64,
}

impl LateFeedback {
    /// Feedback handed on `delay` frames late (at least 1: a frame's own display is never
    /// known while it is being built).
    pub fn new(delay: u64) -> LateFeedback {
        LateFeedback {
            delay: delay.max(1),
            queue: VecDeque::new(),
            presented: 0,
        }
    }

    /// Frame `frame` was shown at `at_ns` (`None`: not shown), on a display of `refresh_ns`.
    pub fn presented(&mut self, frame: u64, at_ns: Option<u64>, refresh_ns: Option<u64>) {
        self.presented = frame + 1;
        self.queue.push_back(Displayed {
            frame,
            at_ns,
            refresh_ns,
        });
    }

    /// The feedback now due (`Host::displayed`).
    pub fn due(&mut self, out: &mut Vec<Displayed>) {
        while let Some(d) = self
            .queue
            .front()
            .filter(|d| d.frame + self.delay <= self.presented)
        {
            out.push(*d);
            self.queue.pop_front();
        }
    }
}

/// What present feedback needs of recent frames: when each was read, and which frame of each
/// lane's loop it began; only kept while some lane's timer uses it.
#[derive(Clone, Debug, Default)]
pub(super) struct Feedback {
    /// Recent frames: (number, reading), oldest first.
    frames: VecDeque<(u64, u64)>,
    /// Per recent frame, per lane: the loop's frame number, if the lane ran.
    loop_frames: VecDeque<Vec<Option<u64>>>,
    /// The host's feedback, as taken.
    taken: Vec<Displayed>,
}

impl Feedback {
    /// Frame `number`, read at `read_ns`, began these frames of the lanes' loops.
    pub(super) fn begun(&mut self, number: u64, read_ns: u64, lanes: &[Lane], ran: &[bool]) {
        let mut row = if self.frames.len() == FEEDBACK_FRAMES {
            self.frames.pop_front();
            self.loop_frames.pop_front().unwrap_or_default()
        } else {
            Vec::with_capacity(lanes.len())
        };
        row.clear();
        let begun = lanes
            .iter()
            .zip(ran)
            .map(|(l, r)| r.then(|| l.loop_frame()).flatten());
        row.extend(begun);
        self.frames.push_back((number, read_ns));
        self.loop_frames.push_back(row);
    }

    /// Where the host's feedback goes (emptied first), before [`Feedback::hand_on`].
    pub(super) fn inbox(&mut self) -> &mut Vec<Displayed> {
        self.taken.clear();
        &mut self.taken
    }

    /// Hands the host's feedback to the lanes whose loops ran the frames it names: how long
    /// after the frame's reading each was shown.
    pub(super) fn hand_on(&mut self, lanes: &mut [Lane]) {
        for d in &self.taken {
            let Some(at) = self.frames.iter().position(|(n, _)| *n == d.frame) else {
                continue;
            };
            let read_ns = self.frames[at].1;
            let after = d.at_ns.map(|ns| ns.saturating_sub(read_ns));
            for (lane, begun) in lanes.iter_mut().zip(&self.loop_frames[at]) {
                if let Some(frame) = begun {
                    lane.display_feedback(*frame, after, d.refresh_ns);
                }
            }
        }
    }
}
