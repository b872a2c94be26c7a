//! Presenting: a pixels buffer the size of the window, uploaded to pixels' texture, then our
//! pass (`shaders/present.wgsl`, a subtle vignette, with the UI laid over it) onto the
//! surface. The UI (egui: the panel, the HUD, the frame's text) is painted into a texture of
//! its own, only where it changed (`gui.rs`), so a frame whose UI did not change costs no
//! egui triangle. Shaped like pixels' custom-shader example: `new / resize / render`, the
//! target format from `pixels.render_texture_format()`. Unlike it, our pass reads pixels'
//! texture itself, without pixels' scaling pass: the buffer is always the window's size, so
//! that pass only copied it 1:1 into another texture, a whole frame's read and write under
//! a software rasterizer.
//!
//! pixels is the vendored 0.17.2 with upstream's bounded surface retry (vendor/README.md): a
//! surface that stays out of date after one reconfigure comes back as `Error::Surface`, and
//! the frame is skipped. The app re-reads the window's size before every frame and resizes
//! the surface to it, so the next frame acquires at the right size. Unpatched, a resize in
//! between hung the window for good (parasyte/pixels#460).

use super::gui::{Damage, Gui};
use crate::messages::chain;
use pixels::wgpu;
use pixels::{Pixels, PixelsBuilder, SurfaceTexture};
use std::sync::{Arc, Mutex};
use winit::window::Window;

/// How dark the corners get (0 = no vignette).
const VIGNETTE: f32 = 0.28;

/// What a requested present mode becomes on a surface that supports `available`: the
/// `Auto*` modes resolve exactly as wgpu-core does when it configures the surface
/// (AutoVsync: FifoRelaxed, else Fifo; AutoNoVsync: Immediate, else Mailbox, else Fifo).
/// wgpu does not report its choice back, so this is how the HUD knows what it got.
pub fn resolve_present_mode(
    requested: wgpu::PresentMode,
    available: &[wgpu::PresentMode],
) -> wgpu::PresentMode {
    use wgpu::PresentMode as P;
    if available.contains(&requested) {
        return requested;
    }
    let fallbacks: &[P] = match requested {
        P::AutoVsync => &[P::FifoRelaxed, P::Fifo],
        P::AutoNoVsync => &[P::Immediate, P::Mailbox, P::Fifo],
        _ => &[P::Fifo],
    };
    fallbacks
        .iter()
        .copied()
        .find(|m| available.contains(m))
        .unwrap_or(P::Fifo)
}

/// The HUD's name for a present mode.
pub fn present_mode_label(mode: wgpu::PresentMode, vsync_requested: bool) -> String {
    use wgpu::PresentMode as P;
    let label = match mode {
        P::Fifo => "Fifo (vsync)",
        P::FifoRelaxed => "FifoRelaxed (vsync)",
        P::Immediate => "Immediate",
        P::Mailbox => "Mailbox",
        P::AutoVsync => "AutoVsync",
        P::AutoNoVsync => "AutoNoVsync",
    };
    if !vsync_requested && matches!(mode, P::Fifo | P::FifoRelaxed) {
        // --vsync off asked for, but the surface has no mode without it.
        label.replace("(vsync)", "(vsync forced)")
    } else {
        label.to_string()
    }
}

/// The graphics backends this build of wgpu can use, by the names `WGPU_BACKEND` takes.
const BACKEND_NAMES: [(wgpu::Backends, &str); 5] = [
    (wgpu::Backends::VULKAN, "vulkan"),
    (wgpu::Backends::METAL, "metal"),
    (wgpu::Backends::DX12, "dx12"),
    (wgpu::Backends::GL, "gl"),
    (wgpu::Backends::BROWSER_WEBGPU, "webgpu"),
];

/// The one line for "wgpu has no adapter for us"; `wgpu_backend` is `WGPU_BACKEND` if set.
fn no_adapter_line(wgpu_backend: Option<&str>) -> String {
    let searched = match wgpu_backend {
        Some(env) => format!("the backends WGPU_BACKEND={env} allows"),
        None => "Vulkan, Metal, DX12 or GL".to_string(),
    };
    format!(
        "no GPU adapter found: wgpu found no device for this window through \
         {searched} (install your GPU driver, or Mesa's software one: mesa-vulkan-drivers), \
         or use 'timestep-rope simulate' for the numbers"
    )
}

/// The GPU failing: each error is one line saying what failed and why (its causes too), as
/// the window reports it.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// wgpu found no adapter; `wgpu_backend` is `WGPU_BACKEND` if set.
    #[error("{}", no_adapter_line(.wgpu_backend.as_deref()))]
    NoAdapter { wgpu_backend: Option<String> },
    /// `WGPU_BACKEND` (`env`) selects no backend this build has (`have`, by name).
    #[error(
        "no GPU adapter found: WGPU_BACKEND={env} selects no graphics backend this build can \
         use (it has: {have}); unset WGPU_BACKEND, or use 'timestep-rope simulate' for the \
         numbers"
    )]
    NoBackend { env: String, have: String },
    /// pixels could not set up the surface, the device or its buffer.
    #[error("{}", chain("cannot set up the GPU (pixels)", .0))]
    Setup(pixels::Error),
    /// The surface or the buffer (`what`) could not follow the window to `width × height`.
    #[error("{}", resizing(.what, *.width, *.height, .cause))]
    Resize {
        what: &'static str,
        width: u32,
        height: u32,
        cause: pixels::TextureError,
    },
    /// Presenting failed other than by the surface having no image (which skips the frame).
    #[error("{}", chain("presenting the frame (pixels.render_with)", .0))]
    Render(pixels::Error),
    /// wgpu reported an error through the device's callback.
    #[error("{}", chain("GPU error", .0))]
    Device(wgpu::Error),
    /// The surface's format is not one the screenshot can read back.
    #[error("cannot read back a surface of format {0:?}")]
    Format(wgpu::TextureFormat),
    /// Waiting for the read-back failed.
    #[error("{}", chain("reading the frame back", .0))]
    Poll(wgpu::PollError),
    /// The read-back buffer could not be mapped.
    #[error("{}", chain("reading the frame back", .0))]
    Map(wgpu::BufferAsyncError),
    /// The read-back's callback never came.
    #[error("reading the frame back: the GPU never answered")]
    NoAnswer,
}

/// The line for resizing `what` (the surface, the buffer) to `width × height` failing.
fn resizing(what: &str, width: u32, height: u32, cause: &pixels::TextureError) -> String {
    chain(&format!("resizing the {what} to {width}x{height}"), cause)
}

/// Why no adapter can be found before wgpu looks: `WGPU_BACKEND` (which wgpu honours)
/// names no backend this build has (e.g. `dx12` on Linux). wgpu itself only says that it
/// failed "to create surface for any enabled backend: {}". `None` when there is a backend
/// to try.
pub fn backend_problem(wgpu_backend: Option<&str>) -> Option<GpuError> {
    let env = wgpu_backend?;
    let compiled = wgpu::Instance::enabled_backend_features();
    if !(wgpu::Backends::from_comma_list(env) & compiled).is_empty() {
        return None;
    }
    let have: Vec<&str> = BACKEND_NAMES
        .iter()
        .filter(|(b, _)| compiled.contains(*b))
        .map(|&(_, name)| name)
        .collect();
    Some(GpuError::NoBackend {
        env: env.to_string(),
        have: have.join(", "),
    })
}

/// What happened to one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presented {
    /// On screen.
    Yes,
    /// The surface had no image for us (timed out, occluded, or still out of date after
    /// reconfiguring): the frame was dropped and the next one tries again.
    Skipped,
}

/// The pixel buffer, our pass, and what we learned about the surface.
pub struct Gpu {
    window: Arc<Window>,
    pixels: Pixels<'static>,
    fx: PresentPass,
    width: u32,
    height: u32,
    present_mode: String,
    /// wgpu reports some errors through a callback (its default handler panics); the first
    /// one is kept here and turned into a clean exit.
    device_error: Arc<Mutex<Option<wgpu::Error>>>,
}

impl Gpu {
    /// A buffer of `width × height` (the window's physical size, at least 1×1).
    pub fn new(window: Arc<Window>, width: u32, height: u32, vsync: bool) -> Result<Gpu, GpuError> {
        let (width, height) = (width.max(1), height.max(1));
        let requested = if vsync {
            wgpu::PresentMode::AutoVsync
        } else {
            wgpu::PresentMode::AutoNoVsync
        };
        let surface = SurfaceTexture::new(width, height, Arc::clone(&window));
        let pixels = PixelsBuilder::new(width, height, surface)
            .present_mode(requested)
            .build()
            .map_err(|e| match e {
                pixels::Error::AdapterNotFound => GpuError::NoAdapter {
                    wgpu_backend: std::env::var("WGPU_BACKEND").ok(),
                },
                e => GpuError::Setup(e),
            })?;

        let device_error = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&device_error);
        pixels
            .device()
            .on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
                if let Ok(mut first) = slot.lock() {
                    first.get_or_insert(e);
                }
            }));

        let caps = &pixels.context().surface_capabilities;
        let mode = resolve_present_mode(pixels.present_mode(), &caps.present_modes);
        let fx = PresentPass::new(&pixels, width, height);
        Ok(Gpu {
            window,
            present_mode: present_mode_label(mode, vsync),
            pixels,
            fx,
            width,
            height,
            device_error,
        })
    }

    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Whether a window of `width × height` can be drawn: not 0×0 (minimised) and not larger
    /// than the GPU's largest texture.
    pub fn fits(&self, width: u32, height: u32) -> bool {
        let max = self.pixels.device().limits().max_texture_dimension_2d;
        width > 0 && height > 0 && width <= max && height <= max
    }

    /// The present mode in use, as the HUD shows it.
    pub fn present_mode(&self) -> &str {
        &self.present_mode
    }

    /// The present modes the surface offers, as wgpu lists them.
    pub fn present_modes(&self) -> Vec<wgpu::PresentMode> {
        self.pixels
            .context()
            .surface_capabilities
            .present_modes
            .clone()
    }

    /// Presents in `mode` (one the surface offers) from the next frame on.
    pub fn set_present_mode(&mut self, mode: wgpu::PresentMode) {
        self.pixels.set_present_mode(mode);
        self.present_mode = present_mode_label(mode, true);
    }

    pub fn frame_mut(&mut self) -> &mut [u8] {
        self.pixels.frame_mut()
    }

    /// The buffer as last drawn (and, after a successful render, presented).
    pub fn frame(&self) -> &[u8] {
        self.pixels.frame()
    }

    /// Follows the window to `width × height` physical pixels (both non-zero: the caller
    /// skips a minimised window, since pixels rejects 0×0).
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), GpuError> {
        let failed = |what| {
            move |cause| GpuError::Resize {
                what,
                width,
                height,
                cause,
            }
        };
        self.pixels
            .resize_surface(width, height)
            .map_err(failed("surface"))?;
        self.pixels
            .resize_buffer(width, height)
            .map_err(failed("buffer"))?;
        self.fx.resize(&self.pixels, width, height);
        self.width = width;
        self.height = height;
        Ok(())
    }

    /// Uploads the buffer and presents it through both passes.
    ///
    /// pixels reconfigures an outdated, lost or suboptimal surface once and retries; if that
    /// does not help (the window changed size since the last resize) it says so and the frame
    /// is skipped: the caller resizes to the window's current size before the next one. A
    /// timeout or an occluded window also skips. What comes back as an error is fatal: a wgpu
    /// validation error, or a device error reported through the callback.
    /// `gui`, if given, is drawn over both passes (what changed of it painted first).
    pub fn render(&mut self, gui: Option<&mut Gui>) -> Result<Presented, GpuError> {
        let fx = &mut self.fx;
        self.window.pre_present_notify();
        let rendered = self.pixels.render_with(|encoder, target, context| {
            fx.render(encoder, target, gui, context);
            Ok(())
        });
        let presented = match rendered {
            Ok(()) => Presented::Yes,
            Err(pixels::Error::Surface(_)) => Presented::Skipped,
            Err(e) => return Err(GpuError::Render(e)),
        };
        self.take_device_error().map_or(Ok(presented), Err)
    }

    /// What the window shows, read back from the GPU as RGBA rows: the last frame through our
    /// pass, with `gui` over it, drawn again into a texture of the surface's size.
    pub fn capture(&mut self, gui: Option<&mut Gui>) -> Result<Vec<u8>, GpuError> {
        let (width, height) = (self.width, self.height);
        let format = self.pixels.render_texture_format();
        let bgra = match format {
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb => true,
            wgpu::TextureFormat::Rgba8Unorm | wgpu::TextureFormat::Rgba8UnormSrgb => false,
            other => return Err(GpuError::Format(other)),
        };
        let context = self.pixels.context();
        let (device, queue) = (&context.device, &context.queue);
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("capture"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("capture_encoder"),
        });
        self.fx.render(&mut encoder, &view, gui, context);
        let rgba = read_back(device, queue, encoder, &texture, bgra)?;
        self.take_device_error().map_or(Ok(rgba), Err)
    }

    /// The GPU's device and the format the panel draws into.
    pub fn device_and_format(&self) -> (&wgpu::Device, wgpu::TextureFormat) {
        (self.pixels.device(), self.pixels.render_texture_format())
    }

    /// The first error wgpu reported through the device's callback, if any since the last
    /// call.
    fn take_device_error(&self) -> Option<GpuError> {
        let taken = self.device_error.lock().ok().and_then(|mut e| e.take());
        taken.map(GpuError::Device)
    }
}

/// Our pass: reads the frame (pixels' texture) onto the surface with a vignette, and lays
/// the UI texture over it.
struct PresentPass {
    /// The UI texture: egui's picture, premultiplied, the surface's size and format.
    ui: wgpu::TextureView,
    /// The UI texture is new: it shows nothing until the whole UI is painted into it.
    ui_blank: bool,
    /// Clears the UI texture where the scissor lets it (where the UI is painted again).
    clear: wgpu::RenderPipeline,
    uniforms: wgpu::Buffer,
    layout: wgpu::BindGroupLayout,
    bind_group: wgpu::BindGroup,
    pipeline: wgpu::RenderPipeline,
}

impl PresentPass {
    fn new(pixels: &Pixels, width: u32, height: u32) -> PresentPass {
        let device = pixels.device();
        let ui = create_ui_texture(pixels, width, height);
        let uniforms = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("present_uniforms"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        write_uniforms(pixels.queue(), &uniforms, width, height);
        let layout = create_layout(device);
        let bind_group = create_bind_group(pixels, &layout, &ui, &uniforms);
        let format = pixels.render_texture_format();
        PresentPass {
            ui,
            ui_blank: true,
            clear: create_clear_pipeline(device, format),
            pipeline: create_pipeline(device, &layout, format),
            uniforms,
            layout,
            bind_group,
        }
    }

    /// Follows pixels' buffer (and so its texture) to `width × height`.
    fn resize(&mut self, pixels: &Pixels, width: u32, height: u32) {
        self.ui = create_ui_texture(pixels, width, height);
        self.ui_blank = true;
        self.bind_group = create_bind_group(pixels, &self.layout, &self.ui, &self.uniforms);
        write_uniforms(pixels.queue(), &self.uniforms, width, height);
    }

    /// Paints what changed of `gui` into the UI texture, then draws the frame onto `target`
    /// with the vignette and the UI texture over it, in one pass.
    fn render(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        gui: Option<&mut Gui>,
        context: &pixels::PixelsContext,
    ) {
        if let Some(gui) = gui {
            self.paint_ui(encoder, gui, context);
        }
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("present_pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
                depth_slice: None,
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.draw(0..3, 0..1);
    }

    /// Paints into the UI texture what `gui` says changed (all of it when the texture is
    /// new): a pass that clears the whole texture, or each changed rectangle, and paints the
    /// UI's meshes there. Nothing changed, no pass.
    fn paint_ui(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        gui: &mut Gui,
        context: &pixels::PixelsContext,
    ) {
        if std::mem::take(&mut self.ui_blank) {
            gui.repaint_whole();
        }
        let (load, rects) = match gui.damage_to_paint() {
            Damage::None => return,
            Damage::Whole => (wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT), Vec::new()),
            Damage::Rects(rects) => (wgpu::LoadOp::Load, rects.clone()),
        };
        gui.upload(&context.device, &context.queue, encoder);
        let mut pass = begin_ui_pass(encoder, &self.ui, load);
        pass.set_pipeline(&self.clear);
        for r in &rects {
            pass.set_scissor_rect(r.x, r.y, r.w, r.h);
            pass.draw(0..3, 0..1);
        }
        gui.paint(&mut pass);
    }
}

/// A pass over the UI texture (`ui`), loading it as `load` says.
fn begin_ui_pass(
    encoder: &mut wgpu::CommandEncoder,
    ui: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPass<'static> {
    let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("ui_pass"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: ui,
            resolve_target: None,
            ops: wgpu::Operations {
                load,
                store: wgpu::StoreOp::Store,
            },
            depth_slice: None,
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    pass.forget_lifetime()
}

/// The pass's bindings: the frame (pixels' texture), the uniforms and the UI texture. Both
/// textures are the target's size and read texel for texel, so no sampler.
fn create_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let texture = |binding| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            multisampled: false,
            view_dimension: wgpu::TextureViewDimension::D2,
        },
        count: None,
    };
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("present_bind_group_layout"),
        entries: &[
            texture(0),
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(16),
                },
                count: None,
            },
            texture(2),
        ],
    })
}

/// The vignette pipeline of `shaders/present.wgsl`, drawing into the surface's `format`.
fn create_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let shader = device.create_shader_module(wgpu::include_wgsl!("../../shaders/present.wgsl"));
    full_screen_pipeline(device, "present", &shader, Some(layout), format)
}

/// The pipeline that clears the UI texture where the scissor lets it (`shaders/clear.wgsl`),
/// drawing into the surface's `format`.
fn create_clear_pipeline(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let shader = device.create_shader_module(wgpu::include_wgsl!("../../shaders/clear.wgsl"));
    full_screen_pipeline(device, "ui_clear", &shader, None, format)
}

/// A pipeline of `shader`'s `vs_main` and `fs_main`, drawing one triangle over the whole
/// target (no vertex buffer) into `format`, replacing what is there; bound to `layout` if it
/// has one. `name` labels it.
fn full_screen_pipeline(
    device: &wgpu::Device,
    name: &str,
    shader: &wgpu::ShaderModule,
    layout: Option<&wgpu::BindGroupLayout>,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let layout_label = format!("{name}_pipeline_layout");
    let one = [layout];
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(&layout_label),
        bind_group_layouts: if layout.is_some() { &one } else { &[] },
        immediate_size: 0,
    });
    let label = format!("{name}_pipeline");
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(&label),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: shader,
            entry_point: Some("vs_main"),
            buffers: &[],
            compilation_options: wgpu::PipelineCompilationOptions::default(),
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: shader,
            entry_point: Some("fs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::REPLACE),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// The UI texture: the surface's size and format, painted by egui, read by our pass.
fn create_ui_texture(pixels: &Pixels, width: u32, height: u32) -> wgpu::TextureView {
    let texture = pixels.device().create_texture(&wgpu::TextureDescriptor {
        label: Some("ui_texture"),
        size: wgpu::Extent3d {
            width: width.max(1),
            height: height.max(1),
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: pixels.render_texture_format(),
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

/// The pass's bind group: pixels' texture as it is now (a resized buffer has a new one), the
/// uniforms and the UI texture `ui`.
fn create_bind_group(
    pixels: &Pixels,
    layout: &wgpu::BindGroupLayout,
    ui: &wgpu::TextureView,
    uniforms: &wgpu::Buffer,
) -> wgpu::BindGroup {
    let frame = pixels
        .texture()
        .create_view(&wgpu::TextureViewDescriptor::default());
    pixels
        .device()
        .create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("present_bind_group"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&frame),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: uniforms.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(ui),
                },
            ],
        })
}

fn write_uniforms(queue: &wgpu::Queue, buffer: &wgpu::Buffer, width: u32, height: u32) {
    let values = [width as f32, height as f32, VIGNETTE, 0.0];
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    queue.write_buffer(buffer, 0, &bytes);
}

/// Copies `texture` out through `encoder` (after what the encoder already holds) and reads it
/// back as RGBA rows, `bgra` texels swapped into RGBA.
fn read_back(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    mut encoder: wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    bgra: bool,
) -> Result<Vec<u8>, GpuError> {
    let size = texture.size();
    let (width, height) = (size.width, size.height);
    // Rows are copied out padded to wgpu's alignment.
    let row = width * 4;
    let padded =
        row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("capture_buffer"),
        size: u64::from(padded) * u64::from(height),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        size,
    );
    queue.submit([encoder.finish()]);
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _receiver_gone_is_no_matter = tx.send(r);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(GpuError::Poll)?;
    match rx.recv() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(GpuError::Map(e)),
        Err(_) => return Err(GpuError::NoAnswer),
    }
    let mapped = slice.get_mapped_range();
    let mut rgba = Vec::with_capacity(row as usize * height as usize);
    for line in mapped.chunks(padded as usize) {
        rgba.extend_from_slice(&line[..row as usize]);
    }
    if bgra {
        for px in rgba.chunks_exact_mut(4) {
            px.swap(0, 2);
        }
    }
    drop(mapped);
    buffer.unmap();
    Ok(rgba)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::PresentMode as P;

    #[test]
    fn auto_modes_resolve_as_wgpu_does() {
        assert_eq!(
            resolve_present_mode(P::AutoVsync, &[P::Fifo, P::Immediate]),
            P::Fifo
        );
        assert_eq!(
            resolve_present_mode(P::AutoVsync, &[P::Fifo, P::FifoRelaxed]),
            P::FifoRelaxed
        );
        assert_eq!(
            resolve_present_mode(P::AutoNoVsync, &[P::Fifo, P::Mailbox, P::Immediate]),
            P::Immediate
        );
        assert_eq!(
            resolve_present_mode(P::AutoNoVsync, &[P::Fifo, P::Mailbox]),
            P::Mailbox
        );
        assert_eq!(resolve_present_mode(P::AutoNoVsync, &[P::Fifo]), P::Fifo);
        assert_eq!(
            resolve_present_mode(P::Mailbox, &[P::Fifo, P::Mailbox]),
            P::Mailbox
        );
    }

    #[test]
    fn a_wgpu_backend_this_build_lacks_is_named_as_the_reason_for_no_adapter() {
        assert!(backend_problem(None).is_none());
        let compiled = wgpu::Instance::enabled_backend_features();
        for (backend, name) in BACKEND_NAMES {
            let problem = backend_problem(Some(name));
            assert_eq!(
                problem.is_none(),
                compiled.contains(backend),
                "{name}: {problem:?}"
            );
            if let Some(line) = problem.map(|p| p.to_string()) {
                assert!(line.contains("no GPU adapter found"), "{line}");
                assert!(line.contains(&format!("WGPU_BACKEND={name}")), "{line}");
                assert_eq!(line.lines().count(), 1, "{line}");
            }
        }
        // A list works if any backend in it exists; nonsense selects nothing.
        let all: Vec<&str> = BACKEND_NAMES.iter().map(|&(_, n)| n).collect();
        assert!(backend_problem(Some(&all.join(","))).is_none());
        assert!(backend_problem(Some("no-such-backend")).is_some());
        let line = no_adapter_line(Some("gl"));
        assert!(
            line.contains("WGPU_BACKEND=gl") && line.lines().count() == 1,
            "{line}"
        );
    }

    #[test]
    fn labels_say_whether_the_display_paces_us() {
        assert_eq!(present_mode_label(P::Fifo, true), "Fifo (vsync)");
        assert_eq!(
            present_mode_label(P::FifoRelaxed, true),
            "FifoRelaxed (vsync)"
        );
        assert_eq!(present_mode_label(P::Immediate, false), "Immediate");
        assert_eq!(present_mode_label(P::Mailbox, false), "Mailbox");
        assert_eq!(present_mode_label(P::Fifo, false), "Fifo (vsync forced)");
    }
}
