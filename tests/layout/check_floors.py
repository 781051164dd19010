# Checks the source tree's floors (docs/architecture.md): every quoted or
# angled #include of a project header in firmware/, emulator/, hostlib/,
# tools/ and bench/ must name a header on the including file's floor or a
# lower one, and outside firmware/ by its path from the top of the tree
# (the ABI headers and the VIPL's C API aside); hostlib and tools, which share a floor, must not include each
# other; inside emulator/ and hostlib/ the parts keep their own order. Prints each
# include that runs up, with file and line, and fails if there is one.
# stdlib only.
#   check_floors.py SOURCE_ROOT
import pathlib
import re
import sys

FLOORS = {"firmware": 1, "emulator": 2, "hostlib": 3, "tools": 3, "bench": 4}
# Inside emulator/ and hostlib/, bottom up (parts on one level may use
# each other).
PART_LEVELS = {
    "emulator": {
        "kernel": 0, "text": 0,
        "iss": 1, "loader": 1, "profile": 1,
        "machine": 2, "wire": 2, "trace": 2, "nic": 2,
        "host": 3,
        "cli": 4,
    },
    "hostlib": {"include": 0, "driver": 1, "vipl": 2, "launch": 3, "program": 4, "examples": 5},
}
# Where each folder's own code looks for a quoted include after its own
# directory: its top folder first, then the public include folders.
PUBLIC_ROOTS = ["firmware/include", "hostlib/include"]
SOURCE_SUFFIXES = {".c", ".cc", ".cpp", ".h", ".hpp"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def top_of(rel):
    return rel.parts[0]


def resolve(root, source, name):
    """The project file an include names, as a path relative to root, or
    None for a system or third-party header."""
    candidates = [source.parent / name]
    top = top_of(source.relative_to(root))
    candidates.append(root / top / name)
    candidates += [root / r / name for r in PUBLIC_ROOTS]
    candidates += [root / t / name for t in FLOORS if t != top]
    candidates.append(root / name)
    for c in candidates:
        if c.is_file():
            return c.resolve().relative_to(root)
    return None


def level(rel):
    """(floor, level of its part) of a file; the level is None outside the
    folders whose parts have an order."""
    top = top_of(rel)
    floor = FLOORS.get(top)
    parts = PART_LEVELS.get(top, {})
    sub = parts.get(rel.parts[1]) if len(rel.parts) > 2 else None
    return floor, sub


def public(rel):
    """The ABI headers and the VIPL's C API, included by their own names."""
    return rel.parts[:2] in (("firmware", "include"), ("hostlib", "include"))


def problems(root):
    found = []
    for top in FLOORS:
        for source in sorted((root / top).rglob("*")):
            if source.suffix not in SOURCE_SUFFIXES or not source.is_file():
                continue
            rel = source.relative_to(root)
            floor, sub = level(rel)
            for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, source, m.group(2))
                if target is None or top_of(target) not in FLOORS:
                    continue
                t_floor, t_sub = level(target)
                where = f"{rel}:{number}: includes {target}"
                if (top != "firmware" and m.group(1) == '"' and not public(target)
                        and m.group(2) != str(target)):
                    found.append(f"{where} as \"{m.group(2)}\": a path starts with its top folder")
                if t_floor > floor:
                    found.append(f"{where}, on a higher floor")
                elif t_floor == floor and top_of(target) != top:
                    found.append(f"{where}: {top}/ and {top_of(target)}/ share a floor "
                                 "and do not use each other")
                elif (sub is not None and t_sub is not None and top_of(target) == top
                      and t_sub > sub):
                    found.append(f"{where}: {top}/{rel.parts[1]} stands below "
                                 f"{top}/{target.parts[1]}")
    return found


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    found = problems(root)
    if found:
        print("\n".join(found))
        print(f"{len(found)} include(s) run against the floors of docs/architecture.md")
        return 1
    print("every include keeps to the floors of docs/architecture.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
