//! The frame's text through egui_kittest: a pane's figure found by its text, and its tooltip
//! shown on hover.

use super::*;
use crate::app::host::{Present, WindowWall};
use crate::app::session::Session;
use crate::app::session::tests::config;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use timestep_lab::model::lane::LaneSpec;
use timestep_lab::model::rope::RopeParams;
use timestep_lab::protocol::wall::Wall;
use timestep_loop::Mode;

/// A clock the test moves: frames read it, sleeps move it on.
struct Simulated(u64);

impl Wall for Simulated {
    fn now_ns(&mut self) -> u64 {
        self.0
    }
    fn sleep(&mut self, ns: u64) {
        self.0 += ns;
    }
}

impl WindowWall for Simulated {}

/// A presenter that draws into a buffer of the window's size and keeps the frame's text.
#[derive(Default)]
struct Keep(Texts);

impl Present for Keep {
    type Error = std::convert::Infallible;
    fn present_mode(&self) -> String {
        "Fifo (vsync)".into()
    }
    fn present(
        &mut self,
        draw: &mut dyn FnMut(&mut [u8], u32, u32) -> Texts,
    ) -> Result<bool, Self::Error> {
        let mut buffer = vec![0; 1280 * 800 * 4];
        self.0 = draw(&mut buffer, 1280, 800);
        Ok(true)
    }
}

/// The text of the split view of a fixed and an interpolated lane after a second of frames.
fn split_view_text() -> Texts {
    let lanes = [Mode::Fixed, Mode::Interpolated]
        .map(LaneSpec::mode)
        .to_vec();
    let mut session = Session::new(&config(lanes, RopeParams::default()), 1280, 800)
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut clock, mut keep) = (Simulated(0), Keep::default());
    for _ in 0..60 {
        clock.0 += 16_666_667;
        session
            .frame(&mut clock, &mut keep, None)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    keep.0
}

#[test]
fn a_pane_figure_is_found_by_its_text_and_hovering_it_shows_its_meaning() {
    let texts = split_view_text();
    let loop_tip = timestep_lab::view::draw::tip("loop").unwrap_or_else(|| panic!("a loop tip"));
    // The second pane's loop line: "1ms raw" (or as the session's tick has it).
    let figure = texts
        .lines()
        .iter()
        .filter(|l| l.clip.is_some())
        .flat_map(|l| &l.parts)
        .find(|p| p.tip == Some(loop_tip))
        .map(|p| p.text.clone())
        .unwrap_or_else(|| panic!("no pane shows its loop: {texts:?}"));
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui(move |ui| paint(ui.ctx(), &texts));
    h.run();
    assert!(
        h.query_by_label(loop_tip).is_none(),
        "no tooltip before the hover"
    );
    h.get_all_by_label(&figure)
        .next()
        .unwrap_or_else(|| panic!("{figure} is not on screen"))
        .hover();
    h.run_steps(4);
    h.get_by_label(loop_tip);
}
