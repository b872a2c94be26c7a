//! A long `simulate` run, seen from stderr: the estimate line before it starts, the progress
//! bar while it runs (see `crate::progress` for where they show), and how far each lane got.

use crate::progress;
use indicatif::ProgressBar;
use timestep_lab::messages;
use timestep_lab::simulate::{FrameRecord, SimConfig, Work};
use timestep_loop::format_duration;

/// Runs shorter than this (estimated) say nothing and show no bar.
const LONG_RUN_S: f64 = 1.0;

/// Runs of fewer particle-steps than this take well under a second (here a particle-step costs
/// 1–3 ns: at most 30 ms), so the step cost is not measured for them and a short run on a
/// terminal starts at once instead of after the 20 ms measurement.
const SURELY_SHORT: f64 = 1e7;

/// The bar's resolution: it moves by thousandths of the run.
const STEPS: u64 = 1_000;

pub struct Progress {
    bar: Option<ProgressBar>,
    /// Each lane's last present, ns of simulated wall time.
    reached_ns: Vec<u64>,
    done_ns: u64,
    next_ns: u64,
    every_ns: u64,
}

impl Progress {
    /// Says how long `cfg` should take and starts the bar, when progress shows (a terminal, or
    /// `force`) and the run is long.
    pub fn start(cfg: &SimConfig, force: bool) -> Progress {
        let lanes = cfg.lanes.len() as u64;
        let total_ns = cfg.display.duration_ns.saturating_mul(lanes);
        let mut p = Progress {
            bar: None,
            reached_ns: vec![0; cfg.lanes.len()],
            done_ns: 0,
            next_ns: 0,
            every_ns: (total_ns / STEPS).max(1),
        };
        if !progress::shows(force) {
            return p;
        }
        let work = Work::of(cfg);
        if work.particle_steps() < SURELY_SHORT {
            return p;
        }
        let seconds = work.seconds_here(&cfg.rope);
        if seconds < LONG_RUN_S {
            return p;
        }
        messages::note(&work.line(seconds));
        let template = "{elapsed_precise} [{bar:24}] {percent:>3}% of {msg} simulated, ETA {eta}";
        let bar = progress::bar(STEPS, template, force);
        let run = format_duration(cfg.display.duration_ns);
        bar.set_message(if lanes == 1 {
            run
        } else {
            format!("{lanes} lanes x {run}")
        });
        p.bar = Some(bar);
        p
    }

    /// Notes a presented frame; moves the bar when the run has gone a step further.
    pub fn frame(&mut self, f: &FrameRecord) {
        let last = &mut self.reached_ns[f.lane];
        self.done_ns += f.present_or_start_ns().saturating_sub(*last);
        *last = f.present_or_start_ns();
        if self.done_ns >= self.next_ns {
            self.next_ns = self.done_ns + self.every_ns;
            if let Some(bar) = &self.bar {
                bar.set_position(self.done_ns / self.every_ns);
            }
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// How far the first `lanes` lanes all got, ns: the least of their last presents.
    pub fn reached_ns(&self, lanes: usize) -> u64 {
        self.reached_ns[..lanes].iter().copied().min().unwrap_or(0)
    }
}
