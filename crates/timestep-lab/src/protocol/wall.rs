//! The wall clock, as every host has one: the time now and a way to wait. The real one
//! ([`RealWall`]), the simulated display, a replayed capture, the window and the probe's test
//! machine all implement [`Wall`]; the frame protocol's [`crate::protocol::frame::Host`] adds the present.

use crate::protocol::machine::Sleep;
use spin_sleep::SpinSleeper;
use std::time::Duration;
use timestep_loop::{Clock, SystemClock};

/// A clock to read and a way to wait on it.
pub trait Wall {
    /// The time now, ns since this clock started: when a frame starts, a wait ends, a frame
    /// reaches the screen.
    fn now_ns(&mut self) -> u64;
    /// Waits `ns`, the way this wall waits.
    fn sleep(&mut self, ns: u64);
}

/// This machine's clock (`Instant`, through [`SystemClock`]) and its sleeps: the OS's alone, or
/// spin_sleep's (native to within its threshold of the deadline, then a spin).
#[derive(Debug)]
pub struct RealWall {
    clock: SystemClock,
    spin: SpinSleeper,
    sleep: Sleep,
}

impl RealWall {
    /// The clock, started now, waiting with `sleep`.
    pub fn new(sleep: Sleep) -> RealWall {
        RealWall {
            clock: SystemClock::new(),
            spin: SpinSleeper::default(),
            sleep,
        }
    }

    /// Waits `ns` with `how`, whichever way this wall usually waits.
    pub fn sleep_as(&mut self, how: Sleep, ns: u64) {
        let d = Duration::from_nanos(ns);
        match how {
            Sleep::Native => std::thread::sleep(d),
            Sleep::Spin => self.spin.sleep(d),
        }
    }
}

impl Wall for RealWall {
    fn now_ns(&mut self) -> u64 {
        self.clock.now_ns()
    }

    fn sleep(&mut self, ns: u64) {
        self.sleep_as(self.sleep, ns);
    }
}
