# Runs `lanai-emu run EXPERIMENT --out OUT [extra...]` for the load checks
# and returns what it printed (stdout, then stderr); on a failed run prints
# its exit status and output and exits 1. stdlib only.
import csv
import pathlib
import subprocess
import sys


def run_experiment(lanai_emu, experiment, out, *extra):
    proc = subprocess.run([lanai_emu, "run", str(experiment), "--out", str(out), *extra],
                          capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        print(f"exit status {proc.returncode}\n{proc.stdout}{proc.stderr}")
        sys.exit(1)
    return proc.stdout + proc.stderr


def results(out):
    """The rows of OUT/results.csv, as dictionaries."""
    with open(pathlib.Path(out) / "results.csv", newline="") as f:
        return list(csv.DictReader(f))
