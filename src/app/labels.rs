//! The frame's text in egui: the lines drawing laid out (`timestep_lab::view::draw::Texts`: pane
//! labels, the strip's legends and scales, the hint, caption, banner and help) painted over the
//! pixel buffer in egui's monospace font, sized so each character takes the advance the layout
//! gave it, and each figure given its meaning as a tooltip. The buffer is the window's size in
//! physical pixels, so a buffer pixel is `1 / pixels_per_point` points.

use egui::{Align2, Color32, FontId, Order, RichText, Ui};
use timestep_lab::view::draw::{Align, Part, TextLine, Texts, advance, line_height};

/// The id of the area of the frame's `i`-th line.
fn line_id(i: usize) -> egui::Id {
    egui::Id::new(("frame text", i))
}

/// Paints every line of `texts`, each in an area of its own under the HUD and the panel: only
/// a line with a figure takes the pointer (for its tooltip), and a background area does not
/// keep the rope from being grabbed.
pub fn paint(ctx: &egui::Context, texts: &Texts) {
    let px = 1.0 / ctx.pixels_per_point().max(0.1);
    let probe = FontId::monospace(100.0);
    let em_advance = ctx.fonts_mut(|f| f.glyph_width(&probe, '0')) / 100.0;
    let em_advance = if em_advance > 0.0 { em_advance } else { 0.6 };
    for (i, line) in texts.lines().iter().enumerate() {
        let font = FontId::monospace(advance(line.scale) as f32 * px / em_advance);
        let row = ctx.fonts_mut(|f| f.row_height(&font));
        // Centred on the line's cell, whose height the layout gave it.
        let top = line.y as f32 * px - (row - line_height(line.scale) as f32 * px) / 2.0;
        let pivot = match line.align {
            Align::Left => Align2::LEFT_TOP,
            Align::Centre => Align2::CENTER_TOP,
            Align::Right => Align2::RIGHT_TOP,
        };
        egui::Area::new(line_id(i))
            .fixed_pos([line.x as f32 * px, top])
            .pivot(pivot)
            .order(Order::Background)
            .interactable(line.parts.iter().any(|p| p.tip.is_some()))
            .constrain(false)
            .fade_in(false)
            .show(ctx, |ui| paint_line(ui, line, &font, px));
    }
}

/// One line's runs, left to right, clipped as it says.
fn paint_line(ui: &mut Ui, line: &TextLine, font: &FontId, px: f32) {
    if let Some((x, y, w, h)) = line.clip {
        let rect = egui::Rect::from_min_size(
            egui::pos2(x as f32 * px, y as f32 * px),
            egui::vec2(w.max(0) as f32 * px, h.max(0) as f32 * px),
        );
        ui.set_clip_rect(rect);
    }
    ui.spacing_mut().item_spacing = egui::Vec2::ZERO;
    ui.horizontal(|ui| {
        for part in &line.parts {
            if line.shadow {
                let at = ui.cursor().min + egui::vec2(1.0, 1.0) * line.scale.max(1) as f32 * px;
                let dark = Color32::from_rgb(9, 11, 15);
                ui.painter()
                    .text(at, Align2::LEFT_TOP, &part.text, font.clone(), dark);
            }
            run(ui, part, font);
        }
    });
}

/// One run: its text in its colour, and its meaning when it is a figure.
fn run(ui: &mut Ui, part: &Part, font: &FontId) {
    let [r, g, b] = part.colour;
    let text = RichText::new(&part.text)
        .font(font.clone())
        .color(Color32::from_rgb(r, g, b));
    let response = ui.add(egui::Label::new(text).extend().selectable(false));
    if let Some(tip) = part.tip {
        response.on_hover_text(tip);
    }
}

#[cfg(test)]
mod tests;
