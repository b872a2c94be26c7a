//! Text a file or a command line gave, as the program quotes it in what it says: short, one
//! line, and with every character that could move the cursor or reorder the line escaped.

/// The most characters of a value an error quotes.
const QUOTED_CHARS: usize = 40;

/// A value from a file as an error quotes it: at most 40 characters, the rest elided with the
/// value's length, so one bad cell (a million digits) never makes a long line; what it holds
/// [`shown`] as text.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => shown(text).into_owned(),
        Some((cut, _)) => format!("{}... ({} bytes)", shown(&text[..cut]), text.len()),
    }
}

/// Text a file or a command line gave (an application's name, a path) as the program prints
/// it: every control character (ESC, CR, LF, BEL, DEL and the C1 set) and every character that
/// reorders text on screen (the bidirectional marks, embeddings, overrides and isolates) written
/// as its escape (`\u{1b}`, `\r`, `\n`), so that what a capture says can never move the
/// cursor, recolour the terminal or fake a line of the report. Anything else is as it was.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(unprintable) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unprintable(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `c` is a control character or one that reorders the text around it: what [`shown`]
/// escapes.
pub fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// A number read from a file as an error quotes it: as written for ordinary magnitudes, in
/// exponent form past 1e15 (1e308 is "1e308", not 309 digits).
pub fn quoted_number(v: f64) -> String {
    if v.is_finite() && v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// `message` on one line: its own line breaks become spaces, and any other control character
/// (from a file it quotes) is [`shown`] as its escape.
pub fn one_line(message: &str) -> String {
    shown(&message.trim_end().replace(['\n', '\r'], " ")).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_reordering_characters_are_shown_as_escapes_and_the_rest_as_it_is() {
        assert_eq!(shown("game.exe"), "game.exe");
        assert_eq!(shown("spiel-ü 游戏"), "spiel-ü 游戏");
        assert_eq!(
            shown("a\x1b[31mb\r\nc\u{7f}\u{9b}d\u{202e}e\u{2066}"),
            r"a\u{1b}[31mb\r\nc\u{7f}\u{9b}d\u{202e}e\u{2066}"
        );
        assert_eq!(
            one_line("no frames of 'x\x1b[2J'\nx"),
            r"no frames of 'x\u{1b}[2J' x"
        );
    }

    #[test]
    fn a_quoted_value_is_short_whatever_the_file_holds() {
        assert_eq!(quoted("16.6"), "16.6");
        let long = "9".repeat(1_000_000);
        let q = quoted(&long);
        assert!(q.len() < 80 && q.ends_with("(1000000 bytes)"), "{q}");
        assert_eq!(quoted_number(1e308), "1e308");
        assert_eq!(quoted_number(16.6), "16.6");
        assert_eq!(quoted_number(-2.5e20), "-2.5e20");
    }
}
