//! The machine a simulated loop runs on (`--machine`): how its clock reads and how a native
//! sleep wakes; and how the loop waits (`--sleep`). [`profile`] is a machine as `probe`
//! measured it.
//!
//! Each model follows the sources it names:
//! - `windows-default`: `Sleep` wakes at a timer interrupt, 64 a second (15.625 ms): "If
//!   dwMilliseconds is less than the resolution of the system clock, the thread may sleep for
//!   less than the specified length of time. If dwMilliseconds is greater than one tick but less
//!   than two, the wait can be anywhere between one and two ticks" (Microsoft Learn, `Sleep`;
//!   the 15.625 ms default: B. Dawson, "Windows Timer Resolution: Megawatts Wasted", 2013). The
//!   clock is QueryPerformanceCounter's 10 MHz (100 ns readings).
//! - `windows-1ms`: the same after `timeBeginPeriod(1)` (per process since Windows 10 2004).
//! - `linux`: `nanosleep` never wakes early and is late by the timer slack (50 µs by default,
//!   `include/linux/init_task.h`) and the wake-up: 1 ms sleeps measured 1.054 to 1.058 ms
//!   (spin_sleep's `experiments/README.md`, an AMD 5800X), so 54 to 58 µs late, uniform. The
//!   clock reads to the nanosecond.
//! - `browser`: `performance.now()` is coarsened to 100 µs (W3C High Resolution Time, "coarsen
//!   time"; 5 µs only when cross-origin isolated); a game loop's `setTimeout` is nested, and
//!   nested timeouts wait at least 4 ms (HTML Living Standard, timer initialisation steps).
//! - a profile (`probe --out`): readings in steps of its clock resolution; a native sleep late by
//!   an overshoot drawn from what was measured for the nearest request.
//!
//! `--sleep spin` waits as spin_sleep does (alexheretic/spin-sleep, `src/lib.rs`): a native
//! sleep for all but the machine's native accuracy, then reads the clock until the deadline,
//! spending the CPU; the accuracy is one timer interrupt on Windows' tick-based `Sleep`,
//! spin_sleep's own 125 µs on Unix, 4 ms in a browser, a profile's as measured.

pub mod profile;

pub use profile::{
    MachineProfile, ProfileError, ProfileProblem, QUANTILES, SampleProblem, SleepSample,
};

use std::fmt;
use std::path::{Path, PathBuf};
use timestep_loop::{Named, UnknownName};

/// Windows' default timer interrupt period, ns.
pub const WINDOWS_TICK_NS: u64 = 15_625_000;
/// QueryPerformanceCounter's resolution on current Windows (10 MHz), ns.
const QPC_NS: u64 = 100;
/// How late Linux's `nanosleep` wakes: the 50 µs slack and the wake-up, ns.
const LINUX_LATE_NS: (u64, u64) = (54_000, 58_000);
/// spin_sleep's native accuracy on Unix, ns.
const SPIN_SLEEP_UNIX_NS: u64 = 125_000;
/// `performance.now()`'s resolution without cross-origin isolation, ns.
const BROWSER_CLOCK_NS: u64 = 100_000;
/// The shortest nested `setTimeout`, ns.
const BROWSER_MIN_TIMEOUT_NS: u64 = 4_000_000;

/// A machine a simulated loop runs on: how its clock reads and how its sleeps wake (set by
/// `--machine`).
#[derive(Clone, Debug, PartialEq)]
pub enum Machine {
    /// An exact clock and sleeps that wake on time: the simulated display's own (the default).
    Exact,
    /// Windows at its default 15.625 ms timer interrupt: a 100 ns clock, sleeps that wake on a
    /// timer tick.
    WindowsDefault,
    /// Windows with the timer at 1 ms (`timeBeginPeriod(1)`): a 100 ns clock, sleeps that wake
    /// on a 1 ms tick.
    Windows1ms,
    /// Linux: a 1 ns clock, sleeps that wake 54 to 58 µs late (`nanosleep`'s slack).
    Linux,
    /// A browser: a 100 µs clock (`performance.now()`), sleeps no shorter than 4 ms
    /// (nested `setTimeout`).
    Browser,
    /// Measured by `probe`, from this file.
    Measured(Box<MachineProfile>, PathBuf),
}

/// How a loop waits (`--sleep`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sleep {
    /// The OS's sleep alone.
    Native,
    /// Native, then spin to the deadline (spin_sleep).
    #[default]
    Spin,
}

impl Named for Sleep {
    const ALL: &'static [Sleep] = &[Sleep::Native, Sleep::Spin];
    const WHAT: &'static str = "sleep";
    fn name(self) -> &'static str {
        match self {
            Sleep::Native => "native",
            Sleep::Spin => "spin",
        }
    }
}

impl fmt::Display for Sleep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Sleep {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Sleep, UnknownName> {
        Sleep::parse(s)
    }
}

/// A machine's text (`--machine`) that names no machine, or a profile that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MachineError {
    /// Neither a built-in machine's name nor a `.json` file (the text given).
    #[error(
        "unknown machine '{0}' (expected {names}, or a FILE.json from timestep-rope probe --out)",
        names = Machine::NAMES.join(", ")
    )]
    Unknown(String),
    /// A profile that cannot be loaded.
    #[error(transparent)]
    Profile(#[from] ProfileError),
}

impl Machine {
    /// The built-in machines by name.
    pub const NAMES: [&'static str; 4] = ["windows-default", "windows-1ms", "linux", "browser"];

    /// A built-in machine, or the profile in a file (`FILE.json`).
    pub fn parse(s: &str) -> Result<Machine, MachineError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "windows-default" => Ok(Machine::WindowsDefault),
            "windows-1ms" => Ok(Machine::Windows1ms),
            "linux" => Ok(Machine::Linux),
            "browser" => Ok(Machine::Browser),
            _ if s.ends_with(".json") => {
                let path = Path::new(s);
                let profile = MachineProfile::load(path)?;
                Ok(Machine::Measured(Box::new(profile), path.to_owned()))
            }
            _ => Err(MachineError::Unknown(s.into())),
        }
    }

    /// Readings of its clock are multiples of this, ns.
    pub fn clock_ns(&self) -> u64 {
        match self {
            Machine::Exact | Machine::Linux => 1,
            Machine::WindowsDefault | Machine::Windows1ms => QPC_NS,
            Machine::Browser => BROWSER_CLOCK_NS,
            Machine::Measured(p, _) => p.clock_resolution_ns.max(1),
        }
    }

    /// How close to a deadline a native sleep can be trusted to wake, ns: `--sleep spin`
    /// sleeps natively until this much before it.
    pub fn native_accuracy_ns(&self) -> u64 {
        match self {
            Machine::Exact => 0,
            Machine::WindowsDefault => WINDOWS_TICK_NS,
            Machine::Windows1ms => 1_000_000,
            Machine::Linux => SPIN_SLEEP_UNIX_NS,
            Machine::Browser => BROWSER_MIN_TIMEOUT_NS,
            Machine::Measured(p, _) => p.spin_threshold_ns,
        }
    }

    /// When a native sleep of `ns` asked for at `now_ns` wakes; `u` is uniform in [0, 1).
    pub fn native_wake(&self, now_ns: u64, ns: u64, u: f64) -> u64 {
        match self {
            Machine::Exact => now_ns + ns,
            Machine::WindowsDefault => tick_wake(now_ns, ns, WINDOWS_TICK_NS),
            Machine::Windows1ms => tick_wake(now_ns, ns, 1_000_000),
            Machine::Linux => {
                let (lo, hi) = LINUX_LATE_NS;
                now_ns + ns + lo + ((hi - lo) as f64 * u) as u64
            }
            Machine::Browser => now_ns + ns.max(BROWSER_MIN_TIMEOUT_NS),
            Machine::Measured(p, _) => now_ns + ns + p.native_nearest(ns).overshoot_at(u),
        }
    }
}

/// `Sleep` on a tick-based timer: the `ceil(ns / tick)`-th timer interrupt after the call (so
/// anywhere from `ns − tick` to `ns` after it, or at once for 0).
fn tick_wake(now_ns: u64, ns: u64, tick_ns: u64) -> u64 {
    if ns == 0 {
        return now_ns;
    }
    (now_ns / tick_ns + ns.div_ceil(tick_ns)) * tick_ns
}

impl fmt::Display for Machine {
    /// As typed: `windows-default`, or the profile's file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Machine::Exact => f.write_str("exact"),
            Machine::WindowsDefault => f.write_str("windows-default"),
            Machine::Windows1ms => f.write_str("windows-1ms"),
            Machine::Linux => f.write_str("linux"),
            Machine::Browser => f.write_str("browser"),
            Machine::Measured(_, path) => write!(f, "{}", path.display()),
        }
    }
}

/// A loop's waits on a machine: when each ends, and the CPU spent spinning.
#[derive(Clone, Debug)]
pub struct Waits {
    machine: Machine,
    sleep: Sleep,
    rng: fastrand::Rng,
    spun_ns: u64,
}

impl Waits {
    /// Waits on `machine` the `sleep` way, its randomness seeded by `seed`.
    pub fn new(machine: Machine, sleep: Sleep, seed: u64) -> Waits {
        Waits {
            machine,
            sleep,
            rng: fastrand::Rng::with_seed(seed ^ 0x51ee_9000),
            spun_ns: 0,
        }
    }

    /// The machine's clock read at true time `t_ns`.
    pub fn read(&self, t_ns: u64) -> u64 {
        let q = self.machine.clock_ns();
        t_ns - t_ns % q
    }

    /// When a wait of `ns` from `now_ns` ends.
    pub fn wake(&mut self, now_ns: u64, ns: u64) -> u64 {
        if ns == 0 {
            return now_ns;
        }
        let deadline = now_ns + ns;
        match self.sleep {
            Sleep::Native => self.machine.native_wake(now_ns, ns, self.rng.f64()),
            Sleep::Spin => {
                let native = ns.saturating_sub(self.machine.native_accuracy_ns());
                let woke = if native > 0 {
                    self.machine.native_wake(now_ns, native, self.rng.f64())
                } else {
                    now_ns
                };
                // Spin until the clock reads the deadline: its first reading at or past it.
                let q = self.machine.clock_ns();
                let end = woke.max(deadline.div_ceil(q) * q);
                self.spun_ns += end - woke;
                end
            }
        }
    }

    /// The CPU time spent spinning so far, ns.
    pub fn spun_ns(&self) -> u64 {
        self.spun_ns
    }

    /// The machine waited on.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// How the loop waits: natively or spinning to the deadline.
    pub fn sleep(&self) -> Sleep {
        self.sleep
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn windows_sleep_wakes_at_the_timer_interrupt_early_or_late() {
        let m = Machine::WindowsDefault;
        // 2 ms into a tick, Sleep(14.67 ms) is one tick: it wakes at 15.625 ms, early.
        assert_eq!(m.native_wake(2 * MS, 14_670_000, 0.5), WINDOWS_TICK_NS);
        // Sleep(16 ms) is two ticks from 2 ms: 31.25 ms, 13.25 ms late.
        assert_eq!(m.native_wake(2 * MS, 16 * MS, 0.5), 2 * WINDOWS_TICK_NS);
        assert_eq!(m.native_wake(2 * MS, 0, 0.5), 2 * MS, "Sleep(0) yields");
        assert_eq!(Machine::Windows1ms.native_wake(2_500_000, 1, 0.5), 3 * MS);
    }

    #[test]
    fn linux_is_never_early_and_late_by_the_slack_and_wake_up() {
        let m = Machine::Linux;
        assert_eq!(m.native_wake(0, MS, 0.0), MS + 54_000);
        assert_eq!(m.native_wake(0, MS, 0.999_999), MS + 57_999);
        assert_eq!(Machine::Browser.native_wake(0, MS, 0.5), 4 * MS);
    }

    #[test]
    fn spinning_ends_at_the_first_reading_past_the_deadline_and_counts_the_cpu() {
        let mut w = Waits::new(Machine::WindowsDefault, Sleep::Spin, 1);
        // 14.67 ms from 2 ms: under one tick of native accuracy, so all of it is spun, to the
        // first 100 ns reading at or past 16.67 ms.
        assert_eq!(w.wake(2 * MS, 14_666_667), 16_666_700);
        assert_eq!(w.spun_ns(), 14_666_700);
        let mut b = Waits::new(Machine::Browser, Sleep::Spin, 1);
        // 10 ms in a browser: 6 ms of setTimeout, then 4 ms of spinning on a 100 µs clock.
        assert_eq!(b.wake(50_000, 10 * MS), 10_100_000);
        assert_eq!(b.spun_ns(), 4_050_000);
        assert_eq!(b.read(10_099_999), 10 * MS);
        let mut n = Waits::new(Machine::Linux, Sleep::Native, 1);
        let woke = n.wake(0, 10 * MS);
        assert!((10 * MS + 54_000..10 * MS + 58_000).contains(&woke));
        assert_eq!(n.spun_ns(), 0);
    }

    #[test]
    fn names_parse_and_a_missing_profile_is_named() {
        assert!(matches!(
            Machine::parse("Windows-Default"),
            Ok(Machine::WindowsDefault)
        ));
        let e = Machine::parse("amiga").unwrap_err().to_string();
        assert!(e.contains("windows-1ms"), "{e}");
        let e = Machine::parse("/nonexistent/machine.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/nonexistent/machine.json") && e.contains("cannot read"),
            "{e}"
        );
        assert_eq!("SPIN".parse::<Sleep>(), Ok(Sleep::Spin));
        assert!(
            "doze"
                .parse::<Sleep>()
                .unwrap_err()
                .to_string()
                .contains("native or spin")
        );
    }
}
