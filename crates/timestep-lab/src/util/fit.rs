//! The default text output's width: every line of `simulate`, `sweep` and `replay`'s tables fits
//! [`COLUMNS`] characters unless `--wide` is given. Tables pick narrow columns themselves; prose
//! lines longer than that are wrapped here at spaces.

/// The widest line of the default (narrow) output, in characters.
pub const COLUMNS: usize = 100;

/// Rows of cells laid out as a table: each column as wide as its widest cell and at least its
/// `widths[i]`, left- or right-aligned by `right[i]`, columns at least `gap` spaces apart, each
/// line's trailing spaces trimmed; so a figure wider than its column's usual width moves the
/// column over rather than running into the next figure.
pub fn columns(rows: &[Vec<String>], widths: &[usize], right: &[bool], gap: usize) -> Vec<String> {
    let mut w = widths.to_vec();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            let len = cell.chars().count();
            match w.get_mut(i) {
                Some(width) => *width = (*width).max(len),
                None => w.push(len),
            }
        }
    }
    rows.iter()
        .map(|row| {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                let pad = w[i].saturating_sub(cell.chars().count());
                let sep = if i + 1 < row.len() { gap } else { 0 };
                if right.get(i).copied().unwrap_or(false) {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line += cell;
                    line.extend(std::iter::repeat_n(' ', sep));
                } else {
                    line += cell;
                    line.extend(std::iter::repeat_n(' ', pad + sep));
                }
            }
            line.trim_end().to_string()
        })
        .collect()
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
        // A gap of two or more spaces is a table's column gap: cut there first, in the line's
        // second half, so that no cell ("0.4815 / 16.6667", "yes, 60.00 Hz at 1.3s") is split.
        let gap = |i: &usize| *i > width / 2 && rest[*i - 1] == ' ';
        let cut = spaces()
            .filter(|&i| outside[i] == 0)
            .filter(gap)
            .find(fits)
            .or_else(|| spaces().filter(|&i| outside[i] == 0).find(fits))
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

/// A line ending in a command for the user to paste (`For a verdict: timestep-rope advise
/// ...`), in lines of at most `width` characters that paste as one command: as it is if it fits;
/// else the command starts a line of its own and breaks only before a `--flag`, each line but
/// the last ending in ` \` (a shell's line continuation), so no argument is split from its flag
/// or its value.
pub fn command_lines(line: &str, width: usize) -> Vec<String> {
    if line.chars().count() <= width {
        return vec![line.to_string()];
    }
    let (lead, command) = match line.find("timestep-rope ") {
        Some(at) => (line[..at].trim_end(), &line[at..]),
        None => ("", line),
    };
    let mut out: Vec<String> = Vec::new();
    if !lead.is_empty() {
        out.push(lead.to_string());
    }
    // The command's groups: the program and its subcommand, then each flag with its values.
    let mut groups: Vec<String> = Vec::new();
    for word in command.split(' ').filter(|w| !w.is_empty()) {
        match groups.last_mut() {
            Some(last) if !word.starts_with("--") => {
                last.push(' ');
                last.push_str(word);
            }
            _ => groups.push(word.to_string()),
        }
    }
    let mut current = "  ".to_string();
    for group in groups {
        let fits = current.chars().count() + 1 + group.chars().count() + 2 <= width;
        if current.trim().is_empty() || fits {
            if !current.trim().is_empty() {
                current.push(' ');
            }
            current.push_str(&group);
        } else {
            out.push(format!("{current} \\"));
            current = format!("    {group}");
        }
    }
    out.push(current);
    out
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
    fn a_figure_wider_than_its_column_moves_the_column_and_never_runs_into_the_next() {
        let rows = |a: &str, b: &str| {
            vec![
                vec!["lane".to_string(), "simulated".into(), "dropped".into()],
                vec!["fixed".into(), a.to_string(), b.to_string()],
            ]
        };
        let usual = columns(
            &rows("2891.000000", "0.000000"),
            &[6, 12, 10],
            &[false, true, true],
            1,
        );
        assert_eq!(
            usual,
            [
                "lane      simulated    dropped",
                "fixed   2891.000000   0.000000"
            ]
        );
        let wide = rows("1092266.622976999998", "907733.375488");
        let wide = columns(&wide, &[6, 12, 10], &[false, true, true], 1);
        assert_eq!(
            wide,
            [
                "lane              simulated       dropped",
                "fixed  1092266.622976999998 907733.375488"
            ]
        );
    }

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
    fn a_command_breaks_only_before_a_flag_and_pastes_as_one() {
        let line = "For a verdict: timestep-rope advise --display-hz 144 --seconds 20 --dt 60hz";
        assert_eq!(command_lines(line, 100), vec![line]);
        let parts = command_lines(line, 40);
        assert_eq!(parts[0], "For a verdict:");
        assert!(parts.iter().all(|p| p.chars().count() <= 40), "{parts:?}");
        for part in &parts[1..parts.len() - 1] {
            assert!(part.ends_with(" \\"), "{part}");
        }
        // Joined as a shell joins continued lines, it is the command again.
        let joined = parts[1..].join("\n").replace(" \\\n", " ");
        let words: Vec<&str> = joined.split_whitespace().collect();
        assert_eq!(words.join(" "), line["For a verdict: ".len()..]);
        // No flag ends a line, parted from its value.
        for part in &parts {
            let last = part.trim_end_matches(" \\").split_whitespace().last();
            assert!(!last.is_some_and(|w| w.starts_with("--")), "{part}");
        }
    }

    #[test]
    fn a_table_row_breaks_between_cells_not_inside_one() {
        let row = "godot   ok   0.4815 / 16.6667   yes, 60.00 Hz at 1.3s";
        let parts = wrap(row, 40);
        assert_eq!(
            parts,
            vec!["godot   ok   0.4815 / 16.6667", "  yes, 60.00 Hz at 1.3s"]
        );
    }

    #[test]
    fn characters_are_counted_not_bytes() {
        assert_eq!(wrap("±±±±±", 5), vec!["±±±±±"]);
    }
}
