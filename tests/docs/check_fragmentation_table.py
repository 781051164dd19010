# The fragmentation latency table of docs/firmware.md, run again: each cell
# is the 1-way latency `vipl_frag_latency --nodes 2 --firmware pvia -- SIZE
# ROUNDS POLICY BYTES P0 P1 P2 P3` prints, to the table's 0.1 us. The
# column headers name the policy and its figures, so a column the doc
# changes is run as it now reads. stdlib only.
# Run: check_fragmentation_table.py VIPL_FRAG_LATENCY docs/firmware.md
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402
from doc_tables import size_bytes, table  # noqa: E402

HEADER = "| message | none |"
ROUNDS = 3  # the doc's "3 rounds after 2 warm-up round trips"
POLICIES = {"none": 0, "static": 1, "fixed-optimal": 2, "ramp-up": 3, "adaptive": 4}


def column_arguments(header):
    """ROUNDS POLICY BYTES P0..P3 for each column after the first, from its header."""
    columns, last_adaptive = [], None
    for cell in header:
        more_rounds = re.fullmatch(r"adaptive, (\d+) rounds", cell)
        if more_rounds:
            if last_adaptive is None:
                sys.exit(f"column '{cell}' follows no adaptive column with figures")
            columns.append([int(more_rounds.group(1))] + last_adaptive[1:])
            continue
        static = re.fullmatch(r"static (\d+) KB", cell)
        named = re.fullmatch(r"([a-z-]+)(?: \(([\d, ]+)\))?", cell)
        if static:
            arguments = [ROUNDS, POLICIES["static"], int(static.group(1)) * 1024]
        elif named and named.group(1) in POLICIES:
            figures = [int(f) for f in named.group(2).split(",")] if named.group(2) else []
            arguments = [ROUNDS, POLICIES[named.group(1)]] + figures
        else:
            sys.exit(f"docs/firmware.md: unknown fragmentation column '{cell}'")
        arguments += [0] * (7 - len(arguments))
        if arguments[1] == POLICIES["adaptive"]:
            last_adaptive = arguments
        columns.append(arguments)
    return columns


def main():
    program, doc_path = sys.argv[1:3]
    header, rows = table(doc_path, HEADER)
    columns = column_arguments(header[1:])
    problems = []
    for row in rows:
        size, quoted = size_bytes(row[0]), row[1:]
        if size is None or len(quoted) != len(columns):
            problems.append(f"row '{' | '.join(row)}': expected a size and {len(columns)} cells")
            continue
        for arguments, figure in zip(columns, quoted):
            out = output_of([program, "--nodes", "2", "--firmware", "pvia", "--", size] + arguments)
            measured = re.search(r"node0: \d+ bytes one-way (\d+) ns, intact", out)
            if not measured:
                problems.append(f"{size} B {arguments}: no intact node0 latency in\n{out}")
            elif f"{int(measured.group(1)) / 1000:.1f}" != figure:
                problems.append(f"{size} B, arguments {' '.join(map(str, arguments))}: the doc "
                                f"quotes {figure} us, the emulator gives "
                                f"{int(measured.group(1)) / 1000:.1f}")
    report(problems, f"{doc_path}'s fragmentation table ({len(rows)} rows) is what the emulator "
                     "gives")


if __name__ == "__main__":
    main()
