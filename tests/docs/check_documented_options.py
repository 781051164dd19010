# Every option of every lanai-emu subcommand, and of a VIA program's
# launcher, is documented: each long option `--help` lists, for the program
# and each subcommand (found from the `Subcommands:` lists, at any depth),
# appears in README.md or a doc. stdlib only.
# Run: check_documented_options.py LANAI_EMU VIA_PROGRAM DOC...
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402


def options_and_subcommands(help_text):
    options = set(re.findall(r"^\s+(?:-\w,)?(--[a-z0-9][a-z0-9-]*)", help_text, re.M))
    subcommands = []
    if "\nSubcommands:\n" in help_text:
        listing = help_text.split("\nSubcommands:\n", 1)[1]
        subcommands = re.findall(r"^  ([a-z][a-z0-9-]*)(?:,| )", listing, re.M)
    return options - {"--help"}, subcommands


def main():
    emu, program, docs = sys.argv[1], sys.argv[2], sys.argv[3:]
    text = "".join(open(d, encoding="utf-8").read() for d in docs)
    problems, pending, seen, checked = [], [[]], set(), 0

    def check(command, help_text):
        nonlocal checked
        options, subcommands = options_and_subcommands(help_text)
        for option in sorted(options):
            checked += 1
            if not re.search(re.escape(option) + r"(?![a-z0-9-])", text):
                problems.append(f"`{command} {option}` is in --help and in no doc")
        return subcommands

    check("a VIA program's launcher:", output_of([program, "--help"]))
    while pending:
        words = pending.pop()
        subcommands = check(" ".join(["lanai-emu"] + words),
                            output_of([emu] + words + ["--help"]))
        for sub in subcommands:
            if tuple(words + [sub]) not in seen:
                seen.add(tuple(words + [sub]))
                pending.append(words + [sub])
    report(problems, f"the {checked} options of lanai-emu, its {len(seen)} subcommands and the "
                     "launcher are documented")


if __name__ == "__main__":
    main()
