//! The control panel (egui): every knob [`Session::knobs`] lists, drawn from that list, with
//! its key and a tooltip; the stability warning beside the tick with its fixes; the focused
//! lane's figures, each with a tooltip; and a legend of the HUD's terms. Pure UI over the
//! session: it runs the same in the window and in egui_kittest's harness.

use super::bindings::Action;
use super::session::Session;
use super::session::knobs::{Fix, Knob, RESET_RULE, Widget};
#[cfg(test)]
use super::session::knobs::KnobId;
use egui::{Align2, Color32, RichText, Ui};

/// The key that shows and hides the panel, as the help writes it.
pub const PANEL_KEY: &str = "F2";

/// Warnings, in the HUD's amber.
const WARN: Color32 = Color32::from_rgb(255, 202, 76);
/// The keys column, dimmed.
const KEY: Color32 = Color32::from_rgb(132, 142, 163);

/// The HUD's terms, each in one sentence.
pub const LEGEND: [(&str, &str); 14] = [
    (
        "steps",
        "Ticks simulated this frame: 0 or 2 where 1 was due is a hitch you can see.",
    ),
    (
        "alpha",
        "How far the frame is between the last two ticks (0 to 1): interpolation blends by it.",
    ),
    (
        "drift",
        "Simulated time minus wall time, ms: negative is the simulation behind.",
    ),
    (
        "dropped",
        "Time the clamp and the step cap threw away, ms: the simulation never gets it back.",
    ),
    (
        "energy",
        "The rope's kinetic plus potential energy, J; it can be negative (height is measured \
         from the pin), and it climbing without end means the rope is exploding.",
    ),
    (
        "judder",
        "How unevenly the driven pin moves on screen, px rms over the last second: 0 is smooth.",
    ),
    (
        "vsync",
        "What the frame times say: the display's rate in Hz, 'not paced', or 'deciding'.",
    ),
    (
        "x17",
        "After the tick: each tick is integrated as 17 substeps.",
    ),
    (
        "unstable>",
        "After the tick: the step is above the rope's stable step, ms, so it will explode.",
    ),
    (
        "raw / snap / smooth",
        "The timer: frame time as measured, snapped to the display's period, or averaged.",
    ),
    (
        "Fifo",
        "The present mode: each frame waits for the display's next vblank (vsync).",
    ),
    (
        "FifoRelaxed",
        "Vsync, except that a late frame is shown at once (it may tear) instead of waiting.",
    ),
    (
        "Immediate / Mailbox",
        "No vsync (may tear), or the newest frame replaces a waiting one (no tearing).",
    ),
    (
        "input",
        "Latency from a key or mouse event to the frame that answers it reaching the screen, ms.",
    ),
];

/// What the panel keeps between frames.
#[derive(Clone, Debug, Default)]
pub struct PanelState {
    /// Why the last change was refused, until the next one.
    error: Option<String>,
}

/// Draws the panel (when the session shows it) and applies what the user changed.
pub fn show(ctx: &egui::Context, session: &mut Session, state: &mut PanelState) {
    if !session.panel_shown() {
        return;
    }
    // As tall as the window allows; it scrolls when that is not tall enough.
    let height = (ctx.content_rect().height() - 48.0).max(0.0);
    egui::Window::new("Controls")
        .anchor(Align2::RIGHT_TOP, [-8.0, 8.0])
        .default_width(300.0)
        .max_height(height)
        .default_height(height)
        .resizable(false)
        .collapsible(true)
        .vscroll(true)
        .show(ctx, |ui| contents(ui, session, state));
}

/// The panel's contents, top to bottom.
pub fn contents(ui: &mut Ui, session: &mut Session, state: &mut PanelState) {
    ui.label(
        RichText::new(format!(
            "{PANEL_KEY}: hide this panel   F1: keys   L: lessons"
        ))
        .color(KEY),
    );
    stability(ui, session, state);
    egui::Grid::new("knobs")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for knob in session.knobs() {
                ui.label(RichText::new(knob.key).monospace().color(KEY))
                    .on_hover_text("The key that does the same.");
                if let Some(choice) = knob_widget(ui, &knob) {
                    state.error = session.set_knob(knob.id, choice).err();
                }
                ui.end_row();
            }
        });
    actions(ui, session);
    if let Some(e) = &state.error {
        ui.colored_label(WARN, e);
    }
    ui.label(RichText::new(RESET_RULE).small().weak());
    figures(ui, session);
    egui::CollapsingHeader::new("Legend").show(ui, |ui| {
        egui::Grid::new("legend").num_columns(2).show(ui, |ui| {
            for (term, meaning) in LEGEND {
                ui.label(RichText::new(term).monospace());
                ui.label(meaning);
                ui.end_row();
            }
        });
    });
}

/// One knob's widget, labelled with its name (its accessible name) and with its tooltip;
/// the option chosen, if the user chose one this frame.
fn knob_widget(ui: &mut Ui, knob: &Knob) -> Option<usize> {
    let mut choice = knob.current;
    let last = knob.options.len().saturating_sub(1);
    let response = match knob.widget {
        Widget::Slider => {
            let options = &knob.options;
            ui.add(
                egui::Slider::new(&mut choice, 0..=last)
                    .step_by(1.0)
                    .text(knob.name)
                    .custom_formatter(|v, _| {
                        options.get(v as usize).cloned().unwrap_or_default()
                    })
                    .custom_parser(|s| {
                        options.iter().position(|o| o == s).map(|i| i as f64)
                    }),
            )
        }
        Widget::Toggle => {
            let mut on = choice == 1;
            let r = ui.checkbox(&mut on, knob.name);
            choice = usize::from(on);
            r
        }
        Widget::Choice => {
            egui::ComboBox::from_label(knob.name)
                .show_index(ui, &mut choice, knob.options.len(), |i| {
                    knob.options.get(i).cloned().unwrap_or_default()
                })
        }
    };
    response.on_hover_text(knob.tooltip);
    (choice != knob.current).then_some(choice)
}

/// The stability bound: when the tick (or substep) is above the integrator's stable step,
/// say so, and offer the fixes.
fn stability(ui: &mut Ui, session: &mut Session, state: &mut PanelState) {
    let Some(warning) = session.tick_warning() else {
        return;
    };
    ui.colored_label(WARN, &warning);
    ui.horizontal(|ui| {
        let substeps = ui
            .button("Add substeps")
            .on_hover_text("Integrate each tick in substeps of half the stable step, at most 1 ms.");
        if substeps.clicked() {
            state.error = session.fix_stability(Fix::Substeps).err();
        }
        let rk4 = ui
            .button("Switch to RK4")
            .on_hover_text("Every lane integrates with RK4, whose stable step is wider.");
        if rk4.clicked() {
            state.error = session.fix_stability(Fix::Rk4).err();
        }
    });
}

/// The buttons for what the keys do once: reset, pause, stall, help.
fn actions(ui: &mut Ui, session: &mut Session) {
    let buttons = [
        ("Reset (R)", Action::Reset, "Every rope back to its starting line; the clock carries on."),
        ("Pause (P)", Action::Pause, "Stop simulating; frames are still drawn and timed."),
        ("Stall (S)", Action::Stall, "Block the loop for 300 ms once: the next frame measures it."),
        ("Keys (F1)", Action::ToggleHelp, "Every key, drawn over the panes."),
    ];
    ui.horizontal_wrapped(|ui| {
        for (label, action, tooltip) in buttons {
            if ui.button(label).on_hover_text(tooltip).clicked() {
                session.handle_action(action);
            }
        }
    });
}

/// The focused lane's figures, each with what it means and its unit.
fn figures(ui: &mut Ui, session: &Session) {
    egui::CollapsingHeader::new("Figures")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("figures").num_columns(2).show(ui, |ui| {
                for figure in session.figures() {
                    ui.label(figure.name).on_hover_text(figure.tooltip);
                    ui.label(RichText::new(&figure.value).monospace())
                        .on_hover_text(figure.tooltip);
                    ui.end_row();
                }
            });
        });
}

/// Whether `id` is a knob the panel can show for `session` (the lane knob needs two lanes).
#[cfg(test)]
pub fn has_knob(session: &Session, id: KnobId) -> bool {
    session.knobs().iter().any(|k| k.id == id)
}

#[cfg(test)]
#[path = "panel_tests.rs"]
mod tests;
