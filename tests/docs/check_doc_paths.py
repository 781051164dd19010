# Every path of the source tree the docs name in backquotes (one starting
# with a top-level folder: `firmware/...`, `bench/...`, `docs/...`) exists,
# so that a file moved or renamed cannot leave its docs pointing nowhere.
# Names with a wildcard or placeholder (`qosvia*/`, `<name>`, `{a,b}`) and
# a `:line` or `#anchor` after the path are allowed; a path may also name
# the start of files (`firmware/common/stage_meter.*`). stdlib only.
# Run: check_doc_paths.py SOURCE_DIR DOC...
import glob
import os
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import report  # noqa: E402

TOPS = ("firmware/", "hostlib/", "emulator/", "bench/", "tests/", "tools/", "docs/", "cmake/",
        ".ci/")


def main():
    source, docs = sys.argv[1], sys.argv[2:]
    problems, checked = [], 0
    for doc in docs:
        text = open(doc, encoding="utf-8").read()
        for m in re.finditer(r"`([^`\s]+)`", text):
            path = m.group(1).rstrip(".,:;").split("#")[0].split(":")[0]
            if not path.startswith(TOPS) or any(c in path for c in "<>{}$*[]"):
                continue
            checked += 1
            full = os.path.join(source, path)
            if not os.path.exists(full) and not glob.glob(glob.escape(full) + "*"):
                line = text[:m.start()].count("\n") + 1
                problems.append(f"{os.path.relpath(doc, source)}:{line}: `{m.group(1)}` names "
                                "nothing in the source tree")
    report(problems, f"the {checked} source paths the docs name exist")


if __name__ == "__main__":
    main()
