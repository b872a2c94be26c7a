//! Every WGSL file the window uses lives in `shaders/`; each must parse and validate with
//! naga (the compiler wgpu itself runs), so a broken shader fails `cargo test`, not the
//! first launch on someone's GPU. No GPU needed.

use naga::valid::{Capabilities, ValidationFlags, Validator};
use std::path::PathBuf;

fn wgsl_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "wgsl"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_shaders_directory_is_not_empty() {
    assert!(!wgsl_files().is_empty(), "no *.wgsl in shaders/");
}

#[test]
fn every_shader_parses_and_validates() {
    for path in wgsl_files() {
        let source = std::fs::read_to_string(&path).expect("readable shader");
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{}:\n{}", path.display(), e.emit_to_string(&source)));
        Validator::new(ValidationFlags::all(), Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{}:\n{}", path.display(), e.emit_to_string(&source)));
    }
}

#[test]
fn the_present_shader_has_the_entry_points_the_app_binds() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("shaders/present.wgsl");
    let source = std::fs::read_to_string(path).expect("shaders/present.wgsl");
    let module = naga::front::wgsl::parse_str(&source).expect("parses");
    let names: Vec<&str> = module
        .entry_points
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert!(
        names.contains(&"vs_main") && names.contains(&"fs_main"),
        "{names:?}"
    );
}
