# docs/firmware.md's comparison of fragmented latencies with the pipeline
# model, run again with the command the doc names (`lanai-emu frag
# --firmware pvia --sizes 4K,16K,64K`): the fitted stages, the table (whole
# message, best emulated fragment size and its latency, a second size's
# latency where one is quoted, the model's and the theorem's choices) and
# the model's median and worst error. stdlib only.
# Run: check_frag_model_table.py LANAI_EMU docs/firmware.md
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402
from doc_tables import size_bytes, table  # noqa: E402

HEADER = "| message | whole | best emulated |"
STAGES = (r"send HDMA ([\d.]+) us \+ ([\d.]+) us/KB, network ([\d.]+) \+ ([\d.]+), receive HDMA\s+"
          r"([\d.]+) \+ ([\d.]+), with post ([\d.]+) us and completion ([\d.]+) us")
ERRORS = r"It predicts the fragmented\s+latencies to ([\d.]+)% in the median \(worst ([\d.]+)%"


def sweep(out):
    """{(size, fragment): emulated us}, {size: (emulator's best, model's best, theorem k)},
    {stage: (g, G)} and (median, worst) error from `lanai-emu frag`'s report."""
    latency, best, stages = {}, {}, {}
    for m in re.finditer(r"^ +(\d+) +(\d+) +\d+ +([\d.]+) +[\d.]+ +[-+][\d.]+$", out, re.M):
        latency[int(m.group(1)), int(m.group(2))] = m.group(3)
    for m in re.finditer(r"^ +(\d+) +(\d+) +[\d.]+ +(\d+) +[\d.]+ +(\d+) +\d+$", out, re.M):
        best[int(m.group(1))] = (int(m.group(2)), int(m.group(3)), m.group(4))
    for m in re.finditer(r"^#   (\w+(?: HDMA)?) +([\d.]+) +([\d.]+) +[\d.]+$", out, re.M):
        stages[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    errors = re.search(r"median \|error\| ([\d.]+)%, worst ([\d.]+)%", out)
    return latency, best, stages, errors.groups() if errors else None


def main():
    emu, doc_path = sys.argv[1:3]
    doc = open(doc_path, encoding="utf-8").read()
    latency, best, stages, errors = sweep(
        output_of([emu, "frag", "--firmware", "pvia", "--sizes", "4K,16K,64K"]))
    problems = []

    quoted = re.search(STAGES, doc)
    if not quoted or not stages:
        problems.append("the fitted stages are missing from the doc or from `lanai-emu frag`")
    else:
        figures = [stages["send HDMA"], stages["network"], stages["receive HDMA"]]
        measured = [f"{x:.1f}" for pair in figures for x in pair] + [
            f"{stages['post'][0]:.1f}", f"{stages['completion'][0]:.1f}"]
        if list(quoted.groups()) != measured:
            problems.append(f"stages: the doc quotes {' '.join(quoted.groups())}, "
                            f"`lanai-emu frag` fits {' '.join(measured)}")

    _, rows = table(doc_path, HEADER)
    for row in rows:
        size = size_bytes(row[0])
        emulated = re.fullmatch(r"([\d.]+) \((\d+ K?B)(?:; (\d+ K?B): ([\d.]+))?\)", row[2])
        theorem = re.fullmatch(r"k = (\d+)", row[4])
        if size not in best or not emulated or not theorem:
            problems.append(f"row '{' | '.join(row)}': not a message the sweep ran, or unread")
            continue
        emulator_best, model_best, k = best[size]
        said = [row[1], emulated.group(1), size_bytes(emulated.group(2)), size_bytes(row[3]),
                theorem.group(1)]
        got = [latency.get((size, size)), latency.get((size, emulator_best)), emulator_best,
               model_best, k]
        if emulated.group(3):
            said.append(emulated.group(4))
            got.append(latency.get((size, size_bytes(emulated.group(3)))))
        if said != got:
            problems.append(f"{row[0]}: the doc quotes {said}, `lanai-emu frag` gives {got}")

    quoted_errors = re.search(ERRORS, doc)
    if not quoted_errors or errors is None:
        problems.append("the model's median and worst error are missing")
    elif quoted_errors.groups() != errors:
        problems.append(f"the doc quotes the model's error as {'% and '.join(quoted_errors.groups())}"
                        f"%, `lanai-emu frag` gives {'% and '.join(errors)}%")

    report(problems, f"{doc_path}'s fragmentation against the pipeline model ({len(rows)} rows, "
                     "the stages and the error) is what the emulator gives")


if __name__ == "__main__":
    main()
