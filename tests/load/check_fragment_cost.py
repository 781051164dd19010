# Runs a pipeline experiment with 8, 16 and 32 host fragments per packet
# and checks, per firmware and packet, that an extra fragment costs about
# the same from 16 to 32 fragments as from 8 to 16 (within --tolerance):
# once the pipeline is full each fragment adds its bottleneck stage's time,
# whatever the number of fragments already on the card. stdlib only.
#   check_fragment_cost.py LANAI_EMU EXPERIMENT OUT_DIR [--tolerance 0.1]
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from experiment_run import results, run_experiment  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("lanai_emu")
p.add_argument("experiment")
p.add_argument("out", type=pathlib.Path)
p.add_argument("--tolerance", type=float, default=0.1)
args = p.parse_args()

run_experiment(args.lanai_emu, args.experiment, args.out)
latency = {}
for row in results(args.out):
    latency[(row["firmware"], int(row["packet_bytes"]), int(row["fragments"]))] = \
        float(row["emulated_us"])
problems = []
for (fw, packet) in sorted({(k[0], k[1]) for k in latency}):
    try:
        t8, t16, t32 = (latency[(fw, packet, k)] for k in (8, 16, 32))
    except KeyError:
        problems.append(f"{fw} {packet} B: needs 8, 16 and 32 fragments")
        continue
    early, late = (t16 - t8) / 8, (t32 - t16) / 16
    print(f"{fw} {packet} B: {early:.1f} us per extra fragment from 8 to 16, {late:.1f} from 16 to 32")
    if early <= 0 or abs(late - early) > args.tolerance * early:
        problems.append(f"{fw} {packet} B: an extra fragment costs {early:.1f} us from 8 to 16 "
                        f"fragments but {late:.1f} us from 16 to 32")
if problems:
    print("\n".join(problems))
    sys.exit(1)
