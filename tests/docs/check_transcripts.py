# Every transcript in the docs, run again: a fenced block that begins with
# `$ lanai-emu ...` (continued over lines ending in a backslash) shows the
# command and then exactly what it prints. The command runs from the top of
# the source tree with this build's lanai-emu. stdlib only.
# Run: check_transcripts.py LANAI_EMU SOURCE_DIR DOC...
import pathlib
import re
import shlex
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import report  # noqa: E402


def transcripts(text):
    """(line number, command words, expected output) of each transcript block."""
    for block in re.finditer(r"^```[a-z]*\n(\$ lanai-emu .*?)^```", text, re.S | re.M):
        lines = block.group(1).splitlines(keepends=True)
        command = lines.pop(0)[2:]
        while command.rstrip().endswith("\\"):
            command = command.rstrip()[:-1] + " " + lines.pop(0).strip()
        yield text[:block.start()].count("\n") + 1, shlex.split(command), "".join(lines)


def main():
    emu, source_dir, docs = sys.argv[1], sys.argv[2], sys.argv[3:]
    problems, count = [], 0
    for doc in docs:
        for line, words, expected in transcripts(open(doc, encoding="utf-8").read()):
            count += 1
            done = subprocess.run([emu] + words[1:], cwd=source_dir, capture_output=True,
                                  text=True, timeout=600)
            where = f"{pathlib.Path(doc).name}:{line} `{' '.join(words)}`"
            if done.returncode != 0:
                problems.append(f"{where}: status {done.returncode}\n{done.stderr}")
            elif done.stdout != expected:
                said, got = expected.splitlines(), done.stdout.splitlines()
                first = next((i for i, (a, b) in enumerate(zip(said, got)) if a != b),
                             min(len(said), len(got)))
                problems.append(f"{where}: output differs from line {first + 1} of the "
                                f"transcript:\n  doc:  {said[first] if first < len(said) else '(end)'}"
                                f"\n  gets: {got[first] if first < len(got) else '(end)'}")
    if count == 0:
        problems.append("no transcript found in " + " ".join(docs))
    report(problems, f"{count} transcript(s) in the docs print what they show")


if __name__ == "__main__":
    main()
