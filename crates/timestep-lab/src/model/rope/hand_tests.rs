//! A hand on the rope: it adds no more energy than [`HAND_ENERGY_STRETCH`] allows, counted at
//! every step, and a hand that may add no more still lets a particle slip towards a pin that
//! moves out of its reach.

use super::*;

/// The default rope hanging straight down from its pin, at rest.
fn hanging() -> Rope {
    let p = RopeParams::default();
    let down = (0..p.particles).map(|i| Vec2::new(0.0, -(i as f32) * p.rest_length_m));
    Rope::with_positions(p, down.collect()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_grab_held_through_many_steps_adds_no_more_than_the_hands_energy() {
    // One frame of many ticks (the spiral lesson's frames are 300 ms): the grab is set once,
    // and the steps carry the end 5.9 m aside, which would stretch every spring.
    let mut rope = hanging();
    let last = rope.len() - 1;
    rope.set_grab(Some(Grab {
        index: last,
        target: Vec2::new(5.9, -1.0),
        velocity: Vec2::ZERO,
    }));
    let most = rope.start_energy_j + rope.hand_energy_j();
    for _ in 0..1_000 {
        rope.step(0.001, Previous::Keep);
    }
    assert!(!rope.hand_works);
    // What one step may add past the limit before the check sees it, and the rope's own
    // swings: well under the 60 J of springs pulled to the target.
    assert!(rope.energy() < most + 5.0, "{} J", rope.energy());
}

#[test]
fn a_still_hand_lets_the_particle_slip_towards_a_pin_out_of_reach() {
    let mut rope = hanging();
    let at = rope.position(1);
    rope.set_grab(Some(Grab {
        index: 1,
        target: at,
        velocity: Vec2::ZERO,
    }));
    rope.hand_works = false;
    rope.anchors[0].1 = Vec2::new(3.0, 0.0);
    rope.step(0.001, Previous::Keep);
    let reach = HELD_STRETCH * rope.params.rest_length_m;
    let apart = rope.position(1).distance(rope.position(0));
    assert!(apart <= reach * 1.001, "{apart} m from the pin");
}
