#!/usr/bin/env python3
"""Compares `sweep --csv` without a rope (NOROPE.csv) with the same sweep run with `--physics`
(ROPE.csv): per (rate, lane), was the lane marked `unstable step` where the rope exploded?
Prints the counts, and the rows missed (exploded, not marked) and the false alarms.

usage: unstable_vs_rope.py NOROPE.csv ROPE.csv"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return {(r["display_hz"], r["lane"]): r for r in csv.DictReader(f)}


def main(norope_path, rope_path):
    norope, rope = rows(norope_path), rows(rope_path)
    exploded = {k for k, r in rope.items() if r["exploded"] == "true"}
    marked = {k for k, r in norope.items() if r["state"] == "unstable step"}
    print(f"{len(rope)} rows; rope exploded in {len(exploded)}; marked unstable step {len(marked)}")
    print(f"missed {len(exploded - marked)}: {sorted(exploded - marked)}")
    print(f"false alarms {len(marked - exploded)}: {sorted(marked - exploded)}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
