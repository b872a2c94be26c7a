//! Why a rope at rest used to cost more than a rope in motion, and what the rest rule changes:
//! steps the default rope for a simulated hour at 1 ms, with the rule off and on, and prints
//! for every 5 simulated minutes how many of its position and velocity components are
//! subnormal floats and what a step cost (real time, this machine).
//!
//!     cargo run --release --example rest_rule
//!
//! Costs are wall-clock and so only comparable within one run; the subnormal counts are exact.

use std::time::Instant;
use timestep_lab::model::rope::Previous;
use timestep_lab::model::rope::{Rope, RopeParams};

const DT: f32 = 1e-3;
const WINDOW_STEPS: u32 = 300_000;

fn subnormals(rope: &Rope) -> usize {
    rope.positions()
        .chain(rope.velocities())
        .flat_map(|v| [v.x, v.y])
        .filter(|v| v.is_subnormal())
        .count()
}

fn main() {
    let without = RopeParams {
        rest_fraction: 0.0,
        ..RopeParams::default()
    };
    let mut ropes = [Rope::new(without), Rope::new(RopeParams::default())];
    let total = 2 * ropes[0].len();
    println!("simulated   rule off: subnormal  ns/step   rule on: subnormal  ns/step");
    for window in 1..=12 {
        let mut row = format!("{:>6} min", window * 5);
        for rope in &mut ropes {
            let start = Instant::now();
            for _ in 0..WINDOW_STEPS {
                rope.step(std::hint::black_box(DT), Previous::Keep);
            }
            let ns = start.elapsed().as_nanos() as f64 / f64::from(WINDOW_STEPS);
            row += &format!("   {:>8} of {total:<3} {ns:>8.1}", subnormals(rope));
        }
        println!("{row}");
    }
}
