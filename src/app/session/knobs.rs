//! The loop's knobs, as the window's panel shows them: one table, [`KNOBS`], each row a name,
//! its key, how it is drawn, a tooltip, and its options now, each a label and the [`Setting`]
//! choosing it applies. The panel (`app/panel.rs`) draws whatever the table holds and hands
//! back the `Setting` chosen, which [`Session::apply`] sets as the keys set theirs; a new
//! knob is one row here (and, for a new kind of value, one `Setting` and its arm in
//! [`Session::set`]).
//!
//! The reset rule, one for every knob ([`RESET_RULE`]): a change applies at the next frame.
//! A change to the loop's timing (tick, substeps, clamp, max steps) starts every lane afresh,
//! as a lesson does: a new loop, the rope at its starting line, the books from zero, so no
//! figure mixes two timings. Every other knob keeps the rope and the books running, exactly
//! as its key does.

use super::stability::Fix;
use super::{Action, Refused, Session, capped};
use crate::app::host::View;
use crate::app::pacing::{FPS_CAPS, PACING_CYCLE};
use timestep_lab::model::lane::Lane;
use timestep_lab::model::rope::{Drive, Integrator};
use timestep_lab::view::draw::{clamp_text, max_steps_text};
use timestep_lab::view::lessons::LESSONS;
use timestep_loop::{MaxSubstep, Mode, Named, Pacing, PolicyEnv, TimerKind, TimingConfig};

/// The reset rule, as the panel states it.
pub const RESET_RULE: &str = "A change applies at the next frame. Tick, substeps, clamp and max \
steps start every lane afresh: the rope back at its starting line, its counts (steps, drift, \
dropped time, judder) from zero. Every other knob keeps the rope and its counts running, as its \
key does.";

/// The panel's width, points: fixed, so the panes can be laid out left of it (see
/// `panel_starts_shown`) and its text wraps at it.
pub const PANEL_WIDTH: f32 = 340.0;

/// What a knob's option (or a key) sets: a typed value for one of the session's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setting {
    /// The lane the keys and the knobs act on, by index.
    Lane(usize),
    /// The focused lane's mode.
    Mode(Mode),
    View(View),
    Paused(bool),
    /// The loop's tick, ns.
    Tick(u64),
    Substep(MaxSubstep),
    /// The focused lane's integrator.
    Integrator(Integrator),
    /// The clamp, ns (`None`, the loop's having none, changes nothing).
    Clamp(Option<u64>),
    /// The step cap (`None`, the loop's having none, changes nothing).
    MaxSteps(Option<u32>),
    /// The pacing, a frame cap among them.
    Pacing(Pacing),
    /// The focused lane's timer.
    Timer(TimerKind),
    /// Every rope's drive.
    Drive(Drive),
    Trail(bool),
    /// A lesson (1-based), or none: the plain view launched.
    Lesson(Option<usize>),
}

/// The tick slider's stops, Hz (1000 Hz is the 1 ms tick).
pub const TICK_STOPS_HZ: [u32; 6] = [1000, 120, 60, 30, 20, 10];
/// The clamps offered, ms.
const CLAMPS_MS: [u64; 5] = [50, 100, 250, 500, 1000];
/// The step caps offered.
const MAX_STEPS: [u32; 8] = [1, 2, 3, 5, 8, 15, 30, 60];
/// The substep lengths offered, µs.
const SUBSTEPS_US: [u64; 5] = [8000, 4000, 2000, 1000, 500];

/// How the panel draws a knob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widget {
    /// A slider over the options, in order (the tick's stops).
    Slider,
    /// A drop-down list.
    Choice,
    /// On or off (option 1 is on).
    Toggle,
}

/// One row of the knob table.
#[derive(Debug)]
pub struct Knob {
    /// Its name, which is also its accessible name.
    pub name: &'static str,
    /// The key that does the same, as the help writes it ("" for none).
    pub key: &'static str,
    pub widget: Widget,
    /// What it means, in one sentence, with its unit.
    pub tooltip: &'static str,
    /// Its options for the session as it is (`None`: the knob is not shown).
    options: fn(&Session) -> Option<Options>,
}

/// A knob's options now: each its label and what choosing it sets, and the one in use.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub list: Vec<(String, Setting)>,
    pub current: usize,
}

/// One knob's values, each with its label.
type Choices<T> = Vec<(String, T)>;

/// `choices` as a knob's options, each value set as `setting` makes it.
fn offer<T>((choices, current): (Choices<T>, usize), setting: impl Fn(T) -> Setting) -> Options {
    let list = choices.into_iter().map(|(l, v)| (l, setting(v))).collect();
    Options { list, current }
}

/// Every value of `T` by its name, and `now` (the first if it is none of them).
fn named<T: Named + PartialEq>(now: Option<T>, setting: fn(T) -> Setting) -> Options {
    let current = T::ALL.iter().position(|&v| Some(v) == now).unwrap_or(0);
    offer(
        (
            T::ALL.iter().map(|&v| (v.name().into(), v)).collect(),
            current,
        ),
        setting,
    )
}

/// Off and on, labelled `labels`.
fn toggle(on: bool, labels: [&str; 2], setting: fn(bool) -> Setting) -> Options {
    let choices = vec![(labels[0].into(), false), (labels[1].into(), true)];
    offer((choices, usize::from(on)), setting)
}

/// The index of `value` in `options`, inserting it (labelled by `label`) in order when it is
/// not there, so the knob always shows what is in use.
fn place<T: PartialEq + PartialOrd + Copy>(
    options: &mut Choices<T>,
    value: T,
    label: impl Fn(T) -> String,
) -> usize {
    if let Some(i) = options.iter().position(|(_, v)| *v == value) {
        return i;
    }
    let at = options
        .iter()
        .position(|(_, v)| *v > value)
        .unwrap_or(options.len());
    options.insert(at, (label(value), value));
    at
}

/// The index of `value` in `options`, added at the end (labelled by `label`) when it is not
/// there.
fn find_or_add<T: PartialEq + Copy>(
    options: &mut Choices<T>,
    value: T,
    label: impl Fn(T) -> String,
) -> usize {
    options
        .iter()
        .position(|(_, v)| *v == value)
        .unwrap_or_else(|| {
            options.push((label(value), value));
            options.len() - 1
        })
}

/// A duration in ms, as short as it reads: "8.33 ms", "1 ms".
fn ms_label(ns: u64) -> String {
    let ms = ns as f64 / 1e6;
    let mut s = format!("{ms:.2}");
    while s.ends_with('0') {
        s.pop();
    }
    format!("{} ms", s.trim_end_matches('.'))
}

/// A tick of `hz`, ns.
fn tick_of_hz(hz: u32) -> u64 {
    (1e9 / f64::from(hz)).round() as u64
}

/// The tick's options, longest rate first as the slider goes (1 ms to 10 Hz), and the one in
/// use: a tick within 0.1% of a stop is that stop (16.667 ms is 60 Hz).
fn tick_options(tick_ns: u64) -> (Choices<u64>, usize) {
    let mut options: Choices<u64> = TICK_STOPS_HZ
        .iter()
        .map(|&hz| {
            let ns = tick_of_hz(hz);
            let label = if hz == 1000 {
                "1 ms".to_string()
            } else {
                format!("{hz} Hz ({})", ms_label(ns))
            };
            (label, ns)
        })
        .collect();
    let near = |ns: u64| (ns as f64 - tick_ns as f64).abs() <= ns as f64 * 1e-3;
    let current = match options.iter().position(|(_, ns)| near(*ns)) {
        Some(i) => i,
        None => place(&mut options, tick_ns, ms_label),
    };
    (options, current)
}

/// The substep options: the loop's default, none, then ever shorter substeps.
fn substep_options(now: MaxSubstep) -> (Choices<MaxSubstep>, usize) {
    let mut options: Choices<MaxSubstep> = vec![
        ("default".into(), MaxSubstep::Default),
        ("off".into(), MaxSubstep::Off),
    ];
    options.extend(SUBSTEPS_US.iter().map(|&us| {
        (
            format!("at most {}", ms_label(us * 1000)),
            MaxSubstep::Set(us * 1000),
        )
    }));
    let current = find_or_add(&mut options, now, |now| format!("{now:?}"));
    (options, current)
}

/// The clamp's options, ns (none: the loop has no clamp).
fn clamp_options(now: Option<u64>) -> (Choices<Option<u64>>, usize) {
    let mut options: Choices<Option<u64>> = CLAMPS_MS
        .iter()
        .map(|&ms| (clamp_text(Some(ms * 1_000_000)), Some(ms * 1_000_000)))
        .collect();
    let current = place(&mut options, now, clamp_text);
    (options, current)
}

/// The modes, the lane's own worded as the HUD words it ([`Lane::mode_text`]: a preset's
/// mode names the preset).
fn mode_options(lane: &Lane) -> Options {
    let mut options = named(Some(lane.mode()), Setting::Mode);
    if let Some((own, _)) = options.list.get_mut(options.current) {
        *own = lane.mode_text();
    }
    options
}

/// The step cap's options (none: unlimited).
fn max_steps_options(now: Option<u32>) -> (Choices<Option<u32>>, usize) {
    let mut options: Choices<Option<u32>> = MAX_STEPS
        .iter()
        .map(|&n| (n.to_string(), Some(n)))
        .collect();
    let current = place(&mut options, now, max_steps_text);
    (options, current)
}

/// The pacings the `C` key cycles through, and a cap or hold in use.
fn pacing_options(now: Pacing) -> (Choices<Pacing>, usize) {
    let mut options: Choices<Pacing> = PACING_CYCLE
        .into_iter()
        .map(|p| (p.to_string(), p))
        .collect();
    let current = find_or_add(&mut options, now, |now| now.to_string());
    (options, current)
}

/// The caps `[` `]` step through (off: no cap), and the one in use.
fn cap_options(now: Option<f64>) -> (Choices<Option<f64>>, usize) {
    let label = |c: Option<f64>| c.map_or("off".into(), |hz| format!("{hz} fps"));
    let mut options: Choices<Option<f64>> = FPS_CAPS.iter().map(|&c| (label(c), c)).collect();
    let current = place(&mut options, now, label);
    (options, current)
}

/// The drives by their names (each at its default period), and the one in use by its name.
fn drive_options(now: Drive) -> Options {
    let drives = Drive::NAMES
        .iter()
        .filter_map(|name| Drive::parse(name).ok());
    let choices: Choices<Drive> = drives.map(|d| (d.name().into(), d)).collect();
    let current = choices.iter().position(|(_, d)| d.name() == now.name());
    offer((choices, current.unwrap_or(0)), Setting::Drive)
}

/// No lesson (the plain view), then each lesson by its number and title.
fn lesson_options(now: Option<usize>) -> Options {
    let lessons = LESSONS.iter().enumerate();
    let choices = std::iter::once(("none (the plain view)".into(), None))
        .chain(lessons.map(|(i, l)| (format!("{}. {}", i + 1, l.title), Some(i + 1))))
        .collect();
    offer((choices, now.unwrap_or(0)), Setting::Lesson)
}

/// The lanes by name, when there are several to choose from.
fn lane_options(s: &Session) -> Option<Options> {
    let choices = s.lanes.iter().map(Lane::name).zip(0..).collect();
    (s.lanes.len() > 1).then(|| offer((choices, s.view.focus), Setting::Lane))
}

/// The tick knob's name: the stability warning is shown under it.
pub const TICK: &str = "Tick";

/// Every knob of the loop, in the panel's order.
pub const KNOBS: [Knob; 15] = [
    Knob {
        name: "Lane",
        key: "Tab, 1-4",
        widget: Widget::Choice,
        tooltip: "The lane the keys and these knobs act on (and the one the single view shows).",
        options: lane_options,
    },
    Knob {
        name: "Mode",
        key: "M",
        widget: Widget::Choice,
        tooltip: "How the lane chosen above (or the only one) turns frame time into steps: \
                  variable (one step of the frame's length), semi-fixed (steps of at most a \
                  tick, the last one shorter), fixed (whole ticks, the leftover carried) or \
                  interpolated (fixed, drawn blended by alpha).",
        options: |s| Some(mode_options(s.knob_lane())),
    },
    Knob {
        name: "View",
        key: "V, O",
        widget: Widget::Choice,
        tooltip: "single: the chosen lane alone; split: every lane side by side in its own \
                  pane; overlay: every lane drawn in one pane in its colour, so the gap between \
                  two loops is a distance on screen. One lane becomes the four modes, forked \
                  from this rope.",
        options: |s| Some(named(Some(s.view.layout()), Setting::View)),
    },
    Knob {
        name: "Pause",
        key: "P; , and . step",
        widget: Widget::Toggle,
        tooltip: "Freezes the picture; paused, , and . show the frame before and after, each \
                  lane as that frame showed it (the last 600 frames are kept).",
        options: |s| Some(toggle(s.paused(), ["running", "paused"], Setting::Paused)),
    },
    Knob {
        name: TICK,
        key: "- =",
        widget: Widget::Slider,
        tooltip: "The fixed step every textbook lane simulates, ms (or Hz: ticks per simulated \
                  second); the variable mode ignores it.",
        options: |s| {
            Some(offer(
                tick_options(s.knob_timing().tick_ns()),
                Setting::Tick,
            ))
        },
    },
    Knob {
        name: "Substeps",
        key: "",
        widget: Widget::Choice,
        tooltip: "The longest single integration step, ms: a longer tick is cut into equal \
                  substeps no longer than this (default: presets at 1 ms, textbook modes none).",
        options: |s| {
            Some(offer(
                substep_options(s.knob_env().max_substep),
                Setting::Substep,
            ))
        },
    },
    Knob {
        name: "Integrator",
        key: "I",
        widget: Widget::Choice,
        tooltip: "How the focused lane's rope is integrated: semi-implicit Euler (one force \
                  evaluation a step) or RK4 (four, with a wider stable step).",
        options: |s| Some(named(s.knob_lane().integrator(), Setting::Integrator)),
    },
    Knob {
        name: "Clamp",
        key: "",
        widget: Widget::Choice,
        tooltip: "The longest frame time the loop accepts, ms: anything longer (a hitch) is \
                  dropped, so the simulation falls behind the wall clock by the excess.",
        options: |s| {
            Some(offer(
                clamp_options(s.knob_timing().clamp_ns()),
                Setting::Clamp,
            ))
        },
    },
    Knob {
        name: "Max steps",
        key: "",
        widget: Widget::Choice,
        tooltip: "The most ticks one frame may run, steps: time for more is dropped (the \
                  spiral-of-death guard).",
        options: |s| {
            let steps = max_steps_options(s.knob_timing().max_steps());
            Some(offer(steps, Setting::MaxSteps))
        },
    },
    Knob {
        name: "Pacing",
        key: "C",
        widget: Widget::Choice,
        tooltip: "How frames are paced: vsync (presents wait for the display), adaptive (seed \
                  001's render interval) or late (sleep at the frame's end, input read late).",
        options: |s| Some(offer(pacing_options(s.pacing()), Setting::Pacing)),
    },
    Knob {
        name: "Frame cap",
        key: "[ ]",
        widget: Widget::Choice,
        tooltip: "Frames start at most this often, frames per second (off: the pacing above).",
        options: |s| {
            Some(offer(cap_options(s.fps_cap()), |c| {
                Setting::Pacing(capped(c))
            }))
        },
    },
    Knob {
        name: "Timer",
        key: "T",
        widget: Widget::Choice,
        tooltip: "How the focused lane reads frame time: raw (as measured), snap (to the \
                  display's period when close, as Glaiel's code), snap-vsync (the same only \
                  while vsync is detected), smooth (Godot's averaged delta) or display (when \
                  frames will be seen, predicted from the display's present feedback; as \
                  measured without it).",
        options: |s| Some(named(Some(s.knob_lane().timer()), Setting::Timer)),
    },
    Knob {
        name: "Drive",
        key: "D",
        widget: Widget::Choice,
        tooltip: "How the pinned end moves: side to side, round a circle, or not at all; a \
                  driven pin is what judder (px rms) is measured on.",
        options: |s| Some(drive_options(s.rope.drive)),
    },
    Knob {
        name: "Trail",
        key: "G",
        widget: Widget::Toggle,
        tooltip: "The free end's last shown positions as fading dots: evenly spaced when the \
                  motion shown is smooth.",
        options: |s| Some(toggle(s.view.trail, ["off", "on"], Setting::Trail)),
    },
    Knob {
        name: "Lesson",
        key: "L",
        widget: Widget::Choice,
        tooltip: "A lesson sets up its own lanes, tick, pacing and drive and says what to look \
                  at; none goes back to the view launched.",
        options: |s| Some(lesson_options(s.lesson)),
    },
];

/// What the panel shows of the session, taken before a frame: the panel draws from this
/// alone, and what the user changes comes back as [`Change`]s.
#[derive(Clone, Debug, Default)]
pub struct PanelView {
    pub shown: bool,
    /// Each knob shown, with its options now.
    pub knobs: Vec<(&'static Knob, Options)>,
    /// What to say of the lanes whose step is above their rope's stable step, if any (see
    /// [`Session::tick_warning`]).
    pub warning: Option<String>,
    /// The fixes that would make one of those lanes stable (offered only then).
    pub fixes: Vec<Fix>,
}

/// What the user asked for in the panel; applied after the frame it was drawn in, so it
/// applies at the next frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    Set(Setting),
    Fix(Fix),
    /// What a key does once (reset, pause, stall, help).
    Action(Action),
}

impl From<Setting> for Change {
    fn from(setting: Setting) -> Change {
        Change::Set(setting)
    }
}

impl Session {
    /// The panel's view of the session now.
    pub fn panel_view(&self) -> PanelView {
        PanelView {
            // The help is read over everything: the panel hides while it is open (beside
            // it, a short window's help was cut by it), as the HUD does.
            shown: self.view.show_panel && !self.view.show_help,
            knobs: self.knobs(),
            warning: self.tick_warning(),
            fixes: self.fixes(),
        }
    }

    /// Every knob shown, in the panel's order, with its options now.
    pub fn knobs(&self) -> Vec<(&'static Knob, Options)> {
        let options = |k: &'static Knob| (k.options)(self).map(|o| (k, o));
        KNOBS.iter().filter_map(options).collect()
    }

    /// Does what the panel (or a test) asked: a setting, a fix or what a key does. A change
    /// the loop refuses changes nothing, and [`Session::refused`] says why until the next
    /// change.
    pub fn apply(&mut self, change: impl Into<Change>) {
        let outcome = match change.into() {
            Change::Set(setting) => self.set(setting),
            Change::Fix(fix) => self.fix_stability(fix),
            Change::Action(action) => self.act(action),
        };
        self.refused = outcome.err();
        self.arrange();
    }

    /// Sets `setting`, by the reset rule ([`RESET_RULE`]): a new timing starts every lane
    /// afresh ([`Session::retime`]); a value the loop refuses (a clamp below the tick)
    /// changes nothing.
    pub(super) fn set(&mut self, setting: Setting) -> Result<(), Refused> {
        let focus = self.view.focus;
        let env = self.knob_env();
        let timing = env.timing;
        match setting {
            Setting::Lane(i) if i < self.lanes.len() => self.view.focus = i,
            Setting::Mode(mode) => self.set_mode_of(focus, mode)?,
            Setting::View(view) => self.set_view(view)?,
            Setting::Paused(paused) if paused != self.paused() => self.set_paused(paused),
            Setting::Tick(ns) => self.retime(env.with_timing(timing.with_tick(ns)?))?,
            Setting::Substep(max) => self.retime(env.with_max_substep(max))?,
            Setting::Clamp(Some(ns)) => self.retime(env.with_timing(timing.with_clamp(ns)?))?,
            Setting::MaxSteps(Some(n)) => {
                self.retime(env.with_timing(timing.with_max_steps(n)?))?;
            }
            Setting::Integrator(integrator) => self.lanes[focus].set_integrator(integrator)?,
            Setting::Pacing(pacing) => self.set_pacing(pacing),
            Setting::Timer(timer) => self.lanes[focus].set_timer(timer)?,
            Setting::Drive(drive) => self.set_drive(drive),
            Setting::Trail(on) => self.view.trail = on,
            Setting::Lesson(Some(n)) => self.start_lesson(n)?,
            Setting::Lesson(None) if self.lesson.is_some() => self.leave_lesson()?,
            // What is in use already, or no lane at all.
            Setting::Lane(_)
            | Setting::Paused(_)
            | Setting::Clamp(None)
            | Setting::MaxSteps(None)
            | Setting::Lesson(None) => {}
        }
        Ok(())
    }

    /// Lays the lanes out as `view`, as V and O would.
    fn set_view(&mut self, view: View) -> Result<(), Refused> {
        match view {
            _ if view == self.view.layout() => Ok(()),
            View::Overlay => self.set_overlay(true),
            View::Single | View::Split => {
                self.set_overlay(false)?;
                if self.view.layout() != view {
                    self.toggle_split()?;
                }
                Ok(())
            }
        }
    }

    /// The lane whose settings the panel shows.
    fn knob_lane(&self) -> &Lane {
        self.focused()
    }

    /// The loop's timing that lane runs (a preset's own tick, clamp and cap).
    fn knob_timing(&self) -> TimingConfig {
        self.knob_lane().policy().timing
    }

    /// The loop's settings every lane was built with (the focused lane's).
    pub(super) fn knob_env(&self) -> PolicyEnv {
        *self.knob_lane().looped().env()
    }

    /// Every lane afresh on `env` (the loop's timing changed), keeping each lane's spec, the
    /// rope's parameters and the window's clock; nothing changes if any lane cannot be built.
    pub(super) fn retime(&mut self, env: PolicyEnv) -> Result<(), Refused> {
        let env = env.with_refresh_hint(self.refresh_hz);
        let specs: Vec<_> = self.lanes.iter().map(Lane::spec).collect();
        let lanes = super::build_lanes(&specs, &self.rope, &env)?;
        self.replace_lanes(lanes);
        Ok(())
    }

    /// `-` and `=`: the tick one stop shorter or longer along the panel's slider (the ends
    /// stay where they are), by the reset rule, as the slider does.
    pub fn step_tick(&mut self, longer: bool) -> Result<(), Refused> {
        let (options, current) = tick_options(self.knob_env().timing.tick_ns());
        let next = match longer {
            true => (current + 1).min(options.len().saturating_sub(1)),
            false => current.saturating_sub(1),
        };
        match options.get(next) {
            Some(&(_, tick)) if next != current => self.set(Setting::Tick(tick)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tick_stops_are_the_issues_and_a_tick_off_the_stops_is_shown_in_order() {
        let (options, current) = tick_options(tick_of_hz(60));
        let names: Vec<&str> = options.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            names,
            [
                "1 ms",
                "120 Hz (8.33 ms)",
                "60 Hz (16.67 ms)",
                "30 Hz (33.33 ms)",
                "20 Hz (50 ms)",
                "10 Hz (100 ms)"
            ]
        );
        assert_eq!(current, 2);
        // --dt 16.667ms is the 60 Hz stop; 5 ms is its own, between 1 ms and 120 Hz.
        assert_eq!(tick_options(16_667_000).1, 2);
        let (options, current) = tick_options(5_000_000);
        assert_eq!((options.len(), current), (7, 1));
        assert_eq!(options[1].0, "5 ms");
    }

    #[test]
    fn a_clamp_or_cap_in_use_is_always_an_option() {
        let (options, current) = clamp_options(Some(300_000_000));
        assert_eq!(options[current], ("300ms".to_string(), Some(300_000_000)));
        let (options, current) = clamp_options(None);
        assert_eq!((options[current].0.as_str(), current), ("off", 0));
        let (options, current) = cap_options(Some(90.0));
        assert_eq!(options[current].0, "90 fps");
        assert_eq!(max_steps_options(None), (max_steps_options(None).0, 0));
        assert_eq!(max_steps_options(None).0[0].0, "unlimited");
    }
}
