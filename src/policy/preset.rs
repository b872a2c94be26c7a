//! Real engines' loops as data: each preset fixes the tick, the clamp, the step cap and what
//! happens to the excess, the step rule, the timer and what is shown, as the engine's own source
//! (or, for Unity, its documentation) says, in the version named. Each preset's one rule of its
//! own lives where its state does: Godot's jitter fix in `timing/jitter.rs`, its delta smoother
//! in `timing/smooth.rs`, MonoGame's sleep-and-retry and Glaiel's resync in the stepper,
//! Glaiel's snapping in `timing/timer.rs`.
//!
//! Unreal is left out: its loop (`UEngine::UpdateTimeAndHandleMaxTickRate`) could be read only
//! through a third-party mirror, not from Epic's own source or documentation.

use super::{Policy, PolicyEnv};
use crate::timing::{ClampOn, Mode, StepRule, TimerKind, TimingConfig, one_of};
use std::fmt;
use std::str::FromStr;

/// An engine (or article) whose loop a lane runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    Godot,
    Bevy,
    Unity,
    MonoGame,
    GameLoop,
    Glaiel,
}

/// One preset's numbers and rules.
struct Rules {
    tick_ns: u64,
    clamp_ns: u64,
    clamp_on: ClampOn,
    max_steps: u32,
    rule: StepRule,
    wait_for_tick: bool,
    timer: TimerKind,
    blends: bool,
}

const NO_CLAMP: u64 = u64::MAX;
const NO_CAP: u32 = u32::MAX;

impl Preset {
    pub const ALL: [Preset; 6] = [
        Preset::Godot,
        Preset::Bevy,
        Preset::Unity,
        Preset::MonoGame,
        Preset::GameLoop,
        Preset::Glaiel,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Godot => "godot",
            Preset::Bevy => "bevy",
            Preset::Unity => "unity",
            Preset::MonoGame => "monogame",
            Preset::GameLoop => "game-loop",
            Preset::Glaiel => "glaiel",
        }
    }

    /// The source (file and version) the preset follows.
    pub fn source(self) -> &'static str {
        match self {
            Preset::Godot => {
                "Godot 4.3-stable: main/main_timer_sync.cpp (jitter fix 0.5, DeltaSmoother), \
                 main/main.cpp Main::iteration (60 ticks, at most 8 a frame, excess dropped)"
            }
            Preset::Bevy => {
                "Bevy 0.19: crates/bevy_time/src/fixed.rs (64 Hz, expend while overstep >= \
                 timestep, no cap), crates/bevy_time/src/virt.rs (max_delta 250 ms, excess \
                 dropped)"
            }
            Preset::Unity => {
                "Unity 6 Manual: Time Manager (Fixed Timestep 0.02 s, Maximum Allowed Timestep \
                 0.3333333 s) and 'Handling variation in time' (fixed updates while fixedTime + \
                 fixedDeltaTime <= time; time past the maximum is dropped)"
            }
            Preset::MonoGame => {
                "MonoGame 3.8.4: MonoGame.Framework/Game.cs Tick() (TargetElapsedTime 166,667 \
                 ticks of 100 ns, MaxElapsedTime 500 ms on the accumulator, sleep and retry \
                 below one step)"
            }
            Preset::GameLoop => {
                "game-loop 1.1.0 (tuzz/game-loop): src/base.rs GameLoop::next_frame (60 updates \
                 a second, max_frame_time 0.1 s as in its README's example, no cap)"
            }
            Preset::Glaiel => {
                "TylerGlaiel/FrameTimingControl frame_timer.cpp (ed335bb, 2023): snap to whole \
                 refresh periods within 0.2 ms, mean of 4, resync past 8 frames, unlocked \
                 rendering with alpha"
            }
        }
    }

    fn rules(self) -> Rules {
        let base = Rules {
            tick_ns: 16_666_667,
            clamp_ns: NO_CLAMP,
            clamp_on: ClampOn::Delta,
            max_steps: NO_CAP,
            rule: StepRule::Whole,
            wait_for_tick: false,
            timer: TimerKind::Raw,
            blends: false,
        };
        match self {
            // physics_ticks_per_second 60 (step 1.0/60 s), max_physics_steps_per_frame 8,
            // physics_jitter_fix 0.5, delta_smoothing on (it works only with vsync enabled).
            Preset::Godot => Rules {
                max_steps: 8,
                rule: StepRule::JitterFix { permille: 500 },
                timer: TimerKind::Smooth,
                ..base
            },
            // Time<Fixed> default 15,625 µs; Time<Virtual> max_delta 250 ms.
            Preset::Bevy => Rules {
                tick_ns: 15_625_000,
                clamp_ns: 250_000_000,
                ..base
            },
            // fixedDeltaTime 0.02 s; maximumDeltaTime 0.3333333 s.
            Preset::Unity => Rules {
                tick_ns: 20_000_000,
                clamp_ns: 333_333_300,
                ..base
            },
            // TargetElapsedTime 166,667 × 100 ns; MaxElapsedTime 500 ms, clamping the
            // accumulator; IsFixedTimeStep: wait for a whole step before running a frame.
            Preset::MonoGame => Rules {
                tick_ns: 16_666_700,
                clamp_ns: 500_000_000,
                clamp_on: ClampOn::Accumulator,
                wait_for_tick: true,
                ..base
            },
            // updates_per_second 60 (step 1/60 s in f64), max_frame_time 0.1 s.
            Preset::GameLoop => Rules {
                clamp_ns: 100_000_000,
                ..base
            },
            // desired = cps / 60 truncated (16,666,666 ns at cps 1e9); the snapping timer and
            // its resync past 8 frames; unlocked: render(acc / desired).
            Preset::Glaiel => Rules {
                tick_ns: 16_666_666,
                timer: TimerKind::Snap,
                blends: true,
                ..base
            },
        }
    }

    /// The preset's policy, with the lane's options: `timer` and `blend` override its own,
    /// `tick_ns` its tick, `jitter_permille` Godot's jitter fix.
    pub fn policy(
        self,
        env: &PolicyEnv,
        timer: Option<TimerKind>,
        blend: bool,
        tick_ns: Option<u64>,
        jitter_permille: Option<u32>,
    ) -> Policy {
        let r = self.rules();
        let rule = match (r.rule, jitter_permille) {
            (StepRule::JitterFix { .. }, Some(permille)) => StepRule::JitterFix { permille },
            (rule, _) => rule,
        };
        let timer = timer.unwrap_or(r.timer);
        let timing = TimingConfig {
            dt_ns: tick_ns.unwrap_or(r.tick_ns),
            clamp_ns: r.clamp_ns,
            clamp_on: r.clamp_on,
            max_steps: r.max_steps,
            rule,
            wait_for_tick: r.wait_for_tick,
        };
        Policy {
            mode: if r.blends || blend {
                Mode::Interpolated
            } else {
                Mode::Fixed
            },
            timing,
            timer,
            max_substep_ns: env.max_substep.for_lane(true),
            preset: Some(self),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown preset '{s}' (expected {})",
                    one_of(Preset::ALL.map(Preset::name))
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_preset_has_the_numbers_its_source_documents() {
        let env = PolicyEnv::textbook(TimingConfig::new(1_000_000, 250_000_000, None).unwrap());
        let p = |preset: Preset| preset.policy(&env, None, false, None, None);
        let godot = p(Preset::Godot);
        assert_eq!(
            (godot.timing.dt_ns, godot.timing.cap()),
            (16_666_667, Some(8))
        );
        assert_eq!(godot.timing.rule, StepRule::JitterFix { permille: 500 });
        assert_eq!((godot.timer, godot.mode), (TimerKind::Smooth, Mode::Fixed));
        let bevy = p(Preset::Bevy);
        assert_eq!(
            (bevy.timing.dt_ns, bevy.timing.clamp()),
            (15_625_000, Some(250_000_000))
        );
        assert_eq!(bevy.timing.cap(), None);
        let unity = p(Preset::Unity);
        assert_eq!(
            (unity.timing.dt_ns, unity.timing.clamp()),
            (20_000_000, Some(333_333_300))
        );
        let mono = p(Preset::MonoGame);
        assert_eq!(mono.timing.dt_ns, 166_667 * 100);
        assert_eq!(mono.timing.clamp_on, ClampOn::Accumulator);
        assert!(mono.timing.wait_for_tick);
        let gl = p(Preset::GameLoop);
        assert_eq!(gl.timing.clamp(), Some(100_000_000));
        let glaiel = p(Preset::Glaiel);
        assert_eq!(
            (glaiel.timer, glaiel.mode),
            (TimerKind::Snap, Mode::Interpolated)
        );
        // Every preset substeps its tick at 1 ms by default: 17 substeps of a 60 Hz tick.
        assert_eq!(godot.substeps_per_tick(), 17);
        assert_eq!(bevy.substeps_per_tick(), 16);
    }
}
