# Ctrl-C under plain mpirun, which sends every rank SIGTERM and SIGKILL a
# second later: rank 0 writes the points finished so far as soon as it sees
# the stop, before it waits for the running ones, so a point slow to stop
# (the test hook LANAI_EMU_TEST_RANK_FAILURE=0:hold keeps rank 0's first
# point running 5 s past the stop) costs nothing that had finished.
# Checks that summary.json and results.csv exist, say the run was
# interrupted, and that every point kept has the single-process run's row.
#   check_mpi_stop.py MPIEXEC LANAI_EMU EXPERIMENT WORK SECONDS
# SECONDS: how long the sweep runs before the interrupt.
import csv
import io
import json
import pathlib
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import mpi_check  # noqa: E402

mpiexec, lanai_emu, experiment, work, seconds = sys.argv[1:6]
work = pathlib.Path(work)
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)

single = mpi_check.alone(lanai_emu, experiment, work / "alone")
if single.returncode != 0:
    print(mpi_check.report("alone", single))
    sys.exit(1)

out = work / "ranks2"
line = [mpiexec, "--oversubscribe", "-n", "2", lanai_emu, "run", experiment, "--jobs", "1",
        "--out", str(out)]
proc = subprocess.Popen(line, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                        env=mpi_check.mpi_environment({"LANAI_EMU_TEST_RANK_FAILURE": "0:hold"}))
time.sleep(float(seconds))
proc.send_signal(signal.SIGINT)
stdout, stderr = proc.communicate(timeout=120)

problems = []
summary_file, results_file = out / "summary.json", out / "results.csv"
if not summary_file.exists() or not results_file.exists():
    print(f"mpirun exited with {proc.returncode}\n--- stderr ---\n{stderr}")
    print("rank 0 wrote no summary.json or results.csv before mpirun ended it")
    sys.exit(1)
summary = json.loads(summary_file.read_text())
if not summary["interrupted"]:
    problems.append("summary.json does not say the run was interrupted")


def rows(path):
    return list(csv.reader(io.StringIO(pathlib.Path(path).read_text())))


alone_rows = {tuple(r) for r in rows(work / "alone" / "results.csv")}
kept = rows(results_file)
if kept[:1] != rows(work / "alone" / "results.csv")[:1]:
    problems.append("results.csv has another header than the single process's")
for row in kept[1:]:
    if tuple(row) not in alone_rows:
        problems.append(f"row {row} is not the single process's")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"interrupted after {seconds} s: {len(kept) - 1} rows kept, each as the single process has it")
