# Reading a Markdown table out of a doc: its header's cells and its rows'
# cells, the table found by how its header line starts; sizes and columns
# named by firmware and size. stdlib only.
import re
import sys

FIRMWARES = {"SVIA": "svia", "PVIA": "pvia", "QoS-VIA": "qosvia"}


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table(doc_path, header_start, after=None):
    """(header cells, [row cells]) of the first table whose header line starts
    so (after the first line that contains `after`, if given)."""
    # A table inside a list item is indented: its lines are read without.
    lines = [line.lstrip() for line in open(doc_path, encoding="utf-8").read().splitlines()]
    first = 0
    if after is not None:
        first = next((i for i, line in enumerate(lines) if after in line), None)
        if first is None:
            sys.exit(f"{doc_path}: no line containing '{after}'")
    start = next((i for i in range(first, len(lines)) if lines[i].startswith(header_start)),
                 None)
    if start is None:
        sys.exit(f"{doc_path}: no table starting '{header_start}'" +
                 (f" after '{after}'" if after is not None else ""))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(cells(line))
    if not rows:
        sys.exit(f"{doc_path}: the table starting '{header_start}' has no rows")
    return cells(lines[start]), rows


def size_bytes(text):
    """'4 KB' or '7288 B' as bytes, or None."""
    number, _, unit = text.partition(" ")
    if not number.isdigit() or unit not in ("KB", "B"):
        return None
    return int(number) * (1024 if unit == "KB" else 1)


def firmware_size_columns(doc_path, header):
    """(firmware, bytes) of each header cell such as 'QoS-VIA 16 KB'."""
    columns = []
    for cell in header:
        m = re.fullmatch(r"(\S+) (\d+ K?B)", cell)
        if not m or m.group(1) not in FIRMWARES:
            sys.exit(f"{doc_path}: unknown column '{cell}'")
        columns.append((FIRMWARES[m.group(1)], size_bytes(m.group(2))))
    return columns


def short(value, places):
    """A share or theta as the docs write it, without the leading zero:
    .018, 1.116."""
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("0.") else text
