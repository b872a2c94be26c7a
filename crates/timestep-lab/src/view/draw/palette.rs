//! The colours, in one place so the screen stays one palette.

use super::canvas::{PanelStyle, Rgb};
use timestep_loop::{Mode, Preset};

pub const BG_TOP: Rgb = [25, 28, 37];
pub const BG_BOTTOM: Rgb = [12, 14, 19];
pub const GRID: Rgb = [160, 176, 210];
pub const ROPE: Rgb = [226, 206, 164];
pub const BEAD: Rgb = [255, 243, 214];
pub const BEAD_RIM: Rgb = [16, 18, 24];
pub const ROPE_EXPLODED: Rgb = [255, 72, 72];
pub const BEAD_EXPLODED: Rgb = [255, 168, 160];
pub const ACCENT: Rgb = [79, 195, 247];
pub const GRAB: Rgb = [255, 166, 72];
pub const PANEL: Rgb = [9, 11, 15];
pub const PANEL_ALPHA: u8 = 205;
pub const PANEL_BORDER: Rgb = [58, 64, 80];
pub const PANEL_STYLE: PanelStyle = PanelStyle {
    fill: PANEL,
    alpha: PANEL_ALPHA,
    border: PANEL_BORDER,
};
pub const TEXT: Rgb = [234, 238, 246];
pub const LABEL: Rgb = [132, 142, 163];
pub const GOOD: Rgb = [61, 214, 148];
pub const WARN: Rgb = [255, 202, 76];
pub const BAD: Rgb = [255, 92, 92];
pub const STEPS: Rgb = [196, 140, 255];
/// STEPS at about 30 % over the graph's near-black background.
pub const STEPS_DIM: Rgb = [62, 45, 82];
/// Reference lines: light grey at about 65 % over the graph's background.
pub const REFERENCE: Rgb = [130, 135, 148];
pub const GRAPH_BG: Rgb = [0, 0, 0];

/// Each lane's colour, by its index: its pane's label, its trail and its steps in the strip. Apart from
/// each other, and from the explosion's red and the accent's blue.
pub const LANES: [Rgb; 4] = [
    [240, 160, 40],
    [238, 226, 90],
    [60, 205, 150],
    [214, 132, 232],
];

/// The colour each of `names` (the lanes shown, in order) is drawn in, as indices into
/// `LANES`: one lane, one colour, in every view. Each textbook mode (and Unity, the plain
/// launch's other lane) has its own (interpolated orange, semi-fixed and unity yellow,
/// variable green, fixed violet); a lane whose colour an earlier one took, or with none of
/// its own, takes the first free one.
pub fn lane_colours(names: &[String]) -> Vec<usize> {
    // The base's own name, read as the loop's types read it: no mode's name is written here.
    let own = |name: &str| {
        let base = name.split('+').next().unwrap_or("");
        match (base.parse::<Mode>(), base.parse::<Preset>()) {
            (Ok(Mode::Interpolated), _) => Some(0),
            (Ok(Mode::SemiFixed), _) | (_, Ok(Preset::Unity)) => Some(1),
            (Ok(Mode::Variable), _) => Some(2),
            (Ok(Mode::Fixed), _) => Some(3),
            _ => None,
        }
    };
    let mut taken = [false; LANES.len()];
    let mut colours: Vec<Option<usize>> = names
        .iter()
        .map(|n| {
            let c = own(n).filter(|&c| !taken[c])?;
            taken[c] = true;
            Some(c)
        })
        .collect();
    for c in &mut colours {
        if c.is_none() {
            let free = taken.iter().position(|t| !t);
            if let Some(f) = free {
                taken[f] = true;
            }
            *c = free;
        }
    }
    colours
        .into_iter()
        .enumerate()
        .map(|(i, c)| c.unwrap_or(i))
        .collect()
}

/// Lane `i`'s colour.
pub fn lane(i: usize) -> Rgb {
    LANES[i % LANES.len()]
}

#[cfg(test)]
mod colour_tests {
    use super::*;

    fn of(names: &str) -> Vec<usize> {
        let names: Vec<String> = names.split(',').map(String::from).collect();
        lane_colours(&names)
    }

    #[test]
    fn a_lane_has_one_colour_in_every_view_and_lanes_shown_together_differ() {
        // The plain launch's overlay, the four modes split, and one lane alone.
        assert_eq!(of("interpolated,unity+tick=100ms,variable"), [0, 1, 2]);
        assert_eq!(of("variable,semi-fixed,fixed,interpolated"), [2, 1, 3, 0]);
        assert_eq!(of("interpolated"), [0]);
        assert_eq!(of("variable"), [2]);
        // Presets without a colour of their own, and repeats, take the free ones.
        assert_eq!(of("godot,bevy,fixed,fixed+snap"), [0, 1, 3, 2]);
    }
}
