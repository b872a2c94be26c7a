//! What every fuzz input goes through: a reader of user files run on arbitrary bytes, as the
//! program runs it, with its promise checked (no panic; `Ok`, or one line naming the file).
//!
//! The fuzz targets (`fuzz/fuzz_targets/`, built by cargo-fuzz) call these under libFuzzer;
//! the stable test `tests/headless/fuzz.rs` calls them on mutated copies of the bundled
//! captures. A reader takes a path, so the bytes are written to a file of
//! this process's own first ([`Scratch`]).
//!
//! A hang is not caught here: libFuzzer's `-timeout` catches it in a fuzz run, and the stable
//! test keeps its inputs small. What each call does is bounded by its input's size: at most
//! [`MAX_ROWS`] rows are pulled, and the lanes run only on a capture of at most [`MAX_ROWS`]
//! frames, however long its gaps (every lane's work per frame is bounded).

use crate::RopeParams;
use crate::lane::LaneSpec;
use crate::machine::{Machine, Sleep};
use crate::messages;
use crate::replay::{self, ReplayConfig, ReplayError, Rows};
use crate::simulate::{self, DisplayConfig, RenderCost, SimConfig};
use std::path::{Path, PathBuf};
use timestep_loop::{Mode, NS_PER_MS, Pacing, TimingConfig};

/// The most rows read from one input, and the most frames replayed.
pub const MAX_ROWS: u64 = 4_096;

/// A file of this process's own, in /dev/shm where there is one, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// `bytes` written to `timestep-rope-fuzz-PID-TAG.EXT` (`tag` tells apart the threads of
    /// one process).
    pub fn write(tag: &str, ext: &str, bytes: &[u8]) -> Scratch {
        let shm = Path::new("/dev/shm");
        let dir = if shm.is_dir() {
            shm.to_owned()
        } else {
            std::env::temp_dir()
        };
        let name = format!("timestep-rope-fuzz-{}-{tag}.{ext}", std::process::id());
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, bytes) {
            panic!("the fuzz harness cannot write {}: {e}", path.display());
        }
        Scratch(path)
    }

    /// Where the bytes are.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `Ok` if `message`, said as the program says an error, is one line naming `path`; else what
/// is wrong with it. (The program turns a message's line breaks into spaces as it says it, so
/// a cell with a line break quoted in a reader's error still makes one line.)
pub fn one_line(path: &Path, message: &str) -> Result<(), String> {
    let said = messages::error_text(message);
    let name = path.display().to_string();
    if said.contains('\n') || !said.contains(&name) {
        return Err(format!(
            "an error that is not one line naming {name}: {said:?}"
        ));
    }
    Ok(())
}

/// A capture (any format: it is told from the content), read row by row, then chosen, summed
/// up and replayed by every lane `replay` runs by default, as `timestep-rope replay FILE` does.
pub fn capture(tag: &str, bytes: &[u8]) -> Result<(), String> {
    let file = Scratch::write(tag, "csv", bytes);
    let path = file.path();
    let rows = match read_rows(path) {
        Ok(rows) => rows,
        Err(e) => return one_line(path, &e),
    };
    if rows > MAX_ROWS {
        return Ok(());
    }
    let (selection, summary) = match replay::open(path, None, None) {
        Ok(opened) => opened,
        Err(e) => return one_line(path, &e.to_string()),
    };
    match replay::run(&replay_config(path), &selection, &summary) {
        Ok(_) => Ok(()),
        Err(ReplayError::Capture(e)) => one_line(path, &e.to_string()),
        Err(ReplayError::Loop(e)) => Err(format!("the lanes refused the capture: {e}")),
    }
}

/// How many rows `Rows` reads from `path`, up to one past [`MAX_ROWS`].
fn read_rows(path: &Path) -> Result<u64, String> {
    let mut rows = Rows::open(path).map_err(|e| e.to_string())?;
    let mut n = 0;
    while n <= MAX_ROWS && rows.next_row().map_err(|e| e.to_string())?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// `replay`'s defaults: every mode and every preset, the textbook timing, the default rope.
fn replay_config(path: &Path) -> ReplayConfig {
    ReplayConfig {
        capture: path.to_owned(),
        app: None,
        swapchain: None,
        timing: default_timing(),
        rope: RopeParams::default(),
        lanes: [LaneSpec::every_mode(), LaneSpec::every_preset()].concat(),
        max_substep: Default::default(),
    }
}

/// The textbook timing: a 1 ms tick, a 250 ms clamp (`--dt 1ms --clamp 250ms`).
fn default_timing() -> TimingConfig {
    match TimingConfig::textbook(NS_PER_MS, 250 * NS_PER_MS, None) {
        Ok(timing) => timing,
        Err(e) => panic!("the default timing is refused: {e}"),
    }
}

/// A machine profile as `--machine FILE.json` reads it, then 0.2 s simulated on it (a 100 fps
/// cap, so every frame waits) with each `--sleep`.
pub fn profile(tag: &str, bytes: &[u8]) -> Result<(), String> {
    let file = Scratch::write(tag, "json", bytes);
    let path = file.path();
    let Some(text) = path.to_str() else {
        return Err(format!(
            "a scratch path that is not UTF-8: {}",
            path.display()
        ));
    };
    let machine = match Machine::parse(text) {
        Ok(machine) => machine,
        Err(e) => return one_line(path, &e.to_string()),
    };
    for sleep in [Sleep::Native, Sleep::Spin] {
        simulate::run(&on_machine(machine.clone(), sleep), |_| {})
            .map_err(|e| format!("a simulation on the profile was refused: {e}"))?;
    }
    Ok(())
}

/// A short run of one lane without a rope on `machine`, waiting the `sleep` way.
fn on_machine(machine: Machine, sleep: Sleep) -> SimConfig {
    SimConfig {
        timing: default_timing(),
        rope: RopeParams::default(),
        display: DisplayConfig {
            vsync: false,
            render_cost: RenderCost::Fixed(2 * NS_PER_MS),
            pacing: Pacing::Cap(100.0),
            machine,
            sleep,
            jitter_ns: 300_000,
            duration_ns: 200 * NS_PER_MS,
            ..Default::default()
        },
        lanes: vec![LaneSpec::mode(Mode::Fixed)],
        max_substep: Default::default(),
        draw: None,
        physics: false,
    }
}
