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

/// Points in a trail: the free end's last this-many shown positions.
pub const TRAIL_POINTS: usize = 30;

/// Scratch for the shown positions, kept between frames so building panes does not allocate;
/// and each lane's trail.
#[derive(Debug, Default)]
pub struct LanePanes {
    shown: Vec<Vec<Vec2>>,
    pinned: Vec<usize>,
    /// Per lane, the free end's last [`TRAIL_POINTS`] shown positions, oldest first.
    trails: Vec<Vec<Vec2>>,
}

impl LanePanes {
    /// One pane per lane in `layout` (lane i in pane i). `grabbed` is the particle the mouse
    /// holds (in every rope), `focused` the lane the keys act on.
    /// With `trail`, each lane's free end is added to its trail (which is drawn); without,
    /// the trails are cleared.
    pub fn build<'a>(
        &'a mut self,
        lanes: &[&Lane],
        layout: &Layout,
        grabbed: Option<usize>,
        focused: usize,
        trail: bool,
    ) -> Vec<Pane<'a>> {
        let n = lanes.len().min(layout.areas.len());
        self.shown.resize_with(n, Vec::new);
        self.trails.resize_with(n, Vec::new);
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
        for (points, shown) in self.trails.iter_mut().zip(&self.shown) {
            match free_end(shown, &self.pinned).filter(|_| trail) {
                Some(p) => {
                    if points.len() == TRAIL_POINTS {
                        points.remove(0);
                    }
                    points.push(p);
                }
                None => points.clear(),
            }
        }
        let pinned = &self.pinned;
        let trails = &self.trails;
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
                    trail: &trails[i],
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

/// The particle a trail follows: the last, or with both ends pinned the middle one.
fn free_end(shown: &[Vec2], pinned: &[usize]) -> Option<Vec2> {
    let last = shown.len().checked_sub(1)?;
    let i = if pinned.contains(&last) {
        last / 2
    } else {
        last
    };
    shown.get(i).copied()
}

/// A split-view pane's label for `lane`, the `index`-th.
fn label(lane: &Lane, index: usize, focused: bool) -> PaneLabel {
    let last = lane.last();
    let judder = lane.record().judder();
    let detail = match countdown(lane) {
        Some(left_s) => format!("EXPLODED - reset in {left_s:.1} s"),
        // Driven, the judder says more than the drift.
        None if judder.drive().is_on() => match judder.recent_rms() {
            Some(px) => format!("alpha {:.3}  judder {px:.2} px", last.alpha),
            None => format!("alpha {:.3}  judder -", last.alpha),
        },
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
