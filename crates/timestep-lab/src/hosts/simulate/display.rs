//! The simulated display and timer.

use super::RenderCost;
use super::vrr::{Vrr, VrrPanel};
use crate::model::lane::{Lane, Vblank};
use crate::protocol::feedback::{Displayed, FEEDBACK_DELAY, LateFeedback};
use crate::protocol::frame::{FrameDone, Host, Shown, Wall};
use crate::protocol::machine::{Machine, Sleep, Waits};
use crate::util::fast;
use crate::util::fast::period_ns_f;
use std::convert::Infallible;
use timestep_loop::Pacing;

/// One long frame injected into the simulated display (`--stall AT:DURATION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stall {
    /// The first frame to start at or after this time stalls, ns of simulated wall time.
    pub at_ns: u64,
    /// How much longer that frame renders, ns.
    pub duration_ns: u64,
}

/// Where the loop starts between two vblanks (`--phase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// This far after vblank 0.
    At(u64),
    /// Anywhere in the first period, seeded (MonitorSim's random start).
    Random,
}

/// How the simulated machine behaves.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayConfig {
    /// The refresh rate; with `vrr`, its maximum (what the OS reports of the mode).
    pub display_hz: f64,
    /// Whether presents wait for a vblank.
    pub vsync: bool,
    /// A variable-refresh panel (`--vrr`): frames are scanned out when ready, within its range.
    pub vrr: Option<Vrr>,
    /// Each timer reading is off by a uniform amount in ±jitter.
    pub jitter_ns: u64,
    /// Time spent rendering each frame, before presenting.
    pub render_cost: RenderCost,
    /// Simulated CPU time per tick (a step of the lane's policy).
    pub step_cost_ns: u64,
    /// How the loop paces its frames (`--pacing`).
    pub pacing: Pacing,
    /// How the machine's clock reads and its sleeps wake (`--machine`), and how the loop
    /// waits on it (`--sleep`).
    pub machine: Machine,
    /// How the loop's waits sleep: the OS's sleep alone, or spinning to the deadline.
    pub sleep: Sleep,
    /// One long frame each: the first frame that starts at or after `at_ns` renders
    /// `duration_ns` longer.
    pub stalls: Vec<Stall>,
    /// Where the loop starts between vblank 0 and vblank 1.
    pub phase: Phase,
    /// Simulated wall time to run for.
    pub duration_ns: u64,
    /// The seed of the timer's noise, the random phase and varying render costs.
    pub seed: u64,
    /// How many frames late present feedback (when each frame was scanned out) reaches a
    /// loop that asks for it (`--feedback-delay`, at least 1).
    pub feedback_delay: u64,
}

impl DisplayConfig {
    /// The refresh every present waits for, Hz: with vsync on a fixed-rate display (not a
    /// `--vrr` panel), so that no frame comes sooner than a refresh after the last; `None`
    /// otherwise.
    pub fn vsynced_hz(&self) -> Option<f64> {
        (self.vsync && self.vrr.is_none()).then_some(self.display_hz)
    }
}

impl Default for DisplayConfig {
    fn default() -> Self {
        DisplayConfig {
            display_hz: 60.0,
            vsync: true,
            vrr: None,
            jitter_ns: 0,
            render_cost: RenderCost::Fixed(0),
            step_cost_ns: 0,
            pacing: Pacing::Vsync,
            machine: Machine::EXACT,
            sleep: Sleep::default(),
            stalls: Vec::new(),
            phase: Phase::At(0),
            duration_ns: 10_000_000_000,
            seed: 1,
            feedback_delay: FEEDBACK_DELAY,
        }
    }
}

/// A game loop's view of the machine: a timer to read, and a display to present to.
#[derive(Debug)]
pub struct Display {
    cfg: DisplayConfig,
    period_ns: f64,
    /// True simulated wall time.
    now_ns: u64,
    /// When the run started (the phase), ns.
    start_ns: u64,
    /// The last vblank a frame was presented at (index); at most one present per vblank.
    last_vblank: u64,
    /// The last timer reading (monotonic, noisy).
    last_read_ns: u64,
    stalls_fired: Vec<bool>,
    /// On a variable-refresh panel: the panel, and the scanouts so far.
    panel: Option<VrrPanel>,
    scans: u64,
    /// The loop's waits on the machine.
    waits: Waits,
    rng: fastrand::Rng,
    /// Its own stream for render costs, so a varying render cost leaves the timer noise as it
    /// would be without it.
    render_rng: fastrand::Rng,
    /// Present feedback not yet handed on; `None`: no loop asked for it.
    feedback: Option<LateFeedback>,
}

impl Display {
    /// A display and timer at the start of a run of `cfg`, before any frame.
    pub fn new(cfg: DisplayConfig) -> Self {
        let period_ns = period_ns_f(cfg.display_hz);
        let mut rng = fastrand::Rng::with_seed(cfg.seed);
        let render_rng = fastrand::Rng::with_seed(cfg.seed ^ 0x5eed_0f7e_4de4);
        let start_ns = match cfg.phase {
            Phase::At(ns) => ns,
            Phase::Random => rng.u64(0..period_ns.max(1.0) as u64),
        };
        let stalls_fired = vec![false; cfg.stalls.len()];
        let panel = cfg.vrr.map(|vrr| VrrPanel::new(vrr, start_ns));
        let waits = Waits::new(cfg.machine.clone(), cfg.sleep, cfg.seed);
        Display {
            panel,
            scans: 0,
            waits,
            cfg,
            period_ns,
            now_ns: start_ns,
            start_ns,
            last_vblank: (start_ns as f64 / period_ns).floor() as u64,
            last_read_ns: start_ns,
            stalls_fired,
            rng,
            render_rng,
            feedback: None,
        }
    }

    /// Frame `number`, shown at `at_ns`, as feedback (kept out of line: most runs keep none).
    #[inline(never)]
    fn feed_back(&mut self, number: u64, at_ns: u64) {
        let refresh_ns = fast::round(self.period_ns) as u64;
        if let Some(feedback) = self.feedback.as_mut() {
            feedback.presented(number, Some(at_ns), Some(refresh_ns));
        }
    }

    /// Keeps present feedback from now on: when each frame was scanned out, handed to the
    /// loop `feedback_delay` frames later.
    pub fn give_feedback(&mut self) {
        self.feedback = Some(LateFeedback::new(self.cfg.feedback_delay));
    }

    /// True simulated wall time, ns.
    pub fn now_ns(&self) -> u64 {
        self.now_ns
    }

    /// The refresh period, ns.
    pub fn period_ns(&self) -> f64 {
        self.period_ns
    }

    /// The time of vblank `k`, computed from `k` each time so fractional rates never drift.
    fn vblank_ns(&self, k: u64) -> u64 {
        fast::round(k as f64 * self.period_ns) as u64
    }

    /// When the run started (the phase), ns.
    pub fn start_ns(&self) -> u64 {
        self.start_ns
    }

    /// Whether the configured duration has passed: no frame starts after that.
    pub fn finished(&self) -> bool {
        self.now_ns - self.start_ns >= self.cfg.duration_ns
    }

    /// Reads the timer: the time now as the noisy timer measures it, in the machine's steps,
    /// never behind its last reading.
    pub fn read_ns(&mut self) -> u64 {
        let j = self.cfg.jitter_ns as i64;
        let noise = if j == 0 { 0 } else { self.rng.i64(-j..=j) };
        let reading = self
            .waits
            .read(self.now_ns.saturating_add_signed(noise))
            .max(self.last_read_ns);
        self.last_read_ns = reading;
        reading
    }

    /// The loop waits `ns`, as the machine's sleeps (and spinning) allow.
    pub fn sleep(&mut self, ns: u64) {
        self.now_ns = self.waits.wake(self.now_ns, ns);
    }

    /// The CPU the loop has spent spinning in its waits, ns.
    pub fn spun_ns(&self) -> u64 {
        self.waits.spun_ns()
    }

    /// Steps `ticks` ticks (at the step cost each), renders (render cost plus any stall due)
    /// and presents. With vsync the frame is visible at the first vblank after rendering
    /// finishes that has not already shown a frame; without, when rendering finishes.
    pub fn present(&mut self, ticks: u32) -> Shown {
        self.present_held(ticks, None)
    }

    /// As [`Display::present`], the present held back to `not_before_ns` if it is ready sooner.
    pub fn present_held(&mut self, ticks: u32, not_before_ns: Option<u64>) -> Shown {
        let busy = self.render_ns()
            + self.cfg.step_cost_ns.saturating_mul(u64::from(ticks))
            + self.stall_ns();
        let ready = self
            .now_ns
            .saturating_add(busy)
            .max(not_before_ns.unwrap_or(0));
        if !self.cfg.vsync {
            self.now_ns = ready.max(self.now_ns + 1);
            return Shown {
                at_ns: self.now_ns,
                vblank: None,
            };
        }
        if self.panel.is_some() {
            return self.flip(ready);
        }
        let mut k = fast::ceil(ready as f64 / self.period_ns) as u64;
        // Guard the float division at exact vblank times.
        while k > 0 && self.vblank_ns(k - 1) >= ready {
            k -= 1;
        }
        while self.vblank_ns(k) < ready {
            k += 1;
        }
        k = k.max(self.last_vblank + 1);
        self.last_vblank = k;
        self.now_ns = self.vblank_ns(k);
        Shown {
            at_ns: self.now_ns,
            vblank: Some(Vblank::fixed(k, self.period_ns)),
        }
    }

    /// A frame ready at `ready_ns` flipped on the variable-refresh panel: shown at its scanout,
    /// the old frame's repeated scanouts counted as vblanks before it.
    fn flip(&mut self, ready_ns: u64) -> Shown {
        let Some(panel) = self.panel.as_mut() else {
            return Shown {
                at_ns: ready_ns,
                vblank: None,
            };
        };
        let flip = panel.flip(ready_ns);
        let n = flip.scans.len().max(1);
        self.scans += n;
        self.now_ns = flip.shown_ns;
        Shown {
            at_ns: flip.shown_ns,
            vblank: Some(Vblank {
                index: self.scans,
                period_ns: flip.scans.total_ns() as f64 / n as f64,
                cycles_ns: Some(flip.scans.cycle_range_ns()),
            }),
        }
    }

    /// This frame's render time.
    fn render_ns(&mut self) -> u64 {
        match self.cfg.render_cost {
            RenderCost::Fixed(ns) => ns,
            RenderCost::Uniform(lo, hi) => self.render_rng.u64(lo..=hi),
            RenderCost::Ramp(ramp) => {
                let t = (self.now_ns - self.start_ns) as f64 / self.cfg.duration_ns.max(1) as f64;
                ramp.at(t)
            }
        }
    }

    /// Any stall due now (each fires once).
    fn stall_ns(&mut self) -> u64 {
        let mut extra = 0;
        for (stall, fired) in self.cfg.stalls.iter().zip(&mut self.stalls_fired) {
            if !*fired && self.now_ns >= stall.at_ns {
                *fired = true;
                extra += stall.duration_ns;
            }
        }
        extra
    }
}

impl Wall for Display {
    fn now_ns(&mut self) -> u64 {
        self.now_ns
    }
    fn sleep(&mut self, ns: u64) {
        Display::sleep(self, ns);
    }
}

impl Host for Display {
    fn read_ns(&mut self) -> u64 {
        Display::read_ns(self)
    }
    /// Steps run back to back from the frame's start, the step cost each.
    fn step_time_ns(&mut self, start_ns: u64, index: u64) -> u64 {
        start_ns + index * self.cfg.step_cost_ns
    }
    type Error = Infallible;
    // Inlined into the frame loop, as it was before present feedback: a sweep's frames spend
    // most of their time here and in `present_held`.
    #[inline]
    fn present(
        &mut self,
        frame: &FrameDone,
        lanes: &[Lane],
        ran: &[bool],
    ) -> Result<Option<Shown>, Infallible> {
        let ticks = lanes
            .iter()
            .zip(ran)
            .filter(|(_, ran)| **ran)
            .map(|(lane, _)| lane.last().steps)
            .sum();
        let shown = self.present_held(ticks, frame.present_not_before_ns);
        if self.feedback.is_some() {
            self.feed_back(frame.number, shown.at_ns);
        }
        Ok(Some(shown))
    }
    /// Each frame's scan-out, `feedback_delay` frames after it was presented.
    fn gives_feedback(&self) -> bool {
        self.feedback.is_some()
    }
    fn displayed(&mut self, out: &mut Vec<Displayed>) {
        if let Some(feedback) = self.feedback.as_mut() {
            feedback.due(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frame times and present times of `n` frames that do no work.
    fn frames(cfg: DisplayConfig, n: usize) -> Vec<(u64, u64)> {
        let mut d = Display::new(cfg);
        let mut last = d.start_ns();
        let mut out = Vec::new();
        while !d.finished() && out.len() < n {
            let reading = d.read_ns();
            out.push((reading - last, d.present(0).at_ns));
            last = reading;
        }
        out
    }

    #[test]
    fn vsync_presents_once_per_vblank_at_exact_multiples_of_the_period() {
        let cfg = DisplayConfig {
            display_hz: 59.94,
            duration_ns: 20_000_000_000,
            ..Default::default()
        };
        let f = frames(cfg, 1001);
        // Vblank 1000 of a 59.94 Hz display is at 1000/59.94 s, to the nanosecond.
        assert_eq!(f[999].1, (1000.0f64 * 1e9 / 59.94).round() as u64);
        assert_eq!(f[0].0, 0);
        assert_eq!(f[1].0, f[0].1);
    }

    #[test]
    fn a_render_cost_above_the_period_misses_vblanks() {
        let cfg = DisplayConfig {
            display_hz: 100.0,
            render_cost: RenderCost::Fixed(15_000_000),
            ..Default::default()
        };
        let f = frames(cfg, 3);
        assert_eq!(
            f.iter().map(|x| x.1).collect::<Vec<_>>(),
            [20_000_000, 40_000_000, 60_000_000]
        );
    }

    #[test]
    fn a_stall_lengthens_exactly_one_frame() {
        let stalls = vec![Stall {
            at_ns: 50_000_000,
            duration_ns: 300_000_000,
        }];
        let cfg = DisplayConfig {
            display_hz: 100.0,
            stalls,
            ..Default::default()
        };
        let f = frames(cfg, 12);
        let long: Vec<u64> = f.iter().map(|x| x.0).filter(|&t| t > 10_000_000).collect();
        // Rendering ends at 350 ms, exactly on a vblank: that frame lasted 300 ms.
        assert_eq!(long, [300_000_000]);
    }

    #[test]
    fn without_vsync_frames_last_the_render_cost() {
        let cfg = DisplayConfig {
            vsync: false,
            render_cost: RenderCost::Fixed(3_000_000),
            ..Default::default()
        };
        let f = frames(cfg, 3);
        assert_eq!(
            f.iter().map(|x| x.0).collect::<Vec<_>>(),
            [0, 3_000_000, 3_000_000]
        );
    }

    #[test]
    fn jitter_is_bounded_seeded_and_never_negative() {
        let cfg = DisplayConfig {
            jitter_ns: 2_000_000,
            seed: 7,
            ..Default::default()
        };
        let a = frames(cfg.clone(), 500);
        assert_eq!(a, frames(cfg, 500));
        let period = 16_666_667i64;
        for (f, _) in &a[1..] {
            assert!((*f as i64 - period).abs() <= 4_000_001, "{f}");
        }
        assert!(
            a.iter()
                .any(|(f, _)| *f as i64 != period && *f as i64 != period - 1)
        );
    }

    #[test]
    fn a_phase_starts_the_loop_between_vblanks_and_ticks_cost_time() {
        let cfg = DisplayConfig {
            display_hz: 100.0,
            phase: Phase::At(4_000_000),
            step_cost_ns: 1_000_000,
            ..Default::default()
        };
        let mut d = Display::new(cfg);
        assert_eq!(d.read_ns(), 4_000_000);
        // Starting 4 ms in, 3 ticks of 1 ms: ready at 7 ms, shown at the 10 ms vblank.
        let shown = d.present(3);
        assert_eq!(
            (shown.at_ns, shown.vblank.map(|v| v.index)),
            (10_000_000, Some(1))
        );
        // 12 ticks: 12 ms of work misses the 20 ms vblank.
        assert_eq!(d.present(12).vblank.map(|v| v.index), Some(3));
    }

    #[test]
    fn a_random_render_cost_stays_in_its_range_and_a_ramp_climbs() {
        let cfg = DisplayConfig {
            vsync: false,
            render_cost: RenderCost::Uniform(5_000_000, 25_000_000),
            ..Default::default()
        };
        let f = frames(cfg, 200);
        assert!(
            f[1..]
                .iter()
                .all(|(d, _)| (5_000_000..=25_000_000).contains(d))
        );
        let mut distinct: Vec<u64> = f.iter().map(|x| x.0).collect();
        distinct.dedup();
        assert!(distinct.len() > 100);
        let cfg = DisplayConfig {
            vsync: false,
            render_cost: RenderCost::Ramp(
                super::super::cost::Ramp::new(&[5_000_000, 25_000_000]).unwrap(),
            ),
            duration_ns: 1_000_000_000,
            ..Default::default()
        };
        let f = frames(cfg, 10_000);
        assert!(
            f[2].0 < 6_000_000 && f[f.len() - 1].0 > 24_000_000,
            "{:?}",
            f.last()
        );
    }
}
