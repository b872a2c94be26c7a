//! Which integrator steps the rope: semi-implicit Euler (the default) or classical RK4.

use std::fmt;
use std::str::FromStr;
use timestep_loop::{Named, UnknownName};

/// How the rope is integrated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Integrator {
    /// Semi-implicit (symplectic) Euler: one force evaluation a step, energy kept in a band.
    Euler,
    /// Classical fourth-order Runge–Kutta: four force evaluations a step, a wider stability
    /// bound, energy drained steadily.
    Rk4,
}

impl Integrator {
    /// Both, in the order `I` toggles them.
    pub const ALL: [Integrator; 2] = [Integrator::Euler, Integrator::Rk4];

    /// The name a user types.
    pub fn name(self) -> &'static str {
        match self {
            Integrator::Euler => "euler",
            Integrator::Rk4 => "rk4",
        }
    }

    /// The other one (the window's `I`).
    pub fn next(self) -> Integrator {
        match self {
            Integrator::Euler => Integrator::Rk4,
            Integrator::Rk4 => Integrator::Euler,
        }
    }
}

impl Named for Integrator {
    const ALL: &'static [Integrator] = &Integrator::ALL;
    const WHAT: &'static str = "integrator";
    fn name(self) -> &'static str {
        Integrator::name(self)
    }
}

impl fmt::Display for Integrator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Integrator {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        Self::parse(s)
    }
}
