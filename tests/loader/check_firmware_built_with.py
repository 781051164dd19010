#!/usr/bin/env python3
"""Checks that building a program alone builds the firmware it may load.

A program finds shipped firmware by name in the build tree's firmware
folders. If building it did not build them, a folder would hold an
objects.txt naming objects not yet compiled, and the program would fail on
its first run. In the Ninja build graph, every source a shipped firmware
compiles must therefore be among each program's inputs.

usage: check_firmware_built_with.py NINJA BUILD_DIR --firmware T... --programs P...
"""
import argparse
import subprocess
import sys

SOURCE_ENDINGS = (".c", ".cpp", ".S", ".s")


def inputs_of(ninja, build_dir, target):
    run = subprocess.run([ninja, "-C", build_dir, "-t", "inputs", target],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{ninja} -t inputs {target}: {run.stderr.strip() or run.stdout.strip()}")
    return {line.strip() for line in run.stdout.splitlines() if line.strip()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ninja")
    parser.add_argument("build_dir")
    parser.add_argument("--firmware", nargs="+", required=True)
    parser.add_argument("--programs", nargs="+", required=True)
    args = parser.parse_args()

    needed = {}
    for firmware in args.firmware:
        sources = {i for i in inputs_of(args.ninja, args.build_dir, firmware)
                   if i.endswith(SOURCE_ENDINGS)}
        if not sources:
            sys.exit(f"{firmware}: compiles no source (not a firmware target?)")
        needed[firmware] = sources

    missing = []
    for program in args.programs:
        inputs = inputs_of(args.ninja, args.build_dir, program)
        for firmware, sources in needed.items():
            left_out = sorted(sources - inputs)
            if left_out:
                missing.append(f"{program}: building it alone leaves {firmware} unbuilt "
                               f"({len(left_out)} of {len(sources)} sources, e.g. {left_out[0]})")
    for line in missing:
        print(line)
    if missing:
        return 1
    print(f"{len(args.programs)} programs build {len(args.firmware)} shipped firmware sets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
