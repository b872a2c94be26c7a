//! The import rules ARCHITECTURE.md states, held against the source: the library's manifest
//! names no window or command-line crate (Cargo then keeps them out of its code); nothing but
//! `main.rs` imports `cli`; the rope imports no timing type; the core crate depends on nothing
//! and names nothing of the app.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, as (path from the root, its code with `//` comments removed).
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code: String = text
                    .lines()
                    .map(|l| l.split("//").next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join("\n");
                let name = path.strip_prefix(root()).unwrap().display().to_string();
                out.push((name, code));
            }
        }
    }
    out
}

/// The files under `dir` whose code names any of `words`, except those `allowed` lets by.
fn offenders(dir: &str, words: &[&str], allowed: impl Fn(&str) -> bool) -> Vec<String> {
    sources(&root().join(dir))
        .into_iter()
        .filter(|(name, _)| !allowed(name))
        .filter_map(|(name, code)| {
            let named: Vec<&&str> = words.iter().filter(|w| code.contains(**w)).collect();
            (!named.is_empty()).then(|| format!("{name}: {named:?}"))
        })
        .collect()
}

/// The names in a manifest's `[dependencies]` table.
fn dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(manifest)).unwrap();
    let deps = text
        .split("\n[dependencies]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .unwrap_or("");
    deps.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(['=', ' ']).next().map(str::to_string))
        .collect()
}

/// Cargo holds the boundary: the library cannot name a crate it does not depend on, so its
/// manifest is the one place to check.
#[test]
fn the_library_depends_on_no_window_or_command_line_crate() {
    let deps = dependencies("crates/timestep-lab/Cargo.toml");
    assert!(deps.contains(&"timestep-loop".to_string()), "{deps:?}");
    let app_only = [
        "winit",
        "pixels",
        "wgpu",
        "egui",
        "egui-wgpu",
        "egui-winit",
        "clap",
        "clap_complete",
        "clap_mangen",
        "plotters",
        "indicatif",
        "ctrlc",
    ];
    let found: Vec<&String> = deps
        .iter()
        .filter(|d| app_only.contains(&d.as_str()))
        .collect();
    assert!(found.is_empty(), "the library depends on {found:?}");
}

#[test]
fn nothing_but_main_imports_cli() {
    let found = offenders("src", &["cli::"], |f| {
        f.starts_with("src/cli/") || f == "src/main.rs"
    });
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_rope_imports_no_timing_type() {
    let words = [
        "crate::lane",
        "crate::simulate",
        "crate::frame",
        "Stepper",
        "Loop",
        "TimingConfig",
        "Pacer",
        "Timer",
        "Mode",
    ];
    let found = offenders("crates/timestep-lab/src/rope", &words, |_| false);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_core_crate_depends_on_nothing_and_names_nothing_of_the_app() {
    let entries = dependencies("crates/timestep-loop/Cargo.toml");
    assert!(entries.is_empty(), "the core crate depends on {entries:?}");
    let found = offenders(
        "crates/timestep-loop/src",
        &[
            "timestep_lab",
            "timestep_rope",
            "winit",
            "wgpu",
            "clap",
            "serde",
        ],
        |_| false,
    );
    assert!(found.is_empty(), "{found:#?}");
}
