//! The `simulate` subcommand: flags in, report out.

use super::{DisplayConfig, FrameRecord, Report, SimConfig, run, write_dump, write_table};
use crate::cli::{CommonArgs, OnOff, SimulateArgs};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

/// Builds the run's configuration from already-validated flags.
pub fn config(common: &CommonArgs, args: &SimulateArgs) -> Result<SimConfig, String> {
    Ok(SimConfig {
        timing: common.timing()?,
        rope: common.rope()?,
        display: DisplayConfig {
            display_hz: args.display_hz,
            vsync: args.vsync == OnOff::On,
            jitter_ns: args.jitter,
            render_cost_ns: args.render_cost,
            stalls: args.stall.clone(),
            duration_ns: (args.seconds * 1e9).round() as u64,
            seed: args.seed,
        },
        modes: args.mode.modes(),
        draw: args.draw,
    })
}

fn create(flag: &str, path: &Path) -> Result<BufWriter<File>, String> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| format!("cannot write {flag} '{}': {e}", path.display()))
}

/// Runs `simulate`. Files named by flags are opened before anything runs, so a bad path
/// fails at once with status 2.
pub fn main(common: &CommonArgs, args: &SimulateArgs) -> ExitCode {
    let fail = |msg: String, code: u8| {
        eprintln!("timestep-rope: error: {msg}");
        ExitCode::from(code)
    };
    let cfg = match config(common, args) {
        Ok(c) => c,
        Err(e) => return fail(e, 2),
    };
    let mut trace = match args
        .trace
        .as_deref()
        .map(|p| create("--trace", p))
        .transpose()
    {
        Ok(t) => t,
        Err(e) => return fail(e, 2),
    };
    let mut dump = match args
        .dump_state
        .as_deref()
        .map(|p| create("--dump-state", p))
        .transpose()
    {
        Ok(d) => d,
        Err(e) => return fail(e, 2),
    };

    let mut trace_err: Option<io::Error> = None;
    if let Some(t) = trace.as_mut()
        && let Err(e) = writeln!(t, "mode,frame,present_s,frame_ms,steps,alpha,shown_s")
    {
        trace_err = Some(e);
    }
    let runs = run(&cfg, |f: &FrameRecord| {
        if let (Some(t), None) = (trace.as_mut(), trace_err.as_ref())
            && let Err(e) = writeln!(
                t,
                "{},{},{:.9},{:.6},{},{:.6},{:.9}",
                f.mode,
                f.frame,
                f.present_ns as f64 * 1e-9,
                f.frame_ns as f64 * 1e-6,
                f.steps,
                f.alpha,
                f.shown_ns as f64 * 1e-9
            )
        {
            trace_err = Some(e);
        }
    });
    if let Some(t) = trace.as_mut()
        && trace_err.is_none()
        && let Err(e) = t.flush()
    {
        trace_err = Some(e);
    }
    if let Some(e) = trace_err {
        return fail(format!("writing --trace failed: {e}"), 1);
    }
    if let Some(d) = dump.as_mut()
        && let Err(e) = write_dump(d, &runs).and_then(|_| d.flush())
    {
        return fail(format!("writing --dump-state failed: {e}"), 1);
    }

    let report = Report::new(&cfg, runs.into_iter().map(|(r, _)| r).collect());
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        writeln!(out, "{}", report.to_json())
    } else {
        write_table(&mut out, &report, &cfg)
    };
    match written.and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(format!("writing the report failed: {e}"), 1),
    }
}
