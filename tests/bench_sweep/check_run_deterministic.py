# Runs `lanai-emu run` on an experiment twice, with --jobs 1 and --jobs 2,
# and checks that both runs succeed and write byte-identical results.csv,
# summary.json and experiment.toml, and that summary.json and
# experiment.toml name the version `lanai-emu --version` gives. stdlib only.
import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

lanai_emu, experiment, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)

problems, runs = command_check.run_experiment_per_jobs(lanai_emu, experiment, work)
for jobs, proc in runs.items():
    if "results: " not in proc.stdout:
        problems.append(f"--jobs {jobs}: no paths printed\n{proc.stdout}")
problems += command_check.differing_files(
    work, ("results.csv", "summary.json", "experiment.toml", "profile.toml"))
csv = (work / "jobs1" / "results.csv")
if csv.exists():
    rows = csv.read_text().splitlines()
    # 2 firmwares x 2 points x (2 classes + best effort), plus the header.
    if len(rows) != 13:
        problems.append(f"results.csv has {len(rows)} lines, expected 13")
version = command_check.output_of([lanai_emu, "--version"]).split()[-1]
summary = work / "jobs1" / "summary.json"
if summary.exists() and json.loads(summary.read_text()).get("lanai_emu") != version:
    problems.append(f"summary.json does not name lanai-emu {version}")
resolved = work / "jobs1" / "experiment.toml"
if resolved.exists() and f"as run by lanai-emu {version}:" not in resolved.read_text():
    problems.append(f"experiment.toml does not name lanai-emu {version}")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print("identical results with --jobs 1 and --jobs 2")
