# Runs a jitter experiment under heavy load and checks that every
# message of every channel arrived intact (results.csv counts the lost and
# the corrupted) and that no card reported a VIA error on the way (a
# message that found no receive posted, a post the card dropped). stdlib
# only.
#   check_nothing_lost.py LANAI_EMU EXPERIMENT OUT_DIR
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from experiment_run import results, run_experiment  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("lanai_emu")
p.add_argument("experiment")
p.add_argument("out", type=pathlib.Path)
args = p.parse_args()

printed = run_experiment(args.lanai_emu, args.experiment, args.out)
problems = [line for line in printed.splitlines() if "VIA error" in line]
rows = results(args.out)
for row in rows:
    label = f"{row['firmware']} at {row['total_load_MBps']} MB/s, {row['class']}"
    print(f"{label}: {row['messages']} messages, {row['lost']} lost, {row['corrupted']} corrupted")
    if int(row["messages"]) == 0:
        problems.append(f"{label}: sent nothing")
    if int(row["lost"]) != 0 or int(row["corrupted"]) != 0:
        problems.append(f"{label}: {row['lost']} lost, {row['corrupted']} corrupted")
if not rows:
    problems.append("no results")
if problems:
    print("\n".join(problems))
    sys.exit(1)
