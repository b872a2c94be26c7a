//! The import rules ARCHITECTURE.md states, held against the source: the library's manifest
//! names no window or command-line crate (Cargo then keeps them out of its code), nor does
//! display-feedback's, which holds the only unsafe code; nothing but `main.rs` imports `cli`;
//! the rope imports no timing type; the core crate depends on nothing and names nothing of the
//! app.

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

/// The display-feedback crate takes raw-window-handle's handles, so it names no window,
/// GPU, UI or command-line crate in any of its dependency tables.
#[test]
fn display_feedback_depends_on_no_window_gpu_ui_or_command_line_crate() {
    let text = std::fs::read_to_string(root().join("crates/display-feedback/Cargo.toml")).unwrap();
    let named: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#') && !l.starts_with('['))
        .filter_map(|l| l.split(['=', ' ']).next())
        .collect();
    assert!(named.contains(&"raw-window-handle"), "{named:?}");
    let banned = ["winit", "pixels", "wgpu", "egui", "clap", "plotters"];
    let found: Vec<&&str> = named
        .iter()
        .filter(|n| banned.iter().any(|b| n.starts_with(b)))
        .collect();
    assert!(found.is_empty(), "display-feedback depends on {found:?}");
}

/// The workspace forbids unsafe code, but for display-feedback, whose manifest denies it and
/// allows it on exactly two calls in `wayland.rs` (binding the window's own Wayland display and
/// surface), each with its SAFETY argument.
#[test]
fn the_only_unsafe_code_is_display_feedbacks_two_wayland_calls() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(manifest.contains("unsafe_code = \"forbid\""));
    let own = std::fs::read_to_string(root().join("crates/display-feedback/Cargo.toml")).unwrap();
    assert!(own.contains("unsafe_code = \"deny\""), "{own}");
    let mut found = Vec::new();
    for dir in ["src", "tests", "benches", "crates"] {
        for (name, code) in sources(&root().join(dir)) {
            // This file names the word in its checks.
            if name.ends_with("architecture.rs") {
                continue;
            }
            let uses = code.matches("unsafe {").count() + code.matches("unsafe fn").count();
            if uses > 0 {
                found.push((name.clone(), uses));
            }
            if name.starts_with("crates/display-feedback/") {
                let text = std::fs::read_to_string(root().join(&name)).unwrap();
                let allows = text.matches("#[allow(unsafe_code)]").count();
                let safety = text.matches("// SAFETY:").count();
                assert_eq!((allows, safety), (uses, uses), "{name}");
            }
        }
    }
    assert_eq!(
        found,
        [("crates/display-feedback/src/wayland.rs".to_string(), 2)],
        "unsafe code outside display-feedback's two calls"
    );
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
        "crate::model::lane",
        "crate::hosts::simulate",
        "crate::protocol::frame",
        "Stepper",
        "Loop",
        "TimingConfig",
        "Pacer",
        "Timer",
        "Mode",
    ];
    let found = offenders("crates/timestep-lab/src/model/rope", &words, |_| false);
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

/// The library's tiers, each standing only on those before it (lib.rs's table).
const TIERS: [&str; 6] = ["util", "model", "view", "protocol", "hosts", "analyses"];

/// The library's modules (`tier::module`) each imports (`crate::tier::module` in its code,
/// tests included).
fn module_imports() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let dir = root().join("crates/timestep-lab/src");
    let module_of = |file: &str| {
        let rest = file
            .strip_prefix("crates/timestep-lab/src/")
            .unwrap_or(file);
        let parts: Vec<&str> = rest.splitn(3, '/').collect();
        let name = parts[..parts.len().min(2)].join("::");
        name.strip_suffix(".rs").unwrap_or(&name).to_string()
    };
    let files = sources(&dir);
    let modules: std::collections::BTreeSet<String> = files
        .iter()
        .map(|(name, _)| module_of(name))
        .filter(|m| m.contains("::"))
        .collect();
    let mut graph = std::collections::BTreeMap::new();
    for (name, code) in &files {
        let from = module_of(name);
        let deps: &mut std::collections::BTreeSet<String> = graph.entry(from.clone()).or_default();
        for part in code.split("crate::").skip(1) {
            let to: String = part
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_' || *c == ':')
                .collect::<String>()
                .splitn(3, "::")
                .take(2)
                .collect::<Vec<_>>()
                .join("::");
            if to != from && modules.contains(&to) {
                deps.insert(to);
            }
        }
    }
    graph
}

/// The tier a module (`tier::module`) is in, by its place in [`TIERS`].
fn tier(module: &str) -> usize {
    let name = module.split("::").next().unwrap_or(module);
    TIERS.iter().position(|t| *t == name).unwrap_or(usize::MAX)
}

#[test]
fn every_tier_imports_only_the_tiers_before_it() {
    let graph = module_imports();
    let upward: Vec<String> = graph
        .iter()
        .flat_map(|(from, deps)| {
            deps.iter()
                .filter(|to| tier(to) > tier(from))
                .map(move |to| format!("{from} -> {to}"))
        })
        .collect();
    assert!(upward.is_empty(), "imports up the tiers: {upward:#?}");
    // Every module is in a tier (the fuzz harness, behind its feature, is no module of one).
    let outside: Vec<&String> = graph
        .keys()
        .filter(|m| tier(m) == usize::MAX && *m != "lib" && !m.starts_with("fuzz"))
        .collect();
    assert!(outside.is_empty(), "{outside:?}");
    assert!(
        graph["hosts::simulate"].contains("model::lane"),
        "{graph:?}"
    );
}

#[test]
fn the_librarys_modules_import_each_other_without_a_cycle() {
    let graph = module_imports();
    // Depth-first, keeping the path: a module met again on its own path closes a cycle.
    fn visit(
        m: &str,
        graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut cycle = path[at..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if !done.insert(m.to_string()) {
            return None;
        }
        path.push(m.to_string());
        for d in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(d, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = std::collections::BTreeSet::new();
    for m in graph.keys() {
        let cycle = visit(m, &graph, &mut Vec::new(), &mut done);
        assert!(
            cycle.is_none(),
            "an import cycle: {}",
            cycle.unwrap_or_default().join(" -> ")
        );
    }
    // The graph is not empty: the test sees the modules it checks.
    assert!(
        graph["hosts::simulate"].contains("model::lane"),
        "{graph:?}"
    );
}
