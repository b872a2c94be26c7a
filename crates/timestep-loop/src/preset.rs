//! Real engines' loops as data: each preset fixes the tick, the clamp, the step cap and what
//! happens to the excess, the step rule, the timer and what is shown, as the engine's own source
//! (or, for Unity, its documentation) says, in the version named. Each preset's one rule of its
//! own lives where its state does: Godot's jitter fix in `jitter.rs`, its delta smoother in
//! `smooth.rs`, MonoGame's sleep-and-retry and Glaiel's resync in the stepper, Glaiel's
//! snapping in `timer.rs`.
//!
//! Unreal is left out: its loop (`UEngine::UpdateTimeAndHandleMaxTickRate`) could be read only
//! through a third-party mirror, not from Epic's own source or documentation.

use crate::config::{ClampOn, ConfigError, StepRule, TimingConfig};
use crate::mode::Mode;
use crate::policy::{Policy, PolicyEnv};
use crate::tick::Tick;
use crate::timer::TimerKind;

/// One period of 60 Hz, exactly: 50,000,000 / 3 ns.
const SIXTY_HZ: Tick = Tick::from_rate_const(50_000_000, 3);

crate::named_enum! {
    /// An engine (or article) whose loop a [`crate::Loop`] runs, in the order the `presets` group
    /// lists them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum Preset as "preset" {
        /// Godot 4: 60 ticks, jitter fix, delta smoothing, at most 8 ticks a frame.
        Godot = "godot",
        /// Bevy: `Time<Fixed>` at 64 Hz, deltas clamped at 250 ms.
        Bevy = "bevy",
        /// Unity: `FixedUpdate` at 50 Hz, Maximum Allowed Timestep 1/3 s.
        Unity = "unity",
        /// MonoGame: 60 Hz fixed step that waits for a whole tick, accumulator clamped at 500 ms.
        MonoGame = "monogame",
        /// The `game-loop` crate: 60 updates a second, frames clamped at 0.1 s.
        GameLoop = "game-loop",
        /// Tyler Glaiel's FrameTimingControl: snapping timer, resync, blended.
        Glaiel = "glaiel",
    }
}

/// One preset's numbers and rules.
struct Rules {
    tick: Tick,
    /// The clamp and what it limits, if any.
    clamp: Option<(u64, ClampOn)>,
    max_steps: Option<u32>,
    rule: StepRule,
    wait_for_tick: bool,
    timer: TimerKind,
    blends: bool,
}

impl Preset {
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
                "TylerGlaiel/FrameTimingControl frame_timer.cpp (ed335bb, 2023): every frame \
                 snapped to whole periods of the display mode's whole-hertz rate (60 if unknown) \
                 within 0.2 ms, mean of 4, resync past 8 ticks and on the first frame, unlocked \
                 rendering with alpha"
            }
        }
    }

    fn rules(self) -> Rules {
        let base = Rules {
            // 60 updates a second, exactly (Godot's `1.0 / 60`, game-loop's `1.0 / 60.0`).
            tick: SIXTY_HZ,
            clamp: None,
            max_steps: None,
            rule: StepRule::Whole,
            wait_for_tick: false,
            timer: TimerKind::Raw,
            blends: false,
        };
        match self {
            // physics_ticks_per_second 60 (step 1.0/60 s), max_physics_steps_per_frame 8,
            // physics_jitter_fix 0.5, delta_smoothing on (it works only with vsync enabled).
            Preset::Godot => Rules {
                max_steps: Some(8),
                rule: StepRule::JitterFix { permille: 500 },
                timer: TimerKind::Smooth,
                ..base
            },
            // Time<Fixed> default 15,625 µs; Time<Virtual> max_delta 250 ms.
            Preset::Bevy => Rules {
                tick: Tick::from_ns(15_625_000),
                clamp: Some((250_000_000, ClampOn::Delta)),
                ..base
            },
            // fixedDeltaTime 0.02 s; maximumDeltaTime 0.3333333 s.
            Preset::Unity => Rules {
                tick: Tick::from_ns(20_000_000),
                clamp: Some((333_333_300, ClampOn::Delta)),
                ..base
            },
            // TargetElapsedTime 166,667 × 100 ns; MaxElapsedTime 500 ms, clamping the
            // accumulator; IsFixedTimeStep: wait for a whole step before running a frame.
            Preset::MonoGame => Rules {
                tick: Tick::from_ns(16_666_700),
                clamp: Some((500_000_000, ClampOn::Accumulator)),
                wait_for_tick: true,
                ..base
            },
            // updates_per_second 60 (step 1/60 s in f64), max_frame_time 0.1 s.
            Preset::GameLoop => Rules {
                clamp: Some((100_000_000, ClampOn::Delta)),
                ..base
            },
            // desired = cps / 60 truncated (16,666,666 ns at cps 1e9); the snapping timer (to
            // the display mode's rate on every frame, as the code does, not only while vsync is
            // detected) and its resync past 8 frames; unlocked: render(acc / desired).
            Preset::Glaiel => Rules {
                tick: Tick::from_ns(16_666_666),
                timer: TimerKind::Snap,
                blends: true,
                ..base
            },
        }
    }

    /// The preset's policy in `env`, with a loop's options: `timer` and `blend` override its
    /// own, `tick` its tick, `jitter_permille` Godot's jitter fix. A tick longer than the
    /// preset's clamp is refused: no frame could ever hold one.
    pub fn policy(
        self,
        env: &PolicyEnv,
        timer: Option<TimerKind>,
        blend: bool,
        tick: Option<Tick>,
        jitter_permille: Option<u32>,
    ) -> Result<Policy, ConfigError> {
        let r = self.rules();
        let rule = match (r.rule, jitter_permille) {
            (StepRule::JitterFix { .. }, Some(permille)) => StepRule::JitterFix { permille },
            (rule, _) => rule,
        };
        let mut timing = TimingConfig::new(tick.unwrap_or(r.tick))?.with_rule(rule)?;
        timing = match r.clamp {
            Some((ns, ClampOn::Delta)) => timing.with_clamp(ns)?,
            Some((ns, ClampOn::Accumulator)) => timing.with_accumulator_clamp(ns)?,
            None => timing,
        };
        if let Some(n) = r.max_steps {
            timing = timing.with_max_steps(n)?;
        }
        if r.wait_for_tick {
            timing = timing.waiting_for_tick();
        }
        Ok(Policy {
            mode: if r.blends || blend {
                Mode::Interpolated
            } else {
                Mode::Fixed
            },
            timing,
            timer: timer.unwrap_or(r.timer),
            max_substep_ns: env.max_substep.for_loop(true),
            preset: Some(self),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_fills_the_width_it_is_given() {
        assert_eq!(format!("{:>12}|", Preset::Godot), "       godot|");
        assert_eq!(format!("{:<12}|", Preset::GameLoop), "game-loop   |");
    }

    #[test]
    fn each_preset_has_the_numbers_its_source_documents() -> Result<(), ConfigError> {
        let env = PolicyEnv::textbook(TimingConfig::default());
        let p = |preset: Preset| preset.policy(&env, None, false, None, None);
        let godot = p(Preset::Godot)?;
        let t = godot.timing;
        assert_eq!(
            (t.tick(), t.max_steps()),
            (Tick::per_second(60).unwrap(), Some(8))
        );
        assert_eq!(t.tick_ns(), 16_666_667, "printed to the nearest ns");
        assert_eq!(t.rule(), StepRule::JitterFix { permille: 500 });
        assert_eq!((godot.timer, godot.mode), (TimerKind::Smooth, Mode::Fixed));
        let bevy = p(Preset::Bevy)?.timing;
        assert_eq!(
            (bevy.tick_ns(), bevy.clamp_ns()),
            (15_625_000, Some(250_000_000))
        );
        assert_eq!(bevy.max_steps(), None);
        let unity = p(Preset::Unity)?.timing;
        assert_eq!(
            (unity.tick_ns(), unity.clamp_ns()),
            (20_000_000, Some(333_333_300))
        );
        let mono = p(Preset::MonoGame)?.timing;
        assert_eq!(mono.tick_ns(), 166_667 * 100);
        assert_eq!(mono.clamp_on(), ClampOn::Accumulator);
        assert!(mono.waits_for_tick());
        assert_eq!(p(Preset::GameLoop)?.timing.clamp_ns(), Some(100_000_000));
        let glaiel = p(Preset::Glaiel)?;
        assert_eq!(
            (glaiel.timer, glaiel.mode),
            (TimerKind::Snap, Mode::Interpolated)
        );
        // Ticks are integrated whole unless asked; asked for the default maximum substep,
        // every preset substeps its tick at 1 ms: 17 substeps of a 60 Hz tick.
        assert_eq!(godot.substeps_per_tick(), 1);
        let env = PolicyEnv {
            max_substep: crate::MaxSubstep::Default,
            ..env
        };
        let p = |preset: Preset| preset.policy(&env, None, false, None, None);
        assert_eq!(p(Preset::Godot)?.substeps_per_tick(), 17);
        assert_eq!(p(Preset::Bevy)?.substeps_per_tick(), 16);
        Ok(())
    }

    #[test]
    fn a_tick_longer_than_the_presets_clamp_is_refused() {
        let env = PolicyEnv::default();
        let tick =
            |preset: Preset, ns: u64| preset.policy(&env, None, false, Some(ns.into()), None);
        assert!(matches!(
            tick(Preset::Bevy, 300_000_000),
            Err(ConfigError::ClampBelowTick { .. })
        ));
        assert!(tick(Preset::Bevy, 250_000_000).is_ok());
        assert!(tick(Preset::GameLoop, 200_000_000).is_err());
        assert!(tick(Preset::MonoGame, 600_000_000).is_err());
        // Godot has no clamp: any tick will do.
        assert!(tick(Preset::Godot, 2_000_000_000).is_ok());
    }
}
