# Checks `lanai-emu frag --format json`: the same JSON with --jobs 1 and
# --jobs 2; each message's bytes pipelined through fragments arrive sooner
# than whole; the model, fitted on whole messages by the direct method,
# reproduces them within --fit-tolerance and the fragmented latencies
# within --median-limit (median) and --worst-limit percent; and the
# fragment size the model (and the fixed-size theorem) picks is within
# --pick-tolerance percent of the emulator's best. stdlib only.
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

parser = command_check.parser()
parser.add_argument("--fit-tolerance", type=float, default=2.0)
parser.add_argument("--median-limit", type=float, default=15.0)
parser.add_argument("--worst-limit", type=float, default=30.0)
parser.add_argument("--pick-tolerance", type=float, default=5.0)
parser.add_argument("--gain", type=float, default=25.0,
                    help="percent the best fragments must save on messages of 16 KB or more")
args, command = command_check.parse(parser)

one, _ = command_check.run(command + ["--jobs", "1"])
two, _ = command_check.run(command + ["--jobs", "2"])
problems = command_check.output_problems(args, one)
if (one.returncode, one.stdout) != (two.returncode, two.stdout):
    problems.append("--jobs 1 and --jobs 2 printed different results")
try:
    report = json.loads(one.stdout)
except ValueError as e:
    command_check.finish(command, one, problems + [f"stdout is not JSON: {e}"])

errors = []
for r in report["results"]:
    size, rows = r["size"], r["by_frag"]
    by_frag = {row["frag_bytes"]: row for row in rows}
    whole = [row for row in rows if row["fragments"] == 1]
    split = [row for row in rows if row["fragments"] > 1]
    if not whole or not split:
        problems.append(f"{size} B: no row with one fragment, or none with several")
        continue
    for row in whole:
        if abs(row["error_pct"]) > args.fit_tolerance:
            problems.append(f"{size} B whole: model off by {row['error_pct']:.1f}%")
    errors += [abs(row["error_pct"]) for row in split]
    best = min(row["emulator_us"] for row in rows)
    if size >= 16384 and best > whole[0]["emulator_us"] * (1 - args.gain / 100):
        problems.append(f"{size} B: best fragments give {best:.1f} us against "
                        f"{whole[0]['emulator_us']:.1f} us whole")
    for what, frag in (("model", r["model_best_frag"]), ("theorem", r["theorem_frag"])):
        if frag not in by_frag:
            continue  # a size not tried (an explicit --frag-sizes list)
        got = by_frag[frag]["emulator_us"]
        if got > best * (1 + args.pick_tolerance / 100):
            problems.append(f"{size} B: the {what}'s {frag}-byte fragments take {got:.1f} us, "
                            f"the best {best:.1f} us")
errors.sort()
if errors:
    median = errors[len(errors) // 2] if len(errors) % 2 else \
        (errors[len(errors) // 2 - 1] + errors[len(errors) // 2]) / 2
    if median > args.median_limit:
        problems.append(f"median model error {median:.1f}% > {args.median_limit}%")
    if errors[-1] > args.worst_limit:
        problems.append(f"worst model error {errors[-1]:.1f}% > {args.worst_limit}%")
command_check.finish(command, one, problems)
