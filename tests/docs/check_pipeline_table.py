# docs/firmware.md's table of the GAM and AN2 pipelines, run again with the
# command the doc names (`lanai-emu run bench/experiments/gam-pipeline.toml`
# and `an2-pipeline.toml`): per set, firmware and packet, the best fragment
# count and its 1-way latency, emulated, by the direct and the indirect
# model and on the study's stages, as each run's summary.json gives them.
# stdlib only.
# Run: check_pipeline_table.py LANAI_EMU SOURCE_DIR docs/firmware.md WORK_DIR
import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402
from doc_tables import size_bytes, table  # noqa: E402

HEADER = "| set | firmware | packet | emulated |"
EXPERIMENTS = {"GAM": "gam-pipeline", "AN2": "an2-pipeline"}
COLUMNS = (("emulated_k", "emulated_us"), ("measured_model_k", "measured_model_us"),
           ("indirect_k", "indirect_us"), ("reference_k", "reference_us"))


def main():
    emu, source, doc_path, work = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], \
        pathlib.Path(sys.argv[4])
    shutil.rmtree(work, ignore_errors=True)
    best = {}
    for name, experiment in EXPERIMENTS.items():
        out = work / experiment
        output_of([emu, "run", source / "bench/experiments" / f"{experiment}.toml", "--out", out])
        for b in json.loads((out / "summary.json").read_text())["best"]:
            best[name, b["firmware"], b["packet_bytes"]] = [
                f"{b[k]}: {b[us]:.1f}" for k, us in COLUMNS]
    _, rows = table(doc_path, HEADER)
    problems = []
    for row in rows:
        key = (row[0], row[1], size_bytes(row[2]))
        if key not in best:
            problems.append(f"row '{' | '.join(row)}': no such set, firmware and packet was run")
        elif row[3:7] != best[key]:
            problems.append(f"{' '.join(row[:3])}: the doc quotes {' | '.join(row[3:7])}, the "
                            f"runs give {' | '.join(best[key])}")
    if len(rows) != len(best):
        problems.append(f"the doc has {len(rows)} rows, the runs {len(best)}")
    report(problems, f"{doc_path}'s GAM and AN2 pipeline table ({len(rows)} rows) is what the "
                     "runs give")


if __name__ == "__main__":
    main()
