//! Lanes into panes: what the window and `simulate --draw` both show of their lanes — each
//! rope's shown positions (blended where its mode blends), its pins, the grabbed particle, and
//! in the split view its label.

use super::pane::MARKER_FRAMES;
use super::words::{loop_suffix, tick_words, vsync_summary};
use super::{Layout, Marker, Pane, PaneLabel, RopeLook};
use crate::model::lane::Lane;
use crate::model::rope::Rope;
use crate::model::watch::Watch;
use glam::Vec2;
use timestep_loop::{millis, seconds};

/// Points in a trail: the free end's last this-many shown positions.
pub const TRAIL_POINTS: usize = 30;

/// The most frames kept to step back through: 10 s at 60 Hz.
pub const KEPT_FRAMES: usize = 600;
/// The most positions kept over all those frames (with a long rope, fewer frames are kept).
const KEPT_POSITIONS: usize = 2_000_000;

/// Whether the frame being built is kept, and which kept frame is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// Keep this frame's lanes, as they are now, for stepping back to.
    pub keep: bool,
    /// Draw the frame this many frames before the newest kept (0: the lanes as they are).
    pub rewind: usize,
}

/// What one frame showed of each lane: its positions and the simulation time it showed.
#[derive(Clone, Debug, Default)]
struct Kept {
    positions: Vec<Vec<Vec2>>,
    shown_ns: Vec<u64>,
    /// Each lane's pane label as that frame showed it (a paused frame shows these, not the
    /// figures of the frames drawn since).
    labels: Vec<PaneLabel>,
}

/// Scratch for the shown positions, kept between frames so building panes does not allocate;
/// the frames kept to step back through; and each lane's trail and marker.
#[derive(Debug, Default)]
pub struct LanePanes {
    shown: Vec<Vec<Vec2>>,
    pinned: Vec<usize>,
    /// The last frames, oldest first, at most [`KEPT_FRAMES`].
    kept: std::collections::VecDeque<Kept>,
    /// Per lane, the free end's last [`TRAIL_POINTS`] shown positions, oldest first.
    trails: Vec<Vec<Vec2>>,
    /// Per lane, the simulation time its last frames showed, oldest first (its marker).
    marks: Vec<Vec<u64>>,
    /// Each lane's colour (see [`super::palette::lane_colours`]).
    colours: Vec<usize>,
}

impl LanePanes {
    /// One pane per lane in `layout` (lane i in pane i). `grabbed` is the particle the mouse
    /// holds (in every rope), `focused` the lane the keys act on. With `trail`, each lane's
    /// free end leaves a trail. `replay` says whether this frame is kept and which kept
    /// frame is drawn.
    pub fn build<'a>(
        &'a mut self,
        lanes: &[&Lane],
        layout: &Layout,
        grabbed: Option<super::Grip>,
        focused: usize,
        trail: bool,
        replay: Replay,
    ) -> Vec<Pane<'a>> {
        let lanes = &lanes[..lanes.len().min(layout.areas.len())];
        let at = self.fill_shown(lanes, replay);
        self.follow(at, trail);
        // Running, the newest kept frame is this one; paused, the one showing.
        let labels = at
            .or(self.kept.len().checked_sub(1))
            .and_then(|at| self.kept.get(at))
            .map(|k| k.labels.as_slice());
        let pinned = &self.pinned;
        let self_colours = &self.colours;
        let (trails, marks) = (&self.trails, &self.marks);
        let overlay = layout.areas.len() > 1 && layout.areas[0] == layout.areas[1];
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
                    colour: self_colours.get(i).copied().unwrap_or(i),
                    overlaid: overlay,
                },
                view: layout.views[i],
                area: layout.areas[i],
                slot: layout.slots.get(i).copied().unwrap_or_default(),
                label: layout.split.then(|| PaneLabel {
                    focused: focused == i,
                    colour: self_colours.get(i).copied().unwrap_or(i),
                    ..labels
                        .and_then(|l| l.get(i).cloned())
                        .unwrap_or_else(|| label(lane, i, false))
                }),
                marker: Marker {
                    track: layout.tracks.get(i).copied().unwrap_or_default(),
                    shown_ns: &marks[i],
                    colour: self_colours.get(i).copied().unwrap_or(i),
                },
            })
            .collect()
    }

    /// Sizes the panes' buffers for `lanes`, keeps this frame if `replay` says so, and fills
    /// what each pane shows: the lanes now, or the kept frame stepped back to. Returns which
    /// kept frame is shown, if one is.
    fn fill_shown(&mut self, lanes: &[&Lane], replay: Replay) -> Option<usize> {
        let n = lanes.len();
        self.shown.resize_with(n, Vec::new);
        self.trails.resize_with(n, Vec::new);
        self.marks.resize_with(n, Vec::new);
        if let Some(rope) = lanes.first().and_then(|l| l.rope()) {
            self.pinned.clear();
            self.pinned.extend(rope.pinned_indices());
        }
        if self.kept.back().is_some_and(|k| k.shown_ns.len() != n) {
            self.kept.clear();
        }
        if replay.keep {
            self.keep(lanes);
        }
        let at = self.kept.len().checked_sub(1 + replay.rewind);
        match at.filter(|_| replay.rewind > 0) {
            Some(at) => {
                for (out, kept) in self.shown.iter_mut().zip(&self.kept[at].positions) {
                    out.clone_from(kept);
                }
            }
            None => {
                for (out, lane) in self.shown.iter_mut().zip(lanes) {
                    lane.shown(out);
                }
            }
        }
        at
    }

    /// Keeps what `lanes` show now as the newest frame, dropping the oldest past
    /// [`KEPT_FRAMES`] or [`KEPT_POSITIONS`].
    fn keep(&mut self, lanes: &[&Lane]) {
        let points: usize = lanes.iter().filter_map(|l| l.rope()).map(Rope::len).sum();
        let most = (KEPT_POSITIONS / points.max(1)).clamp(1, KEPT_FRAMES);
        let mut frame = match self.kept.len() >= most {
            true => self.kept.pop_front().unwrap_or_default(),
            false => Kept::default(),
        };
        while self.kept.len() >= most {
            self.kept.pop_front();
        }
        frame.positions.resize_with(lanes.len(), Vec::new);
        frame.shown_ns.clear();
        frame.labels.clear();
        for (i, (out, lane)) in frame.positions.iter_mut().zip(lanes).enumerate() {
            frame.labels.push(label(lane, i, false));
            lane.shown(out);
            // The rope replaces non-finite values the moment it explodes, so no NaN reaches
            // the renderer (which would skip it anyway): check that promise in debug builds.
            debug_assert!(
                out.iter().all(|p| p.is_finite()),
                "a non-finite position was about to be drawn"
            );
            frame.shown_ns.push(lane.last().shown_ns);
        }
        self.kept.push_back(frame);
    }

    /// Each lane's trail and marker, from the kept frames up to the `at`-th.
    fn follow(&mut self, at: Option<usize>, trail: bool) {
        let end = at.map_or(0, |at| at + 1);
        for (i, (points, marks)) in self.trails.iter_mut().zip(&mut self.marks).enumerate() {
            points.clear();
            marks.clear();
            let recent = |count: usize| self.kept.range(end.saturating_sub(count)..end);
            marks.extend(recent(MARKER_FRAMES).filter_map(|k| k.shown_ns.get(i)));
            if trail {
                let ends = recent(TRAIL_POINTS)
                    .filter_map(|k| k.positions.get(i))
                    .filter_map(|p| free_end(p, &self.pinned));
                points.extend(ends);
            }
        }
    }

    /// The positions last built for lane `i`: what was drawn.
    /// Lane i (of those shown) is drawn in lane colour `colours[i]` from now on.
    pub fn set_colours(&mut self, colours: &[usize]) {
        self.colours.clear();
        self.colours.extend_from_slice(colours);
    }

    /// The positions last built for lane `i` (what was drawn), m; empty for a lane not shown.
    pub fn shown(&self, i: usize) -> &[Vec2] {
        self.shown.get(i).map_or(&[], Vec::as_slice)
    }

    /// How many frames are kept to step back through.
    pub fn kept_frames(&self) -> usize {
        self.kept.len()
    }

    /// Forgets the kept frames (the lanes changed).
    pub fn forget_frames(&mut self) {
        self.kept.clear();
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

/// A split-view pane's label for `lane`, the `index`-th: each figure a run of its own, named
/// by its glossary term.
fn label(lane: &Lane, index: usize, focused: bool) -> PaneLabel {
    let last = lane.last();
    let judder = lane.record().judder();
    let run = |text: String, term: &'static str| (text, term);
    let gap = || run("  ".into(), "");
    let alpha = run(format!("alpha {:.3}", last.alpha), "alpha");
    let detail = match countdown(lane) {
        Some(left_s) => vec![run(
            format!("EXPLODED - reset in {left_s:.1} s"),
            "countdown",
        )],
        // Driven, the judder says more than the drift.
        None if judder.drive().is_on() => {
            let px = judder
                .recent_rms()
                .map_or_else(|| "-".into(), |px| format!("{px:.2} px"));
            vec![alpha, gap(), run(format!("judder {px}"), "judder")]
        }
        None => {
            let drift = format!("drift {:+.3} ms", lane.drift_ms() + 0.0);
            vec![alpha, gap(), run(drift, "drift")]
        }
    };
    let steps = format!(
        "{} step{}",
        last.steps,
        if last.steps == 1 { "" } else { "s" }
    );
    let mut title = vec![
        run(format!("{} {}", index + 1, lane.name()), "lane"),
        gap(),
        run(steps, "steps"),
    ];
    // Time the clamp or the step cap dropped (a stall, the spiral), where there is some:
    // the split view and the overlay have no HUD row for it.
    let dropped = lane.dropped_ns();
    if dropped > 0 {
        title.extend([
            gap(),
            run(format!("dropped {:.0} ms", millis(dropped)), "dropped"),
        ]);
    }
    PaneLabel {
        title,
        detail,
        policy: vec![
            match tick_words(lane) {
                (words, true) => run(words, "substeps"),
                (words, false) => run(words, "loop"),
            },
            run(loop_suffix(lane), "loop"),
            gap(),
            run(vsync_summary(lane), "vsync"),
        ],
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lane::parse_spec;
    use crate::model::rope::RopeParams;
    use crate::view::draw::tip;
    use timestep_loop::{MaxSubstep, PolicyEnv};

    fn label_of(name: &str) -> PaneLabel {
        let spec = parse_spec(name).unwrap_or_else(|e| panic!("{e}"));
        // As the window runs: presets integrate their ticks in 1 ms substeps.
        let env = PolicyEnv::default().with_max_substep(MaxSubstep::Default);
        let lane = Lane::new(spec, &RopeParams::default(), &env).unwrap_or_else(|e| panic!("{e}"));
        label(&lane, 0, false)
    }

    #[test]
    fn a_tick_cut_into_substeps_says_so_in_words_and_its_tip_says_why_it_holds() {
        let policy = label_of("unity+tick=100ms").policy;
        assert_eq!(
            policy[0],
            ("tick 100ms in 100 substeps of 1ms".to_string(), "substeps")
        );
        let why = tip(policy[0].1).unwrap_or_default();
        assert!(why.contains("stable") && why.contains("explode"), "{why}");
        let plain = label_of("fixed").policy;
        assert_eq!(plain[0].1, "loop", "{plain:?}");
        assert!(plain[0].0.starts_with("tick ") && !plain[0].0.contains("substeps"));
    }

    #[test]
    fn a_variable_lane_in_substeps_says_so_where_it_said_one_step_a_frame() {
        let env = PolicyEnv::default().with_max_substep(MaxSubstep::Set(7_500_000));
        let spec = parse_spec("variable").unwrap_or_else(|e| panic!("{e}"));
        let lane = Lane::new(spec, &RopeParams::default(), &env).unwrap_or_else(|e| panic!("{e}"));
        let policy = label(&lane, 0, false).policy;
        assert_eq!(
            policy[0],
            (
                "1 step/frame in substeps of at most 7.5ms".to_string(),
                "substeps"
            )
        );
        assert_eq!(label_of("variable").policy[0].0, "1 step/frame");
        // Before any frame says otherwise, no vsync is seen: worded apart from the pacing (a
        // frame cap), which the trial read "not paced" as contradicting.
        let vsync = label_of("variable").policy.last().cloned();
        assert_eq!(vsync, Some(("no vsync seen".to_string(), "vsync")));
    }
}
