//! A test-only model of Tyler Glaiel's FrameTimingControl loop, `frame_timer.cpp` at commit
//! ed335bb29162dd779d696e7894914e60cba8e759 (github.com/TylerGlaiel/FrameTimingControl),
//! written from the file's rules (each cited by its lines) rather than from our timer, so that
//! the `glaiel` preset can be held against it frame by frame.
//!
//! Its settings are the file's own (lines 2-4): `update_rate` 60, `update_multiplicity` 1,
//! `unlock_framerate` true (so the loop of lines 100-107 runs). The performance counter counts
//! ns: `SDL_GetPerformanceFrequency()` (line 7) is 1e9 where SDL reads `clock_gettime`
//! (Linux, macOS). Its integer arithmetic is kept: `int64_t` throughout, as the file has it.

/// Counter ticks per second, `clocks_per_second` (line 7): ns.
const CLOCKS_PER_SECOND: i64 = 1_000_000_000;
/// `update_rate` (line 2).
const UPDATE_RATE: f64 = 60.0;
/// `time_history_count` (line 31).
const HISTORY: usize = 4;

/// Update ticks (`game.fixed_update` calls, line 101) on each frame of frame_timer.cpp's loop,
/// for frames whose starts read the counter at `ends` (ns; it read 0 just before the loop,
/// line 38), on a display whose current mode SDL reports at `display_hz` whole hertz (`None`:
/// `SDL_GetCurrentDisplayMode` failed, lines 15-19).
pub fn ticks(ends: &[i64], display_hz: Option<i32>) -> Vec<u64> {
    // Line 9: `int64_t desired_frametime = clocks_per_second / update_rate`, the division in
    // double, truncated on the way into the integer: 16,666,666 ns.
    let desired = (CLOCKS_PER_SECOND as f64 / UPDATE_RATE) as i64;
    // Line 12: `clocks_per_second * .0002`, truncated: 200,000 ns.
    let max_error = (CLOCKS_PER_SECOND as f64 * 0.0002) as i64;
    // Lines 15-21: the display mode's rate, 60 if SDL reports none or reports it as 0 or less.
    let snap_hz = i64::from(display_hz.unwrap_or(60));
    let snap_hz = if snap_hz <= 0 { 60 } else { snap_hz };
    // Lines 24-27: whole multiples 1..=8 of one period, the period truncated to whole ticks.
    let snaps: Vec<i64> = (1..=8).map(|k| CLOCKS_PER_SECOND / snap_hz * k).collect();
    // Lines 31-33: four deltas of history, primed with the desired frame time, no residual.
    let mut history = [desired; HISTORY];
    let mut residual = 0i64;
    // Lines 37-39: `resync` starts true; the previous counter reading, the accumulator.
    let mut resync = true;
    let mut prev = 0i64;
    let mut accumulator = 0i64;
    let mut out = Vec::with_capacity(ends.len());
    for &now in ends {
        // Lines 43-45: this frame's delta.
        let mut delta = now - prev;
        prev = now;
        // Lines 48-50: a delta over 8 desired frames counts as one desired frame.
        if delta > desired * 8 {
            delta = desired;
        }
        // Lines 51-53: never negative.
        delta = delta.max(0);
        // Lines 57-62: the first multiple strictly within the error replaces the delta.
        if let Some(&snap) = snaps.iter().find(|&&s| (delta - s).abs() < max_error) {
            delta = snap;
        }
        // Lines 65-73: the delta joins the history (every frame, the first too) and the mean
        // of the four, truncated, is the delta.
        history.rotate_left(1);
        history[HISTORY - 1] = delta;
        let sum: i64 = history.iter().sum();
        let n = HISTORY as i64;
        delta = sum / n;
        // Lines 75-77: the division's remainders pile up and are paid out in whole ticks.
        residual += sum % n;
        delta += residual / n;
        residual %= n;
        // Line 80.
        accumulator += delta;
        // Lines 83-85: an accumulator past 8 desired frames asks for a resync.
        if accumulator > desired * 8 {
            resync = true;
        }
        // Lines 88-92: a resync (the first frame's, as `resync` starts true) empties it. (It
        // also sets `delta_time`, which only the variable update of line 109 reads.)
        if resync {
            accumulator = 0;
            resync = false;
        }
        // Lines 100-107: a fixed update for every whole desired frame the accumulator holds.
        let mut n_ticks = 0;
        while accumulator >= desired {
            n_ticks += 1;
            accumulator -= desired;
        }
        out.push(n_ticks);
    }
    out
}

/// The counter readings of frames of `deltas` ns, starting from 0 (line 38).
pub fn ends_of(deltas: &[u64]) -> Vec<i64> {
    deltas
        .iter()
        .scan(0i64, |t, &d| {
            *t += i64::try_from(d).expect("a frame time in an int64_t");
            Some(*t)
        })
        .collect()
}

/// What `SDL_GetCurrentDisplayMode` reports for a display of nominal `hz`: SDL2's
/// `refresh_rate` is an `int`, rounded from the mode's rate on X11
/// (`src/video/x11/SDL_x11modes.c`, `CalculateXRandRRefreshRate`: `SDL_round(dotClock /
/// (hTotal × vTotal))`) and on macOS (`src/video/cocoa/SDL_cocoamodes.m`,
/// `GetDisplayModeRefreshRate`: `(int)(CGDisplayModeGetRefreshRate(vidmode) + 0.5)`).
pub fn sdl_refresh_rate(hz: f64) -> i32 {
    hz.round() as i32
}
