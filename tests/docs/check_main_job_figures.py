# What the docs say of the main job, run again: `lanai-emu run
# bench/experiments/cbr-highload.toml` in full. From README.md: the knees,
# the 32 MB/s class's theta at the first load that carries it, the range of
# that theta up to the load where QoS-VIA stops keeping it below PVIA's (and
# that it does keep it below up to there), best effort's latency and the
# host DMA's busy share at the loads README names. From docs/experiments.md
# ("Why the knees are where they are"): every cell of its table, theta per
# class, best effort's mean latency and the sender's host DMA busy share of
# each firmware at each load it lists, with each knee's cell in bold, and
# the knees under it; and its table of where the 32 MB/s class's messages
# spend their time at 75 MB/s, from the traces of the points it names (the
# main run traces QoS-VIA's, a second run PVIA's) cut by
# tools/trace_stages.py, with the stages it says do not vary. Each to the
# doc's precision. stdlib only.
# Run: check_main_job_figures.py LANAI_EMU SOURCE_DIR WORK_DIR
import csv
import json
import pathlib
import re
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from command_check import output_of, report  # noqa: E402
from doc_tables import short, table  # noqa: E402

CLASS = "32MBps"
ORDER = ("svia", "pvia", "qosvia")
EXPERIMENTS_TABLE = "| load (MB/s) | 2 MB/s | 8 MB/s | 32 MB/s | BE mean (us) | sender HDMA |"



STAGES_TABLE = "| stage | pvia | qosvia |"
# The doc's name of each stage, and trace_stages.py's.
STAGE_NAMES = {
    "doorbell to descriptor read queued (LANai noticing)":
        "doorbell to descriptor read queued (LANai)",
    "descriptor read waiting in the host DMA queue":
        "descriptor read waiting in the host DMA queue",
    "descriptor in SRAM to data read queued (LANai)":
        "descriptor in SRAM to data read queued (LANai)",
    "data read waiting in the host DMA queue": "data read waiting in the host DMA queue",
    "data in SRAM to network send started": "data in SRAM to packet started (LANai, send DMA)",
    "doorbell to tail on the wire": "doorbell to tail on the wire",
}
STEADY = ("descriptor read in service", "data read in service",
          "packet started to its tail on the wire")


def traced_points(source):
    """(PVIA's point, QoS-VIA's point, messages of each trace) the doc names."""
    text = " ".join(open(source / "docs/experiments.md", encoding="utf-8").read().split())
    m = re.search(r"\(points (\d+) and (\d+); the (\d+) messages of each trace", text)
    if not m:
        sys.exit("docs/experiments.md no longer names the traced points of its stage table")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def stages_of(source, trace):
    """trace_stages.py's table for VI 2 of `trace`: messages, {stage: (mean, sd)}."""
    run = subprocess.run([sys.executable, source / "tools/trace_stages.py", trace, "--vi", "2"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"trace_stages.py {trace}: {run.stderr.strip()}")
    lines = run.stdout.splitlines()
    m = re.match(r"node 0, VI 2: (\d+) messages whole in the trace", lines[0])
    if not m:
        sys.exit(f"trace_stages.py printed '{lines[0]}'")
    stages = {}
    for line in lines[2:]:
        name, mean, sd, _ = line.rsplit(None, 3)
        stages[name.strip()] = (mean, sd)
    return int(m.group(1)), stages


def stage_table(source, traces, messages):
    """Problems with docs/experiments.md's stage table, against each
    firmware's trace."""
    doc = source / "docs/experiments.md"
    header, lines = table(doc, STAGES_TABLE)
    problems = []
    cut = {firmware: stages_of(source, traces[firmware]) for firmware in header[1:]}
    for column, firmware in enumerate(header[1:], start=1):
        count, stages = cut[firmware]
        if count != messages:
            problems.append(f"stage table, {firmware}: the doc says {messages} messages, "
                            f"the trace holds {count}")
        for line in lines:
            mean, sd = stages[STAGE_NAMES[line[0]]]
            if line[column] != f"{mean} (sd {sd})":
                problems.append(f"stage table, {firmware}, {line[0]}: the doc says "
                                f"'{line[column]}', the trace gives '{mean} (sd {sd})'")
        for name in STEADY:
            if stages[name][1] != "0.0":
                problems.append(f"stage table, {firmware}: '{name}' varies (sd {stages[name][1]})")
    text = " ".join(open(doc, encoding="utf-8").read().split())
    m = re.search(r"The reads' service, ([\d.]+) and ([\d.]+) us, and the packet's ([\d.]+) us",
                  text)
    if not m:
        sys.exit("docs/experiments.md no longer gives the stages that do not vary")
    got = tuple(cut["qosvia"][1][name][0] for name in STEADY)
    if m.groups() != got:
        problems.append(f"the stages that do not vary: the doc says {m.groups()}, the trace "
                        f"gives {got}")
    return problems


def experiments_table(source, rows, knees, cell):
    """Problems with docs/experiments.md's table of the main job and its knees."""
    doc = source / "docs/experiments.md"
    header, lines = table(doc, EXPERIMENTS_TABLE)
    problems = []
    for line in lines:
        load = float(line[0])
        got = []
        for cls in ("2MBps", "8MBps", "32MBps"):
            carried = [r for r in rows
                       if float(r["total_load_MBps"]) == load and r["class"] == cls]
            if not carried:
                sys.exit(f"results.csv has no {cls} rows at {load:g} MB/s")
            if all(int(r["channels"]) == 0 for r in carried):
                got.append("")
                continue
            parts = []
            for f in ORDER:
                theta = cell(f, load, cls, "theta")
                text = short(theta, 3)
                if knees[f] == load and theta >= 0.05:
                    text = f"**{text}**"
                parts.append(text)
            got.append(" / ".join(parts))
        got.append(" / ".join(f"{cell(f, load, 'BE', 'be_latency_mean_us'):.0f}" for f in ORDER))
        got.append(" / ".join(short(cell(f, load, "BE", "sender_hdma_busy"), 2) for f in ORDER))
        for name, said, value in zip(header[1:], line[1:], got):
            if said != value:
                problems.append(f"docs/experiments.md at {load:g} MB/s, {name}: the doc says "
                                f"'{said}', the run gives '{value}'")
    text = " ".join(open(doc, encoding="utf-8").read().split())
    m = re.search(r"Knees \(theta >= 0\.05\): SVIA (\d+), PVIA (\d+), QoS-VIA (\d+) MB/s", text)
    if not m:
        sys.exit("docs/experiments.md no longer names the knees under its table")
    got = tuple(str(round(knees[f])) if knees[f] is not None else "none" for f in ORDER)
    if m.groups() != got:
        problems.append(f"docs/experiments.md: knees {m.groups()}, the run gives {got}")
    return problems


def main():
    emu, source, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    shutil.rmtree(work, ignore_errors=True)
    experiment = source / "bench/experiments/cbr-highload.toml"
    pvia_point, qosvia_point, messages = traced_points(source)
    traces = {"pvia": work / f"point-{pvia_point}.json",
              "qosvia": work / f"point-{qosvia_point}.json"}
    output_of([emu, "run", experiment, "--out", work, "--trace", traces["qosvia"],
               "--trace-point", str(qosvia_point)])
    output_of([emu, "run", experiment, "--out", work / "second", "--trace", traces["pvia"],
               "--trace-point", str(pvia_point)])
    rows = list(csv.DictReader(open(work / "results.csv")))
    knees = json.loads((work / "summary.json").read_text())["knee_MBps"]
    readme = " ".join(open(source / "README.md", encoding="utf-8").read().split())
    problems = []

    def cell(firmware, load, cls, column):
        for r in rows:
            if r["firmware"] == firmware and float(r["total_load_MBps"]) == load and \
                    r["class"] == cls:
                return float(r[column])
        sys.exit(f"results.csv has no {firmware} {cls} row at {load} MB/s")

    def quoted(pattern, what):
        m = re.search(pattern, readme)
        if not m:
            sys.exit(f"README.md no longer says {what} (pattern {pattern!r})")
        return m.groups()

    said = quoted(r"the knees are SVIA (\d+), PVIA (\d+) and QoS-VIA (\d+) MB/s", "the knees")
    got = tuple(str(round(knees[f])) if knees[f] is not None else "none" for f in ORDER)
    if said != got:
        problems.append(f"knees: README says {said}, the run gives {got}")

    first = min(float(r["total_load_MBps"]) for r in rows
                if r["class"] == CLASS and int(r["channels"]) > 0)
    said = quoted(r"\(QoS-VIA ([\d.]+), PVIA ([\d.]+)\)", "the 32 MB/s class's first theta")
    got = tuple(f"{cell(f, first, CLASS, 'theta'):.3f}" for f in ("qosvia", "pvia"))
    if said != got:
        problems.append(f"theta at {first:g} MB/s: README says {said}, the run gives {got}")

    up_to, *said = quoted(r"Up to (\d+) MB/s QoS-VIA keeps it below PVIA's \(([\d.]+)-([\d.]+) "
                          r"against ([\d.]+)-([\d.]+)\)", "the range QoS-VIA stays below PVIA")
    loads = sorted({float(r["total_load_MBps"]) for r in rows
                    if first <= float(r["total_load_MBps"]) <= float(up_to)})
    theta = {f: [cell(f, load, CLASS, "theta") for load in loads] for f in ("qosvia", "pvia")}
    got = [f"{v:.2f}" for f in ("qosvia", "pvia") for v in (min(theta[f]), max(theta[f]))]
    if said != got:
        problems.append(f"theta {first:g}-{up_to} MB/s: README says {said}, the run gives {got}")
    above = [f"{load:g}" for load, q, p in zip(loads, theta["qosvia"], theta["pvia"]) if q >= p]
    if above:
        problems.append(f"QoS-VIA's theta is not below PVIA's at {', '.join(above)} MB/s")

    *said, load = quoted(r"best effort pays \(([\d.]+) ms against ([\d.]+) ms at (\d+)\)",
                         "best effort's latency")
    got = [f"{cell(f, float(load), 'BE', 'be_latency_mean_us') / 1000:.1f}"
           for f in ("qosvia", "pvia")]
    if said != got:
        problems.append(f"best effort at {load} MB/s: README says {said} ms, the run gives {got}")

    *said, load = quoted(r"host DMA ([\d.]+) busy against PVIA's ([\d.]+) at (\d+) MB/s",
                         "the host DMA's busy share")
    got = [f"{cell(f, float(load), 'BE', 'sender_hdma_busy'):.2f}" for f in ("qosvia", "pvia")]
    if said != got:
        problems.append(f"host DMA at {load} MB/s: README says {said}, the run gives {got}")

    problems += experiments_table(source, rows, knees, cell)
    problems += stage_table(source, traces, messages)
    if (work / "results.csv").read_bytes() != (work / "second/results.csv").read_bytes():
        problems.append("tracing another point changed results.csv")
    report(problems, "the docs' figures of the main job are what it gives")


if __name__ == "__main__":
    main()
