//! The files a command reads and the files it writes: no output may be an input (writing it
//! would destroy what is being read), and no two outputs may be one file (one would overwrite
//! the other). Checked once the flags are parsed, before anything is created or run.
//!
//! Two paths are one file when they name the same (device, inode) on Unix, whatever the
//! spelling (`./run.csv`, `run.csv`, an absolute path), a symlink or a hard link; elsewhere when
//! their canonical paths are equal. A path not there yet is its directory's canonical path and
//! its name. Devices and pipes (`/dev/null`, `/dev/stdout`) are never compared: writing one
//! cannot destroy a file. Nor are two outputs given as the program's descriptors
//! (`--trace /dev/stdout --dump-state /dev/stderr > log 2>&1`): both are written in place,
//! in turn, as the program prints; such a one is still compared with the inputs.

use super::Run;
use std::fs;
use std::path::{Path, PathBuf};
use timestep_lab::protocol::machine::Machine;

/// A path given on the command line, and what gave it: a flag, or a description
/// (`the capture`).
type Named<'a> = (&'static str, &'a Path);

/// What identifies a file.
#[derive(Debug, PartialEq, Eq)]
enum FileId {
    /// (device, inode).
    Inode(u64, u64),
    /// Its canonical path (a file not there yet: its directory's, then its name).
    Path(PathBuf),
}

/// Two flags that name one file; each is said as `FLAG 'PATH'`.
#[derive(Debug, thiserror::Error)]
pub enum SameFile {
    /// An output (first) that is an input (second).
    #[error("{0} is the same file as {1}: an output may not overwrite an input")]
    OverwritesInput(String, String),
    #[error("{0} and {1} are the same file: give each output its own")]
    TwoOutputs(String, String),
}

/// A flag and its path as an error names them: `--trace 'out.csv'`.
fn said((flag, path): Named<'_>) -> String {
    format!("{flag} '{}'", path.display())
}

/// One line naming both paths if an output of `run` is one of its inputs or another output.
pub fn check(run: &Run) -> Result<(), SameFile> {
    let (inputs, outputs) = files(run);
    let ids = |list: &[Named<'_>]| -> Vec<Option<FileId>> {
        list.iter().map(|(_, p)| file_id(p)).collect()
    };
    let (input_ids, output_ids) = (ids(&inputs), ids(&outputs));
    for (i, (out, out_id)) in outputs.iter().zip(&output_ids).enumerate() {
        let Some(out_id) = out_id else { continue };
        if let Some(input) = same(&inputs, &input_ids, out_id) {
            return Err(SameFile::OverwritesInput(said(*out), said(input)));
        }
        let streams = |named: Named<'_>| crate::pending::is_descriptor(named.1);
        if let Some(first) = same(&outputs[..i], &output_ids[..i], out_id)
            && !streams(first)
            && !streams(*out)
        {
            return Err(SameFile::TwoOutputs(said(first), said(*out)));
        }
    }
    Ok(())
}

/// The first path of `list` (whose ids are `ids`) that is the file `id`.
fn same<'a>(list: &[Named<'a>], ids: &[Option<FileId>], id: &FileId) -> Option<Named<'a>> {
    list.iter()
        .zip(ids)
        .find(|(_, other)| other.as_ref() == Some(id))
        .map(|(named, _)| *named)
}

/// The files `run` reads and the files it writes, each with what named it.
fn files(run: &Run) -> (Vec<Named<'_>>, Vec<Named<'_>>) {
    match run {
        Run::Window(cfg) => (
            given([("--replay", cfg.replay.as_ref().map(|c| &c.path))]),
            given([
                ("--screenshot", cfg.screenshot.as_ref()),
                ("--frame-log", cfg.frame_log.as_ref()),
                ("--report", cfg.report.as_ref()),
            ]),
        ),
        Run::Simulate(cfg, out) => (
            given([("--machine", profile(&cfg.display.machine))]),
            given([
                ("--trace", out.trace.as_ref()),
                ("--dump-state", out.dump_state.as_ref()),
                ("--plot", out.plot.as_ref()),
            ]),
        ),
        Run::Sweep(cfg, out) => (
            given([("--machine", profile(&cfg.base.display.machine))]),
            given([("--csv", out.csv.as_ref()), ("--plot", out.plot.as_ref())]),
        ),
        Run::Replay(cfg, out) => (
            given([("the capture", Some(&cfg.capture))]),
            given([
                ("--trace", out.trace.as_ref()),
                ("--plot", out.plot.as_ref()),
            ]),
        ),
        Run::Probe(cfg) => (Vec::new(), given([("--out", cfg.out.as_ref())])),
        _ => (Vec::new(), Vec::new()),
    }
}

/// The paths given, of those that could be.
fn given<'a, const N: usize>(list: [(&'static str, Option<&'a PathBuf>); N]) -> Vec<Named<'a>> {
    list.into_iter()
        .filter_map(|(name, p)| p.map(|p| (name, p.as_path())))
        .collect()
}

/// The profile `--machine` read, if it read one.
fn profile(m: &Machine) -> Option<&PathBuf> {
    m.profile_path()
}

/// What identifies the file `path` names; None for a device, a pipe or a directory.
fn file_id(path: &Path) -> Option<FileId> {
    match fs::metadata(path) {
        Ok(m) if m.is_file() => Some(existing_id(path, &m)),
        Ok(_) => None,
        Err(_) => Some(FileId::Path(new_file_path(path))),
    }
}

#[cfg(unix)]
fn existing_id(_path: &Path, m: &fs::Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt;
    FileId::Inode(m.dev(), m.ino())
}

#[cfg(not(unix))]
fn existing_id(path: &Path, _m: &fs::Metadata) -> FileId {
    FileId::Path(fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()))
}

/// Where a file not there yet would be made: through a (dangling) symlink, in its directory's
/// canonical path.
fn new_file_path(path: &Path) -> PathBuf {
    let path = match fs::read_link(path) {
        Ok(dest) => path.parent().map_or(dest.clone(), |dir| dir.join(dest)),
        Err(_) => path.to_owned(),
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    match path.file_name() {
        Some(name) => dir.join(name),
        None => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("paths-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn spellings_links_and_new_files_are_one_file_and_others_are_not() {
        let dir = dir("ids");
        let file = dir.join("run.csv");
        fs::write(&file, "x").unwrap();
        let id = file_id(&file);
        assert!(id.is_some());
        assert_eq!(file_id(&dir.join(".").join("run.csv")), id);
        assert_ne!(file_id(&dir.join("sub/../run.csv")), id, "sub is not there");
        fs::create_dir(dir.join("sub")).unwrap();
        assert_eq!(file_id(&dir.join("sub/../run.csv")), id);
        fs::hard_link(&file, dir.join("hard.csv")).unwrap();
        assert_eq!(file_id(&dir.join("hard.csv")), id);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("run.csv", dir.join("soft.csv")).unwrap();
            assert_eq!(file_id(&dir.join("soft.csv")), id);
            std::os::unix::fs::symlink("new.csv", dir.join("dangling.csv")).unwrap();
            assert_eq!(
                file_id(&dir.join("dangling.csv")),
                file_id(&dir.join("sub/../new.csv"))
            );
            assert_eq!(file_id(Path::new("/dev/null")), None);
        }
        assert_ne!(file_id(&dir.join("new.csv")), id);
        assert_eq!(file_id(&dir), None, "a directory");
        let _ = fs::remove_dir_all(&dir);
    }
}
