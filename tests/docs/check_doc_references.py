# What the docs point at exists:
# - every path of the source tree they name in backquotes (one starting with
#   a top-level folder: `firmware/...`, `bench/...`, `docs/...`). Names with
#   a wildcard or placeholder (`qosvia*/`, `<name>`, `{a,b}`) are skipped; a
#   `:line` or `#anchor` after the path is allowed, and a path may name the
#   start of files (`firmware/common/stage_meter.*`);
# - every relative Markdown link's file, and its `#anchor` among the target's
#   headings as GitHub makes them (lower case, punctuation dropped, spaces
#   to hyphens).
# So a file moved or a heading renamed cannot leave the docs pointing
# nowhere. stdlib only.
# Run: check_doc_references.py SOURCE_DIR DOC...
import glob
import os
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import report  # noqa: E402

TOPS = ("firmware/", "hostlib/", "emulator/", "bench/", "tests/", "tools/", "docs/", "cmake/",
        ".ci/")


def anchors(path):
    """The anchors of a Markdown file's headings."""
    found = set()
    for line in open(path, encoding="utf-8"):
        heading = re.match(r"#+\s+(.*)$", line)
        if heading:
            words = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower())
            found.add(words.replace(" ", "-"))
    return found


def path_problems(doc, text, source):
    problems, checked = [], 0
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
    return problems, checked


def link_problems(doc, text, source):
    problems, checked = [], 0
    # Links inside code blocks are code, not links.
    prose = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for m in re.finditer(r"\]\(([^)\s]+)\)", prose):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        checked += 1
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        where = f"{os.path.relpath(doc, source)}:{prose[:m.start()].count(chr(10)) + 1}"
        if not os.path.exists(full):
            problems.append(f"{where}: the link to {target} finds no file")
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            problems.append(f"{where}: the link to {target} finds no heading '#{anchor}'")
    return problems, checked


def main():
    source, docs = sys.argv[1], sys.argv[2:]
    problems, paths, links = [], 0, 0
    for doc in docs:
        text = open(doc, encoding="utf-8").read()
        found, checked = path_problems(doc, text, source)
        problems += found
        paths += checked
        found, checked = link_problems(doc, text, source)
        problems += found
        links += checked
    report(problems, f"the {paths} source paths and {links} links the docs name exist")


if __name__ == "__main__":
    main()
