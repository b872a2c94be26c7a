//! The `simulate` subcommand: flags in, report out.

use super::SimOutput;
use super::progress::Progress;
use super::{Controls, FrameRecord, Report, SimConfig, run_with, write_dump, write_table};
use crate::interrupt::{self, EXIT_INTERRUPTED};
use crate::messages::Failure;
use crate::plot::{self, FramePlot, FramePoint};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use timestep_loop::seconds;
use timestep_loop::{millis, millis_signed};

/// Creates the file a flag names, if it names one; an error names the flag.
fn open(flag: &str, path: Option<&Path>) -> Result<Option<BufWriter<File>>, String> {
    path.map(|p| {
        File::create(p)
            .map(BufWriter::new)
            .map_err(|e| format!("cannot write {flag} '{}': {e}", p.display()))
    })
    .transpose()
}

/// `--trace`: one CSV row per presented frame. Keeps the first write error and stops
/// writing; [`Trace::finish`] reports it.
struct Trace {
    out: BufWriter<File>,
    lanes: Vec<String>,
    result: io::Result<()>,
}

impl Trace {
    fn new(mut out: BufWriter<File>, cfg: &SimConfig) -> Trace {
        let result = writeln!(
            out,
            "lane,frame,present_s,frame_ms,steps,alpha,shown_s,start_s,step_starts_s"
        );
        let lanes = cfg.lanes.iter().map(ToString::to_string).collect();
        Trace { out, lanes, result }
    }

    fn row(&mut self, f: &FrameRecord) {
        if self.result.is_ok() {
            let starts: Vec<String> = f
                .step_starts_ns
                .iter()
                .map(|&ns| format!("{:.9}", seconds(ns)))
                .collect();
            self.result = writeln!(
                self.out,
                "{},{},{:.9},{:.6},{},{:.6},{:.9},{:.9},{}",
                self.lanes[f.lane],
                f.frame,
                seconds(f.present_ns),
                millis(f.frame_ns),
                f.steps,
                f.alpha,
                seconds(f.shown_ns),
                seconds(f.start_ns),
                starts.join(" ")
            );
        }
    }

    fn finish(mut self) -> io::Result<()> {
        self.result.and_then(|()| self.out.flush())
    }
}

/// `--plot`: each lane's frames from its second on (the first has no frame time), for as long
/// as `--plot-seconds` asks.
struct Plotting {
    plot: FramePlot,
    /// Each lane's first counted frame: (present, shown), ns.
    origin: Vec<Option<(u64, u64)>>,
    limit_ns: u64,
}

impl Plotting {
    fn new(cfg: &SimConfig, limit_ns: Option<u64>) -> Plotting {
        let lanes = cfg
            .lanes
            .iter()
            .map(|l| (l.to_string(), Vec::new()))
            .collect();
        Plotting {
            plot: FramePlot { lanes },
            origin: vec![None; cfg.lanes.len()],
            limit_ns: limit_ns.unwrap_or(u64::MAX),
        }
    }

    fn frame(&mut self, f: &FrameRecord) {
        if f.frame == 0 {
            return;
        }
        let (p0, s0) = *self.origin[f.lane].get_or_insert((f.present_ns, f.shown_ns));
        let t_ns = f.present_ns - p0;
        if t_ns > self.limit_ns {
            return;
        }
        let error_ns = (f.shown_ns as i128 - s0 as i128) - i128::from(t_ns);
        self.plot.lanes[f.lane].1.push(FramePoint {
            t_s: seconds(t_ns),
            error_ms: millis_signed(error_ns),
            ticks: f.steps,
            frame_ms: millis(f.frame_ns),
        });
    }
}

/// Runs `simulate`. Files named by flags are opened before anything runs, so a bad path
/// fails at once with status 2.
pub fn main(cfg: &SimConfig, args: &SimOutput) -> Result<ExitCode, Failure> {
    // Opened before anything runs, in order; the first bad path stops everything.
    let mut trace = match open("--trace", args.trace.as_deref()) {
        Ok(t) => t.map(|out| Trace::new(out, cfg)),
        Err(e) => return Err(Failure::usage(e)),
    };
    let mut dump = match open("--dump-state", args.dump_state.as_deref()) {
        Ok(d) => d,
        Err(e) => return Err(Failure::usage(e)),
    };

    if let Some(p) = &args.plot
        && let Err(e) = plot::check_path(p)
    {
        return Err(Failure::usage(format!("--plot: {e}")));
    }
    let mut plotting = args.plot.as_ref().map(|_| Plotting::new(cfg, args.plot_ns));

    interrupt::install();
    let mut progress = Progress::start(cfg, args.progress);
    let controls = Controls {
        keep_positions: dump.is_some(),
        stop: Some(interrupt::flag()),
        step_starts: trace.is_some(),
    };
    let outcome = run_with(cfg, controls, |f: &FrameRecord| {
        if let Some(t) = trace.as_mut() {
            t.row(f);
        }
        if let Some(p) = plotting.as_mut() {
            p.frame(f);
        }
        progress.frame(f);
    });
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => return Err(Failure::usage(format!("--lanes: {e}"))),
    };
    progress.finish();
    if let (Some(path), Some(p)) = (&args.plot, &plotting) {
        let title = format!(
            "{} Hz display, jitter ±{}, frame by frame",
            cfg.display.display_hz,
            timestep_loop::format_duration(cfg.display.jitter_ns)
        );
        if let Err(e) = plot::plot_frames(path, &title, &p.plot) {
            return Err(Failure::machine(format!(
                "writing --plot '{}' failed: {e}",
                path.display()
            )));
        }
    }
    if let Some(Err(e)) = trace.map(Trace::finish) {
        return Err(Failure::machine(format!("writing --trace failed: {e}")));
    }
    if let Some(d) = dump.as_mut()
        && let Err(e) = write_dump(d, &outcome.lanes).and_then(|_| d.flush())
    {
        return Err(Failure::machine(format!(
            "writing --dump-state failed: {e}"
        )));
    }

    let ran = outcome.lanes.len();
    let reports = outcome.lanes.into_iter().map(|l| l.report).collect();
    let mut report = Report::new(cfg, reports, progress.reached_ns(ran));
    if outcome.interrupted {
        report = report.interrupted(outcome.not_run.iter().map(ToString::to_string).collect());
    }
    let status = if outcome.interrupted {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        writeln!(out, "{}", report.to_json())
    } else {
        write_table(&mut out, &report, cfg)
    };
    match written.and_then(|_| out.flush()) {
        Ok(()) => Ok(status),
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(status),
        Err(e) => Err(Failure::machine(format!("writing the report failed: {e}"))),
    }
}
