//! Where frame times come from: a [`Clock`] read once a frame, turned into frame times by a
//! [`FrameClock`]. A game reads [`SystemClock`] (`std::time::Instant`); a test or a simulation
//! moves a [`ManualClock`] itself, so everything downstream can be checked on exact times.

use std::time::Instant;

/// A monotonic clock reading in nanoseconds since the clock's own start.
pub trait Clock {
    /// The time now, ns since the clock's own start.
    fn now_ns(&mut self) -> u64;
}

/// The real clock: `std::time::Instant`.
#[derive(Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock that starts now.
    pub fn new() -> Self {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now_ns(&mut self) -> u64 {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// A clock that moves only when told to: for tests, and for loops driven by a simulated or
/// recorded clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct ManualClock {
    /// What [`Clock::now_ns`] returns.
    pub now_ns: u64,
}

impl Clock for ManualClock {
    fn now_ns(&mut self) -> u64 {
        self.now_ns
    }
}

/// Turns clock readings into frame times: each [`FrameClock::tick`] returns the time since the
/// previous one (never negative, even if a noisy clock steps backwards).
#[derive(Debug)]
pub struct FrameClock<C: Clock> {
    clock: C,
    last_ns: u64,
}

impl<C: Clock> FrameClock<C> {
    /// Starts measuring from `clock`'s reading now.
    pub fn new(mut clock: C) -> Self {
        let last_ns = clock.now_ns();
        FrameClock { clock, last_ns }
    }

    /// The time since the previous tick (or since creation), in ns, and the reading itself.
    pub fn tick(&mut self) -> (u64, u64) {
        let now = self.clock.now_ns().max(self.last_ns);
        let frame = now - self.last_ns;
        self.last_ns = now;
        (frame, now)
    }

    /// The clock itself (to read it between frames, or move a [`ManualClock`]).
    pub fn clock_mut(&mut self) -> &mut C {
        &mut self.clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_times_are_differences_and_never_negative() {
        let mut fc = FrameClock::new(ManualClock { now_ns: 100 });
        fc.clock_mut().now_ns = 350;
        assert_eq!(fc.tick(), (250, 350));
        fc.clock_mut().now_ns = 300; // a clock stepping backwards
        assert_eq!(fc.tick(), (0, 350));
    }
}
