# docs/reliability.md's goodput with faults, run again with the commands the
# doc names (`lanai-emu run bench/experiments/faults-goodput.toml` and
# `faults-goodput-rr.toml`): each cell's goodput in MB/s, with the messages
# lost and resent per message (Reliable Delivery) or resent alone (Reliable
# Reception), as each run's summary.json gives them. stdlib only.
# Run: check_goodput_tables.py LANAI_EMU SOURCE_DIR docs/reliability.md WORK_DIR
import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402
from doc_tables import firmware_size_columns, table  # noqa: E402

HEADER = "| drop probability | SVIA 4 KB |"


def resent(per_message):
    return "0" if per_message == 0 else f"{per_message:.3f}"


def main():
    emu, source, doc_path, work = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], \
        pathlib.Path(sys.argv[4])
    shutil.rmtree(work, ignore_errors=True)
    problems, checked = [], 0
    for experiment, with_lost in (("faults-goodput", True), ("faults-goodput-rr", False)):
        out = work / experiment
        output_of([emu, "run", source / "bench/experiments" / f"{experiment}.toml", "--out", out])
        cells = {}
        for point in json.loads((out / "summary.json").read_text())["points"]:
            per_message = point["retransmissions"] / point["sent"] if point["sent"] else 0.0
            figures = ([str(point["lost"])] if with_lost else []) + [resent(per_message)]
            cells[point["firmware"], point["message_bytes"], point["drop_probability"]] = \
                f"{point['throughput_MBps']:.1f} ({'; '.join(figures)})"
        header, rows = table(doc_path, HEADER, after=f"bench/experiments/{experiment}.toml")
        columns = firmware_size_columns(doc_path, header[1:])
        for row in rows:
            drop = float(row[0])
            for (firmware, size), quoted in zip(columns, row[1:]):
                got = cells.get((firmware, size, drop))
                checked += 1
                if quoted != got:
                    problems.append(f"{experiment}: {firmware} {size} B at {row[0]}: the doc "
                                    f"quotes {quoted}, the run gives {got}")
    report(problems, f"{doc_path}'s goodput tables ({checked} cells) are what the runs give")


if __name__ == "__main__":
    main()
