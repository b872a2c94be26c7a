//! The lessons: each sets up the window (lanes, tick, pacing, drive, a step cost, the trail)
//! to show one thing the source articles teach, with a caption saying what to look at and
//! which article it comes from. `timestep-rope lessons` lists them; `--lesson N` starts at one;
//! `L` and `Shift+L` step through them.
//!
//! Under Xvfb the window cannot hold 60 fps; a lesson that depends on the frame rate caps to a
//! rate such a machine holds (30), or its caption says what a real display shows.

use crate::model::lane::LaneSpec;
use crate::model::rope::Drive;
use std::fmt;
use std::io::{self, Write};
use std::num::NonZeroU16;
use timestep_loop::{
    Fuzzy, LoopSpec, MaxSubstep, Mode, NS_PER_S, Pacing, Preset, Tick, TimerKind, TimingConfig,
    format_duration,
};

/// One lesson.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lesson {
    /// The lesson's name, shown at the top.
    pub title: &'static str,
    /// Where it comes from: articles by title and author (see [`FIEDLER`] and the rest), or
    /// the engines' own sources.
    pub sources: &'static [&'static str],
    /// What to look at: one to three lines, drawn under the title. `{frames}` is replaced by
    /// how many frames each tick shows for (see [`Lesson::frames_per_tick`]).
    pub caption: &'static [&'static str],
    /// The lanes, shown side by side.
    pub lanes: &'static [LaneSpec],
    /// The textbook lanes' tick.
    pub dt: Dt,
    /// The longest substep a tick is integrated in, ns: a coarse tick integrated in 1 ms
    /// substeps keeps the rope stable.
    pub max_substep: Option<u64>,
    /// How every lane paces its frames.
    pub pacing: Pacing,
    /// How the rope's pinned end moves.
    pub drive: Drive,
    /// Real CPU time spent per tick (spun), ns: what makes the spiral of death real (the window
    /// caps it a frame: `MAX_STEP_COST_NS` in `src/app/host.rs`).
    pub step_cost_ns: u64,
    /// The free end's trail.
    pub trail: bool,
    /// Where the point needs frames held at the lesson's cap: what is lost when the machine
    /// draws fewer (see [`Lesson::notice`]). `None`: the point shows at any frame rate.
    pub needs_cap: Option<&'static str>,
}

/// The least share of a lesson's cap the measured frame rate must reach for a lesson that
/// [needs its cap held](Lesson::needs_cap); once the notice shows, the rate must pass the cap's
/// [`HELD_AGAIN`] share to lift it (so a rate at the edge does not make it blink).
pub const HELD: f64 = 0.95;
/// See [`HELD`].
pub const HELD_AGAIN: f64 = 0.98;

/// Glenn Fiedler's article: the accumulator, the spiral of death, interpolation.
pub const FIEDLER: &str = "Glenn Fiedler's \"Fix Your Timestep!\"";
/// An answer on smooth presentation: render at regular intervals, wait just before rendering,
/// an adaptive render interval (its copy names no author).
pub const ADAPTIVE: &str = "the \"adaptive render interval\" answer";
/// An article on a particle rope built on Ian Millington's particle engine (no author named).
pub const ROPE: &str = "the particle-rope article on Millington's engine";
/// Jiadong Chen's article (Unity China) on FixedUpdate in wall time.
pub const CHEN: &str = "Jiadong Chen's \"Is FixedUpdate really called at a fixed interval?\"";
/// Tyler Glaiel's article: fuzzy vsync timing, the 59.94 Hz monitor, double updates.
pub const GLAIEL: &str = "Tyler Glaiel's \"How to make your game run at 60fps\"";

/// The longest caption line: what the default window holds at its text size.
pub const CAPTION_CHARS: usize = 76;

/// The clamp every lesson keeps (`--clamp`'s default).
const CLAMP_NS: u64 = 250_000_000;
const MS: u64 = 1_000_000;

/// A lesson's tick as `--dt` takes it: whole milliseconds or a whole rate, one the clamp
/// holds (checked as the lessons are compiled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dt(DtUnit);

/// How a [`Dt`] is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DtUnit {
    Ms(NonZeroU16),
    Hz(NonZeroU16),
}

impl Dt {
    /// A tick of `ms` milliseconds, 1 to the clamp.
    const fn ms(ms: u16) -> Dt {
        let Some(ms) = NonZeroU16::new(ms) else {
            panic!("a lesson's tick is at least 1 ms");
        };
        assert!(
            ms.get() as u64 * MS <= CLAMP_NS,
            "a lesson's tick fits in the clamp"
        );
        Dt(DtUnit::Ms(ms))
    }

    /// A tick of `hz` a second, at least one per clamp.
    const fn hz(hz: u16) -> Dt {
        let Some(hz) = NonZeroU16::new(hz) else {
            panic!("a lesson's rate is at least 1 Hz");
        };
        assert!(
            NS_PER_S <= hz.get() as u64 * CLAMP_NS,
            "a lesson's tick fits in the clamp"
        );
        Dt(DtUnit::Hz(hz))
    }

    /// The tick itself.
    pub const fn tick(self) -> Tick {
        match self.0 {
            DtUnit::Ms(ms) => Tick::from_ns(ms.get() as u64 * MS),
            DtUnit::Hz(hz) => Tick::of_hz(hz),
        }
    }
}

impl fmt::Display for Dt {
    /// As `--dt` takes it: `1ms`, `20hz`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            DtUnit::Ms(ms) => write!(f, "{ms}ms"),
            DtUnit::Hz(hz) => write!(f, "{hz}hz"),
        }
    }
}

/// A lane of `looped`, stepping the rope with the run's integrator.
const fn lane(looped: LoopSpec) -> LaneSpec {
    LaneSpec {
        looped,
        integrator: None,
    }
}

const VARIABLE: LaneSpec = lane(LoopSpec::mode(Mode::Variable));
const FIXED: LaneSpec = lane(LoopSpec::mode(Mode::Fixed));
const INTERPOLATED: LaneSpec = lane(LoopSpec::mode(Mode::Interpolated));

/// The lesson (1-based) where fixed and interpolated part: a tick coarse enough that a frame
/// shows one or two of them.
pub const COARSE_TICK: usize = 2;

/// Every lesson, in order (`--lesson 1` is the first).
pub const LESSONS: [Lesson; 7] = [
    Lesson {
        title: "Variable steps fall apart at 60 Hz",
        sources: &[ROPE],
        caption: &[
            "One step of the whole frame time: the springs need steps under 15 ms.",
            "At 60 Hz (16.7 ms) the rope explodes and resets; at 75 Hz (13.3 ms) it",
            "holds: timestep-rope simulate --mode variable --display-hz 75.",
        ],
        lanes: &[VARIABLE, FIXED],
        dt: Dt::ms(1),
        max_substep: None,
        pacing: Pacing::Cap(60.0),
        drive: Drive::Off,
        step_cost_ns: 0,
        trail: false,
        needs_cap: None,
    },
    Lesson {
        title: "A coarse tick: fixed judders, interpolated glides",
        sources: &[FIEDLER],
        caption: &[
            "A 20 Hz tick: fixed shows each tick for {frames} frames, so its trail bunches;",
            "interpolated blends the last two ticks by alpha: evenly spaced dots.",
            "The pane labels give the judder in pixels.",
        ],
        lanes: &[FIXED, INTERPOLATED],
        dt: Dt::hz(20),
        max_substep: Some(MS),
        pacing: Pacing::Cap(30.0),
        drive: Drive::sway(),
        step_cost_ns: 0,
        trail: true,
        needs_cap: Some("a tick shows for one frame or none, so fixed's trail cannot bunch."),
    },
    Lesson {
        title: "The spiral of death, and the clamp",
        sources: &[FIEDLER],
        caption: &[
            "Each 10 ms tick costs 12 ms of CPU: the more a frame steps, the longer the",
            "next. The clamp (250 ms) and the step cap stop the spiral: the game runs",
            "slow (see 'dropped' grow in the HUD) instead of freezing.",
        ],
        lanes: &[FIXED],
        dt: Dt::hz(100),
        // Integrated in 1 ms substeps (each tick still costs its 12 ms): a rope stepped whole
        // 10 ms ticks, 2/3 of its stable step, blew up when a hand folded it (see the window's
        // hand tests); the spiral is about the tick's cost, not the rope's step.
        max_substep: Some(MS),
        pacing: Pacing::Vsync,
        drive: Drive::sway(),
        step_cost_ns: 12 * MS,
        trail: false,
        needs_cap: None,
    },
    Lesson {
        title: "The beat: a tick a hair off the refresh",
        sources: &[GLAIEL],
        caption: &[
            "A 30 Hz tick at a {cap} fps cap: every {beat} a frame runs {beat_ticks} ticks.",
            "Snapping and the fuzzy window hide it, interpolation smooths it. On a",
            "59.94 Hz display with a 60 Hz tick it comes every 16.7 s.",
        ],
        lanes: &[
            FIXED,
            lane(LoopSpec::mode(Mode::Fixed).with_timer(Some(TimerKind::Snap))),
            lane(LoopSpec::fixed_fuzzy(Fuzzy::Window62)),
            INTERPOLATED,
        ],
        dt: Dt::hz(30),
        max_substep: Some(MS),
        pacing: Pacing::Cap(29.7),
        drive: Drive::sway(),
        step_cost_ns: 0,
        trail: false,
        needs_cap: Some("frames come unevenly and many run 2 ticks: no one frame stands out."),
    },
    Lesson {
        title: "FixedUpdate is not periodic in wall time",
        sources: &[CHEN],
        caption: &[
            "Unity's 50 Hz ticks run back to back as a frame starts, none between:",
            "in the strip's 'wall' row the step marks bunch at the frame lines.",
        ],
        lanes: &[lane(LoopSpec::preset(Preset::Unity))],
        dt: Dt::ms(1),
        max_substep: None,
        pacing: Pacing::Cap(30.0),
        drive: Drive::sway(),
        step_cost_ns: 500_000,
        trail: false,
        needs_cap: Some("fewer than 3 frames fit the strip's 100 ms wall row to bunch at."),
    },
    Lesson {
        title: "Four engines' loops side by side",
        sources: &["the engines' own sources (see GUIDE.md)"],
        caption: &[
            "Godot, Bevy, Unity and MonoGame on the same frames: their ticks, timers",
            "and clamps differ, and so do their judder and steps per frame.",
        ],
        lanes: &[
            lane(LoopSpec::preset(Preset::Godot)),
            lane(LoopSpec::preset(Preset::Bevy)),
            lane(LoopSpec::preset(Preset::Unity)),
            lane(LoopSpec::preset(Preset::MonoGame)),
        ],
        dt: Dt::ms(1),
        max_substep: None,
        pacing: Pacing::Vsync,
        drive: Drive::sway(),
        step_cost_ns: 0,
        trail: true,
        needs_cap: None,
    },
    Lesson {
        title: "Late pacing: input read as late as possible",
        sources: &[ADAPTIVE, "bevy_framepace"],
        caption: &[
            "Drag the rope: the HUD's 'input' row is the mouse-to-screen latency.",
            "C cycles the pacing (vsync, adaptive, late): late reads input just before",
            "the next frame; on a real 60 Hz display it saves about 6 ms over vsync.",
        ],
        lanes: &[INTERPOLATED],
        dt: Dt::ms(1),
        max_substep: None,
        pacing: Pacing::Late,
        drive: Drive::Off,
        step_cost_ns: 0,
        trail: false,
        needs_cap: None,
    },
];

/// A lesson's number that names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "there is no lesson {0}: they are 1 to {n} (timestep-rope lessons lists them)",
    n = LESSONS.len()
)]
pub struct NoLesson(pub usize);

impl Lesson {
    /// Lesson `n` (1-based), or why there is none.
    pub fn number(n: usize) -> Result<&'static Lesson, NoLesson> {
        n.checked_sub(1)
            .and_then(|i| LESSONS.get(i))
            .ok_or(NoLesson(n))
    }

    /// Its lanes.
    pub fn lane_specs(&self) -> Vec<LaneSpec> {
        self.lanes.to_vec()
    }

    /// Its lanes as `--lanes` takes them: `fixed,interpolated`.
    pub fn lanes_text(&self) -> String {
        let names: Vec<String> = self.lanes.iter().map(LaneSpec::to_string).collect();
        names.join(",")
    }

    /// Its tick, clamp and step cap (the cap: clamp / tick rounded up, as `--max-steps`' default).
    pub fn timing(&self) -> TimingConfig {
        // `textbook` refuses only a tick the clamp cannot hold, and a `Dt` always fits.
        TimingConfig::textbook(self.dt.tick(), CLAMP_NS, None).unwrap_or_default()
    }

    /// The longest integration step its ticks may take: its `max_substep`, or each loop's default.
    pub fn max_substep(&self) -> MaxSubstep {
        self.max_substep
            .map_or(MaxSubstep::Default, MaxSubstep::Set)
    }

    /// Where it comes from, in words: "Glenn Fiedler's \"Fix Your Timestep!\"".
    pub fn source(&self) -> String {
        self.sources.join(" and ")
    }

    /// How many frames each tick is shown for at the lesson's frame cap: "1 or 2" for a 20 Hz
    /// tick at 30 fps (1.5 frames a tick), "2" where they divide. `None` without a cap.
    pub fn frames_per_tick(&self) -> Option<String> {
        let Pacing::Cap(hz) = self.pacing else {
            return None;
        };
        let frames = hz * self.timing().tick_ns() as f64 / 1e9;
        let (lo, hi) = (frames.floor(), frames.ceil());
        Some(if lo == hi {
            format!("{lo:.0}")
        } else {
            format!("{lo:.0} or {hi:.0}")
        })
    }

    /// How often a frame runs one tick more or less than the rest, at the lesson's frame cap,
    /// seconds: the beat of a tick a little off the frame rate, 1 / |tick rate − frame rate|.
    /// With it, whether that frame runs 2 ticks (the tick is faster) or 0. `None` without a
    /// cap, or where the rates are equal or more than 10 % apart (then no one frame stands
    /// out: 20 Hz ticks at 30 fps alternate 1 and 0 ticks).
    pub fn beat(&self) -> Option<(f64, u32)> {
        let Pacing::Cap(hz) = self.pacing else {
            return None;
        };
        let tick_hz = 1e9 / self.timing().tick_ns() as f64;
        let apart = tick_hz - hz;
        let near = (0.9..1.1).contains(&(tick_hz / hz));
        (near && apart != 0.0).then(|| (1.0 / apart.abs(), if apart > 0.0 { 2 } else { 0 }))
    }

    /// What to look at, with `{frames}`, `{cap}`, `{beat}` and `{beat_ticks}` worked out
    /// from the lesson's settings.
    pub fn caption_text(&self) -> Vec<String> {
        let frames = self.frames_per_tick().unwrap_or_else(|| "several".into());
        let cap = match self.pacing {
            Pacing::Cap(hz) => format!("{hz}"),
            _ => "no".into(),
        };
        let (beat, ticks) = match self.beat() {
            Some((s, ticks)) => (format!("{s:.1} s"), ticks.to_string()),
            None => ("so often".into(), "0 or 2".into()),
        };
        self.caption
            .iter()
            .map(|l| {
                l.replace("{frames}", &frames)
                    .replace("{cap}", &cap)
                    .replace("{beat_ticks}", &ticks)
                    .replace("{beat}", &beat)
            })
            .collect()
    }

    /// What the screen says when the machine draws `fps` (measured; `shown`: the notice shows
    /// now), too few for this lesson's point: the rate measured, the least the lesson needs
    /// and what is lost. `None` where the rate is enough or the point needs none.
    pub fn notice(&self, fps: f64, shown: bool) -> Option<[String; 2]> {
        let (Pacing::Cap(cap), Some(lost)) = (self.pacing, self.needs_cap) else {
            return None;
        };
        let least = cap * HELD;
        let enough = cap * if shown { HELD_AGAIN } else { HELD };
        (fps < enough).then(|| {
            [
                format!(
                    "Too slow here: {fps:.1} fps, and this needs {least:.1} ({cap} fps cap held):"
                ),
                lost.to_string(),
            ]
        })
    }

    /// The caption as drawn: the number and title, what to look at (one paragraph, which the
    /// window wraps to its width), and where it comes from.
    pub fn caption_lines(&self, n: usize) -> Vec<String> {
        vec![
            format!("Lesson {n}/{}: {}", LESSONS.len(), self.title),
            self.caption_text().join(" "),
            format!("From {}.", self.source()),
        ]
    }
}

/// `timestep-rope lessons`: each lesson, what it sets, and how to start it.
pub fn list(out: &mut impl Write) -> io::Result<()> {
    for (i, l) in LESSONS.iter().enumerate() {
        let n = i + 1;
        writeln!(out, "{n}. {} (from {})", l.title, l.source())?;
        for line in l.caption_text() {
            writeln!(out, "     {line}")?;
        }
        let cost = match l.step_cost_ns {
            0 => String::new(),
            ns => format!(", each tick costs {}", format_duration(ns)),
        };
        let trail = if l.trail { ", trail on" } else { "" };
        writeln!(
            out,
            "     lanes {}, dt {}, pacing {}, drive {}{cost}{trail}",
            l.lanes_text(),
            l.dt,
            l.pacing,
            l.drive
        )?;
    }
    writeln!(
        out,
        "\nStart one with timestep-rope --lesson N; in the window L and Shift+L step through them."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_is_well_formed() {
        for (i, l) in LESSONS.iter().enumerate() {
            let lanes = crate::model::lane::parse_lanes(&l.lanes_text())
                .unwrap_or_else(|e| panic!("lesson {}: {e}", i + 1));
            assert_eq!(lanes, l.lane_specs(), "{}", l.title);
            assert!(!lanes.is_empty(), "{}", l.title);
            let tick = timestep_loop::parse_tick(&l.dt.to_string());
            assert_eq!(tick, Ok(l.dt.tick()), "{}", l.title);
            assert!(TimingConfig::textbook(l.dt.tick(), CLAMP_NS, None).is_ok());
            assert!((1..=3).contains(&l.caption.len()), "{}", l.title);
            for line in l.caption_text() {
                assert!(
                    line.len() <= 84 && line.is_ascii(),
                    "{line:?} ({} chars)",
                    line.len()
                );
            }
        }
        assert!(
            Lesson::number(0)
                .unwrap_err()
                .to_string()
                .contains("1 to 7")
        );
        assert_eq!(
            Lesson::number(7).map(|l| l.lanes_text()),
            Ok("interpolated".to_string())
        );
    }

    #[test]
    fn the_coarse_tick_lesson_runs_fixed_and_interpolated_at_a_tick_a_frame_can_show() {
        let l = &LESSONS[COARSE_TICK - 1];
        assert_eq!(l.lanes_text(), "fixed,interpolated");
        assert!(l.dt.tick().ns() >= 20_000_000, "{}", l.dt);
    }

    #[test]
    fn lesson_2s_caption_says_how_many_frames_each_tick_shows_at_its_cap() {
        // 20 Hz ticks (50 ms) at a 30 fps cap: 1.5 frames a tick, so 1 or 2.
        let two = &LESSONS[1];
        assert_eq!(two.frames_per_tick().as_deref(), Some("1 or 2"));
        assert!(two.caption_lines(2)[1].contains("each tick for 1 or 2 frames"));
        let at_60 = Lesson {
            pacing: Pacing::Cap(60.0),
            ..*two
        };
        assert_eq!(at_60.frames_per_tick().as_deref(), Some("3"));
        let vsync = Lesson {
            pacing: Pacing::Vsync,
            ..*two
        };
        assert_eq!(vsync.frames_per_tick(), None);
        for (i, l) in LESSONS.iter().enumerate() {
            assert!(
                l.caption_lines(i + 1)
                    .iter()
                    .all(|line| !line.contains('{'))
            );
        }
    }

    #[test]
    fn lesson_4s_beat_comes_within_10_s_and_its_caption_says_when() {
        let four = &LESSONS[3];
        let (beat_s, ticks) = four.beat().unwrap_or_else(|| panic!("lesson 4 has a beat"));
        // A 30 Hz tick at a 29.7 fps cap: 1 / 0.3 Hz.
        assert!((beat_s - 10.0 / 3.0).abs() < 1e-4, "{beat_s}");
        assert!(beat_s < 10.0);
        assert_eq!(ticks, 2);
        let caption = four.caption_lines(4);
        assert!(
            caption[1].contains("29.7 fps cap: every 3.3 s a frame runs 2 ticks"),
            "{caption:?}"
        );
        // Lesson 2's 20 Hz tick at 30 fps is no beat: 1.5 frames a tick.
        assert_eq!(LESSONS[1].beat(), None);
        let at_29_97 = Lesson {
            pacing: Pacing::Cap(29.97),
            ..*four
        };
        assert!(at_29_97.beat().is_some_and(|(s, _)| s > 30.0));
    }

    #[test]
    fn lessons_2_4_and_5_say_when_the_frame_rate_is_too_low_for_their_point() {
        let (four, five) = (&LESSONS[3], &LESSONS[4]);
        // Xvfb's 24 fps: too slow for either; the notice names the rate and the need.
        for l in [&LESSONS[COARSE_TICK - 1], four, five] {
            let notice = l
                .notice(24.0, false)
                .unwrap_or_else(|| panic!("{}", l.title));
            assert!(notice[0].contains("24.0 fps"), "{notice:?}");
            for line in &notice {
                assert!(line.len() <= 84 && line.is_ascii(), "{line:?}");
            }
        }
        assert!(four.notice(24.0, false).unwrap()[0].contains("needs 28.2 (29.7 fps cap"));
        // At the cap: none; just under the least, the notice; shown, it waits for 98 %.
        assert_eq!(four.notice(29.7, false), None);
        assert!(five.notice(28.4, false).is_some());
        assert!(five.notice(29.0, true).is_some() && five.notice(29.0, false).is_none());
        // The other lessons' points show at any rate.
        for (i, l) in LESSONS
            .iter()
            .enumerate()
            .filter(|(i, _)| ![1, 3, 4].contains(i))
        {
            assert_eq!(l.notice(5.0, false), None, "lesson {}", i + 1);
        }
    }

    #[test]
    fn the_list_names_every_lesson_and_how_to_start_one() {
        let mut out = Vec::new();
        list(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for (i, l) in LESSONS.iter().enumerate() {
            assert!(text.contains(&format!("{}. {}", i + 1, l.title)), "{text}");
        }
        assert!(text.contains("--lesson N") && text.contains("each tick costs 12ms"));
        // Articles are named by title and author, never by the sources folder's file labels.
        let captions = LESSONS
            .iter()
            .enumerate()
            .flat_map(|(i, l)| l.caption_lines(i + 1));
        for line in captions.chain(text.lines().map(String::from)) {
            assert!(!line.to_lowercase().contains("seed"), "{line}");
        }
        assert!(
            text.contains(r#"Glenn Fiedler's "Fix Your Timestep!""#),
            "{text}"
        );
    }
}
