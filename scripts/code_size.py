#!/usr/bin/env python3
"""Counts what issue 39 asks to keep small: non-test lines per crate, functions over 60 lines
and files over 800 lines, in code that is not a test.

    python3 scripts/code_size.py            # the table
    python3 scripts/code_size.py --long     # and every function over 60 lines

Test code is left out: files named tests.rs or *_tests.rs, anything under a tests/ or benches/
directory, modules declared behind `#[cfg(test)]`, and every item behind `#[cfg(test)]` (found
by matching its braces). Blank lines and
comment-only lines are not counted as lines. A function's length is from its `fn` line to its
closing brace. Braces inside strings, chars and comments are skipped, roughly: good enough to
compare a tree with itself, not a Rust parser.
"""

import re
import sys
from pathlib import Path

ROOTS = {
    "core (crates/timestep-loop)": "crates/timestep-loop/src",
    "library (crates/timestep-lab)": "crates/timestep-lab/src",
    "binary (src)": "src",
}
LONG_FN = 60
LONG_FILE = 800
FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")


def code_only(text):
    """The text with strings, chars and comments blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or text.startswith('r"', i) or text.startswith("r#", i):
            j = skip_string(text, i)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]):
            m = re.match(r"'(\\.|[^\\'])'", text[i:i + 4])
            out.append(" " * m.end())
            i += m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_string(text, i):
    if text[i] == "r":
        m = re.match(r'r(#*)"', text[i:])
        if not m:
            return i + 1
        end = '"' + m.group(1)
        j = text.find(end, i + m.end())
        return len(text) if j < 0 else j + len(end)
    j = i + 1
    while j < len(text) and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return j + 1


def closing(code, start):
    """The index of the brace closing the first `{` at or after start."""
    depth, i = 0, code.find("{", start)
    if i < 0:
        return len(code)
    while i < len(code):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(code)


def without_tests(code):
    """Blanks every item behind #[cfg(test)]."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]", code)
        if not m:
            return code
        end = closing(code, m.end())
        semi = code.find(";", m.end())
        if 0 <= semi < code.find("{", m.end()):
            end = semi
        code = code[: m.start()] + re.sub(r"[^\n]", " ", code[m.start(): end + 1]) + code[end + 1:]


def is_test_file(path):
    return (path.name in ("tests.rs",) or path.stem.endswith("_tests")
            or "tests" in path.parts or "benches" in path.parts)


def test_modules(paths):
    """Files of modules declared behind #[cfg(test)] (`#[cfg(test)] mod preview;`)."""
    tests = set()
    for path in paths:
        for name in re.findall(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;",
                               path.read_text()):
            home = path.parent if path.name in ("mod.rs", "lib.rs", "main.rs") \
                else path.parent / path.stem
            tests.add(home / f"{name}.rs")
            tests.update((home / name).rglob("*.rs"))
    return tests


def measure(root):
    lines, long_fns, long_files = 0, [], []
    paths = sorted(Path(root).rglob("*.rs"))
    tests = test_modules(paths)
    for path in paths:
        if is_test_file(path) or path in tests:
            continue
        code = without_tests(code_only(path.read_text()))
        rows = code.split("\n")
        count = sum(1 for r in rows if r.strip())
        lines += count
        if count > LONG_FILE:
            long_files.append((count, str(path)))
        for k, row in enumerate(rows):
            m = FN.match(row)
            if not m:
                continue
            start = sum(len(r) + 1 for r in rows[:k])
            brace, semi = code.find("{", start), code.find(";", start)
            if brace < 0 or 0 <= semi < brace:
                continue
            end = code.count("\n", 0, closing(code, start)) + 1
            if end - k > LONG_FN:
                long_fns.append((end - k, f"{path}:{k + 1} {m.group(6)}"))
    return lines, long_fns, long_files


def main():
    show_long = "--long" in sys.argv
    every_fn, every_file, total = [], [], 0
    print(f"{'crate':32} {'lines':>7} {'fns>60':>7} {'files>800':>10}")
    for label, root in ROOTS.items():
        lines, fns, files = measure(root)
        total += lines
        every_fn += fns
        every_file += files
        print(f"{label:32} {lines:>7} {len(fns):>7} {len(files):>10}")
    print(f"{'all':32} {total:>7} {len(every_fn):>7} {len(every_file):>10}")
    if show_long:
        for n, where in sorted(every_fn, reverse=True):
            print(f"{n:>5}  {where}")
        for n, where in sorted(every_file, reverse=True):
            print(f"{n:>5}  {where} (file)")


if __name__ == "__main__":
    main()
