# Runs one bench command of lanai-emu and checks what it printed: the exit
# status, regexes on stdout/stderr, a golden copy of stdout, that a second
# run prints (and writes) exactly the same, that a Chrome trace it wrote
# has the tracks and labels a reader expects, and regexes on other files it
# wrote. stdlib only.
# Set LANAI_EMU_UPDATE_GOLDEN=1 to rewrite golden files from the output.
import json
import os
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

parser = command_check.parser()
parser.add_argument("--golden", help="file stdout must equal")
parser.add_argument("--json", action="store_true", help="stdout must be valid JSON")
parser.add_argument("--check-trace", help="Chrome trace file the command writes")
parser.add_argument("--wrote", action="append", default=[],
                    help="FILE=REGEX: a file the command writes, and a regex its text must match")
args, command = command_check.parse(parser)

first, first_trace = command_check.run(command, args.check_trace)
problems = command_check.output_problems(args, first)
for wrote in args.wrote:
    path, _, pattern = wrote.partition("=")
    if not os.path.exists(path):
        problems.append(f"{path} was not written")
    elif not re.search(pattern, open(path).read(), re.MULTILINE):
        problems.append(f"{path} does not match {pattern!r}")
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
    second, second_trace = command_check.run(command, args.check_trace)
    problems += command_check.repeat_problems(first, first_trace, second, second_trace, "trace")
command_check.finish(command, first, problems)
