# Runs a jitter experiment over a fabric that drops and damages packets,
# with --jobs 1 and --jobs 2, and checks that both runs write identical
# files (faults are as deterministic as the rest); that every point's
# summary counts the faults per link and that they happened; that messages
# were lost to them but none was delivered damaged. stdlib only.
#   check_faults.py LANAI_EMU EXPERIMENT WORK_DIR
import csv
import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

lanai_emu, experiment, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
problems, _ = command_check.run_experiment_per_jobs(lanai_emu, experiment, work)
problems += command_check.differing_files(work, ("results.csv", "summary.json", "profile.toml"))
if not problems:
    summary = json.loads((work / "jobs1" / "summary.json").read_text())
    with open(work / "jobs1" / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    for point in summary["points"]:
        where = f"point {point['point']} ({point['firmware']})"
        faults = point.get("faults")
        if not faults:
            problems.append(f"{where}: no fault counts in summary.json")
            continue
        dropped = sum(link["dropped"] for link in faults.values())
        corrupted = sum(link["corrupted"] for link in faults.values())
        if dropped == 0 or corrupted == 0:
            problems.append(f"{where}: {dropped} dropped, {corrupted} corrupted: faults did not happen")
        if faults["wire.node2.rx"]["dropped"] == 0:
            problems.append(f"{where}: the link that went down dropped nothing")
    for row in rows:
        if int(row["corrupted"]) != 0:
            problems.append(f"{row['firmware']} {row['class']}: {row['corrupted']} delivered damaged")
    if sum(int(row["lost"]) for row in rows) == 0:
        problems.append("no message lost over a faulty fabric")
    profile = (work / "jobs1" / "profile.toml").read_text()
    if "wire.node2.rx" not in profile or "drop_probability = 0.01" not in profile:
        problems.append("profile.toml does not show the faults")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print("faults counted per link, deterministic, nothing delivered damaged")
