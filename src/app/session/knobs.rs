//! The loop's knobs, as the window's panel shows them: each one a name, its key, its allowed
//! values and the one in use, and a tooltip. The panel (`app/panel.rs`) draws whatever this
//! list holds, so a new knob is one entry here and one arm in [`Session::set_knob`].
//!
//! The reset rule, one for every knob ([`RESET_RULE`]): a change applies at the next frame.
//! A change to the loop's timing (tick, substeps, clamp, max steps) starts every lane afresh,
//! as a lesson does: a new loop, the rope at its starting line, the books from zero, so no
//! figure mixes two timings. Every other knob keeps the rope and the books running, exactly
//! as its key does.

use super::capped;
use super::stability::Fix;
use super::{Refused, Session};
use crate::app::pacing::{FPS_CAPS, PACING_CYCLE};
use timestep_lab::draw::{clamp_text, max_steps_text};
use timestep_lab::lane::Lane;
use timestep_lab::lessons::LESSONS;
use timestep_lab::rope::{Drive, Integrator};
use timestep_loop::{MaxSubstep, Mode, Pacing, PolicyEnv, TimerKind};

/// The reset rule, as the panel states it.
pub const RESET_RULE: &str = "A change applies at the next frame. Tick, substeps, clamp and max \
steps start every lane afresh: the rope back at its starting line, its counts (steps, drift, \
dropped time, judder) from zero. Every other knob keeps the rope and its counts running, as its \
key does.";

/// The panel's width, points: fixed, so the panes can be laid out left of it (see
/// `panel_starts_shown`) and its text wraps at it.
pub const PANEL_WIDTH: f32 = 340.0;

/// The tick slider's stops, Hz (1000 Hz is the 1 ms tick).
pub const TICK_STOPS_HZ: [u32; 6] = [1000, 120, 60, 30, 20, 10];
/// The clamps offered, ms.
const CLAMPS_MS: [u64; 5] = [50, 100, 250, 500, 1000];
/// The step caps offered.
const MAX_STEPS: [u32; 8] = [1, 2, 3, 5, 8, 15, 30, 60];
/// The substep lengths offered, µs.
const SUBSTEPS_US: [u64; 5] = [8000, 4000, 2000, 1000, 500];

/// Which knob.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KnobId {
    Mode,
    Lane,
    View,
    Pause,
    Tick,
    Substep,
    Integrator,
    Clamp,
    MaxSteps,
    Pacing,
    FpsCap,
    Timer,
    Drive,
    Trail,
    Lesson,
}

/// The views the View knob chooses between, in its order.
pub const VIEWS: [&str; 3] = ["single", "split", "overlay"];

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

/// One knob: what the panel shows of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    pub id: KnobId,
    /// Its name, which is also its accessible name.
    pub name: &'static str,
    /// The key that does the same, as the help writes it ("" for none).
    pub key: &'static str,
    /// What it can be set to, as shown.
    pub options: Vec<String>,
    /// The option in use.
    pub current: usize,
    pub widget: Widget,
    /// What it means, in one sentence, with its unit.
    pub tooltip: &'static str,
}

/// One option of a knob: its label and what choosing it sets.
type Options<T> = Vec<(String, T)>;

/// The index of `value` in `options`, inserting it (labelled by `label`) in order when it is
/// not there, so the knob always shows what is in use.
fn place<T: PartialEq + PartialOrd + Copy>(
    options: &mut Options<T>,
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
fn tick_options(tick_ns: u64) -> (Options<u64>, usize) {
    let mut options: Options<u64> = TICK_STOPS_HZ
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
fn substep_options(now: MaxSubstep) -> (Options<MaxSubstep>, usize) {
    let mut options: Options<MaxSubstep> = vec![
        ("default".into(), MaxSubstep::Default),
        ("off".into(), MaxSubstep::Off),
    ];
    options.extend(SUBSTEPS_US.iter().map(|&us| {
        (
            format!("at most {}", ms_label(us * 1000)),
            MaxSubstep::Set(us * 1000),
        )
    }));
    let current = options
        .iter()
        .position(|(_, v)| *v == now)
        .unwrap_or_else(|| {
            options.push((format!("{now:?}"), now));
            options.len() - 1
        });
    (options, current)
}

/// The clamp's options, ns (none: the loop has no clamp).
fn clamp_options(now: Option<u64>) -> (Options<Option<u64>>, usize) {
    let mut options: Options<Option<u64>> = CLAMPS_MS
        .iter()
        .map(|&ms| (clamp_text(Some(ms * 1_000_000)), Some(ms * 1_000_000)))
        .collect();
    let current = place(&mut options, now, clamp_text);
    (options, current)
}

/// The modes, the lane's own worded as the HUD words it ([`Lane::mode_text`]: a preset's
/// mode names the preset).
fn mode_options(lane: &Lane) -> (Vec<String>, usize) {
    let mut options: Vec<String> = Mode::ALL.iter().map(|m| m.to_string()).collect();
    let current = Mode::ALL
        .iter()
        .position(|&m| m == lane.mode())
        .unwrap_or(0);
    if let Some(own) = options.get_mut(current) {
        *own = lane.mode_text();
    }
    (options, current)
}

/// The step cap's options (none: unlimited).
fn max_steps_options(now: Option<u32>) -> (Options<Option<u32>>, usize) {
    let mut options: Options<Option<u32>> = MAX_STEPS
        .iter()
        .map(|&n| (n.to_string(), Some(n)))
        .collect();
    let current = place(&mut options, now, max_steps_text);
    (options, current)
}

/// The pacings the `C` key cycles through, and a cap or hold in use.
fn pacing_options(now: Pacing) -> (Options<Pacing>, usize) {
    let mut options: Options<Pacing> = PACING_CYCLE
        .into_iter()
        .map(|p| (p.to_string(), p))
        .collect();
    let current = options
        .iter()
        .position(|(_, p)| *p == now)
        .unwrap_or_else(|| {
            options.push((now.to_string(), now));
            options.len() - 1
        });
    (options, current)
}

/// The caps `[` `]` step through (off: no cap), and the one in use.
fn cap_options(now: Option<f64>) -> (Options<Option<f64>>, usize) {
    let label = |c: Option<f64>| c.map_or("off".into(), |hz| format!("{hz} fps"));
    let mut options: Options<Option<f64>> = FPS_CAPS.iter().map(|&c| (label(c), c)).collect();
    let current = place(&mut options, now, label);
    (options, current)
}

/// The drives `D` cycles through.
const DRIVES: [&str; 3] = Drive::NAMES;

/// The drive's name.
fn drive_name(drive: Drive) -> &'static str {
    drive.name()
}

/// Labels alone, for the panel.
fn labels<T>(options: Options<T>) -> Vec<String> {
    options.into_iter().map(|(label, _)| label).collect()
}

/// The option chosen, or why there is none.
fn chosen<T: Copy>(options: Options<T>, i: usize) -> Result<T, Refused> {
    options.get(i).map(|&(_, v)| v).ok_or(Refused::NoOption(i))
}

/// What the panel shows of the session, taken before a frame: the panel draws from this
/// alone, and what the user changes comes back as [`Change`]s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PanelView {
    pub shown: bool,
    pub knobs: Vec<Knob>,
    /// What to say of the lanes whose step is above their rope's stable step, if any (see
    /// [`Session::tick_warning`]).
    pub warning: Option<String>,
    /// The fixes that would make one of those lanes stable (offered only then).
    pub fixes: Vec<Fix>,
}

/// What the user asked for in the panel; applied after the frame it was drawn in, so it
/// applies at the next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Knob(KnobId, usize),
    Fix(Fix),
    /// What a key does once (reset, pause, stall, help).
    Action(super::Action),
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

    /// Does what the panel asked. A change the loop refuses changes nothing, and
    /// [`Session::refused`] says why until the next change.
    pub fn apply(&mut self, change: Change) {
        let outcome = match change {
            Change::Knob(id, choice) => self.set_knob(id, choice),
            Change::Fix(fix) => self.fix_stability(fix),
            Change::Action(action) => self.act(action),
        };
        self.refused = outcome.err();
        self.arrange();
    }

    /// Which of [`VIEWS`] is showing.
    fn view_choice(&self) -> usize {
        if self.overlay() {
            2
        } else {
            usize::from(self.view.split)
        }
    }

    /// Shows [`VIEWS`]`[choice]`, as V and O would.
    fn set_view_choice(&mut self, choice: usize) -> Result<(), Refused> {
        if choice == self.view_choice() {
            return Ok(());
        }
        match choice {
            0 | 1 => {
                self.set_overlay(false)?;
                if self.view.split != (choice == 1) {
                    self.toggle_split()?;
                }
                Ok(())
            }
            _ => self.set_overlay(true),
        }
    }

    /// The lane whose settings the panel shows.
    fn knob_lane(&self) -> &Lane {
        self.focused()
    }

    /// The loop's settings every lane was built with (the focused lane's).
    pub(super) fn knob_env(&self) -> PolicyEnv {
        *self.knob_lane().looped().env()
    }

    /// Every knob of the loop, in the panel's order, with the value in use.
    pub fn knobs(&self) -> Vec<Knob> {
        let lane = self.knob_lane();
        let timing = lane.policy().timing;
        let env = self.knob_env();
        let knob =
            |id, name, key, (options, current): (Vec<String>, usize), widget, tooltip| Knob {
                id,
                name,
                key,
                options,
                current,
                widget,
                tooltip,
            };
        let mut knobs = Vec::new();
        if self.lanes.len() > 1 {
            knobs.push(knob(
                KnobId::Lane,
                "Lane",
                "Tab, 1-4",
                (self.lanes.iter().map(Lane::name).collect(), self.view.focus),
                Widget::Choice,
                "The lane the keys and these knobs act on (and the one the single view shows).",
            ));
        }
        knobs.push(knob(
            KnobId::Mode,
            "Mode",
            "M",
            mode_options(lane),
            Widget::Choice,
            "How the lane chosen above (or the only one) turns frame time into steps: variable \
             (one step of the frame's length), semi-fixed (steps of at most a tick, the last one \
             shorter), fixed (whole ticks, the leftover carried) or interpolated (fixed, drawn \
             blended by alpha).",
        ));
        knobs.extend([
            knob(
                KnobId::View,
                "View",
                "V, O",
                (
                    VIEWS.iter().map(|v| (*v).to_string()).collect(),
                    self.view_choice(),
                ),
                Widget::Choice,
                "single: the chosen lane alone; split: every lane side by side in its own pane; \
                 overlay: every lane drawn in one pane in its colour, so the gap between two \
                 loops is a distance on screen. One lane becomes the four modes, forked from \
                 this rope.",
            ),
            knob(
                KnobId::Pause,
                "Pause",
                "P; , and . step",
                (
                    vec!["running".into(), "paused".into()],
                    usize::from(self.paused()),
                ),
                Widget::Toggle,
                "Freezes the picture; paused, , and . show the frame before and after, each lane \
                 as that frame showed it (the last 600 frames are kept).",
            ),
            knob(
                KnobId::Tick,
                "Tick",
                "- =",
                {
                    let (o, c) = tick_options(timing.tick_ns());
                    (labels(o), c)
                },
                Widget::Slider,
                "The fixed step every textbook lane simulates, ms (or Hz: ticks per simulated \
                 second); the variable mode ignores it.",
            ),
            knob(
                KnobId::Substep,
                "Substeps",
                "",
                {
                    let (o, c) = substep_options(env.max_substep);
                    (labels(o), c)
                },
                Widget::Choice,
                "The longest single integration step, ms: a longer tick is cut into equal \
                 substeps no longer than this (default: presets at 1 ms, textbook modes none).",
            ),
            knob(
                KnobId::Integrator,
                "Integrator",
                "I",
                (
                    vec!["euler".into(), "rk4".into()],
                    usize::from(lane.integrator() == Some(Integrator::Rk4)),
                ),
                Widget::Choice,
                "How the focused lane's rope is integrated: semi-implicit Euler (one force \
                 evaluation a step) or RK4 (four, with a wider stable step).",
            ),
            knob(
                KnobId::Clamp,
                "Clamp",
                "",
                {
                    let (o, c) = clamp_options(timing.clamp_ns());
                    (labels(o), c)
                },
                Widget::Choice,
                "The longest frame time the loop accepts, ms: anything longer (a hitch) is \
                 dropped, so the simulation falls behind the wall clock by the excess.",
            ),
            knob(
                KnobId::MaxSteps,
                "Max steps",
                "",
                {
                    let (o, c) = max_steps_options(timing.max_steps());
                    (labels(o), c)
                },
                Widget::Choice,
                "The most ticks one frame may run, steps: time for more is dropped (the \
                 spiral-of-death guard).",
            ),
            knob(
                KnobId::Pacing,
                "Pacing",
                "C",
                {
                    let (o, c) = pacing_options(self.pacing());
                    (labels(o), c)
                },
                Widget::Choice,
                "How frames are paced: vsync (presents wait for the display), adaptive (seed \
                 001's render interval) or late (sleep at the frame's end, input read late).",
            ),
            knob(
                KnobId::FpsCap,
                "Frame cap",
                "[ ]",
                {
                    let (o, c) = cap_options(self.fps_cap());
                    (labels(o), c)
                },
                Widget::Choice,
                "Frames start at most this often, frames per second (off: the pacing above).",
            ),
            knob(
                KnobId::Timer,
                "Timer",
                "T",
                (
                    TimerKind::ALL.iter().map(|t| t.to_string()).collect(),
                    TimerKind::ALL
                        .iter()
                        .position(|&t| t == lane.timer())
                        .unwrap_or(0),
                ),
                Widget::Choice,
                "How the focused lane reads frame time: raw (as measured), snap (to the \
                 display's period when close, as Glaiel's code), snap-vsync (the same only \
                 while vsync is detected) or smooth (Godot's averaged delta).",
            ),
            knob(
                KnobId::Drive,
                "Drive",
                "D",
                (
                    DRIVES.iter().map(|d| d.to_string()).collect(),
                    DRIVES
                        .iter()
                        .position(|&d| d == drive_name(self.rope.drive))
                        .unwrap_or(0),
                ),
                Widget::Choice,
                "How the pinned end moves: side to side, round a circle, or not at all; a \
                 driven pin is what judder (px rms) is measured on.",
            ),
            knob(
                KnobId::Trail,
                "Trail",
                "G",
                (
                    vec!["off".into(), "on".into()],
                    usize::from(self.view.trail),
                ),
                Widget::Toggle,
                "The free end's last shown positions as fading dots: evenly spaced when the \
                 motion shown is smooth.",
            ),
            knob(
                KnobId::Lesson,
                "Lesson",
                "L",
                (
                    std::iter::once("none (the plain view)".to_string())
                        .chain(
                            LESSONS
                                .iter()
                                .enumerate()
                                .map(|(i, l)| format!("{}. {}", i + 1, l.title)),
                        )
                        .collect(),
                    self.lesson.unwrap_or(0),
                ),
                Widget::Choice,
                "A lesson sets up its own lanes, tick, pacing and drive and says what to look \
                 at; none goes back to the view launched.",
            ),
        ]);
        knobs
    }

    /// Sets knob `id` to its option `choice` (an index into [`Knob::options`] as
    /// [`Session::knobs`] gave them), by the reset rule ([`RESET_RULE`]). An option the
    /// loop refuses (a clamp below the tick) changes nothing and says why.
    pub fn set_knob(&mut self, id: KnobId, choice: usize) -> Result<(), Refused> {
        let focus = self.view.focus;
        let timing = self.knob_lane().policy().timing;
        let env = self.knob_env();
        match id {
            KnobId::Mode => {
                let mode = *Mode::ALL.get(choice).ok_or(Refused::NoSuch("mode"))?;
                Ok(self.lanes[focus].set_mode(mode)?)
            }
            KnobId::Lane => {
                if choice < self.lanes.len() {
                    self.view.focus = choice;
                    self.arrange();
                }
                Ok(())
            }
            KnobId::View => self.set_view_choice(choice),
            KnobId::Pause => {
                if (choice == 1) != self.paused() {
                    self.set_paused(choice == 1);
                }
                Ok(())
            }
            KnobId::Tick => {
                let tick = chosen(tick_options(timing.tick_ns()).0, choice)?;
                let timing = env.timing.with_tick(tick)?;
                self.retime(env.with_timing(timing))
            }
            KnobId::Substep => {
                let max_substep = chosen(substep_options(env.max_substep).0, choice)?;
                self.retime(env.with_max_substep(max_substep))
            }
            KnobId::Clamp => match chosen(clamp_options(timing.clamp_ns()).0, choice)? {
                Some(ns) => {
                    let timing = env.timing.with_clamp(ns)?;
                    self.retime(env.with_timing(timing))
                }
                None => Ok(()),
            },
            KnobId::MaxSteps => match chosen(max_steps_options(timing.max_steps()).0, choice)? {
                Some(n) => {
                    let timing = env.timing.with_max_steps(n)?;
                    self.retime(env.with_timing(timing))
                }
                None => Ok(()),
            },
            KnobId::Integrator => {
                let integrator = [Integrator::Euler, Integrator::Rk4]
                    .get(choice)
                    .copied()
                    .ok_or(Refused::NoSuch("integrator"))?;
                Ok(self.lanes[focus].set_integrator(integrator)?)
            }
            KnobId::Pacing => {
                self.set_pacing(chosen(pacing_options(self.pacing()).0, choice)?);
                Ok(())
            }
            KnobId::FpsCap => {
                self.set_pacing(capped(chosen(cap_options(self.fps_cap()).0, choice)?));
                Ok(())
            }
            KnobId::Timer => {
                let timer = *TimerKind::ALL.get(choice).ok_or(Refused::NoSuch("timer"))?;
                Ok(self.lanes[focus].set_timer(timer)?)
            }
            KnobId::Drive => {
                let want = *DRIVES.get(choice).ok_or(Refused::NoSuch("drive"))?;
                for _ in 0..DRIVES.len() {
                    if drive_name(self.rope.drive) == want {
                        break;
                    }
                    self.cycle_drive();
                }
                Ok(())
            }
            KnobId::Trail => {
                self.view.trail = choice == 1;
                Ok(())
            }
            KnobId::Lesson => match choice {
                0 if self.lesson.is_some() => self.leave_lesson(),
                0 => Ok(()),
                n => self.start_lesson(n),
            },
        }
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
        if next == current {
            return Ok(());
        }
        self.set_knob(KnobId::Tick, next)
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
