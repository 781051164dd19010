# Runs a saturation experiment with drop probabilities, with --jobs 1 and
# --jobs 2, and checks that both runs write identical files (faults are as
# deterministic as the rest); that no message is ever delivered damaged,
# twice or out of order; that the fabric dropped packets at every faulty
# point and at none of the sound ones; that on a reliable level (every
# firmware resends) nothing was lost, packets were resent where the fabric
# dropped some, and less was carried than on the sound fabric; that on
# unreliable VIs no more messages were lost than the fabric dropped
# packets and nothing was resent; that the
# goodput plot was drawn; and that the experiment.toml written beside the
# results (drop probabilities and reliability level resolved) runs again to
# the same results.csv. stdlib only.
#   check_goodput.py LANAI_EMU EXPERIMENT WORK_DIR
import csv
import json
import pathlib
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

lanai_emu, experiment, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
problems, _ = command_check.run_experiment_per_jobs(lanai_emu, experiment, work)
problems += command_check.differing_files(work, ("results.csv", "summary.json", "experiment.toml",
                                                 "profile.toml"))
if not problems:
    summary = json.loads((work / "jobs1" / "summary.json").read_text())
    resends = summary["reliability"] != "unreliable"
    with open(work / "jobs1" / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    dropped = {}
    for point in summary["points"]:
        key = (point["firmware"], point["drop_probability"])
        dropped[key] = sum(link["dropped"] for link in point["faults"].values())
    sound = {r["firmware"]: float(r["throughput_MBps"]) for r in rows
             if float(r["drop_probability"]) == 0}
    for row in rows:
        fw, p = row["firmware"], float(row["drop_probability"])
        where = f"{fw} at drop probability {p}"
        lost, rtx = int(row["lost"]), float(row["retransmissions_per_message"])
        drops = dropped[(fw, p)]
        if int(row["corrupted"]) != 0:
            problems.append(f"{where}: {row['corrupted']} delivered damaged, twice or out of order")
        if int(row["messages"]) <= 0:
            problems.append(f"{where}: no messages")
        if (p > 0) != (drops > 0):
            problems.append(f"{where}: the links dropped {drops} packets")
        if resends:
            if lost != 0:
                problems.append(f"{where}: {lost} lost on a firmware that resends")
            if p > 0 and rtx <= 0:
                problems.append(f"{where}: nothing resent after {drops} drops")
            if p > 0 and float(row["throughput_MBps"]) >= sound[fw]:
                problems.append(f"{where}: goodput {row['throughput_MBps']} not below the sound "
                                f"fabric's {sound[fw]}")
        elif lost > drops or rtx != 0:
            problems.append(f"{where}: {lost} lost and {rtx} resent per message after {drops} drops")
    if not (work / "jobs1" / "goodput.png").exists() and \
            not (work / "jobs1" / "plots" / "goodput.gp").exists():
        problems.append("no goodput plot")
    again = subprocess.run([lanai_emu, "run", str(work / "jobs1" / "experiment.toml"), "--out",
                            str(work / "again"), "--jobs", "2"], capture_output=True, text=True)
    if again.returncode != 0:
        problems.append(f"the resolved experiment.toml does not run: {again.stderr}")
    elif (work / "again" / "results.csv").read_text() != \
            (work / "jobs1" / "results.csv").read_text():
        problems.append("the resolved experiment.toml runs to other results")
if problems:
    print("\n".join(problems))
    sys.exit(1)
for row in rows:
    print(f"{row['firmware']:8} drop {row['drop_probability']:>6}: {float(row['throughput_MBps']):6.1f} MB/s, "
          f"{row['lost']} lost, {row['retransmissions_per_message']} resent per message")
