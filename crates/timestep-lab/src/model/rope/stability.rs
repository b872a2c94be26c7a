//! The stability bound: the longest step each integrator can take on this rope without its
//! fastest mode growing.
//!
//! For that mode (ω² = λk/m, spring damping γ = λc/m, λ the stiffness matrix's largest
//! eigenvalue in units of k) the state (x, v) evolves by x' = v, v' = −ω²x − γv, and the drag
//! multiplies v by a = exp(−d·h) once a step. One step of each integrator is a 2×2 matrix M(h);
//! the step is stable while M's spectral radius is at most 1, and the boundary is found by
//! bisection.
//!
//! - Semi-implicit Euler: v ← a(v + h(−ω²x − γv)), then x ← x + h·v. Undamped, h < 2/ω.
//! - RK4 on the springs, then the drag: M = diag(1, a)·(I + hA + (hA)²/2 + (hA)³/6 +
//!   (hA)⁴/24) with A = [[0, 1], [−ω², −γ]]. Undamped, h < 2√2/ω.

use super::{Integrator, RopeParams};

type M2 = [[f64; 2]; 2];

fn mul(a: M2, b: M2) -> M2 {
    let mut c = [[0.0; 2]; 2];
    for (i, row) in c.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = a[i][0] * b[0][j] + a[i][1] * b[1][j];
        }
    }
    c
}

/// The larger magnitude of a 2×2 matrix's eigenvalues.
fn spectral_radius(m: M2) -> f64 {
    let t = m[0][0] + m[1][1];
    let d = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    let disc = t * t - 4.0 * d;
    if disc >= 0.0 {
        ((t.abs() + disc.sqrt()) / 2.0).abs()
    } else {
        d.abs().sqrt()
    }
}

/// One step of `integrator` on the mode (ω², γ, drag d) at step `h`.
fn step_matrix(integrator: Integrator, (w2, gamma, d): (f64, f64, f64), h: f64) -> M2 {
    let a = (-d * h).exp();
    match integrator {
        Integrator::Euler => {
            let v_row = [-a * h * w2, a * (1.0 - h * gamma)];
            [[1.0 + h * v_row[0], h * v_row[1]], v_row]
        }
        Integrator::Rk4 => {
            let ha = [[0.0, h], [-h * w2, -h * gamma]];
            let mut term = [[1.0, 0.0], [0.0, 1.0]];
            let mut sum = term;
            for k in 1..=4 {
                term = mul(term, ha);
                let f = 1.0 / f64::from(k);
                term = term.map(|row| row.map(|x| x * f));
                for i in 0..2 {
                    for j in 0..2 {
                        sum[i][j] += term[i][j];
                    }
                }
            }
            mul([[1.0, 0.0], [0.0, a]], sum)
        }
    }
}

impl RopeParams {
    /// The longest step this rope's integrator can take, in seconds.
    pub fn stability_limit_s(&self) -> f64 {
        self.stability_limit_for(self.integrator)
    }

    /// The longest step `integrator` can take on this rope without its fastest mode growing,
    /// in seconds (infinite for a rope with no free particle).
    pub fn stability_limit_for(&self, integrator: Integrator) -> f64 {
        let lambda = self.max_mode_factor();
        if lambda == 0.0 {
            return f64::INFINITY;
        }
        let m = f64::from(self.particle_mass_kg);
        let mode = (
            lambda * f64::from(self.stiffness_n_per_m) / m,
            lambda * f64::from(self.spring_damping_n_s_per_m) / m,
            f64::from(self.damping_per_s),
        );
        let unstable = |h: f64| spectral_radius(step_matrix(integrator, mode, h)) > 1.0;
        let (mut lo, mut hi) = (0.0, 4.0 / mode.0.sqrt());
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if unstable(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undamped_bounds_are_the_textbook_ones() {
        let p = RopeParams {
            spring_damping_n_s_per_m: 0.0,
            damping_per_s: 0.0,
            ..RopeParams::default()
        };
        let k_over_m = f64::from(p.stiffness_n_per_m) / f64::from(p.particle_mass_kg);
        let w = (p.max_mode_factor() * k_over_m).sqrt();
        let euler = p.stability_limit_for(Integrator::Euler);
        let rk4 = p.stability_limit_for(Integrator::Rk4);
        assert!((euler * w - 2.0).abs() < 1e-9, "{}", euler * w);
        assert!((rk4 * w - 2.0 * 2f64.sqrt()).abs() < 1e-6, "{}", rk4 * w);
    }

    #[test]
    fn the_default_rope_holds_euler_above_66_hz_and_rk4_above_47_hz() {
        let p = RopeParams::default();
        let euler = p.stability_limit_for(Integrator::Euler);
        assert!((euler - 0.015068).abs() < 1e-6, "{euler}");
        let rk4 = p.stability_limit_for(Integrator::Rk4);
        assert!(rk4 > 1.0 / 50.0 && rk4 < 1.0 / 45.0, "{rk4}");
        assert_eq!(p.stability_limit_s(), euler);
    }
}
