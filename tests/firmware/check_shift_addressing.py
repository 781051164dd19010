#!/usr/bin/env python3
"""Fails if any built firmware object addresses memory through a shifted
register ([%a sh %b] or [%a sha %b]): clang-14 emits that form for variable
right shifts but it shifts left, so such code reads the wrong address."""
import re
import sys

from objdump_listing import listing_lines

PATTERN = re.compile(r"\[\*?%\w+\*? sha? %\w+\]")


def main(argv):
    objdump, objects = argv[1], argv[2:]
    bad = [f"{obj}: {line.strip()}" for obj, line in listing_lines(objdump, objects)
           if PATTERN.search(line)]
    if bad:
        print("shift-addressed memory access (miscompiled by clang-14):")
        print("\n".join(bad))
        return 1
    print(f"{len(objects)} objects checked, no shift-addressed memory access")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
