# Runs a host program on the emulated cluster and checks its exit status and
# output: the launcher's contract (status codes, deadlock reports) and, with
# --repeat, that two runs print exactly the same thing. stdlib only.
import argparse
import re
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--status", type=int, default=0, help="expected exit status")
parser.add_argument("--stdout", action="append", default=[], help="regex stdout must match")
parser.add_argument("--stderr", action="append", default=[], help="regex stderr must match")
parser.add_argument("--stderr-lines", type=int, help="exact number of stderr lines")
parser.add_argument("--repeat", action="store_true",
                    help="run twice: outputs and any --stats file must be identical")
parser.add_argument("command", nargs=argparse.REMAINDER)
args = parser.parse_args()
command = args.command[1:] if args.command[:1] == ["--"] else args.command


stats_file = command[command.index("--stats") + 1] if "--stats" in command else None


def run():
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    stats = open(stats_file).read() if stats_file else ""
    return proc, stats


first, first_stats = run()
problems = []
if first.returncode != args.status:
    problems.append(f"exit status {first.returncode}, expected {args.status}")
for pattern in args.stdout:
    if not re.search(pattern, first.stdout, re.MULTILINE):
        problems.append(f"stdout does not match {pattern!r}")
for pattern in args.stderr:
    if not re.search(pattern, first.stderr, re.MULTILINE):
        problems.append(f"stderr does not match {pattern!r}")
if args.stderr_lines is not None and len(first.stderr.splitlines()) != args.stderr_lines:
    problems.append(f"{len(first.stderr.splitlines())} stderr lines, expected {args.stderr_lines}")
if args.repeat:
    second, second_stats = run()
    if (second.returncode, second.stdout, second.stderr) != (
            first.returncode, first.stdout, first.stderr):
        problems.append("a second run printed something different")
    if second_stats != first_stats:
        problems.append("a second run wrote different statistics")
    if stats_file and '"node0.hdma.busy_ps"' not in first_stats:
        problems.append("the statistics file lacks the device counters")
if problems:
    print("command:", " ".join(command))
    print("--- stdout ---\n" + first.stdout + "--- stderr ---\n" + first.stderr)
    print("\n".join(problems))
    sys.exit(1)
print(first.stdout, end="")
