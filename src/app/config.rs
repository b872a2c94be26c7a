//! What the window is launched with: its flags, checked and converted, and the plain
//! launch's lanes and caption. Read by the winit handler and the session alike.

use std::path::PathBuf;
use timestep_lab::model::lane::LaneSpec;
use timestep_lab::model::rope::RopeParams;
use timestep_lab::protocol::machine::Sleep;
use timestep_loop::{MaxSubstep, Pacing, PolicyEnv, TimingConfig};

/// The window, ready to run: every flag checked and converted.
#[derive(Clone, Debug)]
pub struct WindowConfig {
    pub timing: TimingConfig,
    pub rope: RopeParams,
    /// 1 to [`timestep_lab::view::draw::MAX_PANES`] lanes; more than one starts in the split view.
    pub lanes: Vec<LaneSpec>,
    pub max_substep: MaxSubstep,
    pub vsync: bool,
    pub pacing: Pacing,
    pub exit_after_ns: Option<u64>,
    pub screenshot: Option<PathBuf>,
    pub frame_log: Option<PathBuf>,
    /// `--report`: every lane's report at exit.
    pub report: Option<PathBuf>,
    /// `--replay`: a capture to play, and which of its frames.
    pub replay: Option<CaptureChoice>,
    /// `--sleep`: how pacing waits.
    pub sleep: Sleep,
    /// `--lesson`: the lesson to start at (1-based, checked).
    pub lesson: Option<usize>,
    /// Start with the lanes overlaid in one pane (a plain launch's [`DEFAULT_LANES`]).
    pub overlay: bool,
}

/// The lanes a plain launch shows, overlaid in one pane: three loops that differ at the
/// default 1 ms tick on any display, paced or not. Interpolated 1 ms ticks glide; Unity's
/// fixed step, slowed to 10 Hz and shown without interpolation, moves in visible 100 ms jumps
/// (its 50 Hz step judders on a 60 Hz display but, under an unpaced software renderer's
/// uneven frames, no more than interpolated ticks do); variable steps explode below 66 fps
/// (a step over 15 ms).
pub const DEFAULT_LANES: &str = "interpolated,unity+tick=10hz,variable";

/// The plain launch's caption, one line, while its lanes are overlaid outside a lesson: how to
/// read what it shows, true whatever mode a lane is put in (it stays as the keys change them,
/// so the layout does not move).
pub const DEFAULT_CAPTION: [&str; 1] =
    ["Same frames, three loops: even dots along the bottom mean smooth motion; bunched, judder"];

/// A capture and which of its frames to replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureChoice {
    pub path: PathBuf,
    /// `--app`: an application (or a process ID, or a lane of our own logs).
    pub app: Option<String>,
    /// `--swapchain`: its swap chain.
    pub swapchain: Option<String>,
}

impl WindowConfig {
    /// What the lanes know of the window: the flags, and the display's refresh rate as the OS
    /// reports it, once known.
    pub fn env(&self, refresh_hint_hz: Option<f64>) -> PolicyEnv {
        PolicyEnv::textbook(self.timing)
            .with_max_substep(self.max_substep)
            .with_vsync_requested(self.vsync)
            .with_refresh_hint(refresh_hint_hz)
    }
}
