//! An output file a command opens before it starts, so that a path that cannot be written
//! fails before anything runs, and writes only at the end. A file already there keeps what it
//! held until then; one made for the run is removed again if nothing is written. The window's
//! `--screenshot` and `probe --out` are such files.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

#[derive(Debug)]
pub struct PendingFile {
    path: PathBuf,
    file: File,
    /// Whether the file was there before it was opened.
    existed: bool,
}

impl PendingFile {
    /// Opens `path` for writing without truncating it.
    pub fn open(path: &Path) -> io::Result<PendingFile> {
        let existed = path.exists();
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        Ok(PendingFile {
            path: path.to_owned(),
            file,
            existed,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces whatever the file held with `bytes`.
    pub fn replace(mut self, bytes: &[u8]) -> io::Result<()> {
        self.file.set_len(0)?;
        self.file.rewind()?;
        self.file.write_all(bytes)?;
        self.file.flush()
    }

    /// Nothing to write: the file is left as it was, removed if it was made for the run.
    pub fn abandon(self) {
        let PendingFile {
            path,
            file,
            existed,
        } = self;
        drop(file);
        if !existed {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("pending-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    #[test]
    fn a_file_made_for_the_run_is_removed_if_nothing_is_written() {
        let path = temp("made");
        PendingFile::open(&path).unwrap().abandon();
        assert!(!path.exists());
    }

    #[test]
    fn a_file_already_there_keeps_what_it_held_until_replaced_whole() {
        let path = temp("there");
        std::fs::write(&path, "what it held, and longer").unwrap();
        PendingFile::open(&path).unwrap().abandon();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "what it held, and longer"
        );
        let file = PendingFile::open(&path).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "what it held, and longer"
        );
        file.replace(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let _ = std::fs::remove_file(&path);
    }
}
