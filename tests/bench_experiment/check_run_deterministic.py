# Runs `lanai-emu run` on an experiment twice, with --jobs 1 and --jobs 2,
# and checks that both runs succeed and write byte-identical results.csv,
# summary.json and experiment.toml. stdlib only.
import pathlib
import shutil
import subprocess
import sys

lanai_emu, experiment, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)

problems = []
for jobs in ("1", "2"):
    out = work / f"jobs{jobs}"
    proc = subprocess.run([lanai_emu, "run", experiment, "--jobs", jobs, "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        problems.append(f"--jobs {jobs}: exit status {proc.returncode}\n{proc.stdout}{proc.stderr}")
    if "results: " not in proc.stdout:
        problems.append(f"--jobs {jobs}: no paths printed\n{proc.stdout}")
for name in ("results.csv", "summary.json", "experiment.toml", "profile.toml"):
    a, b = work / "jobs1" / name, work / "jobs2" / name
    if not a.exists() or not b.exists():
        problems.append(f"{name} missing")
    elif a.read_bytes() != b.read_bytes():
        problems.append(f"{name} differs between --jobs 1 and --jobs 2")
csv = (work / "jobs1" / "results.csv")
if csv.exists():
    rows = csv.read_text().splitlines()
    # 2 firmwares x 2 points x (2 classes + best effort), plus the header.
    if len(rows) != 13:
        problems.append(f"results.csv has {len(rows)} lines, expected 13")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print("identical results with --jobs 1 and --jobs 2")
