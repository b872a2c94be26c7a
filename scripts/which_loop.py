#!/usr/bin/env python3
"""The tables of docs/FINDINGS.md's "Which loop should I use?", measured.

Runs `timestep-rope simulate --json` once per display scenario, every preset and every timer as
lanes on the same frame times, and prints one Markdown table per measure (lanes down, scenarios
across). Only the standard library; builds the release binary first. scripts/findings.py
writes these tables into docs/FINDINGS.md; run alone, this prints them.

    python3 scripts/which_loop.py > /tmp/tables.md
"""
import json
import math
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / "target" / "release" / "timestep-rope"

# Every textbook lane ticks at 60 Hz like the presets, integrated in 1 ms substeps (the rope's
# stable step), so the lanes differ only in how the loop reads and spends the frame time.
COMMON = ["--dt", "60hz", "--max-substep", "1ms", "--seconds", "60", "--seed", "1",
          "--lanes", "presets,timers,interpolated,interpolated+snap"]

SCENARIOS = [
    ("60 Hz", ["--display-hz", "60", "--jitter", "300us", "--render-cost", "5ms"]),
    ("59.94 Hz", ["--display-hz", "59.94", "--jitter", "300us", "--render-cost", "5ms"]),
    ("144 Hz", ["--display-hz", "144", "--jitter", "300us", "--render-cost", "3ms"]),
    ("50 Hz", ["--display-hz", "50", "--jitter", "300us", "--render-cost", "5ms"]),
    ("no vsync", ["--vsync", "off", "--jitter", "300us", "--render-cost", "2ms..12ms"]),
    ("59.94 Hz + stall", ["--display-hz", "59.94", "--jitter", "300us", "--render-cost", "5ms",
                          "--stall", "20s:400ms"]),
    ("VRR 48-144 Hz", ["--vrr", "48..144", "--jitter", "300us", "--render-cost", "4ms..14ms"]),
]

# On the VRR panel, the same lanes under each pacing: which of them recovers what the panel
# shows when every frame is scanned out the moment it is ready.
VRR = ["--vrr", "48..144", "--jitter", "300us", "--render-cost", "4ms..14ms"]
PACINGS = ["vsync", "cap:60", "hold:60", "adaptive", "late"]

# `advise` on the same scenarios: its pick, overall and in each engine, is the verdict the docs
# give, so the docs and the command cannot disagree.
ADVISE = ["--dt", "60hz", "--seconds", "60", "--seed", "1"]
ENGINES = ["godot", "bevy", "unity", "monogame"]


def advise(extra, engine=None):
    flags = [*ADVISE, *extra] + (["--engine", engine] if engine else [])
    out = subprocess.run([BIN, "advise", "--json", *flags], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def pick(verdict):
    """`lane` (pacing), or a dash when nothing held."""
    r = verdict["recommended"]
    return f"`{r['lane']}` ({r['pacing']})" if r else "-"


def verdicts():
    """One row per scenario: advise's pick, its figures, the runner-up, and each engine's pick."""
    out = ["`timestep-rope advise " + " ".join(ADVISE) + " SCENARIO [--engine ENGINE]`, "
           "each scenario's flags as below:", ""]
    out += ["| scenario | pick | stutter, ms | latency, ms | runner-up | "
            + " | ".join(e.capitalize() if e != "monogame" else "MonoGame" for e in ENGINES)
            + " |", "|---|---|---:|---:|---|" + "---|" * len(ENGINES)]
    for name, extra in SCENARIOS:
        v = advise(extra)
        best, next_ = v["recommended"], v["runner_up"]
        engines = [pick(advise(extra, e)) for e in ENGINES]
        latency = best["latency_mean_ms"] if best else None
        out.append(f"| {name} | {pick(v)} | {best['stutter_rms_ms']:.2f} | "
                   f"{latency:.1f} | {pick({'recommended': next_})} | " + " | ".join(engines)
                   + " |")
    return out


def window_range(pattern, n):
    """Fewest and most ticks in any n consecutive vblanks of a `pattern` string."""
    ticks = [int(t) for t in (pattern.split(",") if "," in pattern else pattern)]
    sums = [sum(ticks[i:i + n]) for i in range(len(ticks) - n + 1)]
    return min(sums), max(sums)


def rhythm(lane, cfg):
    lo, hi = window_range(lane["pattern"], 12)
    ideal = round(12 / (cfg["display_hz"] * lane["policy"]["tick_s"]), 4)
    # A VRR panel has no one refresh period to hold the ticks to.
    fixed = cfg["vsync"] and cfg["vrr"] is None
    wide = fixed and (lo < math.floor(ideal) or hi > math.ceil(ideal))
    return f"{lo}-{hi}" + (" **!**" if wide else "")


MEASURES = [
    ("stutter, rms ms (0: motion advances exactly as the display does)",
     lambda l, _: f"{l['stutter_rms_ms']:.2f}"),
    ("irregular frames (tick count outside floor/ceil of frame / tick), per minute",
     lambda l, _: "n/a" if l["irregular_frames"] is None else str(l["irregular_frames"])),
    ("ticks in any 12 consecutive vblanks, fewest-most (the last 240 vblanks): the rhythm; "
     "**!** marks a spread wider than 12 refresh periods / tick allows", rhythm),
    ("frames that ran no tick, per minute", lambda l, _: str(l["zero_step_frames"])),
    ("game speed (game time kept / measured time: dropped time slows it, invented time speeds it)",
     lambda l, _: f"{l['game_speed']:.4f}"),
    ("dropped ms, per minute", lambda l, _: f"{l['dropped_ms']:.0f}"),
    ("vsync detected (after s)",
     lambda l, _: f"{l['detected_after_s']:.1f}" if l["vsync_detected"] else "no"),
]


def run(extra):
    out = subprocess.run([BIN, "simulate", "--json", *COMMON, *extra], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    report = json.loads(out)
    return report["config"], report["lanes"]


def table(title, columns, rows):
    """A Markdown table: a bold title, the header, then one line per row of cells."""
    out = [f"\n**{title}**\n", "| lane | " + " | ".join(columns) + " |",
           "|---|" + "---:|" * len(columns)]
    out += [f"| `{lane}` | " + " | ".join(cells) + " |" for lane, cells in rows]
    return out


def tables():
    """Every table of "Which loop should I use?", as Markdown lines."""
    out = ["Every lane: `" + " ".join(COMMON) + "`."]
    runs = [(name, extra, *run(extra)) for name, extra in SCENARIOS]
    out.append("\nScenarios (60 s each, timer noise uniform ±0.3 ms):\n")
    out += [f"- **{name}**: `{' '.join(extra)}`" for name, extra, _, _ in runs]
    lanes = [l["lane"] for l in runs[0][3]]
    for title, cell in MEASURES:
        rows = [(lane, [cell(ls[i], cfg) for _, _, cfg, ls in runs])
                for i, lane in enumerate(lanes)]
        out += table(title, [r[0] for r in runs], rows)
    paced = [(p, run([*VRR, "--pacing", p])[1]) for p in PACINGS]
    columns = [f"`{p}`" for p, _ in paced]
    rows = [(lane, [f"{ls[i]['stutter_rms_ms']:.2f}" for _, ls in paced])
            for i, lane in enumerate(lanes)]
    out += table(f"On the VRR panel (`{' '.join(VRR)}`), by pacing: stutter, rms ms",
                 columns, rows)
    rows = [(lane, [f"{ls[i]['latency_ms']['mean']:.1f}" for _, ls in paced])
            for i, lane in enumerate(lanes)]
    out += table("The same, mean input latency, ms (input sampled to its frame on screen)",
                 columns, rows)
    return out


def main():
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    print("\n".join(tables()))


if __name__ == "__main__":
    main()
