# Runs a host program on the emulated cluster and checks its exit status and
# output: the launcher's contract (status codes, deadlock reports) and, with
# --repeat, that two runs print exactly the same thing; with --again-with
# OPTION, that a run with that launcher option added prints exactly the same
# too; with --counted REGEX (and --stats FILE in the command), that the
# counters whose names match add up to more than zero. stdlib only.
import json
import re
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

parser = command_check.parser()
parser.add_argument("--stderr-lines", type=int, help="exact number of stderr lines")
parser.add_argument("--counted", action="append", default=[],
                    help="regex of counter names that must add up to more than zero")
parser.add_argument("--again-with", action="append", default=[],
                    help="launcher option for a second run that must print the same")
args, command = command_check.parse(parser)
stats_file = command[command.index("--stats") + 1] if "--stats" in command else None

first, first_stats = command_check.run(command, stats_file, timeout=600)
problems = command_check.output_problems(args, first)
if args.stderr_lines is not None and len(first.stderr.splitlines()) != args.stderr_lines:
    problems.append(f"{len(first.stderr.splitlines())} stderr lines, expected {args.stderr_lines}")
for pattern in args.counted:
    counters = json.loads(first_stats) if first_stats else {}
    total = sum(c["value"] for name, c in counters.items()
                if re.search(pattern, name) and c.get("kind") == "counter")
    if total <= 0:
        problems.append(f"no counter matching {pattern!r} counted anything")
for option in args.again_with:
    again, _ = command_check.run(command[:1] + [option] + command[1:], None, timeout=600)
    if (again.returncode, again.stdout) != (first.returncode, first.stdout):
        problems.append(f"a run with {option} printed something different:\n{again.stdout}")
if args.repeat:
    second, second_stats = command_check.run(command, stats_file, timeout=600)
    problems += command_check.repeat_problems(first, first_stats, second, second_stats,
                                              "statistics")
    if stats_file and '"node0.hdma.busy_ps"' not in first_stats:
        problems.append("the statistics file lacks the device counters")
command_check.finish(command, first, problems)
