//! The real window, driven from outside, in one test binary. Every test that opens a window is
//! `#[ignore = "needs a display"]`; run them under Xvfb (`.ci/run` does):
//! `xvfb-run -a -s "-screen 0 1280x800x24 -noreset" cargo test --release --test window -- --ignored`.
//! The tests that need no display (no display found, unwritable paths) run in plain
//! `cargo test`.

// The program's own output files (its module, compiled here): the tests predict where a
// file is written before it replaces its target.
mod basics;
mod cap;
mod display;
mod ends;
mod faults;
mod lessons;
mod paint;
mod panel;
#[allow(dead_code)]
#[path = "../../src/pending.rs"]
mod pending;
mod probe;
mod replay;
mod support;
mod views;
