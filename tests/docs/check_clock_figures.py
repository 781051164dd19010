# What docs/experiments.md says the LANai's clock changes in the main job,
# run again. Its table "What the LANai's clock changes": theta of the 32
# MB/s class and the sender's host DMA busy share, PVIA / QoS-VIA, per load,
# at 66 MHz (the main job itself, from the run docs_main_job_figures makes)
# and on copies of the profile and of cbr-highload.toml that change only
# `clock_mhz` and run only pvia and qosvia (80 and 1000 MHz); and its table
# of the floor the devices set: bench/experiments/cbr-fast-lanai.toml over
# the seeds it names, the 32 MB/s class's mean theta with its range per
# load, or the range of the means over a span of loads. stdlib only.
# Run: check_clock_figures.py LANAI_EMU SOURCE_DIR MAIN_JOB_DIR WORK_DIR
import csv
import pathlib
import re
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from command_check import output_of, report  # noqa: E402
from doc_tables import short, table  # noqa: E402

CLASS = "32MBps"
CLOCK_TABLE = "| load (MB/s) | 66 MHz |"
FLOOR_TABLE = "| load (MB/s) | 75 | 85 |"



def results(directory):
    return list(csv.DictReader(open(directory / "results.csv")))


def value(rows, firmware, load, cls, column):
    for r in rows:
        if r["firmware"] == firmware and float(r["total_load_MBps"]) == load and \
                r["class"] == cls and r[column] != "":
            return float(r[column])
    sys.exit(f"results.csv has no {firmware} {cls} {column} at {load:g} MB/s")


def at_clock(emu, source, work, mhz):
    """The main job's pvia and qosvia rows on a copy of its profile at `mhz`."""
    profile = source / "bench/profiles/myrinet-lanai7.toml"
    text, n = re.subn(r"(?m)^clock_mhz = [\d.]+$", f"clock_mhz = {mhz}.0", profile.read_text())
    if n != 1:
        sys.exit(f"{profile}: no single clock_mhz line")
    copy = work / f"lanai-{mhz}.toml"
    copy.write_text(text)
    experiment = (source / "bench/experiments/cbr-highload.toml").read_text()
    experiment = re.sub(r'(?m)^firmwares = .*$', 'firmwares = ["pvia", "qosvia"]', experiment)
    experiment = re.sub(r'(?m)^profile = .*$', f'profile = "{copy}"', experiment)
    experiment = re.sub(r'(?m)^name = .*$', f'name = "cbr-highload-{mhz}"', experiment, count=1)
    file = work / f"cbr-highload-{mhz}.toml"
    file.write_text(experiment)
    output_of([emu, "run", file, "--out", work / f"out-{mhz}"])
    return results(work / f"out-{mhz}")


def clock_table(emu, source, main_job, work):
    doc = source / "docs/experiments.md"
    header, lines = table(doc, CLOCK_TABLE)
    clocks = [int(c.split()[0]) for c in header[1::2]]
    runs = {mhz: results(main_job) if mhz == 66 else at_clock(emu, source, work, mhz)
            for mhz in clocks}
    problems = []
    for line in lines:
        load = float(line[0])
        for i, mhz in enumerate(clocks):
            rows = runs[mhz]
            theta = " / ".join(short(value(rows, f, load, CLASS, "theta"), 3)
                               for f in ("pvia", "qosvia"))
            busy = " / ".join(short(value(rows, f, load, "BE", "sender_hdma_busy"), 2)
                              for f in ("pvia", "qosvia"))
            for what, said, got in (("theta", line[1 + 2 * i], theta),
                                    ("host DMA", line[2 + 2 * i], busy)):
                if said != got:
                    problems.append(f"clock table at {load:g} MB/s, {mhz} MHz, {what}: the doc "
                                    f"says '{said}', the run gives '{got}'")
    return problems


def floor_table(emu, source, work):
    doc = source / "docs/experiments.md"
    text = " ".join(doc.read_text(encoding="utf-8").split())
    m = re.search(r"mean over `--seed (\d+)\.\.(\d+)` \(range\)", text)
    if not m:
        sys.exit("docs/experiments.md no longer names the seeds of the fast LANai's table")
    seeds = range(int(m.group(1)), int(m.group(2)) + 1)
    runs = []
    for seed in seeds:
        out = work / f"fast-lanai-seed-{seed}"
        output_of([emu, "run", source / "bench/experiments/cbr-fast-lanai.toml",
                   "--seed", str(seed), "--out", out])
        runs.append(results(out))

    def mean_and_range(firmware, load):
        thetas = [value(rows, firmware, load, CLASS, "theta") for rows in runs]
        return sum(thetas) / len(thetas), min(thetas), max(thetas)

    header, lines = table(doc, FLOOR_TABLE)
    problems = []
    for line in lines:
        firmware = line[0]
        for span, said in zip(header[1:], line[1:]):
            low, _, high = span.partition("-")
            if high:  # the range of the means over the loads of the span
                means = [mean_and_range(firmware, float(load))[0]
                         for load in range(int(low), int(high) + 1, 10)]
                got = f"{short(min(means), 3)}-{short(max(means), 3)}"
            else:
                mean, lo, hi = mean_and_range(firmware, float(low))
                got = short(mean, 3)
                if "(" in said:
                    got += f" ({short(lo, 3)}-{short(hi, 3)})"
            if said != got:
                problems.append(f"fast LANai table, {firmware} at {span} MB/s: the doc says "
                                f"'{said}', the runs give '{got}'")
    return problems


def main():
    emu = sys.argv[1]
    source, main_job, work = (pathlib.Path(a) for a in sys.argv[2:5])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    problems = clock_table(emu, source, main_job, work) + floor_table(emu, source, work)
    report(problems, "docs/experiments.md's clock and fast-LANai tables are what the runs give")


if __name__ == "__main__":
    main()
