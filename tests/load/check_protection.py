# Runs a jitter experiment of reserved channels against best effort under a
# baseline firmware (PVIA unless told) and a rate-scheduling firmware, and
# checks that under the latter every reserved class keeps theta under
# --limit, that its reserved channels together (theta pooled over their
# messages) jitter less than under the baseline, that best effort absorbs
# the shortfall (its latency is the higher), and that nothing was lost or
# corrupted. With --seeds N the experiment runs with seeds 1..N and the
# comparisons pool every run's messages: one run's jitter turns on where
# best effort's transfers happen to fall, and two firmwares that differ by a
# few per cent can trade places from seed to seed. stdlib only.
#   check_protection.py LANAI_EMU EXPERIMENT OUT_DIR [--firmware qosvia] [--baseline pvia]
#                       [--limit 0.05] [--seeds 1]
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from experiment_run import results, run_experiment  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("lanai_emu")
p.add_argument("experiment")
p.add_argument("out", type=pathlib.Path)
p.add_argument("--firmware", default="qosvia")
p.add_argument("--baseline", default="pvia")
p.add_argument("--limit", type=float, default=0.05)
p.add_argument("--seeds", type=int, default=1)
args = p.parse_args()

problems = []
pooled = {}
be_latency = {}
for seed in range(1, args.seeds + 1):
    out = args.out if args.seeds == 1 else args.out / f"seed{seed}"
    run_experiment(args.lanai_emu, args.experiment, out,
                   *([] if args.seeds == 1 else ["--seed", str(seed)]))
    for row in results(out):
        fw = row["firmware"]
        where = f"{fw} {row['class']}" + ("" if args.seeds == 1 else f" (seed {seed})")
        if int(row["messages"]) <= 0:
            problems.append(f"{where}: no messages")
        if int(row["lost"]) != 0 or int(row["corrupted"]) != 0:
            problems.append(f"{where}: {row['lost']} lost, {row['corrupted']} corrupted")
        if row["class"] == "BE":
            total, count = be_latency.get(fw, (0.0, 0))
            be_latency[fw] = (total + float(row["be_latency_mean_us"]), count + 1)
            continue
        theta, messages = float(row["theta"]), int(row["messages"])
        total, count = pooled.get(fw, (0.0, 0))
        pooled[fw] = (total + theta * messages, count + messages)
        if fw == args.firmware and theta >= args.limit:
            problems.append(f"{where}: theta {theta:.4f}, not under {args.limit}")
be_latency = {fw: total / count for fw, (total, count) in be_latency.items()}
base = args.baseline
for fw in (base, args.firmware):
    if fw not in pooled or fw not in be_latency:
        problems.append(f"no figures for {fw}")
if not problems:
    mine = pooled[args.firmware][0] / pooled[args.firmware][1]
    theirs = pooled[base][0] / pooled[base][1]
    if mine >= theirs:
        problems.append(f"reserved theta {mine:.4f} under {args.firmware}, "
                        f"not below {base}'s {theirs:.4f}")
    if be_latency[args.firmware] < be_latency[base]:
        problems.append(f"best effort {be_latency[args.firmware]:.0f} us under {args.firmware}, "
                        f"faster than under {base} ({be_latency[base]:.0f} us)")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"reserved theta: {args.firmware} {mine:.4f}, {base} {theirs:.4f}; best effort "
      f"{be_latency[args.firmware]:.0f} us against {be_latency[base]:.0f} us")
