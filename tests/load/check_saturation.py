# Runs a saturation experiment with --jobs 1 and --jobs 2 and checks that
# both write identical files; that results.csv has the documented columns;
# that every point carried at least --share of its bound, received messages
# and lost or corrupted none; and that no point's throughput exceeds its
# bound. stdlib only.
#   check_saturation.py LANAI_EMU EXPERIMENT WORK_DIR [--share 0.9] [--once]
# --once: one run, with --jobs 1, where other experiments of the kind
# already hold the two --jobs values against each other.
import argparse
import csv
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

COLUMNS = ["firmware", "message_bytes", "receivers", "throughput_MBps", "bound_MBps",
           "sender_lanai_busy", "sender_hdma_busy", "sender_nsdma_busy", "receiver_hdma_busy"]

p = argparse.ArgumentParser()
p.add_argument("lanai_emu")
p.add_argument("experiment")
p.add_argument("work", type=pathlib.Path)
p.add_argument("--share", type=float, default=0.9)
p.add_argument("--once", action="store_true")
args = p.parse_args()
shutil.rmtree(args.work, ignore_errors=True)
args.work.mkdir(parents=True)

problems, runs = command_check.run_experiment_per_jobs(args.lanai_emu, args.experiment, args.work,
                                                       ("1",) if args.once else ("1", "2"))
if not args.once:
    problems += command_check.differing_files(
        args.work, ("results.csv", "summary.json", "experiment.toml", "profile.toml"))
results = args.work / "jobs1" / "results.csv"
rows = []
if results.exists():
    with open(results, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames[:len(COLUMNS)] != COLUMNS:
            problems.append(f"results.csv columns {reader.fieldnames}, expected {COLUMNS} first")
        rows = list(reader)
if not rows:
    problems.append("results.csv has no rows")
for row in rows:
    where = f"{row['firmware']} {row['message_bytes']} B to {row['receivers']} receiver(s)"
    got, bound = float(row["throughput_MBps"]), float(row["bound_MBps"])
    if got < args.share * bound:
        problems.append(f"{where}: {got:.1f} MB/s, under {args.share:.0%} of its {bound:.1f} MB/s bound")
    if got > bound * 1.001:
        problems.append(f"{where}: {got:.1f} MB/s, above its {bound:.1f} MB/s bound")
    if int(row["messages"]) <= 0:
        problems.append(f"{where}: no messages")
    if int(row["lost"]) != 0 or int(row["corrupted"]) != 0:
        problems.append(f"{where}: {row['lost']} lost, {row['corrupted']} corrupted")
    for busy in COLUMNS[5:]:
        if not 0.0 <= float(row[busy]) <= 1.0:
            problems.append(f"{where}: {busy} {row[busy]} outside 0..1")
if problems:
    print("\n".join(problems))
    sys.exit(1)
for row in rows:
    print(f"{row['firmware']:8} {row['message_bytes']:>6} B to {row['receivers']}  {float(row['throughput_MBps']):6.1f} "
          f"of {float(row['bound_MBps']):6.1f} MB/s")
