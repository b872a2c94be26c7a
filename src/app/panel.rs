//! The window's egui: the control panel and the HUD's text.
//!
//! The panel draws every knob of a [`PanelView`] (the session's knobs, taken before the
//! frame), each with its key and a tooltip, the stability warning beside the tick with its
//! fixes, and a legend of the HUD's terms; what the user changes comes back as [`Change`]s for
//! the session to apply. The HUD draws the figures `draw::HudInfo` lays out, each with a
//! tooltip. Pure UI over plain data: it runs the same in the window and in egui_kittest's
//! harness.

use super::bindings::Action;
use super::session::knobs::{
    Change, Knob, Options, PANEL_WIDTH, PanelView, RESET_RULE, TICK, Widget,
};
use super::session::stability::Fix;
use egui::{Align2, Color32, RichText, Ui};
use timestep_lab::view::draw::{HudCell, HudInfo, LEGEND, tip};

/// The key that shows and hides the panel, as the help writes it.
pub const PANEL_KEY: &str = "F2";

/// The gap between the panel and the window's edges, points.
const PANEL_MARGIN: f32 = 8.0;
/// The panel's egui id (its area's, for [`covered_width`]).
const PANEL_ID: &str = "controls";

/// The HUD's egui id (its area's, for [`hud_height`]).
const HUD_ID: &str = "hud";

/// Warnings, in the HUD's amber.
const WARN: Color32 = Color32::from_rgb(255, 202, 76);
/// The keys column, dimmed.
const KEY: Color32 = Color32::from_rgb(132, 142, 163);

/// What the panel keeps between frames.
#[derive(Clone, Debug, Default)]
pub struct PanelState {
    /// Why the last change was refused, until the next one.
    error: Option<String>,
}

impl PanelState {
    /// The outcome of the last change: why it was refused, or `None`.
    pub fn refused(&mut self, error: Option<String>) {
        self.error = error;
    }
}

/// Draws the panel (when it is shown); what the user changed this frame.
pub fn show(ctx: &egui::Context, view: &PanelView, state: &PanelState) -> Vec<Change> {
    let mut changes = Vec::new();
    if !view.shown {
        return changes;
    }
    // As tall as its contents, down to the frame-time strip; it scrolls when that is not
    // tall enough.
    let screen = ctx.content_rect();
    let px_per_point = ctx.pixels_per_point().max(0.1);
    let strip_px = timestep_lab::view::draw::strip_height(
        (screen.width() * px_per_point) as u32,
        (screen.height() * px_per_point) as u32,
    );
    let height = (screen.height() - strip_px as f32 / px_per_point - 32.0).max(40.0);
    // An area keeps the size it was squeezed to (its contents' room is its last size): when
    // the room it may take changes, it is sized afresh.
    let id = egui::Id::new(PANEL_ID);
    let resized = ctx.data(|d| d.get_temp::<f32>(id.with("last_room"))) != Some(height);
    ctx.data_mut(|d| d.insert_temp(id.with("last_room"), height));
    egui::Area::new(id)
        .anchor(Align2::RIGHT_TOP, [-PANEL_MARGIN, PANEL_MARGIN])
        .sizing_pass(resized)
        .order(egui::Order::Middle)
        .show(ctx, |ui| {
            egui::Frame::window(ui.style()).show(ui, |ui| {
                ui.set_width(PANEL_WIDTH);
                ui.vertical_centered(|ui| ui.heading("Controls"));
                // The bar always shows when the contents scroll: the Legend and the actions
                // below a stability warning are found by scrolling.
                egui::ScrollArea::vertical()
                    .max_height(height - 30.0)
                    // Without it the scroll area keeps the height it first had and scrolls
                    // when its contents grow (a stability warning), though the panel has room.
                    .min_scrolled_height(height - 30.0)
                    .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                    .show(ui, |ui| contents(ui, view, state, &mut changes));
            });
        });
    changes
}

/// The width the panel shown last frame covers along the window's right edge, from its left
/// edge (less a margin) to the window's, in physical pixels; 0 if it was not shown.
pub fn covered_width(ctx: &egui::Context, shown: bool) -> u32 {
    if !shown {
        return 0;
    }
    let Some(rect) = ctx.memory(|m| m.area_rect(egui::Id::new(PANEL_ID))) else {
        return 0;
    };
    let points = ctx.content_rect().right() - rect.left() + PANEL_MARGIN;
    (points.max(0.0) * ctx.pixels_per_point()).round() as u32
}

/// The height the HUD drawn last frame covers from the window's top, physical pixels; 0 if
/// it is not `bar` (one lane's HUD is a column the single view keeps beside).
pub fn hud_height(ctx: &egui::Context, bar: bool) -> u32 {
    let rect = ctx.memory(|m| m.area_rect(egui::Id::new(HUD_ID)));
    match rect {
        Some(rect) if bar => ((rect.bottom() + 2.0) * ctx.pixels_per_point()).round() as u32,
        _ => 0,
    }
}

/// The panel's contents, top to bottom.
fn contents(ui: &mut Ui, view: &PanelView, state: &PanelState, changes: &mut Vec<Change>) {
    ui.label(
        RichText::new(format!(
            "{PANEL_KEY}: hide this panel   F1: keys   L: lessons\nThe terms on screen: Legend, at this panel's foot"
        ))
        .color(KEY),
    );
    egui::Grid::new("knobs")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (knob, options) in &view.knobs {
                ui.label(RichText::new(knob.key).monospace().color(KEY))
                    .on_hover_text("The key that does the same.");
                let chosen = knob_widget(ui, knob, options).and_then(|i| options.list.get(i));
                if let Some(&(_, setting)) = chosen {
                    changes.push(Change::Set(setting));
                }
                ui.end_row();
                // Under the tick, so the slider stays where it is when the warning appears.
                if let (TICK, Some(warning)) = (knob.name, &view.warning) {
                    ui.label("");
                    ui.vertical(|ui| stability(ui, warning, &view.fixes, changes));
                    ui.end_row();
                }
            }
        });
    actions(ui, changes);
    if let Some(e) = &state.error {
        ui.colored_label(WARN, e);
    }
    ui.add(egui::Label::new(RichText::new(RESET_RULE).color(KEY)).wrap());
    // Each term over its meaning, wrapped at the panel's width (a grid would not wrap).
    egui::CollapsingHeader::new("Legend").show(ui, |ui| {
        for term in LEGEND {
            ui.label(RichText::new(term).monospace().strong());
            ui.add(egui::Label::new(tip(term).unwrap_or_default()).wrap());
        }
    });
}

/// The label of option `i` of `options` ("" if there is none).
fn label(options: &Options, i: usize) -> String {
    options
        .list
        .get(i)
        .map(|(l, _)| l.clone())
        .unwrap_or_default()
}

/// One knob's widget, labelled with its name (its accessible name) and with its tooltip;
/// the index of the option chosen, if the user chose one this frame.
fn knob_widget(ui: &mut Ui, knob: &Knob, options: &Options) -> Option<usize> {
    let mut choice = options.current;
    let last = options.list.len().saturating_sub(1);
    let response = match knob.widget {
        Widget::Slider => {
            let track = slider_width(ui, knob, options);
            let slider = egui::Slider::new(&mut choice, 0..=last)
                .step_by(1.0)
                .text(knob.name)
                .custom_formatter(|v, _| label(options, v as usize))
                .custom_parser(|s| {
                    let i = options.list.iter().position(|(l, _)| l == s);
                    i.map(|i| i as f64)
                });
            let response = ui
                .scope(|ui| {
                    ui.spacing_mut().slider_width = track;
                    ui.add(slider)
                })
                .inner;
            if let Some(stop) = clicked_stop(ui, &response, track, last) {
                choice = stop;
            }
            response
        }
        Widget::Toggle => {
            let mut on = choice == 1;
            let r = ui.checkbox(&mut on, knob.name);
            choice = usize::from(on);
            r
        }
        Widget::Choice => choice_box(ui, knob, options, &mut choice),
    };
    response.on_hover_text(knob.tooltip);
    (choice != options.current).then_some(choice)
}

/// A drop-down of `knob`'s options, named by the label after it. The button keeps to the
/// room the label leaves in the panel's width: a long option (a lesson's title) wraps in it
/// rather than widening the panel.
fn choice_box(ui: &mut Ui, knob: &Knob, options: &Options, choice: &mut usize) -> egui::Response {
    let gap = ui.spacing().item_spacing.x;
    let room =
        (ui.available_width() - text_width(ui, knob.name) - gap).max(ui.spacing().combo_width);
    ui.horizontal(|ui| {
        let size = egui::vec2(room, ui.spacing().interact_size.y);
        let combo = ui.allocate_ui(size, |ui| {
            egui::ComboBox::from_id_salt(knob.name).wrap().show_index(
                ui,
                choice,
                options.list.len(),
                |i| label(options, i),
            )
        });
        let label = ui.label(knob.name);
        combo.inner.labelled_by(label.id) | label
    })
    .inner
}

/// The width of `text` on one line in the panel's body text, points.
fn text_width(ui: &Ui, text: &str) -> f32 {
    let galley = egui::WidgetText::from(text).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Body,
    );
    galley.size().x
}

/// The track width of `knob`'s slider, points: egui's own where the row fits in the panel
/// with its widest value, less where it would not (a row that overflowed would widen the
/// panel as the value changes).
fn slider_width(ui: &Ui, knob: &Knob, options: &Options) -> f32 {
    let widest = options
        .list
        .iter()
        .map(|(o, _)| text_width(ui, o))
        .fold(0.0, f32::max);
    let spacing = ui.spacing();
    let value = widest + 2.0 * spacing.button_padding.x;
    let rest = value + text_width(ui, knob.name) + 2.0 * spacing.item_spacing.x;
    (ui.available_width() - rest).clamp(spacing.interact_size.x, spacing.slider_width)
}

/// The stop (0 to `last`) a click on a slider's track landed nearest, if one did this frame.
/// egui's slider moves only while its button is held down over it across frames; a click
/// whose press and release reach egui in the same frame (a quick click on a slow frame) would
/// do nothing. The track is the first `track` points of the response (the slider's width),
/// less the handle's radius at each end, as egui lays it out.
fn clicked_stop(ui: &Ui, response: &egui::Response, track: f32, last: usize) -> Option<usize> {
    let clicked = ui.input(|i| {
        i.pointer
            .button_clicked(egui::PointerButton::Primary)
            .then(|| i.pointer.interact_pos())
            .flatten()
    })?;
    let rect = response.rect;
    let radius = rect.height() / 2.5;
    let track =
        egui::Rect::from_min_size(rect.min, egui::vec2(track.min(rect.width()), rect.height()));
    if !track.contains(clicked) || last == 0 {
        return None;
    }
    let span = (track.width() - 2.0 * radius).max(1.0);
    let at = ((clicked.x - track.left() - radius) / span).clamp(0.0, 1.0);
    Some((at * last as f32).round() as usize)
}

/// The stability bound: a lane's tick (or substep) is above its integrator's stable step;
/// say which lanes, and offer the fixes that make one of them stable (`fixes`).
fn stability(ui: &mut Ui, warning: &str, fixes: &[Fix], changes: &mut Vec<Change>) {
    ui.colored_label(WARN, warning);
    ui.horizontal(|ui| {
        for fix in fixes {
            let (label, tip) = match fix {
                Fix::Substeps => (
                    "Add substeps",
                    "Integrate every step in substeps of half the stable step, at most 1 ms: \
                     each tick, and each variable lane's frame-long step too (so variable stops \
                     exploding as well). The ticks stay as they are.",
                ),
                Fix::Rk4 => (
                    "Switch to RK4",
                    "The lanes named above that are on Euler integrate with RK4, whose stable \
                     step on this rope holds their step; the others keep their integrator.",
                ),
            };
            if ui.button(label).on_hover_text(tip).clicked() {
                changes.push(Change::Fix(*fix));
            }
        }
    });
}

/// The buttons for what the keys do once: reset, pause, stall, help.
fn actions(ui: &mut Ui, changes: &mut Vec<Change>) {
    let buttons = [
        (
            "Reset (R)",
            Action::Reset,
            "Every rope back to its starting line; the clock carries on.",
        ),
        (
            "Pause (P)",
            Action::Pause,
            "Stop simulating; frames are still drawn and timed.",
        ),
        (
            "Stall (S)",
            Action::Stall,
            "Block the loop for 300 ms once: the next frame measures it.",
        ),
        (
            "Keys (F1)",
            Action::ToggleHelp,
            "Every key, drawn over the panes.",
        ),
    ];
    ui.horizontal_wrapped(|ui| {
        for (label, action, tooltip) in buttons {
            if ui.button(label).on_hover_text(tooltip).clicked() {
                changes.push(Change::Action(action));
            }
        }
    });
}

/// The tooltip of a HUD label: the library's glossary's sentence.
fn hud_tip(label: &str) -> &'static str {
    timestep_lab::view::draw::tip(label).unwrap_or("")
}

/// The HUD's grid spacing, points: between columns and between rows.
const HUD_SPACING: [f32; 2] = [8.0, 1.0];
/// The HUD's frame: its inner margin and its stroke, points.
const HUD_MARGIN: f32 = 6.0;
const HUD_STROKE: f32 = 1.0;
/// Where the HUD's frame starts, points from the window's top-left corner.
const HUD_AT: f32 = 6.0;

/// Below this height, points, one lane's HUD is a bar across the top rather than a column down
/// the left: in a 777x486 window its column of fourteen rows ran into a lesson's caption and
/// over the rope.
const SHORT_POINTS: f32 = 600.0;

/// Whether `hud` is drawn as a bar across the top (several lanes, or a short window), which the
/// panes are laid out under; else one lane's column, which the rope keeps beside.
pub fn hud_is_bar(ctx: &egui::Context, hud: &HudInfo) -> bool {
    hud.lanes.len() > 1 || ctx.content_rect().height() < SHORT_POINTS
}

/// `hud`'s cells as drawn: one lane's column flowed into one line where it is a bar.
fn hud_lines(ctx: &egui::Context, hud: &HudInfo) -> Vec<Vec<HudCell>> {
    let lines = hud.cells();
    match hud.lanes.len() == 1 && hud_is_bar(ctx, hud) {
        true => vec![lines.into_iter().flatten().collect()],
        false => lines,
    }
}

/// The HUD's text: one lane's figures in the top-left corner, or a bar across the top (the
/// split view's, a short window's), each with its tooltip; the panes, rope and strip stay in
/// the pixel buffer. The bar keeps left of the panel (as it was drawn last frame): where its
/// lines do not fit there, they wrap (three rows a line at most).
pub fn hud(ctx: &egui::Context, hud: &HudInfo) {
    let colour = |c: [u8; 3]| Color32::from_rgb(c[0], c[1], c[2]);
    let frame = egui::Frame::new()
        .fill(Color32::from_rgba_unmultiplied(9, 11, 15, 205))
        .stroke(egui::Stroke::new(HUD_STROKE, Color32::from_rgb(58, 64, 80)))
        .inner_margin(HUD_MARGIN)
        .corner_radius(4.0);
    let room = hud_room(ctx);
    let lines = hud_lines(ctx, hud);
    // Rows as the widest this HUD gets (paused, after input): it keeps its height.
    let widest = hud_lines(ctx, &hud.widest());
    egui::Area::new(egui::Id::new(HUD_ID))
        .fixed_pos([HUD_AT, HUD_AT])
        .order(egui::Order::Background)
        .interactable(true)
        .show(ctx, |ui| {
            let shape: Vec<usize> = widest.iter().map(Vec::len).collect();
            let fit = cells_per_row(ui, &widest, room).max(third_of_a_line(&shape));
            let per_row = sticky_per_row(ui, fit, (room, shape));
            frame.show(ui, |ui| {
                egui::Grid::new("hud_grid")
                    .num_columns(2 * per_row)
                    .spacing(HUD_SPACING)
                    .show(ui, |ui| {
                        let rows = |lines: &[Vec<HudCell>]| -> usize {
                            lines.iter().map(|l| l.len().div_ceil(per_row)).sum()
                        };
                        for row in lines.iter().flat_map(|line| line.chunks(per_row)) {
                            for cell in row {
                                hud_cell(ui, cell, colour);
                            }
                            ui.end_row();
                        }
                        // As many rows as the widest HUD has: an input row to come is kept.
                        for _ in rows(&lines)..rows(&widest) {
                            ui.monospace(" ");
                            ui.end_row();
                        }
                    });
            });
        });
}

/// The fewest cells a row of the bar holds: a third of its longest line's, so each line
/// takes three rows at most. In a narrow room (a 777 px window with the panel shown) the bar
/// used to wrap to a column of nine rows and leave the panes a strip; where even three rows
/// do not fit, its rightmost cells go under the panel instead.
fn third_of_a_line(shape: &[usize]) -> usize {
    shape.iter().max().map_or(1, |n| n.div_ceil(3)).max(1)
}

/// `per_row`, or fewer where fewer were laid out before for the same room and the same cells
/// (`key`: the room, points, and each line's cell count): while those stay, the bar's rows
/// only grow (a figure a digit longer, then shorter again, would otherwise move every pane
/// under it down and up). Another view (one lane's column, the bar) starts afresh.
fn sticky_per_row(ui: &Ui, per_row: usize, key: (f32, Vec<usize>)) -> usize {
    let id = egui::Id::new((HUD_ID, "per row"));
    ui.ctx().data_mut(|d| {
        let kept = d.get_temp::<((f32, Vec<usize>), usize)>(id);
        let per_row = match kept {
            Some((k, n)) if k == key => n.min(per_row),
            _ => per_row,
        };
        d.insert_temp(id, (key, per_row));
        per_row
    })
}

/// The width the HUD's grid may take, points: from its frame's inside to the panel's left
/// edge as drawn last frame (or the window's right edge), less a small gap.
fn hud_room(ctx: &egui::Context) -> f32 {
    let panel = egui::LayerId::new(egui::Order::Middle, egui::Id::new(PANEL_ID));
    let right = ctx
        .memory(|m| {
            m.areas()
                .visible_last_frame(&panel)
                .then(|| m.area_rect(panel.id))
                .flatten()
        })
        .map_or(ctx.content_rect().right(), |r| r.left());
    right - HUD_AT - 2.0 * (HUD_MARGIN + HUD_STROKE) - PANEL_MARGIN
}

/// How many HUD cells one grid row holds: all of a line's where they fit in `room` points,
/// else the most that do (at least one). Each cell is two columns, label and value, as wide
/// as the widest of that column's (egui's grid gives a column at least `interact_size.x`).
fn cells_per_row(ui: &Ui, lines: &[Vec<HudCell>], room: f32) -> usize {
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let gap = ui.spacing().item_spacing.x;
    let width = |text: &str| {
        let galley = ui
            .painter()
            .layout_no_wrap(text.to_owned(), font.clone(), Color32::WHITE);
        galley.size().x
    };
    let widths: Vec<Vec<[f32; 2]>> = lines
        .iter()
        .map(|line| {
            let cell = |c: &HudCell| {
                let flag = c.flag.map_or(0.0, |(f, _)| gap + width(f));
                [width(c.label), width(&c.value) + flag]
            };
            line.iter().map(cell).collect()
        })
        .collect();
    let min_col = ui.spacing().interact_size.x;
    let grid_width = |per_row: usize| {
        let mut cols = vec![min_col; 2 * per_row];
        for row in widths.iter().flat_map(|line| line.chunks(per_row)) {
            for (col, w) in cols.iter_mut().zip(row.iter().flatten()) {
                *col = col.max(*w);
            }
        }
        cols.iter().sum::<f32>() + HUD_SPACING[0] * (cols.len() - 1) as f32
    };
    let widest = lines.iter().map(Vec::len).max().unwrap_or(1).max(1);
    (1..=widest)
        .rev()
        .find(|&n| grid_width(n) <= room)
        .unwrap_or(1)
}

/// One HUD figure: its label and value (and flag), each with the label's tooltip.
fn hud_cell(ui: &mut Ui, cell: &HudCell, colour: impl Fn([u8; 3]) -> Color32) {
    let tip = hud_tip(cell.label);
    ui.label(
        RichText::new(cell.label)
            .monospace()
            .color(colour(cell.label_colour)),
    )
    .on_hover_text(tip);
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(&cell.value)
                .monospace()
                .color(colour(cell.colour)),
        )
        .on_hover_text(tip);
        if let Some((flag, c)) = cell.flag {
            ui.label(RichText::new(flag).monospace().strong().color(colour(c)));
        }
    });
}

#[cfg(test)]
mod tests;
