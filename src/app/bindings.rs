//! Keys → [`Action`]s through one table, so the help overlay is generated from the very
//! bindings it describes and can never disagree with them.
//!
//! Game keys are matched by `physical_key` (where the key is, not what it types), so they
//! work on any layout; `?` is also matched by the text it types, for layouts where it is
//! not Shift+Slash.

use timestep_lab::model::rope::{Drive, Integrator};
use timestep_loop::{Mode, Named, TimerKind};
use winit::keyboard::KeyCode;

/// Everything the user can ask for from the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The focused lane's next mode, in every view.
    CycleMode,
    /// Key 1 to 4: that mode (one lane), or that lane alone (several).
    Pick(usize),
    /// The focus on the next lane, and on the one before (the lane the keys and the panel
    /// act on).
    NextLane,
    PreviousLane,
    /// The split view: every lane side by side (one lane becomes the four modes), and back.
    ToggleSplit,
    /// The focused lane's timer: raw → snap → snap-vsync → smooth → display → raw.
    CycleTimer,
    Reset,
    Pause,
    /// Paused: the frame before, among those kept (running: pauses).
    FrameBack,
    /// Paused: the frame after; past the newest, one frame more (running: pauses).
    FrameOn,
    /// Every lane over each other in one pane, each in its colour, and back.
    ToggleOverlay,
    Stall,
    CapDown,
    CapUp,
    /// The tick one stop along the panel's slider: shorter (toward 1 ms), longer (to 10 Hz).
    TickShorter,
    TickLonger,
    /// The pacing: vsync → adaptive → late → vsync.
    CyclePacing,
    /// The focused lane's integrator: Euler ↔ RK4 (the rope keeps its state).
    ToggleIntegrator,
    /// The pinned end's drive: sway → circle → off → sway.
    CycleDrive,
    /// The free end's trail.
    ToggleTrail,
    /// The next lesson, and the one before.
    NextLesson,
    PreviousLesson,
    ToggleHud,
    ToggleHelp,
    /// The control panel: every knob of the loop.
    TogglePanel,
    /// Esc: closes the help if it is open, else leaves the lesson, else quits.
    Back,
    Quit,
}

impl Action {
    /// Every action, in help order.
    pub const ALL: [Action; 30] = [
        Action::CycleMode,
        Action::NextLane,
        Action::PreviousLane,
        Action::Pick(0),
        Action::Pick(1),
        Action::Pick(2),
        Action::Pick(3),
        Action::ToggleSplit,
        Action::ToggleOverlay,
        Action::CycleTimer,
        Action::Reset,
        Action::Pause,
        Action::FrameBack,
        Action::FrameOn,
        Action::Stall,
        Action::CapDown,
        Action::CapUp,
        Action::TickShorter,
        Action::TickLonger,
        Action::CyclePacing,
        Action::ToggleIntegrator,
        Action::CycleDrive,
        Action::ToggleTrail,
        Action::NextLesson,
        Action::PreviousLesson,
        Action::ToggleHud,
        Action::ToggleHelp,
        Action::TogglePanel,
        Action::Back,
        Action::Quit,
    ];

    /// What the action does, as the help overlay says it.
    pub fn describe(&self) -> String {
        match self {
            Action::CycleMode => "the focused lane's next mode".into(),
            Action::Pick(i) => format!("lane {} alone", i + 1),
            Action::NextLane => "focus the next lane".into(),
            Action::PreviousLane => "focus the lane before".into(),
            Action::ToggleSplit => "split view: lanes side by side".into(),
            Action::CycleTimer => format!("next timer: {}", names::<TimerKind>(", ")),
            Action::Reset => "reset the rope(s)".into(),
            Action::Pause => "pause / resume".into(),
            Action::FrameBack => "paused: one frame back (the last 10 s are kept)".into(),
            Action::FrameOn => "paused: one frame on (past the newest: runs one)".into(),
            Action::ToggleOverlay => "overlay: lanes in one pane, in their colours".into(),
            Action::Stall => "inject a 300 ms stall".into(),
            Action::CapDown => "fps cap down".into(),
            Action::CapUp => "fps cap up".into(),
            Action::TickShorter => "tick one stop shorter (to 1 ms)".into(),
            Action::TickLonger => "tick one stop longer (to 10 Hz)".into(),
            Action::CyclePacing => super::pacing::pacing_cycle_text(),
            Action::ToggleIntegrator => format!("integrator: {}", names::<Integrator>(" / ")),
            Action::CycleDrive => format!("drive the pin: {}", Drive::NAMES.join(", ")),
            Action::ToggleTrail => "trail of the free end".into(),
            Action::NextLesson => "next lesson (after the last: the plain view)".into(),
            Action::PreviousLesson => "previous lesson".into(),
            Action::ToggleHud => "hide / show the HUD".into(),
            Action::ToggleHelp => "this help".into(),
            Action::TogglePanel => "the control panel".into(),
            Action::Back => "closes the help, leaves a lesson, else quits".into(),
            Action::Quit => "quit".into(),
        }
    }
}

/// Every value of `T` by its name, in order, joined by `between`.
fn names<T: Named>(between: &str) -> String {
    let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
    names.join(between)
}

/// What has to happen on the keyboard for a binding to fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// A physical key, with or without Shift.
    Key(KeyCode),
    /// A physical key with Shift held (takes precedence over `Key` of the same code).
    Shifted(KeyCode),
    /// A key that types this text, wherever it is on the layout.
    Text(&'static str),
}

/// The key table. Order is the order keys are listed in the help.
pub const BINDINGS: &[(Trigger, Action)] = &[
    (Trigger::Key(KeyCode::KeyM), Action::CycleMode),
    (Trigger::Key(KeyCode::Space), Action::CycleMode),
    (Trigger::Shifted(KeyCode::Tab), Action::PreviousLane),
    (Trigger::Key(KeyCode::Tab), Action::NextLane),
    (Trigger::Key(KeyCode::Digit1), Action::Pick(0)),
    (Trigger::Key(KeyCode::Numpad1), Action::Pick(0)),
    (Trigger::Key(KeyCode::Digit2), Action::Pick(1)),
    (Trigger::Key(KeyCode::Numpad2), Action::Pick(1)),
    (Trigger::Key(KeyCode::Digit3), Action::Pick(2)),
    (Trigger::Key(KeyCode::Numpad3), Action::Pick(2)),
    (Trigger::Key(KeyCode::Digit4), Action::Pick(3)),
    (Trigger::Key(KeyCode::Numpad4), Action::Pick(3)),
    (Trigger::Key(KeyCode::KeyV), Action::ToggleSplit),
    (Trigger::Key(KeyCode::KeyO), Action::ToggleOverlay),
    (Trigger::Key(KeyCode::KeyT), Action::CycleTimer),
    (Trigger::Key(KeyCode::KeyR), Action::Reset),
    (Trigger::Key(KeyCode::KeyP), Action::Pause),
    (Trigger::Key(KeyCode::Comma), Action::FrameBack),
    (Trigger::Key(KeyCode::Period), Action::FrameOn),
    (Trigger::Key(KeyCode::KeyS), Action::Stall),
    (Trigger::Key(KeyCode::BracketLeft), Action::CapDown),
    (Trigger::Key(KeyCode::BracketRight), Action::CapUp),
    (Trigger::Key(KeyCode::Minus), Action::TickShorter),
    (Trigger::Key(KeyCode::NumpadSubtract), Action::TickShorter),
    (Trigger::Key(KeyCode::Equal), Action::TickLonger),
    (Trigger::Key(KeyCode::NumpadAdd), Action::TickLonger),
    (Trigger::Key(KeyCode::KeyC), Action::CyclePacing),
    (Trigger::Key(KeyCode::KeyI), Action::ToggleIntegrator),
    (Trigger::Key(KeyCode::KeyD), Action::CycleDrive),
    (Trigger::Key(KeyCode::KeyG), Action::ToggleTrail),
    (Trigger::Shifted(KeyCode::KeyL), Action::PreviousLesson),
    (Trigger::Key(KeyCode::KeyL), Action::NextLesson),
    (Trigger::Key(KeyCode::KeyH), Action::ToggleHud),
    (Trigger::Key(KeyCode::F1), Action::ToggleHelp),
    (Trigger::Shifted(KeyCode::Slash), Action::ToggleHelp),
    (Trigger::Text("?"), Action::ToggleHelp),
    (Trigger::Key(KeyCode::F2), Action::TogglePanel),
    (Trigger::Key(KeyCode::Escape), Action::Back),
    (Trigger::Key(KeyCode::KeyQ), Action::Quit),
];

/// The action for a key press: `code` is the physical key (if known), `shift` whether Shift
/// is held, `text` what the key types on the current layout.
pub fn lookup(code: Option<KeyCode>, shift: bool, text: Option<&str>) -> Option<Action> {
    let find = |want: Trigger| BINDINGS.iter().find(|(t, _)| *t == want).map(|&(_, a)| a);
    // A key that types a bound text ('?') does that, wherever the layout puts it (on some,
    // Shift with the key where '-' is).
    let by_text = text.and_then(|t| {
        BINDINGS
            .iter()
            .find(|(trigger, _)| matches!(trigger, Trigger::Text(s) if *s == t))
            .map(|&(_, a)| a)
    });
    by_text.or_else(|| {
        code.and_then(|c| {
            shift
                .then(|| find(Trigger::Shifted(c)))
                .flatten()
                .or_else(|| find(Trigger::Key(c)))
        })
    })
}

/// How a trigger is written in the help.
pub fn trigger_name(trigger: Trigger) -> String {
    match trigger {
        Trigger::Key(code) => key_name(code),
        Trigger::Shifted(KeyCode::Slash) => "?".into(),
        Trigger::Shifted(code) => format!("Shift+{}", key_name(code)),
        Trigger::Text(t) => t.into(),
    }
}

fn key_name(code: KeyCode) -> String {
    let debug = format!("{code:?}");
    match code {
        KeyCode::Space => "Space".into(),
        KeyCode::Escape => "Esc".into(),
        KeyCode::BracketLeft => "[".into(),
        KeyCode::BracketRight => "]".into(),
        KeyCode::Slash => "/".into(),
        KeyCode::Comma => ",".into(),
        KeyCode::Period => ".".into(),
        KeyCode::Minus => "-".into(),
        KeyCode::Equal => "=".into(),
        KeyCode::NumpadSubtract => "Num-".into(),
        KeyCode::NumpadAdd => "Num+".into(),
        _ => {
            for prefix in ["Key", "Digit"] {
                if let Some(rest) = debug.strip_prefix(prefix) {
                    return rest.into();
                }
            }
            if let Some(rest) = debug.strip_prefix("Numpad") {
                return format!("Num{rest}");
            }
            debug
        }
    }
}

/// What keys 1 to 4 show, as the help says it, for the lanes running (`lanes`: their
/// names): one lane steps through the modes ([`Session::pick`](super::session)), several
/// are each shown alone; a key past the last lane does nothing and is left out.
pub fn picks(lanes: &[String]) -> Vec<String> {
    match lanes {
        [_] => Mode::ALL.iter().map(|m| format!("mode {m}")).collect(),
        _ => lanes.iter().map(|name| format!("{name} alone")).collect(),
    }
}

/// The help overlay: one line per action, listing every key bound to it; key N's line says
/// what it shows, from `picks` (see [`picks`]).
pub fn help_lines(picks: &[String]) -> Vec<String> {
    let mut lines = vec!["Keys".to_string()];
    for action in Action::ALL {
        let describe = match action {
            Action::Pick(i) => match picks.get(i) {
                Some(what) => what.clone(),
                None => continue,
            },
            _ => action.describe(),
        };
        let mut names: Vec<String> = Vec::new();
        for &(trigger, _) in BINDINGS.iter().filter(|(_, a)| *a == action) {
            let name = trigger_name(trigger);
            if !names.contains(&name) {
                names.push(name);
            }
        }
        lines.push(format!("{:<12} {describe}", names.join(" / ")));
    }
    lines.push(format!(
        "{:<12} {}",
        "mouse drag", "grab the rope, release to fling"
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Keys 1 to 4 described as [`Action::describe`] does, so every line can be found by it.
    fn generic_picks() -> Vec<String> {
        (0..4).map(|i| Action::Pick(i).describe()).collect()
    }

    #[test]
    fn keys_1_to_n_name_the_lanes_running_in_their_order_and_no_more() {
        let lanes = ["interpolated", "unity+tick=100ms", "variable"].map(String::from);
        let help = help_lines(&picks(&lanes));
        let line = |key: &str| help.iter().find(|l| l.starts_with(key)).cloned();
        assert!(line("1 / Num1").is_some_and(|l| l.ends_with(" interpolated alone")));
        assert!(line("2 / Num2").is_some_and(|l| l.ends_with(" unity+tick=100ms alone")));
        assert!(line("3 / Num3").is_some_and(|l| l.ends_with(" variable alone")));
        assert_eq!(line("4 / Num4"), None, "no fourth lane: {help:#?}");
    }

    #[test]
    fn with_one_lane_keys_1_to_4_name_the_modes_they_switch_to() {
        let help = help_lines(&picks(&["fixed".to_string()]));
        for (i, mode) in Mode::ALL.iter().enumerate() {
            let key = format!("{} / Num{}", i + 1, i + 1);
            let line = help.iter().find(|l| l.starts_with(&key));
            assert!(
                line.is_some_and(|l| l.ends_with(&format!(" mode {mode}"))),
                "{key}: {line:?}"
            );
        }
    }

    #[test]
    fn every_documented_key_maps_to_its_action() {
        let plain = |c| lookup(Some(c), false, None);
        assert_eq!(plain(KeyCode::KeyM), Some(Action::CycleMode));
        assert_eq!(plain(KeyCode::Space), Some(Action::CycleMode));
        assert_eq!(plain(KeyCode::Tab), Some(Action::NextLane));
        assert_eq!(
            lookup(Some(KeyCode::Tab), true, None),
            Some(Action::PreviousLane)
        );
        assert_eq!(plain(KeyCode::Digit1), Some(Action::Pick(0)));
        assert_eq!(plain(KeyCode::Digit2), Some(Action::Pick(1)));
        assert_eq!(plain(KeyCode::Digit3), Some(Action::Pick(2)));
        assert_eq!(plain(KeyCode::Digit4), Some(Action::Pick(3)));
        assert_eq!(plain(KeyCode::KeyV), Some(Action::ToggleSplit));
        assert_eq!(plain(KeyCode::KeyT), Some(Action::CycleTimer));
        assert_eq!(plain(KeyCode::KeyR), Some(Action::Reset));
        assert_eq!(plain(KeyCode::KeyP), Some(Action::Pause));
        assert_eq!(plain(KeyCode::Comma), Some(Action::FrameBack));
        assert_eq!(plain(KeyCode::Period), Some(Action::FrameOn));
        assert_eq!(plain(KeyCode::KeyO), Some(Action::ToggleOverlay));
        assert_eq!(plain(KeyCode::KeyS), Some(Action::Stall));
        assert_eq!(plain(KeyCode::BracketLeft), Some(Action::CapDown));
        assert_eq!(plain(KeyCode::BracketRight), Some(Action::CapUp));
        assert_eq!(plain(KeyCode::KeyH), Some(Action::ToggleHud));
        assert_eq!(plain(KeyCode::F1), Some(Action::ToggleHelp));
        assert_eq!(plain(KeyCode::Escape), Some(Action::Back));
        assert_eq!(plain(KeyCode::KeyQ), Some(Action::Quit));
    }

    #[test]
    fn question_mark_is_shift_slash_or_whatever_key_types_it() {
        assert_eq!(
            lookup(Some(KeyCode::Slash), true, Some("?")),
            Some(Action::ToggleHelp)
        );
        assert_eq!(
            lookup(Some(KeyCode::Slash), true, None),
            Some(Action::ToggleHelp)
        );
        assert_eq!(lookup(Some(KeyCode::Slash), false, Some("/")), None);
        // A layout where '?' sits on another key (here: Minus, as on AZERTY-like layouts).
        assert_eq!(
            lookup(Some(KeyCode::Minus), true, Some("?")),
            Some(Action::ToggleHelp)
        );
        assert_eq!(lookup(None, false, Some("?")), Some(Action::ToggleHelp));
    }

    #[test]
    fn d_drives_g_trails_and_l_steps_through_the_lessons_both_ways() {
        assert_eq!(
            lookup(Some(KeyCode::KeyD), false, None),
            Some(Action::CycleDrive)
        );
        assert_eq!(
            lookup(Some(KeyCode::KeyG), false, None),
            Some(Action::ToggleTrail)
        );
        assert_eq!(
            lookup(Some(KeyCode::KeyL), false, Some("l")),
            Some(Action::NextLesson)
        );
        assert_eq!(
            lookup(Some(KeyCode::KeyL), true, Some("L")),
            Some(Action::PreviousLesson)
        );
    }

    #[test]
    fn shift_does_not_stop_plain_keys() {
        assert_eq!(
            lookup(Some(KeyCode::KeyM), true, Some("M")),
            Some(Action::CycleMode)
        );
    }

    #[test]
    fn unbound_keys_do_nothing() {
        assert_eq!(lookup(Some(KeyCode::KeyZ), false, Some("z")), None);
        assert_eq!(lookup(None, false, None), None);
    }

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen = HashSet::new();
        for (trigger, _) in BINDINGS {
            assert!(seen.insert(*trigger), "{trigger:?} is bound twice");
        }
    }

    #[test]
    fn every_action_has_a_key_and_a_help_line() {
        let help = help_lines(&generic_picks());
        for action in Action::ALL {
            assert!(
                BINDINGS.iter().any(|(_, a)| *a == action),
                "{action:?} has no key"
            );
            let line = help
                .iter()
                .find(|l| l.ends_with(&format!(" {}", action.describe())));
            assert!(line.is_some(), "{action:?} missing from help: {help:#?}");
        }
        for (_, action) in BINDINGS {
            assert!(
                Action::ALL.contains(action),
                "{action:?} missing from Action::ALL"
            );
        }
    }

    #[test]
    fn help_lines_name_every_bound_key() {
        let help = help_lines(&generic_picks()).join("\n");
        for (trigger, action) in BINDINGS {
            let name = trigger_name(*trigger);
            let line = help
                .lines()
                .find(|l| l.ends_with(&format!(" {}", action.describe())))
                .unwrap_or_default();
            assert!(
                line.contains(&name),
                "{name} not on the help line for {action:?}"
            );
        }
        assert!(help.contains("M / Space"));
        assert!(help.contains("F1 / ?"));
        assert!(help.contains("Esc ") && help.contains("Q "));
    }
}
