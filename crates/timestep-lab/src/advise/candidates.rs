//! The loops `advise` tries when `--lanes` names none: each engine's preset as shipped and with
//! each option its settings reach, as typed constants checked as they are compiled (as the
//! lessons' lanes are).

use super::Engine;
use crate::lane::LaneSpec;
use timestep_loop::{Base, Fuzzy, LoopSpec, Mode, Preset, TimerKind};

/// One loop `advise` may recommend: its base and options, each checked to apply to it as the
/// constant is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    base: Base,
    timer: Option<TimerKind>,
    fuzzy: Option<Fuzzy>,
    blend: bool,
    no_jitter_fix: bool,
}

impl Candidate {
    /// A textbook mode with its own timer.
    const fn mode(mode: Mode) -> Candidate {
        Candidate {
            base: Base::Mode(mode),
            timer: None,
            fuzzy: None,
            blend: false,
            no_jitter_fix: false,
        }
    }

    /// An engine's loop as it ships.
    const fn preset(preset: Preset) -> Candidate {
        Candidate {
            base: Base::Preset(preset),
            ..Candidate::mode(Mode::Fixed)
        }
    }

    /// With `timer` (`+snap`, `+smooth`), the only one given.
    const fn timer(self, timer: TimerKind) -> Candidate {
        assert!(self.timer.is_none(), "a candidate has one timer");
        Candidate {
            timer: Some(timer),
            ..self
        }
    }

    /// Stepping by Glaiel's `fuzzy` window: fixed and interpolated only.
    const fn fuzzy(self, fuzzy: Fuzzy) -> Candidate {
        assert!(
            matches!(self.base, Base::Mode(Mode::Fixed | Mode::Interpolated)),
            "a fuzzy window needs a mode that accumulates time"
        );
        Candidate {
            fuzzy: Some(fuzzy),
            ..self
        }
    }

    /// A preset blending the shown state (`+interpolated`); a mode blends by being
    /// `interpolated`.
    const fn interpolated(self) -> Candidate {
        assert!(
            matches!(self.base, Base::Preset(_)),
            "only a preset takes +interpolated"
        );
        Candidate {
            blend: true,
            ..self
        }
    }

    /// Godot without its jitter fix (`+jitter=0`).
    const fn without_jitter_fix(self) -> Candidate {
        assert!(
            matches!(self.base, Base::Preset(Preset::Godot)),
            "only Godot has a jitter fix"
        );
        Candidate {
            no_jitter_fix: true,
            ..self
        }
    }

    /// The lane it names, stepping the run's integrator.
    pub fn lane(self) -> LaneSpec {
        let looped = match (self.base, self.fuzzy) {
            (Base::Mode(mode), Some(fuzzy)) => LoopSpec::fixed_fuzzy(fuzzy).as_mode(mode),
            (Base::Mode(mode), None) => LoopSpec::mode(mode),
            (Base::Preset(preset), _) => LoopSpec::preset(preset),
        }
        .with_timer(self.timer);
        let looped = if self.blend {
            looped.interpolated()
        } else {
            looped
        };
        let looped = match self.no_jitter_fix {
            // Checked as the constant was compiled: the base is Godot, and 0 is in range.
            true => looped
                .with_jitter_fix(0.0)
                .expect("Candidate::without_jitter_fix takes Godot alone"),
            false => looped,
        };
        LaneSpec {
            looped,
            integrator: None,
        }
    }
}

const GODOT: Candidate = Candidate::preset(Preset::Godot);
const BEVY: Candidate = Candidate::preset(Preset::Bevy);
const UNITY: Candidate = Candidate::preset(Preset::Unity);
const FIXED: Candidate = Candidate::mode(Mode::Fixed);
const INTERPOLATED: Candidate = Candidate::mode(Mode::Interpolated);

/// Godot's candidates: as shipped, interpolated, and each without the jitter fix.
pub const GODOT_CANDIDATES: [Candidate; 4] = [
    GODOT,
    GODOT.interpolated(),
    GODOT.without_jitter_fix(),
    GODOT.interpolated().without_jitter_fix(),
];

/// Our own crate's candidates: the modes, fixed and interpolated with each other timer and
/// window, every preset, and the presets that can blend, blending.
pub const OWN_CANDIDATES: [Candidate; 21] = [
    Candidate::mode(Mode::Variable),
    Candidate::mode(Mode::SemiFixed),
    FIXED,
    INTERPOLATED,
    FIXED.timer(TimerKind::Snap),
    FIXED.timer(TimerKind::Smooth),
    FIXED.fuzzy(Fuzzy::Window62),
    FIXED.fuzzy(Fuzzy::Window61),
    INTERPOLATED.timer(TimerKind::Snap),
    INTERPOLATED.timer(TimerKind::Smooth),
    INTERPOLATED.fuzzy(Fuzzy::Window62),
    GODOT,
    BEVY,
    UNITY,
    Candidate::preset(Preset::MonoGame),
    Candidate::preset(Preset::GameLoop),
    Candidate::preset(Preset::Glaiel),
    GODOT.interpolated(),
    BEVY.interpolated(),
    UNITY.interpolated(),
    Candidate::preset(Preset::GameLoop).interpolated(),
];

/// The candidates `engine` can run (all of them for our own crate): its preset as shipped and
/// with each option its settings reach.
pub fn candidates(engine: Option<Engine>) -> Vec<LaneSpec> {
    let list: &[Candidate] = match engine {
        Some(Engine::Godot) => &GODOT_CANDIDATES,
        Some(Engine::Bevy) => &[BEVY, BEVY.interpolated()],
        Some(Engine::Unity) => &[UNITY, UNITY.interpolated()],
        Some(Engine::MonoGame) => &[Candidate::preset(Preset::MonoGame)],
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
        let own = "variable,semi-fixed,fixed,interpolated,fixed+snap,fixed+smooth,fixed+fuzzy,\
                   fixed+fuzzy59,interpolated+snap,interpolated+smooth,interpolated+fuzzy,godot,\
                   bevy,unity,monogame,game-loop,glaiel,godot+interpolated,bevy+interpolated,\
                   unity+interpolated,game-loop+interpolated";
        assert_eq!(names(None), own);
        assert_eq!(names(Some(Engine::Custom)), own);
        // Each reads back as itself: a name typed on --lanes runs the same loop.
        for lane in candidates(None) {
            let text = lane.to_string();
            assert_eq!(crate::lane::parse_spec(&text).ok(), Some(lane), "{text}");
        }
    }
}
