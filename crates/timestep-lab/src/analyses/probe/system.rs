//! What the OS says about itself, read rather than measured: the timer slack, the kernel's
//! release, and today's date for the profile's name.

use super::measure::spin_threshold_ns;
use super::report::Facts;
use std::time::{SystemTime, UNIX_EPOCH};

/// What this machine says of itself, and spin_sleep's threshold on it.
pub fn facts() -> Facts {
    Facts {
        name: profile_name(),
        os: std::env::consts::OS.into(),
        timer_slack: timer_slack(),
        spin_threshold_ns: spin_threshold_ns(),
    }
}

/// Where Linux reports a process's timer slack (since Linux 4.6; proc(5)).
const TIMER_SLACK_FILE: &str = "/proc/self/timerslack_ns";

/// The timer slack of this process, ns, and where it was read; `None` where the OS does not
/// report it (off Linux, or a kernel without the file).
pub fn timer_slack() -> Option<(u64, &'static str)> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let text = std::fs::read_to_string(TIMER_SLACK_FILE).ok()?;
    Some((text.trim().parse().ok()?, TIMER_SLACK_FILE))
}

/// The profile's name: "probe of this machine (Linux 6.8.0, x86_64), 2026-11-24" (UTC date).
pub fn profile_name() -> String {
    let os = match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "macOS",
        "windows" => "Windows",
        other => other,
    };
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|r| format!(" {}", r.trim()))
        .unwrap_or_default();
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (y, m, d) = civil_from_days(days);
    let arch = std::env::consts::ARCH;
    format!("probe of this machine ({os}{release}, {arch}), {y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date `days` after 1970-01-01: Howard Hinnant's `civil_from_days`
/// ("chrono-Compatible Low-Level Date Algorithms", howardhinnant.github.io/date_algorithms.html),
/// for days on or after the epoch.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z / 146_097; // 400-year eras
    let doe = z - era * 146_097; // [0, 146096]
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365], from March 1
    let mp = (5 * doy + 2) / 153; // [0, 11], March = 0
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_the_epoch_are_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_453), (2025, 12, 31));
    }

    #[test]
    fn the_name_says_the_os_and_the_architecture() {
        let name = profile_name();
        assert!(name.starts_with("probe of this machine ("), "{name}");
        assert!(name.contains(std::env::consts::ARCH), "{name}");
        if cfg!(target_os = "linux") {
            assert!(timer_slack().is_some());
        }
    }
}
