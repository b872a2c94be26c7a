//! The simulated display and timer.

/// One long frame injected into the simulated display (`--stall AT:DURATION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stall {
    pub at_ns: u64,
    pub duration_ns: u64,
}

/// How the simulated machine behaves.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayConfig {
    pub display_hz: f64,
    pub vsync: bool,
    /// Each timer reading is off by a uniform amount in ±jitter.
    pub jitter_ns: u64,
    /// Time spent rendering each frame, before presenting.
    pub render_cost_ns: u64,
    /// One long frame each: the first frame that starts at or after `at_ns` renders
    /// `duration_ns` longer.
    pub stalls: Vec<Stall>,
    /// Simulated wall time to run for.
    pub duration_ns: u64,
    pub seed: u64,
}

impl Default for DisplayConfig {
    fn default() -> Self {
        DisplayConfig {
            display_hz: 60.0,
            vsync: true,
            jitter_ns: 0,
            render_cost_ns: 0,
            stalls: Vec::new(),
            duration_ns: 10_000_000_000,
            seed: 1,
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
    /// The last vblank a frame was presented at (index); at most one present per vblank.
    last_vblank: u64,
    /// The previous timer reading (monotonic, noisy).
    last_read_ns: u64,
    stalls_fired: Vec<bool>,
    rng: fastrand::Rng,
}

impl Display {
    pub fn new(cfg: DisplayConfig) -> Self {
        let period_ns = 1e9 / cfg.display_hz;
        let rng = fastrand::Rng::with_seed(cfg.seed);
        let stalls_fired = vec![false; cfg.stalls.len()];
        Display {
            cfg,
            period_ns,
            now_ns: 0,
            last_vblank: 0,
            last_read_ns: 0,
            stalls_fired,
            rng,
        }
    }

    /// True simulated wall time, ns.
    pub fn now_ns(&self) -> u64 {
        self.now_ns
    }

    /// The time of vblank `k`, computed from `k` each time so fractional rates never drift.
    fn vblank_ns(&self, k: u64) -> u64 {
        (k as f64 * self.period_ns).round() as u64
    }

    /// Starts a frame: reads the timer and returns the measured frame time, or `None` once the
    /// configured duration has passed.
    pub fn begin_frame(&mut self) -> Option<u64> {
        if self.now_ns >= self.cfg.duration_ns {
            return None;
        }
        let j = self.cfg.jitter_ns as i64;
        let noise = if j == 0 { 0 } else { self.rng.i64(-j..=j) };
        let reading = self
            .now_ns
            .saturating_add_signed(noise)
            .max(self.last_read_ns);
        let frame = reading - self.last_read_ns;
        self.last_read_ns = reading;
        Some(frame)
    }

    /// Renders (render cost plus any stall due) and presents; returns when the frame becomes
    /// visible. With vsync that is the first vblank after rendering finishes that has not
    /// already shown a frame; without, it is the moment rendering finishes.
    pub fn present(&mut self) -> u64 {
        let mut busy = self.cfg.render_cost_ns;
        for (stall, fired) in self.cfg.stalls.iter().zip(&mut self.stalls_fired) {
            if !*fired && self.now_ns >= stall.at_ns {
                *fired = true;
                busy += stall.duration_ns;
            }
        }
        let ready = self.now_ns + busy;
        if self.cfg.vsync {
            let mut k = (ready as f64 / self.period_ns).ceil() as u64;
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
        } else {
            self.now_ns = ready.max(self.now_ns + 1);
        }
        self.now_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(cfg: DisplayConfig, n: usize) -> Vec<(u64, u64)> {
        let mut d = Display::new(cfg);
        let mut out = Vec::new();
        while let Some(f) = d.begin_frame() {
            out.push((f, d.present()));
            if out.len() == n {
                break;
            }
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
            render_cost_ns: 15_000_000,
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
            render_cost_ns: 3_000_000,
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
}
