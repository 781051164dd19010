# Firmware variants named wherever a firmware is, as a user names them:
# each case runs the real commands (lanai-emu pingpong, pingbulk, frag, run,
# launch, a VIPL program's launcher) on the EDF example variant by its
# folder's path, or checks that a bad variant is refused at the start in one
# line with status 1. Each case is its own ctest test (CMakeLists.txt).
# stdlib only.
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "harness"))
from cases import CASES, Failure, case, check  # noqa: E402


def run(args, cwd=None, timeout=600):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout)
    proc.described = (f"command: {' '.join(map(str, args))}\nstatus: {proc.returncode}\n"
                      f"--- stdout ---\n{proc.stdout}--- stderr ---\n{proc.stderr}")
    return proc


def succeeded(proc):
    check(proc.returncode == 0, "the command failed\n" + proc.described)
    return proc


def one_line_error(proc, *patterns):
    """Status 1 and exactly one stderr line matching every pattern."""
    check(proc.returncode == 1, f"status {proc.returncode}, expected 1\n" + proc.described)
    lines = proc.stderr.splitlines()
    check(len(lines) == 1, f"{len(lines)} stderr lines, expected 1\n" + proc.described)
    for pattern in patterns:
        check(re.search(pattern, lines[0]), f"stderr does not match {pattern!r}\n" + proc.described)


def csv_firmwares(text):
    """The first column of a CSV's data rows."""
    return {line.split(",")[0] for line in text.splitlines()[1:] if line}


def tiny_jitter(path, firmwares, total_mbps):
    """A one-point jitter experiment: a 32 MB/s CBR channel and best effort,
    1.5 ms after 0.5 ms, at the total load given."""
    path.write_text(f"""name = "variant-check"
kind = "jitter"
firmwares = [{", ".join(firmwares)}]
profile = "myrinet-lanai7"
receivers = 2
seed = 3
warmup_ms = 0.5
duration_ms = 1.5

[[class]]
name = "32MBps"
traffic = "cbr"
rate_MBps = 32.0
message_bytes = 4096
receiver = 1

[best_effort]
rate_MBps = 60.0
message_bytes = 4096
receiver = 2

[load]
totals_MBps = [{total_mbps}]
""")


@case
def variant_pingpong(ctx):
    out = succeeded(run([ctx.emu, "pingpong", "--firmware", ctx.edf, "--sizes", "4,4K",
                         "--iters", "3", "--format", "csv"]))
    check(csv_firmwares(out.stdout) == {"edf"}, "rows not labelled edf\n" + out.described)
    # A shipped firmware named by its folder is the same firmware, same label.
    by_name = succeeded(run([ctx.emu, "pingpong", "--firmware", "qosvia", "--sizes", "4",
                             "--iters", "3", "--format", "json"]))
    by_path = succeeded(run([ctx.emu, "pingpong", "--firmware", ctx.root / "qosvia", "--sizes",
                             "4", "--iters", "3", "--format", "json"]))
    check(by_name.stdout == by_path.stdout, "qosvia by path differs from qosvia by name\n" +
          by_name.stdout + by_path.stdout)


@case
def variant_pingbulk(ctx):
    out = succeeded(run([ctx.emu, "pingbulk", "--firmware", ctx.edf, "--sizes", "4K",
                         "--windows", "2", "--rounds", "2", "--format", "csv"]))
    check(csv_firmwares(out.stdout) == {"edf"}, "rows not labelled edf\n" + out.described)


@case
def variant_frag(ctx):
    # The variant keeps QoS-VIA's fragmentation part, so it fragments.
    out = succeeded(run([ctx.emu, "frag", "--firmware", ctx.edf, "--sizes", "4K", "--frag-sizes",
                         "2K,4K", "--fit-sizes", "1K,4K", "--iters", "2", "--format", "csv"]))
    check(csv_firmwares(out.stdout) == {"edf"}, "rows not labelled edf\n" + out.described)


@case
def variant_launcher(ctx):
    stats = ctx.scratch / "stats.json"
    out = succeeded(run([ctx.pingpong, "--nodes", "2", "--firmware", ctx.edf, "--stats", stats,
                         "--", "256", "3"]))
    check("3 round trips intact" in out.stdout, "pingpong did not finish\n" + out.described)
    values = {k: v["value"] for k, v in json.loads(stats.read_text()).items()
              if ".firmware." in k}
    # The variant's own counters and the base's reach --stats alike.
    for name in ("node0.firmware.edf_stamps", "node1.firmware.edf_stamps",
                 "node0.firmware.pvia_sends_completed", "node1.firmware.via_bad_doorbells"):
        check(name in values, f"--stats lacks {name}: {sorted(values)}")
    check(values["node0.firmware.edf_stamps"] > 0, "the variant stamped nothing")
    check(values["node0.firmware.pvia_sends_completed"] >= 3, "sends not counted")
    # One node on the variant, by --firmware-node.
    out = succeeded(run([ctx.pingpong, "--nodes", "2", "--firmware", "qosvia", "--firmware-node",
                         f"1={ctx.edf}", "--", "256", "3"]))
    check("3 round trips intact" in out.stdout, "pingpong did not finish\n" + out.described)


@case
def variant_launch(ctx):
    out = succeeded(run([ctx.emu, "launch", "--nodes", "2", "--firmware", ctx.edf, "--",
                         ctx.vipl_pingpong, "-s", "256", "-n", "3"]))
    check(re.search(r"^\[node0\] node0: 256 bytes, 3 round trips intact", out.stdout, re.M),
          "vipl_pingpong did not finish\n" + out.described)


@case
def variant_experiment(ctx):
    # Named by a path relative to the experiment file, and labelled by its
    # folder's name; its counters and its trace marks as the shipped ones'.
    experiment = ctx.scratch / "variant.toml"
    relative = os.path.relpath(ctx.edf, ctx.scratch)
    tiny_jitter(experiment, ['"qosvia"', json.dumps(relative)], 190)
    out_dir, trace = ctx.scratch / "out", ctx.scratch / "trace.json"
    out = succeeded(run([ctx.emu, "run", experiment, "--out", out_dir, "--trace", trace,
                         "--trace-point", "1"]))
    rows = [line.split(",") for line in (out_dir / "results.csv").read_text().splitlines()[1:]]
    check({row[1] for row in rows} == {"qosvia", "edf"}, f"firmware labels {rows}")
    summary = json.loads((out_dir / "summary.json").read_text())
    check(summary["firmwares"] == ["qosvia", "edf"], f"summary firmwares {summary['firmwares']}")
    resolved = (out_dir / "experiment.toml").read_text()
    check(f'{{path = {json.dumps(str(Path(ctx.edf).resolve()))}, label = "edf"}}' in resolved,
          "the resolved experiment does not name the variant's folder\n" + resolved)
    check('"name":"edf:late ' in trace.read_text(),
          "the overloaded point's trace has no edf:late mark")


@case
def shipped_by_path_identical(ctx):
    # PVIA named by its folder gives the same files as PVIA named by name.
    outputs = {}
    for how, entry in (("name", '"pvia"'), ("path", json.dumps(str(ctx.root / "pvia")))):
        experiment = ctx.scratch / f"by-{how}.toml"
        tiny_jitter(experiment, [entry], 100)
        out_dir = ctx.scratch / f"out-{how}"
        succeeded(run([ctx.emu, "run", experiment, "--out", out_dir]))
        summary = json.loads((out_dir / "summary.json").read_text())
        summary = {k: v for k, v in summary.items() if "wall" not in k}
        outputs[how] = ((out_dir / "results.csv").read_text(), summary)
    check(outputs["name"] == outputs["path"], "results differ:\n" + repr(outputs))


@case
def bad_missing_symbol(ctx):
    one_line_error(run([ctx.emu, "pingpong", "--firmware", ctx.partial, "--sizes", "4"]),
                   r"^lanai-emu: .*/partial/pvia_send_cut\.o: undefined symbol "
                   r"'via::stamp_served\(unsigned long long\)' \[_ZN3via12stamp_servedEy\] "
                   r"referenced from \.text\+0x[0-9a-f]+$")
    one_line_error(run([ctx.pingpong, "--nodes", "2", "--firmware", ctx.partial]),
                   r"^pingpong: .*pvia_send_cut\.o: undefined symbol 'via::stamp_served")
    # An experiment refuses it before its first point, naming the entry.
    experiment = ctx.scratch / "partial.toml"
    tiny_jitter(experiment, ['"qosvia"', json.dumps(str(ctx.partial))], 100)
    one_line_error(run([ctx.emu, "run", experiment, "--out", ctx.scratch / "out"]),
                   r"^lanai-emu: .*partial\.toml: firmwares\[2\]: .*pvia_send_cut\.o: undefined "
                   r"symbol 'via::stamp_served")
    check(not (ctx.scratch / "out").exists(), "the experiment wrote results")


@case
def bad_non_lanai_object(ctx):
    folder = ctx.scratch / "host-built"
    folder.mkdir()
    shutil.copy(ctx.host_object, folder / "host_object.o")
    (folder / "objects.txt").write_text("host_object.o\n")
    one_line_error(run([ctx.emu, "pingpong", "--firmware", folder, "--sizes", "4"]),
                   r"^lanai-emu: .*host-built/host_object\.o: not a Lanai object \(e_machine 62\)$")
    # Nor does it make a variant.
    one_line_error(run([ctx.emu, "firmware", "variant", "--base", "qosvia", "--out",
                        ctx.scratch / "never", ctx.host_object]),
                   r"^lanai-emu: .*\.o: not a Lanai object \(e_machine 62\)$")
    check(not (ctx.scratch / "never" / "objects.txt").exists(), "a variant folder was written")


@case
def bad_empty_folder(ctx):
    folder = ctx.scratch / "empty"
    folder.mkdir()
    one_line_error(run([ctx.emu, "pingpong", "--firmware", folder, "--sizes", "4"]),
                   r"^lanai-emu: firmware folder .*empty: no objects\.txt")
    (folder / "objects.txt").write_text("\n")
    one_line_error(run([ctx.emu, "launch", "--firmware", folder, "--", ctx.vipl_pingpong]),
                   r"^lanai-emu launch: firmware folder .*empty: objects\.txt lists no objects$")


@case
def bad_unknown_base(ctx):
    # Refused when the project is configured, naming the base and the
    # shipped firmwares.
    proc = run([ctx.cmake, "-S", ctx.source / "tests/firmware_sdk/unknown-base",
                "-B", ctx.scratch / "build", f"-DLANAI_EMU_SOURCE_DIR={ctx.source}",
                f"-DLANAI_EMU_FIRMWARE_ROOT={ctx.root}", f"-DLANAI_EMU_EXECUTABLE={ctx.emu}"])
    check(proc.returncode != 0, "the configuration succeeded\n" + proc.described)
    # CMake wraps the message's one line for the terminal.
    message = " ".join(proc.stderr.split())
    check(re.search(r"lanai_emu_add_via_firmware\(orphan\): BASE 'no-such-base' is not a "
                    r"shipped firmware \(shipped: [a-z-]+(, [a-z-]+)*; in ", message)
          and "qosvia" in message, "no line naming the base\n" + proc.described)


@case
def counters_registered(ctx):
    # Every counter the firmware headers declare is in a registration table,
    # so that --stats reports it.
    tables = "".join(p.read_text() for p in (ctx.source / "firmware").rglob("*_counter_table.cpp"))
    registered = set(re.findall(r"LANAI_REGISTER_COUNTER\((\w+)\)", tables))
    declared = set()
    for header in list((ctx.source / "firmware").rglob("*_counters.h")) + \
            [ctx.source / "firmware/common/devices.h"]:
        declared |= set(re.findall(r"extern (?:\"C\" )?volatile uint32_t (\w+);", header.read_text()))
    check(declared, "no counters found in the headers")
    check(declared <= registered, f"not registered: {sorted(declared - registered)}")


@case
def tutorial_matches_example(ctx):
    # The tutorial's scheduler is the example built and tested here.
    doc = (ctx.source / "docs/firmware-variants.md").read_text()
    blocks = re.findall(r"```cpp\n(.*?)```", doc, re.S)
    example = (ctx.source / "firmware/examples/edf-scheduler/edf_scheduler.cpp").read_text()
    check(blocks and blocks[0] == example,
          "docs/firmware-variants.md's scheduler differs from the example's source")
    check(len(example.splitlines()) < 100, "the example scheduler is not under 100 lines")


def main():
    p = argparse.ArgumentParser()
    for name in ("emu", "edf", "partial", "root", "pingpong", "vipl-pingpong", "host-object",
                 "source", "cmake", "scratch"):
        p.add_argument("--" + name, required=True)
    p.add_argument("case", choices=sorted(CASES))
    opts = p.parse_args()
    ctx = argparse.Namespace(**{k: Path(v) for k, v in vars(opts).items() if k != "case"})
    ctx.scratch = ctx.scratch / opts.case
    shutil.rmtree(ctx.scratch, ignore_errors=True)
    ctx.scratch.mkdir(parents=True)
    try:
        CASES[opts.case](ctx)
    except Failure as e:
        print(f"{opts.case}: {e}")
        sys.exit(1)
    print(f"{opts.case}: ok")


if __name__ == "__main__":
    main()
