//! What happens after the rope diverges, shared by the window and `simulate`: the exploded rope
//! stays on show for a moment (so the user sees what went wrong), then is reset.

/// How long an exploded rope is shown before it is reset: 2 s of wall time.
pub const RESET_AFTER_NS: u64 = 2_000_000_000;

/// What the watch says about this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watch {
    /// Nothing diverged.
    Fine,
    /// The rope is exploded; it will be reset in `left_ns`.
    Exploded {
        /// Wall time until the reset, ns.
        left_ns: u64,
    },
    /// The rope has been exploded long enough: reset it now.
    ResetNow,
}

/// Counts explosions and decides when to reset. Time is handed in (wall ns), never read.
#[derive(Clone, Debug)]
pub struct ExplosionWatch {
    reset_after_ns: u64,
    exploded_at_ns: Option<u64>,
    explosions: u64,
    first_at_ns: Option<u64>,
}

impl ExplosionWatch {
    /// A watch that resets a rope once it has been exploded for `reset_after_ns`, ns of wall
    /// time.
    pub fn new(reset_after_ns: u64) -> Self {
        ExplosionWatch {
            reset_after_ns,
            exploded_at_ns: None,
            explosions: 0,
            first_at_ns: None,
        }
    }

    /// Call once per frame, after stepping, with whether the rope is exploded and the time now.
    pub fn check(&mut self, exploded: bool, now_ns: u64) -> Watch {
        if !exploded {
            self.exploded_at_ns = None;
            return Watch::Fine;
        }
        let at = match self.exploded_at_ns {
            Some(at) => at,
            None => {
                self.explosions += 1;
                self.first_at_ns.get_or_insert(now_ns);
                *self.exploded_at_ns.insert(now_ns)
            }
        };
        let since = now_ns.saturating_sub(at);
        if since >= self.reset_after_ns {
            self.exploded_at_ns = None;
            Watch::ResetNow
        } else {
            Watch::Exploded {
                left_ns: self.reset_after_ns - since,
            }
        }
    }

    /// The user reset the rope (R): forget the pending explosion.
    pub fn clear(&mut self) {
        self.exploded_at_ns = None;
    }

    /// How many times the rope has exploded.
    pub fn explosions(&self) -> u64 {
        self.explosions
    }

    /// When it first exploded.
    pub fn first_at_ns(&self) -> Option<u64> {
        self.first_at_ns
    }
}

impl Default for ExplosionWatch {
    fn default() -> Self {
        ExplosionWatch::new(RESET_AFTER_NS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explosion_is_counted_once_shown_for_two_seconds_then_reset() {
        let mut w = ExplosionWatch::default();
        assert_eq!(w.check(false, 0), Watch::Fine);
        assert_eq!(
            w.check(true, 1_000),
            Watch::Exploded {
                left_ns: RESET_AFTER_NS
            }
        );
        assert_eq!(
            w.check(true, 1_000 + RESET_AFTER_NS / 2),
            Watch::Exploded {
                left_ns: RESET_AFTER_NS / 2
            }
        );
        assert_eq!(w.check(true, 1_000 + RESET_AFTER_NS), Watch::ResetNow);
        assert_eq!(w.check(false, 2 * RESET_AFTER_NS), Watch::Fine);
        assert_eq!(
            w.check(true, 3 * RESET_AFTER_NS),
            Watch::Exploded {
                left_ns: RESET_AFTER_NS
            }
        );
        assert_eq!(w.explosions(), 2);
        assert_eq!(w.first_at_ns(), Some(1_000));
    }
}
