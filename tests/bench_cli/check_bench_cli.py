# Runs one bench command of lanai-emu and checks what it printed: the exit
# status, regexes on stdout/stderr, a golden copy of stdout, that a second
# run prints (and writes) exactly the same, and that a Chrome trace it wrote
# has the tracks and labels a reader expects. stdlib only.
# Set LANAI_EMU_UPDATE_GOLDEN=1 to rewrite golden files from the output.
import argparse
import json
import os
import re
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--status", type=int, default=0)
parser.add_argument("--stdout", action="append", default=[])
parser.add_argument("--stderr", action="append", default=[])
parser.add_argument("--golden", help="file stdout must equal")
parser.add_argument("--repeat", action="store_true", help="a second run must print the same")
parser.add_argument("--json", action="store_true", help="stdout must be valid JSON")
parser.add_argument("--check-trace", help="Chrome trace file the command writes")
parser.add_argument("command", nargs=argparse.REMAINDER)
args = parser.parse_args()
command = args.command[1:] if args.command[:1] == ["--"] else args.command


def run():
    proc = subprocess.run(command, capture_output=True, text=True, timeout=900)
    trace = open(args.check_trace).read() if args.check_trace and os.path.exists(args.check_trace) else ""
    return proc, trace


first, first_trace = run()
problems = []
if first.returncode != args.status:
    problems.append(f"exit status {first.returncode}, expected {args.status}")
for pattern in args.stdout:
    if not re.search(pattern, first.stdout, re.MULTILINE):
        problems.append(f"stdout does not match {pattern!r}")
for pattern in args.stderr:
    if not re.search(pattern, first.stderr, re.MULTILINE):
        problems.append(f"stderr does not match {pattern!r}")
if args.json:
    try:
        json.loads(first.stdout)
    except ValueError as e:
        problems.append(f"stdout is not JSON: {e}")
if args.golden:
    if os.environ.get("LANAI_EMU_UPDATE_GOLDEN"):
        with open(args.golden, "w") as f:
            f.write(first.stdout)
    elif open(args.golden).read() != first.stdout:
        problems.append(f"stdout differs from {args.golden}")
if args.check_trace:
    try:
        events = json.loads(first_trace)["traceEvents"]
    except (ValueError, KeyError) as e:
        events = []
        problems.append(f"trace is not Chrome trace JSON: {e}")
    names = {e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "thread_name"}
    for track in ("LANai", "doorbells", "HDMA", "NSDMA", "NRDMA", "link"):
        if track not in names:
            problems.append(f"trace has no {track} track")
    spans = [e for e in events if e.get("ph") == "X"]
    for tid, what in ((2, "HDMA"), (3, "NSDMA"), (4, "NRDMA"), (0, "LANai")):
        if not any(e["tid"] == tid for e in spans):
            problems.append(f"trace has no {what} spans")
    if not any("vi" in e.get("args", {}) and "msg" in e["args"] for e in spans if e["tid"] == 3):
        problems.append("network send spans carry no VI and message labels")
    if not any("vi" in e.get("args", {}) for e in spans if e["tid"] == 2):
        problems.append("host DMA spans carry no VI labels")
    if any(e["dur"] < 0 for e in spans):
        problems.append("a span has negative duration")
if args.repeat:
    second, second_trace = run()
    if (second.returncode, second.stdout, second.stderr) != (first.returncode, first.stdout, first.stderr):
        problems.append("a second run printed something different")
    if second_trace != first_trace:
        problems.append("a second run wrote a different trace")
if problems:
    print("command:", " ".join(command))
    print("--- stdout ---\n" + first.stdout + "--- stderr ---\n" + first.stderr)
    for p in problems:
        print("FAIL:", p)
    sys.exit(1)
