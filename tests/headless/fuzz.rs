//! Fuzzing on the stable toolchain, every run: every bundled capture and a machine profile,
//! mutated byte by byte (flips, inserts, deletes, a line duplicated or dropped, two files
//! spliced, hostile numbers, empty and long cells, non-UTF-8 bytes), through each reader as the
//! program runs it (`timestep_lab::fuzz`, the harness the `cargo fuzz` targets share). Each must
//! return `Ok` or a one-line error naming the file, and never panic.
//!
//! The cases are a fixed number from a fixed seed, so a run is the same every time; the seeds'
//! captures are cut to their first [`SEED_LINES`] lines to keep a case small (a hang shows as a
//! test that never ends; hangs are hunted by `cargo fuzz run ... -timeout=10`, see
//! docs/RELIABILITY.md).

use timestep_lab::fuzz as harness;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use std::path::Path;

/// Cases per reader.
const CASES: u32 = 2_000;

/// Lines kept of each seed capture: every format's header, and a few dozen frames.
const SEED_LINES: usize = 48;

/// Numbers a logger, an editor or an attacker could leave in a cell.
const HOSTILE: [&str; 30] = [
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "-Infinity",
    "1e308",
    "-1e308",
    "1e309",
    "1.7976931348623157e308",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "1e19",
    "1e-320",
    "-0",
    "0",
    "-1",
    "0.0000001",
    "4e9",
    "1e12",
    "NA",
    "\"NaN\"",
    "null",
    "true",
    "[]",
    "{}",
    "\"\"",
    "0x10",
];

/// One change to a file's bytes; positions are picked in the bytes as they are by then.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(Index, u8),
    /// Bytes inserted, often not UTF-8.
    Insert(Index, Vec<u8>),
    Delete(Index, usize),
    DuplicateLine(Index),
    DropLine(Index),
    /// This file up to a point, then another seed from a point.
    Splice(Index, Index, Index),
    /// A number replaced by a hostile one.
    Number(Index, &'static str),
    /// A cell (between commas) emptied.
    EmptyCell(Index),
    /// A number replaced by a long run of one byte.
    LongCell(Index, usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 1..8),
        prop::collection::vec(0x80u8.., 1..4),
        Just(b"\xef\xbb\xbf".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\"".to_vec()),
        Just(b",".to_vec()),
        Just(b"\r\n".to_vec()),
    ];
    prop_oneof![
        (any::<Index>(), 0u8..8).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<Index>(), bytes).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<Index>(), 1usize..64).prop_map(|(i, n)| Mutation::Delete(i, n)),
        any::<Index>().prop_map(Mutation::DuplicateLine),
        any::<Index>().prop_map(Mutation::DropLine),
        (any::<Index>(), any::<Index>(), any::<Index>())
            .prop_map(|(o, a, b)| Mutation::Splice(o, a, b)),
        (any::<Index>(), prop::sample::select(&HOSTILE[..]))
            .prop_map(|(i, n)| Mutation::Number(i, n)),
        any::<Index>().prop_map(Mutation::EmptyCell),
        (
            any::<Index>(),
            1usize..4_096,
            prop::sample::select(&b"9x,\"\n"[..])
        )
            .prop_map(|(i, n, b)| Mutation::LongCell(i, n, b)),
    ]
}

/// The byte ranges of `bytes`'s numbers (runs of digits, signs, points and exponents).
fn numbers(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let part = |b: &u8| b.is_ascii_digit() || b"+-.eE".contains(b);
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && part(&bytes[i]) {
            i += 1;
        }
        if bytes[start..i].iter().any(u8::is_ascii_digit) {
            found.push(start..i);
        }
        i = i.max(start + 1);
    }
    found
}

/// The byte ranges of `bytes`'s lines, each with its newline.
fn lines(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            found.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < bytes.len() {
        found.push(start..bytes.len());
    }
    found
}

/// The byte ranges of `bytes`'s cells: what lies between commas and line ends.
fn cells(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        if matches!(b, b',' | b'\n') {
            found.push(start..i);
            start = i + 1;
        }
    }
    found.push(start..bytes.len());
    found
}

/// `bytes` with `range` replaced by `with`.
fn replaced(bytes: &[u8], range: std::ops::Range<usize>, with: &[u8]) -> Vec<u8> {
    [&bytes[..range.start], with, &bytes[range.end..]].concat()
}

/// One of `ranges`, picked by `i`, if there are any.
fn pick(ranges: Vec<std::ops::Range<usize>>, i: &Index) -> Option<std::ops::Range<usize>> {
    (!ranges.is_empty()).then(|| ranges[i.index(ranges.len())].clone())
}

/// `bytes` changed by `m`; `others` are the seeds a splice takes its tail from.
fn apply(bytes: Vec<u8>, m: &Mutation, others: &[Vec<u8>]) -> Vec<u8> {
    let at = |i: &Index| i.index(bytes.len() + 1);
    match m {
        Mutation::Flip(i, bit) if !bytes.is_empty() => {
            let mut b = bytes;
            let k = i.index(b.len());
            b[k] ^= 1 << bit;
            b
        }
        Mutation::Insert(i, with) => replaced(&bytes, at(i)..at(i), with),
        Mutation::Delete(i, n) => {
            let start = at(i);
            replaced(&bytes, start..(start + n).min(bytes.len()), b"")
        }
        Mutation::DuplicateLine(i) => match pick(lines(&bytes), i) {
            Some(line) => replaced(&bytes, line.start..line.start, &bytes[line]),
            None => bytes,
        },
        Mutation::DropLine(i) => match pick(lines(&bytes), i) {
            Some(line) => replaced(&bytes, line, b""),
            None => bytes,
        },
        Mutation::Splice(other, cut, from) => {
            let other = &others[other.index(others.len())];
            let tail = &other[from.index(other.len() + 1)..];
            [&bytes[..at(cut)], tail].concat()
        }
        Mutation::Number(i, text) => match pick(numbers(&bytes), i) {
            Some(n) => replaced(&bytes, n, text.as_bytes()),
            None => bytes,
        },
        Mutation::EmptyCell(i) => match pick(cells(&bytes), i) {
            Some(cell) => replaced(&bytes, cell, b""),
            None => bytes,
        },
        Mutation::LongCell(i, n, b) => match pick(numbers(&bytes), i) {
            Some(cell) => replaced(&bytes, cell, &vec![*b; *n]),
            None => bytes,
        },
        Mutation::Flip(..) => bytes,
    }
}

/// A bundled file, cut to its first [`SEED_LINES`] lines unless it is JSON.
fn seed(path: &str) -> Vec<u8> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let bytes = std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
    if path.ends_with(".json") {
        return bytes;
    }
    let end = lines(&bytes)
        .get(SEED_LINES - 1)
        .map_or(bytes.len(), |l| l.end);
    bytes[..end].to_vec()
}

fn presentmon(set: &str) -> Vec<Vec<u8>> {
    (0..=5)
        .map(|case| seed(&format!("tests/data/presentmon/test_case_{case}{set}.csv")))
        .collect()
}

/// Every seed, for splices.
fn every_seed() -> Vec<Vec<u8>> {
    let mut all = [presentmon(""), presentmon("_v2"), presentmon("_v1")].concat();
    all.extend(
        [
            "tests/data/fixtures/mangohud_with_info.csv",
            "tests/data/fixtures/mangohud_versioned.csv",
            "tests/data/fixtures/mangohud_plain.csv",
            "tests/data/fixtures/mangohud_with_info_summary.csv",
            "tests/data/fixtures/capframex.json",
            "fuzz/seeds/trace.csv",
            "fuzz/seeds/frame_log.csv",
            "fuzz/seeds/profile.json",
        ]
        .map(seed),
    );
    all
}

/// [`CASES`] mutants of `seeds` (one to three changes each) through `reader`, which must
/// neither panic nor return an error that is not one line naming the file.
fn fuzz(
    tag: &str,
    seeds: Vec<Vec<u8>>,
    reader: fn(&str, &[u8]) -> Result<(), harness::BrokenPromise>,
) {
    let others = every_seed();
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        rng_seed: RngSeed::Fixed(0x0071_57e9_f022),
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (0..seeds.len(), prop::collection::vec(mutation(), 1..=3));
    let result = runner.run(&strategy, |(s, mutations)| {
        let bytes = mutations
            .iter()
            .fold(seeds[s].clone(), |b, m| apply(b, m, &others));
        reader(tag, &bytes).map_err(|e| TestCaseError::fail(e.to_string()))
    });
    if let Err(e) = result {
        panic!("{tag}: {e}");
    }
}

#[test]
fn presentmon_captures_survive_mutation() {
    fuzz("test-presentmon", presentmon(""), harness::capture);
}

#[test]
fn presentmon_v2_captures_survive_mutation() {
    fuzz("test-presentmon-v2", presentmon("_v2"), harness::capture);
}

#[test]
fn presentmon_v1_captures_survive_mutation() {
    fuzz("test-presentmon-v1", presentmon("_v1"), harness::capture);
}

#[test]
fn mangohud_logs_survive_mutation() {
    let seeds = ["with_info", "versioned", "plain", "with_info_summary"]
        .map(|name| seed(&format!("tests/data/fixtures/mangohud_{name}.csv")));
    fuzz("test-mangohud", seeds.to_vec(), harness::capture);
}

#[test]
fn capframex_sessions_survive_mutation() {
    let seeds = vec![seed("tests/data/fixtures/capframex.json")];
    fuzz("test-capframex", seeds, harness::capture);
}

#[test]
fn our_traces_survive_mutation() {
    fuzz(
        "test-trace",
        vec![seed("fuzz/seeds/trace.csv")],
        harness::capture,
    );
}

#[test]
fn our_frame_logs_survive_mutation() {
    let seeds = vec![seed("fuzz/seeds/frame_log.csv")];
    fuzz("test-frame-log", seeds, harness::capture);
}

#[test]
fn machine_profiles_survive_mutation() {
    let seeds = vec![seed("fuzz/seeds/profile.json")];
    fuzz("test-profile", seeds, harness::profile);
}
