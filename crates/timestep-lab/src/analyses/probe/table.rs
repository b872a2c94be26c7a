//! `probe`'s readable table: what was measured and how long it took, the clock, what the OS
//! and spin_sleep say, then a row per sleep request and a row per present mode.

use super::measure::BATCH;
use super::report::{Facts, OvershootRow, PresentsReport, ProbeReport, SleepRow, micros};
use std::io::{self, Write};

/// The readable table: what was measured, the clock, the sleeps, the presents.
pub fn write_table(out: &mut impl Write, r: &ProbeReport, facts: &Facts) -> io::Result<()> {
    let after = if r.presents.is_some() {
        ", after the presents"
    } else {
        ""
    };
    writeln!(
        out,
        "{}: took {:.2} s ({} s for the clock and sleeps{after})",
        facts.name, r.took_s, r.budget_s
    )?;
    write_clock(out, r, facts)?;
    if !r.sleeps.is_empty() {
        writeln!(out)?;
        write_sleeps(out, &r.sleeps)?;
    }
    if let Some(p) = &r.presents {
        writeln!(out)?;
        write_presents(out, p)?;
    }
    if r.interrupted {
        writeln!(
            out,
            "interrupted after {:.2} s: the figures above cover what ran",
            r.took_s
        )?;
    }
    Ok(())
}

fn write_clock(out: &mut impl Write, r: &ProbeReport, facts: &Facts) -> io::Result<()> {
    match &r.clock {
        Some(c) => {
            let batches = c.reads / BATCH as u64;
            writeln!(
                out,
                "clock: one Instant::now() costs {:.1} ns (median over {batches} batches of {BATCH} \
                 reads)",
                c.read_ns
            )?;
            writeln!(
                out,
                "clock resolution: {} ns (the smallest step seen between two readings)",
                c.resolution_ns
            )?;
        }
        None => writeln!(
            out,
            "clock and sleeps: not measured (interrupted before them)"
        )?,
    }
    match facts.timer_slack {
        Some((ns, from)) => writeln!(out, "timer slack: {:.1} µs ({from})", micros(ns))?,
        None => writeln!(out, "timer slack: not reported")?,
    }
    writeln!(
        out,
        "spin_sleep threshold: {:.0} µs (spin_sleep's setting on this OS, not a measurement)",
        micros(facts.spin_threshold_ns)
    )
}

/// The sleeps table's columns: heading and width.
const SLEEP_COLUMNS: [(&str, usize); 8] = [
    ("request", 8),
    ("samples", 9),
    ("native p50", 10),
    ("p99", 8),
    ("max", 8),
    ("spin p50", 8),
    ("p99", 8),
    ("max", 8),
];

/// The presents table's columns: heading and width (the first left-aligned).
const PRESENT_COLUMNS: [(&str, usize); 7] = [
    ("mode", 12),
    ("count", 6),
    ("median", 8),
    ("p5", 8),
    ("p95", 8),
    ("max", 8),
    ("skipped", 7),
];

/// One line of a table: each cell right-aligned in its column but a `left` first one, two
/// spaces between.
fn line<const N: usize>(columns: &[(&str, usize); N], cells: [String; N], left: bool) -> String {
    let mut text = String::new();
    for (i, ((_, w), cell)) in columns.iter().zip(cells).enumerate() {
        let gap = if i == 0 { "" } else { "  " };
        text += &if i == 0 && left {
            format!("{gap}{cell:<w$}")
        } else {
            format!("{gap}{cell:>w$}")
        };
    }
    text
}

fn headings<const N: usize>(columns: &[(&str, usize); N]) -> [String; N] {
    columns.map(|(head, _)| head.to_string())
}

fn write_sleeps(out: &mut impl Write, rows: &[SleepRow]) -> io::Result<()> {
    writeln!(out, "sleep overshoot (woke - asked), µs")?;
    writeln!(
        out,
        "{}",
        line(&SLEEP_COLUMNS, headings(&SLEEP_COLUMNS), false)
    )?;
    for row in rows {
        let (n, s) = (row.native, row.spin);
        let count = |o: Option<OvershootRow>| o.map_or(0, |o| o.samples);
        let samples = if count(n) == count(s) {
            count(n).to_string()
        } else {
            format!("{}/{}", count(n), count(s))
        };
        let cells = |o: Option<OvershootRow>| match o {
            Some(o) => [o.p50_us, o.p99_us, o.max_us].map(|v| format!("{v:.1}")),
            None => ["-", "-", "-"].map(String::from),
        };
        let ([n50, n99, nmax], [s50, s99, smax]) = (cells(n), cells(s));
        let request = format!("{} ms", row.request_us / 1e3);
        let cells = [request, samples, n50, n99, nmax, s50, s99, smax];
        writeln!(out, "{}", line(&SLEEP_COLUMNS, cells, false))?;
    }
    let early: u64 = rows
        .iter()
        .flat_map(|r| [r.native, r.spin])
        .map(|o| o.map_or(0, |o| o.early))
        .sum();
    if early > 0 {
        writeln!(
            out,
            "{early} sleeps woke before their request was up (counted as overshoot 0)"
        )?;
    }
    Ok(())
}

fn write_presents(out: &mut impl Write, p: &PresentsReport) -> io::Result<()> {
    writeln!(
        out,
        "presents in a {} window, {} s per mode: from one present to the next, ms",
        p.window, p.per_mode_s
    )?;
    let heads = headings(&PRESENT_COLUMNS);
    writeln!(out, "{}", line(&PRESENT_COLUMNS, heads, true))?;
    for m in &p.modes {
        let [median, p5, p95, max] = match m.interval_ms {
            Some(i) => [i.median_ms, i.p5_ms, i.p95_ms, i.max_ms].map(|v| format!("{v:.3}")),
            None => ["-", "-", "-", "-"].map(String::from),
        };
        let (count, skipped) = (m.count.to_string(), m.skipped.to_string());
        let cells = [m.mode.clone(), count, median, p5, p95, max, skipped];
        writeln!(out, "{}", line(&PRESENT_COLUMNS, cells, true))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::probe::report::fixtures::*;

    #[test]
    fn the_table_shows_the_measured_figures() {
        let r = ProbeReport::new(
            &facts(),
            Some(&measured()),
            Some((&presents(), 3_000_000_000)),
            10_000_000_000,
            9_870_000_000,
        );
        let mut text = Vec::new();
        write_table(&mut text, &r, &facts()).unwrap();
        let text = String::from_utf8(text).unwrap();
        let expected = "\
probe of a test machine: took 9.87 s (10 s for the clock and sleeps, after the presents)
clock: one Instant::now() costs 21.5 ns (median over 4 batches of 1000 reads)
clock resolution: 20 ns (the smallest step seen between two readings)
timer slack: 50.0 µs (/proc/self/timerslack_ns)
spin_sleep threshold: 125 µs (spin_sleep's setting on this OS, not a measurement)

sleep overshoot (woke - asked), µs
 request    samples  native p50       p99       max  spin p50       p99       max
  0.1 ms        100       100.0     148.0     149.0       0.1       0.1       0.1
    5 ms        100       100.0     148.0     149.0       0.1       0.1       0.1
2 sleeps woke before their request was up (counted as overshoot 0)

presents in a 640x400 window, 3 s per mode: from one present to the next, ms
mode           count    median        p5       p95       max  skipped
Fifo               3    16.500    16.000    17.000    17.000        0
Mailbox            0         -         -         -         -        2
";
        assert_eq!(text, expected);
    }

    #[test]
    fn an_interrupted_probe_says_what_it_did_not_measure() {
        let mut m = measured();
        m.sleeps.interrupted = true;
        let r = ProbeReport::new(&facts(), Some(&m), None, 10_000_000_000, 1_230_000_000);
        let mut text = Vec::new();
        write_table(&mut text, &r, &facts()).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.ends_with("interrupted after 1.23 s: the figures above cover what ran\n"));
        let before = ProbeReport::new(&facts(), None, None, 10_000_000_000, 0);
        let mut text = Vec::new();
        write_table(&mut text, &before, &facts()).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("\nclock and sleeps: not measured (interrupted before them)\n"));
    }
}
