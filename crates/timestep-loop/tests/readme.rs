//! The crate's README pastes: every Rust snippet in it is a whole program as shown (no lines
//! hidden from the reader, as rustdoc's `# ` lines are: they fail when pasted), and says what
//! it demonstrates when run. The README is the crate's doc, so `cargo test --doc` compiles and
//! runs each snippet exactly as a reader sees it.

const README: &str = include_str!("../README.md");

/// The README's ```rust blocks.
fn snippets() -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in README.lines() {
        match (&mut current, line.trim_start()) {
            (None, l) if l.starts_with("```rust") => current = Some(String::new()),
            (Some(_), l) if l.starts_with("```") => out.extend(current.take()),
            (Some(code), _) => {
                code.push_str(line);
                code.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

#[test]
fn every_snippet_is_a_whole_program_that_says_what_it_shows() {
    let snippets = snippets();
    assert!(snippets.len() >= 2, "{snippets:?}");
    for code in snippets {
        let hidden = code.lines().find(|l| {
            let l = l.trim_start();
            l == "#" || l.starts_with("# ")
        });
        assert_eq!(hidden, None, "a line hidden from the reader in:\n{code}");
        assert!(code.contains("fn main"), "not a whole program:\n{code}");
        assert!(
            code.contains("println!"),
            "prints nothing when run:\n{code}"
        );
    }
}
