//! egui in the window: winit's events become egui's input (egui-winit), the panel
//! (`panel.rs`) is run once a frame before the session's frame, and its meshes are drawn
//! with the window's own wgpu device (egui-wgpu) over our present pass, in the same command
//! buffer. The glue follows the shape of pixels' `minimal-egui` example (event, prepare,
//! render), reimplemented for egui 0.35.

use super::panel::{self, PanelState};
use super::session::Session;
use egui::{ClippedPrimitive, TexturesDelta, ViewportId};
use egui_wgpu::{Renderer, RendererOptions, ScreenDescriptor};
use pixels::wgpu;
use std::time::Instant;
use winit::event::WindowEvent;
use winit::window::Window;

/// egui's state for one window.
pub struct Gui {
    ctx: egui::Context,
    input: egui_winit::State,
    renderer: Renderer,
    screen: ScreenDescriptor,
    jobs: Vec<ClippedPrimitive>,
    textures: TexturesDelta,
    panel: PanelState,
    /// CPU time the last UI pass took (input, layout, tessellation), ns.
    pub ui_ns: u64,
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
            jobs: Vec::new(),
            textures: TexturesDelta::default(),
            panel: PanelState::default(),
            ui_ns: 0,
        }
    }

    /// Gives egui a window event; true when egui used it (the pointer is over the panel, or a
    /// field has the keyboard), so the rope and the keys should not.
    pub fn on_event(&mut self, window: &Window, event: &WindowEvent) -> bool {
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

    /// Runs the panel over `session` (what the user changed applies to this frame's lanes)
    /// and tessellates it for [`Gui::render`].
    pub fn prepare(&mut self, window: &Window, session: &mut Session) {
        let started = Instant::now();
        let raw = self.input.take_egui_input(window);
        let panel = &mut self.panel;
        let output = self
            .ctx
            .run_ui(raw, |ui| panel::show(ui.ctx(), session, panel));
        self.textures.append(output.textures_delta);
        self.input
            .handle_platform_output(window, output.platform_output);
        self.screen.pixels_per_point = output.pixels_per_point;
        self.jobs = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        self.ui_ns = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
    }

    /// Draws the prepared panel onto `target` (what is there stays underneath).
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
    ) {
        for (id, delta) in &self.textures.set {
            self.renderer.update_texture(device, queue, *id, delta);
        }
        self.renderer
            .update_buffers(device, queue, encoder, &self.jobs, &self.screen);
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("egui_pass"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: target,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        },
                        depth_slice: None,
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                })
                .forget_lifetime();
            self.renderer.render(&mut pass, &self.jobs, &self.screen);
        }
        for id in std::mem::take(&mut self.textures).free {
            self.renderer.free_texture(&id);
        }
    }
}
