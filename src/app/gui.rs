//! egui in the window: winit's events become egui's input (egui-winit); once a frame, after
//! the buffer is drawn, the frame's text (`labels.rs`), the panel and the HUD's text
//! (`panel.rs`) are run. Their picture is kept in a texture of the window's size (the UI
//! texture, `gpu.rs`), which our present pass lays over the frame: egui (egui-wgpu, on the
//! window's own wgpu device) paints into it only what changed since it was last painted
//! (`gui/damage.rs`), so a frame whose UI did not change paints no egui triangle, and one whose
//! figures changed paints only theirs. Under a software rasterizer painting the whole UI
//! costs about as much as the frame. What the user changed is kept for the session to apply
//! after the frame. The glue follows the shape of pixels' `minimal-egui` example (event,
//! prepare, render), reimplemented for egui 0.35.

mod damage;

use super::labels;
use super::panel::{self, PanelState};
use super::session::knobs::{Change, PanelView};
pub use damage::Damage;
use egui::epaint::ClippedShape;
use egui::{ClippedPrimitive, TexturesDelta, ViewportId};
use egui_wgpu::{Renderer, RendererOptions, ScreenDescriptor};
use pixels::wgpu;
use std::sync::Arc;
use timestep_lab::view::draw::{HudInfo, Texts};
use winit::event::WindowEvent;
use winit::window::Window;

/// egui's state for one window.
pub struct Gui {
    ctx: egui::Context,
    input: egui_winit::State,
    renderer: Renderer,
    screen: ScreenDescriptor,
    /// The prepared UI's shapes, in paint order (kept once painted: a new UI texture is
    /// painted from them).
    shapes: Arc<[ClippedShape]>,
    /// What the UI texture shows, if anything.
    shown: Option<Shown>,
    /// What of the UI texture the prepared UI paints again.
    damage: Damage,
    /// The meshes that paint it: the shapes over `damage`, clipped to it.
    jobs: Vec<ClippedPrimitive>,
    textures: TexturesDelta,
    panel: PanelState,
    /// What the user changed in the panel, not yet applied.
    changes: Vec<Change>,
    /// The width the panel covers at the window's right edge, physical pixels (0: hidden).
    panel_px: u32,
    /// The height the HUD's bar covers at the top, physical pixels (0: not a bar).
    bar_px: u32,
    /// The physical pixels egui painted since [`Gui::take_painted`] last asked, if it painted.
    painted: Option<u64>,
}

/// What the UI texture shows: these shapes, painted at this size and scale.
struct Shown {
    shapes: Arc<[ClippedShape]>,
    size: [u32; 2],
    pixels_per_point: f32,
}

impl Gui {
    /// egui for `window`, drawing into targets of `format` on `device`.
    pub fn new(
        window: &Window,
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        max_texture_side: u32,
    ) -> Gui {
        let ctx = egui::Context::default();
        let scale = window.scale_factor() as f32;
        let input = egui_winit::State::new(
            ctx.clone(),
            ViewportId::ROOT,
            window,
            Some(scale),
            None,
            Some(max_texture_side as usize),
        );
        let size = window.inner_size();
        Gui {
            ctx,
            input,
            renderer: Renderer::new(device, format, RendererOptions::default()),
            screen: ScreenDescriptor {
                size_in_pixels: [size.width.max(1), size.height.max(1)],
                pixels_per_point: scale,
            },
            shapes: Arc::new([]),
            shown: None,
            damage: Damage::None,
            jobs: Vec::new(),
            textures: TexturesDelta::default(),
            panel: PanelState::default(),
            changes: Vec::new(),
            panel_px: 0,
            bar_px: 0,
            painted: None,
        }
    }

    /// Gives egui a window event; true when egui used it (a field has the keyboard), so the
    /// keys should not. Keys are the window's: egui sees them only while one of its fields is
    /// being typed in, so Space on a focused button does not press it as well as cycling the
    /// mode.
    pub fn on_event(&mut self, window: &Window, event: &WindowEvent) -> bool {
        let key = matches!(event, WindowEvent::KeyboardInput { .. });
        if key && !self.ctx.egui_wants_keyboard_input() {
            return false;
        }
        self.input.on_window_event(window, event).consumed
    }

    /// Whether the pointer is over the panel (a press there is not a grab).
    pub fn wants_pointer(&self) -> bool {
        self.ctx.egui_wants_pointer_input()
    }

    /// The surface is `width × height` physical pixels at `scale` pixels per point.
    pub fn resize(&mut self, width: u32, height: u32, scale: f32) {
        if width > 0 && height > 0 {
            self.screen.size_in_pixels = [width, height];
        }
        self.screen.pixels_per_point = scale;
    }

    /// Runs the frame's text (`texts`, under the rest), the panel over `view` and the HUD's
    /// text over `hud` (hidden: `None`), keeps what the user changed, and works out what of
    /// the UI texture to paint again, tessellating only that, for [`Gui::paint`].
    pub fn prepare(
        &mut self,
        window: &Window,
        view: &PanelView,
        hud: Option<&HudInfo>,
        texts: &Texts,
    ) {
        let raw = self.input.take_egui_input(window);
        let (panel, changes) = (&self.panel, &mut self.changes);
        let output = self.ctx.run_ui(raw, |ui| {
            labels::paint(ui.ctx(), texts);
            if let Some(hud) = hud {
                panel::hud(ui.ctx(), hud);
            }
            changes.extend(panel::show(ui.ctx(), view, panel));
        });
        self.textures.append(output.textures_delta);
        self.input
            .handle_platform_output(window, output.platform_output);
        self.screen.pixels_per_point = output.pixels_per_point;
        self.shapes = output.shapes.into();
        self.damage = self.changed();
        self.jobs = self.tessellate();
        self.panel_px = panel::covered_width(&self.ctx, view.shown);
        let bar = hud.is_some_and(|h| panel::hud_is_bar(&self.ctx, h));
        self.bar_px = panel::hud_height(&self.ctx, bar);
    }

    /// What painting the prepared shapes over the UI texture paints again: all of it when
    /// the texture shows nothing yet, was painted at another size or scale, or a texture of
    /// egui's (the font atlas) is replaced or freed; else what changed since it was painted.
    fn changed(&self) -> Damage {
        let (size, ppp) = (self.screen.size_in_pixels, self.screen.pixels_per_point);
        let replaced = self
            .textures
            .set
            .iter()
            .any(|(_, delta)| delta.pos.is_none());
        match &self.shown {
            Some(shown)
                if shown.size == size
                    && shown.pixels_per_point == ppp
                    && !replaced
                    && self.textures.free.is_empty() =>
            {
                damage::between(&shown.shapes, &self.shapes, ppp, size)
            }
            _ => Damage::Whole,
        }
    }

    /// The meshes that paint the damaged part of the prepared shapes.
    fn tessellate(&self) -> Vec<ClippedPrimitive> {
        let ppp = self.screen.pixels_per_point;
        let shapes = match &self.damage {
            Damage::None => return Vec::new(),
            Damage::Whole => self.shapes.to_vec(),
            Damage::Rects(rects) => damage::clipped_to(&self.shapes, rects, ppp),
        };
        self.ctx.tessellate(shapes, ppp)
    }

    /// The UI texture is new (it shows nothing): the next paint paints the whole UI.
    pub fn repaint_whole(&mut self) {
        self.shown = None;
        self.damage = Damage::Whole;
        self.jobs = self.tessellate();
    }

    /// What of the UI texture the next [`Gui::paint`] paints again.
    pub fn damage_to_paint(&self) -> &Damage {
        &self.damage
    }

    /// The height the HUD's bar covers at the top, physical pixels, as last drawn (0: not a
    /// bar): the session lays the panes out under it.
    pub fn bar_px(&self) -> u32 {
        self.bar_px
    }

    /// The width the panel covers at the window's right edge, physical pixels, as last drawn
    /// (0: hidden): the session lays the panes out left of it.
    pub fn panel_px(&self) -> u32 {
        self.panel_px
    }

    /// What the user changed since the last call, in order.
    pub fn take_changes(&mut self) -> Vec<Change> {
        std::mem::take(&mut self.changes)
    }

    /// The physical pixels egui painted since the last call, or `None` if it painted nothing.
    pub fn take_painted(&mut self) -> Option<u64> {
        self.painted.take()
    }

    /// The outcome of applying the last change (its refusal, if it was refused).
    pub fn refused(&mut self, error: Option<String>) {
        self.panel.refused(error);
    }

    /// Uploads what the prepared UI needs (new glyphs, its meshes), before the pass it is
    /// painted in begins.
    pub fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
    ) {
        for (id, delta) in &self.textures.set {
            self.renderer.update_texture(device, queue, *id, delta);
        }
        self.textures.set.clear();
        self.renderer
            .update_buffers(device, queue, encoder, &self.jobs, &self.screen);
    }

    /// Paints [`Gui::damage_to_paint`]'s part of the prepared UI in `pass`, a pass over the
    /// UI texture that cleared that part, then lets go of the textures egui no longer needs.
    /// The texture then shows the prepared UI.
    pub fn paint(&mut self, pass: &mut wgpu::RenderPass<'static>) {
        self.renderer.render(pass, &self.jobs, &self.screen);
        for id in std::mem::take(&mut self.textures.free) {
            self.renderer.free_texture(&id);
        }
        let size = self.screen.size_in_pixels;
        *self.painted.get_or_insert(0) += self.damage.area(size);
        self.shown = Some(Shown {
            shapes: Arc::clone(&self.shapes),
            size,
            pixels_per_point: self.screen.pixels_per_point,
        });
        self.damage = Damage::None;
        self.jobs.clear();
    }
}
