//! Why the lanes differ on a capture, in a line each, each computed from the capture and
//! printed only where it applies: frames never displayed, a game that began frames faster than
//! its display showed them, and lanes that blend to the capture's clock rather than to the
//! time on screen. docs/REFERENCE.md ("replay") states the rules and defends the thresholds.

use super::summary::CaptureSummary;
use crate::model::lane::LaneReport;
use crate::util::quote::shown;
use timestep_loop::TimerKind;

/// The share of frames, in percent, never displayed from which it is named as a reason: one
/// lost frame in a long capture moves no lane's figures much.
pub const NEVER_SHOWN_PERCENT: f64 = 1.0;

/// How many times faster than the display must frames begin before it is named as a reason
/// (a capture's own timing noise stays well inside 5%).
pub const FASTER_RATIO: f64 = 1.05;

/// The start-versus-screen error, as a share of the time a frame stays on screen, from which
/// blending to the capture's clock is named as a reason.
pub const BLEND_ERROR_SHARE: f64 = 0.05;

/// The lines that apply to `c`, replayed in `lanes`, in the order above; none when none does.
pub fn why_lanes_differ(c: &CaptureSummary, lanes: &[LaneReport]) -> Vec<String> {
    [never_shown(c), faster(c), blending(c, lanes)]
        .into_iter()
        .flatten()
        .collect()
}

/// Frames never displayed, their count and share.
fn never_shown(c: &CaptureSummary) -> Option<String> {
    let share = 100.0 * c.not_displayed as f64 / c.frames.max(1) as f64;
    (c.display_times_known() && c.not_displayed > 0 && share >= NEVER_SHOWN_PERCENT).then(|| {
        format!(
            "{} of {} frames ({share:.1}%) never reached the screen: what a lane did in them \
             shows only with the next frame displayed, as one bigger jump",
            c.not_displayed, c.frames
        )
    })
}

/// The rate the display showed frames at: its refresh where the display changes say one, else
/// one over their median, Hz.
fn display_hz(c: &CaptureSummary) -> Option<f64> {
    let median_ms = c.display_change_ms?.median;
    let measured = (median_ms > 0.0).then(|| 1e3 / median_ms);
    c.refresh_hz_estimate.or(measured)
}

/// A game that began frames faster than its display showed them.
fn faster(c: &CaptureSummary) -> Option<String> {
    let (fps, hz) = (c.render_fps?, display_hz(c)?);
    (c.display_times_known() && fps > hz * FASTER_RATIO).then(|| {
        format!(
            "{} began {fps:.1} frames a second on a display showing {hz:.1}: a frame begun \
             every {:.2} ms (mean) is shown every {:.2} ms, so when a frame begins is not when \
             it is seen",
            shown(&c.app),
            1e3 / fps,
            1e3 / hz
        )
    })
}

/// Lanes that blend to the capture's clock, where that clock is off the time on screen (not
/// those whose timer steps by the capture's display times: `display`).
fn blending(c: &CaptureSummary, lanes: &[LaneReport]) -> Option<String> {
    let error_ms = c.start_error_rms_ms?;
    let shown_ms = c.display_change_ms?.median;
    let blend: Vec<&str> = lanes
        .iter()
        .filter(|l| l.policy.mode.blends() && l.policy.timer != TimerKind::Display)
        .map(|l| l.lane.as_str())
        .collect();
    (!blend.is_empty() && error_ms >= shown_ms * BLEND_ERROR_SHARE).then(|| {
        format!(
            "{} blend{} to each frame's {}, which is {error_ms:.3} ms rms off the frame's time \
             on screen here: {} motion keeps time with the starts, not with the screen",
            blend.join(", "),
            if blend.len() == 1 { "s" } else { "" },
            c.clock_reads,
            if blend.len() == 1 { "its" } else { "their" }
        )
    })
}
