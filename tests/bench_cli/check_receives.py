# Checks `lanai-emu pingpong --breakdown --format json` run with receives
# posted on arrival and ahead: both print the same breakdown (it always comes
# from a run with receives ahead); every 1-way latency with receives ahead
# is at least the time the message takes to get into the receiver's memory
# (send data down plus receive status done); and, with --faster-ahead US,
# posting receives ahead takes at least US off every 1-way median (the
# receive doorbell, and its descriptor fetch, leave the critical path).
# stdlib only.
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

parser = command_check.parser()
parser.add_argument("--faster-ahead", type=float, default=None)
args, command = command_check.parse(parser)

runs, problems = {}, []
for receives in ("on-arrival", "ahead"):
    proc, _ = command_check.run(command + ["--receives", receives])
    problems += [f"--receives {receives}: {p}" for p in command_check.output_problems(args, proc)]
    try:
        runs[receives] = json.loads(proc.stdout)
    except ValueError as e:
        command_check.finish(command, proc, problems + [f"stdout is not JSON: {e}"])
    if runs[receives].get("receives") != receives:
        problems.append(f"--receives {receives}: the JSON says {runs[receives].get('receives')!r}")

for on_arrival, ahead in zip(runs["on-arrival"]["results"], runs["ahead"]["results"]):
    size = ahead["size"]
    if on_arrival["breakdown"] != ahead["breakdown"]:
        problems.append(f"{size} B: the breakdown depends on --receives")
    b = ahead["breakdown"]
    floor = b["send"]["data_down"] + b["recv"]["status_done"]
    if ahead["one_way_us"]["min"] < floor:
        problems.append(f"{size} B: 1-way {ahead['one_way_us']['min']} us with receives ahead is "
                        f"below data down + receive status done ({floor:.3f} us)")
    gain = on_arrival["one_way_us"]["median"] - ahead["one_way_us"]["median"]
    if args.faster_ahead is not None and gain < args.faster_ahead:
        problems.append(f"{size} B: receives ahead gain {gain:.3f} us < {args.faster_ahead} us")
    print(f"{size} B: 1-way median {on_arrival['one_way_us']['median']:.3f} us on arrival, "
          f"{ahead['one_way_us']['median']:.3f} us ahead")

command_check.finish(command, proc, problems)
