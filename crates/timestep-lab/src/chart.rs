//! What the charts show: plain data collected by a run, drawn by the binary's plots.

/// One presented frame of one lane, as the plot shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FramePoint {
    /// When it was presented, s from the first frame.
    pub t_s: f64,
    /// (S_i − S_1) − (P_i − P_1): the shown simulation time against the display's, ms.
    pub error_ms: f64,
    /// Ticks this frame ran.
    pub ticks: u32,
    /// The measured frame time, ms.
    pub frame_ms: f64,
}

/// The frames of every lane, as collected by `simulate`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FramePlot {
    /// Each lane's name and its frames, in order.
    pub lanes: Vec<(String, Vec<FramePoint>)>,
}

/// What the plot shows of one (display rate, lane) configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    /// The display's refresh rate (or the frame rate, on a VRR sweep), Hz.
    pub hz: f64,
    /// The lane's stutter, rms, ms.
    pub stutter_rms_ms: f64,
    /// Double updates a minute of the run; null (n/a) where a vblank holds 2 ticks or more:
    /// not drawn.
    pub double_updates_per_min: Option<f64>,
    /// Shown simulation time against presented wall time at the end of the run, ms.
    pub drift_ms: f64,
}
