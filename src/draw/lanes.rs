//! Lanes into panes: what the window and `simulate --draw` both show of their lanes — each
//! rope's shown positions (blended where its mode blends), its pins, the grabbed particle, and
//! in the split view its label.

use super::hud::{tick_summary, vsync_summary};
use super::{Layout, Pane, PaneLabel, RopeLook};
use crate::lane::Lane;
use crate::rope::Rope;
use crate::watch::Watch;
use glam::Vec2;
use timestep_loop::seconds;

/// Scratch for the shown positions, kept between frames so building panes does not allocate.
#[derive(Debug, Default)]
pub struct LanePanes {
    shown: Vec<Vec<Vec2>>,
    pinned: Vec<usize>,
}

impl LanePanes {
    /// One pane per lane in `layout` (lane i in pane i). `grabbed` is the particle the mouse
    /// holds (in every rope), `focused` the lane the keys act on.
    pub fn build<'a>(
        &'a mut self,
        lanes: &[&Lane],
        layout: &Layout,
        grabbed: Option<usize>,
        focused: usize,
    ) -> Vec<Pane<'a>> {
        let n = lanes.len().min(layout.areas.len());
        self.shown.resize_with(n, Vec::new);
        if let Some(rope) = lanes.first().and_then(|l| l.rope()) {
            self.pinned.clear();
            self.pinned.extend(rope.pinned_indices());
        }
        for (out, lane) in self.shown.iter_mut().zip(lanes) {
            lane.shown(out);
            // The rope replaces non-finite values the moment it explodes, so no NaN reaches
            // the renderer (which would skip it anyway): check that promise in debug builds.
            debug_assert!(
                out.iter().all(|p| p.is_finite()),
                "a non-finite position was about to be drawn"
            );
        }
        let pinned = &self.pinned;
        self.shown
            .iter()
            .zip(lanes)
            .enumerate()
            .map(|(i, (positions, lane))| Pane {
                rope: RopeLook {
                    positions,
                    pinned,
                    grabbed,
                    exploded: lane.rope().is_some_and(Rope::exploded),
                },
                view: layout.views[i],
                area: layout.areas[i],
                label: layout.split.then(|| label(lane, i, focused == i)),
            })
            .collect()
    }

    /// The positions last built for lane `i`: what was drawn.
    pub fn shown(&self, i: usize) -> &[Vec2] {
        self.shown.get(i).map_or(&[], Vec::as_slice)
    }
}

/// A split-view pane's label for `lane`, the `index`-th.
fn label(lane: &Lane, index: usize, focused: bool) -> PaneLabel {
    let last = lane.last();
    let detail = match countdown(lane) {
        Some(left_s) => format!("EXPLODED - reset in {left_s:.1} s"),
        None => format!(
            "alpha {:.3}  drift {:+.3} ms",
            last.alpha,
            lane.drift_ms() + 0.0
        ),
    };
    PaneLabel {
        title: format!(
            "{} {}  {} step{}",
            index + 1,
            lane.name(),
            last.steps,
            if last.steps == 1 { "" } else { "s" }
        ),
        detail,
        policy: format!("{}  {}", tick_summary(lane), vsync_summary(lane)),
        colour: index,
        exploded: lane.rope().is_some_and(Rope::exploded),
        focused,
    }
}

/// Seconds until an exploded lane's rope is reset, if it is exploded.
fn countdown(lane: &Lane) -> Option<f64> {
    match lane.watched() {
        Watch::Exploded { left_ns } => Some(seconds(left_ns)),
        _ => None,
    }
}

/// The single view's banner for an exploded lane: what went wrong and when it comes back.
pub fn explosion_banner(lane: &Lane) -> Option<String> {
    countdown(lane).map(|left_s| format!("EXPLODED - resetting in {left_s:.1} s (R now)"))
}
