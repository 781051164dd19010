# Runs `lanai-emu run` on an experiment and checks results.csv: every row
# received messages and none was lost or corrupted. stdlib only.
import csv
import pathlib
import subprocess
import sys

lanai_emu, experiment, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
proc = subprocess.run([lanai_emu, "run", experiment, "--out", str(out)],
                      capture_output=True, text=True, timeout=900)
if proc.returncode != 0:
    print(f"exit status {proc.returncode}\n{proc.stdout}{proc.stderr}")
    sys.exit(1)
problems = []
with open(out / "results.csv", newline="") as f:
    rows = list(csv.DictReader(f))
if not rows:
    problems.append("results.csv has no rows")
for row in rows:
    where = f"{row['firmware']} {row['class']} ({row['channels']} channels)"
    if int(row["messages"]) <= 0:
        problems.append(f"{where}: no messages")
    if int(row["lost"]) != 0 or int(row["corrupted"]) != 0:
        problems.append(f"{where}: {row['lost']} lost, {row['corrupted']} corrupted")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"{len(rows)} rows, nothing lost or corrupted")
