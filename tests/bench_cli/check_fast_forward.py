#!/usr/bin/env python3
"""Runs one experiment file twice, as lanai-emu runs it by default and with
the given flags (by default --no-fast-forward: every idle loop executed and
no core sleeps; --no-blocks: every instruction stepped, no predecoded
blocks), and requires identical outputs: results.csv and summary.json byte
for byte (wall times aside), and for jitter experiments the trace of the
first point. With --command, runs that lanai-emu command line instead and
compares what it prints. Neither fast-forward nor the block executor
changes anything but how long the host takes."""
import argparse
import filecmp
import pathlib
import re
import subprocess
import sys
import tempfile


def run(emu, experiment, out, extra, trace, jobs=1):
    cmd = [emu] + extra + ["run", experiment, "--jobs", str(jobs), "--out", str(out)]
    if trace:
        cmd += ["--trace", str(out / "trace.json")]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("emu")
    parser.add_argument("experiment", nargs="?")
    parser.add_argument("--command", help="a lanai-emu command line (e.g. 'pingbulk --sizes 4K') "
                                           "whose output is compared instead")
    parser.add_argument("--trace", action="store_true",
                        help="compare the first point's trace too (jitter experiments)")
    parser.add_argument("--plain", action="append",
                        help="a flag of the second run (repeatable; default --no-fast-forward), "
                             "given as --plain=--no-blocks")
    parser.add_argument("--jobs", type=int, default=1,
                        help="points the first run runs at once (the second runs one at a time)")
    args = parser.parse_args()
    flags = args.plain or ["--no-fast-forward"]
    if args.command:
        outputs = []
        for extra in ([], flags):
            cmd = [args.emu] + extra + args.command.split()
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
            outputs.append(done.stdout)
        if not outputs[0]:
            sys.exit("no output")
        if outputs[0] != outputs[1]:
            sys.exit(f"the output of '{args.command}' differs with {' '.join(flags)}")
        print(f"identical with and without {' '.join(flags)}:", args.command)
        return
    if not args.experiment:
        sys.exit("an experiment file or --command is needed")
    with tempfile.TemporaryDirectory() as tmp:
        fast, plain = pathlib.Path(tmp) / "fast", pathlib.Path(tmp) / "plain"
        run(args.emu, args.experiment, fast, [], args.trace, args.jobs)
        run(args.emu, args.experiment, plain, flags, args.trace)
        names = ["results.csv", "summary.json"] + (["trace.json"] if args.trace else [])
        for name in names:
            a, b = fast / name, plain / name
            if not a.exists() or not b.exists():
                sys.exit(f"{name} missing")
            if name == "summary.json":
                # Wall times are the one thing these flags are meant to change.
                wall = re.compile(r'"wall_seconds": [0-9.e+-]+')
                same = wall.sub("", a.read_text()) == wall.sub("", b.read_text())
            else:
                same = filecmp.cmp(a, b, shallow=False)
            if not same:
                sys.exit(f"{name} differs with {' '.join(flags)}")
            if a.stat().st_size == 0:
                sys.exit(f"{name} is empty")
        print(f"identical with and without {' '.join(flags)}:", args.experiment)


if __name__ == "__main__":
    main()
