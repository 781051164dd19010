# Compiles each firmware source with clang for Lanai at several
# optimisation levels, each within a time limit: clang-14's Lanai back end
# has looped forever on some code (docs/toolchain.md), and a firmware
# variant may be built at another level than the shipped one. stdlib only.
#   check_compiles.py --clang CLANG --include DIR... --opt=-O3... [--seconds N] -- FLAGS... -- SOURCES...
import argparse
import subprocess
import sys
import tempfile

p = argparse.ArgumentParser()
p.add_argument("--clang", required=True)
p.add_argument("--include", action="append", default=[])
p.add_argument("--opt", action="append", required=True)
p.add_argument("--seconds", type=float, default=120.0)
p.add_argument("rest", nargs=argparse.REMAINDER)
args = p.parse_args()
rest = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
split = rest.index("--")
flags, sources = rest[:split], rest[split + 1:]

problems = []
with tempfile.TemporaryDirectory() as out:
    for source in sources:
        for opt in args.opt:
            command = [args.clang, *flags, opt, *(f"-I{d}" for d in args.include), "-c", source,
                       "-o", f"{out}/object.o"]
            try:
                done = subprocess.run(command, capture_output=True, text=True,
                                      timeout=args.seconds)
            except subprocess.TimeoutExpired:
                problems.append(f"{source} at {opt}: clang did not finish in {args.seconds:.0f} s")
                continue
            if done.returncode != 0:
                problems.append(f"{source} at {opt}: clang failed\n{done.stderr}")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"{len(sources)} sources compiled at {' '.join(args.opt)}")
