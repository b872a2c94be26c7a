//! Render cost: how long each frame takes to render on the simulated machine (`--render-cost`).

use std::fmt;
use timestep_loop::format_duration;

/// Most points a ramp may pass through.
pub const MAX_RAMP_POINTS: usize = 8;

/// How long rendering a frame takes (`--render-cost`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderCost {
    /// The same every frame.
    Fixed(u64),
    /// Uniform in [lo, hi] each frame, seeded.
    Uniform(u64, u64),
    /// Linear from point to point, the points spread evenly over the run: `ramp:5ms..25ms`
    /// rises, `ramp:5ms..25ms..5ms` rises and comes back down.
    Ramp(Ramp),
}

/// A ramp's points (2 to [`MAX_RAMP_POINTS`]), ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ramp {
    points: [u64; MAX_RAMP_POINTS],
    len: usize,
}

impl Ramp {
    /// A ramp through `points`; `None` unless there are 2 to [`MAX_RAMP_POINTS`].
    pub fn new(points: &[u64]) -> Option<Ramp> {
        if !(2..=MAX_RAMP_POINTS).contains(&points.len()) {
            return None;
        }
        let mut p = [0; MAX_RAMP_POINTS];
        p[..points.len()].copy_from_slice(points);
        Some(Ramp {
            points: p,
            len: points.len(),
        })
    }

    /// The ramp's points, ns, in order.
    pub fn points(&self) -> &[u64] {
        &self.points[..self.len]
    }

    /// The cost at fraction `t` (0 to 1) of the run.
    pub fn at(&self, t: f64) -> u64 {
        let p = self.points();
        let x = t.clamp(0.0, 1.0) * (p.len() - 1) as f64;
        let i = (x.floor() as usize).min(p.len() - 2);
        let (a, b) = (p[i] as f64, p[i + 1] as f64);
        (a + (b - a) * (x - i as f64)).round() as u64
    }
}

impl RenderCost {
    /// The least a frame's render can cost.
    pub fn min_ns(self) -> u64 {
        match self {
            RenderCost::Fixed(ns) => ns,
            RenderCost::Uniform(lo, _) => lo,
            RenderCost::Ramp(r) => r.points().iter().copied().min().unwrap_or(0),
        }
    }

    /// The most a frame's render can cost.
    pub fn max_ns(self) -> u64 {
        match self {
            RenderCost::Fixed(ns) => ns,
            RenderCost::Uniform(_, hi) => hi,
            RenderCost::Ramp(r) => r.points().iter().copied().max().unwrap_or(0),
        }
    }
}

impl fmt::Display for RenderCost {
    /// As typed: `5ms`, `5ms..25ms`, `ramp:5ms..25ms..5ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderCost::Fixed(ns) => f.write_str(&format_duration(*ns)),
            RenderCost::Uniform(lo, hi) => {
                write!(f, "{}..{}", format_duration(*lo), format_duration(*hi))
            }
            RenderCost::Ramp(r) => {
                let points: Vec<String> =
                    r.points().iter().map(|&ns| format_duration(ns)).collect();
                write!(f, "ramp:{}", points.join(".."))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ramp_goes_through_its_points_evenly() {
        let r = Ramp::new(&[5, 25, 5]).unwrap();
        assert_eq!(
            (r.at(0.0), r.at(0.25), r.at(0.5), r.at(0.75), r.at(1.0)),
            (5, 15, 25, 15, 5)
        );
        assert_eq!(RenderCost::Ramp(r).max_ns(), 25);
        assert_eq!(Ramp::new(&[1]), None);
        let up = RenderCost::Ramp(Ramp::new(&[5_000_000, 25_000_000]).unwrap());
        assert_eq!(up.to_string(), "ramp:5ms..25ms");
    }
}
