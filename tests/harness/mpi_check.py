# What the MPI tests share: running lanai-emu under mpirun as CI runs it
# (as root there: Open MPI refuses root unless told), a single-process run
# to compare with, and the files compared byte for byte, wall times aside.
# stdlib only.
import os
import pathlib
import re
import shutil
import subprocess
import sys

WALL_TIME = re.compile(r'"wall_seconds":\s*[0-9.eE+-]+')


def mpi_environment(extra=None):
    env = dict(os.environ)
    if os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    # In containers the kernel may refuse the cross-memory attach Open MPI's
    # shared-memory transport tries first; plain copies work everywhere.
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    # Open MPI leaks at MPI_Finalize from plugins it has unloaded by the time
    # LeakSanitizer looks (their frames are "<unknown module>", so no
    # suppression can name them). Leaks stay checked everywhere else,
    # the sweep's own code included (test_spread_sweep runs it without MPI).
    # (Harmless in builds without the sanitizer, which ignore the variable.)
    env["ASAN_OPTIONS"] = (env["ASAN_OPTIONS"] + ":" if env.get("ASAN_OPTIONS") else "") + "detect_leaks=0"
    env.update(extra or {})
    return env


def mpirun(mpiexec, ranks, command, extra_env=None, timeout=300, cwd=None, options=()):
    """Runs COMMAND on RANKS ranks of this machine (more ranks than cores
    allowed); returns the completed process."""
    line = [mpiexec, "--oversubscribe", *options, "-n", str(ranks)] + command
    return subprocess.run(line, capture_output=True, text=True, timeout=timeout,
                          env=mpi_environment(extra_env), cwd=cwd)


def alone(lanai_emu, experiment, out, jobs="1", timeout=300):
    return subprocess.run([lanai_emu, "run", experiment, "--jobs", jobs, "--out", str(out)],
                          capture_output=True, text=True, timeout=timeout)


def fresh_work_and_alone(lanai_emu, experiment, work):
    """Empties WORK and runs the experiment alone into WORK/alone, the run
    the ranks' files are held against; exits the script if it fails.
    Returns WORK as a path and the run."""
    work = pathlib.Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    single = alone(lanai_emu, experiment, work / "alone")
    if single.returncode != 0:
        print(report("alone", single))
        sys.exit(1)
    return work, single


def file_text(path):
    """A result file's text with its wall times blanked (they are the one
    thing allowed to differ between runs)."""
    return WALL_TIME.sub('"wall_seconds": -', pathlib.Path(path).read_text())


def differing(a, b, names):
    problems = []
    for name in names:
        x, y = pathlib.Path(a) / name, pathlib.Path(b) / name
        if not x.exists() or not y.exists():
            problems.append(f"{name} missing in {x.parent if not x.exists() else y.parent}")
        elif file_text(x) != file_text(y):
            problems.append(f"{name} differs between {a} and {b}")
    return problems


def report(what, proc):
    return f"{what}: exit status {proc.returncode}\n--- stdout ---\n{proc.stdout}--- stderr ---\n{proc.stderr}"
