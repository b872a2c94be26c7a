//! The import rules ARCHITECTURE.md states, held against the source: only `src/app/` names
//! winit, pixels, wgpu or egui; nothing but `main.rs` imports `cli`; the rope imports no timing
//! type; the core crate depends on nothing and names nothing of the app.

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

#[test]
fn only_the_app_names_winit_pixels_wgpu_or_egui() {
    let words = [
        "winit::",
        "pixels::",
        "wgpu::",
        "egui::",
        "egui_winit::",
        "egui_wgpu::",
        "egui_kittest::",
        "use winit",
        "use pixels",
        "use wgpu",
        "use egui",
    ];
    let found = offenders("src", &words, |f| f.starts_with("src/app/"));
    assert!(found.is_empty(), "{found:#?}");
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
    let found = offenders("src/rope", &words, |_| false);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_core_crate_depends_on_nothing_and_names_nothing_of_the_app() {
    let manifest = std::fs::read_to_string(root().join("crates/timestep-loop/Cargo.toml")).unwrap();
    let deps = manifest
        .split("[dependencies]")
        .nth(1)
        .and_then(|rest| rest.split('[').next())
        .unwrap_or("");
    let entries: Vec<&str> = deps
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(entries.is_empty(), "the core crate depends on {entries:?}");
    let found = offenders(
        "crates/timestep-loop/src",
        &["timestep_rope", "winit", "wgpu", "clap", "serde"],
        |_| false,
    );
    assert!(found.is_empty(), "{found:#?}");
}
