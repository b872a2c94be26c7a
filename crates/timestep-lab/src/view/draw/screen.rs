//! A screen: what the window and `simulate --draw` both show of their lanes, and what drawing
//! keeps between frames — the layout (one pane, or the split view), the renderer's scratch, the
//! panes' shown positions, and the frame strip.

use super::overlay::caption_band;
use super::{
    Area, Bands, FrameStrip, HudInfo, LanePanes, Layout, Pane, Renderer, Replay, Scene, Texts,
};
use crate::model::lane::Lane;
use crate::model::rope::RopeParams;
use glam::Vec2;
use timestep_loop::millis;

/// Frames the strip keeps.
const STRIP_FRAMES: usize = 300;

/// How the lanes are arranged: one pane, or one pane each side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrangement {
    /// Buffer size, pixels.
    pub size: (u32, u32),
    /// Lanes shown.
    pub lanes: usize,
    /// One pane per lane (the split view), or the first lane alone.
    pub split: bool,
    /// Whether the HUD is shown (the rope may use its column when it is not).
    pub hud: bool,
    /// Every lane drawn over each other in one pane (the overlay), when there are several.
    pub overlay: bool,
    /// Pixels along the right edge that the window's control panel covers: the panes are
    /// laid out left of it (see [`super::room_width`]). 0: no panel.
    pub panel: u32,
    /// The HUD bar's height, pixels, where the window draws its own (egui's); 0: the pixel
    /// HUD's, `hud_bar_height`.
    pub bar: u32,
}

/// What is drawn over the panes this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overlay<'a> {
    /// The HUD's figures; None: no pixel HUD.
    pub hud: Option<&'a HudInfo>,
    /// Whether the frame-time strip is drawn along the bottom.
    pub strip: bool,
    /// The key help overlay's lines, when shown.
    pub help: Option<&'a [String]>,
    /// A large centred message, when there is one.
    pub banner: Option<&'a str>,
    /// The particle the mouse holds, in every rope.
    pub grabbed: Option<super::Grip>,
    /// The pane of the lane the keys act on.
    pub focused: usize,
    /// Whether each rope's free end leaves a trail (`G`).
    pub trail: bool,
    /// A lesson's caption: its title, then what to look at.
    pub caption: Option<&'a [String]>,
    /// A one-line key hint along the bottom.
    pub hint: Option<&'a str>,
    /// Paused and stepped back this many frames: the lanes are drawn as that frame showed
    /// them (0: as they are now).
    pub rewind: usize,
    /// Whether this frame's lanes are kept for stepping back to (a paused frame repeats the
    /// last one and is not).
    pub keep: bool,
    /// Each lane's colour (see [`super::lane_colours`]), as its caller keeps it while its
    /// lanes run, so a lane shown alone and then among the others keeps it; `None`: picked
    /// by the lanes' names when they first show, and kept.
    pub colours: Option<&'a [usize]>,
}

/// A screen's layout and what drawing keeps between frames.
#[derive(Debug)]
pub struct Screen {
    params: RopeParams,
    arrangement: Arrangement,
    /// A lesson's caption (empty: none): the panes keep clear of the band it wraps into.
    caption: Vec<String>,
    layout: Layout,
    /// The height the split view's labels drawn in this arrangement have needed, px (it only
    /// grows until the arrangement changes, so the ropes do not shrink and grow as a figure's
    /// digits do).
    labels: u32,
    renderer: Renderer,
    panes: LanePanes,
    strip: FrameStrip,
    /// Each lane's colour, picked by its name when the lanes first show (see
    /// [`super::palette::lane_colours`]) and kept while they run: a lane whose mode the keys
    /// change keeps its colour, and recolours no other.
    colours: Vec<usize>,
}

impl Screen {
    /// A screen for ropes of `params`, arranged as `arrangement` says.
    pub fn new(params: &RopeParams, arrangement: Arrangement) -> Screen {
        Screen {
            params: *params,
            layout: layout(params, arrangement, &[], 0),
            labels: 0,
            arrangement,
            caption: Vec::new(),
            renderer: Renderer::new(),
            panes: LanePanes::default(),
            strip: FrameStrip::new(STRIP_FRAMES),
            colours: Vec::new(),
        }
    }

    /// Arranges the lanes anew (a resize, the split view toggled, the HUD hidden); the strip
    /// starts over when the lanes shown change.
    pub fn arrange(&mut self, arrangement: Arrangement) {
        if arrangement == self.arrangement {
            return;
        }
        if (arrangement.lanes, arrangement.split)
            != (self.arrangement.lanes, self.arrangement.split)
        {
            self.strip.clear();
            self.panes.forget_frames();
        }
        self.arrangement = arrangement;
        self.labels = 0;
        self.relayout();
    }

    /// Lays the panes out clear of a lesson's caption of `lines` from now on (none: empty).
    pub fn set_caption(&mut self, lines: &[String]) {
        if lines == self.caption.as_slice() {
            return;
        }
        self.caption = lines.to_vec();
        self.relayout();
    }

    /// Lays ropes of `params` out from now on (a drive needs room to move the rope).
    pub fn set_params(&mut self, params: &RopeParams) {
        self.params = *params;
        self.relayout();
    }

    /// The layout anew, for the arrangement, caption and labels as they are.
    fn relayout(&mut self) {
        self.layout = layout(&self.params, self.arrangement, &self.caption, self.labels);
    }

    /// How the lanes are arranged.
    pub fn arrangement(&self) -> Arrangement {
        self.arrangement
    }

    /// Where each pane is.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// A frame of `frame_ns` in which lane i (of those shown) took `steps[i]` steps.
    pub fn push_frame(&mut self, frame_ns: u64, steps: &[u32]) {
        self.strip.push(millis(frame_ns) as f32, steps);
    }

    /// When the frame that started at `start_ns` ran its steps: lane i's began at
    /// `step_starts[i]`, ns (the strip's wall-time row).
    pub fn push_step_starts(&mut self, start_ns: u64, step_starts: &[&[u64]]) {
        self.strip.step_times.push(start_ns, step_starts);
    }

    /// Draws `lanes` (one per pane) and `overlay` into `frame`, an RGBA8 buffer of the
    /// arrangement's size; returns the text to paint over it.
    pub fn draw(&mut self, frame: &mut [u8], lanes: &[&Lane], overlay: &Overlay) -> &Texts {
        match overlay.colours.filter(|c| c.len() == lanes.len()) {
            Some(given) => self.colours = given.to_vec(),
            None if self.colours.len() != lanes.len() => {
                let names: Vec<String> = lanes.iter().map(|l| l.name()).collect();
                self.colours = super::palette::lane_colours(&names);
            }
            None => {}
        }
        self.strip.set_colours(&self.colours);
        self.panes.set_colours(&self.colours);
        let replay = Replay {
            keep: overlay.keep,
            rewind: overlay.rewind,
        };
        let (w, h) = self.arrangement.size;
        let (grab, focus, trail) = (overlay.grabbed, overlay.focused, overlay.trail);
        let panes = self
            .panes
            .build(lanes, &self.layout, grab, focus, trail, replay);
        // A label that needs more room than the layout leaves (a longer figure, a line
        // wrapped): the panes are laid out again first, so no label covers a rope.
        let need = label_room(&panes, h);
        let panes = if self.labels >= need {
            panes
        } else {
            self.labels = need;
            self.layout = layout(&self.params, self.arrangement, &self.caption, self.labels);
            let again = Replay {
                keep: false,
                ..replay
            };
            self.panes
                .build(lanes, &self.layout, grab, focus, trail, again)
        };
        let scene = Scene {
            panes: &panes,
            hud: overlay.hud,
            strip: overlay.strip.then_some(&self.strip),
            help: overlay.help,
            banner: overlay.banner,
            caption: overlay.caption,
            hint: overlay.hint,
            panel: self.arrangement.panel,
        };
        self.renderer.draw(frame, w, h, &scene)
    }

    /// The positions the last [`Screen::draw`] handed to the renderer for pane `i`.
    pub fn drawn(&self, i: usize) -> &[Vec2] {
        self.panes.shown(i)
    }

    /// The colour (an index into the lanes' palette) of each lane drawn last.
    pub fn lane_colours(&self) -> &[usize] {
        &self.colours
    }

    /// Where the last frame drew its pane labels' boxes, pixels.
    pub fn label_boxes(&self) -> &[super::Area] {
        self.renderer.label_boxes()
    }

    /// The frame strip.
    pub fn strip(&self) -> &FrameStrip {
        &self.strip
    }

    /// How many frames are kept to step back through (the newest included).
    pub fn kept_frames(&self) -> usize {
        self.panes.kept_frames()
    }

    /// Forgets the frames kept: the lanes changed.
    pub fn forget_frames(&mut self) {
        self.panes.forget_frames();
    }

    /// New lanes: the frames kept, the strip and the lanes' colours start over.
    pub fn start_over(&mut self) {
        self.panes.forget_frames();
        self.strip.clear();
        self.colours.clear();
    }
}

/// The height `panes`' labels take in a buffer `height` pixels tall, wrapped to their slots,
/// px from the pane's top: the split view's (the overlay's labels have room for their lines
/// whatever they say).
fn label_room(panes: &[Pane], height: u32) -> u32 {
    let alone = |p: &Pane| panes.iter().filter(|q| q.area == p.area).count() == 1;
    let need = |p: &Pane| {
        let label = p.label.as_ref()?;
        let slot = Area {
            h: u32::MAX,
            ..p.slot
        };
        let b = super::pane::label_box(label, slot, height);
        u32::try_from(b.h + 2).ok()
    };
    panes
        .iter()
        .filter(|p| alone(p))
        .filter_map(need)
        .max()
        .unwrap_or(0)
}

/// The layout of `a`: its panes in the room left of the panel, clear of `caption`, and of
/// split-view labels `labels` pixels tall.
fn layout(params: &RopeParams, a: Arrangement, caption: &[String], labels: u32) -> Layout {
    let h = a.size.1;
    let w = super::room_width(a.size.0, a.panel);
    let reserve = caption_band(w, h, caption);
    let bar = match (a.hud, a.bar) {
        (false, _) => 0,
        (true, 0) => super::hud_bar_height(w, h),
        (true, bar) => bar,
    };
    // The HUD hides the strip with it: the panes take its room.
    let bands = |bar| Bands {
        bar,
        reserve,
        strip: a.hud,
    };
    if a.overlay && a.lanes > 1 {
        Layout::overlay(params, (w, h), a.lanes, bands(bar))
    } else if a.split && a.lanes > 1 {
        Layout::split(params, (w, h), a.lanes, bands(bar), labels)
    } else {
        // One lane: beside the HUD's column, or under its bar in a short window.
        let bar = if a.hud { a.bar } else { 0 };
        Layout::single(params, (w, h), a.hud, bands(bar))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{TextLine, explosion_banner};
    use super::*;
    use crate::model::lane::LaneSpec;
    use timestep_loop::{Mode, PolicyEnv};

    /// Four lanes, one of them exploded, after a second of 60 Hz frames.
    fn lanes() -> Vec<Lane> {
        let tick = timestep_loop::TimingConfig::new(1_000_000).unwrap_or_else(|e| panic!("{e}"));
        let env = PolicyEnv::default().with_timing(tick);
        let modes = [
            Mode::Variable,
            Mode::SemiFixed,
            Mode::Fixed,
            Mode::Interpolated,
        ];
        let mut lanes: Vec<Lane> = modes
            .map(|m| Lane::new(LaneSpec::mode(m), &RopeParams::default(), &env))
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{e}"));
        for i in 1..=60u64 {
            for lane in &mut lanes {
                lane.advance(16_666_667, i * 16_666_667);
            }
        }
        // 20 Hz variable steps tear the default rope apart.
        for i in 1..=40u64 {
            lanes[0].advance(50_000_000, 1_000_000_000 + i * 50_000_000);
        }
        lanes
    }

    /// The text of `lanes` drawn with the HUD, the strip and (`split` or not) a banner.
    fn text_of(lanes: &[&Lane], split: bool) -> Vec<TextLine> {
        let (w, h) = (1280, 720);
        let arrangement = Arrangement {
            size: (w, h),
            lanes: lanes.len(),
            split,
            hud: true,
            overlay: false,
            panel: 0,
            bar: 0,
        };
        let mut screen = Screen::new(&RopeParams::default(), arrangement);
        for _ in 0..10 {
            screen.push_frame(16_666_667, &vec![17; lanes.len()]);
        }
        let hud = HudInfo::new(lanes);
        let banner = explosion_banner(lanes[0]);
        let overlay = Overlay {
            hud: Some(&hud),
            strip: true,
            banner: banner.as_deref().filter(|_| !split),
            keep: true,
            ..Overlay::default()
        };
        let mut frame = vec![0; (w * h * 4) as usize];
        screen.draw(&mut frame, lanes, &overlay).lines().to_vec()
    }

    #[test]
    fn every_figure_drawn_carries_its_meaning() {
        let lanes = lanes();
        let all: Vec<&Lane> = lanes.iter().collect();
        assert!(
            all[0]
                .rope()
                .is_some_and(crate::model::rope::Rope::exploded)
        );
        for (shown, split) in [(&all[..], true), (&all[..1], false)] {
            let lines = text_of(shown, split);
            let parts = || lines.iter().flat_map(|l| &l.parts);
            // A figure is a run with a digit in it: every one has its sentence.
            for part in parts().filter(|p| p.text.chars().any(|c| c.is_ascii_digit())) {
                assert!(part.tip.is_some(), "{:?} has no tooltip", part.text);
            }
            let tipped = |term: &str| {
                let tip = crate::view::draw::tip(term);
                parts().any(|p| p.tip.is_some() && p.tip == tip)
            };
            for term in ["frame ms", "steps/frame", "wall", "steps", "countdown"] {
                assert!(tipped(term), "split {split}: no {term} figure");
            }
            if split {
                for term in ["lane", "loop", "vsync", "alpha", "drift"] {
                    assert!(tipped(term), "no pane {term} figure");
                }
            }
        }
    }
}
