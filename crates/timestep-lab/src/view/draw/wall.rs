//! The strip's bottom row: when steps really ran, in wall time, over the last
//! [`WALL_WINDOW_NS`]. Each frame's start is a faint line and each step a mark in its lane's
//! colour, so fixed steps show bunched at the start of each frame with nothing between them
//! (Jiadong Chen's article: Unity's FixedUpdate is not periodic in wall time either).

use super::canvas::Canvas;
use super::palette as pal;
use std::collections::VecDeque;

/// How much wall time the row spans: about six frames at 60 Hz.
pub const WALL_WINDOW_NS: u64 = 100_000_000;

/// Frame starts and step starts over the last [`WALL_WINDOW_NS`], ns of the window's clock.
#[derive(Clone, Debug, Default)]
pub struct StepTimes {
    frames: VecDeque<u64>,
    /// (when, lane).
    steps: VecDeque<(u64, u8)>,
}

impl StepTimes {
    /// A frame that began at `start_ns`, whose lane i began its steps at `lanes[i]`.
    pub fn push(&mut self, start_ns: u64, lanes: &[&[u64]]) {
        self.frames.push_back(start_ns);
        for (lane, starts) in lanes.iter().enumerate() {
            self.steps
                .extend(starts.iter().map(|&t| (t, lane.min(255) as u8)));
        }
        let newest = self.newest();
        let from = newest.saturating_sub(WALL_WINDOW_NS);
        while self.frames.front().is_some_and(|&t| t < from) {
            self.frames.pop_front();
        }
        while self.steps.front().is_some_and(|&(t, _)| t < from) {
            self.steps.pop_front();
        }
    }

    /// The latest time held.
    fn newest(&self) -> u64 {
        let frame = self.frames.back().copied().unwrap_or(0);
        let step = self.steps.back().map_or(0, |&(t, _)| t);
        frame.max(step)
    }

    pub fn clear(&mut self) {
        self.frames.clear();
        self.steps.clear();
    }

    /// Steps held (for tests).
    pub fn steps(&self) -> usize {
        self.steps.len()
    }

    /// Draws the row in the `w × h` well at (`x`, `y`), newest at the right; `lanes` says
    /// whether to colour steps by lane (several lanes) or in the steps colour (one).
    /// Steps are `s` pixels wide (the text scale), so a bunch of them reads as one bar.
    pub(super) fn draw(
        &self,
        canvas: &mut Canvas,
        (x, y, w, h): (i64, i64, i64, i64),
        lanes: usize,
        colours: &[usize],
        s: i64,
    ) {
        if w < 2 || h < 2 {
            return;
        }
        let from = self.newest().saturating_sub(WALL_WINDOW_NS);
        let x_of = |t: u64| x + ((t - from) as f64 / WALL_WINDOW_NS as f64 * (w - 1) as f64) as i64;
        for &t in &self.frames {
            canvas.fill_rect(x_of(t.max(from)), y, 1, h, pal::REFERENCE);
        }
        let mark = (h * 2 / 3).max(1);
        for &(t, lane) in &self.steps {
            let colour = if lanes > 1 {
                let i = usize::from(lane);
                pal::lane(colours.get(i).copied().unwrap_or(i))
            } else {
                pal::STEPS
            };
            canvas.fill_rect(x_of(t.max(from)), y + h - mark, s.max(1), mark, colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_keeps_only_the_last_window_of_wall_time() {
        let mut s = StepTimes::default();
        for frame in 0..20u64 {
            let start = frame * 16_666_667;
            let steps: Vec<u64> = (0..17).map(|i| start + i * 2_000).collect();
            s.push(start, &[&steps]);
        }
        // Six frames and a bit fit in 100 ms: their 17 steps each.
        assert!((17 * 6..=17 * 7).contains(&s.steps()), "{}", s.steps());
        s.clear();
        assert_eq!(s.steps(), 0);
    }
}
