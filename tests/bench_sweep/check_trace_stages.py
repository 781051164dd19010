# tools/trace_stages.py on the trace of a small jitter experiment's point:
# every message's stages are not negative and sum to its doorbell-to-tail
# time, each VI's messages leave in the order they were posted, the table's
# mean total is the rows' mean, a VI's rows are its messages alone, and bad
# input (no file, not a trace, a node or VI the trace lacks, a trace of
# several runs) is one line and status 1. stdlib only.
# Run: check_trace_stages.py LANAI_EMU TRACE_STAGES EXPERIMENT WORK_DIR
import csv
import io
import pathlib
import re
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from command_check import output_of, report  # noqa: E402

emu, tool, experiment, work = sys.argv[1], sys.argv[2], sys.argv[3], pathlib.Path(sys.argv[4])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
trace = work / "trace.json"
output_of([emu, "run", experiment, "--trace", trace, "--trace-point", "3", "--out", work / "out"])
stages = [sys.executable, tool]
problems = []

rows = list(csv.DictReader(io.StringIO(output_of(stages + [trace, "--csv"]))))
if len(rows) < 20:
    problems.append(f"only {len(rows)} whole messages in the trace")
columns = [c for c in rows[0] if c.endswith("_us") and c not in
           ("doorbell_us", "doorbell_to_tail_sent_us")] if rows else []
for r in rows:
    values = [float(r[c]) for c in columns]
    if min(values) < 0:
        problems.append(f"vi {r['vi']} msg {r['msg']}: a negative stage {values}")
    if abs(sum(values) - float(r["doorbell_to_tail_sent_us"])) > 1e-5:
        problems.append(f"vi {r['vi']} msg {r['msg']}: stages sum to {sum(values)}, "
                        f"the total is {r['doorbell_to_tail_sent_us']}")
by_vi = {}
for r in rows:
    by_vi.setdefault(int(r["vi"]), []).append(r)
for vi, messages in by_vi.items():
    messages.sort(key=lambda r: int(r["msg"]))
    numbers = [int(r["msg"]) for r in messages]
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        problems.append(f"vi {vi}: messages {numbers} are not consecutive")
    tails = [float(r["doorbell_us"]) + float(r["doorbell_to_tail_sent_us"]) for r in messages]
    if tails != sorted(tails):
        problems.append(f"vi {vi}: messages leave out of the order they were posted")

table = output_of(stages + [trace])
mean = re.search(r"^doorbell to tail on the wire +([\d.]+)", table, re.M)
expected = statistics.fmean(float(r["doorbell_to_tail_sent_us"]) for r in rows) if rows else 0
if not mean or abs(float(mean.group(1)) - expected) > 0.051:
    problems.append(f"the table's mean total {mean.group(1) if mean else None} is not the rows' "
                    f"{expected:.2f}")
if by_vi:
    vi = max(by_vi, key=lambda v: len(by_vi[v]))
    one = list(csv.DictReader(io.StringIO(output_of(stages + [trace, "--csv", "--vi", vi]))))
    if sorted(one, key=lambda r: int(r["msg"])) != by_vi[vi]:
        problems.append(f"--vi {vi} does not give that VI's rows alone")

(work / "not-a-trace.json").write_text("{\"a\": 1}\n")
several = work / "pingpong.json"  # one run per message size
output_of([emu, "pingpong", "--firmware", "pvia", "--iters", "2", "--sizes", "4,1024",
           "--trace", several])
for bad, pattern in (([work / "missing.json"], r"missing.json"),
                     ([work / "not-a-trace.json"], r"not a Chrome trace"),
                     ([trace, "--node", "99"], r"no node 99"),
                     ([trace, "--vi", "99"], r"rang no send doorbell on VI 99"),
                     ([several], r"several runs")):
    done = subprocess.run(stages + [str(b) for b in bad], capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    if done.returncode != 1 or len(lines) != 1 or not re.search(pattern, lines[0]):
        problems.append(f"{bad}: status {done.returncode}, stderr {done.stderr!r}")

report(problems, f"{len(rows)} messages of {len(by_vi)} VIs cut into stages that add up")
