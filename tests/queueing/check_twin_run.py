# Runs `lanai-emu run` on a queueing experiment with --jobs 1 and --jobs 2
# and checks: both succeed; results.csv has the promised columns and one
# row per (variant, rate, station); results.csv, comparison.csv and
# experiment.toml are byte-identical, and so is summary.json once its wall
# times are dropped; summary.json reports wall times. stdlib only.
import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

lanai_emu, experiment, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)


def without_wall_times(value):
    if isinstance(value, dict):
        return {k: without_wall_times(v) for k, v in value.items() if k != "wall_seconds"}
    if isinstance(value, list):
        return [without_wall_times(v) for v in value]
    return value


problems, runs = command_check.run_experiment_per_jobs(lanai_emu, experiment, work)
for jobs, proc in runs.items():
    for needle in ("comparison: ", "wall time: ", "Lq model"):
        if needle not in proc.stdout:
            problems.append(f"--jobs {jobs}: '{needle}' not printed\n{proc.stdout}")
problems += command_check.differing_files(
    work, ("results.csv", "comparison.csv", "experiment.toml", "twin-profile.toml"))

summaries = []
for jobs in ("1", "2"):
    f = work / f"jobs{jobs}" / "summary.json"
    if f.exists():
        data = json.loads(f.read_text())
        if not isinstance(data.get("wall_seconds"), (int, float)):
            problems.append(f"summary.json of --jobs {jobs} has no wall_seconds")
        summaries.append(without_wall_times(data))
if len(summaries) == 2 and summaries[0] != summaries[1]:
    problems.append("summary.json differs (beyond wall times) between --jobs 1 and --jobs 2")

csv = work / "jobs1" / "results.csv"
if csv.exists():
    rows = csv.read_text().splitlines()
    if rows[0] != "variant,rate_per_us,station,utilization,mean_queue,mean_queue_ci95":
        problems.append(f"results.csv header: {rows[0]}")
    stations = ["lanai", "lanai.doorbell", "lanai.descriptor", "lanai.data", "hdma", "nsdma"]
    expected = [f"{v},{r},{s}" for v in ("cyclic", "pooled") for r in ("0.00500", "0.00900")
                for s in stations]
    got = [",".join(row.split(",")[:3]) for row in rows[1:]]
    if got != expected:
        problems.append(f"results.csv rows: {got}")
    for row in rows[1:]:
        station, util, queue, ci = row.split(",")[2], *map(float, row.split(",")[3:])
        if not (0 <= util < 1 and queue >= 0 and ci >= 0):
            problems.append(f"implausible row: {row}")
        if station == "nsdma" and queue != 0:
            problems.append(f"the send DMA has no waiting room, yet: {row}")

if problems:
    print("\n".join(problems))
    sys.exit(1)
print("queueing run: identical results with --jobs 1 and --jobs 2")
