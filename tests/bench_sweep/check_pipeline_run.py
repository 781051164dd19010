# Runs a pipeline experiment with --jobs 1 and --jobs 2 and checks: both
# write byte-identical results.csv, summary.json and experiment.toml; the
# reference model's curve is the published one (the GAM set: 188.9 us at
# its best k = 5 for 4 KB, when k reaches 5); every emulated packet arrives sooner in several
# fragments than whole; with one fragment the direct-method model matches
# the emulator (its stages were fitted on whole messages); and the
# indirect-method model is within the given median error of the emulator
# for each firmware (firmware=percent arguments). stdlib only.
import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

lanai_emu, experiment, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
limits = dict(arg.split("=") for arg in sys.argv[4:])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)

problems, runs = command_check.run_experiment_per_jobs(lanai_emu, experiment, work)
problems += command_check.differing_files(work, ("results.csv", "summary.json", "experiment.toml"))
summary_file = work / "jobs1" / "summary.json"
if summary_file.exists():
    summary = json.loads(summary_file.read_text())
    max_k = max(p["fragments"] for p in summary["points"])
    for p in summary["points"]:
        if p["emulated_us"] is None:
            problems.append(f"{p['firmware']} {p['packet_bytes']} B k={p['fragments']}: not emulated")
        if p["packet_bytes"] == 4096 and p["fragments"] == 5 and abs(p["reference_model_us"] - 188.9) > 0.05:
            problems.append(f"reference model at 4 KB, k=5: {p['reference_model_us']} us, not 188.9")
        if p["fragments"] == 1 and p["emulated_us"] is not None:
            error = abs(p["measured_model_us"] / p["emulated_us"] - 1) * 100
            if error > 5:
                problems.append(f"{p['firmware']} {p['packet_bytes']} B whole: direct model off by {error:.1f}%")
    for b in summary["best"]:
        what = f"{b['firmware']} {b['packet_bytes']} B"
        if b["packet_bytes"] == 4096 and max_k >= 5 and b["reference_theorem_k"] != 5:
            problems.append(f"{what}: the reference theorem's k is {b['reference_theorem_k']}, not 5")
        if b["emulated_k"] < 2:
            problems.append(f"{what}: fragments did not help (best k {b['emulated_k']})")
        limit = float(limits.get(b["firmware"], 100))
        if b["indirect_abs_error_pct"] > limit:
            problems.append(f"{what}: indirect model's median error {b['indirect_abs_error_pct']:.1f}% > {limit}%")
    for fw, d in summary["indirect"].items():
        if not d["g_b_us"] > 0 or not d["G_b_us_per_kb"] > 0 or d["sum_G_us_per_kb"] < d["G_b_us_per_kb"]:
            problems.append(f"{fw}: implausible indirect figures {d}")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(runs["1"].stdout)
