# A rank that fails, or dies, during a sweep over MPI ranks: rank 0 reports
# it with the points it took, records those points as failed, and keeps
# every other rank's results, each row as the single-process run has it.
# The failure is made by the test hook LANAI_EMU_TEST_RANK_FAILURE=1:MODE.
#   check_mpi_failure.py MPIEXEC LANAI_EMU EXPERIMENT WORK error|exit [KILL_AFTER]
# KILL_AFTER: the seconds mpirun leaves the ranks between its SIGTERM and
# its SIGKILL when a rank dies (default 3; a sanitizer build needs more).
# error: rank 1's first point throws; rank 1 says so and takes no more
#        points; the others run the rest: exit status 2, one line naming
#        rank 1 and its points.
# exit:  rank 1 ends at once (status 3) as it takes its first point, as a
#        crash would; mpirun then ends the job, and rank 0 writes what had
#        finished, with rank 1's points as failed, before it goes.
# The experiment must be a jitter one (its rows carry the point index).
import csv
import io
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import mpi_check  # noqa: E402

mpiexec, lanai_emu, experiment, work, mode = sys.argv[1:6]
kill_after = sys.argv[6] if len(sys.argv) > 6 else "3"
work, _ = mpi_check.fresh_work_and_alone(lanai_emu, experiment, work)
out = work / "ranks3"
# When a rank dies, mpirun ends the others with SIGTERM and, this long
# after, SIGKILL: rank 0 must write what had finished in between (Open
# MPI's default is one second; a busy test machine gets more, as a user may
# give it). When a rank only fails, every rank has rank 0's status, and its
# files are written, before any of them exits non-zero: mpirun then waits
# this long for nothing, so one second does.
proc = mpi_check.mpirun(mpiexec, 3, [lanai_emu, "run", experiment, "--jobs", "1", "--out", str(out)],
                        extra_env={"LANAI_EMU_TEST_RANK_FAILURE": f"1:{mode}"},
                        options=("--mca", "odls_base_sigkill_timeout",
                                 kill_after if mode == "exit" else "1"))
problems = []
ours = [line for line in proc.stderr.splitlines() if line.startswith("lanai-emu: ")]


def rows(path):
    return {tuple(r) for r in csv.reader(io.StringIO(pathlib.Path(path).read_text()))}


summary_file = out / "summary.json"
if not summary_file.exists():
    print(mpi_check.report("3 ranks, rank 1 failing", proc))
    print("rank 0 wrote no summary.json")
    sys.exit(1)
summary = json.loads(summary_file.read_text())
failed = {p["point"]: p["detail"] for p in summary["points"] if p["outcome"] != "finished"}
kept = {p["point"] for p in summary["points"] if p["outcome"] == "finished"}
if mode == "error":
    expected = r"rank 1 on \S+ failed: failure requested by LANAI_EMU_TEST_RANK_FAILURE"
    if proc.returncode != 2:
        problems.append(f"exit status {proc.returncode}, expected 2 (points failed)")
    losses = [line for line in ours if re.match(r"lanai-emu: " + expected + "; its points [0-9, ]+ did not finish$", line)]
    if len(losses) != 1:
        problems.append("no single line reporting rank 1 and its points")
    else:
        listed = {int(p) for p in losses[0].split("its points ")[1].split(" did")[0].split(", ")}
        if listed != set(failed):
            problems.append(f"rank 1's points {sorted(listed)}, failed in summary.json {sorted(failed)}")
    if summary["interrupted"]:
        problems.append("summary.json says interrupted")
    # Every other point ran: on rank 0 or rank 2.
    if len(kept) + len(failed) != summary["points_total"]:
        problems.append(f"{len(kept)} kept and {len(failed)} failed of {summary['points_total']}")
else:
    expected = r"rank 1 did not report back after the stop \(it died, or mpirun ended it\)"
    if proc.returncode == 0:
        problems.append("exit status 0 although a rank died")
    if not summary["interrupted"]:
        problems.append("summary.json does not say the run was cut short")
if not failed:
    problems.append("no point recorded as failed")
for point, detail in failed.items():
    if not re.fullmatch(expected, detail):
        problems.append(f"point {point}: detail {detail!r} does not match {expected!r}")
# What was kept is what the single process has for those points, row for row.
mine, theirs = rows(out / "results.csv"), rows(work / "alone" / "results.csv")
if not mine <= theirs:
    problems.append(f"rows not in the single-process results: {sorted(mine - theirs)}")
expected_rows = {r for r in theirs if r[0] == "point" or int(r[0]) in kept}
if mine != expected_rows:
    problems.append("results.csv does not hold exactly the kept points' rows")

if problems:
    print(mpi_check.report("3 ranks, rank 1 failing", proc))
    print("\n".join(problems))
    sys.exit(1)
print(f"rank 1 {'failed' if mode == 'error' else 'died'}: points {sorted(failed)} reported, "
      f"{len(kept)} kept as the single process has them")
