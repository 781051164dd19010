# Checks that every C and C++ source of the tree is as clang-format-14 and
# the tree's .clang-format would leave it. Prints the files that are not,
# with clang-format's first complaints, and fails if there is one. To
# format them: clang-format-14 -i FILE... stdlib only.
#   check_format.py CLANG_FORMAT SOURCE_ROOT
import pathlib
import subprocess
import sys

FOLDERS = ["firmware", "emulator", "hostlib", "tools", "bench", "tests"]
SUFFIXES = {".c", ".cc", ".cpp", ".h", ".hpp"}
# A tree made to break the include rules, not code.
SKIP = pathlib.PurePath("tests/layout/data")


def sources(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            rel = path.relative_to(root)
            if path.suffix in SUFFIXES and path.is_file() and SKIP not in rel.parents:
                yield path


def main():
    clang_format, root = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
    files = list(sources(root))
    unformatted = []
    for start in range(0, len(files), 64):
        batch = files[start:start + 64]
        proc = subprocess.run([clang_format, "--dry-run", "--Werror", *map(str, batch)],
                              capture_output=True, text=True, cwd=root)
        if proc.returncode != 0:
            for path in batch:
                one = subprocess.run([clang_format, "--dry-run", "--Werror", str(path)],
                                     capture_output=True, text=True, cwd=root)
                if one.returncode != 0:
                    unformatted.append((path.relative_to(root), one.stderr.splitlines()[:3]))
    for rel, complaint in unformatted:
        print(f"{rel}: not formatted")
        for line in complaint:
            print(f"  {line}")
    if unformatted:
        print(f"{len(unformatted)} of {len(files)} files differ from clang-format's layout")
        return 1
    print(f"{len(files)} files formatted as .clang-format says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
