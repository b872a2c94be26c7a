//! What each figure on screen means, in one sentence with its unit: the one table the HUD's,
//! the panes', the strip's and the banner's tooltips come from.

/// Each figure's term (the HUD's label, or the name a pane's or the strip's figure is drawn
/// under) and what it means.
pub const TIPS: [(&str, &str); 44] = [
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
    (
        "steps",
        "Ticks simulated in the last frame, about frame time ÷ tick: a frame one tick above or below its neighbours moves the rope a tick more or less than the time it shows, a hitch you see when the tick is near the frame time (0 or 2 where 1 was due) but not with 1 ms ticks (42 then 43).",
    ),
    (
        "alpha",
        "The leftover time as a fraction of a tick, 0 to 1: how far the frame is between the last two ticks, which interpolation blends by.",
    ),
    (
        "drift",
        "Simulated time minus wall time since the lane started, ms (negative: behind).",
    ),
    (
        "judder",
        "How unevenly the driven pin moves on screen, px rms over the last second: 0 is smooth.",
    ),
    (
        "dropped",
        "Time the clamp and the step cap discarded since the lane started, ms: the simulation never gets it back.",
    ),
    (
        "energy",
        "The rope's kinetic plus gravitational potential energy, J: negative below the pin, and climbing without end when the rope is exploding.",
    ),
    (
        "exploded",
        "Whether the rope diverged; it is shown red for 2 s, then reset.",
    ),
    (
        "vsync",
        "The display rate the frame times show, Hz; 'no vsync seen' where they show none (a frame cap is pacing of our own, not the display's); 'deciding' until they tell.",
    ),
    (
        "substeps",
        "The tick (a variable lane's: the frame's step) cut into substeps the rope is integrated over one after another: each substep is short enough for the rope's stiff springs (below its stable step), so a long step holds where one step of the same length would explode.",
    ),
    (
        "x17",
        "After the tick: each tick is integrated as 17 substeps, each a 17th of the tick.",
    ),
    (
        "unstable>",
        "After the tick: the step is above the rope's stable step, ms, so the rope will explode.",
    ),
    (
        "raw / snap / smooth",
        "The timer: frame time as measured, snapped to the display's period, or averaged.",
    ),
    (
        "Fifo",
        "The present mode: each frame waits for the display's next vblank (vsync).",
    ),
    (
        "FifoRelaxed",
        "Vsync, except that a late frame is shown at once (it may tear) instead of waiting.",
    ),
    (
        "Immediate / Mailbox",
        "No vsync (may tear), or the newest frame replaces a waiting one (no tearing).",
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
        "display",
        "What the display really did: the mean time between display changes over the last second, ms; MEAS when the compositor or X server said when each frame was shown, EST when estimated from the X11 vblank clock (the first vblank after the present returned); n/a and why where there is no present feedback.",
    ),
    (
        "latency",
        "From the present call to the frame's display, ms, the mean over the last second (MEAS or EST as on the display line).",
    ),
    (
        "anim err",
        "Animation error, PresentMon's: per frame shown, the change in simulation time minus the change in display time, ms, RMS over the last second (0: the motion keeps time with the display).",
    ),
    (
        "discarded",
        "Frames the display discarded, never shown (a newer frame replaced them first), since the window opened.",
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
        "The upper graph: each bar is one frame's measured time, ms, coloured as the key beside it says.",
    ),
    (
        "frame colours",
        "The frame bars' colours: green a frame of up to 17.5 ms (one 60 Hz refresh), yellow up to 34 ms (a refresh missed, as at 30 fps), red longer (two or more missed).",
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

/// The terms the panel's Legend explains, in its order, each as [`TIPS`] defines it.
pub const LEGEND: [&str; 14] = [
    "steps",
    "alpha",
    "drift",
    "dropped",
    "energy",
    "judder",
    "vsync",
    "x17",
    "unstable>",
    "raw / snap / smooth",
    "Fifo",
    "FifoRelaxed",
    "Immediate / Mailbox",
    "input",
];

/// What the figure `term` means, if it is one.
pub fn tip(term: &str) -> Option<&'static str> {
    TIPS.iter().find(|(t, _)| *t == term).map(|(_, tip)| *tip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steps_entry_holds_at_a_1_ms_tick_as_at_a_frame_long_one() {
        let steps = tip("steps").unwrap_or_default();
        assert!(
            steps.contains("÷ tick") && steps.contains("1 ms ticks"),
            "{steps}"
        );
    }

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
        assert!(LEGEND.iter().all(|term| tip(term).is_some()));
        assert_eq!(tip("no such figure"), None);
    }
}
