//! What each figure on screen means, in one sentence with its unit: the one table the HUD's,
//! the panes', the strip's and the banner's tooltips come from.

/// Each figure's term (the HUD's label, or the name a pane's or the strip's figure is drawn
/// under) and what it means.
pub const TIPS: [(&str, &str); 32] = [
    (
        "mode",
        "The lane shown: its mode or preset, and its options.",
    ),
    (
        "view",
        "The split view: every lane side by side, each pane labelled with its figures.",
    ),
    (
        "loop",
        "The tick, ms, its substeps (x N), the timer and the integrator; unstable>L when the step is above the rope's stable step L, ms.",
    ),
    (
        "dt",
        "The tick every textbook lane simulates, as given (s, ms, us or Hz); 'per lane' when the lanes' ticks differ: each pane label's loop line gives its own.",
    ),
    (
        "clamp",
        "The longest frame time the loop accepts; the excess of a longer frame is dropped; 'per lane' when the lanes' clamps differ (each preset has its own).",
    ),
    (
        "max steps",
        "The most ticks one frame may run, steps; time for more is dropped; 'per lane' when the lanes' caps differ (each preset has its own).",
    ),
    ("particles", "Particles in the rope, a count."),
    (
        "frame",
        "The last frame's measured time, ms, and frames per second over half a second.",
    ),
    ("steps", "Ticks simulated in the last frame, steps."),
    (
        "alpha",
        "The leftover time as a fraction of a tick, 0 to 1: how far between ticks the frame is drawn when interpolating.",
    ),
    (
        "drift",
        "Simulated time minus wall time since the lane started, ms (negative: behind).",
    ),
    (
        "judder",
        "How unevenly the driven pin moves on screen, px rms over the last second.",
    ),
    (
        "dropped",
        "Time the clamp and the step cap discarded since the lane started, ms.",
    ),
    (
        "energy",
        "The rope's kinetic plus gravitational potential energy, J (negative: below the pin).",
    ),
    (
        "exploded",
        "Whether the rope diverged; it is shown red for 2 s, then reset.",
    ),
    (
        "vsync",
        "The display rate the frame times show, Hz, or not paced, or deciding.",
    ),
    (
        "pacing",
        "How frames are paced, with the interval, ms, and the deadlines missed.",
    ),
    (
        "input",
        "Event to screen for the last key or mouse input and the mean of recent ones, ms.",
    ),
    (
        "present",
        "The present mode in use: Fifo and FifoRelaxed wait for vblank (vsync), Immediate and Mailbox do not.",
    ),
    (
        "capture",
        "The capture being replayed: its frame times are the window's.",
    ),
    ("replayed", "The capture's frame showing, of how many."),
    (
        "replay",
        "The capture being replayed and its frame showing, of how many.",
    ),
    (
        "lane",
        "The lane in this pane: its number (the key that shows it alone) and its mode or preset.",
    ),
    (
        "countdown",
        "The rope diverged: seconds until it is reset, s (R resets it now).",
    ),
    (
        "frame ms",
        "The upper graph: each bar is one frame's measured time, ms, green under 16.7 ms (60 Hz), amber under 33.3 ms (30 Hz), red above.",
    ),
    (
        "frame range",
        "The frame-time graph's range, ms: a longer frame is drawn cut off, with a white cap.",
    ),
    (
        "reference",
        "A reference frame time, ms: 16.7 ms is one frame at 60 Hz, 33.3 ms one at 30 Hz.",
    ),
    (
        "steps/frame",
        "The middle graph: the ticks each lane ran in each frame, steps, one row per lane in its colour.",
    ),
    (
        "steps range",
        "The steps graph's range, steps per frame, shared by every lane's row: a frame of more is drawn cut off, with a white cap.",
    ),
    (
        "lane row",
        "The lane this row of steps per frame is, numbered as its pane.",
    ),
    (
        "last worst",
        "The last frame's measured time and the longest of the frames in the graph, ms.",
    ),
    (
        "wall",
        "The bottom row: when each tick really ran, over the last 100 ms of wall time, newest at the right; a faint line is a frame's start, a mark one tick.",
    ),
];

/// What the figure `term` means, if it is one.
pub fn tip(term: &str) -> Option<&'static str> {
    TIPS.iter().find(|(t, _)| *t == term).map(|(_, tip)| *tip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_is_one_sentence_and_appears_once() {
        for (i, (term, tip)) in TIPS.iter().enumerate() {
            assert!(tip.ends_with('.') && !tip.contains(". "), "{term}: {tip}");
            assert!(
                TIPS[..i].iter().all(|(t, _)| t != term),
                "{term} is given twice"
            );
        }
        assert!(tip("judder").is_some_and(|t| t.contains("px")));
        assert_eq!(tip("no such figure"), None);
    }
}
