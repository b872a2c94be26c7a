//! A long `simulate` (or `advise`) run, seen from stderr: the estimate line before it starts (and, where its
//! frames make it longer than the rope's work alone, a measured one once its first half second
//! has run), the progress bar while it runs (see `crate::progress` for where they show), and
//! how far each lane got.

use crate::messages;
use crate::progress;
use indicatif::ProgressBar;
use std::time::{Duration, Instant};
use timestep_lab::hosts::simulate::{FrameBound, FrameRecord, SimConfig, Work, projected_s};
use timestep_loop::{format_duration, seconds};

/// Runs shorter than this (estimated) say nothing and show no bar.
const LONG_RUN_S: f64 = 1.0;

/// Runs of fewer particle-steps than this take well under a second (here a particle-step costs
/// 1–3 ns: at most 30 ms), so the step cost is not measured for them and a short run on a
/// terminal starts at once instead of after the 20 ms measurement.
const SURELY_SHORT: f64 = 1e7;

/// The bar's resolution: it moves by thousandths of the run.
const STEPS: u64 = 1_000;

/// How much of a run is timed before its length is projected: a frame's own work is not in
/// [`Work`]'s estimate, and with nothing pacing the frames (`--vsync off --render-cost 1ns`)
/// it is most of the run.
const MEASURED_START: Duration = Duration::from_millis(500);

/// An estimate said before the run is said again, measured, when the run projects to more
/// than this many times it (each frame's own work is not in [`Work`]'s).
const UNDER_ESTIMATE: f64 = 2.0;

/// The clock is read once in this many frames while the start is measured.
const READ_EVERY: u32 = 4_096;

/// A run's start being timed: when it began, frames since the clock was read, what was said
/// before it (its estimate, s), and what the line says.
struct Watch {
    started: Instant,
    said: Said,
    estimated_s: Option<f64>,
    frames: u32,
    bound: FrameBound,
    lanes: usize,
    run_ns: u64,
    force: bool,
}

pub struct Progress {
    bar: Option<ProgressBar>,
    /// The bar's words: how much is simulated.
    message: String,
    /// Until the start is measured (where progress shows).
    watch: Option<Watch>,
    total_ns: u64,
    /// Each lane's last present, ns of simulated wall time.
    reached_ns: Vec<u64>,
    done_ns: u64,
    next_ns: u64,
    every_ns: u64,
}

/// What a command's estimate lines say of it: what Ctrl-C does to its run, and the shortest
/// `--seconds` it takes (the shortest a line may suggest).
#[derive(Clone, Copy, Debug)]
pub struct Said {
    pub ctrl_c: &'static str,
    pub shortest_s: f64,
}

/// What `simulate`'s estimate lines say of it.
pub const SIMULATE: Said = Said {
    ctrl_c: "Ctrl-C stops it and reports what ran",
    shortest_s: 1e-9,
};

impl Progress {
    /// Says how long `cfg` should take and starts the bar, when progress shows (a terminal, or
    /// `force`) and the run is long; the estimate lines say what `said` says of the command.
    pub fn start(cfg: &SimConfig, force: bool, said: Said) -> Progress {
        let lanes = cfg.lanes.len() as u64;
        let total_ns = cfg.display.duration_ns.saturating_mul(lanes);
        let run = format_duration(cfg.display.duration_ns);
        let mut p = Progress {
            bar: None,
            message: if lanes == 1 {
                run
            } else {
                format!("{lanes} lanes x {run}")
            },
            watch: None,
            total_ns,
            reached_ns: vec![0; cfg.lanes.len()],
            done_ns: 0,
            next_ns: 0,
            every_ns: (total_ns / STEPS).max(1),
        };
        if !progress::shows(force) {
            return p;
        }
        let work = Work::of(cfg);
        let estimate = (work.particle_steps() >= SURELY_SHORT)
            .then(|| work.seconds_here(&cfg.rope))
            .filter(|&s| s >= LONG_RUN_S);
        if let Some(s) = estimate {
            let line = work.line(s, seconds(cfg.display.duration_ns), said.shortest_s);
            messages::note(&format!("{line}; {}", said.ctrl_c));
            p.start_bar(force);
        }
        p.watch = Some(Watch {
            started: Instant::now(),
            said,
            estimated_s: estimate,
            frames: 0,
            bound: FrameBound::of(&cfg.display),
            lanes: cfg.lanes.len(),
            run_ns: cfg.display.duration_ns,
            force,
        });
        p
    }

    /// Shows the bar.
    fn start_bar(&mut self, force: bool) {
        let template = "{elapsed_precise} [{bar:24}] {percent:>3}% of {msg} simulated, ETA {eta}";
        let bar = progress::bar(STEPS, template, force);
        bar.set_message(self.message.clone());
        self.bar = Some(bar);
    }

    /// While the start is timed: once [`MEASURED_START`] has passed, a run projected to be
    /// long at that pace says so and shows the bar, unless the estimate said before it was
    /// within [`UNDER_ESTIMATE`] of it.
    fn measure(&mut self) {
        let Some(watch) = &mut self.watch else {
            return;
        };
        watch.frames += 1;
        if watch.frames < READ_EVERY {
            return;
        }
        watch.frames = 0;
        let elapsed = watch.started.elapsed();
        if elapsed < MEASURED_START {
            return;
        }
        let measured_s = elapsed.as_secs_f64();
        let projected = projected_s(measured_s, self.done_ns, self.total_ns);
        let said = watch.estimated_s;
        let unsaid = |s: f64| said.is_none_or(|said| s > UNDER_ESTIMATE * said);
        if let Some(projected) = projected.filter(|&s| s >= LONG_RUN_S && unsaid(s)) {
            let bound = &watch.bound;
            let run = (watch.run_ns, watch.said.shortest_s);
            let line = bound.line(watch.lanes, run, measured_s, projected);
            messages::note(&format!("{line}; {}", watch.said.ctrl_c));
            if self.bar.is_none() {
                let force = watch.force;
                self.start_bar(force);
            }
        }
        self.watch = None;
    }

    /// Notes a presented frame; moves the bar when the run has gone a step further.
    pub fn frame(&mut self, f: &FrameRecord) {
        self.frame_as(f.lane, f);
    }

    /// Notes a presented frame as lane `lane`'s (a run made of several, each of its own lanes:
    /// `advise`'s pacings).
    pub fn frame_as(&mut self, lane: usize, f: &FrameRecord) {
        let Some(last) = self.reached_ns.get_mut(lane) else {
            return;
        };
        self.done_ns += f.present_or_start_ns().saturating_sub(*last);
        *last = f.present_or_start_ns();
        self.measure();
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
