//! The panel through egui_kittest: controls found by their accessible names, changed as a
//! user would (keys, clicks), then the session's lanes stepped on a simulated clock.

use super::super::host::{Present, WindowWall};
use super::*;
use crate::app::session::Session;
use crate::app::session::knobs::Setting;
use crate::app::session::tests::config;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::convert::Infallible;
use timestep_lab::model::lane::LaneSpec;
use timestep_lab::model::rope::{Drive, RopeParams};
use timestep_lab::protocol::wall::Wall;
use timestep_loop::{Mode, NS_PER_MS as MS};

/// A clock the test moves: frames read it, sleeps move it on.
struct Simulated {
    now_ns: u64,
}

impl Wall for Simulated {
    fn now_ns(&mut self) -> u64 {
        self.now_ns
    }
    fn sleep(&mut self, ns: u64) {
        self.now_ns += ns;
    }
}

impl WindowWall for Simulated {}

/// A presenter that shows every frame at once and draws nothing.
struct Nowhere;

impl Present for Nowhere {
    fn present_mode(&self) -> String {
        "Fifo (vsync)".into()
    }
    type Error = Infallible;
    fn present(
        &mut self,
        _draw: &mut dyn FnMut(&mut [u8], u32, u32) -> timestep_lab::view::draw::Texts,
    ) -> Result<bool, Infallible> {
        Ok(true)
    }
}

/// The session and the simulated time its frames are at.
struct Run {
    session: Session,
    panel: PanelState,
    clock: Simulated,
}

impl Run {
    /// One `fixed`... lane of `mode`, launched with the textbook 1 ms tick, 250 ms clamp.
    fn new(mode: Mode) -> Run {
        let cfg = config(vec![LaneSpec::mode(mode)], RopeParams::default());
        let session = Session::new(&cfg, 1280, 800).unwrap_or_else(|e| panic!("{e}"));
        Run {
            session,
            panel: PanelState::default(),
            clock: Simulated { now_ns: 0 },
        }
    }

    /// `frames` frames of `frame_ns` each; the steps the shown lane ran in them.
    fn frames(&mut self, frames: u32, frame_ns: u64) -> u64 {
        (0..frames)
            .map(|_| {
                self.clock.now_ns += frame_ns;
                let report = self
                    .session
                    .frame(&mut self.clock, &mut Nowhere, None)
                    .unwrap_or_else(|e| panic!("{e}"));
                u64::from(report.rows[0].steps)
            })
            .sum()
    }
}

/// The panel over `run`'s session, in a harness the size of the window.
fn harness(run: Run) -> Harness<'static, Run> {
    Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(
            |ui, run: &mut Run| {
                let view = run.session.panel_view();
                for change in show(ui.ctx(), &view, &run.panel) {
                    run.session.apply(change);
                }
                run.panel
                    .refused(run.session.refused().map(ToString::to_string));
            },
            run,
        )
}

/// Opens the drop-down `name` and picks `option`.
fn choose(h: &mut Harness<'static, Run>, name: &str, option: &str) {
    h.get_by_role_and_label(Role::ComboBox, name).click();
    h.run();
    h.get_by_label(option).click();
    h.run();
}

#[test]
fn choosing_60_hz_on_the_tick_slider_makes_the_lane_tick_60_times_a_simulated_second() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    // Launched at 1 ms: a thousand ticks in a second of 100 ms frames.
    assert_eq!(h.state_mut().frames(10, 100 * MS), 1000);
    let tick = h.get_by_role_and_label(Role::Slider, "Tick");
    tick.focus();
    h.run();
    // Two stops along: 1 ms, 120 Hz, 60 Hz.
    h.key_press(egui::Key::ArrowRight);
    h.key_press(egui::Key::ArrowRight);
    h.run();
    let run = h.state_mut();
    assert_eq!(run.session.focused().policy().timing.tick_ns(), 16_666_667);
    // The new lane's first frame starts its clock; then a second of 1/60 s frames: one tick
    // each (60 ticks are 20 ns longer than the second, so the last lands on the next frame).
    let frame_ns = 16_666_667;
    assert_eq!(run.frames(1, frame_ns), 0);
    assert_eq!(run.frames(60, frame_ns), 60);
    assert_eq!(run.frames(600, frame_ns), 600);
}

#[test]
fn the_legend_opened_wraps_at_the_panels_width_and_the_panes_are_laid_out_left_of_it() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    let width = |h: &Harness<'static, Run>| covered_width(&h.ctx, true);
    let closed = width(&h);
    assert!(closed > 0 && closed < 400, "{closed}");
    h.get_by_label("Legend").click_accesskit();
    for _ in 0..30 {
        h.step();
    }
    // Each term reads as the glossary (the tooltips' table) defines it.
    for term in timestep_lab::view::draw::LEGEND {
        let meaning = timestep_lab::view::draw::tip(term).unwrap_or_default();
        assert!(h.query_by_label(meaning).is_some(), "{term}: {meaning}");
    }
    // The legend's sentences wrap: the panel keeps its width.
    assert_eq!(width(&h), closed);
    let run = h.state_mut();
    run.session.set_covered(closed, 0);
    for area in &run.session.layout().areas {
        assert!(area.x + area.w <= 1280 - closed, "{area:?} under the panel");
    }
}

#[test]
fn the_panel_grows_back_with_the_window_after_a_tiny_size() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    let height = |h: &Harness<'static, Run>| {
        let rect = h.ctx.memory(|m| m.area_rect(egui::Id::new(PANEL_ID)));
        rect.map_or(0.0, |r| r.height())
    };
    let full = height(&h);
    for size in [[200.0, 90.0], [1280.0, 800.0]] {
        h.set_size(egui::vec2(size[0], size[1]));
        h.run();
        h.run();
    }
    assert!(
        (height(&h) - full).abs() < 1.0,
        "{} px tall, was {full}",
        height(&h)
    );
}

/// The drive is set to the one chosen, at its default period, as `D` reaches it; a drive
/// launched with its own period is shown by its name.
#[test]
fn a_drive_chosen_in_the_panel_is_set_at_its_default_period() {
    let rope = RopeParams {
        drive: drive_of("sway:3s"),
        ..RopeParams::default()
    };
    let cfg = config(vec![LaneSpec::mode(Mode::Fixed)], rope);
    let session = Session::new(&cfg, 1280, 800).unwrap_or_else(|e| panic!("{e}"));
    let clock = Simulated { now_ns: 0 };
    let mut h = harness(Run {
        session,
        panel: PanelState::default(),
        clock,
    });
    h.run();
    let drive = |h: &Harness<'static, Run>| {
        let rope = h.state().session.focused().rope().map(|r| r.params().drive);
        let knobs = h.state().session.knobs();
        let (_, options) = knobs
            .into_iter()
            .find(|(k, _)| k.name == "Drive")
            .expect("the knob");
        (rope, options.list[options.current].0.clone())
    };
    assert_eq!(drive(&h), (Some(drive_of("sway:3s")), "sway".into()));
    choose(&mut h, "Drive", "circle");
    assert_eq!(drive(&h), (Some(drive_of("circle")), "circle".into()));
    choose(&mut h, "Drive", "sway");
    assert_eq!(drive(&h), (Some(Drive::sway()), "sway".into()));
}

/// The drive `text` names.
fn drive_of(text: &str) -> Drive {
    Drive::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_lower_clamp_chosen_in_the_panel_drops_more_of_a_hitch() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    let dropped = |run: &Run| run.session.focused().stepper().dropped_ns();
    let run = h.state_mut();
    run.frames(5, 16 * MS);
    let before = dropped(run);
    run.frames(1, 300 * MS);
    // The launch clamp, 250 ms: a 300 ms hitch drops 50 ms.
    assert_eq!(dropped(run) - before, 50 * MS);
    choose(&mut h, "Clamp", "50ms");
    let run = h.state_mut();
    assert_eq!(
        run.session.focused().policy().timing.clamp_ns(),
        Some(50 * MS)
    );
    run.frames(5, 16 * MS);
    let before = dropped(run);
    run.frames(1, 300 * MS);
    assert_eq!(dropped(run) - before, 250 * MS);
}

#[test]
fn the_variable_mode_chosen_in_the_panel_steps_once_a_frame_whatever_its_length() {
    let mut h = harness(Run::new(Mode::Interpolated));
    h.run();
    assert_eq!(h.state_mut().frames(1, 100 * MS), 100);
    choose(&mut h, "Mode", &Mode::Variable.to_string());
    let run = h.state_mut();
    assert_eq!(run.session.focused().mode(), Mode::Variable);
    assert_eq!(run.frames(3, 100 * MS), 3);
}

#[test]
fn an_unstable_tick_is_said_beside_it_and_add_substeps_fixes_it() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    assert!(h.query_by_label_contains("stable step").is_none());
    h.get_by_role_and_label(Role::Slider, "Tick").focus();
    h.run();
    for _ in 0..5 {
        h.key_press(egui::Key::ArrowRight);
    }
    h.run();
    // 10 Hz: 100 ms ticks, far above Euler's stable step on this rope.
    assert!(h.state().session.tick_warning().is_some());
    h.get_by_label_contains("above this rope's stable step");
    h.get_by_label("Add substeps").click();
    h.run();
    let run = h.state_mut();
    assert_eq!(run.session.tick_warning(), None);
    assert!(run.session.focused().policy().substeps_per_tick() > 1);
    run.frames(50, 16 * MS);
    assert!(!run.session.focused().rope().is_some_and(|r| r.exploded()));
}

/// The split view focuses its variable lane, which has no tick; moved to 20 Hz, the other
/// three explode: the panel says so and its fix reaches them.
#[test]
fn an_unstable_tick_is_said_with_a_variable_lane_in_focus() {
    let cfg = config(LaneSpec::every_mode(), RopeParams::default());
    let mut run = Run::new(Mode::Fixed);
    run.session = Session::new(&cfg, 1280, 800).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.session.focused().mode(), Mode::Variable);
    let mut h = harness(run);
    h.run();
    // 1 ms, 120, 60, 30, 20 Hz (focused again each time: the warning that appears at 60 Hz
    // rebuilds the grid under it).
    for _ in 0..4 {
        h.get_by_role_and_label(Role::Slider, "Tick").focus();
        h.run();
        h.key_press(egui::Key::ArrowRight);
        h.run();
    }
    h.get_by_label_contains("tick 50.00 ms is above this rope's stable step");
    h.get_by_label("Add substeps").click();
    h.run();
    let run = h.state_mut();
    assert_eq!(run.session.tick_warning(), None);
    let substeps: Vec<u64> = run
        .session
        .lanes()
        .iter()
        .map(|l| l.policy().substeps_per_tick())
        .collect();
    assert!(substeps[1..].iter().all(|&n| n > 1), "{substeps:?}");
}

/// The second trial: the warning appeared above the knobs and pushed the tick slider down,
/// so a second click where it had been missed it. It appears under the tick now.
#[test]
fn the_warning_leaves_the_tick_slider_where_it_was() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    let before = h.get_by_role_and_label(Role::Slider, "Tick").rect();
    h.get_by_role_and_label(Role::Slider, "Tick").focus();
    h.run();
    h.key_press(egui::Key::ArrowRight);
    h.key_press(egui::Key::ArrowRight);
    h.run();
    h.run();
    assert!(
        h.state().session.tick_warning().is_some(),
        "60 Hz is above Euler's bound"
    );
    h.get_by_label_contains("above this rope's stable step");
    let after = h.get_by_role_and_label(Role::Slider, "Tick").rect();
    assert_eq!(before.top(), after.top(), "{before:?} -> {after:?}");
}

#[test]
fn switch_to_rk4_is_offered_only_where_rk4_is_stable_at_the_tick() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    // Stops along the slider: 1 ms, 120, 60, 30, 20, 10 Hz.
    let at_stop = |h: &mut Harness<'static, Run>, stop: usize| {
        h.get_by_role_and_label(Role::Slider, "Tick").focus();
        h.run();
        h.key_press(egui::Key::Home);
        for _ in 0..stop {
            h.key_press(egui::Key::ArrowRight);
        }
        h.run();
    };
    // 60 Hz: above Euler's stable step (15.07 ms), within RK4's.
    at_stop(&mut h, 2);
    h.get_by_label_contains("above this rope's stable step");
    assert!(h.query_by_label("Switch to RK4").is_some());
    // 10 Hz: above both; only substeps are offered, and the warning says RK4 will not do.
    at_stop(&mut h, 5);
    h.get_by_label_contains("RK4 is unstable at it too");
    assert!(h.query_by_label("Switch to RK4").is_none());
    h.get_by_label("Add substeps");
}

/// The trial: the focused lane on RK4, the others on Euler, at 60 Hz. The panel said Euler's
/// warning and offered RK4 as if it were about the RK4 lane. Now it names the lanes it is
/// about, and its RK4 button switches those, not the others.
#[test]
fn the_warning_names_its_lanes_and_a_fix_is_offered_only_where_it_changes_something() {
    use crate::app::bindings::Action;
    use timestep_lab::model::rope::Integrator;
    let cfg = config(LaneSpec::every_mode(), RopeParams::default());
    let mut run = Run::new(Mode::Fixed);
    run.session = Session::new(&cfg, 1280, 800).unwrap_or_else(|e| panic!("{e}"));
    // 60 Hz, then lane 2 (semi-fixed) focused and switched to RK4.
    run.session.handle_action(Action::TickLonger);
    run.session.handle_action(Action::TickLonger);
    run.session.handle_action(Action::NextLane);
    run.session.handle_action(Action::ToggleIntegrator);
    let integrators = |run: &Run| -> Vec<Option<Integrator>> {
        run.session.lanes().iter().map(|l| l.integrator()).collect()
    };
    let (euler, rk4) = (Some(Integrator::Euler), Some(Integrator::Rk4));
    assert_eq!(integrators(&run), [euler, rk4, euler, euler]);
    let mut h = harness(run);
    h.run();
    h.get_by_label_contains("Lanes 3 fixed, 4 interpolated: tick 16.67 ms");
    assert!(h.query_by_label_contains("2 semi-fixed").is_none());
    h.get_by_label("Switch to RK4").click();
    h.run();
    h.run();
    // Only the lanes it was about changed; nothing is unstable now, so nothing is offered.
    assert_eq!(integrators(h.state()), [euler, rk4, rk4, rk4]);
    assert_eq!(h.state().session.tick_warning(), None);
    assert!(h.query_by_label("Switch to RK4").is_none());
    assert!(h.query_by_label("Add substeps").is_none());
    // 20 Hz: above RK4's stable step too; RK4 changes nothing there and is not offered.
    for _ in 0..2 {
        h.state_mut().session.handle_action(Action::TickLonger);
    }
    h.run();
    h.get_by_label_contains("with RK4");
    assert!(h.query_by_label("Switch to RK4").is_none());
    h.get_by_label("Add substeps").click();
    h.run();
    h.run();
    assert_eq!(h.state().session.tick_warning(), None);
}

#[test]
fn every_knob_is_found_by_its_name_and_the_panel_key_hides_them_all() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    let names: Vec<&str> = h
        .state()
        .session
        .knobs()
        .iter()
        .map(|(k, _)| k.name)
        .collect();
    for name in &names {
        assert!(h.query_all_by_label(name).count() > 0, "{name}");
    }
    for name in ["Tick", "Clamp", "Max steps", "View", "Pause", "Lesson"] {
        assert!(names.contains(&name), "{name}");
    }
    h.state_mut().session.handle_action(Action::TogglePanel);
    h.run();
    assert!(h.query_by_label("Tick").is_none());
}

#[test]
fn every_figure_the_hud_shows_has_a_tooltip_one_lane_or_several_live_or_replayed() {
    use timestep_lab::view::draw::{CaptureCaption, HudInfo, LaneRow};
    for lanes in [1, 4] {
        for capture in [
            None,
            Some(CaptureCaption {
                name: "run.csv".into(),
                frame: 2,
                frames: 9,
            }),
        ] {
            let hud = HudInfo {
                lanes: vec![LaneRow::default(); lanes],
                input: "1.0 ms, mean 1.0".into(),
                capture,
                ..HudInfo::default()
            };
            for cell in hud.cells().into_iter().flatten() {
                assert!(!hud_tip(cell.label).is_empty(), "{}", cell.label);
            }
        }
    }
}

#[test]
fn the_hud_figures_are_found_by_name_in_the_window_s_egui() {
    let session = Run::new(Mode::Fixed).session;
    let hud = timestep_lab::view::draw::HudInfo::new(&[session.focused()]);
    let mut h = Harness::new_ui(|ui| super::hud(ui.ctx(), &hud));
    h.run();
    for label in ["mode", "steps", "alpha", "drift", "dropped", "energy"] {
        h.get_by_label(label);
    }
    h.get_by_label(&session.focused().name());
}

#[test]
fn the_view_choice_and_pause_checkbox_do_what_v_o_and_p_do_and_show_one_view() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    assert!(!h.state().session.overlay());
    let view = |h: &Harness<'static, Run>| {
        let knobs = h.state().session.knobs();
        let k = knobs.into_iter().find(|(k, _)| k.name == "View");
        k.map(|(_, o)| o.list[o.current].0.clone())
    };
    assert_eq!(view(&h).as_deref(), Some("single"));
    choose(&mut h, "View", "overlay");
    let session = &h.state().session;
    assert!(session.overlay());
    // One lane forks into the four modes, as `O` does.
    let lane = session.knobs().into_iter().find(|(k, _)| k.name == "Lane");
    assert_eq!(lane.map(|(_, o)| o.list.len()), Some(Mode::ALL.len()));
    // One view at a time: overlaid is neither split nor single.
    assert_eq!(view(&h).as_deref(), Some("overlay"));
    h.state_mut().session.handle_action(Action::ToggleSplit);
    h.run();
    assert_eq!(view(&h).as_deref(), Some("split"));
    choose(&mut h, "View", "single");
    assert!(!h.state().session.overlay() && h.state().session.layout().areas.len() == 1);
    h.get_by_role_and_label(Role::CheckBox, "Pause").click();
    h.run();
    assert!(h.state().session.paused());
    h.get_by_role_and_label(Role::CheckBox, "Pause").click();
    h.run();
    assert!(!h.state().session.paused());
}

#[test]
fn the_panel_grows_with_its_contents_down_to_the_strip_rather_than_scroll() {
    let mut h = harness(Run::new(Mode::Fixed));
    h.run();
    // A stability warning and its fixes appear above the knobs: the panel must grow (it has
    // the room at 1280x800), not push the Legend out of sight.
    h.get_by_role_and_label(Role::Slider, "Tick").focus();
    h.run();
    for _ in 0..5 {
        h.key_press(egui::Key::ArrowRight);
    }
    for _ in 0..3 {
        h.run();
    }
    h.get_by_label_contains("above this rope's stable step");
    let panel = h.ctx.memory(|m| m.area_rect(egui::Id::new(PANEL_ID)));
    let panel = panel.unwrap_or_else(|| panic!("the panel is shown"));
    let legend = h.get_by_label("Legend").rect();
    assert!(
        legend.bottom() <= panel.bottom(),
        "the Legend ends at {} under the panel's bottom {}",
        legend.bottom(),
        panel.bottom()
    );
}

#[test]
fn with_every_lesson_the_panel_keeps_its_width_and_the_top_bar_stays_clear_of_it() {
    use timestep_lab::view::lessons::LESSONS;
    // The window's egui: the HUD's text, then the panel, as `Gui::prepare` runs them.
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(
            |ui, run: &mut Run| {
                let view = run.session.panel_view();
                super::hud(ui.ctx(), &run.session.hud("FifoRelaxed (vsync)"));
                for change in show(ui.ctx(), &view, &run.panel) {
                    run.session.apply(change);
                }
                run.panel
                    .refused(run.session.refused().map(ToString::to_string));
            },
            Run::new(Mode::Fixed),
        );
    h.run();
    let width = covered_width(&h.ctx, true);
    // At 1280 px the bar fits left of the panel; at 1000 and 800 it wraps to fit.
    for (n, size) in (0..=LESSONS.len()).flat_map(|n| [(n, 1280.0), (n, 1000.0), (n, 800.0)]) {
        h.set_size(egui::vec2(size, 800.0));
        let lesson = Setting::Lesson((n > 0).then_some(n));
        h.state_mut().session.apply(lesson);
        assert!(h.state().session.refused().is_none(), "lesson {n}");
        for _ in 0..3 {
            h.run();
        }
        assert_eq!(covered_width(&h.ctx, true), width, "lesson {n}, {size} px");
        let area = |id: &str| h.ctx.memory(|m| m.area_rect(egui::Id::new(id)));
        let (Some(bar), Some(panel)) = (area(HUD_ID), area(PANEL_ID)) else {
            panic!("lesson {n}: the HUD and the panel are drawn");
        };
        // The bar's last item of its first line, and the whole bar, left of the panel.
        let particles = h.get_by_label("particles").rect();
        assert!(
            particles.right() < panel.left() && bar.right() <= panel.left(),
            "lesson {n}, {size} px: the bar ends at {}, 'particles' at {}, the panel at {}",
            bar.right(),
            particles.right(),
            panel.left()
        );
    }
}

/// The trial: pausing added "PAUSED" to the bar, which wrapped to another row, and every pane
/// jumped down; the first key press added the input row and did the same.
#[test]
fn the_huds_bar_keeps_its_height_paused_and_after_the_first_input() {
    let session = crate::app::session::tests::plain_launch();
    let lanes: Vec<&timestep_lab::model::lane::Lane> = session.lanes().iter().collect();
    let live = timestep_lab::view::draw::HudInfo {
        fps: 36.4,
        frame_ms: 27.5,
        pacing: "vsync".into(),
        present_mode: "FifoRelaxed (vsync)".into(),
        ..timestep_lab::view::draw::HudInfo::new(&lanes)
    };
    let paused = timestep_lab::view::draw::HudInfo {
        paused: true,
        rewound: 12,
        ..live.clone()
    };
    let typed = timestep_lab::view::draw::HudInfo {
        input: "31.2 ms, mean 30.8".into(),
        ..live.clone()
    };
    // 864 points wide with the panel hidden, and 1280 beside the panel's 356.
    for width in [864.0, 924.0] {
        let height = |hud: &timestep_lab::view::draw::HudInfo| {
            let hud = hud.clone();
            let mut h = Harness::builder()
                .with_size([width, 540.0])
                .build_ui(move |ui| super::hud(ui.ctx(), &hud));
            h.run();
            h.run();
            super::hud_height(&h.ctx, true)
        };
        let (a, b, c) = (height(&live), height(&paused), height(&typed));
        assert!(a > 0);
        assert_eq!(
            (b, c),
            (a, a),
            "{width}: live {a}, paused {b}, after input {c}"
        );
    }
}

/// The trial: after the one-lane view (a column of figures), the split view's bar stayed a
/// column of nine rows; and in a narrow room (777 px with the panel shown) the bar wrapped
/// to a column too. The bar takes three rows a line at most.
#[test]
fn the_bar_takes_three_rows_a_line_at_most_after_a_column_and_in_a_narrow_room() {
    use timestep_lab::view::draw::HudInfo;
    let session = crate::app::session::tests::plain_launch();
    let lanes: Vec<&timestep_lab::model::lane::Lane> = session.lanes().iter().collect();
    let (bar, column) = (HudInfo::new(&lanes), HudInfo::new(&lanes[..1]));
    for width in [1280.0, 420.0] {
        // (whether the bar is shown, the bar, the one lane's column)
        let state = (false, bar.clone(), column.clone());
        let mut h = Harness::builder().with_size([width, 540.0]).build_ui_state(
            |ui, (bar_shown, bar, column): &mut (bool, HudInfo, HudInfo)| {
                super::hud(ui.ctx(), if *bar_shown { bar } else { column });
            },
            state,
        );
        h.run();
        h.state_mut().0 = true;
        h.run();
        h.run();
        // The bar's two lines in five rows at most (about 19 points a row, and its frame's
        // margins): not the column's nine or more.
        let rows = f64::from(super::hud_height(&h.ctx, true)) / 19.0;
        assert!(rows > 1.0 && rows < 7.0, "{width}: {rows:.1} rows");
    }
}

/// The second trial: in a 777x486 window one lane's HUD, a column of fourteen rows, ran into
/// a lesson's caption and over the rope. In a short window it is a bar across the top, which
/// the single view lays its rope under.
#[test]
fn in_a_short_window_one_lanes_hud_is_a_bar_of_a_few_rows() {
    let session = Run::new(Mode::Fixed).session;
    let hud = timestep_lab::view::draw::HudInfo::new(&[session.focused()]);
    for (size, bar) in [([777.0, 486.0], true), ([1280.0, 800.0], false)] {
        let shown = hud.clone();
        let mut h = Harness::builder()
            .with_size(size)
            .build_ui(move |ui| super::hud(ui.ctx(), &shown));
        h.run();
        h.run();
        assert_eq!(super::hud_is_bar(&h.ctx, &hud), bar, "{size:?}");
        let area = h.ctx.memory(|m| m.area_rect(egui::Id::new(HUD_ID)));
        let height = area.map_or(0.0, |r| r.height());
        match bar {
            // Its fourteen figures in five rows or fewer (about 19 points a row).
            true => assert!(height < 6.0 * 19.0, "{height}"),
            false => assert!(height > 12.0 * 19.0, "{height}"),
        }
    }
}
