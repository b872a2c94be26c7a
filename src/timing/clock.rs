//! Where frame times come from. The window reads [`SystemClock`], the one clock a lane's time
//! ever comes from (`simulate --draw` and the benches also read `Instant`, but only to time
//! their own drawing, never to step anything); `simulate` uses its simulated display, and
//! the tests a `ManualClock`.

use std::time::Instant;

/// A monotonic clock reading in nanoseconds since the clock's own start.
pub trait Clock {
    fn now_ns(&mut self) -> u64;
}

/// The real clock: `std::time::Instant`.
#[derive(Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
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

/// A clock that moves only when told to.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default)]
pub struct ManualClock {
    pub now_ns: u64,
}

#[cfg(test)]
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
