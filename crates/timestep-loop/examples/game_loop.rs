//! A whole game loop around a preset, in plain std: a ball thrown up under gravity, stepped by
//! Bevy's loop (64 Hz fixed steps, frames clamped at 250 ms) and drawn by a fake renderer that
//! blends the last two states with the loop's alpha. The display is a sleep to the next 60 Hz
//! frame, with one long frame halfway through to show the clamp at work.
//!
//! `cargo run --release -p timestep-loop --example game_loop [PRESET|MODE]`

use std::time::Duration;
use timestep_loop::{Clock, FrameClock, Loop, LoopSpec, Pacer, Pacing, PolicyEnv, SystemClock};

/// The world: a ball's height and speed, m and m/s.
#[derive(Clone, Copy, Debug)]
struct Ball {
    y: f64,
    v: f64,
}

impl Ball {
    /// One fixed step of `dt` seconds (semi-implicit Euler).
    fn update(&mut self, dt: f64) {
        self.v -= 9.81 * dt;
        self.y += self.v * dt;
        if self.y < 0.0 {
            self.y = -self.y;
            self.v = -self.v * 0.9;
        }
    }
}

/// The fake renderer: what a game would draw, the state between the last two steps.
fn render(frame: u64, previous: Ball, current: Ball, alpha: f64) -> f64 {
    let y = previous.y + (current.y - previous.y) * alpha;
    if frame.is_multiple_of(30) {
        let bar = "#".repeat((y * 8.0).round().clamp(0.0, 60.0) as usize);
        println!("frame {frame:>3}  y {y:5.2} m  {bar}");
    }
    y
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let name = std::env::args().nth(1).unwrap_or_else(|| "bevy".into());
    let spec = LoopSpec::parse(&name)?;
    let env = PolicyEnv::default();
    let mut lp = Loop::new(spec, &env)?;
    println!("{name}: {}", lp.policy());

    let mut clock = FrameClock::new(SystemClock::new());
    let mut pacer = Pacer::new(Pacing::Cap(60.0), Some(60.0));
    let (mut previous, mut current) = (Ball { y: 5.0, v: 0.0 }, Ball { y: 5.0, v: 0.0 });
    for frame in 0..120u64 {
        // Read the clock once a frame; everything after is arithmetic on what it said.
        let (measured_ns, now_ns) = clock.tick();
        let frame_ns = pacer.begin(now_ns, measured_ns);
        lp.begin_frame(frame_ns);
        while let Some(step) = lp.next_step() {
            previous = current;
            current.update(f64::from(step.dt_s()));
        }
        render(frame, previous, current, lp.last_frame().alpha);
        if frame == 60 {
            // A hitch: the next frame measures 400 ms, and the clamp drops what is past 250.
            std::thread::sleep(Duration::from_millis(400));
        }
        let wait = pacer.end(clock.clock_mut().now_ns());
        std::thread::sleep(Duration::from_nanos(wait));
    }
    let s = lp.stepper();
    println!(
        "{} ticks over {:.3} s of frames; {:.1} ms dropped by the clamp; the books balance: \
         {} measured = {} consumed + {} dropped + {} waiting",
        s.steps_total(),
        timestep_loop::seconds(s.measured_ns()),
        timestep_loop::millis(s.dropped_ns()),
        s.measured_ns(),
        s.consumed_ns(),
        s.dropped_ns(),
        s.remainder_ns(),
    );
    Ok(())
}
