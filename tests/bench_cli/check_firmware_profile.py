#!/usr/bin/env python3
"""Runs a saturation experiment with and without --firmware-profile of one
point and requires: the same results.csv and summary.json (profiling turns
that point's fast-forward off, which changes no result); a profile of every
node of the point whose shares sum to one; each node's cycles equal to the
LANai clock times the run's length (every cycle is attributed); and the
sender's firmware entered `main` once. stdlib only.
  check_firmware_profile.py LANAI_EMU EXPERIMENT --clock-mhz 66 --point 0"""
import argparse
import csv
import filecmp
import json
import pathlib
import re
import subprocess
import sys
import tempfile


def run(emu, args):
    done = subprocess.run([emu] + args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join([emu] + args)} failed ({done.returncode}):\n{done.stderr}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("emu")
    parser.add_argument("experiment")
    parser.add_argument("--clock-mhz", type=float, required=True)
    parser.add_argument("--point", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        plain, profiled = pathlib.Path(tmp) / "plain", pathlib.Path(tmp) / "profiled"
        profile = pathlib.Path(tmp) / "profile.csv"
        run(args.emu, ["run", args.experiment, "--jobs", "1", "--out", str(plain)])
        run(args.emu, ["run", args.experiment, "--jobs", "2", "--out", str(profiled),
                       "--firmware-profile", str(profile), "--trace-point", str(args.point)])
        if not filecmp.cmp(plain / "results.csv", profiled / "results.csv", shallow=False):
            sys.exit("results.csv differs with the profile")
        wall = re.compile(r'"wall_seconds": [0-9.e+-]+')
        if wall.sub("", (plain / "summary.json").read_text()) != \
                wall.sub("", (profiled / "summary.json").read_text()):
            sys.exit("summary.json differs with the profile")
        point = json.loads((plain / "summary.json").read_text())["points"][args.point]
        nodes = 1 + point["receivers"]
        with profile.open(newline="") as f:
            rows = list(csv.DictReader(f))
        problems = []
        for node in range(nodes):
            mine = [r for r in rows if int(r["node"]) == node]
            if not mine:
                problems.append(f"node {node}: not in the profile")
                continue
            cycles = sum(int(r["cycles"]) for r in mine)
            share = sum(float(r["share"]) for r in mine)
            if abs(share - 1.0) > 1e-4 * len(mine):
                problems.append(f"node {node}: shares sum to {share}")
            expected = point["end_us"] * args.clock_mhz
            if abs(cycles - expected) > 0.001 * expected:
                problems.append(f"node {node}: {cycles} cycles, the run is {expected:.0f}")
            entries = {r["function"]: int(r["entries"]) for r in mine}
            if entries.get("main") != 1:
                problems.append(f"node {node}: main entered {entries.get('main')} times")
        if any(int(r["node"]) >= nodes for r in rows):
            problems.append("nodes beyond the point's in the profile")
        if problems:
            sys.exit("\n".join(problems))
        print(f"profile of point {args.point}: {len(rows)} rows over {nodes} nodes; results unchanged")


if __name__ == "__main__":
    main()
