//! The docs against the repository: every relative link and every path they name exists
//! (and every anchor is a heading of its target), and every figure they state that the code
//! makes — how many bad inputs the CLI test throws, how many lessons there are — is the
//! code's.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown file of ours: the repository's, not the vendored crate's or build output.
fn docs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                let skip =
                    name.starts_with('.') || name == "target" || path.ends_with("vendor/pixels");
                if !skip {
                    dirs.push(path);
                }
            } else if name.ends_with(".md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if !in_code && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// The text outside fenced code blocks (commands and program output are not links).
fn prose(text: &str) -> String {
    let mut in_code = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if !in_code {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// `[text](target)` links in `text`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        match after.find(')') {
            Some(end) => {
                out.push(after[..end].to_string());
                rest = &after[end..];
            }
            None => break,
        }
    }
    out
}

/// Paths named in backticks that look like this repository's: `src/…`, `tests/…`, `docs/…`
/// and the like.
fn named_paths(text: &str) -> Vec<String> {
    const TOP: [&str; 9] = [
        "src/",
        "tests/",
        "docs/",
        "scripts/",
        "crates/",
        "benches/",
        "examples/",
        "assets/",
        "shaders/",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| TOP.iter().any(|t| s.starts_with(t)))
        .filter(|s| !s.contains(['*', '<', '{', ' ']) && !s.contains("..."))
        .map(|s| s.trim_end_matches([',', '.', ':']).to_string())
        .collect()
}

#[test]
fn every_link_and_every_path_the_docs_name_exists() {
    let mut broken = Vec::new();
    let files = docs();
    assert!(files.len() >= 10, "{files:?}");
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let body = prose(&text);
        let dir = file.parent().unwrap_or(Path::new("."));
        let name = file
            .strip_prefix(root())
            .unwrap_or(file)
            .display()
            .to_string();
        for link in links(&body) {
            let link = link.split_whitespace().next().unwrap_or("").to_string();
            if link.contains("://") || link.starts_with("mailto:") || link.is_empty() {
                continue;
            }
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            if !target.exists() {
                broken.push(format!("{name}: link to missing {link}"));
                continue;
            }
            if !anchor.is_empty() && target.is_file() {
                let target_text = std::fs::read_to_string(&target).unwrap_or_default();
                if !anchors(&target_text).iter().any(|a| a == anchor) {
                    broken.push(format!("{name}: no heading for #{anchor} in {link}"));
                }
            }
        }
        // A path is ours when its folder is (from the root, or from the doc's own folder, as
        // in a crate's README); another project's file (`crates/bevy_time/src/fixed.rs`) is
        // named with its project, and its folders are not here.
        for path in named_paths(&body) {
            let bases: Vec<PathBuf> = [root(), dir.to_path_buf()]
                .into_iter()
                .filter(|base| {
                    Path::new(&path)
                        .parent()
                        .is_some_and(|p| base.join(p).is_dir())
                })
                .collect();
            if !bases.is_empty() && !bases.iter().any(|base| base.join(&path).exists()) {
                broken.push(format!("{name}: names missing `{path}`"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Every number the docs give for `what` (the first capture group of `pattern`).
fn stated(pattern: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for file in docs() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let words: Vec<&str> = text.split_whitespace().collect();
        for w in words.windows(2) {
            let number = w[0].trim_start_matches(['*', '(']).replace(',', "");
            if w[1].trim_end_matches(['*', ',', '.', ':', ')']) == pattern
                && number.parse::<usize>().is_ok()
            {
                out.push((name.clone(), number));
            }
        }
    }
    out
}

#[test]
fn the_figures_the_docs_state_are_the_codes() {
    let figures = [
        ("bad", crate::cli::BAD_INPUT.len()),
        ("lessons", timestep_lab::view::lessons::LESSONS.len()),
        (
            "presets",
            timestep_lab::model::lane::LaneSpec::every_preset().len(),
        ),
    ];
    for (word, actual) in figures {
        let said = stated(word);
        assert!(!said.is_empty(), "no doc states how many {word}");
        for (file, number) in said {
            assert_eq!(number, actual.to_string(), "{file} says {number} {word}");
        }
    }
}

/// The findings' tables are measured, not typed: each one sits in a block that
/// `scripts/findings.py` rewrites, named for a function the script has.
#[test]
fn every_table_of_the_findings_is_one_the_script_regenerates() {
    let doc = std::fs::read_to_string(root().join("docs/FINDINGS.md")).unwrap();
    let script = std::fs::read_to_string(root().join("scripts/findings.py")).unwrap();
    let open = "<!-- generated: python3 scripts/findings.py ";
    let mut block: Option<String> = None;
    let mut tables = 0;
    for (i, line) in doc.lines().enumerate() {
        if let Some(rest) = line.strip_prefix(open) {
            let name = rest.trim_end_matches("-->").trim().to_string();
            assert!(
                script.contains(&format!("\"{name}\":")),
                "line {}: scripts/findings.py makes no table named {name}",
                i + 1
            );
            assert!(block.is_none(), "line {}: a block inside a block", i + 1);
            block = Some(name);
        } else if line == "<!-- end generated -->" {
            assert!(
                block.take().is_some(),
                "line {}: an end with no start",
                i + 1
            );
        } else if line.starts_with('|') && block.is_none() {
            panic!(
                "docs/FINDINGS.md line {}: a table outside a generated block",
                i + 1
            );
        } else if line.starts_with("|---") {
            tables += 1;
        }
    }
    assert!(block.is_none(), "a block is never ended");
    assert!(tables >= 10, "only {tables} tables");
}
