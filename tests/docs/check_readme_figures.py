# The figures README.md quotes from the emulator, run again: the ping-pong
# latency table (median 1-way latency of `lanai-emu pingpong --firmware F
# --iters 50`, to the table's 0.1 us) and the calibration's median error
# (`lanai-emu calibrate TABLE --check`). A change that moves them must
# update the README in the same change. stdlib only.
# Run: check_readme_figures.py LANAI_EMU README.md PUBLISHED_TABLE.csv
import csv
import io
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402


def main():
    emu, readme_path, table = sys.argv[1:4]
    readme = open(readme_path, encoding="utf-8").read()
    problems = []

    rows = re.findall(r"^\| (\w+), emulated \| ([^\n]*) \|$", readme, re.M)
    if len(rows) != 3:
        sys.exit(f"{readme_path}: expected the latency table's three 'emulated' rows, found "
                 f"{len(rows)}")
    for firmware, cells in rows:
        quoted = [c.strip() for c in cells.split("|")]
        out = output_of([emu, "pingpong", "--firmware", firmware, "--iters", "50", "--format", "csv"])
        medians = [f"{float(r['t_median']):.1f}" for r in csv.DictReader(io.StringIO(out))]
        if quoted != medians:
            problems.append(f"{firmware}: README quotes {' / '.join(quoted)} us, "
                            f"the emulator gives {' / '.join(medians)}")

    quoted_error = re.search(r"the median absolute error is ([\d.]+)%", readme)
    calibration = output_of([emu, "calibrate", table, "--check"])
    measured_error = re.search(r"median absolute error over \d+ cells: ([\d.]+)%", calibration)
    if not quoted_error or not measured_error:
        problems.append("the calibration's median error is missing from README.md or from "
                        "`calibrate --check`")
    elif quoted_error.group(1) != measured_error.group(1):
        problems.append(f"README quotes a median calibration error of {quoted_error.group(1)}%, "
                        f"`calibrate --check` gives {measured_error.group(1)}%")

    report(problems, "README's latency table and calibration error are what the emulator gives")


if __name__ == "__main__":
    main()
