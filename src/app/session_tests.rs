use super::*;
use crate::draw::View;
use crate::rope::Pin;
use crate::rope::Rope;
use crate::timing::Pacing;
use crate::timing::TimingConfig;
use crate::watch::RESET_AFTER_NS;

const MS: u64 = 1_000_000;

/// What the tests look at; the window itself needs none of it.
impl Session {
    /// The focused lane's mode.
    pub fn mode(&self) -> Mode {
        self.focused().mode()
    }

    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// The focused lane's rope.
    pub fn rope(&self) -> &Rope {
        self.focused().rope()
    }

    pub fn split(&self) -> bool {
        self.split
    }

    pub fn hud_shown(&self) -> bool {
        self.show_hud
    }

    pub fn help_shown(&self) -> bool {
        self.show_help
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The view the focused lane is drawn with.
    pub fn view(&self) -> &View {
        let pane = if self.split { self.focus } else { 0 };
        &self.layout.views[pane]
    }

    /// The particle the mouse holds (in every rope), if any.
    pub fn grabbed(&self) -> Option<usize> {
        self.hand.held()
    }

    /// How many times the focused lane's rope has exploded since the window opened.
    pub fn explosions(&self) -> u64 {
        self.focused().watch().explosions()
    }

    /// The positions the last [`Session::draw`] handed to the renderer for pane `i` (the
    /// blend where the lane's mode blends, its rope's latest state otherwise).
    pub fn drawn_positions(&self, i: usize) -> &[Vec2] {
        self.panes.shown(i)
    }
}

fn config(lanes: Vec<LaneSpec>, rope: RopeParams) -> WindowConfig {
    WindowConfig {
        timing: TimingConfig::new(MS, 250 * MS, None).unwrap(),
        rope,
        lanes,
        max_substep: Default::default(),
        vsync: true,
        pacing: Pacing::Vsync,
        exit_after_ns: None,
        screenshot: None,
        frame_log: None,
    }
}

fn session(mode: Mode) -> Session {
    let cfg = config(vec![LaneSpec::mode(mode)], RopeParams::default());
    Session::new(&cfg, 1280, 800)
}

fn split() -> Session {
    Session::new(
        &config(LaneSpec::every_mode(), RopeParams::default()),
        1280,
        800,
    )
}

fn explode(s: &mut Session, now: &mut u64, step: u64) {
    while !s.rope().exploded() {
        *now += step;
        s.advance(step, *now);
        assert!(*now < 60_000 * MS, "never exploded");
    }
}

#[test]
fn the_mode_key_cycles_through_all_four_modes_and_the_title_follows() {
    let mut s = session(Mode::Variable);
    let mut titles = vec![s.title()];
    for _ in 0..4 {
        s.handle_action(Action::CycleMode);
        titles.push(s.title());
    }
    assert_eq!(
        titles,
        [
            "timestep-rope — variable",
            "timestep-rope — semi-fixed",
            "timestep-rope — fixed",
            "timestep-rope — interpolated",
            "timestep-rope — variable",
        ]
    );
    s.handle_action(Action::Pick(1));
    assert_eq!(s.mode(), Mode::SemiFixed);
}

#[test]
fn a_frame_in_fixed_mode_takes_whole_steps_and_reports_them() {
    let mut s = session(Mode::Fixed);
    let r = s.advance(16_500_000, 16_500_000);
    assert_eq!(r.rows.len(), 1);
    assert_eq!(r.rows[0].steps, 16);
    assert_eq!(r.rows[0].alpha, 0.5);
    assert_eq!(s.rope().steps(), 16);
    // Fixed shows the current state at 16 ms after 16.5 ms of running.
    assert!((r.rows[0].drift_ms - -0.5).abs() < 1e-9, "{:?}", r.rows);
    let starts = vec!["16.500"; 16].join(" ");
    assert_eq!(
        r.rows[0].csv(),
        format!("0.016500,16.500,fixed,16,0.5000,-0.500,0,vsync,,{starts}")
    );
}

#[test]
fn paused_frames_do_not_step_and_their_time_is_discarded() {
    let mut s = session(Mode::Fixed);
    s.advance(10 * MS, 10 * MS);
    s.handle_action(Action::Pause);
    let r = s.advance(5_000 * MS, 5_010 * MS);
    assert_eq!((r.rows[0].steps, r.paused), (0, true));
    assert_eq!(s.rope().steps(), 10);
    s.handle_action(Action::Pause);
    let r = s.advance(10 * MS, 5_020 * MS);
    assert_eq!(r.rows[0].steps, 10);
    assert_eq!(
        s.focused().stepper().dropped_ns(),
        0,
        "pausing must not look like a stall"
    );
    assert_eq!(r.rows[0].drift_ms, 0.0);
}

/// Feeds the session the frame times of `simulate`'s display for `display`, as the window's
/// clock would, and returns each lane's final state hash.
fn through_the_window(s: &mut Session, display: &crate::simulate::DisplayConfig) -> Vec<String> {
    let mut d = crate::simulate::Display::new(display.clone());
    while let Some(frame) = d.begin_frame() {
        s.advance(frame, d.now_ns());
        d.present(0);
    }
    s.lanes()
        .iter()
        .map(|l| format!("{:016x}", l.rope().state_hash()))
        .collect()
}

#[test]
fn the_window_steps_every_lane_bit_for_bit_as_simulate_does() {
    use crate::simulate::{DisplayConfig, SimConfig, run};
    let display = DisplayConfig {
        display_hz: 59.94,
        jitter_ns: MS / 2,
        duration_ns: 3_000 * MS,
        ..Default::default()
    };
    let cfg = SimConfig {
        timing: TimingConfig::new(MS, 250 * MS, None).unwrap(),
        rope: RopeParams::default(),
        display: display.clone(),
        lanes: LaneSpec::every_mode(),
        max_substep: Default::default(),
        draw: None,
    };
    let simulated: Vec<String> = run(&cfg, |_| {})
        .into_iter()
        .map(|(r, _)| r.state_hash)
        .collect();
    // The same frame times, through the window's session instead: all four lanes at once.
    assert_eq!(through_the_window(&mut split(), &display), simulated);
}

#[test]
fn explosions_and_resets_leave_the_window_and_simulate_in_the_same_state() {
    // 20 Hz variable steps explode within a frame or two; each explosion is reset 2 s later by
    // the one reset rule both share. Ten seconds is several explode-and-reset cycles.
    use crate::simulate::{DisplayConfig, SimConfig, run};
    let display = DisplayConfig {
        display_hz: 20.0,
        duration_ns: 10_000 * MS,
        ..Default::default()
    };
    let lanes = vec![LaneSpec::mode(Mode::Variable), LaneSpec::mode(Mode::Fixed)];
    let cfg = SimConfig {
        timing: TimingConfig::new(MS, 250 * MS, None).unwrap(),
        rope: RopeParams::default(),
        display: display.clone(),
        lanes: lanes.clone(),
        max_substep: Default::default(),
        draw: None,
    };
    let runs = run(&cfg, |_| {});
    let explosions = runs[0].0.explosions;
    assert!(explosions >= 3, "{explosions}");
    let simulated: Vec<String> = runs.into_iter().map(|(r, _)| r.state_hash).collect();
    let mut s = Session::new(&config(lanes, RopeParams::default()), 1280, 800);
    assert_eq!(through_the_window(&mut s, &display), simulated);
    assert_eq!(s.lanes()[0].watch().explosions(), explosions);
}

#[test]
fn v_splits_one_lane_into_the_four_modes_from_the_same_state_and_back() {
    let mut s = session(Mode::Fixed);
    for i in 1..=20 {
        s.advance(16_666_667, i * 16_666_667);
    }
    let hash = s.rope().state_hash();
    s.handle_action(Action::ToggleSplit);
    assert!(s.split());
    let modes: Vec<Mode> = s.lanes().iter().map(Lane::mode).collect();
    assert_eq!(modes, Mode::ALL);
    assert!(s.lanes().iter().all(|l| l.rope().state_hash() == hash));
    assert_eq!(
        s.mode(),
        Mode::Fixed,
        "the lane you were on keeps the focus"
    );
    assert_eq!(
        s.title(),
        "timestep-rope — split view: variable | semi-fixed | fixed | interpolated"
    );
    assert_eq!(s.layout().areas.len(), 4);
    // 2 shows lane 2 alone; V goes back to the split view.
    s.handle_action(Action::Pick(1));
    assert!(!s.split());
    assert_eq!(s.mode(), Mode::SemiFixed);
    assert!(
        s.title().contains("semi-fixed (lane 2 of 4"),
        "{}",
        s.title()
    );
    s.handle_action(Action::ToggleSplit);
    assert!(s.split() && s.lanes().len() == 4);
    // M moves the focus along the lanes; R resets every rope.
    s.handle_action(Action::CycleMode);
    assert_eq!(s.mode(), Mode::Fixed);
    s.advance(16 * MS, 400 * MS);
    s.handle_action(Action::Reset);
    assert!(s.lanes().iter().all(|l| l.rope().steps() == 0));
}

#[test]
fn a_drag_in_one_pane_moves_the_same_particle_of_all_four_ropes_identically() {
    let mut s = split();
    s.advance(MS, MS);
    let end = s.rope().len() - 1;
    // Grab the free end in the bottom-right pane (interpolated).
    let pane = 3;
    let view = s.layout().views[pane];
    let at = view.to_screen(s.lanes()[pane].rope().position(end));
    s.cursor_moved(at + Vec2::new(3.0, 3.0), MS);
    assert!(s.press(MS));
    assert_eq!(s.grabbed(), Some(end));
    let mut now = MS;
    for i in 1..=10 {
        now += 4 * MS;
        s.cursor_moved(at + Vec2::new(3.0 + 12.0 * i as f32, 3.0), now);
        s.advance(4 * MS, now);
    }
    let target = view.to_world(at + Vec2::new(123.0, 3.0));
    for lane in s.lanes() {
        assert!(
            (lane.rope().position(end) - target).length() < 1e-4,
            "{}",
            lane.name()
        );
    }
    s.release(now);
    let v: Vec<Vec2> = s.lanes().iter().map(|l| l.rope().velocity(end)).collect();
    assert!(v[0].x > 1.0, "{v:?}");
    assert!(
        v.iter().all(|&x| x == v[0]),
        "the same fling for all: {v:?}"
    );
}

#[test]
fn hiding_the_hud_gives_the_rope_its_column_and_showing_it_takes_it_back() {
    let mut s = session(Mode::Fixed);
    let beside = *s.view();
    s.handle_action(Action::ToggleHud);
    assert!(!s.hud_shown());
    assert!(
        s.view().scale > beside.scale,
        "the rope grows into the HUD's column"
    );
    s.handle_action(Action::ToggleHud);
    assert_eq!(*s.view(), beside);
}

#[test]
fn reset_restarts_the_rope_and_the_loop_clock_carries_on() {
    let mut s = session(Mode::Variable);
    s.advance(300 * MS, 300 * MS);
    let drift = s.focused().drift_ms();
    assert!(drift < 0.0, "the clamp dropped 50 ms");
    s.handle_action(Action::Reset);
    assert_eq!(s.rope().steps(), 0);
    assert_eq!(
        s.focused().drift_ms(),
        drift,
        "the loop's books are not the rope's"
    );
    assert_eq!(s.focused().stepper().dropped_ns(), 50 * MS);
}

#[test]
fn stall_hud_help_quit_and_cap_actions_set_their_flags() {
    let mut s = session(Mode::Fixed);
    assert!(!s.take_stall());
    s.handle_action(Action::Stall);
    assert!(s.take_stall());
    assert!(!s.take_stall(), "one stall per press");
    s.handle_action(Action::ToggleHud);
    assert!(!s.hud_shown());
    s.handle_action(Action::ToggleHelp);
    assert!(s.help_shown());
    s.handle_action(Action::CapUp);
    s.handle_action(Action::CapUp);
    assert_eq!(s.fps_cap(), Some(50.0));
    s.handle_action(Action::CapDown);
    assert_eq!(s.fps_cap(), Some(30.0));
    // C cycles the pacing (a cap gives way to vsync); the HUD says which.
    let mut seen = Vec::new();
    for _ in 0..3 {
        s.handle_action(Action::CyclePacing);
        seen.push(s.pacing());
    }
    assert_eq!(seen, [Pacing::Vsync, Pacing::Adaptive, Pacing::Late]);
    s.set_pacing_status(Some(16_806_723), 2);
    assert_eq!(s.hud("").pacing, "late 16.8ms 2 misses");
    assert!(!s.quit_requested());
    s.handle_action(Action::Quit);
    assert!(s.quit_requested());
}

#[test]
fn an_exploded_rope_counts_down_and_resets_two_wall_seconds_later() {
    // 60 ms variable steps are far past this rope's ~15 ms stability limit.
    let params = RopeParams {
        pin: Pin::One,
        damping_per_s: 0.0,
        ..RopeParams::default()
    };
    let cfg = config(vec![LaneSpec::mode(Mode::Variable)], params);
    let mut s = Session::new(&cfg, 800, 600);
    let mut now = 0;
    explode(&mut s, &mut now, 60 * MS);
    let exploded_at = now;
    assert_eq!(
        s.banner().as_deref(),
        Some("EXPLODED - resetting in 2.0 s (R now)")
    );
    now += 600 * MS;
    s.advance(60 * MS, now);
    assert_eq!(
        s.banner().as_deref(),
        Some("EXPLODED - resetting in 1.4 s (R now)")
    );
    assert!(s.hud("").lanes[0].exploded);
    s.advance(60 * MS, exploded_at + RESET_AFTER_NS);
    assert!(!s.rope().exploded());
    assert_eq!(s.banner(), None);
}

#[test]
fn r_resets_an_exploded_rope_at_once() {
    let mut s = session(Mode::Variable);
    let mut now = 0;
    explode(&mut s, &mut now, 100 * MS);
    s.advance(100 * MS, now + 1_500 * MS);
    assert_eq!(
        s.banner().as_deref(),
        Some("EXPLODED - resetting in 0.5 s (R now)")
    );
    s.handle_action(Action::Reset);
    assert!(!s.rope().exploded());
    now += 1_500 * MS + MS;
    let r = s.advance(MS, now);
    assert_eq!(s.banner(), None);
    assert!(!r.rows[0].exploded);
    // The pending countdown was cleared: the next explosion gets its full 2 s.
    explode(&mut s, &mut now, 100 * MS);
    assert_eq!(
        s.banner().as_deref(),
        Some("EXPLODED - resetting in 2.0 s (R now)")
    );
    assert_eq!(s.explosions(), 2);
}

#[test]
fn a_paused_explosion_keeps_its_countdown_until_resumed() {
    let mut s = session(Mode::Variable);
    let mut now = 0;
    explode(&mut s, &mut now, 100 * MS);
    now += 500 * MS;
    s.advance(500 * MS, now);
    assert_eq!(
        s.banner().as_deref(),
        Some("EXPLODED - resetting in 1.5 s (R now)")
    );
    s.handle_action(Action::Pause);
    for _ in 0..100 {
        now += 100 * MS;
        let r = s.advance(100 * MS, now);
        assert!(r.rows[0].exploded && r.paused);
    }
    assert_eq!(
        s.banner().as_deref(),
        Some("EXPLODED - resetting in 1.5 s (R now)")
    );
    s.handle_action(Action::Pause);
    now += 1_000 * MS;
    s.advance(1_000 * MS, now);
    assert_eq!(
        s.banner().as_deref(),
        Some("EXPLODED - resetting in 0.5 s (R now)")
    );
    now += 500 * MS;
    let r = s.advance(500 * MS, now);
    assert!(!r.rows[0].exploded && s.banner().is_none());
}

#[test]
fn variable_mode_at_20_hz_explodes_resets_and_never_draws_a_non_finite_position() {
    // 50 ms variable steps, far past the 15 ms stability limit: the window's own divergence
    // demo, ten seconds of it, every frame drawn.
    let mut s = session(Mode::Variable);
    let (w, h) = (160, 100);
    s.resize(w, h);
    let mut frame = vec![0u8; (w * h * 4) as usize];
    let mut exploded_frames = 0;
    let mut resets = 0;
    let mut was_exploded = false;
    for i in 1..=200u64 {
        let r = s.advance(50 * MS, i * 50 * MS);
        let row = &r.rows[0];
        assert!(row.drift_ms.is_finite() && row.alpha.is_finite(), "{r:?}");
        s.draw(&mut frame, w, h, "Fifo (vsync)");
        let drawn = s.drawn_positions(0);
        assert_eq!(drawn.len(), s.rope().len());
        assert!(
            drawn.iter().all(|p| p.is_finite()),
            "frame {i} drew a non-finite position: {drawn:?}"
        );
        assert_eq!(row.exploded, s.rope().exploded());
        assert_eq!(row.exploded, s.banner().is_some());
        exploded_frames += usize::from(row.exploded);
        resets += usize::from(was_exploded && !row.exploded);
        was_exploded = row.exploded;
    }
    assert!(s.explosions() >= 3, "only {} explosions", s.explosions());
    assert!(resets >= 3, "only {resets} automatic resets");
    // Each explosion is shown for 2 s = 40 frames before its reset.
    assert!(
        exploded_frames >= 40 * resets,
        "{exploded_frames} exploded frames"
    );
    // Interpolated mode blends previous and current: finite too, also right after a reset.
    s.handle_action(Action::Pick(3));
    for i in 201..=260u64 {
        s.advance(50 * MS, i * 50 * MS);
        s.draw(&mut frame, w, h, "Fifo (vsync)");
        assert!(s.drawn_positions(0).iter().all(|p| p.is_finite()));
    }
}

#[test]
fn dragging_a_particle_moves_it_and_releasing_flings_it() {
    let mut s = session(Mode::Fixed);
    let end = s.rope().len() - 1;
    let at = s.view().to_screen(s.rope().position(end));
    s.cursor_moved(at + Vec2::new(5.0, 5.0), 0);
    assert!(s.press(0));
    assert_eq!(s.grabbed(), Some(end));
    // Drag 100 px right over 40 ms, in 4 ms steps, stepping the rope as we go.
    let mut now = 0;
    for i in 1..=10 {
        now = i * 4 * MS;
        s.cursor_moved(at + Vec2::new(5.0 + 10.0 * i as f32, 5.0), now);
        s.advance(4 * MS, now);
    }
    let target = s.view().to_world(at + Vec2::new(105.0, 5.0));
    assert!((s.rope().position(end) - target).length() < 1e-4);
    s.release(now);
    assert_eq!(s.grabbed(), None);
    assert!(s.rope().grab().is_none());
    assert!(s.rope().velocity(end).x > 1.0, "{}", s.rope().velocity(end));
}

#[test]
fn a_press_far_from_the_rope_grabs_nothing_and_pins_cannot_be_grabbed() {
    let mut s = session(Mode::Fixed);
    s.cursor_moved(Vec2::new(1.0, 790.0), 0);
    assert!(!s.press(0));
    let pin = s.view().to_screen(s.rope().position(0));
    s.cursor_moved(pin, 0);
    assert_ne!(s.press(0).then(|| s.grabbed()).flatten(), Some(0));
}

#[test]
fn the_hud_reports_what_was_measured() {
    let mut s = session(Mode::Interpolated);
    s.advance(16_500_000, 16_500_000);
    let hud = s.hud("Fifo (vsync)");
    let lane = &hud.lanes[0];
    assert_eq!(lane.name, "interpolated");
    assert_eq!((lane.steps, hud.dt_ns, hud.max_steps), (16, MS, 250));
    assert!((hud.frame_ms - 16.5).abs() < 1e-9);
    assert_eq!(lane.alpha, 0.5);
    assert_eq!(hud.present_mode, "Fifo (vsync)");
    assert_eq!(hud.particles, RopeParams::default().particles);
    assert!(hud.fps > 60.0 && hud.fps < 61.0);
    // Interpolated shows t_prev + accumulator = 15.5 ms at 16.5 ms of running.
    assert!((lane.drift_ms + 1.0).abs() < 1e-9, "{}", lane.drift_ms);
    // The split view's HUD lists all four lanes.
    let mut s = split();
    s.advance(16_500_000, 16_500_000);
    let names: Vec<String> = s.hud("").lanes.into_iter().map(|l| l.name).collect();
    assert_eq!(names, ["variable", "semi-fixed", "fixed", "interpolated"]);
}

#[test]
fn drawing_with_any_buffer_size_does_not_panic() {
    for mut s in [session(Mode::Interpolated), split()] {
        s.advance(16 * MS, 16 * MS);
        let mut frame = vec![0u8; 64 * 48 * 4];
        s.resize(64, 48);
        s.draw(&mut frame, 64, 48, "Fifo (vsync)");
        s.draw(&mut [], 0, 0, "Fifo (vsync)");
        s.draw(&mut frame, 10, 10, "mismatch");
        s.resize(1, 1);
        let mut one = vec![0u8; 4];
        s.draw(&mut one, 1, 1, "tiny");
    }
}

#[test]
fn each_frame_logs_when_its_steps_began_and_the_input_it_showed() {
    let mut s = session(Mode::Fixed);
    let mut t = 1_000_000_000;
    let report = s.advance_timed(16_666_667, t, &mut || {
        t += 1_000;
        t
    });
    let row = &report.rows[0];
    assert_eq!(row.step_starts_ms.len(), row.steps as usize);
    assert!(row.steps >= 16);
    assert!(row.step_starts_ms.windows(2).all(|w| w[1] > w[0]));
    assert_eq!(row.pacing, "vsync");
    assert_eq!(s.hud("").input, "", "no input yet");
    s.input_shown(12_000_000);
    s.input_shown(8_000_000);
    assert_eq!(s.hud("").input, "8.0 ms, mean 10.0");
}
