# What the command-checking scripts of the test suite share: the options for
# the expected exit status, regexes on stdout and stderr and a repeated run;
# running the command (and reading a file it writes); and the report. A
# script builds on these and adds its own checks. stdlib only.
import argparse
import os
import re
import subprocess
import sys


def parser():
    p = argparse.ArgumentParser()
    p.add_argument("--status", type=int, default=0, help="expected exit status")
    p.add_argument("--stdout", action="append", default=[], help="regex stdout must match")
    p.add_argument("--stderr", action="append", default=[], help="regex stderr must match")
    p.add_argument("--repeat", action="store_true",
                   help="run twice: the output and the written file must be identical")
    return p


def parse(p):
    """The options, and the command after them (a leading -- dropped)."""
    p.add_argument("command", nargs=argparse.REMAINDER)
    args = p.parse_args()
    # The sanitize test preset runs each command once: a second run would
    # go through the same code, and the ci build checks that it repeats.
    if os.environ.get("LANAI_TEST_ONE_RUN") == "1":
        args.repeat = False
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    return args, command


def run(command, written=None, timeout=900):
    """Runs the command; returns it and the text of the file `written` (if any)."""
    proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    text = open(written).read() if written and os.path.exists(written) else ""
    return proc, text


def output_of(command, timeout=600):
    """The command's stdout; a failure ends the script with its status and stderr."""
    proc = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(map(str, command))}: status {proc.returncode}\n{proc.stderr}")
    return proc.stdout


def output_problems(args, proc):
    problems = []
    if proc.returncode != args.status:
        problems.append(f"exit status {proc.returncode}, expected {args.status}")
    for pattern in args.stdout:
        if not re.search(pattern, proc.stdout, re.MULTILINE):
            problems.append(f"stdout does not match {pattern!r}")
    for pattern in args.stderr:
        if not re.search(pattern, proc.stderr, re.MULTILINE):
            problems.append(f"stderr does not match {pattern!r}")
    return problems


def repeat_problems(first, first_written, second, second_written, what):
    problems = []
    if (second.returncode, second.stdout, second.stderr) != (
            first.returncode, first.stdout, first.stderr):
        problems.append("a second run printed something different")
    if second_written != first_written:
        problems.append(f"a second run wrote a different {what}")
    return problems


def finish(command, proc, problems):
    """Reports the problems and exits 1, or echoes stdout."""
    if problems:
        print("command:", " ".join(command))
        print("--- stdout ---\n" + proc.stdout + "--- stderr ---\n" + proc.stderr)
        print("\n".join(problems))
        sys.exit(1)
    print(proc.stdout, end="")


def report(problems, holds):
    """Prints every problem and exits 1 if there is one; otherwise prints what holds."""
    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        sys.exit(1)
    print(holds)


def run_experiment_per_jobs(lanai_emu, experiment, work, jobs_list=("1", "2")):
    """Runs `lanai-emu run EXPERIMENT` once per --jobs value, each into
    WORK/jobs<N>; returns the problems (failed runs) and the completed
    processes by jobs value."""
    problems, runs = [], {}
    for jobs in jobs_list:
        out = work / f"jobs{jobs}"
        proc = subprocess.run([lanai_emu, "run", experiment, "--jobs", jobs, "--out", str(out)],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            problems.append(f"--jobs {jobs}: exit status {proc.returncode}\n{proc.stdout}{proc.stderr}")
        runs[jobs] = proc
    return problems, runs


def differing_files(work, names, a="jobs1", b="jobs2"):
    """Problems for each named file missing from, or different between,
    WORK/A and WORK/B."""
    problems = []
    for name in names:
        x, y = work / a / name, work / b / name
        if not x.exists() or not y.exists():
            problems.append(f"{name} missing")
        elif x.read_bytes() != y.read_bytes():
            problems.append(f"{name} differs between --jobs 1 and --jobs 2")
    return problems
