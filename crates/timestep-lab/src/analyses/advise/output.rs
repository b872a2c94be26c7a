//! The verdict, as a screen of text (every line within [`crate::util::fit::COLUMNS`]) or as one JSON
//! object: the recommended loop and the runner-up with what each costs, the ranking and the rule
//! it follows, the lanes dropped, and the settings that get the pick in the user's engine.

use super::{AdviseConfig, Engine, Measured, RULE, Run, STUTTER_STEP_MS, Situation};
use crate::util::fit::COLUMNS;
use serde::Serialize;
use std::io::{self, Write};

/// How many ranked loops the text shows (`--json` has them all).
pub const SHOWN: usize = 8;

/// One loop that held, where the rule put it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    /// Its place, 1 for the best.
    pub rank: usize,
    /// The lane, as named.
    pub lane: String,
    /// The tick it ran at, as `--dt` takes it (a preset's is also in its name: `+tick=`;
    /// "frame" for variable steps).
    pub tick: String,
    /// The tick, s.
    pub tick_s: f64,
    /// Ticks it ran a second.
    pub ticks_per_s: f64,
    /// Frames it showed a second.
    pub fps: f64,
    /// The pacing it ran under.
    pub pacing: String,
    /// Its stutter, rms, ms.
    pub stutter_rms_ms: f64,
    /// The quarter millisecond the rule ranks its stutter in, `[low, high)` ms.
    pub stutter_band_ms: [f64; 2],
    /// Mean input latency, ms (null: nothing was shown).
    pub latency_mean_ms: Option<f64>,
    /// CPU time its waits spent spinning, percent of one core over the run.
    pub spin_percent: f64,
    /// CPU time its ticks took at `--step-cost` each, percent of one core.
    pub tick_percent: f64,
    /// Both: what the rule ranks by.
    pub cpu_percent: f64,
    /// Whether its results are the same on every display (it steps whole fixed ticks).
    pub deterministic: bool,
    /// Simulation time over measured time: 1 keeps time, below 1 is slow motion.
    pub game_speed: f64,
    /// On a capture, why the loop ran open loop (on the captured starts), as `replay` says it.
    pub open_loop: Option<&'static str>,
    /// What choosing it costs, in words.
    pub costs: Vec<String>,
    /// Whether it held run alone, as `check` runs it (null: not checked; only the pick and
    /// the runner-up are).
    pub checked: Option<bool>,
    /// The command that runs it alone on the same situation.
    pub check: String,
}

/// One loop that did not hold.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dropped {
    pub lane: String,
    pub tick: String,
    pub pacing: String,
    pub state: String,
}

impl Dropped {
    fn of(m: &Measured) -> Dropped {
        Dropped {
            lane: m.spec.to_string(),
            tick: tick_of(m),
            pacing: m.pacing.to_string(),
            state: match m.checked {
                Some(false) => "did not hold run alone".into(),
                _ => m.report.state.to_string(),
            },
        }
    }
}

/// One setting, with its value for the pick.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SettingValue {
    pub name: &'static str,
    pub value: String,
    pub doc: &'static str,
}

/// How to get the pick in an engine.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineAdvice {
    pub engine: &'static str,
    pub settings: Vec<SettingValue>,
}

impl EngineAdvice {
    /// The settings that get `best` in `cfg`'s engine (our own crate's when none is named).
    fn of(cfg: &AdviseConfig, best: &Measured) -> EngineAdvice {
        let vsync = match &cfg.situation {
            Situation::Display { sim, .. } => sim.display.vsync,
            Situation::Capture(_) => best.report.vsync.vsync_detected,
        };
        let engine = cfg.engine.unwrap_or(Engine::Custom);
        EngineAdvice {
            engine: engine.title(),
            settings: engine
                .settings()
                .map(|s| SettingValue {
                    name: s.name,
                    value: s.value(best, vsync),
                    doc: s.doc,
                })
                // A setting the pick does not use (present feedback, for most) has no line.
                .filter(|s| !s.value.is_empty())
                .collect(),
        }
    }
}

/// The whole verdict (`--json` writes it as it is).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    /// The situation, as the flags that give it.
    pub situation: String,
    /// Every assumption the verdict rests on, in prose (the flags' defaults included).
    pub assumes: Vec<String>,
    /// What the verdict must be read with (a capture too short, or without CPU start times).
    pub caveats: Vec<String>,
    /// Loops run (lanes × pacings), held or not.
    pub tried: usize,
    /// The ticks tried, as `--dt` takes them.
    pub ticks: Vec<String>,
    /// The rule the ranking follows, in words ([`RULE`]).
    pub rule: &'static str,
    /// The best loop that held; None: none held.
    pub recommended: Option<Ranked>,
    /// The best loop that held of a lane other than the recommended one; None: no other.
    pub runner_up: Option<Ranked>,
    /// Every loop that held, best first.
    pub ranking: Vec<Ranked>,
    /// Every loop that did not hold.
    pub dropped: Vec<Dropped>,
    /// How to get the recommended loop: in the user's engine, or with our own crate.
    pub how: Option<EngineAdvice>,
    /// Whether the user named their engine (else `how` is our own crate's, and the text says
    /// how to ask for another).
    pub engine_given: bool,
}

impl Advice {
    /// The verdict on `held` (best first) and `dropped`, for `cfg`.
    pub fn new(
        cfg: &AdviseConfig,
        runs: &[Run],
        held: &[Measured],
        dropped: &[Measured],
    ) -> Advice {
        let all: Vec<&Measured> = held.iter().chain(dropped).collect();
        let ranking: Vec<Ranked> = held
            .iter()
            .enumerate()
            .map(|(i, m)| Ranked {
                check: super::check_line(cfg, runs, m),
                ..ranked(i + 1, m, &all)
            })
            .collect();
        Advice {
            situation: cfg.flags.clone(),
            assumes: cfg.assumptions(),
            caveats: Vec::new(),
            tried: held.len() + dropped.len(),
            ticks: cfg
                .timings
                .iter()
                .map(|t| super::tick_name(t.tick()))
                .collect(),
            rule: RULE,
            recommended: ranking.first().cloned(),
            runner_up: ranking
                .iter()
                .find(|r| ranking.first().is_some_and(|best| best.lane != r.lane))
                .cloned(),
            ranking,
            dropped: dropped.iter().map(Dropped::of).collect(),
            how: held.first().map(|best| EngineAdvice::of(cfg, best)),
            engine_given: cfg.engine.is_some(),
        }
    }

    /// As one JSON object.
    pub fn write_json(&self, out: &mut impl Write) -> io::Result<()> {
        let json = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        writeln!(out, "{json}")
    }

    /// As a screen of text, ended by the terms it used (`TERMS`).
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let mut body = Vec::new();
        self.write_body(&mut body)?;
        out.write_all(&body)?;
        write_terms(out, &String::from_utf8_lossy(&body))
    }

    /// The verdict itself.
    fn write_body(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{}", format!("advise {}", self.situation).trim_end())?;
        for line in self.assumes.iter().chain(&self.caveats) {
            writeln!(out, "{line}")?;
        }
        write!(
            out,
            "{} loop{} tried: {} held",
            self.tried,
            if self.tried == 1 { "" } else { "s" },
            self.ranking.len()
        )?;
        if !self.dropped.is_empty() {
            write!(
                out,
                ", {} dropped (exploded, fell behind or stepped past the rope's stable step)",
                self.dropped.len()
            )?;
        }
        writeln!(out)?;
        writeln!(out)?;
        let Some(best) = &self.recommended else {
            writeln!(out, "No loop held here: nothing to recommend.")?;
            return write_dropped(out, &self.dropped, self.ticks.len() > 1);
        };
        write_pick(out, "Recommended:", best)?;
        if let Some(next) = &self.runner_up {
            write_pick(out, "Runner-up:  ", next)?;
        }
        writeln!(out)?;
        write_ranking(out, &self.ranking)?;
        write_dropped(out, &self.dropped, self.ticks.len() > 1)?;
        writeln!(out, "Rule: {}", self.rule)?;
        write_checks(out, best, self.runner_up.as_ref())?;
        if self.ticks.len() > 1 {
            write_ticks(out, &self.ticks, &self.ranking)?;
        }
        if let Some(how) = &self.how {
            writeln!(out)?;
            write_how(out, how, best)?;
            if !self.engine_given {
                writeln!(
                    out,
                    "(--engine godot|bevy|unity|monogame ranks what that engine's settings \
                     reach, and names them)"
                )?;
            }
        }
        Ok(())
    }
}

/// The same loop's spec without blending: the `interpolated` mode's is `fixed`'s with the same
/// options; a preset's `+interpolated` option is dropped.
pub fn unblended(lane: &str) -> Option<String> {
    if let Some(rest) = lane.strip_prefix("interpolated") {
        return Some(format!("fixed{rest}"));
    }
    let mut parts: Vec<&str> = lane.split('+').collect();
    let at = parts
        .iter()
        .position(|p| *p == "interpolated")
        .filter(|&i| i > 0)?;
    parts.remove(at);
    Some(parts.join("+"))
}

/// What blending costs `m` in latency, measured: its mean against the same loop's without
/// blending under the same pacing, when both were run and showed frames.
fn blend_cost(m: &Measured, all: &[&Measured]) -> Option<String> {
    let plain = unblended(&m.spec.to_string())?;
    let other = all
        .iter()
        .find(|o| o.pacing == m.pacing && o.spec.to_string() == plain)?;
    let diff = m.latency_ms()? - other.latency_ms()?;
    Some(format!(
        "blending changes latency by {diff:+.1} ms (against {plain}, pacing {})",
        other.pacing
    ))
}

impl Ranked {
    /// Its lane, marked `*` when it ran open loop, as `replay` marks it.
    pub fn marked(&self) -> String {
        let star = if self.open_loop.is_some() { "*" } else { "" };
        format!("{}{star}", self.lane)
    }
}

/// The words the verdict may use that a reader may not know: what each looks like in the text,
/// and one line saying what it is.
pub const TERMS: &[(&str, &str)] = &[
    (
        "cap:",
        "cap:R: frames start no sooner than 1/R s apart (an engine's frame-rate cap)",
    ),
    (
        "hold:",
        "hold:R: as cap:R, and each frame is shown no sooner than the next one's deadline",
    ),
    (
        "+fuzzy59",
        "fuzzy59: Glaiel's fuzzy window: tick while 1/61 s is owed, take 1/59 s (a little slow)",
    ),
    (
        "+fuzzy",
        "fuzzy: Glaiel's fuzzy window: tick while 1/62 s is owed, take 1/60 s",
    ),
    (
        "+snap-vsync",
        "snap-vsync: Glaiel's timer as his article has it: it snaps only while vsync is seen",
    ),
    (
        "+snap",
        "snap: Glaiel's timer: frame times snapped to whole refreshes of the display's rate, mean \
         of four",
    ),
    (
        "+smooth",
        "smooth: Godot's DeltaSmoother on the frame time (with vsync only)",
    ),
    (
        "+display",
        "display: steps by when frames will be seen, predicted from present feedback (the \
         display times of past frames); as measured without it",
    ),
    (
        "jitter=",
        "jitter fix: Godot's physics_jitter_fix: ticks per frame nudged toward the display's rate",
    ),
    (
        "LFC",
        "LFC: low framerate compensation: below the panel's minimum a frame is shown twice",
    ),
    (
        "fallen behind",
        "fallen behind: the loop owed more ticks than it ran, so game time lagged the clock",
    ),
    (
        "deterministic",
        "deterministic: fixed ticks, so a run gives the same results on any display",
    ),
];

/// "Terms:" and a line for each of [`TERMS`] that `text` uses, if any.
fn write_terms(out: &mut impl Write, text: &str) -> io::Result<()> {
    let mut used = TERMS.iter().filter(|(seen, _)| {
        // `+fuzzy59` also contains `+fuzzy`, `+snap-vsync` `+snap`: those count only alone.
        let plain = text.replace("+fuzzy59", "").replace("+snap-vsync", "");
        if *seen == "+fuzzy" || *seen == "+snap" {
            plain.contains(seen)
        } else {
            text.contains(seen)
        }
    });
    let Some(first) = used.next() else {
        return Ok(());
    };
    writeln!(out, "Terms:")?;
    for (_, line) in std::iter::once(first).chain(used) {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// `m` at `rank`, with its costs (`all`: every loop run, to measure against).
fn ranked(rank: usize, m: &Measured, all: &[&Measured]) -> Ranked {
    let r = &m.report;
    let mut costs = vec![format!("stutter {:.2} ms rms", r.shown.stutter_rms_ms)];
    match m.latency_ms() {
        Some(ms) => costs.push(format!("latency {ms:.1} ms mean")),
        None => costs.push("latency unknown (nothing shown)".into()),
    }
    if r.policy.mode.blends() {
        costs.extend(blend_cost(m, all));
    }
    if m.tick_percent >= 0.05 {
        costs.push(format!(
            "ticks take {:.1}% of a core ({:.0} a second)",
            m.tick_percent,
            m.ticks_per_s()
        ));
    }
    if m.spin_percent >= 0.05 {
        costs.push(format!("spins {:.1}% of a core", m.spin_percent));
    }
    if !m.deterministic() {
        costs.push("not deterministic across displays".into());
    }
    let speed = r.shown.game_speed;
    if (speed - 1.0).abs() >= 0.001 {
        let way = if speed < 1.0 { "slow" } else { "fast" };
        costs.push(format!(
            "runs the game {:.1}% {way}",
            (speed - 1.0).abs() * 100.0
        ));
    }
    Ranked {
        rank,
        lane: m.spec.to_string(),
        tick: tick_of(m),
        tick_s: timestep_loop::seconds(r.policy.timing.tick_ns()),
        ticks_per_s: m.ticks_per_s(),
        fps: m.fps(),
        pacing: m.pacing.to_string(),
        stutter_rms_ms: r.shown.stutter_rms_ms,
        stutter_band_ms: {
            let low = m.key().stutter_steps as f64 * STUTTER_STEP_MS;
            [low, low + STUTTER_STEP_MS]
        },
        latency_mean_ms: m.latency_ms(),
        spin_percent: m.spin_percent,
        tick_percent: m.tick_percent,
        cpu_percent: m.cpu_percent(),
        deterministic: m.deterministic(),
        game_speed: speed,
        open_loop: r.open_loop,
        costs,
        checked: m.checked,
        check: String::new(),
    }
}

/// The tick `m` ran at, as [`super::tick_name`] names it ("frame" for variable steps, which
/// take each frame's time).
fn tick_of(m: &Measured) -> String {
    m.tick.map_or("frame".into(), super::tick_name)
}

/// `lane` without its `+tick=` option, where a column gives the tick.
fn without_tick(lane: &str) -> String {
    let kept: Vec<&str> = lane
        .split('+')
        .filter(|p| !p.starts_with("tick="))
        .collect();
    kept.join("+")
}

/// The pick and the runner-up, each checked by running it alone: the command that did.
fn write_checks(out: &mut impl Write, best: &Ranked, next: Option<&Ranked>) -> io::Result<()> {
    for r in std::iter::once(best).chain(next) {
        let held = if r.checked == Some(true) {
            "held"
        } else {
            "not checked"
        };
        let line = format!("Run alone, {} {held}: {}", r.lane, r.check);
        for part in crate::util::fit::command_lines(&line, COLUMNS) {
            writeln!(out, "{part}")?;
        }
    }
    Ok(())
}

/// Under `--dt auto`: the best loop at each tick tried that steps whole ticks (variable and
/// semi-fixed steps follow the frames), with what its ticks cost.
fn write_ticks(out: &mut impl Write, ticks: &[String], ranking: &[Ranked]) -> io::Result<()> {
    writeln!(
        out,
        "Best loop of whole ticks at each tick (the same rule):"
    )?;
    let ranking: Vec<&Ranked> = ranking.iter().filter(|r| r.deterministic).collect();
    let head = [
        "tick",
        "loop",
        "pacing",
        "stutter ms",
        "latency ms",
        "fps",
        "ticks/s",
        "CPU %",
    ];
    let mut rows = vec![head.map(String::from).to_vec()];
    for tick in ticks {
        let Some(r) = ranking.iter().find(|r| &r.tick == tick) else {
            rows.push(vec![tick.clone(), "(none held)".into()]);
            continue;
        };
        rows.push(vec![
            tick.clone(),
            without_tick(&r.marked()),
            r.pacing.clone(),
            format!("{:.2}", r.stutter_rms_ms),
            r.latency_mean_ms.map_or("-".into(), |l| format!("{l:.1}")),
            format!("{:.0}", r.fps),
            format!("{:.0}", r.ticks_per_s),
            format!("{:.1}", r.cpu_percent),
        ]);
    }
    let widths = [8, 24, 11, 10, 10, 4, 7, 5];
    let right = [false, false, false, true, true, true, true, true];
    for line in crate::util::fit::columns(&rows, &widths, &right, 1) {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// "Recommended: fixed+fuzzy, pacing vsync" and its costs.
fn write_pick(out: &mut impl Write, label: &str, r: &Ranked) -> io::Result<()> {
    writeln!(
        out,
        "{label} {}, tick {}, pacing {}",
        r.marked(),
        r.tick,
        r.pacing
    )?;
    writeln!(out, "  costs: {}", r.costs.join("; "))
}

/// The first [`SHOWN`] of the ranking as a table, with the tick each ran at (the loops' names
/// leave out `+tick=`, which the pick's line and `--json` keep).
fn write_ranking(out: &mut impl Write, ranking: &[Ranked]) -> io::Result<()> {
    // The stutter is shown with the band the rule ranks it in, so the order reads as sorted.
    // Each column widens to its widest cell (a stutter of 100 ms or more), so rows line up.
    let head = [
        "#",
        "",
        "loop",
        "tick",
        "pacing",
        "stutter ms (band)",
        "latency ms",
        "CPU %",
        "",
        "deterministic",
    ];
    let mut rows = vec![head.map(String::from).to_vec()];
    for r in ranking.iter().take(SHOWN) {
        let latency = r.latency_mean_ms.map_or("-".into(), |l| format!("{l:.1}"));
        let [low, high] = r.stutter_band_ms;
        rows.push(vec![
            r.rank.to_string(),
            String::new(),
            without_tick(&r.marked()),
            r.tick.clone(),
            r.pacing.clone(),
            format!("{:.2} ({low:.2}-{high:.2})", r.stutter_rms_ms),
            latency,
            format!("{:.1}", r.cpu_percent),
            String::new(),
            if r.deterministic { "yes" } else { "no" }.into(),
        ]);
    }
    // The narrow columns take their cells' width; the stutter and latency keep theirs, so a
    // ranking's figures line up from one verdict to the next.
    let widths = [3, 0, 0, 0, 0, 19, 10, 5, 0, 0];
    let right = [
        true, false, false, false, false, true, true, true, false, false,
    ];
    for line in crate::util::fit::columns(&rows, &widths, &right, 1) {
        writeln!(out, "{line}")?;
    }
    if ranking.len() > SHOWN {
        writeln!(
            out,
            "     ({} more held; --json lists them all)",
            ranking.len() - SHOWN
        )?;
    }
    for r in ranking.iter().take(SHOWN) {
        if let Some(why) = r.open_loop {
            writeln!(out, "* {} ran open loop: {why}", r.lane)?;
        }
    }
    Ok(())
}

/// The loops that did not hold, in one line; `ticks`: each with its tick.
fn write_dropped(out: &mut impl Write, dropped: &[Dropped], ticks: bool) -> io::Result<()> {
    if dropped.is_empty() {
        return Ok(());
    }
    let each: Vec<String> = dropped
        .iter()
        .map(|d| match ticks {
            true => format!(
                "{} ({}, {}, {})",
                without_tick(&d.lane),
                d.tick,
                d.pacing,
                d.state
            ),
            false => format!("{} ({}, {})", d.lane, d.pacing, d.state),
        })
        .collect();
    writeln!(out, "Dropped: {}", each.join(", "))
}

/// The settings that get `best` in the engine, then the pages that document them.
fn write_how(out: &mut impl Write, how: &EngineAdvice, best: &Ranked) -> io::Result<()> {
    writeln!(
        out,
        "How to get {} (pacing {}) in {}:",
        best.lane, best.pacing, how.engine
    )?;
    for s in &how.settings {
        // A line of code that names the setting itself is printed as it is.
        let last = s.name.rsplit("::").next().unwrap_or(s.name);
        if s.value.contains(last) || s.value.starts_with("//") {
            writeln!(out, "  {}", s.value)?;
        } else {
            writeln!(out, "  {} = {}", s.name, s.value)?;
        }
    }
    writeln!(out, "  documented at:")?;
    let mut docs: Vec<&str> = Vec::new();
    for doc in how.settings.iter().map(|s| s.doc) {
        if !docs.contains(&doc) {
            docs.push(doc);
        }
    }
    for doc in docs {
        for line in split_address(doc, COLUMNS - 4) {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}

/// An address too long for a line cut after its last `/` that fits (the rest indented on the
/// next line), so no line is wider than `width` and none breaks mid-name.
fn split_address(address: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = address;
    while rest.chars().count() > width {
        let head = rest.get(..width).unwrap_or(rest);
        let Some(cut) = head.rfind('/').filter(|&i| i > 0) else {
            break;
        };
        lines.push(rest[..=cut].to_string());
        rest = &rest[cut + 1..];
    }
    lines.push(rest.to_string());
    let indent = |(i, l): (usize, String)| if i == 0 { l } else { format!("  {l}") };
    lines.into_iter().enumerate().map(indent).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_without_blending_is_named_by_its_spec() {
        assert_eq!(
            unblended("interpolated+snap").as_deref(),
            Some("fixed+snap")
        );
        assert_eq!(
            unblended("godot+interpolated+jitter=0").as_deref(),
            Some("godot+jitter=0")
        );
        assert_eq!(unblended("godot"), None);
        assert_eq!(unblended("fixed"), None);
    }

    #[test]
    fn a_long_address_is_cut_after_a_slash() {
        let url = "https://docs.godotengine.org/en/stable/tutorials/physics/interpolation/\
                   physics_interpolation_quick_start_guide.html";
        let lines = split_address(url, 96);
        assert_eq!(lines.len(), 2);
        assert!(lines[0].ends_with("/interpolation/"));
        assert_eq!(lines.concat().replace(' ', ""), url);
        assert_eq!(split_address("https://a/b", 96), ["https://a/b"]);
    }
}
