//! How to get a loop in an engine: one table, [`SETTINGS`], each row a setting by its real
//! name, what it is set from, and the page of the engine's documentation that names it (a test
//! pins every name and default to that page's words).

use super::{Measured, Paced};
use timestep_loop::{Pacing, StepRule, TimerKind, seconds};

timestep_loop::named_enum! {
    /// The engine a user ships on (`--engine`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Engine as "engine" {
        /// Godot 4.
        Godot = "godot",
        /// Bevy.
        Bevy = "bevy",
        /// Unity.
        Unity = "unity",
        /// MonoGame.
        MonoGame = "monogame",
        /// A loop of one's own, built with this project's `timestep-loop` crate.
        Custom = "custom",
    }
}

impl Engine {
    /// The name a reader knows it by.
    pub fn title(self) -> &'static str {
        match self {
            Engine::Godot => "Godot 4",
            Engine::Bevy => "Bevy",
            Engine::Unity => "Unity",
            Engine::MonoGame => "MonoGame",
            Engine::Custom => "your own loop (the timestep-loop crate)",
        }
    }

    /// Whether its settings can pace frames this way: every engine waits for vsync; Godot's
    /// `max_fps` and Unity's `targetFrameRate` cap the frame rate; only a loop of one's own holds
    /// presents to a deadline, or paces adaptively or late.
    pub fn paces(self, pacing: Pacing) -> bool {
        match pacing {
            Pacing::Vsync => true,
            Pacing::Cap(_) => matches!(self, Engine::Godot | Engine::Unity | Engine::Custom),
            Pacing::Hold(_) | Pacing::Adaptive | Pacing::Late => self == Engine::Custom,
            // A pacing newer than this table: only a loop of one's own has it.
            _ => self == Engine::Custom,
        }
    }

    /// Its rows of [`SETTINGS`], in order.
    pub fn settings(self) -> impl Iterator<Item = &'static Setting> {
        SETTINGS.iter().filter(move |s| s.engine == self)
    }
}

/// What a setting's value is made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knob {
    /// Ticks per second, a whole number.
    TicksPerSecond,
    /// Ticks per second, as Bevy's code writes it.
    BevyHz,
    /// The tick, s.
    TickSeconds,
    /// The tick, in 100 ns ticks of a .NET `TimeSpan`.
    TickTimeSpan,
    /// The step cap.
    MaxSteps,
    /// Godot's jitter fix.
    JitterFix,
    /// Whether the shown state is blended between ticks.
    Interpolation,
    /// The clamp on a frame's time, s.
    ClampSeconds,
    /// Whether presents wait for vblank.
    Vsync,
    /// The frame rate cap (`cap:` pacing), or none.
    FrameCap,
    /// Where fixed-tick systems run (always).
    FixedSchedule,
    /// Whether the game steps fixed ticks (always).
    FixedStep,
    /// This crate's loop, by its spec.
    LoopSpec,
    /// This crate's textbook timing (a mode's tick, clamp and cap; a preset brings its own).
    Timing,
    /// This crate's pacing.
    Pacer,
    /// This crate's present feedback, for the `display` timer (no line for the others).
    DisplayFeedback,
}

/// One setting: the engine, its real name, what sets it, and the page that documents it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The engine the setting belongs to.
    pub engine: Engine,
    /// The setting's real name, as the engine's documentation writes it.
    pub name: &'static str,
    /// What the setting's value is made from.
    pub knob: Knob,
    /// The engine documentation page that names the setting (a URL).
    pub doc: &'static str,
}

const GODOT_ENGINE: &str = "https://docs.godotengine.org/en/stable/classes/class_engine.html";
const GODOT_SETTINGS: &str =
    "https://docs.godotengine.org/en/stable/tutorials/editor/project_settings.html";
const GODOT_INTERPOLATION: &str = "https://docs.godotengine.org/en/stable/tutorials/physics/\
                                   interpolation/physics_interpolation_quick_start_guide.html";
const BEVY_FIXED: &str = "https://docs.rs/bevy/latest/bevy/time/struct.Fixed.html";
const BEVY_PRESENT: &str = "https://docs.rs/bevy/latest/bevy/window/enum.PresentMode.html";
const UNITY_FIXED: &str = "https://docs.unity3d.com/ScriptReference/Time-fixedDeltaTime.html";
const UNITY_MAX: &str = "https://docs.unity3d.com/ScriptReference/Time-maximumDeltaTime.html";
const UNITY_INTERPOLATION: &str =
    "https://docs.unity3d.com/ScriptReference/RigidbodyInterpolation.html";
const UNITY_VSYNC: &str =
    "https://docs.unity3d.com/ScriptReference/QualitySettings-vSyncCount.html";
const XNA_FIXED: &str =
    "https://learn.microsoft.com/en-us/previous-versions/windows/xna/bb197693(v=xnagamestudio.41)";
const XNA_TARGET: &str =
    "https://learn.microsoft.com/en-us/previous-versions/windows/xna/bb199300(v=xnagamestudio.41)";
const XNA_VSYNC: &str =
    "https://learn.microsoft.com/en-us/previous-versions/windows/xna/bb199279(v=xnagamestudio.41)";
/// This project's own crate, whose README shows the loop dropped into a game.
const CRATE: &str = "crates/timestep-loop/README.md";

/// Every engine's settings, one row each: the engine, the setting's name, what sets it, and the
/// page that documents it.
pub const SETTINGS: &[Setting] = &[
    row(
        Engine::Godot,
        "physics/common/physics_ticks_per_second",
        Knob::TicksPerSecond,
        GODOT_ENGINE,
    ),
    row(
        Engine::Godot,
        "physics/common/max_physics_steps_per_frame",
        Knob::MaxSteps,
        GODOT_ENGINE,
    ),
    row(
        Engine::Godot,
        "physics/common/physics_jitter_fix",
        Knob::JitterFix,
        GODOT_ENGINE,
    ),
    row(
        Engine::Godot,
        "physics/common/physics_interpolation",
        Knob::Interpolation,
        GODOT_INTERPOLATION,
    ),
    row(
        Engine::Godot,
        "application/run/max_fps",
        Knob::FrameCap,
        GODOT_SETTINGS,
    ),
    row(
        Engine::Bevy,
        "Time::<Fixed>::from_hz",
        Knob::BevyHz,
        BEVY_FIXED,
    ),
    row(Engine::Bevy, "FixedUpdate", Knob::FixedSchedule, BEVY_FIXED),
    row(
        Engine::Bevy,
        "Time::<Fixed>::overstep_fraction",
        Knob::Interpolation,
        BEVY_FIXED,
    ),
    row(Engine::Bevy, "PresentMode", Knob::Vsync, BEVY_PRESENT),
    row(
        Engine::Unity,
        "Time.fixedDeltaTime",
        Knob::TickSeconds,
        UNITY_FIXED,
    ),
    row(
        Engine::Unity,
        "Time.maximumDeltaTime",
        Knob::ClampSeconds,
        UNITY_MAX,
    ),
    row(
        Engine::Unity,
        "Rigidbody.interpolation",
        Knob::Interpolation,
        UNITY_INTERPOLATION,
    ),
    row(
        Engine::Unity,
        "QualitySettings.vSyncCount",
        Knob::Vsync,
        UNITY_VSYNC,
    ),
    row(
        Engine::Unity,
        "Application.targetFrameRate",
        Knob::FrameCap,
        UNITY_VSYNC,
    ),
    row(
        Engine::MonoGame,
        "Game.IsFixedTimeStep",
        Knob::FixedStep,
        XNA_FIXED,
    ),
    row(
        Engine::MonoGame,
        "Game.TargetElapsedTime",
        Knob::TickTimeSpan,
        XNA_TARGET,
    ),
    row(
        Engine::MonoGame,
        "GraphicsDeviceManager.SynchronizeWithVerticalRetrace",
        Knob::Vsync,
        XNA_VSYNC,
    ),
    row(
        Engine::Custom,
        "timestep_loop::TimingConfig::textbook",
        Knob::Timing,
        CRATE,
    ),
    row(
        Engine::Custom,
        "timestep_loop::LoopSpec::parse",
        Knob::LoopSpec,
        CRATE,
    ),
    row(
        Engine::Custom,
        "timestep_loop::Pacer::new",
        Knob::Pacer,
        CRATE,
    ),
    row(
        Engine::Custom,
        "timestep_loop::Loop::display_feedback",
        Knob::DisplayFeedback,
        CRATE,
    ),
];

const fn row(engine: Engine, name: &'static str, knob: Knob, doc: &'static str) -> Setting {
    Setting {
        engine,
        name,
        knob,
        doc,
    }
}

impl Setting {
    /// The value that gets `m`'s loop, written as the engine takes it; `vsync` is whether the
    /// display waits for vblank.
    pub fn value(&self, m: &Measured, vsync: bool) -> String {
        let p = &m.report.policy;
        let t = &p.timing;
        let tick_s = seconds(t.tick_ns());
        match self.knob {
            Knob::TicksPerSecond => format!("{}", (1.0 / tick_s).round()),
            Knob::BevyHz => format!(
                "app.insert_resource(Time::<Fixed>::from_hz({:.1}))",
                1.0 / tick_s
            ),
            Knob::TickSeconds => format!("{tick_s}"),
            Knob::TickTimeSpan => {
                format!("TimeSpan.FromTicks({})", (tick_s * 1e7).round() as u64)
            }
            Knob::MaxSteps => t.max_steps().map_or("0".into(), |n| n.to_string()),
            Knob::JitterFix => match t.rule() {
                StepRule::JitterFix { permille } if p.mode.accumulates() => {
                    format!("{}", f64::from(permille) / 1000.0)
                }
                _ => "0".into(),
            },
            Knob::ClampSeconds => t
                .clamp_ns()
                .map_or("none".into(), |c| format!("{}", seconds(c))),
            Knob::Interpolation => self.interpolation(p.mode.blends()),
            Knob::Vsync => self.vsync(vsync && m.pacing.cap().is_none()),
            Knob::FrameCap => match (self.engine, m.pacing.cap()) {
                (_, Some(hz)) => format!("{hz}"),
                (Engine::Unity, None) => "-1".into(),
                (_, None) => "0".into(),
            },
            Knob::FixedSchedule => "app.add_systems(FixedUpdate, your_simulation)".into(),
            Knob::FixedStep => "true".into(),
            Knob::LoopSpec | Knob::Timing | Knob::Pacer => self.code(m),
            Knob::DisplayFeedback if p.timer == TimerKind::Display => {
                "lp.begin_frame_at(now) each frame; lp.display_feedback(frame, Some(shown_at), \
                 Some(refresh)) as the display reports it (Wayland wp_presentation)"
                    .into()
            }
            Knob::DisplayFeedback => String::new(),
        }
    }

    /// Whether the shown state `blends`, as the engine's setting says it.
    fn interpolation(&self, blends: bool) -> String {
        match (self.engine, blends) {
            (Engine::Godot, b) => b.to_string(),
            (Engine::Unity, true) => "RigidbodyInterpolation.Interpolate".into(),
            (Engine::Unity, false) => "RigidbodyInterpolation.None".into(),
            (_, true) => "in Update, draw previous.lerp(current, fixed.overstep_fraction())".into(),
            (_, false) => "not used: draw the latest state".into(),
        }
    }

    /// Whether presents wait for vblank (`on`), as the engine's setting says it.
    fn vsync(&self, on: bool) -> String {
        match (self.engine, on) {
            (Engine::Bevy, true) => "Window { present_mode: PresentMode::AutoVsync, .. }".into(),
            (Engine::Bevy, false) => "Window { present_mode: PresentMode::AutoNoVsync, .. }".into(),
            (Engine::Unity, on) => u8::from(on).to_string(),
            (_, on) => on.to_string(),
        }
    }

    /// Our own crate's line of code for `m`'s loop, timing or pacer.
    fn code(&self, m: &Measured) -> String {
        let p = &m.report.policy;
        let t = &p.timing;
        match (self.knob, m.pacing) {
            (Knob::LoopSpec, _) => format!(
                "Loop::new(LoopSpec::parse(\"{}\")?, &{})?",
                m.spec.looped,
                if p.preset.is_some() {
                    "PolicyEnv::default()"
                } else {
                    "PolicyEnv::textbook(timing)"
                }
            ),
            (Knob::Timing, _) if p.preset.is_some() => {
                "// no TimingConfig to write: the preset brings its own tick, clamp and cap".into()
            }
            (Knob::Timing, _) => format!(
                "let timing = TimingConfig::textbook({}, {}, {:?})?; // tick, clamp (ns), cap",
                t.tick_ns(),
                t.clamp_ns().unwrap_or(0),
                t.max_steps()
            ),
            (_, Paced::AsCaptured) => {
                "// no Pacer chosen here: the capture fixed the pacing; keep your game's own".into()
            }
            (_, paced) => format!(
                "Pacer::new(\"{}\".parse()?, Some(refresh_hz))",
                paced.pacing()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each cited page says, in its own words (copied from the page): every setting's
    /// name must appear in its page's words, and where the page gives a default, the preset
    /// that follows the engine must have it.
    const PAGES: &[(&str, &str)] = &[
        (
            GODOT_ENGINE,
            "Properties int max_fps 0 int max_physics_steps_per_frame 8 float \
             physics_jitter_fix 0.5 int physics_ticks_per_second 60",
        ),
        (
            GODOT_SETTINGS,
            "Changing project settings with code: You can use set_setting() to change a \
             setting's value in code: ProjectSettings.set_setting(\"application/run/max_fps\", \
             60) ... Engine.max_fps = 60",
        ),
        (
            GODOT_INTERPOLATION,
            "Turn on physics interpolation: Project Settings > Physics > Common > Physics \
             Interpolation",
        ),
        (
            BEVY_FIXED,
            "pub fn from_hz(hz: f64) -> Self Return new fixed time clock with given timestep \
             frequency in Hertz (1/seconds). The clock is automatically set as the generic \
             Time resource during FixedUpdate schedule processing. The default timestep() is \
             64 hertz, or 15625 microseconds. pub fn overstep_fraction(&self) -> f32 Returns \
             the amount of overstep time accumulated toward new steps, as an f32 fraction of \
             the timestep.",
        ),
        (
            BEVY_PRESENT,
            "Enum PresentMode pub enum PresentMode { AutoVsync = 0, AutoNoVsync = 1, .. } \
             Presentation mode for a Window. AutoVsync Chooses FifoRelaxed -> Fifo based on \
             availability. AutoNoVsync Chooses Immediate -> Mailbox -> Fifo (on web) based on \
             availability.",
        ),
        (
            UNITY_FIXED,
            "Time.fixedDeltaTime public static float fixedDeltaTime; The interval in seconds \
             of in-game time at which physics and other fixed frame rate updates (like \
             MonoBehaviour's MonoBehaviour.FixedUpdate) are performed.",
        ),
        (
            UNITY_MAX,
            "Time.maximumDeltaTime public static float maximumDeltaTime; The maximum value of \
             Time.deltaTime in any given frame.",
        ),
        (
            UNITY_INTERPOLATION,
            "RigidbodyInterpolation Rigidbody interpolation mode. Additional resources: \
             Rigidbody.interpolation. None No Interpolation. Interpolate Interpolation will \
             always lag a little bit behind but can be smoother than extrapolation.",
        ),
        (
            UNITY_VSYNC,
            "QualitySettings.vSyncCount public static int vSyncCount; The number of vertical \
             syncs that should pass between each frame. Depending on your target platform, use \
             either vSyncCount or Application.targetFrameRate to set your application frame \
             rate.",
        ),
        (
            XNA_FIXED,
            "Game.IsFixedTimeStep Property Gets or sets a value indicating whether to use fixed \
             time steps. The default value for IsFixedTimeStep is true.",
        ),
        (
            XNA_TARGET,
            "Game.TargetElapsedTime Property Gets or sets the target time between calls to \
             Update when IsFixedTimeStep is true.",
        ),
        (
            XNA_VSYNC,
            "GraphicsDeviceManager.SynchronizeWithVerticalRetrace Property Gets or sets a value \
             that indicates whether to sync to the vertical trace (vsync) when presenting the \
             back buffer.",
        ),
    ];

    /// The page's words for `url`.
    fn page(url: &str) -> &'static str {
        PAGES
            .iter()
            .find(|(u, _)| *u == url)
            .map(|(_, words)| *words)
            .unwrap_or_else(|| panic!("no words kept for {url}"))
    }

    /// How a page may write a setting's name: as given, by its last part (Godot's Engine page
    /// lists the project settings' properties by it), or as an editor menu path
    /// ("Physics > Common > Physics Interpolation").
    fn spellings(name: &str) -> Vec<String> {
        let last = name
            .rsplit(['/', ':', '.'])
            .next()
            .unwrap_or(name)
            .to_string();
        let menu = name
            .split('/')
            .map(|part| {
                part.split('_')
                    .map(|w| {
                        let mut c = w.chars();
                        c.next()
                            .map(|f| f.to_uppercase().chain(c).collect::<String>())
                            .unwrap_or_default()
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join(" > ");
        vec![name.to_string(), last, menu]
    }

    #[test]
    fn every_setting_is_named_as_its_page_names_it() {
        for s in SETTINGS.iter().filter(|s| s.engine != Engine::Custom) {
            let words = page(s.doc);
            let names = spellings(s.name);
            assert!(
                names.iter().any(|n| words.contains(n.as_str())),
                "{} is not on {}: {names:?}",
                s.name,
                s.doc
            );
        }
        // Our own crate's rows cite its README, which must show them.
        let readme = include_str!("../../../../timestep-loop/README.md");
        for s in Engine::Custom.settings() {
            assert_eq!(s.doc, CRATE);
            let item = s.name.rsplit("::").nth(1).unwrap_or(s.name);
            assert!(
                readme.contains(item),
                "the crate's README never shows {item}"
            );
        }
    }

    #[test]
    fn the_presets_have_the_defaults_the_pages_give() {
        use crate::analyses::advise::candidates;
        let env = timestep_loop::PolicyEnv::default();
        let policy = |name: &str| {
            let spec = crate::model::lane::parse_spec(name).unwrap_or_else(|e| panic!("{e}"));
            crate::model::lane::PolicyReport::new(
                &spec.looped.policy(&env).unwrap_or_else(|e| panic!("{e}")),
            )
        };
        let godot = policy("godot");
        let words = page(GODOT_ENGINE);
        for (setting, value) in [
            (
                "physics_ticks_per_second",
                format!("{}", (1.0 / godot.tick_s).round()),
            ),
            (
                "max_physics_steps_per_frame",
                format!("{}", godot.max_steps.unwrap_or(0)),
            ),
            ("physics_jitter_fix", "0.5".to_string()),
            ("max_fps", "0".to_string()),
        ] {
            let said = format!("{setting} {value}");
            assert!(words.contains(&said), "Godot's page does not say '{said}'");
        }
        assert_eq!(godot.step_rule, "jitter fix 0.5");
        assert!(page(BEVY_FIXED).contains("64 hertz, or 15625 microseconds"));
        assert_eq!(policy("bevy").tick_s, 0.015_625);
        assert!(page(XNA_FIXED).contains("The default value for IsFixedTimeStep is true"));
        assert!(policy("monogame").waits_for_tick);
        // Every engine's candidates are its own preset's.
        for engine in [Engine::Godot, Engine::Bevy, Engine::Unity, Engine::MonoGame] {
            for spec in candidates(Some(engine)) {
                assert!(spec.to_string().starts_with(engine.name()), "{spec}");
            }
        }
    }
}
