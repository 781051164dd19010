#!/usr/bin/env python3
"""Runs one experiment file twice, with and without fast-forward of idle
LANai loops, and requires identical outputs: results.csv and summary.json
byte for byte (wall times aside), and for jitter experiments the trace of
the first point. Fast-forward changes only
how long the host takes, never a result."""
import argparse
import filecmp
import pathlib
import re
import subprocess
import sys
import tempfile


def run(emu, experiment, out, extra, trace):
    cmd = [emu] + extra + ["run", experiment, "--jobs", "1", "--out", str(out)]
    if trace:
        cmd += ["--trace", str(out / "trace.json")]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("emu")
    parser.add_argument("experiment")
    parser.add_argument("--trace", action="store_true",
                        help="compare the first point's trace too (jitter experiments)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fast, plain = pathlib.Path(tmp) / "fast", pathlib.Path(tmp) / "plain"
        run(args.emu, args.experiment, fast, [], args.trace)
        run(args.emu, args.experiment, plain, ["--no-fast-forward"], args.trace)
        names = ["results.csv", "summary.json"] + (["trace.json"] if args.trace else [])
        for name in names:
            a, b = fast / name, plain / name
            if not a.exists() or not b.exists():
                sys.exit(f"{name} missing")
            if name == "summary.json":
                # Wall times are the one thing fast-forward is meant to change.
                wall = re.compile(r'"wall_seconds": [0-9.e+-]+')
                same = wall.sub("", a.read_text()) == wall.sub("", b.read_text())
            else:
                same = filecmp.cmp(a, b, shallow=False)
            if not same:
                sys.exit(f"{name} differs with and without fast-forward")
            if a.stat().st_size == 0:
                sys.exit(f"{name} is empty")
        print("identical with and without fast-forward:", args.experiment)


if __name__ == "__main__":
    main()
