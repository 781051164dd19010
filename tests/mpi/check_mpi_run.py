# Runs an experiment alone and under mpirun on each rank count given, and
# checks that rank 0 writes byte-identical results.csv, summary.json (wall
# times aside), experiment.toml and profile.toml, prints its report once,
# that no other rank writes or prints anything, and that the files hold
# every point. With --progress, one run also goes through a terminal
# (script(1)) to see rank 0's progress bar count every rank's points.
#   check_mpi_run.py MPIEXEC LANAI_EMU EXPERIMENT WORK RANKS... [--progress]
import json
import pathlib
import shlex
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import mpi_check  # noqa: E402

args = [a for a in sys.argv[1:] if a != "--progress"]
progress = "--progress" in sys.argv
mpiexec, lanai_emu, experiment, work = args[0], args[1], args[2], pathlib.Path(args[3])
rank_counts = [int(n) for n in args[4:]]
work, single = mpi_check.fresh_work_and_alone(lanai_emu, experiment, work)
files = ("results.csv", "summary.json", "experiment.toml", "profile.toml")

problems = []
name = json.loads((work / "alone" / "summary.json").read_text())["experiment"]
for ranks in rank_counts:
    top = work / f"ranks{ranks}"
    # Each rank starts in a folder of its own and writes to the default
    # results/<name>: rank 0's folder gets the files, the others' stay empty.
    shell = 'mkdir -p rank$OMPI_COMM_WORLD_RANK && cd rank$OMPI_COMM_WORLD_RANK && exec "$0" run "$1" --jobs 1'
    top.mkdir()
    proc = mpi_check.mpirun(mpiexec, ranks, ["sh", "-c", shell, lanai_emu,
                                             str(pathlib.Path(experiment).resolve())], cwd=top)
    if proc.returncode != 0:
        problems.append(mpi_check.report(f"{ranks} ranks", proc))
        continue
    out = top / "rank0" / "results" / name
    problems += mpi_check.differing(work / "alone", out, files)
    for r in range(1, ranks):
        if any((top / f"rank{r}").iterdir()):
            problems.append(f"{ranks} ranks: rank {r} wrote {sorted(p.name for p in (top / f'rank{r}').iterdir())}")
    if proc.stdout.count("summary:") != 1:
        problems.append(f"{ranks} ranks: the report was printed {proc.stdout.count('summary:')} times")
    # The same report, paths aside (queueing and pipeline reports hold a wall time).
    if "wall time" not in single.stdout and \
            proc.stdout.replace(f"results/{name}", "OUT") != single.stdout.replace(str(work / "alone"), "OUT"):
        problems.append(f"{ranks} ranks: stdout differs from the single process's:\n{proc.stdout}")
    if proc.stderr.strip():
        problems.append(f"{ranks} ranks: something on stderr:\n{proc.stderr}")
summary = json.loads((work / "alone" / "summary.json").read_text())
if summary.get("interrupted"):
    problems.append("the single-process run says it was interrupted")

if progress and rank_counts:
    ranks = rank_counts[0]
    out = work / "progress"
    line = [mpiexec, "--oversubscribe", "-n", str(ranks), lanai_emu, "run", experiment, "--jobs", "1",
            "--out", str(out.resolve())]
    # script(1) gives mpirun a terminal; the ranks get pipes from mpirun.
    proc = subprocess.run(["script", "-qefc", shlex.join(line), "/dev/null"], capture_output=True,
                          text=True, timeout=300, env=mpi_check.mpi_environment())
    if proc.returncode != 0:
        problems.append(mpi_check.report("progress run", proc))
    elif not any(f"] {n}/{n} points" in proc.stdout and f"{ranks} ranks" in proc.stdout
                 for n in range(1, 1001)):
        problems.append(f"no finished progress bar over {ranks} ranks on the terminal:\n{proc.stdout}")

if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"identical files alone and on {', '.join(map(str, rank_counts))} ranks")
