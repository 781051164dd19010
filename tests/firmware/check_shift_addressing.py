#!/usr/bin/env python3
"""Fails if any built firmware object addresses memory through a shifted
register ([%a sh %b] or [%a sha %b]): clang-14 emits that form for variable
right shifts but it shifts left, so such code reads the wrong address."""
import re
import subprocess
import sys

PATTERN = re.compile(r"\[\*?%\w+\*? sha? %\w+\]")
# objdump names each object before its listing.
HEADER = re.compile(r"^(\S.*):\s+file format ")
# Objects per objdump run: one process for many saves its start-up each time.
BATCH = 64


def main(argv):
    objdump, objects = argv[1], argv[2:]
    bad = []
    for first in range(0, len(objects), BATCH):
        batch = objects[first:first + BATCH]
        out = subprocess.run([objdump, "-d"] + batch, capture_output=True, text=True,
                             check=True).stdout
        obj = batch[0]
        for line in out.splitlines():
            header = HEADER.match(line)
            if header:
                obj = header.group(1)
            elif PATTERN.search(line):
                bad.append(f"{obj}: {line.strip()}")
    if bad:
        print("shift-addressed memory access (miscompiled by clang-14):")
        print("\n".join(bad))
        return 1
    print(f"{len(objects)} objects checked, no shift-addressed memory access")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
