# docs/calibration.md's result for the shipped profile, run again with the
# command the doc names (`lanai-emu calibrate TABLE --profile
# myrinet-lanai7 --check`): the summary table (median errors, worst 1-way
# error, order) and the 1-way latencies, model against published. stdlib
# only.
# Run: check_calibration_table.py LANAI_EMU docs/calibration.md PUBLISHED_TABLE.csv
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402
from doc_tables import table  # noqa: E402

NAMES = {"SVIA": "svia", "PVIA": "pvia", "QoS-VIA": "qosvia"}


def main():
    emu, doc_path, published = sys.argv[1:4]
    out = output_of([emu, "calibrate", published, "--profile", "myrinet-lanai7", "--check"])
    doc = " ".join(open(doc_path, encoding="utf-8").read().split())
    problems = []

    median = re.search(r"median absolute error over (\d+) cells: ([\d.]+)%", out)
    targeted = re.search(r"over the (\d+) cells whose target is not 0: ([\d.]+)%", out)
    worst = re.search(r"worst 1-way error: ([-+][\d.]+)% \((\w+) (\d+) B\)", out)
    order = re.search(r"1-way order SVIA < PVIA <= QoS-VIA: yes, at all (\d+) sizes", out)
    if not (median and targeted and worst and order):
        sys.exit(f"`calibrate --check` printed no summary as expected:\n{out}")
    worst_firmware = next(k for k, v in NAMES.items() if v == worst.group(2))
    worst_size = int(worst.group(3))
    worst_where = f"{worst_size // 1024} KB" if worst_size >= 1024 else f"{worst_size} B"
    expected = {
        f"median absolute error, all {median.group(1)} cells": f"{median.group(2)} %",
        f"... over the {targeted.group(1)} cells whose target is not 0": f"{targeted.group(2)} %",
        "worst 1-way error": f"{worst.group(1)} % ({worst_firmware}, {worst_where})",
        "1-way order SVIA < PVIA <= QoS-VIA": f"yes, at all {order.group(1)} sizes",
    }
    _, rows = table(doc_path, "| figure | value | aim |")
    quoted = {row[0]: row[1] for row in rows}
    if quoted.keys() != expected.keys():
        problems.append(f"the summary table's rows are {sorted(quoted)}, the command's figures "
                        f"{sorted(expected)}")
    for figure, value in expected.items():
        if figure in quoted and quoted[figure] != value:
            problems.append(f"{figure}: the doc quotes {quoted[figure]}, the command gives {value}")

    rows = re.findall(r"^(svia|pvia|qosvia) +(\d+) one_way +([\d.]+) +([\d.]+)", out, re.M)
    for name, firmware in NAMES.items():
        measured = ", ".join(f"{float(m):.1f}/{float(t):g}" for f, _, t, m in rows
                             if f == firmware)
        said = re.search(rf"{re.escape(name)} ((?:[\d.]+/\d+, ){{3}}[\d.]+/\d+)", doc)
        if not said or said.group(1) != measured:
            problems.append(f"{name}: the doc quotes {said.group(1) if said else 'nothing'}, "
                            f"the command gives {measured}")

    report(problems, f"{doc_path}'s calibration result is what the command prints")


if __name__ == "__main__":
    main()
