# Ctrl-C under mpirun, which sends every rank SIGTERM and SIGKILL soon
# after: rank 0 writes the points finished so far as soon as it sees the
# stop, before it waits for the running ones, so a point slower to stop
# than mpirun waits (the test hook LANAI_EMU_TEST_RANK_FAILURE=0:hold keeps
# rank 0's first point running 5 s past the stop) costs nothing that had
# finished.
# On a pipeline sweep the hook holds rank 0's measurement of the models
# instead, so the points end first and the stop finds the models unmeasured.
# Checks that summary.json and results.csv exist, say the run was
# interrupted, and that every point kept has the single-process run's row.
#   check_mpi_stop.py MPIEXEC LANAI_EMU EXPERIMENT WORK SECONDS [--unmeasured COLUMN...]
# SECONDS: how long the sweep runs, once rank 0 holds its work, before the
# interrupt. --unmeasured: columns that must be empty in every row kept (and
# null in summary.json's points), the rest as the single process has them;
# summary.json then has no best counts.
import csv
import io
import json
import pathlib
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import mpi_check  # noqa: E402

mpiexec, lanai_emu, experiment, work, seconds = sys.argv[1:6]
unmeasured = sys.argv[7:] if sys.argv[6:7] == ["--unmeasured"] else []
work, _ = mpi_check.fresh_work_and_alone(lanai_emu, experiment, work)

out = work / "ranks2"
# SIGKILL 3 s after the interrupt, not Open MPI's 1 s: the held point needs
# 5, so rank 0 still cannot wait for it, and a test machine busy with other
# tests still gives rank 0 the moment it needs to write.
line = [mpiexec, "--oversubscribe", "--mca", "odls_base_sigkill_timeout", "3", "-n", "2",
        lanai_emu, "run", experiment, "--jobs", "1", "--out", str(out)]
proc = subprocess.Popen(line, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                        env=mpi_check.mpi_environment({"LANAI_EMU_TEST_RANK_FAILURE": "0:hold"}))
# The interrupt goes once the sweep runs (rank 0 says it holds its work),
# not while the ranks still start.
holding = threading.Event()
lines = []


def read_stderr():
    for line in proc.stderr:
        lines.append(line)
        if "holding " in line:
            holding.set()


reader = threading.Thread(target=read_stderr)
reader.start()
if not holding.wait(timeout=120):
    proc.kill()
    reader.join()
    print("rank 0 never said it held its work\n--- stderr ---\n" + "".join(lines))
    sys.exit(1)
time.sleep(float(seconds))
proc.send_signal(signal.SIGINT)
proc.wait(timeout=120)
reader.join()
stderr = "".join(lines)

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


header = rows(work / "alone" / "results.csv")[0]
blank = [header.index(c) for c in unmeasured]


def blanked(row):
    return tuple("" if i in blank else cell for i, cell in enumerate(row))


alone_rows = {blanked(r) for r in rows(work / "alone" / "results.csv")[1:]}
kept = rows(results_file)
if kept[:1] != [header]:
    problems.append("results.csv has another header than the single process's")
for row in kept[1:]:
    if tuple(row) not in alone_rows:
        problems.append(f"row {row} is not the single process's"
                        + (f" with {', '.join(unmeasured)} empty" if unmeasured else ""))
if unmeasured:
    if summary.get("best") != []:
        problems.append("summary.json gives best counts without measured models")
    for point in summary["points"]:
        for column in unmeasured:
            if point.get(column, "missing") is not None:
                problems.append(f"summary.json point {point} does not give {column} as null")
if problems:
    print(f"mpirun exited with {proc.returncode}\n--- stderr ---\n{stderr}")
    print("\n".join(problems))
    sys.exit(1)
finished = sum(1 for row in kept[1:] if row[header.index("emulated_us")] != "") \
    if "emulated_us" in header else len(kept) - 1
print(f"interrupted after {seconds} s: {len(kept) - 1} rows kept ({finished} with a result), "
      "each as the single process has it")
