//! The loops `advise` tries when `--lanes` names none: each engine's preset as shipped and with
//! each option its settings reach, as typed constants (as the lessons' lanes are), built by the
//! crate's `const` constructors; what those cannot build is a variant of its own, so no
//! candidate can name a loop that does not exist.

use super::Engine;
use crate::model::lane::LaneSpec;
use timestep_loop::{Fuzzy, LoopSpec, Mode, Preset, TimerKind};

/// One loop `advise` may recommend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// A loop as the crate's `const` constructors build it.
    Loop(LoopSpec),
    /// That loop blending the shown state: a preset `+interpolated`, a mode interpolated with
    /// its options.
    Interpolated(LoopSpec),
    /// Godot without its jitter fix (`+jitter=0`), blending or not.
    GodotWithoutJitterFix {
        /// Whether it blends (`+interpolated`).
        interpolated: bool,
    },
}

impl Candidate {
    /// The lane it names, stepping the run's integrator.
    pub fn lane(self) -> LaneSpec {
        let looped = match self {
            Candidate::Loop(looped) => looped,
            Candidate::Interpolated(looped) => looped.interpolated(),
            Candidate::GodotWithoutJitterFix { interpolated } => {
                let godot = LoopSpec::preset(Preset::Godot);
                let godot = if interpolated {
                    godot.interpolated()
                } else {
                    godot
                };
                // Godot takes a jitter fix of 0: refused only for another preset.
                godot.with_jitter_fix(0.0).expect("Godot has a jitter fix")
            }
        };
        LaneSpec {
            looped,
            integrator: None,
        }
    }
}

const fn mode(mode: Mode) -> Candidate {
    Candidate::Loop(LoopSpec::mode(mode))
}
const fn preset(preset: Preset) -> Candidate {
    Candidate::Loop(LoopSpec::preset(preset))
}
const fn timed(mode: Mode, timer: TimerKind) -> Candidate {
    Candidate::Loop(LoopSpec::mode(mode).with_timer(Some(timer)))
}
const fn blending(preset: Preset) -> Candidate {
    Candidate::Interpolated(LoopSpec::preset(preset))
}

/// Godot's candidates: as shipped, interpolated, and each without the jitter fix.
pub const GODOT_CANDIDATES: [Candidate; 4] = [
    preset(Preset::Godot),
    blending(Preset::Godot),
    Candidate::GodotWithoutJitterFix {
        interpolated: false,
    },
    Candidate::GodotWithoutJitterFix { interpolated: true },
];

/// Our own crate's candidates: the modes, fixed and interpolated with each other timer and
/// window (the display timer among them: it steps by present feedback, which the simulated
/// display and a capture give), every preset, and the presets that can blend, blending.
pub const OWN_CANDIDATES: [Candidate; 23] = [
    mode(Mode::Variable),
    mode(Mode::SemiFixed),
    mode(Mode::Fixed),
    mode(Mode::Interpolated),
    timed(Mode::Fixed, TimerKind::Snap),
    timed(Mode::Fixed, TimerKind::Smooth),
    timed(Mode::Fixed, TimerKind::Display),
    Candidate::Loop(LoopSpec::fixed_fuzzy(Fuzzy::Window62)),
    Candidate::Loop(LoopSpec::fixed_fuzzy(Fuzzy::Window61)),
    timed(Mode::Interpolated, TimerKind::Snap),
    timed(Mode::Interpolated, TimerKind::Smooth),
    timed(Mode::Interpolated, TimerKind::Display),
    Candidate::Interpolated(LoopSpec::fixed_fuzzy(Fuzzy::Window62)),
    preset(Preset::Godot),
    preset(Preset::Bevy),
    preset(Preset::Unity),
    preset(Preset::MonoGame),
    preset(Preset::GameLoop),
    preset(Preset::Glaiel),
    blending(Preset::Godot),
    blending(Preset::Bevy),
    blending(Preset::Unity),
    blending(Preset::GameLoop),
];

/// The candidates `engine` can run (all of them for our own crate): its preset as shipped and
/// with each option its settings reach.
pub fn candidates(engine: Option<Engine>) -> Vec<LaneSpec> {
    let list: &[Candidate] = match engine {
        Some(Engine::Godot) => &GODOT_CANDIDATES,
        Some(Engine::Bevy) => &[preset(Preset::Bevy), blending(Preset::Bevy)],
        Some(Engine::Unity) => &[preset(Preset::Unity), blending(Preset::Unity)],
        Some(Engine::MonoGame) => &[preset(Preset::MonoGame)],
        Some(Engine::Custom) | None => &OWN_CANDIDATES,
    };
    list.iter().map(|c| c.lane()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_engines_candidates_are_named_as_its_settings_reach_them() {
        let names = |engine| {
            let lanes = candidates(engine);
            lanes
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        assert_eq!(
            names(Some(Engine::Godot)),
            "godot,godot+interpolated,godot+jitter=0,godot+interpolated+jitter=0"
        );
        assert_eq!(names(Some(Engine::Bevy)), "bevy,bevy+interpolated");
        assert_eq!(names(Some(Engine::Unity)), "unity,unity+interpolated");
        assert_eq!(names(Some(Engine::MonoGame)), "monogame");
        let own = "variable,semi-fixed,fixed,interpolated,fixed+snap,fixed+smooth,fixed+display,\
                   fixed+fuzzy,fixed+fuzzy59,interpolated+snap,interpolated+smooth,\
                   interpolated+display,interpolated+fuzzy,godot,\
                   bevy,unity,monogame,game-loop,glaiel,godot+interpolated,bevy+interpolated,\
                   unity+interpolated,game-loop+interpolated";
        assert_eq!(names(None), own);
        assert_eq!(names(Some(Engine::Custom)), own);
        // Each reads back as itself: a name typed on --lanes runs the same loop.
        for lane in candidates(None) {
            let text = lane.to_string();
            assert_eq!(
                crate::model::lane::parse_spec(&text).ok(),
                Some(lane),
                "{text}"
            );
        }
    }
}
