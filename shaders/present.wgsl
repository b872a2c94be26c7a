// The pass onto the screen: reads the frame (pixels' texture, the window's size) 1:1 onto the
// surface and darkens the corners a little (a vignette), so the eye rests on the rope, not the
// HUD. Then the UI (egui's panel, HUD and text, painted into a texture of the same size when
// it changes) goes over it: premultiplied "over", as egui's own blending would have laid it
// on the surface. Both textures are sRGB, so they are read as linear, and the sum is written
// back through the surface's sRGB encoding, as egui's blending on an sRGB surface is done.

struct Locals {
    // x, y: target size in pixels; z: vignette strength (0 = none, 1 = black corners);
    // w: unused (uniforms are 16-byte aligned).
    params: vec4<f32>,
}

// Both textures are the target's size: each fragment reads its own texel.
@group(0) @binding(0) var r_frame: texture_2d<f32>;
@group(0) @binding(1) var<uniform> r_locals: Locals;
// The UI: premultiplied colour and coverage, transparent where there is none.
@group(0) @binding(2) var r_ui: texture_2d<f32>;

// One triangle that covers the screen, from the vertex index alone (no vertex buffer):
// clip (-1,-1), (3,-1), (-1,3).
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    let x = f32((index << 1u) & 2u);
    let y = f32(index & 2u);
    return vec4<f32>(x * 2.0 - 1.0, y * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let texel = vec2<i32>(position.xy);
    let color = textureLoad(r_frame, texel, 0);
    let size = max(r_locals.params.xy, vec2<f32>(1.0));
    // Distance from the centre in pixels, scaled so the corners are at 1: round falloff
    // whatever the window's aspect ratio. `position` is the pixel's centre.
    let d = length(position.xy - 0.5 * size) / (0.5 * length(size));
    let shade = 1.0 - r_locals.params.z * smoothstep(0.45, 1.0, d);
    let ui = textureLoad(r_ui, texel, 0);
    let under = 1.0 - ui.a;
    return vec4<f32>(ui.rgb + color.rgb * shade * under, ui.a + color.a * under);
}
