#!/usr/bin/env python3
"""Regenerates docs/scaling.png from real measurements.

Runs the criterion `scaling` group in benches/rope.rs (ours and the textbook baseline at 16 to
1,048,576 particles), reads each median from target/criterion/, prints a Markdown table and
plots nanoseconds per particle-step against particle count.

    pip install matplotlib && python3 scripts/perf_plot.py          # run the bench, then plot
    python3 scripts/perf_plot.py --no-run                            # plot the last run's numbers
"""
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CRIT = ROOT / "target" / "criterion" / "scaling"


def medians(impl):
    """{particles: ns per particle-step} for one implementation (10 steps per iteration)."""
    out = {}
    base = CRIT / impl
    if not base.is_dir():
        return out
    for d in base.iterdir():
        est = d / "new" / "estimates.json"
        if d.name.isdigit() and est.is_file():
            n = int(d.name)
            ns_per_iter = json.loads(est.read_text())["median"]["point_estimate"]
            out[n] = ns_per_iter / (10 * n)
    return dict(sorted(out.items()))


def main():
    if "--no-run" not in sys.argv:
        subprocess.run(["cargo", "bench", "--bench", "rope", "--", "scaling"], cwd=ROOT, check=True)
    ours, book = medians("ours"), medians("textbook")
    if not ours:
        sys.exit("no measurements under target/criterion/scaling: run without --no-run")
    print("| particles | ours ns/particle-step | textbook ns/particle-step | ratio |")
    print("|---:|---:|---:|---:|")
    for n, t in ours.items():
        b = book.get(n)
        print(f"| {n:,} | {t:.2f} | {b:.2f} | {b / t:.1f}x |" if b else f"| {n:,} | {t:.2f} | — | — |")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    ax.plot(list(ours), list(ours.values()), "o-", label="ours: struct of arrays, AVX-512 / AVX2 dispatch")
    ax.plot(list(book), list(book.values()), "s--", label="textbook: particle objects, boxed force generators")
    ax.axhline(2.0, color="grey", lw=0.8, ls=":")
    ax.text(min(ours), 2.1, "target: 2 ns", color="grey", fontsize=8)
    ax.axvline(32 * 2**20 / 32, color="grey", lw=0.8, ls=":")
    ax.text(32 * 2**20 / 32 * 0.8, 2.4, "state (32 B/particle) > 32 MB L3", color="grey", fontsize=8, rotation=90, ha="right", va="bottom")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("particles")
    ax.set_ylabel("ns per particle-step (median)")
    ax.set_title("Rope step cost vs particle count (dt = 1 ms, release build, criterion medians)")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=8)
    fig.tight_layout()
    out = ROOT / "docs" / "scaling.png"
    fig.savefig(out)
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
