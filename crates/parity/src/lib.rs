//! Parity tests: `tests/` feeds the real `game-loop` 1.1.0 and Bevy 0.19.1's `Time<Fixed>` the
//! same frame times as timestep-loop's `game-loop` and `bevy` presets, and a model of Tyler
//! Glaiel's `frame_timer.cpp` written from its rules (`tests/frame_timer/mod.rs`) the same as
//! the `glaiel` preset, and asserts the same tick count on every frame. This library is empty;
//! see `tests/parity.rs`.
