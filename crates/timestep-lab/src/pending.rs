//! An output file written beside its target and renamed over it at the end: the one way every
//! command writes a file (`--trace`, `--dump-state`, `--plot`, `--csv`, `--out`, the window's
//! `--frame-log`, `--screenshot` and `--report`).
//!
//! [`PendingFile::create`] makes a temporary file in the target's directory before the run
//! starts, so a path that cannot be written fails before anything runs; the run writes into it
//! as it goes (a streamed output such as `--trace` grows there, and can be followed there);
//! [`PendingFile::commit`] renames it over the target, which on one file system replaces the
//! target whole, never in part (POSIX `rename(2)`: "If the link named by the new argument
//! exists, it shall be removed and old renamed to new ... there shall be no point at which new
//! does not refer to either the file named by old or the file named by new"). Dropped without a
//! commit (a failed run), the temporary file is removed and the target is exactly as it was.
//! A second Ctrl-C, which ends the process at once, removes them too ([`remove_unfinished`]).
//!
//! The temporary file is `.NAME.tmp-PID` beside `NAME` (`.NAME.tmp-PID-N` if that is taken),
//! created only if it does not exist. A new target gets the permissions `File::create` gives;
//! a target already there keeps its own. A symlink is written through (its destination is
//! replaced, not the link); a device or a pipe (`/dev/null`, `/dev/stdout`) is written
//! directly, as there is nothing to rename over.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file being written for `path`, which it replaces at [`PendingFile::commit`].
#[derive(Debug)]
pub struct PendingFile {
    /// Declared before `temp`, so it is closed before the temporary file is removed.
    file: File,
    /// None: the target is a device or a pipe, written directly.
    temp: Option<Temp>,
    /// The file replaced at the commit (a symlink's destination).
    target: PathBuf,
    /// The path as given, for messages.
    path: PathBuf,
}

impl PendingFile {
    /// Creates the temporary file for `path` (or opens a device or pipe). Fails as creating
    /// `path` itself would: a missing directory, a directory, a read-only file.
    pub fn create(path: &Path) -> io::Result<PendingFile> {
        let target = through_symlink(path);
        let (file, temp) = match fs::metadata(&target) {
            Ok(m) if m.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            Ok(m) if !m.is_file() => (OpenOptions::new().write(true).open(&target)?, None),
            Ok(m) => {
                // Proves the file itself can be written, as File::create would, without
                // truncating it; then the new file takes its permissions.
                OpenOptions::new().write(true).open(&target)?;
                let (file, temp) = Temp::create(&target)?;
                file.set_permissions(m.permissions())?;
                (file, Some(temp))
            }
            Err(_) => {
                let (file, temp) = Temp::create(&target)?;
                (file, Some(temp))
            }
        };
        Ok(PendingFile {
            file,
            temp,
            target,
            path: path.to_owned(),
        })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where the file is being written until the commit (the target itself for a device).
    pub fn writing_to(&self) -> &Path {
        self.temp.as_ref().map_or(&self.target, |t| &t.path)
    }

    /// Makes what was written the target's content: synced to disk, then renamed over it.
    pub fn commit(self) -> io::Result<()> {
        let PendingFile {
            mut file,
            temp,
            target,
            ..
        } = self;
        file.flush()?;
        let Some(temp) = temp else {
            return Ok(());
        };
        file.sync_all()?;
        drop(file);
        temp.rename_to(&target)
    }
}

impl Write for PendingFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Commits each of a run's outputs, in order, once all are written: `(flag, file)`. An error
/// names the flag and the path; the files after it are left as they were.
pub fn commit_all(files: Vec<(&str, PendingFile)>) -> Result<(), CommitFailed> {
    for (flag, file) in files {
        let path = file.path().display().to_string();
        file.commit().map_err(|source| CommitFailed {
            flag: flag.into(),
            path,
            source,
        })?;
    }
    Ok(())
}

/// A run's output that could not be put in its place.
#[derive(Debug, thiserror::Error)]
#[error("writing {flag} '{path}' failed: {source}")]
pub struct CommitFailed {
    /// The flag that names the file (e.g. `--out`), for the error's words.
    pub flag: String,
    /// The file's path.
    pub path: String,
    /// Why it could not be put there.
    pub source: io::Error,
}

/// `path`, or the file a symlink at `path` points to (which may not exist yet).
fn through_symlink(path: &Path) -> PathBuf {
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return path.to_owned();
    }
    fs::canonicalize(path).unwrap_or_else(|_| match fs::read_link(path) {
        // A dangling link: its destination, relative to the link's directory.
        Ok(dest) => path.parent().map_or(dest.clone(), |dir| dir.join(&dest)),
        Err(_) => path.to_owned(),
    })
}

/// A temporary file beside a target: removed when dropped, unless renamed over the target.
#[derive(Debug)]
struct Temp {
    path: PathBuf,
    /// Renamed over the target: nothing to remove.
    renamed: bool,
}

/// How many names [`Temp::create`] tries before giving up.
const TEMP_NAMES: u32 = 100;

impl Temp {
    /// Creates a new, empty file beside `target`, under the first name of
    /// [`temp_path`]'s not already taken.
    fn create(target: &Path) -> io::Result<(File, Temp)> {
        let mut last = None;
        for n in 0..TEMP_NAMES {
            let path = temp_path_n(target, std::process::id(), n)?;
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    live(|paths| paths.push(path.clone()));
                    return Ok((
                        file,
                        Temp {
                            path,
                            renamed: false,
                        },
                    ));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no temporary file name was free")))
    }

    fn rename_to(mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = fs::remove_file(&self.path);
        }
        live(|paths| paths.retain(|p| *p != self.path));
    }
}

/// The temporary file process `pid` writes first for `target`: `.NAME.tmp-PID` beside it.
pub fn temp_path(target: &Path, pid: u32) -> io::Result<PathBuf> {
    temp_path_n(target, pid, 0)
}

/// The `n`th name tried: `.NAME.tmp-PID`, then `.NAME.tmp-PID-N`.
fn temp_path_n(target: &Path, pid: u32, n: u32) -> io::Result<PathBuf> {
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "names no file (it ends in '..' or '/')",
        )
    })?;
    let mut temp = std::ffi::OsString::from(".");
    temp.push(name);
    temp.push(format!(".tmp-{pid}"));
    if n > 0 {
        temp.push(format!("-{n}"));
    }
    Ok(target.with_file_name(temp))
}

/// The temporary files not yet renamed or removed.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live(f: impl FnOnce(&mut Vec<PathBuf>)) {
    let mut paths = LIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    f(&mut paths);
}

/// Removes every temporary file not yet renamed: for a process about to end without
/// unwinding (a second Ctrl-C), so that it leaves its targets as they were and nothing beside.
pub fn remove_unfinished() {
    live(|paths| {
        for p in paths.drain(..) {
            let _ = fs::remove_file(p);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory of its own for each test.
    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pending-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_dropped_uncommitted_leaves_the_target_as_it_was_and_nothing_beside() {
        let dir = dir("dropped");
        let (old, new) = (dir.join("old.csv"), dir.join("new.csv"));
        fs::write(&old, "what it held").unwrap();
        for path in [&old, &new] {
            let mut file = PendingFile::create(path).unwrap();
            assert!(file.writing_to().exists());
            file.write_all(b"half a run").unwrap();
            assert_eq!(names(&dir).len(), 2, "{:?}", names(&dir));
            drop(file);
        }
        assert_eq!(fs::read_to_string(&old).unwrap(), "what it held");
        assert_eq!(names(&dir), ["old.csv"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_commit_replaces_the_target_whole_and_leaves_nothing_beside() {
        let dir = dir("commit");
        let path = dir.join("out.csv");
        fs::write(&path, "what it held, and longer").unwrap();
        let mut file = PendingFile::create(&path).unwrap();
        assert_eq!(
            file.writing_to(),
            temp_path(&path, std::process::id()).unwrap()
        );
        file.write_all(b"new").unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "what it held, and longer"
        );
        file.commit().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(&dir), ["out.csv"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_name_taken_by_a_stale_temporary_file_is_passed_over_and_left_alone() {
        let dir = dir("taken");
        let path = dir.join("out.csv");
        let stale = temp_path(&path, std::process::id()).unwrap();
        fs::write(&stale, "someone else's").unwrap();
        let file = PendingFile::create(&path).unwrap();
        assert_ne!(file.writing_to(), stale);
        file.commit().unwrap();
        assert_eq!(fs::read_to_string(&stale).unwrap(), "someone else's");
        assert_eq!(fs::read_to_string(&path).unwrap(), "");
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions_and_a_symlink_is_written_through() {
        use std::os::unix::fs::PermissionsExt;
        let dir = dir("perms");
        let (real, link) = (dir.join("real.json"), dir.join("link.json"));
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        let mut file = PendingFile::create(&link).unwrap();
        file.write_all(b"new").unwrap();
        file.commit().unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        let mode = fs::metadata(&real).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert_eq!(names(&dir), ["link.json", "real.json"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_directly() {
        let mut file = PendingFile::create(Path::new("/dev/null")).unwrap();
        assert_eq!(file.writing_to(), Path::new("/dev/null"));
        file.write_all(b"gone").unwrap();
        file.commit().unwrap();
    }

    #[test]
    fn paths_that_cannot_be_written_fail_at_create() {
        let dir = dir("unwritable");
        assert!(PendingFile::create(&dir.join("no-such-dir").join("f.csv")).is_err());
        assert!(PendingFile::create(&dir).is_err(), "a directory");
        assert!(PendingFile::create(Path::new("..")).is_err());
        assert_eq!(names(&dir), Vec::<String>::new());
        let _ = fs::remove_dir_all(&dir);
    }
}
