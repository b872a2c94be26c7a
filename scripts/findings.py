#!/usr/bin/env python3
"""Regenerates every table of docs/FINDINGS.md from the program's own output.

Each table in that file sits between two markers,

    <!-- generated: python3 scripts/findings.py NAME -->
    ...
    <!-- end generated -->

and this script replaces what is between them with what NAME's function below measures now,
running the release binary (`simulate --json`, `replay --json`) and the `energy` example. Only
the standard library; builds first. Every run is simulated time, so the tables are the same on
any machine (the replay and the energy example too); a few seconds in all.

    python3 scripts/findings.py            # rewrite every table
    python3 scripts/findings.py latency    # only the named ones
"""
import json
import pathlib
import re
import subprocess
import sys

import which_loop

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / "target" / "release" / "timestep-rope"
DOC = ROOT / "docs" / "FINDINGS.md"
BLOCK = re.compile(r"(<!-- generated: python3 scripts/findings.py (\S+) -->\n)(.*?)"
                   r"(<!-- end generated -->)", re.S)


def simulate(*args):
    out = subprocess.run([BIN, "simulate", "--json", *args], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["lanes"]


def lane(lanes, name):
    return next(l for l in lanes if l["lane"] == name)


def md(header, rows, right=()):
    """A Markdown table; the columns numbered in `right` are right-aligned."""
    align = ["---:" if i in right else "---" for i in range(len(header))]
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    return out + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]


def which_loop_tables():
    return which_loop.tables()


def verdicts():
    return which_loop.verdicts()


def sixty_hz():
    """MonitorSim's scenario: a 60 Hz tick written as a rate or as milliseconds."""
    common = ["--jitter", "83us", "--render-cost", "5ms", "--seconds", "166.67",
              "--max-substep", "1ms", "--lanes", "fixed"]
    rows = []
    for dt, extra, note in [("60hz", [], "starts on a vblank"),
                            ("16.667ms", [], "starts on a vblank"),
                            ("60hz", ["--phase", "random"], "`--phase random`")]:
        f = simulate("--dt", dt, *common, *extra)[0]
        rows.append([f"`{dt}`", f"{round(f['policy']['tick_s'] * 1e9):,}", note,
                     f"{f['double_updates']:,}"])
    return ["`simulate " + " ".join(common) + " --dt TICK`:", ""] + md(
        ["`--dt`", "tick, ns", "start", "vblanks with a double update"], rows, right=(1, 3))


def latency():
    """Each pacing's input latency and stutter, 60 Hz, a 1 ms tick."""
    common = ["--render-cost", "4ms", "--jitter", "200us", "--seconds", "60"]
    runs = [("`vsync`", [], ["fixed", "interpolated"]),
            ("`late`", ["--pacing", "late"], ["fixed", "interpolated"]),
            ("`cap:60`, `--vsync off`", ["--pacing", "cap:60", "--vsync", "off"],
             ["interpolated"]),
            ("`adaptive`, `--vsync off`", ["--pacing", "adaptive", "--vsync", "off"],
             ["interpolated"]),
            ("`adaptive` (vsync on)", ["--pacing", "adaptive"], ["interpolated"])]
    rows = []
    for name, extra, lanes in runs:
        report = simulate(*common, *extra, "--lanes", ",".join(lanes))
        for l in report:
            lat = l["latency_ms"]
            interval = l["render_interval_ms"]
            rows.append([name, l["lane"], f"{l['frames']:,}",
                         f"{lat['mean']:.2f} / {lat['p99']:.2f} / {lat['max']:.2f}",
                         f"{l['stutter_rms_ms']:.3f}",
                         "—" if interval is None else f"{interval:.3f}",
                         l["missed_intervals"]])
    return ["`simulate " + " ".join(common) + "`, 60 Hz, 1 ms tick:", ""] + md(
        ["`--pacing`", "lane", "frames", "latency mean / p99 / max, ms", "stutter rms, ms",
         "interval, ms", "missed"], rows, right=(2, 4, 5, 6))


def machines():
    """A 60 fps cap on each OS model, sleeping natively or spinning."""
    common = ["--pacing", "cap:60", "--vsync", "off", "--render-cost", "2ms", "--lanes",
              "fixed", "--seconds", "10"]
    rows = []
    for machine, sleep in [("windows-default", "native"), ("windows-default", "spin"),
                           ("windows-1ms", "native"), ("windows-1ms", "spin"),
                           ("linux", "native"), ("linux", "spin"),
                           ("browser", "native"), ("browser", "spin")]:
        f = simulate(*common, "--machine", machine, "--sleep", sleep)[0]
        hist = sorted((int(k), v) for k, v in f["steps_histogram"].items() if int(k) > 0)
        frames = ", ".join(f"{k} × {v:,}" for k, v in hist)
        rows.append([f"`{machine}`, `{sleep}`", frames, f"{f['spin_cpu_ms']:,.0f}"])
    return ["`simulate " + " ".join(common) + " --machine M --sleep S` (a 1 ms tick, so a "
            "frame's steps are its milliseconds; the first frame, which runs none, left out):",
            ""] + md(["machine, sleep", "steps a frame × frames", "spinning, ms of the 10 s"],
                     rows, right=(2,))


def replay():
    """Four loops on PresentMon's gold capture 5."""
    capture = "tests/data/presentmon/test_case_5.csv"
    lanes = "fixed,interpolated,godot,glaiel"
    out = subprocess.run([BIN, "replay", capture, "--json", "--lanes", lanes], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    rows = [[f"`{l['lane']}`", l["frames"],
             f"{l['steps_per_frame']['min']}/{l['steps_per_frame']['mean']:.2f}/"
             f"{l['steps_per_frame']['max']}",
             f"{l['stutter_rms_ms']:.2f} / {l['stutter_max_ms']:.2f}", f"{l['drift_ms']:.3f}"]
            for l in report["lanes"]]
    return [f"`replay {capture} --lanes {lanes}`:", ""] + md(
        ["lane", "frames shown", "ticks a frame, min/mean/max", "stutter rms / max, ms",
         "drift, ms"], rows, right=(1, 4))


def judder():
    """How far the driven end is shown from steady motion."""
    runs = [("20 Hz tick, 60 Hz display", ["--dt", "20hz"]),
            ("60 Hz tick, 59.94 Hz display, ±0.3 ms noise",
             ["--dt", "60hz", "--display-hz", "59.94", "--jitter", "300us"])]
    rows = []
    for name, extra in runs:
        for l in simulate("--drive", "sway", "--max-substep", "1ms", "--lanes",
                          "fixed,interpolated", *extra):
            j = l["judder_px"]
            rows.append([name, f"`{l['lane']}`", f"{j['rms']:.3f}", f"{j['max']:.2f}"])
    return ["`simulate --drive sway --max-substep 1ms --lanes fixed,interpolated` and:", ""] + md(
        ["scenario", "lane", "judder rms, px", "max, px"], rows, right=(2, 3))


def godot_jitter():
    """Godot's jitter fix with interpolation on, and off, at 144 Hz."""
    common = ["--display-hz", "144", "--jitter", "300us", "--render-cost", "3ms",
              "--seconds", "60"]
    lanes = simulate(*common, "--lanes", "godot+interpolated,godot+interpolated+jitter=0")
    rows = [[f"`{l['lane']}`", f"{l['stutter_rms_ms']:.3f}", f"{l['stutter_max_ms']:.3f}",
             l["irregular_frames"]] for l in lanes]
    return ["`simulate " + " ".join(common) + " --lanes godot+interpolated,"
            "godot+interpolated+jitter=0`:", ""] + md(
        ["lane", "stutter rms, ms", "max, ms", "irregular frames"], rows, right=(1, 2, 3))


def bounds():
    """Each integrator's stability bound for the default rope."""
    lanes = simulate("--lanes", "variable,variable+rk4", "--seconds", "0.1")
    rows = []
    for name, limit, l in [("semi-implicit Euler", "h·ω < 2", lanes[0]),
                           ("RK4", "h·ω < 2√2", lanes[1])]:
        s = l["stable_below_s"]
        rows.append([name, limit, f"**{s * 1e3:.2f} ms**", f"above {1 / s:.1f} Hz"])
    return md(["integrator", "undamped limit", "default rope", "frame rates that hold"], rows)


def rk4_rates():
    """Variable steps with each integrator around their bounds, 60 s per rate."""
    rates = [67, 66, 50, 47, 46, 44, 43]
    runs = [simulate("--lanes", "variable,variable+rk4", "--display-hz", str(hz),
                     "--seconds", "60") for hz in rates]
    return md(["display"] + [f"{hz} Hz" for hz in rates], [
        ["Euler: explosions"] + [r[0]["explosions"] for r in runs],
        ["RK4: explosions"] + [r[1]["explosions"] for r in runs],
        ["RK4: energy at 60 s, J"] + [f"{r[1]['energy_end_j']:+.2f}" for r in runs],
    ], right=tuple(range(1, len(rates) + 1)))


def energy():
    """The undamped default rope's energy over 60 s (the `energy` example)."""
    out = subprocess.run(["cargo", "run", "--release", "-q", "--example", "energy"], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout
    cells = {}
    for line in out.splitlines():
        m = re.match(r"dt (\S+) s +(\w+): E\(t\) - E\(0\) every 10 s: (.*)\(band (\S+) \.\. (\S+) J\)",
                     line)
        if not m:
            continue
        dt, integ, series, lo, hi = m.groups()
        if "exploded" in series:
            text = series.strip()
        else:
            values = [float(v) for v in series.split()]
            falling = all(b < a for a, b in zip(values, values[1:]))
            text = (f"{values[0]:+.4f} J after 10 s, {values[-1]:+.4f} J after 60 s; "
                    + ("lower every 10 s" if falling
                       else f"in a band of {float(lo):+.2f} to {float(hi):+.2f} J"))
        cells[(dt, integ)] = text
    steps = sorted({dt for dt, _ in cells}, key=float)
    rows = [[f"{float(dt) * 1e3:.1f} ms", cells[(dt, "euler")], cells[(dt, "rk4")]]
            for dt in steps]
    return ["`cargo run --release --example energy`: E(t) − E(0) of the undamped default rope:",
            ""] + md(["step", "semi-implicit Euler", "RK4"], rows)


def display_timer():
    """The display timer against the other timers on 59.94 Hz with 2 ms of timer noise."""
    lanes = ("interpolated,interpolated+snap,interpolated+smooth,interpolated+display,fixed,"
             "fixed+display")
    common = ["--display-hz", "59.94", "--jitter", "2ms", "--lanes", lanes]
    rows = []
    for l in simulate(*common):
        fed = l["predicted_frames"] is not None
        rows.append([f"`{l['lane']}`", f"{l['stutter_rms_ms']:.4f}", f"{l['stutter_max_ms']:.4f}",
                     f"{l['predicted_frames']:,} of {l['frames_run']:,}" if fed else "—",
                     l["missed_predictions"] if fed else "—"])
    return ["`simulate " + " ".join(common) + "` (10 s, a 1 ms tick: the defaults):", ""] + md(
        ["lane", "stutter rms, ms", "max, ms", "frames stepped by predictions",
         "predictions a vblank off"], rows, right=(1, 2, 3, 4))


DISPLAY_LANES = ["interpolated", "interpolated+snap", "interpolated+smooth",
                 "interpolated+display", "fixed", "fixed+display"]


def display_scenarios():
    """The display timer in the which-loop scenarios, beside the timers it replaces."""
    common = [c for c in which_loop.COMMON[:which_loop.COMMON.index("--lanes")]]
    runs = [(name, simulate(*common, *extra, "--lanes", ",".join(DISPLAY_LANES)))
            for name, extra in which_loop.SCENARIOS]
    header = ["lane"] + [name for name, _ in runs]
    right = tuple(range(1, len(header)))
    stutter = [[f"`{lane}`"] + [f"{lane_of(r, lane)['stutter_rms_ms']:.2f}" for _, r in runs]
               for lane in DISPLAY_LANES]
    books = []
    for lane in (l for l in DISPLAY_LANES if l.endswith("+display")):
        cells = []
        for _, r in runs:
            l = lane_of(r, lane)
            cells.append(f"{l['predicted_frames']:,} of {l['frames_run']:,} "
                         f"({l['missed_predictions']:,} off)")
        books.append([f"`{lane}`"] + cells)
    return (["`simulate " + " ".join(common) + " --lanes " + ",".join(DISPLAY_LANES)
             + "` and each scenario's flags (as in the tables above):", "",
             "**stutter, rms ms**", ""] + md(header, stutter, right)
            + ["", "**frames stepped by predicted display times, of all (predictions a vblank "
               "off)**", ""] + md(header, books, right))


def lane_of(report, name):
    return next(l for l in report if l["lane"] == name)


def display_replay():
    """The display timer on PresentMon's gold captures, fed their display times."""
    lanes = "interpolated,interpolated+snap,interpolated+smooth,interpolated+display"
    rows = []
    for case in range(6):
        capture = f"tests/data/presentmon/test_case_{case}.csv"
        out = subprocess.run([BIN, "replay", capture, "--json", "--lanes", lanes], cwd=ROOT,
                             check=True, capture_output=True, text=True).stdout
        report = json.loads(out)
        c = report["capture"]
        hz = c["refresh_hz_estimate"]
        by = {l["lane"]: l for l in report["lanes"]}
        d = by["interpolated+display"]
        rows.append([f"`test_case_{case}.csv`", f"{c['frames']:,} ({c['displayed']:,})",
                     f"{hz:g} Hz" if hz else f"none ({c['refresh']})"]
                    + [f"{by[l]['stutter_rms_ms']:.2f}" for l in lanes.split(",")]
                    + [f"{d['predicted_frames']:,} ({d['missed_predictions']:,} off)"])
    return ["`replay tests/data/presentmon/test_case_N.csv --lanes " + lanes + "`:", ""] + md(
        ["capture", "frames (displayed)", "refresh", "`interpolated`", "`+snap`", "`+smooth`",
         "`+display`", "predicted (a vblank off)"], rows, right=(1, 3, 4, 5, 6, 7))


GENERATORS = {
    "verdicts": verdicts,
    "which-loop": which_loop_tables,
    "sixty-hz": sixty_hz,
    "godot-jitter": godot_jitter,
    "display-timer": display_timer,
    "display-scenarios": display_scenarios,
    "display-replay": display_replay,
    "latency": latency,
    "machines": machines,
    "replay": replay,
    "judder": judder,
    "bounds": bounds,
    "rk4-rates": rk4_rates,
    "energy": energy,
}


def main():
    only = set(sys.argv[1:])
    unknown = only - GENERATORS.keys()
    if unknown:
        sys.exit(f"findings.py: no table named {', '.join(sorted(unknown))}; "
                 f"the tables: {', '.join(GENERATORS)}")
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    text = DOC.read_text()
    names = [m.group(2) for m in BLOCK.finditer(text)]
    missing = [n for n in names if n not in GENERATORS]
    if missing:
        sys.exit(f"findings.py: docs/FINDINGS.md has blocks no function makes: {missing}")

    def fill(m):
        if only and m.group(2) not in only:
            return m.group(0)
        return m.group(1) + "\n".join(GENERATORS[m.group(2)]()) + "\n" + m.group(4)

    DOC.write_text(BLOCK.sub(fill, text))


if __name__ == "__main__":
    main()
