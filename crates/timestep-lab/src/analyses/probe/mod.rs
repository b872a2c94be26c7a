//! A probe of this machine's clock and sleeps, measured within a budget of time.
//!
//! - **The clock**: what one `Instant::now()` costs (the median over batches of back-to-back
//!   reads) and the smallest step seen between two consecutive readings.
//! - **Sleeps**: how late `std::thread::sleep` and spin_sleep wake (woke − asked) for
//!   requests of 0.1, 0.5, 1, 2 and 5 ms, in rounds that spread the budget evenly over the
//!   requests (`plan.rs`) and take one native and one spin sleep of a request in turn.
//! - **What the OS says**: the timer slack where it reports it, and spin_sleep's own
//!   threshold (`system.rs`, `measure.rs`): read, not measured.
//! - **`--window`**: first, the presents in each present mode the surface offers
//!   (the window measures them and hands in [`Presents`]; nothing here touches a window).
//!
//! The result is a [`crate::protocol::machine::MachineProfile`] (`--out`), one JSON object (`--json`)
//! or a table (`report.rs`). Ctrl-C stops between two sleeps or two presents: what was
//! measured is printed, marked interrupted, and the exit status is 130.

mod measure;
mod plan;
mod report;
mod system;
mod table;

pub use measure::{Machine, measure_clock, measure_sleeps};
pub use plan::{Plan, REQUESTS_NS};
pub use report::{ClockReport, Facts, Measured, ProbeReport, write_json};
pub use system::facts;
pub use table::write_table;

/// The presents of one present mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresentRun {
    /// wgpu's name for the mode: Fifo, FifoRelaxed, Immediate or Mailbox.
    pub mode: String,
    /// From each present returning to the next one's, ns, in order.
    pub intervals_ns: Vec<u64>,
    /// Frames the surface had no image for (timed out, occluded): not presented; the interval
    /// across one is counted whole.
    pub skipped: u64,
}

/// Every mode's presents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presents {
    /// The window's size, physical pixels.
    pub size: (u32, u32),
    /// In the order the surface lists its modes.
    pub modes: Vec<PresentRun>,
    /// Ctrl-C, or the window closed, before every mode had its time.
    pub interrupted: bool,
}
