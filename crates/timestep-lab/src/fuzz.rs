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

use crate::hosts::replay::{self, CaptureError, ReplayConfig, ReplayError, Rows};
use crate::hosts::simulate::{self, DisplayConfig, RenderCost, SimConfig};
use crate::model::lane::LaneSpec;
use crate::model::rope::RopeParams;
use crate::protocol::machine::{Machine, Sleep};

use std::path::{Path, PathBuf};
use timestep_loop::{ConfigError, Mode, NS_PER_MS, Pacing, TimingConfig};

/// A promise a reader broke on an input, or an input the harness could not run.
#[derive(Debug, thiserror::Error)]
pub enum BrokenPromise {
    /// An error that, said as the program says it, is not one line naming the file `name`.
    #[error("an error that is not one line naming {name}: {said:?}")]
    NotOneLine {
        /// The file name the error should have named.
        name: String,
        /// What the error said.
        said: String,
    },
    /// The default lanes refused a capture that was read and chosen.
    #[error("the lanes refused the capture: {0}")]
    LanesRefused(ConfigError),
    /// A simulation on a machine profile that was read was refused.
    #[error("a simulation on the profile was refused: {0}")]
    SimulationRefused(ConfigError),
    /// The scratch file's path cannot be given as `--machine` takes it.
    #[error("a scratch path that is not UTF-8: {}", .0.display())]
    ScratchPath(PathBuf),
}

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
pub fn one_line(path: &Path, message: &str) -> Result<(), BrokenPromise> {
    let said = crate::util::quote::one_line(message);
    let name = path.display().to_string();
    if said.contains('\n') || !said.contains(&name) {
        return Err(BrokenPromise::NotOneLine { name, said });
    }
    Ok(())
}

/// A capture (any format: it is told from the content), read row by row, then chosen, summed
/// up and replayed by every lane `replay` runs by default, as `timestep-rope replay FILE` does.
pub fn capture(tag: &str, bytes: &[u8]) -> Result<(), BrokenPromise> {
    let file = Scratch::write(tag, "csv", bytes);
    let path = file.path();
    let rows = match read_rows(path) {
        Ok(rows) => rows,
        Err(e) => return one_line(path, &e.to_string()),
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
        Err(ReplayError::Loop(e)) => Err(BrokenPromise::LanesRefused(e)),
    }
}

/// How many rows `Rows` reads from `path`, up to one past [`MAX_ROWS`].
fn read_rows(path: &Path) -> Result<u64, CaptureError> {
    let mut rows = Rows::open(path)?;
    let mut n = 0;
    while n <= MAX_ROWS && rows.next_row()?.is_some() {
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
        feedback_delay: crate::protocol::feedback::FEEDBACK_DELAY,
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
pub fn profile(tag: &str, bytes: &[u8]) -> Result<(), BrokenPromise> {
    let file = Scratch::write(tag, "json", bytes);
    let path = file.path();
    let Some(text) = path.to_str() else {
        return Err(BrokenPromise::ScratchPath(path.to_owned()));
    };
    let machine = match Machine::parse(text) {
        Ok(machine) => machine,
        Err(e) => return one_line(path, &e.to_string()),
    };
    for sleep in [Sleep::Native, Sleep::Spin] {
        simulate::run(&on_machine(machine.clone(), sleep), |_| {})
            .map_err(BrokenPromise::SimulationRefused)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_not_naming_the_file_breaks_the_promise_and_says_what_it_said() {
        let path = Path::new("capture.csv");
        assert!(one_line(path, "capture.csv: line 2: no frames").is_ok());
        // Said as the program says it, a line break is a space.
        assert!(one_line(path, "capture.csv: line 2:\nno frames").is_ok());
        let broken = one_line(path, "no frames");
        assert!(
            matches!(&broken, Err(BrokenPromise::NotOneLine { name, .. }) if name == "capture.csv"),
            "{broken:?}"
        );
        let line = broken.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            line.starts_with("an error that is not one line naming capture.csv: \""),
            "{line}"
        );
    }
}
