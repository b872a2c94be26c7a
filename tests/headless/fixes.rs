//! The terminal names the fix, as the window does: a tick above the rope's stable step is said
//! once a run with the stable step and the fix, and the fix it names holds when run; a fixed
//! tick that equals the refresh and flips 0, 1 and 2 ticks a frame is said once with why and
//! what helps. Neither is said of a default run, and neither gets into `--json`.

use crate::support::{run_json, run_text};
use timestep_lab::model::rope::Integrator;
use timestep_lab::model::rope::RopeParams;

const CAPTURE: &str = "tests/data/presentmon/test_case_0.csv";

/// The text with its wrapped lines joined back (a continuation is indented two spaces).
fn unwrapped(text: &str) -> String {
    text.replace("\n  ", " ")
}

/// The stable step line of `text`, which must be there exactly once.
fn fix_line(args: &[&str]) -> String {
    let text = unwrapped(&run_text(args));
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("above this rope's stable step"))
        .collect();
    assert_eq!(lines.len(), 1, "{args:?}:\n{text}");
    lines[0].to_string()
}

/// The default rope's stable step with `integrator`, ms, as the line prints it.
fn stable_ms(integrator: Integrator) -> String {
    format!(
        "{:.2} ms",
        RopeParams::default().stability_limit_for(integrator) * 1e3
    )
}

#[test]
fn a_40hz_tick_names_the_stable_step_and_the_fix_once_and_the_fix_holds() {
    let line = fix_line(&["simulate", "--dt", "40hz"]);
    let euler = stable_ms(Integrator::Euler);
    assert_eq!(
        line,
        format!(
            "tick 25.00 ms is above this rope's stable step with Euler, {euler}: the fix is \
             --max-substep 1ms"
        )
    );
    // RK4's stable step is below 25 ms too: it is not offered.
    assert!(!line.contains("rk4"), "{line}");
    // The fix, run as named: every lane holds, and nothing more is said.
    let fix: Vec<&str> = line
        .split("the fix is ")
        .nth(1)
        .unwrap_or_default()
        .split(' ')
        .collect();
    let text = run_text(&[&["simulate", "--dt", "40hz"][..], &fix].concat());
    assert!(!text.contains("exploded"), "{fix:?}:\n{text}");
    assert!(!text.contains("stable step with"), "{fix:?}:\n{text}");
}

#[test]
fn where_rk4_holds_the_tick_both_fixes_are_named_and_rk4_holds() {
    let line = fix_line(&["simulate", "--dt", "50hz", "--seconds", "2"]);
    let rk4 = stable_ms(Integrator::Rk4);
    assert!(
        line.ends_with(&format!(
            "the fix is --max-substep 1ms, or --integrator rk4 (RK4's stable step is {rk4})"
        )),
        "{line}"
    );
    let text = run_text(&[
        "simulate",
        "--dt",
        "50hz",
        "--seconds",
        "2",
        "--integrator",
        "rk4",
    ]);
    assert!(!text.contains("exploded"), "{text}");
    assert!(!text.contains("stable step with"), "{text}");
}

#[test]
fn sweep_replay_and_advise_name_the_fix_once_too() {
    let euler = stable_ms(Integrator::Euler);
    let want = format!(
        "tick 25.00 ms is above this rope's stable step with Euler, {euler}: the fix is \
         --max-substep 1ms"
    );
    let sweep = ["sweep", "--display-hz", "60,144", "--seconds", "2"];
    assert_eq!(fix_line(&[&sweep[..], &["--dt", "40hz"]].concat()), want);
    assert_eq!(fix_line(&["replay", CAPTURE, "--dt", "40hz"]), want);
    // advise substeps at 1 ms unless told otherwise: only a longer substep brings it on, and
    // its presets' own ticks with it.
    let advise = [
        "advise",
        "--seconds",
        "2",
        "--dt",
        "40hz",
        "--max-substep",
        "off",
    ];
    let line = fix_line(&advise);
    assert!(line.ends_with("the fix is --max-substep 1ms"), "{line}");
    // Machine-readable output stays as it was: one JSON document.
    for args in [
        &[&sweep[..], &["--dt", "40hz", "--json"]].concat()[..],
        &["replay", CAPTURE, "--dt", "40hz", "--json"],
        &["simulate", "--dt", "40hz", "--seconds", "2", "--json"],
        &[&advise[..], &["--json"]].concat()[..],
    ] {
        run_json(args);
    }
}

#[test]
fn a_60hz_tick_on_a_perfect_60hz_display_says_why_fixed_flips_and_what_helps() {
    let text = unwrapped(&run_text(&[
        "simulate",
        "--dt",
        "60hz",
        "--max-substep",
        "1ms",
    ]));
    let flip = "fixed at 60 Hz: the tick equals the refresh, so the frames land on the tick \
                boundary and run 0, 1 or 2 ticks; a snapping or smoothing timer (+snap, \
                +smooth) or blending (interpolated) helps";
    assert_eq!(text.matches(flip).count(), 1, "{text}");
    // Interpolated blends the same ticks away, and the substeps hold the rope.
    assert!(!text.contains("interpolated at 60 Hz"), "{text}");
    assert!(!text.contains("stable step with"), "{text}");
    // A tick a hair off the refresh beats instead; nothing is said of it.
    let off = run_text(&[
        "simulate",
        "--dt",
        "60hz",
        "--max-substep",
        "1ms",
        "--display-hz",
        "59.94",
    ]);
    assert!(!off.contains("tick boundary"), "{off}");
}

#[test]
fn a_default_run_says_neither() {
    for args in [
        &["simulate"][..],
        &["replay", CAPTURE],
        &["advise", "--seconds", "2"],
    ] {
        let text = run_text(args);
        assert!(!text.contains("stable step with"), "{args:?}:\n{text}");
        assert!(!text.contains("tick boundary"), "{args:?}:\n{text}");
    }
}
