//! The default text output's width: every line of `simulate`, `sweep` and `replay`'s tables fits
//! [`COLUMNS`] characters unless `--wide` is given. Tables pick narrow columns themselves; prose
//! lines longer than that are wrapped here at spaces.

use std::io::{self, Write};

/// The widest line of the default (narrow) output, in characters.
pub const COLUMNS: usize = 100;

/// Writes the text `write` produces to `out`: as it is when `wide`, else with every line longer
/// than [`COLUMNS`] characters wrapped (see [`wrap`]).
pub fn write_fitted(
    out: &mut impl Write,
    wide: bool,
    write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>,
) -> io::Result<()> {
    let mut text = Vec::new();
    write(&mut text)?;
    if wide {
        return out.write_all(&text);
    }
    let text = String::from_utf8_lossy(&text);
    for line in text.lines() {
        for part in wrap(line, COLUMNS) {
            writeln!(out, "{part}")?;
        }
    }
    Ok(())
}

/// `line` cut into lines of at most `width` characters: at the last space that fits outside
/// parentheses (inside them only when no such space fits, as when the parenthesised run alone is
/// longer than a line), the rest indented two more than `line`; a word longer than a line is cut
/// where the line ends.
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let indent = line
        .chars()
        .take_while(|c| *c == ' ')
        .count()
        .min(width / 2)
        + 2;
    let mut parts = Vec::new();
    let mut rest: Vec<char> = line.chars().collect();
    while rest.len() > width {
        let fits = |i: &usize| rest[..*i].iter().any(|c| *c != ' ');
        let spaces = || (0..=width).rev().filter(|&i| rest[i] == ' ');
        let outside = paren_depths(&rest[..=width]);
        let cut = spaces()
            .filter(|&i| outside[i] == 0)
            .find(fits)
            .or_else(|| spaces().find(fits))
            .unwrap_or(width);
        let head: String = rest[..cut].iter().collect();
        parts.push(head.trim_end().to_string());
        let tail = rest[cut..].iter().skip_while(|c| **c == ' ');
        rest = std::iter::repeat_n(' ', indent)
            .chain(tail.copied())
            .collect();
        if rest.len() <= indent {
            rest.clear();
        }
    }
    if !rest.is_empty() || parts.is_empty() {
        parts.push(rest.iter().collect());
    }
    parts
}

/// How many parentheses are open at each of `chars` (a stray `)` closes nothing).
fn paren_depths(chars: &[char]) -> Vec<usize> {
    let mut depth = 0usize;
    chars
        .iter()
        .map(|c| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_is_kept_as_it_is() {
        assert_eq!(wrap("  a b", 10), vec!["  a b"]);
        assert_eq!(wrap("", 10), vec![""]);
    }

    #[test]
    fn a_long_line_breaks_at_spaces_and_indents_the_rest() {
        let parts = wrap("  alpha beta gamma delta", 12);
        assert_eq!(parts, vec!["  alpha beta", "    gamma", "    delta"]);
    }

    #[test]
    fn a_word_longer_than_a_line_is_cut() {
        let parts = wrap("abcdefghijkl", 5);
        assert!(parts.iter().all(|p| p.chars().count() <= 5), "{parts:?}");
        assert_eq!(parts.concat().replace(' ', ""), "abcdefghijkl");
    }

    #[test]
    fn a_parenthesised_phrase_moves_to_the_next_line_whole() {
        let parts = wrap("fallen behind at 39 rates (30-67 Hz)", 34);
        assert_eq!(parts, vec!["fallen behind at 39 rates", "  (30-67 Hz)"]);
        // Unless the run in parentheses is longer than a line: then it breaks inside.
        let parts = wrap("x (a b c d e f g h)", 8);
        assert!(parts.iter().all(|p| p.chars().count() <= 8), "{parts:?}");
        assert_eq!(parts.concat().replace(' ', ""), "x(abcdefgh)");
    }

    #[test]
    fn characters_are_counted_not_bytes() {
        assert_eq!(wrap("±±±±±", 5), vec!["±±±±±"]);
    }
}
