//! Drawing the rope, the HUD and the frame-time strip into an RGBA8 `&mut [u8]`.
//!
//! Pure: no winit, pixels or wgpu. The window draws into pixels' frame; `simulate --draw`
//! draws into an off-screen buffer with the very same code.
//!
//! SKELETON: signatures are the contract between the app and the drawing code; bodies are
//! being filled in.

use crate::timing::Mode;
use glam::Vec2;

/// Maps world metres (y up, particle 0 at the origin) to buffer pixels (y down), with one
/// uniform scale so the rope keeps its proportions; the world box is centred (letterboxed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Pixels per metre.
    pub scale: f32,
    /// Pixel position of the world origin.
    pub origin_px: Vec2,
    pub width: u32,
    pub height: u32,
}

impl View {
    /// Fits the world box `[min, max]` into `width × height` pixels with a uniform scale.
    pub fn fit(min: Vec2, max: Vec2, width: u32, height: u32) -> View {
        let size = (max - min).max(Vec2::splat(1e-6));
        let scale = (width.max(1) as f32 / size.x).min(height.max(1) as f32 / size.y);
        let centre_world = (min + max) * 0.5;
        let centre_px = Vec2::new(width as f32, height as f32) * 0.5;
        let origin_px = centre_px - Vec2::new(centre_world.x, -centre_world.y) * scale;
        View { scale, origin_px, width, height }
    }

    /// A view that holds every place the rope described by `params` can reach while swinging.
    pub fn for_rope(params: &crate::rope::RopeParams, width: u32, height: u32) -> View {
        let reach = (params.particles.saturating_sub(1).max(1)) as f32 * params.rest_length_m * 1.35;
        View::fit(Vec2::new(-reach, -reach * 1.05), Vec2::new(reach, reach * 0.25), width, height)
    }

    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        self.origin_px + Vec2::new(p.x, -p.y) * self.scale
    }

    pub fn to_world(&self, px: Vec2) -> Vec2 {
        let d = (px - self.origin_px) / self.scale;
        Vec2::new(d.x, -d.y)
    }
}

/// What to draw of the rope this frame (already blended in interpolated mode).
#[derive(Clone, Copy, Debug)]
pub struct RopeLook<'a> {
    pub positions: &'a [Vec2],
    /// Indices of pinned particles (drawn as pins).
    pub pinned: &'a [usize],
    /// The particle held by the mouse, if any.
    pub grabbed: Option<usize>,
    pub exploded: bool,
}

/// The numbers the HUD shows; every one is measured by the caller.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HudInfo {
    pub mode: Option<Mode>,
    pub dt_ns: u64,
    pub clamp_ns: u64,
    pub max_steps: u32,
    pub particles: usize,
    /// Measured frames per second (smoothed by the caller).
    pub fps: f64,
    /// Last measured frame time, ms.
    pub frame_ms: f64,
    pub steps: u32,
    pub alpha: f64,
    /// Simulated − wall time, ms.
    pub drift_ms: f64,
    /// Total time dropped by the clamp and the step cap, ms.
    pub dropped_ms: f64,
    pub energy_j: f64,
    pub exploded: bool,
    pub paused: bool,
    /// None: uncapped.
    pub fps_cap: Option<f64>,
    /// The present mode actually in use, e.g. "Fifo (vsync)".
    pub present_mode: String,
}

impl HudInfo {
    /// The HUD's text, one string per line.
    pub fn lines(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The last few hundred frames' frame time and steps, oldest first.
#[derive(Clone, Debug)]
pub struct FrameStrip {
    capacity: usize,
    frames: std::collections::VecDeque<(f32, u32)>,
}

impl FrameStrip {
    pub fn new(capacity: usize) -> Self {
        FrameStrip { capacity: capacity.max(1), frames: Default::default() }
    }
    pub fn push(&mut self, frame_ms: f32, steps: u32) {
        if self.frames.len() == self.capacity {
            self.frames.pop_front();
        }
        self.frames.push_back((frame_ms, steps));
    }
    pub fn len(&self) -> usize {
        self.frames.len()
    }
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (f32, u32)> + '_ {
        self.frames.iter().copied()
    }
}

/// Everything one frame shows.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    pub rope: RopeLook<'a>,
    pub view: &'a View,
    pub hud: Option<&'a HudInfo>,
    pub strip: Option<&'a FrameStrip>,
    /// The key help overlay's lines, when shown.
    pub help: Option<&'a [String]>,
    /// A large centred message, e.g. "EXPLODED — resetting in 1.4 s (R)".
    pub banner: Option<&'a str>,
}

/// Draws scenes; keeps scratch buffers between frames so drawing does not allocate.
#[derive(Debug, Default)]
pub struct Renderer {}

impl Renderer {
    pub fn new() -> Self {
        Renderer {}
    }

    /// Draws `scene` into `frame`, an RGBA8 buffer of `width × height` pixels. Does nothing
    /// (and never panics) if the buffer is empty or its length does not match.
    pub fn draw(&mut self, frame: &mut [u8], width: u32, height: u32, scene: &Scene) {
        let _ = scene;
        if frame.len() != width as usize * height as usize * 4 {
            return;
        }
        for px in frame.chunks_exact_mut(4) {
            px.copy_from_slice(&[18, 20, 26, 255]);
        }
    }
}
