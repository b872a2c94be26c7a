//! The stepper: a frame's measured time in, the steps to integrate out, with every
//! nanosecond accounted for.
//!
//! Two ways to drive it, as games do. **Push**: [`Stepper::advance`] calls a closure for every
//! step. **Pull**: [`Stepper::begin_frame`], then [`Stepper::next_step`] until it returns `None`
//! (bevy_time's `Time<Fixed>::expend` in a `while` loop). Push is pull in a loop, so the two
//! cannot differ.

use crate::config::{ClampOn, StepRule, TimingConfig};
use crate::jitter::JitterFix;
use crate::mode::Mode;
use crate::tick::{self, Tick};
use std::time::Duration;

/// One step the caller must integrate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// The step's length in ns (always the tick in fixed and interpolated modes).
    pub dt_ns: u64,
    /// True for the last step of the frame: only its starting state is needed for blending.
    pub last: bool,
    /// Equal substeps the step is integrated in (1: whole). A [`crate::Loop`] whose policy
    /// caps the integration step sets it; the stepper alone always says 1.
    pub substeps: u64,
}

impl Step {
    /// The whole step's length in seconds, correctly rounded to `f64` (cast it to `f32` for
    /// an `f32` world; widening an `f32` back loses up to 116 µs an hour).
    pub fn dt_s(&self) -> f64 {
        self.dt_ns as f64 * 1e-9
    }

    /// The whole step's length, exactly.
    pub fn dt(&self) -> Duration {
        Duration::from_nanos(self.dt_ns)
    }

    /// One substep's length in seconds (the whole step when there is one substep): integrate
    /// [`Step::substeps`] of these.
    pub fn substep_s(&self) -> f64 {
        if self.substeps <= 1 {
            // The same number: dividing by 1.0 is exact.
            return self.dt_s();
        }
        self.dt_ns as f64 / self.substeps as f64 * 1e-9
    }
}

/// Steps in a row that are alike: `count` steps of `step.dt_ns`, each in `step.substeps`
/// substeps; only the last of them may be the frame's last (`step.last`). How a caller that
/// steps a world takes a frame's fixed ticks without asking for each one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StepRun {
    /// The steps' length and substeps, and whether the run ends the frame.
    pub step: Step,
    /// How many.
    pub count: u64,
}

impl StepRun {
    /// The run's steps one by one.
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        (0..self.count).map(|i| Step {
            last: self.step.last && i + 1 == self.count,
            ..self.step
        })
    }
}

/// The most ticks any frame runs: 65,536, 18 minutes of 60 Hz ticks, which no ordinary frame
/// holds. A loop with no step cap (Glaiel's loop, a preset with only a clamp), or with a larger
/// one (a clamp of days over a 1 ms tick), is held to this: a gap in the frame times (a
/// capture's frame 100 days after the one before) then costs the same work as any long stall.
/// Whole ticks past it are cut, as a cap cuts them, and counted as dropped, so the work a frame
/// does is bounded by this, never by its length or the loop's settings.
pub const MAX_FRAME_STEPS: u32 = 1 << 16;

/// What one frame did, returned by [`Stepper::advance`] (and [`Stepper::last_frame`]). Times
/// are whole nanoseconds, rounded down where a rate's tick makes them fractional; the exact
/// figures are in [`Stepper::books`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct FrameStats {
    /// The frame time as measured, before the clamp.
    pub measured_ns: u64,
    /// The frame time after the clamp.
    pub clamped_ns: u64,
    /// Steps (ticks) taken this frame.
    pub steps: u32,
    /// Time integrated this frame.
    pub consumed_ns: u64,
    /// Time lost this frame to the clamp, the step cap, a resync or a slow fuzzy window.
    pub dropped_ns: u64,
    /// Time the loop's timer threw away this frame before the stepper saw it (Glaiel's "extra
    /// slow frame" becomes one tick; a snap's error). 0 for a stepper alone: a [`crate::Loop`]
    /// fills it in.
    pub discarded_by_timer_ns: u64,
    /// Time a fuzzy window ticked without having it, this frame.
    pub invented_ns: u64,
    /// How far game time is past the last tick, as a fraction of a tick: the blend factor where
    /// the mode blends, and how far the shown state lags real time where it does not. 0 in
    /// variable and semi-fixed modes.
    pub alpha: f64,
    /// The simulation time of the state shown this frame, in ns: the current state's time, or
    /// where the mode blends `t_previous + accumulator` (exactly `lerp(t_prev, t_cur, alpha)`).
    pub shown_ns: u64,
    /// True when the step cap cut this frame short.
    pub capped: bool,
}

impl FrameStats {
    /// [`FrameStats::alpha`] as `f32`, for a renderer that blends in `f32`.
    pub fn alpha_f32(&self) -> f32 {
        self.alpha as f32
    }
}

/// A loop's books, exactly, in units of `1/den` ns (`den` is the tick's denominator: 1 for a
/// tick of whole nanoseconds, 60 for a 60 Hz tick). They balance after every frame:
/// `measured + invented == consumed + dropped + discarded_by_timer + remainder`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Books {
    /// Units in a nanosecond.
    pub den: u64,
    /// Frame times handed in, as measured.
    pub measured: u128,
    /// Time ticked without having been measured (a fuzzy window; a timer's snap up or its
    /// primed average).
    pub invented: u128,
    /// Time integrated.
    pub consumed: u128,
    /// Time lost to the clamp, the step cap, a resync and slow fuzzy windows.
    pub dropped: u128,
    /// Time the timer threw away before the stepper saw it.
    pub discarded_by_timer: u128,
    /// Time measured and not yet consumed: the accumulator (the jitter fix's carried deficit
    /// can make it negative), and what a timer holds in its average (negative while it hands
    /// out its primed history).
    pub remainder: i128,
}

impl Books {
    /// Whether `measured + invented == consumed + dropped + discarded_by_timer + remainder`.
    pub fn balance(&self) -> bool {
        let left = self.measured as i128 + self.invented as i128;
        let right = self.consumed as i128
            + self.dropped as i128
            + self.discarded_by_timer as i128
            + self.remainder;
        left == right
    }

    /// `units` as nanoseconds (fractional where the tick is a rate's).
    pub fn ns_f(&self, units: u128) -> f64 {
        units as f64 / self.den.max(1) as f64
    }
}

/// Turns frame times into steps for the current [`Mode`], by the config's rules.
///
/// The design follows bevy_time's `Time<Fixed>` (accumulate, then expend whole steps), with two
/// differences that matter for a measuring tool: time thrown away by the clamp, the step cap or
/// a resync is counted in [`Stepper::dropped_ns`] rather than lost silently, and the books
/// balance after every frame: `measured + invented == consumed + dropped + remainder`.
///
/// The books are kept exactly in units of `1/den` ns, `den` the tick's denominator
/// ([`crate::Tick`]): a 60 Hz tick is exactly 5e7 units of 1/3 ns, and a frame that lands on
/// a multiple of 1/60 s ticks where exact arithmetic says. A step's [`Step::dt_ns`] is the tick
/// to the nearest ns.
///
/// ```
/// use timestep_loop::{Mode, Stepper, TimingConfig};
/// // bevy_time's test: 7 s at a 2 s step is 3 steps and 1 s left.
/// let cfg = TimingConfig::textbook(2_000_000_000, 10_000_000_000, None)?;
/// let mut stepper = Stepper::new(cfg, Mode::Fixed);
/// stepper.begin_frame(7_000_000_000);
/// let mut steps = 0;
/// while let Some(step) = stepper.next_step() {
///     assert_eq!(step.dt_ns, 2_000_000_000);
///     steps += 1;
/// }
/// assert_eq!(steps, 3);
/// assert_eq!(stepper.accumulator_ns(), 1_000_000_000);
/// assert_eq!(stepper.last_frame().alpha, 0.5);
/// # Ok::<(), timestep_loop::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Stepper {
    config: TimingConfig,
    /// The tick, exactly; every time below is in its units (1/den ns).
    tick: Tick,
    /// The step cap, at most [`MAX_FRAME_STEPS`] (none is that).
    cap: u32,
    mode: Mode,
    acc: u128,
    /// Godot's jitter fix, when that is the rule: it keeps its own accumulator.
    jitter: Option<JitterFix>,
    /// Glaiel's resync: an accumulator holding more than this, ns, is emptied (the time
    /// dropped) instead of caught up. Set frame by frame by the snapping timer.
    resync_over_ns: Option<u64>,
    /// Glaiel's `resync` flag: the next frame's accumulator is emptied whatever it holds.
    resync_next: bool,
    /// Time of the current state.
    sim: u128,
    /// Time of the state before the last step (the blend's `previous`).
    prev_sim: u128,
    steps_total: u64,
    measured_total: u128,
    consumed_total: u128,
    dropped_total: u128,
    invented_total: u128,
    /// The frame being stepped, between [`Stepper::begin_frame`] and its last step.
    frame: OpenFrame,
    /// Whether `frame` is open.
    open: bool,
    /// What the last finished frame did.
    last: FrameStats,
}

/// How the open frame's steps are decided, one at a time.
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// Variable: one step of everything there is.
    Once { done: bool },
    /// Semi-fixed: steps of `min(rest, tick)` until nothing is left.
    Slivers,
    /// A number of ticks decided up front (whole ticks; the jitter fix), each taken out of the
    /// accumulator (`take`) or not (the jitter fix keeps its own).
    Count { left: u64, take: bool },
    /// Glaiel's fuzzy window, in units.
    Fuzzy { above: u128, consume: u128 },
}

/// A frame between its start and its last step. Times in units.
#[derive(Clone, Copy, Debug)]
struct OpenFrame {
    measured_ns: u64,
    clamped_ns: u64,
    /// Dropped on the way in (the clamp, a resync).
    admitted_dropped: u128,
    plan: Plan,
    steps: u32,
    consumed: u128,
    dropped: u128,
    invented: u128,
    /// Whole ticks the cap cut.
    cut: Option<u128>,
    /// What the loop's timer threw away of this frame, ns.
    discarded_by_timer_ns: u64,
}

impl OpenFrame {
    const IDLE: OpenFrame = OpenFrame {
        measured_ns: 0,
        clamped_ns: 0,
        admitted_dropped: 0,
        plan: Plan::Once { done: true },
        steps: 0,
        consumed: 0,
        dropped: 0,
        invented: 0,
        cut: None,
        discarded_by_timer_ns: 0,
    };
}

/// What happened to a frame's time on its way in.
#[derive(Clone, Copy, Default)]
struct Admitted {
    clamped_ns: u64,
    dropped: u128,
}

impl Stepper {
    /// A stepper for `config`, stepping in `mode`, at time zero.
    pub fn new(config: TimingConfig, mode: Mode) -> Self {
        let jitter = match config.rule() {
            StepRule::JitterFix { permille } => Some(JitterFix::new(config.tick(), permille)),
            _ => None,
        };
        Stepper {
            config,
            tick: config.tick(),
            cap: config
                .max_steps()
                .map_or(MAX_FRAME_STEPS, |n| n.min(MAX_FRAME_STEPS)),
            mode,
            acc: 0,
            jitter,
            resync_over_ns: None,
            resync_next: false,
            sim: 0,
            prev_sim: 0,
            steps_total: 0,
            measured_total: 0,
            consumed_total: 0,
            dropped_total: 0,
            invented_total: 0,
            frame: OpenFrame::IDLE,
            open: false,
            last: FrameStats::default(),
        }
    }

    /// The settings it steps by.
    pub fn config(&self) -> &TimingConfig {
        &self.config
    }
    /// The mode it steps in.
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// Switches mode. The accumulator's remainder is kept: variable and semi-fixed consume it on
    /// their next frame, so no time is lost or invented by switching.
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }
    /// Sets Glaiel's resync (an accumulator holding more than `over_ns` is emptied), or none.
    pub fn set_resync(&mut self, over_ns: Option<u64>) {
        self.resync_over_ns = over_ns;
    }
    /// Glaiel's `resync = true`: the next frame empties the accumulator once its time is in
    /// (the time dropped), in the modes that accumulate.
    pub fn resync_next_frame(&mut self) {
        self.resync_next = true;
    }
    /// Measured time waiting in the accumulator, ns (rounded down).
    pub fn accumulator_ns(&self) -> u64 {
        self.tick.floor_ns(self.acc)
    }
    /// Measured time not yet consumed by a step (for the jitter fix: its accumulator plus its
    /// carried deficit, which can be negative), ns (rounded down).
    pub fn remainder_ns(&self) -> i64 {
        let den = i128::from(self.tick.den());
        let ns = tick::div_euclid(self.remainder_units(), den);
        ns.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }
    /// [`Stepper::remainder_ns`] in units of 1/den ns, exactly.
    fn remainder_units(&self) -> i128 {
        match &self.jitter {
            Some(j) => j.remainder_units(),
            None => self.acc as i128,
        }
    }
    /// Simulation time of the current state, ns (rounded down: sixty 60 Hz ticks are exactly
    /// 1 s).
    pub fn sim_ns(&self) -> u64 {
        self.tick.floor_ns(self.sim)
    }
    /// Steps taken so far.
    pub fn steps_total(&self) -> u64 {
        self.steps_total
    }
    /// Sum of all frame times handed in, before the clamp.
    pub fn measured_ns(&self) -> u64 {
        self.tick.floor_ns(self.measured_total)
    }
    /// Time integrated so far (equals [`Stepper::sim_ns`]).
    pub fn consumed_ns(&self) -> u64 {
        self.tick.floor_ns(self.consumed_total)
    }
    /// Time lost to the clamp, the step cap, resyncs and slow fuzzy windows so far, ns (rounded
    /// down).
    pub fn dropped_ns(&self) -> u64 {
        self.tick.floor_ns(self.dropped_total)
    }
    /// Time fuzzy windows ticked without having it, so far, ns (rounded down).
    pub fn invented_ns(&self) -> u64 {
        self.tick.floor_ns(self.invented_total)
    }
    /// The books, exactly (no timer: `discarded_by_timer` is 0).
    pub fn books(&self) -> Books {
        Books {
            den: self.tick.den(),
            measured: self.measured_total,
            invented: self.invented_total,
            consumed: self.consumed_total,
            dropped: self.dropped_total,
            discarded_by_timer: 0,
            remainder: self.remainder_units(),
        }
    }
    /// What the last finished frame did.
    pub fn last_frame(&self) -> &FrameStats {
        &self.last
    }

    /// How long the loop should wait before running a frame of `frame_ns`, ns: above zero only
    /// for MonoGame's rule, while less than a tick has accumulated (the loop sleeps, reads the
    /// clock again and adds what it measured).
    pub fn due_in_ns(&self, frame_ns: u64) -> u64 {
        if !(self.config.waits_for_tick() && self.mode.accumulates()) {
            return 0;
        }
        let have = self.acc.saturating_add(self.tick.units(frame_ns));
        let short = self.tick.in_units().saturating_sub(have);
        let den = u128::from(self.tick.den());
        u64::try_from(tick::div_ceil(short, den)).unwrap_or(u64::MAX)
    }

    /// Advances by one frame of `frame_ns` measured time, calling `step` for every step to take,
    /// in order. Returns what the frame did.
    pub fn advance(&mut self, frame_ns: u64, mut step: impl FnMut(Step)) -> FrameStats {
        self.begin_frame(frame_ns);
        while let Some(s) = self.next_step() {
            step(s);
        }
        self.last
    }

    /// Starts a frame of `frame_ns` measured time; take its steps with
    /// [`Stepper::next_step`]. A frame whose steps were not all taken ends here: the ticks it
    /// had left stay in the accumulator (under the jitter fix, which has already counted them
    /// out of its own, they are dropped), so the books still balance.
    pub fn begin_frame(&mut self, frame_ns: u64) {
        if self.open {
            self.close();
        }
        let admitted = self.admit(frame_ns);
        let mut cut = None;
        let tick = self.tick.in_units();
        let plan = match self.mode {
            Mode::Variable => Plan::Once { done: false },
            Mode::SemiFixed => Plan::Slivers,
            Mode::Fixed | Mode::Interpolated => match self.config.rule() {
                StepRule::Whole => {
                    // The spiral-of-death guard: whole ticks past the cap are cut; the sub-tick
                    // remainder is kept so alpha stays continuous.
                    let whole = tick::div(self.acc, tick);
                    let n = whole.min(u128::from(self.cap));
                    if whole > n {
                        cut = Some((whole - n) * tick);
                        self.acc -= (whole - n) * tick;
                    }
                    Plan::Count {
                        left: n as u64,
                        take: true,
                    }
                }
                StepRule::Fuzzy { above, consume } => Plan::Fuzzy {
                    above: tick * 60 / u128::from(above.max(1)),
                    consume: tick * 60 / u128::from(consume.max(1)),
                },
                StepRule::JitterFix { .. } => {
                    // Godot's jitter fix decides the ticks; the cap then drops whole ticks past
                    // it, as `Main::iteration` does (Godot 4.3 `main/main.cpp` 4031-4035).
                    let wanted = self
                        .jitter
                        .as_mut()
                        .map_or(0, |j| j.advance(admitted.clamped_ns));
                    let n = wanted.min(u64::from(self.cap));
                    cut = (wanted > n).then(|| u128::from(wanted - n) * tick);
                    Plan::Count {
                        left: n,
                        take: false,
                    }
                }
            },
        };
        self.open = true;
        self.frame = OpenFrame {
            measured_ns: frame_ns,
            clamped_ns: admitted.clamped_ns,
            admitted_dropped: admitted.dropped,
            plan,
            cut,
            ..OpenFrame::IDLE
        };
    }

    /// Notes what the loop's timer threw away of the open frame, for its [`FrameStats`].
    pub(crate) fn note_discarded_by_timer(&mut self, ns: u64) {
        self.frame.discarded_by_timer_ns = ns;
    }

    /// The open frame's next step, or `None` once it has none left (the frame is then finished:
    /// [`Stepper::last_frame`] says what it did). `None` too when no frame is open.
    pub fn next_step(&mut self) -> Option<Step> {
        if !self.open {
            return None;
        }
        let step = match self.frame.plan {
            Plan::Once { done } => self.once(done),
            Plan::Slivers => self.sliver(),
            Plan::Count { left, take } => self.counted(left, take),
            Plan::Fuzzy { above, consume } => self.fuzzy(above, consume),
        };
        if step.is_none() {
            self.close();
        }
        step
    }

    /// The open frame's next steps that are alike (a fixed frame's ticks come as one run), or
    /// `None` once it has none left, as [`Stepper::next_step`]. The same books as taking them
    /// one by one.
    pub fn next_run(&mut self) -> Option<StepRun> {
        if let Plan::Count { left, take } = self.frame.plan
            && self.open
            && left > 1
        {
            self.skip_ticks(left - 1, take);
            self.frame.plan = Plan::Count { left: 1, take };
            let step = self.next_step()?;
            return Some(StepRun { step, count: left });
        }
        // Semi-fixed's whole ticks before its last sliver are alike too (a 30 Hz frame of 1 ms
        // ticks is 33 of them), and one run spares asking for each.
        if let Plan::Slivers = self.frame.plan
            && self.open
            && let count @ 2.. = self.whole_slivers()
        {
            self.skip_ticks(count - 1, true);
            let step = self.next_step()?;
            return Some(StepRun { step, count });
        }
        self.next_step().map(|step| StepRun { step, count: 1 })
    }

    /// Takes `n` whole ticks of the open frame at once, with the books `n` steps would keep
    /// (`take`: out of the accumulator), short of the blend's `prev_sim`, which only the
    /// frame's next step sets.
    fn skip_ticks(&mut self, n: u64, take: bool) {
        let ticks = u128::from(n) * self.tick.in_units();
        self.sim += ticks;
        self.frame.steps += n as u32;
        self.frame.consumed += ticks;
        if take {
            self.acc -= ticks;
        }
    }

    /// How many whole ticks semi-fixed's next steps are before any of them is the frame's last
    /// (the one that empties the accumulator or reaches the cap), as [`Stepper::sliver`] would
    /// take them one by one.
    fn whole_slivers(&self) -> u64 {
        let tick = self.tick.in_units();
        // A whole tick is not the last while more than a tick is left after it...
        let before_last = tick::div_ceil(self.acc, tick).saturating_sub(1);
        // ...and the step after it is still under the cap.
        let under_cap = self.cap.saturating_sub(self.frame.steps.saturating_add(1));
        u64::try_from(before_last)
            .unwrap_or(u64::MAX)
            .min(u64::from(under_cap))
    }

    /// Takes every step the open frame has left without handing them out (for a caller that
    /// only keeps time), and finishes it. The same books as taking them one by one.
    pub fn finish_frame(&mut self) -> &FrameStats {
        while self.next_run().is_some() {}
        &self.last
    }

    /// Variable: one step of everything available (the clamped frame plus any remainder left
    /// by a previous fixed mode). A zero-length frame takes no step. Never capped.
    fn once(&mut self, done: bool) -> Option<Step> {
        let all = self.acc;
        if done || all == 0 {
            return None;
        }
        self.frame.plan = Plan::Once { done: true };
        Some(self.take(all, true))
    }

    /// Semi-fixed: steps of `min(remaining, dt)` until the frame is used up; at the cap, the
    /// rest is cut.
    fn sliver(&mut self) -> Option<Step> {
        if self.acc == 0 {
            return None;
        }
        if self.frame.steps == self.cap {
            self.frame.cut = Some(std::mem::take(&mut self.acc));
            return None;
        }
        let h = self.acc.min(self.tick.in_units());
        let last = h == self.acc || self.frame.steps + 1 == self.cap;
        Some(self.take(h, last))
    }

    /// One of the ticks decided when the frame began.
    fn counted(&mut self, left: u64, take: bool) -> Option<Step> {
        if left == 0 {
            return None;
        }
        self.frame.plan = Plan::Count {
            left: left - 1,
            take,
        };
        let tick = self.tick.in_units();
        let step = self.step(tick, left == 1);
        if take {
            self.acc -= tick;
        }
        Some(step)
    }

    /// Glaiel's fuzzy window: a tick while the accumulator is above `above`, each taking
    /// `consume` off it and never leaving it below zero. Time a tick had without measuring it
    /// is counted as invented; time a tick consumed beyond its own length, as dropped.
    fn fuzzy(&mut self, above: u128, consume: u128) -> Option<Step> {
        if self.acc <= above {
            return None;
        }
        let tick = self.tick.in_units();
        if self.frame.steps == self.cap {
            let cut = self.acc - self.acc % tick;
            self.acc -= cut;
            self.frame.cut = Some(cut);
            return None;
        }
        let after = self.acc.saturating_sub(consume);
        self.frame.invented += consume.saturating_sub(self.acc);
        self.frame.dropped += consume.saturating_sub(tick);
        let last = after <= above || self.frame.steps + 1 == self.cap;
        let step = self.step(tick, last);
        self.acc = after;
        Some(step)
    }

    /// Finishes the open frame: its figures, and the running totals.
    fn close(&mut self) {
        self.open = false;
        let open = self.frame;
        let mut cut = open.cut;
        if let Plan::Count { left, take: false } = open.plan
            && left > 0
        {
            // A jitter-fix frame left undrained: its ticks are gone from the fix's own books.
            cut = Some(cut.unwrap_or(0) + u128::from(left) * self.tick.in_units());
        }
        let dropped = open.admitted_dropped + open.dropped + cut.unwrap_or(0);
        let (alpha, shown_ns) = self.shown();
        // Units of frame times that come from a clock cannot sum past u128::MAX; anything else
        // saturates instead of wrapping, and the stepper never panics on its input.
        self.steps_total += u64::from(open.steps);
        let measured = self.tick.units(open.measured_ns);
        self.measured_total = self.measured_total.saturating_add(measured);
        self.consumed_total = self.consumed_total.saturating_add(open.consumed);
        self.dropped_total = self.dropped_total.saturating_add(dropped);
        self.invented_total = self.invented_total.saturating_add(open.invented);
        let ns = |units| self.tick.floor_ns(units);
        self.last = FrameStats {
            measured_ns: open.measured_ns,
            clamped_ns: open.clamped_ns,
            steps: open.steps,
            consumed_ns: ns(open.consumed),
            dropped_ns: ns(dropped),
            discarded_by_timer_ns: open.discarded_by_timer_ns,
            invented_ns: ns(open.invented),
            alpha,
            shown_ns,
            capped: cut.is_some(),
        };
    }

    /// The frame's time in: clamped (the delta, or the accumulator), then resynced if the
    /// accumulator holds too many ticks. The jitter fix takes the clamped time itself.
    fn admit(&mut self, frame_ns: u64) -> Admitted {
        let clamp_ns = self.config.clamp_ns().unwrap_or(u64::MAX);
        let clamped_ns = match self.config.clamp_on() {
            ClampOn::Delta => frame_ns.min(clamp_ns),
            ClampOn::Accumulator => frame_ns,
        };
        let mut dropped = self.tick.units(frame_ns - clamped_ns);
        let resync_now = std::mem::take(&mut self.resync_next);
        if self.jitter.is_some() && self.mode.accumulates() {
            return Admitted {
                clamped_ns,
                dropped,
            };
        }
        self.acc = self.acc.saturating_add(self.tick.units(clamped_ns));
        let clamp = self.tick.units(clamp_ns);
        if self.config.clamp_on() == ClampOn::Accumulator && self.acc > clamp {
            dropped += self.acc - clamp;
            self.acc = clamp;
        }
        let over = self
            .resync_over_ns
            .is_some_and(|ns| self.acc > self.tick.units(ns));
        if self.mode.accumulates() && (resync_now || over) {
            dropped += std::mem::take(&mut self.acc);
        }
        Admitted {
            clamped_ns,
            dropped,
        }
    }

    /// Alpha and the simulation time of the state shown: in accumulating modes the time past
    /// the last tick as a fraction of it, and for a blending mode `t_previous + that time`
    /// (exactly `lerp(t_prev, t_cur, alpha)`); otherwise 0 and the current state's time.
    fn shown(&self) -> (f64, u64) {
        if !self.mode.accumulates() {
            return (0.0, self.sim_ns());
        }
        let past = match &self.jitter {
            Some(j) => j.accum_units().max(0) as u128,
            None => self.acc,
        };
        let alpha = tick::to_f64(past) / tick::to_f64(self.tick.in_units());
        if self.mode.blends() {
            // Never later than the newest state: before the first tick the blend is of the
            // start with itself, which is time 0.
            let shown = (self.prev_sim + past).min(self.sim);
            (alpha, self.tick.floor_ns(shown))
        } else {
            (alpha, self.sim_ns())
        }
    }

    /// A step of `units` taken out of the accumulator.
    fn take(&mut self, units: u128, last: bool) -> Step {
        let step = self.step(units, last);
        self.acc -= units;
        step
    }

    /// A step of `units` of simulated time (the accumulator is the caller's to adjust); its
    /// `dt_ns` is that to the nearest ns.
    fn step(&mut self, units: u128, last: bool) -> Step {
        self.prev_sim = self.sim;
        self.sim += units;
        self.frame.steps += 1;
        self.frame.consumed += units;
        let den = u128::from(self.tick.den());
        Step {
            dt_ns: u64::try_from(tick::div(units + den / 2, den)).unwrap_or(u64::MAX),
            last,
            substeps: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn stepper(mode: Mode, dt: u64, clamp: u64, cap: Option<u32>) -> Stepper {
        Stepper::new(TimingConfig::textbook(dt, clamp, cap).unwrap(), mode)
    }

    fn advance(s: &mut Stepper, frame: u64) -> (FrameStats, Vec<Step>) {
        let mut v = Vec::new();
        let f = s.advance(frame, |st| v.push(st));
        (f, v)
    }

    #[test]
    fn seven_seconds_at_a_two_second_step_is_three_steps_and_one_second_left() {
        let mut s = stepper(Mode::Fixed, 2_000 * MS, 10_000 * MS, None);
        let (f, steps) = advance(&mut s, 7_000 * MS);
        assert_eq!(f.steps, 3);
        assert_eq!(steps.iter().map(|s| s.dt_ns).sum::<u64>(), 6_000 * MS);
        assert_eq!(s.accumulator_ns(), 1_000 * MS);
        assert_eq!(f.alpha, 0.5);
        assert!(steps[2].last && !steps[0].last);
    }

    #[test]
    fn variable_takes_one_step_of_the_clamped_frame() {
        let mut s = stepper(Mode::Variable, MS, 250 * MS, None);
        let (f, steps) = advance(&mut s, 16_666_667);
        assert_eq!(
            steps,
            vec![Step {
                dt_ns: 16_666_667,
                last: true,
                substeps: 1
            }]
        );
        assert_eq!(f.alpha, 0.0);
        let (f, steps) = advance(&mut s, 0);
        assert!(steps.is_empty());
        assert_eq!(f.steps, 0);
    }

    #[test]
    fn semi_fixed_ends_each_frame_with_the_sliver_that_is_left() {
        let mut s = stepper(Mode::SemiFixed, MS, 250 * MS, None);
        let (_, steps) = advance(&mut s, 2_500_000);
        let dts: Vec<u64> = steps.iter().map(|s| s.dt_ns).collect();
        assert_eq!(dts, vec![MS, MS, 500_000]);
        assert_eq!(s.accumulator_ns(), 0);
        assert!(steps[2].last);
    }

    #[test]
    fn interpolated_shows_the_previous_state_time_plus_the_remainder() {
        let mut s = stepper(Mode::Interpolated, 10 * MS, 250 * MS, None);
        let (f, _) = advance(&mut s, 25 * MS);
        // Two steps: current at 20 ms, previous at 10 ms, 5 ms left: shows 15 ms.
        assert_eq!(s.sim_ns(), 20 * MS);
        assert_eq!(f.shown_ns, 15 * MS);
        assert_eq!(f.alpha, 0.5);
    }

    #[test]
    fn a_long_frame_is_clamped_and_the_excess_reported_as_dropped() {
        let mut s = stepper(Mode::Fixed, MS, 250 * MS, None);
        let (f, _) = advance(&mut s, 5_000 * MS);
        assert_eq!(f.steps, 250);
        assert_eq!(f.dropped_ns, 4_750 * MS);
        assert_eq!(s.sim_ns(), 250 * MS);
    }

    #[test]
    fn the_step_cap_drops_whole_steps_and_keeps_the_remainder() {
        let mut s = stepper(Mode::Fixed, MS, 250 * MS, Some(10));
        let (f, _) = advance(&mut s, 25_500_000);
        assert_eq!(f.steps, 10);
        assert!(f.capped);
        assert_eq!(f.dropped_ns, 15 * MS);
        assert_eq!(s.accumulator_ns(), 500_000);
        let mut semi = stepper(Mode::SemiFixed, MS, 250 * MS, Some(10));
        let (f, _) = advance(&mut semi, 25_500_000);
        assert_eq!(f.steps, 10);
        assert_eq!(f.dropped_ns, 15_500_000);
    }

    #[test]
    fn switching_to_variable_consumes_the_fixed_remainder() {
        let mut s = stepper(Mode::Fixed, 10 * MS, 250 * MS, None);
        advance(&mut s, 15 * MS);
        s.set_mode(Mode::Variable);
        let (_, steps) = advance(&mut s, 16 * MS);
        assert_eq!(steps[0].dt_ns, 21 * MS);
        assert_eq!(
            s.consumed_ns() + s.dropped_ns() + s.accumulator_ns(),
            s.measured_ns()
        );
    }

    fn books_balance(s: &Stepper) {
        let b = s.books();
        assert!(
            b.balance(),
            "measured + invented == consumed + dropped + remainder: {b:?}"
        );
    }

    fn with(config: TimingConfig, mode: Mode) -> Stepper {
        Stepper::new(config, mode)
    }

    const TICK: u64 = 16_666_667;

    /// Every step rule, the fuzzy window and jitter fix at their presets' settings.
    const RULES: [StepRule; 3] = [
        StepRule::Whole,
        StepRule::Fuzzy {
            above: 61,
            consume: 59,
        },
        StepRule::JitterFix { permille: 500 },
    ];

    #[test]
    fn a_fuzzy_window_ticks_on_a_slightly_short_frame_and_counts_the_time_it_invented() {
        let cfg = TimingConfig::textbook(TICK, 250 * MS, None)
            .and_then(|c| {
                c.with_rule(StepRule::Fuzzy {
                    above: 62,
                    consume: 60,
                })
            })
            .unwrap();
        let mut s = with(cfg, Mode::Fixed);
        // 16.5 ms is short of a tick but above 1/62 s: one tick, and 0.17 ms invented.
        let (f, _) = advance(&mut s, 16_500_000);
        assert_eq!(f.steps, 1);
        assert_eq!(s.accumulator_ns(), 0, "never below zero");
        assert_eq!(f.invented_ns, TICK - 16_500_000);
        // 15 ms is below 1/62 s: no tick.
        let (f, _) = advance(&mut s, 15_000_000);
        assert_eq!(f.steps, 0);
        books_balance(&s);
    }

    #[test]
    fn a_slow_fuzzy_window_drops_what_each_tick_consumes_beyond_itself() {
        // 59-61: tick while acc > 1/61 s, take 1/59 s: one tick per 59.94 Hz frame, so the game
        // runs at the display's rate (59.94/60).
        let cfg = TimingConfig::textbook(TICK, 250 * MS, None)
            .and_then(|c| {
                c.with_rule(StepRule::Fuzzy {
                    above: 61,
                    consume: 59,
                })
            })
            .unwrap();
        let mut s = with(cfg, Mode::Fixed);
        for _ in 0..600 {
            let (f, _) = advance(&mut s, 16_683_350);
            assert_eq!(f.steps, 1, "one tick per 59.94 Hz frame, never two");
        }
        // Each tick consumes 1/59 s: the 0.28 ms beyond its own length is dropped, and the
        // 0.27 ms beyond the frame it had is invented (the accumulator stops at zero).
        let consume = TICK * 60 / 59;
        assert_eq!(s.dropped_ns(), 600 * (consume - TICK));
        assert_eq!(s.invented_ns(), 600 * (consume - 16_683_350));
        books_balance(&s);
    }

    #[test]
    fn monogame_clamps_the_accumulator_and_waits_for_a_whole_tick() {
        let cfg = TimingConfig::new(16_666_700)
            .and_then(|c| c.with_accumulator_clamp(500 * MS))
            .unwrap()
            .waiting_for_tick();
        let mut s = with(cfg, Mode::Fixed);
        assert_eq!(s.due_in_ns(10 * MS), 6_666_700, "sleep until a tick is due");
        assert_eq!(s.due_in_ns(17 * MS), 0);
        // A 1 s stall: the accumulator holds 500 ms, which is 29 ticks (MonoGame Game.cs Tick).
        let (f, _) = advance(&mut s, 1_000 * MS);
        assert_eq!(f.steps, 29);
        assert_eq!(f.dropped_ns, 500 * MS);
        assert_eq!(s.accumulator_ns(), 500 * MS - 29 * 16_666_700);
        books_balance(&s);
    }

    #[test]
    fn an_accumulator_past_its_resync_limit_is_emptied_and_the_time_dropped() {
        let cfg = TimingConfig::new(TICK).unwrap();
        let mut s = with(cfg, Mode::Fixed);
        s.set_resync(Some(8 * TICK));
        let (f, _) = advance(&mut s, 8 * TICK);
        assert_eq!(f.steps, 8, "exactly 8 ticks is not past the limit");
        let (f, _) = advance(&mut s, 8 * TICK + 1);
        assert_eq!(
            (f.steps, f.dropped_ns),
            (0, 8 * TICK + 1),
            "past it: resynced to zero"
        );
        books_balance(&s);
        // Glaiel's `resync = true`: the next frame is emptied whatever it holds.
        s.resync_next_frame();
        let (f, _) = advance(&mut s, 2 * TICK);
        assert_eq!((f.steps, f.dropped_ns), (0, 2 * TICK));
        let (f, _) = advance(&mut s, 2 * TICK);
        assert_eq!(f.steps, 2, "once");
        books_balance(&s);
    }

    #[test]
    fn the_jitter_fix_never_loses_time_and_the_cap_drops_whole_ticks() {
        let cfg = TimingConfig::new(TICK)
            .and_then(|c| c.with_rule(StepRule::JitterFix { permille: 500 }))
            .and_then(|c| c.with_max_steps(8))
            .unwrap();
        let mut s = with(cfg, Mode::Interpolated);
        for _ in 0..100 {
            advance(&mut s, 6_944_444);
            books_balance(&s);
        }
        // A 1 s stall asks for about 60 ticks; Godot runs 8 and drops the rest for good.
        let (f, _) = advance(&mut s, 1_000 * MS);
        assert_eq!(f.steps, 8);
        assert_eq!(f.dropped_ns % TICK, 0, "whole ticks");
        assert!(
            (50..=52).contains(&(f.dropped_ns / TICK)),
            "{}",
            f.dropped_ns / TICK
        );
        books_balance(&s);
    }

    #[test]
    fn pull_and_push_step_alike_in_every_mode_and_rule() {
        let frames = [
            16_683_350u64,
            3_000_000,
            40_000_000,
            0,
            16_600_000,
            1_000_000_000,
            7_000,
        ];
        for mode in Mode::ALL {
            for rule in RULES {
                let cfg = TimingConfig::textbook(TICK, 250 * MS, Some(8))
                    .and_then(|c| c.with_rule(rule))
                    .unwrap();
                let (mut push, mut pull) = (with(cfg, mode), with(cfg, mode));
                for &f in &frames {
                    let (pushed, pushed_steps) = advance(&mut push, f);
                    pull.begin_frame(f);
                    let mut pulled_steps = Vec::new();
                    while let Some(s) = pull.next_step() {
                        pulled_steps.push(s);
                    }
                    assert_eq!(pushed_steps, pulled_steps, "{mode} {rule:?}");
                    assert_eq!(&pushed, pull.last_frame(), "{mode} {rule:?}");
                    books_balance(&pull);
                }
            }
        }
    }

    #[test]
    fn a_gap_in_a_loop_without_cap_or_clamp_runs_a_bounded_number_of_ticks() {
        // A frame 1e9 s long (a capture's gap) in every mode and rule, with no cap and no
        // clamp: at most MAX_FRAME_STEPS ticks, the rest dropped, the books balanced.
        let gap = 1_000_000_000 * 1_000_000_000;
        for mode in Mode::ALL {
            for rule in RULES {
                let cfg = TimingConfig::new(TICK)
                    .and_then(|c| c.with_rule(rule))
                    .unwrap();
                let mut s = with(cfg, mode);
                advance(&mut s, TICK);
                s.begin_frame(gap);
                let mut steps = 0u64;
                while let Some(run) = s.next_run() {
                    steps += run.count;
                }
                let f = *s.last_frame();
                assert!(
                    steps <= u64::from(MAX_FRAME_STEPS),
                    "{mode} {rule:?}: {steps}"
                );
                assert_eq!(steps, u64::from(f.steps));
                books_balance(&s);
                if mode.accumulates() {
                    assert!(f.capped && f.dropped_ns > gap / 2, "{mode} {rule:?}: {f:?}");
                }
            }
        }
    }

    #[test]
    fn a_clamp_of_days_or_a_cap_past_the_ceiling_still_runs_at_most_max_frame_steps() {
        // A clamp of 1e7 s over a 1 ms tick makes a default cap of 1e10 ticks, and a user may
        // ask for u32::MAX: a 100-day frame still runs MAX_FRAME_STEPS ticks, the rest dropped.
        let day = 86_400 * 1_000_000_000;
        for max_steps in [None, Some(u32::MAX)] {
            let cfg = TimingConfig::textbook(MS, 10_000_000 * 1_000_000_000, max_steps).unwrap();
            let mut s = with(cfg, Mode::Fixed);
            s.begin_frame(100 * day);
            let mut steps = 0u64;
            while let Some(run) = s.next_run() {
                steps += run.count;
            }
            assert_eq!(steps, u64::from(MAX_FRAME_STEPS), "{max_steps:?}");
            let f = *s.last_frame();
            assert!(f.capped && f.dropped_ns > 99 * day, "{f:?}");
            books_balance(&s);
        }
    }

    #[test]
    fn a_frame_left_undrained_keeps_its_ticks_for_the_next_and_the_books_balance() {
        let mut s = stepper(Mode::Fixed, 10 * MS, 250 * MS, None);
        s.begin_frame(35 * MS);
        assert!(s.next_step().is_some());
        s.begin_frame(10 * MS);
        assert_eq!(s.last_frame().steps, 1);
        let mut n = 0;
        while s.next_step().is_some() {
            n += 1;
        }
        assert_eq!(n, 3, "the two ticks left over and this frame's one");
        books_balance(&s);
        assert_eq!(s.next_step(), None, "no frame open");
    }

    #[test]
    fn runs_of_steps_are_the_steps_one_by_one() {
        let frames = [
            16_683_350u64,
            3_000_000,
            40_000_000,
            0,
            1_000_000_000,
            7_000,
        ];
        for mode in Mode::ALL {
            for rule in [StepRule::Whole, StepRule::JitterFix { permille: 500 }] {
                let cfg = TimingConfig::textbook(MS, 250 * MS, Some(40))
                    .and_then(|c| c.with_rule(rule))
                    .unwrap();
                let (mut one, mut runs) = (with(cfg, mode), with(cfg, mode));
                for &f in &frames {
                    let (a, steps) = advance(&mut one, f);
                    runs.begin_frame(f);
                    let mut ran = Vec::new();
                    while let Some(run) = runs.next_run() {
                        ran.extend(run.steps());
                    }
                    assert_eq!(steps, ran, "{mode} {rule:?}");
                    assert_eq!(&a, runs.last_frame());
                    books_balance(&runs);
                }
            }
        }
    }

    #[test]
    fn finishing_a_frame_at_once_keeps_the_same_books_as_stepping_it() {
        let frames = [
            16_683_350u64,
            3_000_000,
            40_000_000,
            0,
            1_000_000_000,
            7_000,
        ];
        for mode in Mode::ALL {
            for rule in RULES {
                let cfg = TimingConfig::textbook(MS, 250 * MS, Some(40))
                    .and_then(|c| c.with_rule(rule))
                    .unwrap();
                let (mut stepped, mut finished) = (with(cfg, mode), with(cfg, mode));
                for &f in &frames {
                    let (a, _) = advance(&mut stepped, f);
                    finished.begin_frame(f);
                    assert_eq!(&a, finished.finish_frame(), "{mode} {rule:?}");
                    assert_eq!(stepped.sim_ns(), finished.sim_ns());
                    books_balance(&finished);
                }
            }
        }
    }

    /// Frame ends at 144 Hz and at 1 kHz on a clock of whole ns: `round(k × 1e9 / hz)`.
    fn frame_ends(hz: u64, frames: u64) -> impl Iterator<Item = u64> {
        (1..=frames).map(move |k| (k * 1_000_000_000 + hz / 2) / hz)
    }

    #[test]
    fn a_rate_tick_ticks_where_exact_arithmetic_says() {
        // A 60 Hz tick is exactly 1/60 s: after a frame ending at t there have been
        // floor(t × 60 / 1 s) ticks. A tick of 16,666,667 ns ticks a frame late wherever t is
        // a multiple of 1/60 s (639 of 5,761 frames at 144 Hz, 799 of 20,001 at 1 kHz).
        let sixty = Tick::per_second(60).unwrap();
        for (hz, frames) in [(144, 5_761), (1_000, 20_001)] {
            let mut s = with(TimingConfig::new(sixty).unwrap(), Mode::Fixed);
            let mut last = 0;
            for t in frame_ends(hz, frames) {
                advance(&mut s, t - last);
                last = t;
                assert_eq!(s.steps_total(), t * 60 / 1_000_000_000, "{hz} Hz at {t} ns");
            }
            // Sixty ticks are one second: the clock is exact, and so are the books.
            assert_eq!(s.sim_ns(), s.steps_total() * 1_000_000_000 / 60);
            books_balance(&s);
        }
    }

    #[test]
    fn a_one_second_hitch_at_a_60_hz_tick_drops_exactly_what_the_clamp_does() {
        // 250 ms holds 15 ticks of 1/60 s, and with a remainder carried from the frame before
        // 15 ticks of 16,666,667 ns: the default cap lets them all through, and only the clamp
        // drops time (a cap of 14 would drop a tick more: 766.7 ms).
        for tick in [Tick::per_second(60).unwrap(), Tick::from_ns(TICK)] {
            let cfg = TimingConfig::textbook(tick, 250 * MS, None).unwrap();
            let mut s = with(cfg, Mode::Fixed);
            advance(&mut s, 10 * MS);
            let (f, _) = advance(&mut s, 1_000 * MS);
            assert_eq!(
                (f.steps, f.dropped_ns, f.capped),
                (15, 750 * MS, false),
                "{tick}"
            );
            books_balance(&s);
        }
    }
}
