//! The pacings the `C` key and the caps the live `[` `]` keys step through, how the window
//! waits for its next frame, and the HUD's fps meter. How long to wait is decided by
//! `timestep_loop::Pacer`; the window does the waiting, in slices (see [`wait_before_frame`]).

use timestep_loop::{NS_PER_MS, Pacing, seconds};

/// The longest the window waits in one go (for a cap's next frame, a replayed capture's),
/// ns: keys, the close button, resizes, `--exit-after` and Ctrl-C are served at least this
/// often, however slow the cap.
pub const WAIT_SLICE_NS: u64 = 50 * NS_PER_MS;

/// What the window does before its next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Sleep this long (at most [`WAIT_SLICE_NS`]; 0: not at all), as the pacing's sleep does,
    /// precisely, then run the frame.
    ThenRun(u64),
    /// Wait this long in the event loop (at most [`WAIT_SLICE_NS`]), serving events, then ask
    /// again.
    Serve(u64),
}

/// At `now_ns`, with the next frame due at `due_ns`: the wait is served out in slices of the
/// event loop until at most one slice is left, and that last slice is slept precisely (an
/// event loop's wake-up is only as exact as the OS's timers), so a cap keeps its cadence and
/// no event waits more than a slice. A frame due after `exit_at_ns` (`--exit-after`) never
/// runs: the wait is served to its end, and the window exits meanwhile.
pub fn wait_before_frame(now_ns: u64, due_ns: u64, exit_at_ns: Option<u64>) -> Wait {
    let left = due_ns.saturating_sub(now_ns);
    if exit_at_ns.is_some_and(|at| due_ns > at) {
        Wait::Serve(left.clamp(1, WAIT_SLICE_NS))
    } else if left <= WAIT_SLICE_NS {
        Wait::ThenRun(left)
    } else {
        Wait::Serve((left - WAIT_SLICE_NS).min(WAIT_SLICE_NS))
    }
}

/// The caps `[` and `]` step through, in order; `None` is "off" (uncapped).
pub const FPS_CAPS: [Option<f64>; 7] = [
    None,
    Some(30.0),
    Some(50.0),
    Some(60.0),
    Some(75.0),
    Some(120.0),
    Some(144.0),
];

/// The pacings the window's `C` cycles through, in order (a cap is left to `[` `]`): the key,
/// its help line and the panel's list all read this one list.
pub const PACING_CYCLE: [Pacing; 3] = [Pacing::Vsync, Pacing::Adaptive, Pacing::Late];

/// The next pacing for the window's `C`: the one after `pacing` in [`PACING_CYCLE`], round to
/// the first (a cap or a hold, not in it, leaves for the first: vsync).
pub fn next_pacing(pacing: Pacing) -> Pacing {
    let next = PACING_CYCLE
        .iter()
        .position(|&p| p == pacing)
        .map_or(0, |i| i + 1);
    PACING_CYCLE[next % PACING_CYCLE.len()]
}

/// The help line of `C`: "pacing: vsync, adaptive, late".
pub fn pacing_cycle_text() -> String {
    let names: Vec<String> = PACING_CYCLE.iter().map(Pacing::to_string).collect();
    format!("pacing: {}", names.join(", "))
}

/// `]`: the next cap in [`FPS_CAPS`] after `cap` (stays at the last one). A cap from the
/// command line that is not in the list moves to the nearest listed one above it.
pub fn cap_up(cap: Option<f64>) -> Option<f64> {
    match cap {
        None => FPS_CAPS[1],
        Some(hz) => FPS_CAPS[1..]
            .iter()
            .copied()
            .flatten()
            .find(|&c| c > hz)
            .or(Some(hz)),
    }
}

/// `[`: the cap before `cap` in [`FPS_CAPS`]; below the lowest one is off.
pub fn cap_down(cap: Option<f64>) -> Option<f64> {
    let hz = cap?;
    FPS_CAPS[1..]
        .iter()
        .copied()
        .flatten()
        .rev()
        .find(|&c| c < hz)
}

/// Frames per second, counted over half-second windows: a measured rate that is steady
/// enough to read, updated twice a second.
#[derive(Clone, Copy, Debug, Default)]
pub struct FpsMeter {
    window_frames: u32,
    window_ns: u64,
    fps: f64,
    /// A whole window has been counted; until then the rate so far is shown.
    settled: bool,
}

impl FpsMeter {
    const WINDOW_NS: u64 = 500_000_000;

    pub fn push(&mut self, frame_ns: u64) {
        self.window_frames += 1;
        self.window_ns += frame_ns;
        let full = self.window_ns >= Self::WINDOW_NS;
        if (full || !self.settled) && self.window_ns > 0 {
            self.fps = f64::from(self.window_frames) / seconds(self.window_ns);
        }
        if full {
            self.settled = true;
            self.window_frames = 0;
            self.window_ns = 0;
        }
    }

    pub fn fps(&self) -> f64 {
        self.fps
    }

    /// The rate over the last whole window, once one has been counted (the first frames'
    /// rate so far is no measure of what the machine holds).
    pub fn settled_fps(&self) -> Option<f64> {
        self.settled.then_some(self.fps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use timestep_loop::NS_PER_MS as MS;

    /// Waits for a frame due at `due_ns` from `now_ns` on a simulated clock, as the window
    /// does, each of the event loop's waits ending `late_ns` late: the time each wait ended
    /// and how, and when the frame ran.
    fn wait_out(mut now_ns: u64, due_ns: u64, late_ns: u64) -> (Vec<Wait>, u64) {
        let mut waits = Vec::new();
        loop {
            let wait = wait_before_frame(now_ns, due_ns, None);
            waits.push(wait);
            match wait {
                Wait::Serve(ns) => now_ns += ns + late_ns,
                Wait::ThenRun(ns) => return (waits, now_ns + ns),
            }
            assert!(waits.len() < 1_000, "the wait never ends");
        }
    }

    #[test]
    fn a_one_hz_caps_second_is_waited_in_slices_and_the_frame_runs_on_time() {
        // The frame after a 1 Hz cap's is due a second after the last one ended; before, the
        // window slept through it in one call. Now no wait is longer than a slice (Escape,
        // the close button and --exit-after are served between them), the last slice is slept
        // precisely, and the frame runs when it is due.
        let (waits, ran_at) = wait_out(5 * MS, 1_005 * MS, 0);
        assert_eq!(ran_at, 1_005 * MS);
        assert_eq!(waits.len(), 20, "{waits:?}");
        assert_eq!(waits[0], Wait::Serve(WAIT_SLICE_NS));
        assert_eq!(waits[19], Wait::ThenRun(WAIT_SLICE_NS));
        // An event loop that wakes late (2 ms here) makes the last sleep shorter, not the
        // frame later.
        let (waits, ran_at) = wait_out(5 * MS, 1_005 * MS, 2 * MS);
        assert_eq!(ran_at, 1_005 * MS);
        for wait in &waits {
            let (Wait::Serve(ns) | Wait::ThenRun(ns)) = *wait;
            assert!(ns <= WAIT_SLICE_NS, "{waits:?}");
        }
    }

    #[test]
    fn a_frame_due_within_a_slice_or_past_is_slept_for_at_once() {
        assert_eq!(
            wait_before_frame(10 * MS, 26 * MS, None),
            Wait::ThenRun(16 * MS)
        );
        assert_eq!(wait_before_frame(10 * MS, 10 * MS, None), Wait::ThenRun(0));
        assert_eq!(wait_before_frame(30 * MS, 10 * MS, None), Wait::ThenRun(0));
        // 70 ms left: 20 ms served, then the last 50 ms slept.
        assert_eq!(
            wait_out(0, 70 * MS, 0).0,
            [Wait::Serve(20 * MS), Wait::ThenRun(50 * MS)]
        );
        assert_eq!(
            wait_before_frame(0, u64::MAX, None),
            Wait::Serve(WAIT_SLICE_NS)
        );
    }

    #[test]
    fn a_frame_due_after_exit_after_is_never_started() {
        // --exit-after 3s, the next frame due at 3.02 s: at 2.97 s it would be slept for and
        // run; instead the last 50 ms are served, and the window exits at 3 s.
        let exit = Some(3_000 * MS);
        assert_eq!(
            wait_before_frame(2_970 * MS, 3_020 * MS, None),
            Wait::ThenRun(50 * MS)
        );
        assert_eq!(
            wait_before_frame(2_970 * MS, 3_020 * MS, exit),
            Wait::Serve(50 * MS)
        );
        assert_eq!(
            wait_before_frame(3_010 * MS, 3_020 * MS, exit),
            Wait::Serve(10 * MS)
        );
        assert_eq!(
            wait_before_frame(3_030 * MS, 3_020 * MS, exit),
            Wait::Serve(1)
        );
        // One due before it runs as ever.
        assert_eq!(
            wait_before_frame(2_970 * MS, 2_990 * MS, exit),
            Wait::ThenRun(20 * MS)
        );
    }

    #[test]
    fn the_pacing_key_cycles_vsync_adaptive_late_and_leaves_a_cap_for_vsync() {
        let mut p = Pacing::Vsync;
        let mut seen = Vec::new();
        for _ in 0..3 {
            p = next_pacing(p);
            seen.push(p);
        }
        assert_eq!(seen, [Pacing::Adaptive, Pacing::Late, Pacing::Vsync]);
        assert_eq!(next_pacing(Pacing::Cap(30.0)), Pacing::Vsync);
        assert_eq!(next_pacing(Pacing::Hold(59.94)), Pacing::Vsync);
        // The key's help line names the same cycle.
        assert_eq!(pacing_cycle_text(), "pacing: vsync, adaptive, late");
    }

    #[test]
    fn the_cap_keys_step_through_the_list_and_back() {
        let mut cap = None;
        let mut up = vec![cap];
        for _ in 0..7 {
            cap = cap_up(cap);
            up.push(cap);
        }
        let expected_up = [
            None,
            Some(30.0),
            Some(50.0),
            Some(60.0),
            Some(75.0),
            Some(120.0),
            Some(144.0),
            Some(144.0),
        ];
        assert_eq!(up, expected_up);
        let mut down = vec![cap];
        for _ in 0..7 {
            cap = cap_down(cap);
            down.push(cap);
        }
        let expected_down = [
            Some(144.0),
            Some(120.0),
            Some(75.0),
            Some(60.0),
            Some(50.0),
            Some(30.0),
            None,
            None,
        ];
        assert_eq!(down, expected_down);
    }

    #[test]
    fn a_cap_from_the_command_line_steps_to_its_listed_neighbours() {
        assert_eq!(cap_up(Some(59.94)), Some(60.0));
        assert_eq!(cap_down(Some(59.94)), Some(50.0));
        assert_eq!(cap_up(Some(240.0)), Some(240.0));
        assert_eq!(cap_down(Some(240.0)), Some(144.0));
        assert_eq!(cap_down(Some(10.0)), None);
    }

    #[test]
    fn the_fps_meter_counts_frames_per_half_second() {
        let mut m = FpsMeter::default();
        m.push(MS / 10);
        assert_eq!(m.fps(), 10_000.0, "the first frame alone");
        m.push(19_900_000);
        assert_eq!(m.fps(), 100.0, "the first window shows the rate so far");
        for _ in 0..48 {
            m.push(10 * MS);
        }
        assert!((m.fps() - 100.0).abs() < 1e-9);
        for _ in 0..25 {
            m.push(20 * MS);
        }
        assert!((m.fps() - 50.0).abs() < 1e-9, "{}", m.fps());
    }
}
