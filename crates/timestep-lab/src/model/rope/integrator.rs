//! Which integrator steps the rope: semi-implicit Euler (the default) or classical RK4.

timestep_loop::named_enum! {
    /// How the rope is integrated, in the order `I` toggles them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Integrator as "integrator" {
        /// Semi-implicit (symplectic) Euler: one force evaluation a step, energy kept in a band.
        Euler = "euler",
        /// Classical fourth-order Runge–Kutta: four force evaluations a step, a wider stability
        /// bound, energy drained steadily.
        Rk4 = "rk4",
    }
}

impl Integrator {
    /// The other one (the window's `I`).
    pub fn next(self) -> Integrator {
        match self {
            Integrator::Euler => Integrator::Rk4,
            Integrator::Rk4 => Integrator::Euler,
        }
    }
}
