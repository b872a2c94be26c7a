//! The machine a simulated loop runs on (`--machine`): how its clock reads and how a native
//! sleep wakes; and how the loop waits (`--sleep`). Each machine is one row of the same shape,
//! a [`Machine`]: the built-in models are constant rows ([`MODELS`], each citing the source it
//! follows), and a [`profile`] as `probe` measured it becomes a row when it is loaded. A
//! native sleep wakes by one of a few [`Wake`] rules, with the row's parameters.
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
use timestep_loop::is_named;

/// Windows' default timer interrupt period, ns.
pub const WINDOWS_TICK_NS: u64 = 15_625_000;
/// The timer interrupt period after `timeBeginPeriod(1)`, ns.
const WINDOWS_1MS_TICK_NS: u64 = 1_000_000;
/// QueryPerformanceCounter's resolution on current Windows (10 MHz), ns.
const QPC_NS: u64 = 100;
/// spin_sleep's native accuracy on Unix, ns.
const SPIN_SLEEP_UNIX_NS: u64 = 125_000;
/// The shortest nested `setTimeout`, ns.
const BROWSER_MIN_TIMEOUT_NS: u64 = 4_000_000;

/// A machine a simulated loop runs on: how its clock reads and how its sleeps wake. One row of
/// the table of machines: a built-in model ([`MODELS`], [`Machine::EXACT`]) or a measured
/// profile ([`Machine::measured`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// What it is called, as a user gives it.
    pub name: MachineName,
    /// Readings of its clock are multiples of this, ns (0 reads as 1).
    pub clock_ns: u64,
    /// How close to a deadline a native sleep can be trusted to wake, ns: `--sleep spin`
    /// sleeps natively until this much before it.
    pub native_accuracy_ns: u64,
    /// When a native sleep wakes.
    pub wake: Wake,
}

/// What a machine is called: a built-in model's name, or the file its profile was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MachineName {
    /// A built-in model: `windows-default`.
    Model(&'static str),
    /// A profile, by its file.
    Profile(PathBuf),
}

/// When a native sleep wakes: a rule, with its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Wake {
    /// On time, exactly.
    OnTime,
    /// At a timer interrupt: the `ceil(ns / tick)`-th after the call (so anywhere from
    /// `ns − tick` to `ns` after it, or at once for 0).
    Tick {
        /// The timer interrupt's period, ns.
        tick_ns: u64,
    },
    /// Never early, and late by a uniform amount.
    Late {
        /// The least it is late by, ns.
        min_ns: u64,
        /// The most it is late by, ns.
        max_ns: u64,
    },
    /// No sooner than a least wait after the call.
    AtLeast {
        /// The shortest wait, ns.
        min_ns: u64,
    },
    /// Late by an overshoot drawn from what was measured for the nearest request.
    Measured(Vec<SleepSample>),
}

impl Wake {
    /// When a native sleep of `ns` asked for at `now_ns` wakes; `u` is uniform in [0, 1).
    pub fn at(&self, now_ns: u64, ns: u64, u: f64) -> u64 {
        match self {
            Wake::OnTime => now_ns + ns,
            Wake::Tick { tick_ns } => tick_wake(now_ns, ns, (*tick_ns).max(1)),
            Wake::Late { min_ns, max_ns } => {
                let spread = max_ns.saturating_sub(*min_ns) as f64;
                now_ns + ns + min_ns + (spread * u) as u64
            }
            Wake::AtLeast { min_ns } => now_ns + ns.max(*min_ns),
            Wake::Measured(samples) => {
                let overshoot = profile::nearest(samples, ns).map_or(0, |s| s.overshoot_at(u));
                now_ns + ns + overshoot
            }
        }
    }
}

/// The built-in models a user can name, in the order they are listed.
pub static MODELS: [Machine; 4] = [
    Machine::WINDOWS_DEFAULT,
    Machine::WINDOWS_1MS,
    Machine::LINUX,
    Machine::BROWSER,
];

impl Machine {
    /// An exact clock and sleeps that wake on time: the simulated display's own (the default;
    /// not a name a user can give).
    pub const EXACT: Machine = Machine {
        name: MachineName::Model("exact"),
        clock_ns: 1,
        native_accuracy_ns: 0,
        wake: Wake::OnTime,
    };

    /// `windows-default`: `Sleep` wakes at a timer interrupt, 64 a second (15.625 ms): "If
    /// dwMilliseconds is less than the resolution of the system clock, the thread may sleep for
    /// less than the specified length of time. If dwMilliseconds is greater than one tick but
    /// less than two, the wait can be anywhere between one and two ticks" (Microsoft Learn,
    /// `Sleep`; the 15.625 ms default: B. Dawson, "Windows Timer Resolution: Megawatts Wasted",
    /// 2013). The clock is QueryPerformanceCounter's 10 MHz (100 ns readings). spin_sleep trusts
    /// a native sleep to within one tick.
    pub const WINDOWS_DEFAULT: Machine = Machine {
        name: MachineName::Model("windows-default"),
        clock_ns: QPC_NS,
        native_accuracy_ns: WINDOWS_TICK_NS,
        wake: Wake::Tick {
            tick_ns: WINDOWS_TICK_NS,
        },
    };

    /// `windows-1ms`: the same after `timeBeginPeriod(1)` (per process since Windows 10 2004).
    pub const WINDOWS_1MS: Machine = Machine {
        name: MachineName::Model("windows-1ms"),
        clock_ns: QPC_NS,
        native_accuracy_ns: WINDOWS_1MS_TICK_NS,
        wake: Wake::Tick {
            tick_ns: WINDOWS_1MS_TICK_NS,
        },
    };

    /// `linux`: `nanosleep` never wakes early and is late by the timer slack (50 µs by default,
    /// `include/linux/init_task.h`) and the wake-up: 1 ms sleeps measured 1.054 to 1.058 ms
    /// (spin_sleep's `experiments/README.md`, an AMD 5800X), so 54 to 58 µs late, uniform. The
    /// clock reads to the nanosecond; spin_sleep's native accuracy on Unix is 125 µs.
    pub const LINUX: Machine = Machine {
        name: MachineName::Model("linux"),
        clock_ns: 1,
        native_accuracy_ns: SPIN_SLEEP_UNIX_NS,
        wake: Wake::Late {
            min_ns: 54_000,
            max_ns: 58_000,
        },
    };

    /// `browser`: `performance.now()` is coarsened to 100 µs (W3C High Resolution Time,
    /// "coarsen time"; 5 µs only when cross-origin isolated); a game loop's `setTimeout` is
    /// nested, and nested timeouts wait at least 4 ms (HTML Living Standard, timer
    /// initialisation steps).
    pub const BROWSER: Machine = Machine {
        name: MachineName::Model("browser"),
        clock_ns: 100_000,
        native_accuracy_ns: BROWSER_MIN_TIMEOUT_NS,
        wake: Wake::AtLeast {
            min_ns: BROWSER_MIN_TIMEOUT_NS,
        },
    };

    /// A profile (`probe --out`) as a machine: readings in steps of its clock resolution; a
    /// native sleep late by an overshoot drawn from what was measured for the nearest request;
    /// spin_sleep's native accuracy as the probe found it. `path` is the file it came from.
    pub fn measured(profile: MachineProfile, path: PathBuf) -> Machine {
        Machine {
            name: MachineName::Profile(path),
            clock_ns: profile.clock_resolution_ns.max(1),
            native_accuracy_ns: profile.spin_threshold_ns,
            wake: Wake::Measured(profile.native_sleep),
        }
    }

    /// A built-in machine by name (trimmed, ASCII case ignored), or the profile in a file
    /// (`FILE.json`).
    pub fn parse(s: &str) -> Result<Machine, MachineError> {
        let model = MODELS
            .iter()
            .find(|m| m.name.model().is_some_and(|name| is_named(name, s)));
        match model {
            Some(model) => Ok(model.clone()),
            None if s.ends_with(".json") => {
                let path = Path::new(s);
                let profile = MachineProfile::load(path)?;
                Ok(Machine::measured(profile, path.to_owned()))
            }
            None => Err(MachineError::Unknown(s.into())),
        }
    }

    /// The names of the built-in models, in [`MODELS`]' order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        MODELS.iter().filter_map(|m| m.name.model())
    }

    /// The file its profile was read from, if it is a profile.
    pub fn profile_path(&self) -> Option<&PathBuf> {
        match &self.name {
            MachineName::Profile(path) => Some(path),
            MachineName::Model(_) => None,
        }
    }

    /// When a native sleep of `ns` asked for at `now_ns` wakes; `u` is uniform in [0, 1).
    pub fn native_wake(&self, now_ns: u64, ns: u64, u: f64) -> u64 {
        self.wake.at(now_ns, ns, u)
    }
}

timestep_loop::named_enum! {
    /// How a loop waits (`--sleep`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Sleep as "sleep" {
        /// The OS's sleep alone.
        Native = "native",
        /// Native, then spin to the deadline (spin_sleep).
        #[default]
        Spin = "spin",
    }
}

/// A machine's text (`--machine`) that names no machine, or a profile that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MachineError {
    /// Neither a built-in machine's name nor a `.json` file (the text given).
    #[error(
        "unknown machine '{0}' (expected {names}, or a FILE.json from timestep-rope probe --out)",
        names = Machine::names().collect::<Vec<_>>().join(", ")
    )]
    Unknown(String),
    /// A profile that cannot be loaded.
    #[error(transparent)]
    Profile(#[from] ProfileError),
}

/// `Sleep` on a tick-based timer: the `ceil(ns / tick)`-th timer interrupt after the call (so
/// anywhere from `ns − tick` to `ns` after it, or at once for 0).
fn tick_wake(now_ns: u64, ns: u64, tick_ns: u64) -> u64 {
    if ns == 0 {
        return now_ns;
    }
    (now_ns / tick_ns + ns.div_ceil(tick_ns)) * tick_ns
}

impl MachineName {
    /// The built-in model's name, if it is one.
    pub fn model(&self) -> Option<&'static str> {
        match self {
            MachineName::Model(name) => Some(name),
            MachineName::Profile(_) => None,
        }
    }
}

impl fmt::Display for MachineName {
    /// As typed: `windows-default`, or the profile's file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineName::Model(name) => f.write_str(name),
            MachineName::Profile(path) => write!(f, "{}", path.display()),
        }
    }
}

impl fmt::Display for Machine {
    /// As typed: `windows-default`, or the profile's file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.name.fmt(f)
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
        let q = self.machine.clock_ns.max(1);
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
                let native = ns.saturating_sub(self.machine.native_accuracy_ns);
                let woke = if native > 0 {
                    self.machine.native_wake(now_ns, native, self.rng.f64())
                } else {
                    now_ns
                };
                // Spin until the clock reads the deadline: its first reading at or past it.
                let q = self.machine.clock_ns.max(1);
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
        let m = Machine::WINDOWS_DEFAULT;
        // 2 ms into a tick, Sleep(14.67 ms) is one tick: it wakes at 15.625 ms, early.
        assert_eq!(m.native_wake(2 * MS, 14_670_000, 0.5), WINDOWS_TICK_NS);
        // Sleep(16 ms) is two ticks from 2 ms: 31.25 ms, 13.25 ms late.
        assert_eq!(m.native_wake(2 * MS, 16 * MS, 0.5), 2 * WINDOWS_TICK_NS);
        assert_eq!(m.native_wake(2 * MS, 0, 0.5), 2 * MS, "Sleep(0) yields");
        assert_eq!(Machine::WINDOWS_1MS.native_wake(2_500_000, 1, 0.5), 3 * MS);
    }

    #[test]
    fn linux_is_never_early_and_late_by_the_slack_and_wake_up() {
        let m = Machine::LINUX;
        assert_eq!(m.native_wake(0, MS, 0.0), MS + 54_000);
        assert_eq!(m.native_wake(0, MS, 0.999_999), MS + 57_999);
        assert_eq!(Machine::BROWSER.native_wake(0, MS, 0.5), 4 * MS);
    }

    #[test]
    fn spinning_ends_at_the_first_reading_past_the_deadline_and_counts_the_cpu() {
        let mut w = Waits::new(Machine::WINDOWS_DEFAULT, Sleep::Spin, 1);
        // 14.67 ms from 2 ms: under one tick of native accuracy, so all of it is spun, to the
        // first 100 ns reading at or past 16.67 ms.
        assert_eq!(w.wake(2 * MS, 14_666_667), 16_666_700);
        assert_eq!(w.spun_ns(), 14_666_700);
        let mut b = Waits::new(Machine::BROWSER, Sleep::Spin, 1);
        // 10 ms in a browser: 6 ms of setTimeout, then 4 ms of spinning on a 100 µs clock.
        assert_eq!(b.wake(50_000, 10 * MS), 10_100_000);
        assert_eq!(b.spun_ns(), 4_050_000);
        assert_eq!(b.read(10_099_999), 10 * MS);
        let mut n = Waits::new(Machine::LINUX, Sleep::Native, 1);
        let woke = n.wake(0, 10 * MS);
        assert!((10 * MS + 54_000..10 * MS + 58_000).contains(&woke));
        assert_eq!(n.spun_ns(), 0);
    }

    #[test]
    fn every_model_row_round_trips_its_name_and_the_miss_lists_them() {
        for model in &MODELS {
            let name = model.to_string();
            assert_eq!(Machine::parse(&name).ok().as_ref(), Some(model));
            let shouted = format!(" {} ", name.to_ascii_uppercase());
            assert_eq!(Machine::parse(&shouted).ok().as_ref(), Some(model));
            assert_eq!(model.profile_path(), None);
        }
        assert_eq!(Machine::EXACT.to_string(), "exact");
        assert_eq!(
            Machine::parse("exact").unwrap_err().to_string(),
            "unknown machine 'exact' (expected windows-default, windows-1ms, linux, browser, or \
             a FILE.json from timestep-rope probe --out)"
        );
    }

    /// A profile whose figures are the exact machine's: a 1 ns clock, no spinning, and sleeps
    /// measured to wake on time.
    fn exact_profile() -> MachineProfile {
        let on_time = |request_ns| SleepSample::from_overshoots(request_ns, vec![0; 10]);
        MachineProfile {
            name: "on time".into(),
            os: "linux".into(),
            clock_resolution_ns: 1,
            clock_read_ns: 20.0,
            timer_slack_ns: None,
            spin_threshold_ns: 0,
            native_sleep: vec![on_time(100_000), on_time(MS)],
            spin_sleep: vec![on_time(MS)],
        }
    }

    #[test]
    fn a_profile_is_a_row_that_behaves_as_a_built_in_with_its_numbers() {
        let path = PathBuf::from("on-time.json");
        let measured = Machine::measured(exact_profile(), path.clone());
        assert_eq!(measured.to_string(), "on-time.json");
        assert_eq!(measured.profile_path(), Some(&path));
        let row = Machine {
            name: MachineName::Model("exact"),
            ..measured.clone()
        };
        assert_eq!(
            (row.clock_ns, row.native_accuracy_ns),
            (Machine::EXACT.clock_ns, Machine::EXACT.native_accuracy_ns)
        );
        for sleep in [Sleep::Native, Sleep::Spin] {
            let mut profiled = Waits::new(measured.clone(), sleep, 7);
            let mut exact = Waits::new(Machine::EXACT, sleep, 7);
            for (now, ns) in [(0, 1), (3, MS), (2 * MS + 17, 16_666_667), (5, 0)] {
                assert_eq!(profiled.wake(now, ns), exact.wake(now, ns), "{sleep} {ns}");
                assert_eq!(profiled.read(now), exact.read(now));
            }
            assert_eq!(profiled.spun_ns(), exact.spun_ns());
        }
    }

    #[test]
    fn a_wake_rule_without_measurements_wakes_on_time() {
        assert_eq!(Wake::Measured(Vec::new()).at(5, MS, 0.5), 5 + MS);
        assert_eq!(Wake::Tick { tick_ns: 0 }.at(5, 3, 0.5), 8);
    }

    #[test]
    fn names_parse_and_a_missing_profile_is_named() {
        assert_eq!(
            Machine::parse(" Windows-Default").ok(),
            Some(Machine::WINDOWS_DEFAULT)
        );
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
