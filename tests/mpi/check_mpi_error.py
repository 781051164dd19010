# Bad input to `lanai-emu run` under mpirun: every rank exits with status 1
# and rank 0 alone says what is wrong, in one line matching REGEX.
#   check_mpi_error.py MPIEXEC LANAI_EMU [--env NAME=VALUE] REGEX -- ARGS...
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import mpi_check  # noqa: E402

mpiexec, lanai_emu = sys.argv[1], sys.argv[2]
rest = sys.argv[3:]
env = {}
if rest[0] == "--env":
    name, value = rest[1].split("=", 1)
    env[name] = value
    rest = rest[2:]
pattern, args = rest[0], rest[2:]
proc = mpi_check.mpirun(mpiexec, 2, [lanai_emu] + args, extra_env=env)
ours = [line for line in proc.stderr.splitlines() if line.startswith("lanai-emu")]
problems = []
if proc.returncode != 1:
    problems.append(f"exit status {proc.returncode}, expected 1")
if len(ours) != 1 or not re.match(pattern, ours[0]):
    problems.append(f"expected one line matching {pattern!r}, got {ours}")
if proc.stdout.strip():
    problems.append("something on stdout")
if problems:
    print(mpi_check.report("2 ranks", proc))
    print("\n".join(problems))
    sys.exit(1)
print(ours[0])
