//! The undamped default rope's energy over 60 s with each integrator, at 1 ms and at a step of
//! 1/60 s: semi-implicit Euler keeps it in a band (and explodes at 1/60 s), RK4 drains it
//! steadily.
//!
//!     cargo run --release --example energy

use timestep_lab::model::rope::{Integrator, Previous};
use timestep_lab::model::rope::{Rope, RopeParams};

fn main() {
    for dt in [0.001f32, 1.0 / 60.0, 0.02] {
        for integrator in Integrator::ALL {
            let p = RopeParams {
                damping_per_s: 0.0,
                spring_damping_n_s_per_m: 0.0,
                integrator,
                ..RopeParams::default()
            };
            let mut rope = Rope::new(p);
            let e0 = rope.energy();
            let steps = (60.0 / dt).round() as u32;
            let (mut lo, mut hi) = (e0, e0);
            let mut marks = Vec::new();
            for i in 1..=steps {
                rope.step(dt, Previous::Keep);
                let e = rope.energy();
                (lo, hi) = (lo.min(e), hi.max(e));
                if i % (steps / 6) == 0 {
                    marks.push(format!("{:+.4}", e - e0));
                }
                if rope.exploded() {
                    marks.push(format!("exploded at {:.2} s", f64::from(i) * f64::from(dt)));
                    break;
                }
            }
            println!(
                "dt {:.4} s {integrator:>5}: E(t) - E(0) every 10 s: {}  (band {:+.4} .. {:+.4} J)",
                dt,
                marks.join(" "),
                lo - e0,
                hi - e0
            );
        }
    }
}
