//! A whole game loop around a preset, in plain std: a ball thrown up under gravity, stepped by
//! Bevy's loop (64 Hz fixed steps, frames clamped at 250 ms) and drawn by a fake renderer that
//! blends the last two states with the loop's alpha. The display is a sleep to the next 60 Hz
//! frame, with one long frame halfway through to show what the loop throws away: a clamp cuts
//! the frame (Bevy, Unity, MonoGame), a step cap the ticks it would run (Godot, which has no
//! clamp), and the closing line names which, from each frame's `FrameStats`.
//!
//! `cargo run --release -p timestep-loop --example game_loop [PRESET|MODE]`

use std::process::ExitCode;
use std::time::Duration;
use timestep_loop::{
    Clock, FrameClock, FrameStats, Loop, LoopSpec, Pacer, Pacing, PolicyEnv, Stepper, SystemClock,
};

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

/// Time the loop threw away, by what threw it away, ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Drops {
    /// Cut off a frame by the clamp on the frame time (measured − clamped).
    clamp_ns: u64,
    /// The rest of what a frame the step cap cut short dropped.
    cap_ns: u64,
    /// The rest of the other frames: a clamp on the accumulator, a resync, a fuzzy window.
    other_ns: u64,
}

impl Drops {
    /// Adds one finished frame's drops.
    fn add(&mut self, frame: &FrameStats) {
        let clamp = frame.measured_ns - frame.clamped_ns;
        let rest = frame.dropped_ns.saturating_sub(clamp);
        self.clamp_ns += clamp;
        if frame.capped {
            self.cap_ns += rest;
        } else {
            self.other_ns += rest;
        }
    }

    /// "266.7 ms dropped by the step cap", each cause that dropped something, or "nothing
    /// dropped".
    fn describe(&self) -> String {
        let causes = [
            (self.clamp_ns, "the clamp"),
            (self.cap_ns, "the step cap"),
            (
                self.other_ns,
                "an accumulator clamp, a resync or a fuzzy window",
            ),
        ];
        let parts: Vec<String> = causes
            .iter()
            .filter(|(ns, _)| *ns > 0)
            .map(|(ns, by)| format!("{:.1} ms dropped by {by}", timestep_loop::millis(*ns)))
            .collect();
        if parts.is_empty() {
            "nothing dropped".into()
        } else {
            parts.join(", ")
        }
    }
}

/// The closing line: ticks, what was dropped and by what, and the books. A negative remainder
/// (Godot's jitter fix runs a tick early and pays it back later) is said to be ahead.
fn summary(s: &Stepper, drops: &Drops) -> String {
    let invented = match s.invented_ns() {
        0 => String::new(),
        ns => format!(" + {ns} invented"),
    };
    let remainder = match u64::try_from(s.remainder_ns()) {
        Ok(ns) => format!("+ {ns} waiting"),
        Err(_) => format!(
            "- {} ticked ahead of the clock (the jitter fix pays it back)",
            s.remainder_ns().unsigned_abs()
        ),
    };
    format!(
        "{} ticks over {:.3} s of frames; {}; the books balance: \
         {} measured{invented} = {} consumed + {} dropped {remainder}",
        s.steps_total(),
        timestep_loop::seconds(s.measured_ns()),
        drops.describe(),
        s.measured_ns(),
        s.consumed_ns(),
        s.dropped_ns(),
    )
}

/// The loop for a preset or mode name, or the one line that says why there is none.
fn start(name: &str) -> Result<Loop, String> {
    let spec = LoopSpec::parse(name).map_err(|e| e.to_string())?;
    Loop::new(spec, &PolicyEnv::default()).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or_else(|| "bevy".into());
    match start(&name) {
        Ok(lp) => {
            run(&name, lp);
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("game_loop: {message}");
            ExitCode::from(2)
        }
    }
}

/// Two seconds of frames at 60 Hz, one of them 400 ms long.
fn run(name: &str, mut lp: Loop) {
    println!("{name}: {}", lp.policy());
    let mut clock = FrameClock::new(SystemClock::new());
    let mut pacer = Pacer::new(Pacing::Cap(60.0), Some(60.0));
    let mut drops = Drops::default();
    let (mut previous, mut current) = (Ball { y: 5.0, v: 0.0 }, Ball { y: 5.0, v: 0.0 });
    for frame in 0..120u64 {
        // Read the clock once a frame; everything after is arithmetic on what it said.
        let (measured_ns, now_ns) = clock.tick();
        let frame_ns = pacer.begin(now_ns, measured_ns);
        lp.begin_frame_ns(frame_ns);
        while let Some(step) = lp.next_step() {
            previous = current;
            current.update(step.dt_s());
        }
        drops.add(lp.last_frame());
        render(frame, previous, current, lp.last_frame().alpha);
        if frame == 60 {
            // A hitch: the next frame measures 400 ms, more than the loop will run at once.
            std::thread::sleep(Duration::from_millis(400));
        }
        let wait = pacer.end(clock.clock_mut().now_ns());
        std::thread::sleep(Duration::from_nanos(wait));
    }
    println!("{}", summary(lp.stepper(), &drops));
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAME: u64 = 16_666_667;

    /// Runs `frames` on a simulated clock (no sleeping) and returns the closing line.
    fn closing_line(name: &str, frames: &[u64]) -> Result<String, String> {
        let mut lp = start(name)?;
        let mut drops = Drops::default();
        for &ns in frames {
            lp.begin_frame_ns(ns);
            while lp.next_step().is_some() {}
            drops.add(lp.last_frame());
        }
        Ok(summary(lp.stepper(), &drops))
    }

    /// 60 frames at 60 Hz, a 400 ms hitch, 60 more.
    fn hitch() -> Vec<u64> {
        let mut frames = vec![FRAME; 60];
        frames.push(400_000_000);
        frames.extend([FRAME; 60]);
        frames
    }

    #[test]
    fn a_bad_name_is_one_line_in_its_display_form() {
        let message = start("godott").map(|_| ()).unwrap_err();
        assert!(
            !message.contains('{') && !message.contains('\n'),
            "{message}"
        );
        assert!(message.contains("'godott'"), "{message}");
        assert!(message.contains("godot, bevy"), "{message}");
    }

    #[test]
    fn godot_has_no_clamp_so_its_hitch_is_dropped_by_the_step_cap() -> Result<(), String> {
        let line = closing_line("godot", &hitch())?;
        assert!(line.contains("ms dropped by the step cap"), "{line}");
        assert!(!line.contains("by the clamp"), "{line}");
        Ok(())
    }

    #[test]
    fn bevy_names_its_clamp() -> Result<(), String> {
        let line = closing_line("bevy", &hitch())?;
        assert!(line.contains("150.0 ms dropped by the clamp"), "{line}");
        Ok(())
    }

    #[test]
    fn a_negative_remainder_is_said_to_be_ahead() -> Result<(), String> {
        // Godot's jitter fix runs a tick on a frame a little short of one, and owes the rest.
        let line = closing_line("godot", &[FRAME - 1_000_000])?;
        assert!(line.contains("ticked ahead of the clock"), "{line}");
        assert!(!line.contains("+ -"), "{line}");
        Ok(())
    }
}
