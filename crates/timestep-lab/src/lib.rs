//! timestep-lab: everything of timestep-rope that is neither the window nor the command line.
//!
//! The flow is one-way: clock → timer → stepper (the `timestep_loop` crate's `Loop`) →
//! [`model::rope::Rope`] → blend → draw → present. Nothing here opens a window or reads a
//! command line: time is always handed in, and Cargo keeps winit, pixels, wgpu, egui, clap,
//! plotters and indicatif out of this crate's dependencies.
//!
//! The crate is in tiers, each standing only on those listed before it (a test holds it):
//!
//! | tier | what it holds |
//! |---|---|
//! | [`util`] | numbers and text as the reports write them, bounded values |
//! | [`model`] | the rope, the lanes that step it, what follows a divergence, the stable step |
//! | [`view`] | drawing lanes into an RGBA buffer, the lessons, chart data |
//! | [`protocol`] | one frame: the `Host` protocol, clocks and sleeps, the per-frame record, running lanes in batches |
//! | [`hosts`] | the simulated display (`simulate`) and a replayed capture (`replay`) |
//! | [`analyses`] | `sweep`, `advise` and `probe`, built on the hosts |

#![warn(missing_docs)]

pub mod util {
    //! Numbers and text as the reports write them: milliseconds and seconds without a libm
    //! call, values bounded on read, quoting what a file said, fitting tables to a width.
    pub mod bounded;
    pub mod fast;
    pub mod fit;
    pub mod quote;
    pub(crate) mod tally;
}

pub mod model {
    //! What is simulated: the rope (struct of arrays, its integrators, its drive), a lane (one
    //! loop stepping one rope, and its record and report), what happens after a divergence,
    //! and the stable step with the fixes that keep a tick under it.
    pub mod fixes;
    pub mod lane;
    pub mod rope;
    pub mod watch;
}

pub mod view {
    //! What is shown: lanes, the HUD and the strip drawn into an RGBA buffer, the lessons the
    //! window teaches, and the data the charts plot.
    pub mod chart;
    pub mod draw;
    pub mod lessons;
}

pub mod protocol {
    //! One frame, written once for every host: the `Host` protocol and `Frames`, the clocks
    //! and sleeps a host reads (and the machine models behind them), the per-frame record,
    //! and lanes run in batches.
    pub mod feedback;
    pub mod frame;
    pub mod frame_csv;
    pub mod machine;
    pub mod runs;
    pub mod wall;
}

pub mod hosts {
    //! The hosts that are not the window: the simulated display (`simulate`) and a replayed
    //! capture (`replay`), each with its configuration and report.
    pub mod replay;
    pub mod simulate;
}

pub mod analyses {
    //! What the program measures over many runs: `sweep` (rates × lanes), `advise` (the loop
    //! to choose) and `probe` (this machine's clock and sleeps).
    pub mod advise;
    pub mod probe;
    pub mod sweep;
}

#[cfg(feature = "fuzz")]
pub mod fuzz;
