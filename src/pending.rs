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
//! A second Ctrl-C, which ends the process at once, removes them too ([`remove_unfinished`]),
//! and so do a panic and an `exit(3)` by a C library ([`remove_unfinished_at_any_end`]).
//!
//! The temporary file is `.NAME.tmp-PID` beside `NAME` (`.NAME.tmp-PID-N` if that is taken),
//! created only if it does not exist; a `NAME` too long for that to fit in
//! [`NAME_MAX`] bytes is cut short in it. A new target gets the permissions `File::create`
//! gives; a target already there keeps its own. A symlink is written through (its destination
//! is replaced, not the link); a symlink that loops is refused.
//!
//! Refused at [`PendingFile::create`], before anything runs, as well as what `File::create`
//! refuses: a name ending in `/` (a directory's), a symlink loop, and a file already there
//! that the rename could not replace: another user's file in a sticky directory such as
//! `/tmp`, which we may write but not rename over ([`sticky_refuses`]).
//!
//! **Streams.** A path that is not a regular file nor a new name in a directory is written in
//! place, never renamed over, so what is written there is what a reader gets, as it goes, and
//! also when the run fails: a character device (`/dev/null`, a terminal), a FIFO, and a path
//! naming one of this process's open descriptors: `/dev/stdin`, `/dev/stdout`, `/dev/stderr`,
//! `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N`, `/proc/PID/fd/N` (this PID), or
//! a symlink to any of them. The file such a path leads to (the `log.txt` of
//! `--trace /dev/stdout >> log.txt`) is not opened by its name, which would start writing at
//! its beginning, over what the shell had in it: descriptors 0, 1 and 2 are duplicated, so the
//! output shares the shell's open file (its offset, and `>>`'s append) and lands in order with
//! what the program prints there (stdout is flushed before each write to descriptor 1). A
//! higher descriptor has no duplicate in safe std, so its path is opened for appending, which
//! puts the output after what the file held (as `3>>` would), and at its end even after `3>`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The longest file name, bytes: Linux's `NAME_MAX` (`include/uapi/linux/limits.h`), which
/// macOS shares; a temporary file's name is kept within it.
pub const NAME_MAX: usize = 255;

/// Symlinks followed before a path is called a loop: Linux's `MAXSYMLINKS`
/// (`include/linux/namei.h`, 40), past which `open(2)` fails with `ELOOP`.
const MAX_LINKS: usize = 40;

/// A file being written for `path`, which it replaces at [`PendingFile::commit`].
#[derive(Debug)]
pub struct PendingFile {
    /// Declared before `temp`, so it is closed before the temporary file is removed.
    file: File,
    /// None: the target is a stream, written in place.
    temp: Option<Temp>,
    /// The file replaced at the commit (a symlink's destination).
    target: PathBuf,
    /// The path as given, for messages.
    path: PathBuf,
    /// `file` is a duplicate of stdout: what the program printed goes out first.
    shares_stdout: bool,
    /// A stream whose reader has gone (`| head`): what is left is discarded, as the program's
    /// own printing discards it, and that is no error.
    reader_gone: bool,
}

/// Where a path given as an output leads.
#[derive(Debug, PartialEq, Eq)]
enum Leads {
    /// To this process's open descriptor N, through `path` (which names it).
    Descriptor(u32, PathBuf),
    /// To a file (there or not), through no symlink or through every one.
    File(PathBuf),
}

/// Creates the file a flag names, if it names one; the error is the line that names the flag
/// and the path.
pub fn for_flag(flag: &str, path: Option<&Path>) -> Result<Option<PendingFile>, String> {
    path.map(|p| {
        PendingFile::create(p).map_err(|e| format!("cannot write {flag} '{}': {e}", p.display()))
    })
    .transpose()
}

impl PendingFile {
    /// Creates the temporary file for `path` (or opens a stream). Fails as creating `path`
    /// itself would (a missing directory, a directory, a read-only file), and as the commit
    /// would (see the module's doc).
    pub fn create(path: &Path) -> io::Result<PendingFile> {
        if ends_in_separator(path) {
            return Err(invalid("names a directory (it ends in '/')"));
        }
        let (file, temp, target, shares_stdout) = match leads(path)? {
            Leads::Descriptor(fd, through) => {
                let file = duplicate(fd, &through)?;
                (file, None, through, fd == 1)
            }
            Leads::File(target) => {
                let (file, temp) = open_file(&target)?;
                (file, temp, target, false)
            }
        };
        Ok(PendingFile {
            file,
            temp,
            target,
            path: path.to_owned(),
            shares_stdout,
            reader_gone: false,
        })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where the file is being written until the commit (for a stream, the path that names
    /// it). The tests ask.
    #[cfg(test)]
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
        if self.reader_gone {
            return Ok(buf.len());
        }
        let written = if self.shares_stdout {
            io::stdout().flush().and_then(|()| self.file.write(buf))
        } else {
            self.file.write(buf)
        };
        self.unless_reader_gone(written, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.reader_gone {
            return Ok(());
        }
        let flushed = self.file.flush();
        self.unless_reader_gone(flushed, ())
    }
}

impl PendingFile {
    /// `result`, unless it says a stream's reader has gone: then `gone`, and the rest of the
    /// output is discarded.
    fn unless_reader_gone<T>(&mut self, result: io::Result<T>, gone: T) -> io::Result<T> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe && self.temp.is_none() => {
                self.reader_gone = true;
                Ok(gone)
            }
            other => other,
        }
    }
}

/// The file for a target that is not a descriptor: a temporary file beside a regular file or
/// a new name, or the target itself for a device or a FIFO.
fn open_file(target: &Path) -> io::Result<(File, Option<Temp>)> {
    match fs::metadata(target) {
        Ok(m) if m.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory",
        )),
        Ok(m) if !m.is_file() => Ok((OpenOptions::new().write(true).open(target)?, None)),
        Ok(m) => {
            // Proves the file itself can be written, as File::create would, without
            // truncating it; then the new file takes its permissions.
            OpenOptions::new().write(true).open(target)?;
            let (file, temp) = Temp::create(target)?;
            file.set_permissions(m.permissions())?;
            replaceable(target, &m, &file)?;
            Ok((file, Some(temp)))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let (file, temp) = Temp::create(target)?;
            Ok((file, Some(temp)))
        }
        Err(e) => Err(e),
    }
}

fn invalid(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why.to_owned())
}

/// Whether `path` as written ends in a separator (`out/`), which only a directory may.
fn ends_in_separator(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes
        .last()
        .is_some_and(|&b| std::path::is_separator(char::from(b)))
}

/// Whether `path`, given as an output, is a stream written in place through one of this
/// process's descriptors (`/dev/stdout`, `/dev/fd/3`, a symlink to one): two such outputs share
/// the stream as the program's own printing does, and neither replaces the other.
pub fn is_descriptor(path: &Path) -> bool {
    matches!(leads(path), Ok(Leads::Descriptor(..)))
}

/// Follows `path`'s symlinks one by one until one names an open descriptor of this process,
/// or a path that is no symlink (or a dangling link's destination, which may not exist yet).
fn leads(path: &Path) -> io::Result<Leads> {
    let mut at = path.to_owned();
    for _ in 0..=MAX_LINKS {
        if let Some(fd) = descriptor(&at) {
            return Ok(Leads::Descriptor(fd, at));
        }
        match fs::read_link(&at) {
            // A relative destination is relative to the link's directory.
            Ok(dest) => at = at.parent().map_or(dest.clone(), |dir| dir.join(&dest)),
            Err(_) => return Ok(Leads::File(at)),
        }
    }
    Err(invalid(
        "is a symlink that loops (it never leads to a file)",
    ))
}

/// The directory `path` is in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// The descriptor `path` names, if it names one of this process's: a number in a directory
/// that is this process's descriptor directory, or `/dev/stdin`, `/dev/stdout`, `/dev/stderr`.
fn descriptor(path: &Path) -> Option<u32> {
    let name = path.file_name()?.to_str()?;
    let dir = directory_of(path);
    let std_name = ["stdin", "stdout", "stderr"]
        .iter()
        .position(|s| *s == name);
    let fd = std_name.map_or_else(|| name.parse().ok(), |i| u32::try_from(i).ok())?;
    let dir = fs::canonicalize(dir).ok()?;
    let fd_dirs = ["/proc/self/fd", "/proc/thread-self/fd", "/dev/fd"];
    let is_fd_dir = || {
        fd_dirs
            .iter()
            .any(|d| fs::canonicalize(d).is_ok_and(|d| d == dir))
    };
    let named = match std_name {
        Some(_) => dir == Path::new("/dev"),
        None => is_fd_dir(),
    };
    named.then_some(fd)
}

/// A file that writes to this process's descriptor `fd` (named by `path`), in place; proved
/// writable by a write of no bytes, which a descriptor not open for writing refuses.
fn duplicate(fd: u32, path: &Path) -> io::Result<File> {
    let mut file = match fd {
        0 => std_duplicate(&io::stdin())?,
        1 => std_duplicate(&io::stdout())?,
        2 => std_duplicate(&io::stderr())?,
        // No safe duplicate in std: the descriptor's file, opened again, for appending.
        _ => OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => invalid(&format!("descriptor {fd} is not open")),
                _ => e,
            })?,
    };
    let _ = file.write(&[])?;
    Ok(file)
}

#[cfg(unix)]
fn std_duplicate(stream: &impl std::os::fd::AsFd) -> io::Result<File> {
    Ok(File::from(stream.as_fd().try_clone_to_owned()?))
}

#[cfg(not(unix))]
fn std_duplicate<T>(_stream: &T) -> io::Result<File> {
    Err(io::Error::other("no descriptor to write to"))
}

/// Fails if the rename at the commit would be refused: the target is another user's file in a
/// sticky directory. `temp` is our own new file, whose owner is who we are.
#[cfg(unix)]
fn replaceable(target: &Path, meta: &fs::Metadata, temp: &File) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let dir = fs::metadata(directory_of(target))?;
    let uid = temp.metadata()?.uid();
    if sticky_refuses(dir.mode(), dir.uid(), meta.uid(), uid) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "cannot be replaced: it is another user's file in a sticky directory (like /tmp), \
             where only its owner may replace it",
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn replaceable(_target: &Path, _meta: &fs::Metadata, _temp: &File) -> io::Result<()> {
    Ok(())
}

/// Whether a rename over a file owned by `file_uid`, in a directory of mode `dir_mode` owned by
/// `dir_uid`, is refused to user `uid`: `rename(2)` (Linux man-pages): "newpath is an existing
/// file and the directory containing it has the sticky bit set and the process's effective user
/// ID is neither the user ID of the file to be replaced nor that of the directory containing
/// it, and the process is not privileged". Root (uid 0) is taken as privileged.
pub fn sticky_refuses(dir_mode: u32, dir_uid: u32, file_uid: u32, uid: u32) -> bool {
    const STICKY: u32 = 0o1000;
    dir_mode & STICKY != 0 && uid != 0 && uid != dir_uid && uid != file_uid
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

/// The temporary file process `pid` writes first for `target`: `.NAME.tmp-PID` beside it. The
/// tests ask (the program's own and the integration tests, which compile this module).
#[cfg(test)]
pub fn temp_path(target: &Path, pid: u32) -> io::Result<PathBuf> {
    temp_path_n(target, pid, 0)
}

/// The `n`th name tried: `.NAME.tmp-PID`, then `.NAME.tmp-PID-N`, with `NAME` cut short so
/// that the whole fits in [`NAME_MAX`] bytes (unique all the same: `PID` is this process's, and
/// a name taken is passed over for the next `N`).
fn temp_path_n(target: &Path, pid: u32, n: u32) -> io::Result<PathBuf> {
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "names no file (it ends in '..' or '/')",
        )
    })?;
    let suffix = match n {
        0 => format!(".tmp-{pid}"),
        n => format!(".tmp-{pid}-{n}"),
    };
    let mut temp = std::ffi::OsString::from(".");
    temp.push(cut(name, NAME_MAX - 1 - suffix.len()));
    temp.push(suffix);
    Ok(target.with_file_name(temp))
}

/// `name`'s first `max` bytes at most, cut before a UTF-8 character that would not fit whole.
#[cfg(unix)]
fn cut(name: &std::ffi::OsStr, max: usize) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStrExt;
    let bytes = name.as_bytes();
    let mut end = bytes.len().min(max);
    // A continuation byte (0b10xx_xxxx) at the cut is the middle of a character.
    while end > 0 && end < bytes.len() && bytes[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    std::ffi::OsStr::from_bytes(&bytes[..end]).to_owned()
}

#[cfg(not(unix))]
fn cut(name: &std::ffi::OsStr, max: usize) -> std::ffi::OsString {
    let text = name.to_string_lossy();
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].into()
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
/// unwinding (a second Ctrl-C, a panic that aborts), so that it leaves its targets as they were
/// and nothing beside.
pub fn remove_unfinished() {
    live(|paths| {
        for p in paths.drain(..) {
            let _ = fs::remove_file(p);
        }
    });
}

/// Makes every way the process ends remove the temporary files not yet renamed
/// ([`remove_unfinished`]); for the binary's `main`, on the main thread:
///
/// - A panic, wherever it happens: this program catches none, so a panic ends the run. The
///   hook removes them, then reports as before. (No panic can happen while `LIVE` is held,
///   so the hook never waits for itself.)
/// - `exit(3)` called on the main thread by a C library: Xlib's default I/O error handler
///   ends the process with `exit(1)` when the X server goes away, and runs no destructor of
///   ours. glibc's `exit` runs the calling thread's thread-local destructors first
///   (`__run_exit_handlers` calls `__call_tls_dtors`), so a guard kept in the main thread's
///   thread-local storage removes them then. After a normal end there is nothing left to
///   remove.
pub fn remove_unfinished_at_any_end() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        remove_unfinished();
        report(info);
    }));
    AT_EXIT.with(|_| {});
}

/// Removes the temporary files when the thread that holds it ends (the main thread: at
/// `exit(3)`).
struct AtExit;

impl Drop for AtExit {
    fn drop(&mut self) {
        remove_unfinished();
    }
}

thread_local! {
    static AT_EXIT: AtExit = const { AtExit };
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

    #[cfg(target_os = "linux")]
    #[test]
    fn every_spelling_of_an_open_descriptor_leads_to_it_and_other_paths_to_a_file() {
        let dir = dir("descriptors");
        let pid = std::process::id();
        std::os::unix::fs::symlink("/dev/stdout", dir.join("out.csv")).unwrap();
        std::os::unix::fs::symlink("out.csv", dir.join("again.csv")).unwrap();
        let own = format!("/proc/{pid}/fd/2");
        for (path, fd) in [
            ("/dev/stdin", 0),
            ("/dev/stdout", 1),
            ("/dev/stderr", 2),
            ("/dev/fd/1", 1),
            ("/proc/self/fd/2", 2),
            ("/proc/thread-self/fd/0", 0),
            (own.as_str(), 2),
            ("/dev/fd/../fd/1", 1),
        ] {
            let leads = leads(Path::new(path)).unwrap();
            assert!(
                matches!(leads, Leads::Descriptor(n, _) if n == fd),
                "{path}: {leads:?}"
            );
        }
        for link in ["out.csv", "again.csv"] {
            let leads = leads(&dir.join(link)).unwrap();
            assert!(
                matches!(leads, Leads::Descriptor(1, _)),
                "{link}: {leads:?}"
            );
        }
        fs::write(dir.join("1"), "a file named 1").unwrap();
        for path in [
            dir.join("1"),
            PathBuf::from("/dev/null"),
            dir.join("new.csv"),
        ] {
            assert_eq!(leads(&path).unwrap(), Leads::File(path.clone()));
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_descriptor_not_open_for_writing_is_refused_at_create() {
        let e = PendingFile::create(Path::new("/dev/fd/987")).unwrap_err();
        assert_eq!(e.to_string(), "descriptor 987 is not open");
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
        fs::write(dir.join("file"), "a file").unwrap();
        for name in ["new/", "file/"] {
            let e = PendingFile::create(&dir.join(name)).unwrap_err();
            assert_eq!(
                e.to_string(),
                "names a directory (it ends in '/')",
                "{name}"
            );
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("loop", dir.join("loop")).unwrap();
            std::os::unix::fs::symlink("b", dir.join("a")).unwrap();
            std::os::unix::fs::symlink("a", dir.join("b")).unwrap();
            for name in ["loop", "a"] {
                let e = PendingFile::create(&dir.join(name)).unwrap_err();
                assert!(e.to_string().contains("symlink that loops"), "{name}: {e}");
            }
        }
        let mut left = names(&dir);
        left.retain(|n| n.starts_with('.'));
        assert_eq!(left, Vec::<String>::new(), "no temporary file");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn names_up_to_name_max_get_a_temporary_name_that_fits_and_are_replaced() {
        let dir = dir("long");
        // 'é' is two bytes: the cut must not split it.
        for name in [
            "x".repeat(NAME_MAX),
            "é".repeat(123),
            format!("{}.csv", "y".repeat(242)),
        ] {
            for len in (NAME_MAX - 10)..=NAME_MAX {
                let Some(name) = name.get(..len.min(name.len())) else {
                    continue;
                };
                let path = dir.join(name);
                let mut file = PendingFile::create(&path).unwrap();
                let temp = file.writing_to().file_name().unwrap().to_owned();
                assert!(temp.len() <= NAME_MAX, "{} bytes", temp.len());
                let temp = temp.to_str().unwrap();
                assert!(temp.starts_with(&format!(".{}", &name[..8])), "{temp}");
                assert!(
                    temp.ends_with(&format!(".tmp-{}", std::process::id())),
                    "{temp}"
                );
                file.write_all(b"new").unwrap();
                file.commit().unwrap();
                assert_eq!(fs::read_to_string(&path).unwrap(), "new");
                fs::remove_file(&path).unwrap();
            }
        }
        assert_eq!(names(&dir), Vec::<String>::new());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_another_users_file_in_a_sticky_directory_is_refused_and_not_to_root() {
        let (tmp, plain) = (0o41777, 0o40777);
        let (me, other, owner) = (1000, 1001, 1002);
        assert!(sticky_refuses(tmp, 0, other, me), "/tmp: another's file");
        assert!(sticky_refuses(tmp, owner, other, me));
        assert!(!sticky_refuses(tmp, 0, me, me), "our own file");
        assert!(!sticky_refuses(tmp, me, other, me), "our own directory");
        assert!(!sticky_refuses(tmp, owner, other, 0), "root may");
        assert!(!sticky_refuses(plain, owner, other, me), "not sticky");
    }
}
