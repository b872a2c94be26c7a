//! Which frames of a capture replay runs: one application's swap chain (a lane of our own
//! logs), chosen by counting every group's application frames in a first pass.
//!
//! The tally is a map from the group to its counts, in time linear in the rows. A capture may
//! have at most [`MAX_GROUPS`] groups, each named in at most [`MAX_GROUP_BYTES`] (its
//! application, process and swap chain together): past either, it is refused with the line
//! that went past, so the tally holds at most about 20 MB (each name kept twice, in the map
//! and in the list) however the file was made.

use super::format::Format;
use super::rows::{Group, Rows};
use super::{CaptureError, Captured};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The compositor, left out of the choice unless `--app` names it: every PresentMon capture
/// has it, and it is not the game.
const COMPOSITOR: &str = "dwm.exe";

/// The most groups (application, process, swap chain; or lanes) a capture may have: a real one
/// has a few dozen.
pub const MAX_GROUPS: usize = 10_000;

/// The longest a group's names may be, together, bytes.
pub const MAX_GROUP_BYTES: usize = 1024;

/// The most applications or swap chains an error lists (the busiest), the rest counted.
const LISTED: usize = 10;

/// The frames chosen: the group's names and how many frames it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The capture's format.
    pub format: Format,
    /// The application (PresentMon, CapFrameX), the lane (our logs), or empty.
    pub app: String,
    /// The process ID (PresentMon), or empty.
    pub process: String,
    /// The swap chain's address (PresentMon), or empty.
    pub swapchain: String,
    /// Application frames of the group.
    pub frames: u64,
    /// Generated frames of the group (frame generation), counted and skipped.
    pub generated_skipped: u64,
    /// The group as it is written, to find its rows again.
    key: [Vec<u8>; 3],
}

/// A group's count, in the order groups first appear.
#[derive(Clone, Debug)]
struct Count {
    key: [Vec<u8>; 3],
    application: u64,
    generated: u64,
}

/// Counts every group of `path` and chooses the frames to replay: `app` (an application, or a
/// lane of our logs) or the one with the most application frames (the compositor left out),
/// then `swapchain` or the app's busiest.
pub fn choose(
    path: &Path,
    app: Option<&str>,
    swapchain: Option<&str>,
) -> Result<Selection, CaptureError> {
    let (format, mut counts) = tally(path)?;
    let err = |message: String| CaptureError::at(path, None, None, message);
    if counts.is_empty() {
        return Err(err(
            "no frames: the file has a header and nothing else".into()
        ));
    }
    let chosen_app = choose_app(&mut counts, app).map_err(err)?;
    let of_app: Vec<&Count> = counts
        .iter()
        .filter(|c| text(&c.key[0]) == chosen_app)
        .collect();
    let group = choose_group(&of_app, &chosen_app, swapchain).map_err(err)?;
    if group.application == 0 {
        return Err(err(format!(
            "'{chosen_app}' has only generated frames ({}): nothing to replay",
            group.generated
        )));
    }
    let app = if chosen_app.is_empty() {
        unnamed(path)
    } else {
        chosen_app
    };
    Ok(Selection {
        format,
        app,
        process: text(&group.key[1]),
        swapchain: text(&group.key[2]),
        frames: group.application,
        generated_skipped: group.generated,
        key: group.key.clone(),
    })
}

/// The application `app` names, or the one with the most application frames (the compositor
/// left out); `--app` may name a process by its ID, whose groups alone are then kept in
/// `counts`. The error says why none is.
fn choose_app(counts: &mut Vec<Count>, app: Option<&str>) -> Result<String, String> {
    let name = |c: &Count| text(&c.key[0]);
    let by_process = app.filter(|a| {
        let a = a.trim();
        !a.is_empty()
            && a.bytes().all(|b| b.is_ascii_digit())
            && counts.iter().any(|c| text(&c.key[1]) == a)
    });
    if let Some(pid) = by_process {
        counts.retain(|c| text(&c.key[1]) == pid.trim());
    }
    let app = if by_process.is_some() {
        counts.first().map(name)
    } else {
        app.map(str::to_string)
    };
    let apps = app_totals(counts);
    match app.as_deref() {
        Some(wanted) => apps
            .iter()
            .find(|(a, _)| a.eq_ignore_ascii_case(wanted.trim()))
            .map(|(a, _)| a.clone())
            .ok_or_else(|| {
                format!(
                    "--app: no frames of '{wanted}'; there are {}",
                    listed(&apps)
                )
            }),
        None => apps
            .iter()
            .filter(|(a, n)| !a.eq_ignore_ascii_case(COMPOSITOR) && *n > 0)
            .max_by(|x, y| x.1.cmp(&y.1).then(std::cmp::Ordering::Greater))
            .map(|(a, _)| a.clone())
            .ok_or_else(|| {
                format!(
                    "no application frames but the compositor's; there are {} (--app \
                     {COMPOSITOR} replays those)",
                    listed(&apps)
                )
            }),
    }
}

/// Of `app`'s groups `of_app`, the swap chain `swapchain` names, or its busiest. The error
/// says why none is.
fn choose_group<'a>(
    of_app: &[&'a Count],
    app: &str,
    swapchain: Option<&str>,
) -> Result<&'a Count, String> {
    match swapchain {
        Some(wanted) => of_app
            .iter()
            .find(|c| same_address(&text(&c.key[2]), wanted))
            .copied()
            .ok_or_else(|| {
                let chains: Vec<(String, u64)> = of_app
                    .iter()
                    .map(|c| (text(&c.key[2]), c.application))
                    .collect();
                format!(
                    "--swapchain: '{app}' has no swap chain {wanted}; it has {}",
                    listed(&chains)
                )
            }),
        None => of_app
            .iter()
            .max_by(|x, y| {
                x.application
                    .cmp(&y.application)
                    .then(std::cmp::Ordering::Greater)
            })
            .copied()
            .ok_or_else(|| format!("no frames of '{app}'")),
    }
}

/// Every group of `path` counted, in the order groups first appear.
fn tally(path: &Path) -> Result<(Format, Vec<Count>), CaptureError> {
    let mut rows = Rows::open(path)?;
    let format = rows.format();
    // The group's names, each after its length, so that no two groups share a key; the
    // buffer is reused, so a row allocates nothing.
    let mut key = Vec::new();
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut counts: Vec<Count> = Vec::new();
    while let Some(row) = rows.next_row()? {
        key.clear();
        for part in row.group {
            key.extend_from_slice(&part.len().to_le_bytes());
            key.extend_from_slice(part);
        }
        let i = match index.get(key.as_slice()) {
            Some(&i) => i,
            None => {
                check_group(path, &row.group, row.frame.line, counts.len())?;
                index.insert(key.clone(), counts.len());
                counts.push(Count {
                    key: owned(row.group),
                    application: 0,
                    generated: 0,
                });
                counts.len() - 1
            }
        };
        let c = &mut counts[i];
        if row.application {
            c.application += 1;
        } else {
            c.generated += 1;
        }
    }
    Ok((format, counts))
}

/// Refuses a new group, on `line`, past [`MAX_GROUPS`] (`groups` are known) or
/// [`MAX_GROUP_BYTES`].
fn check_group(
    path: &Path,
    group: &Group<'_>,
    line: u64,
    groups: usize,
) -> Result<(), CaptureError> {
    let err = |message: String| Err(CaptureError::at(path, Some(line), None, message));
    if group.iter().map(|g| g.len()).sum::<usize>() > MAX_GROUP_BYTES {
        return err(format!(
            "an application, process and swap chain named in more than {MAX_GROUP_BYTES} bytes"
        ));
    }
    if groups >= MAX_GROUPS {
        return err(format!(
            "more than {MAX_GROUPS} applications, processes and swap chains: more than replay \
             chooses from"
        ));
    }
    Ok(())
}

/// Every application's frames over all its processes and swap chains, in the order they
/// first appear.
fn app_totals(counts: &[Count]) -> Vec<(String, u64)> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut apps: Vec<(String, u64)> = Vec::new();
    for c in counts {
        let name = text(&c.key[0]);
        match index.get(&name) {
            Some(&i) => apps[i].1 += c.application,
            None => {
                index.insert(name.clone(), apps.len());
                apps.push((name, c.application));
            }
        }
    }
    apps
}

/// A name for a capture of one unnamed stream (a MangoHud log): its file's name, less the date
/// and time MangoHud adds (`<program>_<YYYY-MM-DD_HH-MM-SS>.csv`).
fn unnamed(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let dated = |tail: &str| {
        tail.len() == 19
            && tail.bytes().enumerate().all(|(i, b)| {
                matches!(i, 4 | 7 | 13 | 16) && b == b'-'
                    || i == 10 && b == b'_'
                    || b.is_ascii_digit()
            })
    };
    match stem.len().checked_sub(20) {
        Some(cut)
            if stem.is_char_boundary(cut)
                && &stem[cut..cut + 1] == "_"
                && dated(&stem[cut + 1..]) =>
        {
            stem[..cut].to_string()
        }
        _ => stem,
    }
}

/// "a (12 frames), b (3 frames)": the [`LISTED`] busiest, in the order given, then how many
/// more.
fn listed(apps: &[(String, u64)]) -> String {
    let mut busiest: Vec<usize> = (0..apps.len()).collect();
    busiest.sort_by_key(|&i| std::cmp::Reverse(apps[i].1));
    busiest.truncate(LISTED);
    busiest.sort_unstable();
    let mut shown: Vec<String> = busiest
        .iter()
        .map(|&i| {
            let (a, n) = &apps[i];
            let a = if a.is_empty() { "(unnamed)" } else { a };
            format!("{a} ({n} frames)")
        })
        .collect();
    if apps.len() > LISTED {
        shown.push(format!("and {} more", apps.len() - LISTED));
    }
    shown.join(", ")
}

/// Swap chain addresses compared as numbers (PresentMon 1.x pads them with zeros), or as text.
fn same_address(a: &str, b: &str) -> bool {
    let hex = |s: &str| {
        let s = s.trim();
        let digits = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .unwrap_or(s);
        u64::from_str_radix(digits, 16).ok()
    };
    match (hex(a), hex(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a.trim().eq_ignore_ascii_case(b.trim()),
    }
}

fn owned(group: Group<'_>) -> [Vec<u8>; 3] {
    group.map(<[u8]>::to_vec)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}

/// The chosen frames, read again in file order. A frame that starts before the one before it
/// is an error; one that reached the screen before the last one shown is replayed as captured,
/// and counted (PresentMon writes no display change or animation error for it).
pub struct Stream {
    path: PathBuf,
    rows: Rows,
    key: [Vec<u8>; 3],
    last: Option<Captured>,
    last_shown_ns: Option<u64>,
    out_of_order: u64,
}

impl Stream {
    /// Opens `path` to read `selection`'s frames.
    pub fn open(path: &Path, selection: &Selection) -> Result<Stream, CaptureError> {
        Ok(Stream {
            path: path.to_owned(),
            rows: Rows::open(path)?,
            key: selection.key.clone(),
            last: None,
            last_shown_ns: None,
            out_of_order: 0,
        })
    }

    /// Frames whose time on screen went back before the last one shown.
    pub fn out_of_order(&self) -> u64 {
        self.out_of_order
    }

    /// The next frame of the selection, or `None` at the end.
    pub fn next_frame(&mut self) -> Result<Option<Captured>, CaptureError> {
        let key = &self.key;
        loop {
            let Some(row) = self.rows.next_row()? else {
                return Ok(None);
            };
            if !row.application || row.group.iter().zip(key).any(|(a, b)| *a != b.as_slice()) {
                continue;
            }
            let frame = row.frame;
            if let Some(last) = self.last
                && frame.start_ns < last.start_ns
            {
                return Err(CaptureError::at(
                    &self.path,
                    Some(frame.line),
                    None,
                    format!(
                        "time goes backwards: this frame starts {:.4} ms before the one on line {}",
                        (last.start_ns - frame.start_ns) as f64 / 1e6,
                        last.line
                    ),
                ));
            }
            if let (Some(shown), Some(before)) = (frame.shown_ns, self.last_shown_ns)
                && shown < before
            {
                self.out_of_order += 1;
            }
            self.last_shown_ns = frame.shown_ns.or(self.last_shown_ns);
            self.last = Some(frame);
            return Ok(Some(frame));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::rows::tests::file;
    use super::*;

    const HEADER: &str =
        "Application,ProcessID,SwapChainAddress,CPUStartQPC,MsCPUBusy,MsUntilDisplayed\n";

    /// A capture of one frame of each of `apps` distinct applications, then two of `busy.exe`.
    fn capture(name: &str, apps: usize) -> PathBuf {
        let mut text = String::from(HEADER);
        for i in 0..apps {
            text += &format!("app{i}.exe,{i},0x1,{},1.0,2.0\n", 1000 + i);
        }
        text += "busy.exe,1,0x1,1000000,1.0,2.0\nbusy.exe,1,0x1,1200000,1.0,2.0\n";
        file(name, text.as_bytes())
    }

    #[test]
    fn groups_are_tallied_in_a_map_up_to_a_bound_and_refused_past_it() {
        let path = capture("most.csv", MAX_GROUPS - 1);
        let s = choose(&path, None, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.app.as_str(), s.frames), ("busy.exe", 2));
        let path = capture("too-many.csv", MAX_GROUPS);
        let err = choose(&path, None, None).map_or_else(|e| e.to_string(), |s| panic!("{s:?}"));
        let line = format!("line {}", MAX_GROUPS + 2);
        for word in ["too-many.csv", &line, "more than 10000 applications"] {
            assert!(err.contains(word), "'{err}' should say '{word}'");
        }
        let long = "x".repeat(MAX_GROUP_BYTES);
        let text = format!("{HEADER}{long},1,0x1,1000,1.0,2.0\n");
        let err = choose(&file("long-name.csv", text.as_bytes()), None, None)
            .map_or_else(|e| e.to_string(), |s| panic!("{s:?}"));
        assert!(
            err.contains("line 2") && err.contains("more than 1024 bytes"),
            "{err}"
        );
    }

    #[test]
    fn an_error_lists_the_ten_busiest_and_counts_the_rest() {
        let path = capture("listed.csv", 50);
        let err = choose(&path, Some("nope.exe"), None)
            .map_or_else(|e| e.to_string(), |s| panic!("{s:?}"));
        assert!(err.contains("--app: no frames of 'nope.exe'"), "{err}");
        assert!(err.contains("busy.exe (2 frames)"), "{err}");
        assert!(err.contains("and 41 more"), "{err}");
        assert_eq!(err.matches("frames)").count(), LISTED, "{err}");
    }

    #[test]
    fn application_totals_are_summed_over_processes_in_first_appearance_order() {
        let count = |app: &str, pid: &str, n: u64| Count {
            key: [app.into(), pid.into(), Vec::new()],
            application: n,
            generated: 0,
        };
        let counts = [count("a", "1", 2), count("b", "2", 5), count("a", "3", 4)];
        assert_eq!(
            app_totals(&counts),
            vec![("a".to_string(), 6), ("b".to_string(), 5)]
        );
    }
}
