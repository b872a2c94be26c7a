//! The heads-up display: the loop's numbers as label/value rows on a panel, top-left.

use super::canvas::{Canvas, Rgb};
use super::figures::{num, signed, thousands};
use super::palette as pal;
use super::text::{self, Part, Texts};
use super::words::{
    clamp_text, judder_text, max_steps_text, tick_summary, tick_text, vsync_summary,
};
use crate::model::lane::Lane;
use crate::model::rope::Rope;
use timestep_loop::{TimingConfig, millis};

/// The numbers the HUD shows; every one is measured by the caller.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HudInfo {
    /// The tick, clamp and cap, when every lane shown shares them.
    pub timing: Option<TimingConfig>,
    /// Particles in each rope.
    pub particles: usize,
    /// Measured frames per second (smoothed by the caller).
    pub fps: f64,
    /// Last measured frame time, ms.
    pub frame_ms: f64,
    /// Whether the simulation is paused.
    pub paused: bool,
    /// Paused and stepped back this many frames.
    pub rewound: usize,
    /// The lanes are overlaid in one pane rather than split.
    pub overlay: bool,
    /// The pacing and what it measured: `vsync`, `cap 60 fps`, `adaptive 22.0ms 1 miss`.
    pub pacing: String,
    /// Input latency, event to present: the last and the mean of recent ones (empty before
    /// any input).
    pub input: String,
    /// The present mode actually in use, e.g. "Fifo (vsync)".
    pub present_mode: String,
    /// Every lane shown: one in the single view, up to four in the split view.
    pub lanes: Vec<LaneRow>,
    /// When a capture is replayed: which, and the frame showing.
    pub capture: Option<CaptureCaption>,
    /// What the display did with the frames, as the window learned it from present feedback
    /// (none: no display rows, as off the window).
    pub display: Option<DisplayInfo>,
}

/// What the display really did with the frames (the window's present feedback), for the HUD's
/// display rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DisplayInfo {
    /// Why there are no display times (`None`: there are).
    pub unavailable: Option<String>,
    /// Whether the times are the display system's own (the compositor's, the X server's)
    /// rather than estimated from a vblank clock.
    pub measured: bool,
    /// The mean time between display changes, ms.
    pub interval_ms: Option<f64>,
    /// The mean time from the present call to the display, ms.
    pub latency_ms: Option<f64>,
    /// The animation error (PresentMon's: change in simulation time minus change in display
    /// time, per frame shown), RMS, ms.
    pub anim_error_ms: Option<f64>,
    /// Frames the display discarded, never shown.
    pub discarded: u64,
}

/// A replayed capture: its file's name and the frame showing (1-based) of how many.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureCaption {
    /// The capture file's name.
    pub name: String,
    /// The frame showing, 1-based.
    pub frame: u64,
    /// Frames in the capture.
    pub frames: u64,
}

/// One lane's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaneRow {
    /// The lane as the user named it: `interpolated`, `fixed`.
    pub name: String,
    /// Its mode, worded as [`Lane::mode_text`] does: `fixed`, `fixed (unity)`.
    pub mode: String,
    /// Ticks the lane ran on its last frame.
    pub steps: u32,
    /// The blend factor of its last frame: accumulator ÷ tick where the mode blends (0 to 1).
    pub alpha: f64,
    /// Simulated − wall time, ms.
    pub drift_ms: f64,
    /// Total time dropped by the clamp and the step cap, ms.
    pub dropped_ms: f64,
    /// The rope's total energy, J (0 for a lane without a rope).
    pub energy_j: f64,
    /// Whether the lane's rope has exploded.
    pub exploded: bool,
    /// The loop in short: its tick (and substeps) and its timer, e.g. "16.667ms x17 smooth".
    pub tick: String,
    /// What the frame times say of vsync: "59.94 Hz", "no vsync seen" or "deciding".
    pub vsync: String,
    /// The driven end's judder over the last second or so: "1.02 px rms", "-" until known,
    /// "no drive".
    pub judder: String,
}

impl LaneRow {
    /// What `lane` did on its last frame.
    pub fn of(lane: &Lane) -> LaneRow {
        LaneRow {
            tick: tick_summary(lane),
            vsync: vsync_summary(lane),
            name: lane.name(),
            mode: lane.mode_text(),
            steps: lane.last().steps,
            alpha: lane.last().alpha,
            drift_ms: lane.drift_ms(),
            dropped_ms: millis(lane.dropped_ns()),
            energy_j: lane.rope().map_or(0.0, Rope::energy),
            exploded: lane.rope().is_some_and(Rope::exploded),
            judder: judder_text(lane.record().judder()),
        }
    }
}

/// Labels are padded to this many characters, so values line up in the monospace font.
const LABEL_WIDTH: usize = 10;
/// Longest value shown; longer ones (a long present-mode name) are cut with "..".
const VALUE_WIDTH: usize = 28;

/// How a value is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tone {
    Plain,
    Accent,
    Warn,
    Bad,
}

/// One HUD row: a label, a value, and an optional flag drawn after the value (e.g. PAUSED).
struct Row {
    label: &'static str,
    /// The label's colour, if not the usual (a lane's own colour).
    label_colour: Option<Rgb>,
    value: String,
    tone: Tone,
    flag: Option<(&'static str, Tone)>,
}

impl Row {
    fn new(label: &'static str, value: String) -> Row {
        Row {
            label,
            label_colour: None,
            value: clip(value),
            tone: Tone::Plain,
            flag: None,
        }
    }
    fn tone(mut self, tone: Tone) -> Row {
        self.tone = tone;
        self
    }
    /// A flag after the value; the value is cut shorter to leave it room.
    fn flag(mut self, flag: &'static str, tone: Tone) -> Row {
        self.value = clip_to(
            std::mem::take(&mut self.value),
            VALUE_WIDTH - flag.len() - 1,
        );
        self.flag = Some((flag, tone));
        self
    }
    fn text(&self) -> String {
        let mut s = format!("{:<LABEL_WIDTH$}{}", self.label, self.value);
        if let Some((flag, _)) = self.flag {
            s.push(' ');
            s.push_str(flag);
        }
        s
    }
}

/// One HUD figure for a renderer of its own (the window's egui HUD): its label, its value and
/// flag, and their colours.
#[derive(Clone, Debug, PartialEq)]
pub struct HudCell {
    /// The figure's name, e.g. "fps".
    pub label: &'static str,
    /// The label's colour.
    pub label_colour: Rgb,
    /// The figure, formatted.
    pub value: String,
    /// The value's colour.
    pub colour: Rgb,
    /// A flag after the value (`PAUSED`) and its colour.
    pub flag: Option<(&'static str, Rgb)>,
}

impl HudInfo {
    /// The HUD's figures as lines of cells, as `draw_hud` lays them out: one figure a line
    /// for one lane, the split view's bar (two lines) for several.
    pub fn cells(&self) -> Vec<Vec<HudCell>> {
        let cell = |row: Row| HudCell {
            label: row.label,
            label_colour: row.label_colour.unwrap_or(pal::LABEL),
            colour: tone_colour(row.tone),
            flag: row.flag.map(|(f, t)| (f, tone_colour(t))),
            value: row.value,
        };
        match self.lanes.as_slice() {
            [lane] => self
                .single_rows(lane)
                .into_iter()
                .map(|r| vec![cell(r)])
                .collect(),
            lanes => self
                .bar_rows(lanes.len())
                .into_iter()
                .map(|line| line.into_iter().map(cell).collect())
                .collect(),
        }
    }

    /// This HUD as wide as its cells get without a lane changing: paused and stepped back
    /// as far as frames are kept, after an input. A HUD laid out for these keeps its height
    /// when the user pauses or first presses a key (the panes under it stay put).
    pub fn widest(&self) -> HudInfo {
        let input = match self.input.is_empty() {
            true => "16.7 ms, mean 16.7".to_string(),
            false => self.input.clone(),
        };
        HudInfo {
            paused: true,
            rewound: super::lanes::KEPT_FRAMES,
            input,
            ..self.clone()
        }
    }

    /// The figures that come straight from the lanes (dt, clamp, cap, particles, and each
    /// lane's); the caller adds what it measured itself (fps, frame time, pause, cap, present
    /// mode).
    pub fn new(lanes: &[&Lane]) -> HudInfo {
        // dt, clamp and cap are shown when every lane shares them (presets bring their own).
        let key = |c: &TimingConfig| (c.tick_ns(), c.clamp_ns(), c.max_steps());
        let cfg = lanes.first().map(|l| *l.stepper().config());
        let shared = cfg.filter(|c| lanes.iter().all(|l| key(l.stepper().config()) == key(c)));
        HudInfo {
            timing: shared,
            particles: lanes.first().and_then(|l| l.rope()).map_or(0, Rope::len),
            lanes: lanes.iter().map(|l| LaneRow::of(l)).collect(),
            ..HudInfo::default()
        }
    }

    /// The HUD's text, one string per line: a label padded to 10 characters, then the value;
    /// each line under 40 characters. (In the split view: one string per item of
    /// the bar.)
    #[cfg(test)]
    pub fn lines(&self) -> Vec<String> {
        self.rows().iter().map(Row::text).collect()
    }

    fn rows(&self) -> Vec<Row> {
        match self.lanes.as_slice() {
            [lane] => self.single_rows(lane),
            lanes => self.bar_rows(lanes.len()).into_iter().flatten().collect(),
        }
    }

    /// One lane: its mode first, then every figure.
    fn single_rows(&self, lane: &LaneRow) -> Vec<Row> {
        let mut mode = Row::new("mode", lane.mode.clone()).tone(Tone::Accent);
        if self.paused {
            mode = mode.flag("PAUSED", Tone::Warn);
        }
        let dropped_tone = if lane.dropped_ms > 0.0 {
            Tone::Warn
        } else {
            Tone::Plain
        };
        let exploded = if lane.exploded {
            Row::new("exploded", "YES (R resets)".into()).tone(Tone::Bad)
        } else {
            Row::new("exploded", "no".into())
        };
        let loop_row = Row::new("loop", lane.tick.clone());
        let loop_row = if lane.tick.contains("unstable") {
            loop_row.tone(Tone::Bad)
        } else {
            loop_row
        };
        let mut rows = vec![mode, loop_row];
        rows.extend(self.timing_rows());
        rows.extend([
            self.frame_row(),
            Row::new("steps", self.rewound_to(lane.steps.to_string())),
            Row::new("alpha", num(lane.alpha, 3)),
            Row::new("drift", format!("{} ms", signed(lane.drift_ms, 3))),
            Row::new("judder", lane.judder.clone()),
            Row::new("dropped", format!("{} ms", num(lane.dropped_ms, 1))).tone(dropped_tone),
            Row::new("energy", format!("{} J", num(lane.energy_j, 3))),
            exploded,
            Row::new("vsync", lane.vsync.clone()),
        ]);
        rows.extend(self.output_rows());
        rows.extend(self.display_rows(false));
        rows.extend(self.capture_rows());
        rows
    }

    /// What the display did: how often it changed (marked measured or estimated), how long
    /// after the present call, the animation error and the frames discarded; or why that is
    /// not known. None off the window. In the bar (`bar`), one short cell: how often it
    /// changed, or "n/a" (a wider cell would widen the bar's columns past the panel's edge).
    fn display_rows(&self, bar: bool) -> Vec<Row> {
        let Some(d) = &self.display else {
            return Vec::new();
        };
        if let Some(why) = &d.unavailable {
            let value = match bar {
                true => "n/a".to_string(),
                false => format!("n/a: {why}"),
            };
            return vec![Row::new("display", value)];
        }
        let ms =
            |v: Option<f64>, digits: usize| v.map_or_else(|| "-".to_string(), |v| num(v, digits));
        let (flag, tone) = match d.measured {
            true => ("MEAS", Tone::Accent),
            false => ("EST", Tone::Warn),
        };
        if bar {
            let every = format!("{} ms", ms(d.interval_ms, 1));
            return vec![Row::new("display", every).flag(flag, tone)];
        }
        let discarded = match d.discarded {
            0 => Tone::Plain,
            _ => Tone::Warn,
        };
        vec![
            Row::new("display", format!("every {} ms", ms(d.interval_ms, 1))).flag(flag, tone),
            Row::new("latency", format!("{} ms", ms(d.latency_ms, 1))),
            Row::new("anim err", format!("{} ms rms", ms(d.anim_error_ms, 2))),
            Row::new("discarded", thousands(d.discarded)).tone(discarded),
        ]
    }

    /// The capture being replayed and the frame showing, if one is.
    fn capture_rows(&self) -> Vec<Row> {
        match &self.capture {
            Some(c) => vec![
                Row::new("capture", c.name.clone()).tone(Tone::Accent),
                Row::new(
                    "replayed",
                    format!("frame {} / {}", thousands(c.frame), thousands(c.frames)),
                ),
            ],
            None => Vec::new(),
        }
    }

    /// `value`, or when stepped back from the newest frame, which frame shows: "frame -3".
    fn rewound_to(&self, value: String) -> String {
        match self.rewound {
            0 => value,
            k => format!("frame -{k}"),
        }
    }

    /// Several lanes: what they share, on the two lines of a bar across the top (each lane's
    /// own figures are on its pane's label).
    fn bar_rows(&self, lanes: usize) -> [Vec<Row>; 2] {
        let view = if self.overlay { "overlay" } else { "split" };
        let view = match self.rewound {
            0 => format!("{view}, {lanes} lanes"),
            k => format!("{view}, frame -{k}"),
        };
        let mut view = Row::new("view", view).tone(Tone::Accent);
        if self.paused {
            view = view.flag("PAUSED", Tone::Warn);
        }
        let mut first = vec![view];
        first.extend(self.timing_rows());
        let mut second = vec![self.frame_row()];
        if let Some(c) = &self.capture {
            // A replayed capture sets the frames' times: it takes the place of the window's
            // own pacing, input and present, on one row ("test_case_5.csv 812/1,902").
            let at = format!("{}/{}", thousands(c.frame), thousands(c.frames));
            let room = VALUE_WIDTH.saturating_sub(at.len() + 1);
            let value = format!("{} {at}", clip_to(c.name.clone(), room));
            second.push(Row::new("replay", value).tone(Tone::Accent));
            return [first, second];
        }
        // The bar is one line: the input row only once there has been input.
        let [pacing, input, present] = self.output_rows();
        second.push(pacing);
        if !self.input.is_empty() {
            second.push(input);
        }
        second.push(present);
        second.extend(self.display_rows(true));
        [first, second]
    }

    /// dt, clamp and cap when the lanes share them ("per lane" where they do not: each pane
    /// label's loop line has its own; worded by [`clamp_text`] and [`max_steps_text`]), and
    /// the particles.
    fn timing_rows(&self) -> [Row; 4] {
        let dash = || "per lane".to_string();
        let t = self.timing.as_ref();
        let dt = t.map_or_else(dash, |t| tick_text(t.tick_ns()));
        let clamp = t.map_or_else(dash, |t| clamp_text(t.clamp_ns()));
        let cap = t.map_or_else(dash, |t| max_steps_text(t.max_steps()));
        [
            Row::new("dt", dt),
            Row::new("clamp", clamp),
            Row::new("max steps", cap),
            Row::new("particles", self.particles.to_string()),
        ]
    }

    fn frame_row(&self) -> Row {
        Row::new(
            "frame",
            format!("{} ms  {} fps", num(self.frame_ms, 2), num(self.fps, 1)),
        )
    }

    fn output_rows(&self) -> [Row; 3] {
        let or_dash = |s: &str| {
            if s.is_empty() {
                "-".to_string()
            } else {
                s.to_string()
            }
        };
        [
            Row::new("pacing", or_dash(&self.pacing)),
            Row::new("input", or_dash(&self.input)),
            Row::new("present", or_dash(&self.present_mode)),
        ]
    }
}

fn clip(s: String) -> String {
    clip_to(s, VALUE_WIDTH)
}

/// `s` cut to `width` characters, ending in ".." when cut.
fn clip_to(s: String, width: usize) -> String {
    if s.chars().count() <= width {
        return s;
    }
    let mut cut: String = s.chars().take(width.saturating_sub(2)).collect();
    cut.push_str("..");
    cut
}

fn tone_colour(t: Tone) -> Rgb {
    match t {
        Tone::Plain => pal::TEXT,
        Tone::Accent => pal::ACCENT,
        Tone::Warn => pal::WARN,
        Tone::Bad => pal::BAD,
    }
}

/// Text scale for a buffer `height` pixels tall: 1 under 560, 2 up to 1,199, then one more
/// for each 400 pixels, 4 at most. The text keeps its share of the window's height, and so
/// its size in points on a display of twice the pixel density (a 1280x800 window is
/// 2560x1600 pixels there: scale 4, 32 px lines, the 16 points of scale 2 at 1x). A window
/// of 777x486 (what a 864x540 screen opens) drew scale 2 and left its ropes 30 px long
/// under the text; scale 1 is 12 px lines.
pub fn text_scale(height: u32) -> u32 {
    match height {
        0..560 => 1,
        h => (h / 400).clamp(2, 4),
    }
}

/// Characters of HUD text the rope's layout leaves room for: every line at the usual values
/// ("present   FifoRelaxed (vsync)" is 29). A longer value just overlaps a little.
const LAYOUT_COLUMNS: u32 = 30;

/// How far from the left edge the HUD panel usually reaches in a buffer of this height, in
/// pixels (margin, padding and [`LAYOUT_COLUMNS`] glyphs at the HUD's text scale).
pub fn hud_column_width(height: u32) -> u32 {
    let s = text_scale(height);
    LAYOUT_COLUMNS * text::advance(s) + (6 + 2 * 6) * s
}

/// The text scale of the split view's HUD bar: the usual one where a 1280-wide line fits.
fn bar_scale(width: u32, height: u32) -> u32 {
    if width >= 1100 { text_scale(height) } else { 1 }
}

/// The pixels the split view's HUD bar takes at the top, its margin included.
pub fn hud_bar_height(width: u32, height: u32) -> u32 {
    let s = bar_scale(width, height);
    2 * (text::line_height(s) + 2 * s) + 2 * 4 * s + 6 * s
}

impl Row {
    /// The row as runs of text: its label, its value (the figure, with the label's meaning)
    /// and its flag; `gap` characters between label and value.
    fn parts(&self, gap: usize) -> Vec<Part> {
        let label = self.label_colour.unwrap_or(pal::LABEL);
        let mut parts = vec![
            Part::figure(format!("{:<gap$}", self.label), label, self.label),
            Part::figure(self.value.as_str(), tone_colour(self.tone), self.label),
        ];
        if let Some((flag, tone)) = self.flag {
            parts.push(Part::plain(format!(" {flag}"), tone_colour(tone)));
        }
        parts
    }
}

/// Draws the HUD, its text to `texts`: a panel in the top-left corner for one lane, a bar
/// across the top for several.
pub(super) fn draw_hud(canvas: &mut Canvas, texts: &mut Texts, hud: &HudInfo, scale: u32) {
    if hud.lanes.len() > 1 {
        draw_bar(canvas, texts, hud);
        return;
    }
    let rows = hud.rows();
    let (s, (g, a)) = (i64::from(scale), text::cell(scale));
    let line = g + 2 * s;
    let pad = 6 * s;
    let chars = rows
        .iter()
        .map(|r| r.text().chars().count())
        .max()
        .unwrap_or(0) as i64;
    let (x, y) = (pad, pad);
    let (w, h) = (
        chars * a + 2 * pad,
        rows.len() as i64 * line - 2 * s + 2 * pad,
    );
    canvas.panel((x, y, w, h), pal::PANEL_STYLE);
    for (i, row) in rows.iter().enumerate() {
        texts.put(
            x + pad,
            y + pad + i as i64 * line,
            scale,
            row.parts(LABEL_WIDTH),
        );
    }
}

/// The split view's HUD: two lines of `label value` items on a panel across the top.
/// Returns where its longest line ends, in pixels from the left.
fn draw_bar(canvas: &mut Canvas, texts: &mut Texts, hud: &HudInfo) -> i64 {
    let (w, h) = (canvas.width() as u32, canvas.height() as u32);
    let scale = bar_scale(w, h);
    let (s, (glyph, g)) = (i64::from(scale), text::cell(scale));
    let (line, pad) = (glyph + 2 * s, 4 * s);
    let margin = 6 * s;
    let height = i64::from(hud_bar_height(w, h)) - margin;
    canvas.panel(
        (margin, margin, i64::from(w) - 2 * margin, height),
        pal::PANEL_STYLE,
    );
    let mut widest = 0;
    for (i, rows) in hud.bar_rows(hud.lanes.len()).iter().enumerate() {
        let ty = margin + pad + i as i64 * line;
        let mut x = margin + pad;
        let right = i64::from(w) - margin - pad;
        for row in rows {
            // A row that would run off the bar is left out, not cut (and so are those after).
            let chars = row.label.len()
                + 1
                + row.value.chars().count()
                + row.flag.map_or(0, |f| 1 + f.0.len());
            if x + chars as i64 * g > right {
                break;
            }
            x = texts.put(x, ty, scale, row.parts(row.label.len() + 1));
            widest = widest.max(x);
            x += 3 * g;
        }
    }
    widest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_grows_with_the_buffer_so_a_2x_display_keeps_its_size_in_points() {
        let scales: Vec<u32> = [300, 486, 559, 560, 800, 1199, 1200, 1600, 2160, 10_000]
            .map(text_scale)
            .to_vec();
        assert_eq!(scales, [1, 1, 1, 2, 2, 2, 3, 4, 4, 4]);
        // 1280x800 at 1x and at 2x (2560x1600): the same lines in points.
        let (one, two) = (text_scale(800), text_scale(1600));
        assert_eq!(text::line_height(two), 2 * text::line_height(one));
        assert_eq!(hud_bar_height(2560, 1600), 2 * hud_bar_height(1280, 800));
    }

    #[test]
    fn the_hud_writes_dt_as_a_tick_is_written() {
        // The HUD's dt at 30 Hz, as the pane label's loop line has it (was "33.333333ms").
        let thirty = HudInfo {
            timing: TimingConfig::textbook(
                timestep_loop::Tick::per_second(30).expect("a rate"),
                250_000_000,
                None,
            )
            .ok(),
            ..info()
        };
        let lines = thirty.lines();
        let dt = lines.iter().find(|l| l.starts_with("dt"));
        assert!(dt.is_some_and(|l| l.ends_with(" 33.333ms")), "{lines:?}");
    }

    fn lane(name: &str) -> LaneRow {
        LaneRow {
            name: name.into(),
            mode: name.into(),
            steps: 17,
            alpha: 0.3456,
            drift_ms: -0.25,
            dropped_ms: 0.0,
            energy_j: -3.5,
            exploded: false,
            tick: "1ms raw".into(),
            vsync: "59.94 Hz".into(),
            judder: "0.42 px rms".into(),
        }
    }

    fn info() -> HudInfo {
        HudInfo {
            timing: TimingConfig::textbook(1_000_000, 250_000_000, None).ok(),
            particles: 20,
            fps: 60.0,
            frame_ms: 16.667,
            paused: false,
            rewound: 0,
            overlay: false,
            pacing: "vsync".into(),
            input: String::new(),
            present_mode: "Fifo (vsync)".into(),
            lanes: vec![lane("interpolated")],
            capture: None,
            display: None,
        }
    }

    #[test]
    fn the_hud_names_the_mode_and_shows_dt_and_clamp_as_typed() {
        let lines = info().lines();
        assert!(lines[0].contains("interpolated"), "{lines:?}");
        assert!(!lines[0].contains("PAUSED"));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("dt") && l.ends_with("1ms")),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l.contains("250ms")));
        assert!(
            lines
                .iter()
                .any(|l| l.contains("alpha") && l.contains("0.346"))
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("pacing") && l.contains("vsync"))
        );
        assert!(lines.iter().any(|l| l.contains("Fifo (vsync)")));
        assert!(lines.iter().any(|l| l.contains("-0.250 ms")));
    }

    #[test]
    fn the_hud_says_paused_when_paused() {
        let hud = HudInfo {
            paused: true,
            ..info()
        };
        assert!(hud.lines()[0].contains("PAUSED"));
    }

    #[test]
    fn stepped_back_the_hud_says_which_frame_and_names_the_overlay() {
        let back = HudInfo {
            paused: true,
            rewound: 3,
            ..info()
        };
        assert!(
            back.lines()
                .iter()
                .any(|l| l.contains("steps") && l.contains("frame -3"))
        );
        let overlay = HudInfo {
            overlay: true,
            lanes: vec![lane("interpolated"), lane("unity")],
            ..back
        };
        let first = &overlay.lines()[0];
        assert!(
            first.contains("overlay") && first.contains("frame -3"),
            "{first}"
        );
        assert!(first.contains("PAUSED") && first.len() <= 40, "{first}");
    }

    #[test]
    fn the_hud_shows_the_pacing_and_an_explosion() {
        let hud = HudInfo {
            pacing: "cap 60 fps".into(),
            lanes: vec![LaneRow {
                exploded: true,
                ..lane("fixed")
            }],
            ..info()
        };
        let lines = hud.lines();
        assert!(lines.iter().any(|l| l.contains("60 fps")), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("exploded") && l.contains("YES"))
        );
    }

    #[test]
    fn every_line_is_short_even_for_absurd_values() {
        let absurd = LaneRow {
            name: "interpolated+something-long".into(),
            mode: "interpolated (something-long-and-longer)".into(),
            steps: u32::MAX,
            alpha: -1e300,
            drift_ms: 1e300,
            dropped_ms: f64::NEG_INFINITY,
            energy_j: 1.0e30,
            exploded: true,
            tick: "16666.666667ms x16666667 smooth+more".into(),
            vsync: "123456789.00 Hz".into(),
            judder: "123456789.00 px rms".into(),
        };
        let mut hud = HudInfo {
            rewound: usize::MAX,
            overlay: true,
            timing: TimingConfig::new(timestep_loop::MAX_DURATION_NS)
                .and_then(|t| t.with_clamp(u64::MAX))
                .ok(),
            particles: usize::MAX,
            fps: f64::INFINITY,
            frame_ms: f64::NAN,
            paused: true,
            pacing: "adaptive 123456789.0ms 123456789 missed".into(),
            input: "123456789.0 ms, mean 123456789.0".into(),
            present_mode: "Mailbox \u{2014} a very long present mode name indeed".into(),
            lanes: vec![absurd.clone()],
            capture: None,
            display: Some(DisplayInfo {
                unavailable: None,
                measured: true,
                interval_ms: Some(f64::MAX),
                latency_ms: Some(f64::NAN),
                anim_error_ms: Some(f64::NEG_INFINITY),
                discarded: u64::MAX,
            }),
        };
        for line in hud.lines() {
            assert!(line.chars().count() < 40, "{line:?}");
        }
        hud.lanes = vec![absurd; 4];
        for line in hud.lines() {
            assert!(line.chars().count() < 40, "{line:?}");
        }
        hud.display = Some(DisplayInfo {
            unavailable: Some("the compositor offers no wp_presentation, and more".into()),
            ..DisplayInfo::default()
        });
        for line in hud.lines() {
            assert!(line.chars().count() < 40, "{line:?}");
        }
    }

    #[test]
    fn the_display_rows_say_what_the_display_did_and_whether_it_was_measured() {
        let shown = |measured| HudInfo {
            display: Some(DisplayInfo {
                unavailable: None,
                measured,
                interval_ms: Some(17.61),
                latency_ms: Some(36.14),
                anim_error_ms: Some(0.414),
                discarded: 2,
            }),
            ..info()
        };
        let lines = shown(true).lines();
        let tail = &lines[lines.len() - 4..];
        assert_eq!(
            tail,
            [
                "display   every 17.6 ms MEAS",
                "latency   36.1 ms",
                "anim err  0.41 ms rms",
                "discarded 2",
            ]
        );
        assert!(shown(false).lines().iter().any(|l| l.ends_with("ms EST")));
        let none = HudInfo {
            display: Some(DisplayInfo {
                unavailable: Some("no wp_presentation".into()),
                ..DisplayInfo::default()
            }),
            ..info()
        };
        let lines = none.lines();
        assert_eq!(
            lines.last().map(String::as_str),
            Some("display   n/a: no wp_presentation")
        );
        // Off the window: no display rows at all.
        assert!(!info().lines().iter().any(|l| l.starts_with("display")));
        // The split view's bar: one short cell.
        let bar = |hud: HudInfo| HudInfo {
            lanes: vec![lane("fixed"), lane("interpolated")],
            ..hud
        };
        let lines = bar(shown(false)).lines();
        let display: Vec<&String> = lines.iter().filter(|l| l.starts_with("display")).collect();
        assert_eq!(display, ["display   17.6 ms EST"]);
        assert!(!lines.iter().any(|l| l.starts_with("latency")));
        assert!(bar(none).lines().contains(&"display   n/a".to_string()));
    }

    #[test]
    fn the_hud_is_drawn_on_a_panel_in_the_top_left() {
        let (w, h) = (320usize, 200usize);
        let mut buf = vec![0u8; w * h * 4];
        let mut c = Canvas::new(&mut buf, w as u32, h as u32).unwrap();
        draw_hud(&mut c, &mut Texts::default(), &info(), 1);
        assert_ne!(&buf[(10 * w + 10) * 4..][..3], &[0, 0, 0]);
        assert_eq!(&buf[((h - 1) * w + w - 1) * 4..][..4], &[0, 0, 0, 0]);
    }

    #[test]
    fn the_split_view_has_a_bar_across_the_top_with_what_the_lanes_share() {
        let hud = HudInfo {
            lanes: ["variable", "semi-fixed", "fixed", "interpolated"]
                .map(lane)
                .to_vec(),
            paused: true,
            ..info()
        };
        let lines = hud.lines();
        assert!(
            lines[0].contains("split, 4 lanes") && lines[0].contains("PAUSED"),
            "{lines:?}"
        );
        for item in ["1ms", "250ms", "16.67", "Fifo (vsync)"] {
            assert!(lines.iter().any(|l| l.contains(item)), "{item}: {lines:?}");
        }
        let (w, h) = (1280usize, 720usize);
        let mut buf = vec![0u8; w * h * 4];
        let mut c = Canvas::new(&mut buf, w as u32, h as u32).unwrap();
        draw_hud(&mut c, &mut Texts::default(), &hud, 2);
        let lit = |y: usize| (0..w).any(|x| buf[(y * w + x) * 4..][..3] != [0, 0, 0]);
        let bar = hud_bar_height(w as u32, h as u32) as usize;
        assert!(lit(bar / 2) && lit(14), "the bar is drawn");
        assert!(!(bar..h).any(lit), "and nothing below it");
        assert!(buf[((bar / 2) * w + w - 20) * 4] != 0, "it spans the width");
    }

    #[test]
    fn a_replayed_capture_is_named_with_its_frame_and_fits_the_bar() {
        let name = "a-capture-with-a-very-long-name-indeed_test_case_5_v2.csv";
        let capture = Some(CaptureCaption {
            name: name.into(),
            frame: 12_345,
            frames: 67_890,
        });
        let single = HudInfo {
            capture: capture.clone(),
            ..info()
        };
        let lines = single.lines();
        assert!(
            lines.iter().any(|l| l.contains("a-capture-with")),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l.contains("frame 12,345 / 67,890")));
        let split = HudInfo {
            capture,
            input: "12.3 ms, mean 45.6".into(),
            lanes: ["variable", "semi-fixed", "fixed", "interpolated"]
                .map(lane)
                .to_vec(),
            ..info()
        };
        let lines = split.lines();
        assert!(
            lines.iter().any(|l| l.contains("12,345/67,890")),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|l| l.contains("Fifo")), "{lines:?}");
        let (w, h) = (1280usize, 800usize);
        let mut buf = vec![0u8; w * h * 4];
        let mut c = Canvas::new(&mut buf, w as u32, h as u32).unwrap();
        let end = draw_bar(&mut c, &mut Texts::default(), &split);
        assert!(
            end <= w as i64 - 6 * 2,
            "the bar's longest line ends at {end} of {w}"
        );
    }

    #[test]
    fn counts_read_as_people_write_them() {
        assert_eq!(thousands(812), "812");
        assert_eq!(thousands(1_902), "1,902");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}
