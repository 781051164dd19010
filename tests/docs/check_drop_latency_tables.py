# docs/reliability.md's 1-way latency with drops on Reliable Delivery and
# Reliable Reception VIs, run again: `lanai-emu pingpong --firmware F
# --reliability LEVEL --sizes ... --iters 2000 --drop-probabilities ...`
# per firmware, each cell the median, mean and 99th percentile to 0.1 us.
# stdlib only.
# Run: check_drop_latency_tables.py LANAI_EMU docs/reliability.md
import csv
import io
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402
from doc_tables import firmware_size_columns, table  # noqa: E402

HEADER = "| drop probability | SVIA 4 KB |"
# Each table follows the line that names its reliability level.
TABLES = {"delivery": "1-way latency with drops", "reception": "(`--reliability reception`)"}


def main():
    emu, doc_path = sys.argv[1:3]
    problems, checked = [], 0
    for level, after in TABLES.items():
        header, rows = table(doc_path, HEADER, after=after)
        columns = firmware_size_columns(doc_path, header[1:])
        drops = ",".join(row[0] for row in rows)
        sizes = ",".join(str(s) for s in sorted({s for _, s in columns}))
        measured = {}
        for firmware in sorted({f for f, _ in columns}):
            out = output_of([emu, "pingpong", "--firmware", firmware, "--reliability", level,
                             "--sizes", sizes, "--iters", "2000", "--drop-probabilities", drops,
                             "--format", "csv"])
            for r in csv.DictReader(io.StringIO(out)):
                measured[firmware, int(r["size"]), float(r["drop_probability"])] = " / ".join(
                    f"{float(r[c]):.1f}" for c in ("t_median", "t_avg", "t_p99"))
        for row in rows:
            for (firmware, size), quoted in zip(columns, row[1:]):
                checked += 1
                got = measured.get((firmware, size, float(row[0])))
                if quoted != got:
                    problems.append(f"{level}: {firmware} {size} B at {row[0]}: the doc quotes "
                                    f"{quoted}, the emulator gives {got}")
    report(problems, f"{doc_path}'s latency with drops ({checked} cells) is what the emulator "
                     "gives")


if __name__ == "__main__":
    main()
