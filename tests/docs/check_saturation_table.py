# docs/experiments.md's saturation table, run again with the command the doc
# names (`lanai-emu run bench/experiments/saturation.toml`): per firmware
# and message size, the share of the bound over one to four receivers
# (`a-b%`, `a%` when both ends agree, `100%`), and the sender's LANai and
# host DMA busy shares where a cell gives them. stdlib only.
# Run: check_saturation_table.py LANAI_EMU SOURCE_DIR docs/experiments.md WORK_DIR
import csv
import pathlib
import re
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402
from doc_tables import size_bytes, table  # noqa: E402

HEADER = "| firmware | 1 KB | 4 KB |"
BUSY = {"LANai": "sender_lanai_busy", "HDMA": "sender_hdma_busy"}


def span(values, digits, unit=""):
    low, high = (f"{v:.{digits}f}" for v in (min(values), max(values)))
    return f"{low}{unit}" if low == high else f"{low}-{high}{unit}"


def main():
    emu, source, doc_path, work = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], \
        pathlib.Path(sys.argv[4])
    shutil.rmtree(work, ignore_errors=True)
    output_of([emu, "run", source / "bench/experiments/saturation.toml", "--out", work])
    runs = {}
    for r in csv.DictReader(open(work / "results.csv")):
        runs.setdefault((r["firmware"], int(r["message_bytes"])), []).append(r)
    header, rows = table(doc_path, HEADER)
    sizes = [size_bytes(c) for c in header[1:]]
    problems, checked = [], 0
    for row in rows:
        firmware = row[0].split()[0]
        for size, cell in zip(sizes, row[1:]):
            points = runs.get((firmware, size))
            quoted = re.fullmatch(r"([\d.-]+%)(?: \((.*)\))?", cell)
            if not points or not quoted:
                problems.append(f"{firmware} {size} B: '{cell}' is not a share the run made")
                continue
            checked += 1
            shares = [100 * float(p["throughput_MBps"]) / float(p["bound_MBps"]) for p in points]
            share = span(shares, 1, "%")
            got = "100%" if share == "100.0%" else share
            if quoted.group(1) != got:
                problems.append(f"{firmware} {size} B: the doc quotes {quoted.group(1)} of the "
                                f"bound, the run gives {got}")
            for part in (quoted.group(2) or "").split(", "):
                busy = re.fullmatch(r"(LANai|HDMA) ([\d.-]+)", part)
                if not part:
                    continue
                if not busy:
                    problems.append(f"{firmware} {size} B: '{part}' is not a busy share")
                    continue
                got = span([float(p[BUSY[busy.group(1)]]) for p in points], 2)
                if busy.group(2) != got:
                    problems.append(f"{firmware} {size} B: the doc quotes {busy.group(1)} "
                                    f"{busy.group(2)}, the run gives {got}")
    report(problems, f"{doc_path}'s saturation table ({checked} cells) is what the run gives")


if __name__ == "__main__":
    main()
