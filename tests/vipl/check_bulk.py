# Runs the bulk-transfer program on SVIA and on PVIA with --stats and compares
# them: PVIA keeps the host DMA and the network send DMA of the sending card
# busy at the same time (node0.hdma_nsdma.overlap clearly above 0), SVIA works
# them one after the other (overlap about 0), and PVIA moves more MB/s.
# Usage: check_bulk.py STATS_DIR PROGRAM [PROGRAM ARGS...]; stdlib only.
import json
import os
import re
import subprocess
import sys

stats_dir, program, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
measured = {}
problems = []
for firmware in ("svia", "pvia"):
    stats_file = os.path.join(stats_dir, f"bulk-{firmware}-stats.json")
    command = [program, "--nodes", "2", "--firmware", firmware, "--stats", stats_file] + extra
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    found = re.search(r"([0-9.]+) MB/s", proc.stdout)
    if proc.returncode != 0 or not found:
        print("command:", " ".join(command))
        print("--- stdout ---\n" + proc.stdout + "--- stderr ---\n" + proc.stderr)
        sys.exit(f"{firmware}: exit status {proc.returncode}, no throughput printed")
    stats = json.load(open(stats_file))
    measured[firmware] = (float(found.group(1)), stats["node0.hdma_nsdma.overlap"]["average"],
                          stats["node0.hdma.busy"]["average"], stats["node0.nsdma.busy"]["average"])
    print(f"{firmware}: {measured[firmware][0]:.2f} MB/s, node0 overlap {measured[firmware][1]:.4f}"
          f" (hdma busy {measured[firmware][2]:.4f}, nsdma busy {measured[firmware][3]:.4f})")

svia, pvia = measured["svia"], measured["pvia"]
if not pvia[1] > 0.2:
    problems.append(f"pvia overlap {pvia[1]:.4f} is not above 0.2")
if not svia[1] < 0.02:
    problems.append(f"svia overlap {svia[1]:.4f} is not about 0")
if not pvia[0] > svia[0]:
    problems.append(f"pvia throughput {pvia[0]:.2f} MB/s is not above svia's {svia[0]:.2f} MB/s")
if problems:
    print("\n".join(problems))
    sys.exit(1)
