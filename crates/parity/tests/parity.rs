//! Our `bevy` and `game-loop` presets against the real crates, and our `glaiel` preset against
//! a model of `frame_timer.cpp` written from its rules ([`frame_timer`]), frame by frame: the
//! same frame times in, the same number of ticks out on every frame. Each sequence reports the
//! frames that differ; the target, and the assertion, is none.

mod frame_timer;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::resource::Resource;
use bevy_ecs::system::ResMut;
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use game_loop::{GameLoop, TimeTrait};
use std::cell::Cell;
use std::time::Duration;
use timestep_loop::{Loop, LoopSpec, PolicyEnv, Preset};

const S: u64 = 1_000_000_000;

/// Frame times of a display of `num / den` Hz on a clock of whole ns: frame k ends at
/// `round(k × 1 s × den / num)`.
fn steady(num: u64, den: u64, frames: u64) -> Vec<u64> {
    let end = |k: u64| (k * S * den + num / 2) / num;
    (1..=frames).map(|k| end(k) - end(k - 1)).collect()
}

/// A small seeded generator (SplitMix64), so the sequences need no dependency.
fn splitmix(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 60 Hz frames moved by up to ±2 ms each (the present, not the period, moves).
fn jittered(frames: u64, seed: u64) -> Vec<u64> {
    let mut rng = seed;
    let ends: Vec<u64> = (0..=frames)
        .map(|k| {
            let nominal = (k * S + 30) / 60 + 2_000_000;
            nominal + splitmix(&mut rng) % 4_000_001 - 2_000_000
        })
        .collect();
    ends.windows(2).map(|w| w[1].saturating_sub(w[0])).collect()
}

/// 60 Hz frames with a stall of `stall_ns` added to frame `at`.
fn stalled(frames: u64, at: usize, stall_ns: u64) -> Vec<u64> {
    let mut v = steady(60, 1, frames);
    v[at] += stall_ns;
    v
}

/// Blocks of 100 frames at 50 Hz and at 60 Hz in turn.
fn mixed_50_60(blocks: u64) -> Vec<u64> {
    (0..blocks)
        .flat_map(|b| {
            if b % 2 == 0 {
                steady(50, 1, 100)
            } else {
                steady(60, 1, 100)
            }
        })
        .collect()
}

/// The frame times of the busiest application in PresentMon's gold capture test_case_0
/// (`TimeInQPC`, 100 ns ticks), in ns.
fn presentmon() -> Vec<u64> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/presentmon/test_case_0.csv"
    );
    let text = std::fs::read_to_string(path).expect("the gold capture is in the repository");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim_start_matches('\u{feff}') == name)
    };
    let (app, qpc) = (col("Application").unwrap(), col("TimeInQPC").unwrap());
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let busiest = {
        let mut counts = std::collections::BTreeMap::<&str, usize>::new();
        for r in &rows {
            *counts.entry(r[app]).or_default() += 1;
        }
        counts
            .into_iter()
            .max_by_key(|&(_, n)| n)
            .map(|(a, _)| a)
            .unwrap()
    };
    let times: Vec<u64> = rows
        .iter()
        .filter(|r| r[app] == busiest)
        .map(|r| r[qpc].parse::<u64>().unwrap() * 100)
        .collect();
    times.windows(2).map(|w| w[1] - w[0]).collect()
}

/// Every sequence, named.
fn sequences() -> Vec<(&'static str, Vec<u64>)> {
    vec![
        ("steady 60 Hz", steady(60, 1, 3_600)),
        ("steady 59.94 Hz", steady(5_994, 100, 3_600)),
        ("steady 144 Hz", steady(144, 1, 5_761)),
        ("50/60 Hz mix", mixed_50_60(20)),
        ("60 Hz, ±2 ms jitter", jittered(3_600, 7)),
        ("60 Hz, 300 ms stall", stalled(600, 300, 300_000_000)),
        ("60 Hz, 1 s stall", stalled(600, 300, S)),
        ("1 ms frames", steady(1_000, 1, 20_001)),
        ("PresentMon test_case_0", presentmon()),
    ]
}

/// Ticks per frame of our preset.
fn ours(preset: Preset, frames: &[u64]) -> Vec<u64> {
    ours_on(preset, frames, None)
}

/// Ticks per frame of our preset, told the display's nominal rate is `hint_hz` (or not told).
fn ours_on(preset: Preset, frames: &[u64], hint_hz: Option<f64>) -> Vec<u64> {
    let env = PolicyEnv::default().with_refresh_hint(hint_hz);
    let mut lp = Loop::new(LoopSpec::preset(preset), &env).unwrap();
    frames
        .iter()
        .map(|&f| u64::from(lp.advance_ns(f, |_| {}).steps))
        .collect()
}

/// Frames whose tick counts differ, reported per sequence.
fn differing(name: &str, a: &[u64], b: &[u64]) -> usize {
    assert_eq!(a.len(), b.len(), "{name}");
    let n = a.iter().zip(b).filter(|(x, y)| x != y).count();
    eprintln!("{name}: {n} of {} frames differ", a.len());
    n
}

thread_local! {
    /// The fake clock game-loop reads, ns.
    static NOW_NS: Cell<u64> = const { Cell::new(0) };
}

/// game-loop's time source, read from [`NOW_NS`]: differences as `Duration::as_secs_f64`,
/// as its own `Instant`-backed `Time` computes them.
#[derive(Clone, Copy)]
struct FakeTime(u64);

impl TimeTrait for FakeTime {
    fn now() -> Self {
        FakeTime(NOW_NS.with(Cell::get))
    }
    fn sub(&self, other: &Self) -> f64 {
        Duration::from_nanos(self.0 - other.0).as_secs_f64()
    }
    fn supports_sleep() -> bool {
        false
    }
    fn sleep(_seconds: f64) {}
}

/// Ticks per frame of the real game-loop 1.1.0: `GameLoop::new(game, 60, 0.1, window)`, as in
/// its README, one `next_frame` per frame.
fn game_loop_ticks(frames: &[u64]) -> Vec<u64> {
    NOW_NS.with(|c| c.set(0));
    let mut g: GameLoop<(), FakeTime, ()> = GameLoop::new((), 60, 0.1, ());
    frames
        .iter()
        .map(|&f| {
            NOW_NS.with(|c| c.set(c.get() + f));
            let before = g.number_of_updates();
            g.next_frame(|_| {}, |_| {});
            g.number_of_updates() - before
        })
        .collect()
}

#[derive(Resource, Default)]
struct Ticks(u64);

fn count(mut ticks: ResMut<Ticks>) {
    ticks.0 += 1;
}

/// Ticks per frame of the real Bevy 0.19.1: an `App` with `TimePlugin` (`Time<Fixed>` 64 Hz,
/// `Time<Virtual>` max delta 250 ms), a `FixedUpdate` system counting, and each frame's time
/// given as `TimeUpdateStrategy::ManualDuration`. Bevy's first update only starts its clock,
/// so one update runs before the frames.
fn bevy_ticks(frames: &[u64]) -> Vec<u64> {
    let mut app = App::new();
    app.add_plugins(TimePlugin)
        .init_resource::<Ticks>()
        .add_systems(FixedUpdate, count)
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    app.update();
    frames
        .iter()
        .map(|&f| {
            app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(f)));
            let before = app.world().resource::<Ticks>().0;
            app.update();
            app.world().resource::<Ticks>().0 - before
        })
        .collect()
}

#[test]
fn the_game_loop_preset_ticks_as_game_loop_1_1_0_on_every_frame() {
    let mut total = 0;
    for (name, frames) in sequences() {
        let real = game_loop_ticks(&frames);
        total += differing(
            &format!("game-loop, {name}"),
            &ours(Preset::GameLoop, &frames),
            &real,
        );
    }
    assert_eq!(total, 0, "frames that differ from game-loop 1.1.0");
}

#[test]
fn the_bevy_preset_ticks_as_bevy_0_19_1_on_every_frame() {
    let mut total = 0;
    for (name, frames) in sequences() {
        let real = bevy_ticks(&frames);
        total += differing(
            &format!("bevy, {name}"),
            &ours(Preset::Bevy, &frames),
            &real,
        );
    }
    assert_eq!(total, 0, "frames that differ from Bevy 0.19.1");
}

#[test]
fn the_glaiel_preset_ticks_as_frame_timer_cpp_on_every_frame() {
    // Every sequence on a display whose rate the loop is not told (SDL reports none: 60 Hz)
    // and on displays of 50, 59.94 (SDL: 60) and 144 Hz, whatever the frames say; and a stall
    // to a 141.7 ms frame, over 8 ticks (133.3 ms) but not 8 periods of 50 Hz (160 ms): the
    // limits count in ticks (lines 48, 83).
    let mut total = 0;
    let mut all = sequences();
    all.push(("60 Hz, 125 ms stall", stalled(600, 300, 125_000_000)));
    for (name, frames) in all {
        let ends = frame_timer::ends_of(&frames);
        for hint in [None, Some(50.0), Some(59.94), Some(144.0)] {
            let real = frame_timer::ticks(&ends, hint.map(frame_timer::sdl_refresh_rate));
            let told = hint.map_or("no rate".into(), |hz| format!("told {hz} Hz"));
            total += differing(
                &format!("glaiel, {name}, {told}"),
                &ours_on(Preset::Glaiel, &frames, hint),
                &real,
            );
        }
    }
    assert_eq!(total, 0, "frames that differ from frame_timer.cpp");
}
