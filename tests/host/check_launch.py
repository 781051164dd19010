#!/usr/bin/env python3
"""Runs a launched host program and checks its exit status and output.

usage: check_launch.py --status N [--stdout RE]... [--stderr RE]...
                       [--stderr-lines N] -- command [args...]
Each RE must match somewhere in the stream (multi-line mode)."""
import argparse
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--status", type=int, required=True)
    parser.add_argument("--stdout", action="append", default=[])
    parser.add_argument("--stderr", action="append", default=[])
    parser.add_argument("--stderr-lines", type=int)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    failures = []
    if result.returncode != args.status:
        failures.append(f"exit status {result.returncode}, expected {args.status}")
    for pattern in args.stdout:
        if not re.search(pattern, result.stdout, re.MULTILINE):
            failures.append(f"stdout does not match {pattern!r}")
    for pattern in args.stderr:
        if not re.search(pattern, result.stderr, re.MULTILINE):
            failures.append(f"stderr does not match {pattern!r}")
    if args.stderr_lines is not None:
        lines = result.stderr.splitlines()
        if len(lines) != args.stderr_lines:
            failures.append(f"{len(lines)} stderr lines, expected {args.stderr_lines}")
    if failures:
        print("command:", " ".join(command))
        print("--- stdout\n" + result.stdout + "--- stderr\n" + result.stderr + "---")
        for failure in failures:
            print("FAILED:", failure)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
