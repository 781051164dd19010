# Runs one named test case against the real lanai-emu binary: invokes it as
# a user would and checks exit status, stdout and stderr. Each case is its
# own ctest test (see CMakeLists.txt); stdlib only.
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "harness"))
from cases import CASES, Failure, case, check  # noqa: E402


class Run:
    def __init__(self, args, proc):
        self.args = args
        self.status = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def describe(self):
        return (f"command: {' '.join(map(str, self.args))}\nstatus: {self.status}\n"
                f"--- stdout ---\n{self.out}--- stderr ---\n{self.err}")


class Context:
    def __init__(self, opts, scratch):
        self.emu = opts.emu
        self.demo = Path(opts.demo)
        self.objects = Path(opts.objects)
        self.expected = Path(opts.expected)
        self.bench_profile = Path(opts.bench_profile)
        self.scratch = Path(scratch)
        self.log = []

    def run(self, *args):
        cmd = [self.emu, *map(str, args)]
        # Bytes are decoded strictly: the CLI must never print invalid UTF-8.
        proc = subprocess.run(cmd, capture_output=True, timeout=120)
        proc.stdout = proc.stdout.decode("utf-8")
        proc.stderr = proc.stderr.decode("utf-8")
        r = Run(cmd, proc)
        self.log.append(r)
        return r

    def expect(self, r, status):
        check(r.status == status, f"expected exit status {status}, got {r.status}")

    def object(self, name):
        path = self.objects / f"{name}.o"
        check(path.is_file(), f"test firmware {path} was not built")
        return path

    def write(self, name, text):
        path = self.scratch / name
        path.write_text(text)
        return path

    def exec_json(self, *args):
        r = self.run("exec", "--json", *args)
        lines = r.out.splitlines()
        check(len(lines) == 1, f"--json must print exactly one line, got {len(lines)}")
        try:
            doc = json.loads(r.out)
        except json.JSONDecodeError as e:
            raise Failure(f"--json output is not JSON: {e}")
        check(isinstance(doc, dict), "--json output is not an object")
        keys = {"exit_code", "instructions", "cycles", "time_us", "stop", "console"}
        check(set(doc) == keys, f"--json keys are {sorted(doc)}, expected {sorted(keys)}")
        return r, doc


def is_int(v):
    # bool is an int subclass in Python; JSON true must not pass as a count.
    return isinstance(v, int) and not isinstance(v, bool)


def golden_console(ctx):
    """The demo's console text: the golden stdout without the summary lines."""
    text = (ctx.expected / "demo_exec.txt").read_text()
    cut = text.rfind("\nexit code:")
    check(cut >= 0, "golden file has no 'exit code:' line")
    return text[: cut + 1]


def one_line_error(r, *needles):
    """Usage and load errors: status 1, one `lanai-emu: ` line naming things."""
    check(r.status == 1, f"expected exit status 1, got {r.status}")
    lines = r.err.splitlines()
    check(len(lines) == 1, f"expected exactly one line on stderr, got {len(lines)}")
    line = lines[0]
    check(line.startswith("lanai-emu: "), f"stderr line does not start with 'lanai-emu: ': {line!r}")
    for n in needles:
        check(str(n) in line, f"stderr line does not mention {str(n)!r}: {line!r}")
    check(r.out == "", "nothing may be printed on stdout after an error")
    return line


# --- examples are tests: the demo firmware --------------------------------

@case
def demo_exec_golden(ctx):
    r = ctx.run("exec", ctx.demo)
    ctx.expect(r, 0)
    expected = (ctx.expected / "demo_exec.txt").read_text()
    check(r.out == expected, "stdout differs from tests/cli/expected/demo_exec.txt")
    check(r.err == "", "a clean run prints nothing on stderr")


@case
def demo_exec_json(ctx):
    r, doc = ctx.exec_json(ctx.demo)
    ctx.expect(r, 0)
    check(is_int(doc["exit_code"]) and doc["exit_code"] == 132, f"exit_code is {doc['exit_code']!r}")
    check(is_int(doc["instructions"]) and doc["instructions"] > 0, "instructions must be > 0")
    check(is_int(doc["cycles"]) and doc["cycles"] > 0, "cycles must be > 0")
    check(doc["cycles"] >= doc["instructions"], "every instruction costs at least one cycle")
    check(doc["stop"] == "exited", f"stop is {doc['stop']!r}")
    check(doc["console"] == golden_console(ctx), "console differs from the golden console text")
    # The text and JSON forms report the same run.
    text = (ctx.expected / "demo_exec.txt").read_text()
    check(f"instructions: {doc['instructions']}\n" in text, "instructions differ from text output")
    check(re.search(rf"^cycles: +{doc['cycles']}$", text, re.M), "cycles differ from text output")
    check(abs(doc["time_us"] - doc["cycles"] / 66.0) <= 1e-6 * doc["time_us"],
          "time_us is not cycles / 66 MHz")


@case
def demo_exec_deterministic(ctx):
    for args in (["exec", ctx.demo], ["exec", "--json", ctx.demo]):
        a = ctx.run(*args)
        b = ctx.run(*args)
        ctx.expect(a, 0)
        check(a.out.encode() == b.out.encode(), f"two runs of {args} printed different stdout")
        check(a.err == b.err, f"two runs of {args} printed different stderr")


# --- faulting and non-terminating firmware ---------------------------------

def check_fault(ctx, obj, kind, function, address, mnemonic):
    r = ctx.run("exec", ctx.object(obj))
    ctx.expect(r, 2)
    check(f"LANai fault: {kind}" in r.err, f"stderr does not name the fault kind '{kind}'")
    pc = re.search(r"^\s*pc:\s+0x([0-9a-f]{8}) <([^>]+)>", r.err, re.M)
    check(pc, "stderr has no 'pc: 0x... <symbol>' line")
    check(pc.group(2).split("+")[0] == function,
          f"pc is attributed to {pc.group(2)!r}, expected function {function!r}")
    check(re.search(rf"^\s*address:\s+0x{address:08x}\b", r.err, re.M),
          f"stderr has no 'address: 0x{address:08x}' line")
    insn = re.search(r"^\s*instruction:\s+0x([0-9a-f]{8})\s+(\S+)\s+\S", r.err, re.M)
    check(insn, "stderr has no 'instruction: 0x... <disassembly>' line")
    check(insn.group(2) == mnemonic, f"faulting instruction is {insn.group(2)!r}, expected {mnemonic!r}")
    # The word in the report must disassemble the same way on its own.
    d = ctx.run("disasm", "--word", insn.group(1))
    ctx.expect(d, 0)
    check(d.out.split("\t", 1)[1].replace("\t", " ").strip() in r.err,
          "the report's disassembly differs from `disasm --word` of the same word")
    check("exit code:" not in r.out, "a faulted program has no exit code")
    j, doc = ctx.exec_json(ctx.object(obj))
    ctx.expect(j, 2)
    check(doc["stop"] == "fault" and doc["exit_code"] is None,
          f"--json after a fault: stop={doc['stop']!r} exit_code={doc['exit_code']!r}")


@case
def fault_bus_error(ctx):
    check_fault(ctx, "store_outside_sram", "bus error", "store_outside_sram", 0x00800000, "st")


@case
def fault_unmapped_register(ctx):
    check_fault(ctx, "poke_unmapped_register", "unmapped device register",
                "poke_unmapped_register", 0xFFFF0100, "st")


@case
def cycle_limit(ctx):
    limit = 100000
    r = ctx.run("exec", "--max-cycles", limit, ctx.object("spin_forever"))
    ctx.expect(r, 3)
    check("cycle limit" in r.err and str(limit) in r.err, "stderr does not report the cycle limit")
    check("exit code:" not in r.out, "a stopped program has no exit code")
    j, doc = ctx.exec_json("--max-cycles", limit, ctx.object("spin_forever"))
    ctx.expect(j, 3)
    check(doc["stop"] == "cycle_limit" and doc["exit_code"] is None,
          f"--json at the limit: stop={doc['stop']!r} exit_code={doc['exit_code']!r}")
    # The run stops at the limit, give or take the last instruction's cost.
    check(limit <= doc["cycles"] <= limit + 16, f"stopped at {doc['cycles']} cycles, limit {limit}")
    check(doc["instructions"] > 0, "the loop must have executed")


# --- hardware profiles ------------------------------------------------------

ALL_CHANGED = """name = "everything changed"
[lanai]
clock_mhz = 41.5
sram_bytes = 1048576
alu_cycles = 2
load_cycles = 3
store_cycles = 4
branch_taken_cycles = 5
branch_untaken_cycles = 6
mmio_cycles = 7
load_use_stall_cycles = 8
"""


@case
def profile_dump_reloads(ctx):
    dumped = ctx.run("config")
    ctx.expect(dumped, 0)
    path = ctx.write("dumped_default.toml", dumped.out)
    again = ctx.run("exec", "--profile", path, "--dump-config")
    ctx.expect(again, 0)
    check(again.out == dumped.out, "exec --dump-config of the dumped default differs from config")
    alias = ctx.run("dump-config", "--profile", path)
    ctx.expect(alias, 0)
    check(alias.out == dumped.out, "the dump-config alias prints something else")
    # A profile that changes every value survives dump -> load -> dump.
    custom = ctx.write("all_changed.toml", ALL_CHANGED)
    first = ctx.run("config", "--profile", custom)
    ctx.expect(first, 0)
    for line in ALL_CHANGED.splitlines():
        if "=" in line:
            check(re.search(rf"^{re.escape(line)}(\s|$)", first.out, re.M),
                  f"dump does not show {line!r}")
    reloaded = ctx.write("all_changed_dumped.toml", first.out)
    second = ctx.run("exec", "--profile", reloaded, "--dump-config")
    ctx.expect(second, 0)
    check(second.out == first.out, "dump -> load -> dump of a custom profile is not stable")


@case
def profile_clock_scales_time(ctx):
    base_r, base = ctx.exec_json(ctx.demo)
    slow = ctx.write("clock33.toml", "[lanai]\nclock_mhz = 33.0\n")
    r, doc = ctx.exec_json("--profile", slow, ctx.demo)
    ctx.expect(r, 0)
    check(doc["cycles"] == base["cycles"], "the clock must not change the cycle count")
    check(abs(doc["time_us"] - doc["cycles"] / 33.0) <= 1e-6 * doc["time_us"],
          f"time_us {doc['time_us']} is not cycles / 33 MHz")
    check(abs(doc["time_us"] - 2 * base["time_us"]) <= 1e-6 * doc["time_us"],
          "halving the clock must double the time")
    text = ctx.run("exec", "--profile", slow, ctx.demo)
    check("us at 33 MHz" in text.out, "text output does not show the 33 MHz clock")


@case
def profile_load_cycles_change_cycles(ctx):
    _, base = ctx.exec_json(ctx.demo)
    costly = ctx.write("load4.toml", "[lanai]\nload_cycles = 4\n")
    r, doc = ctx.exec_json("--profile", costly, ctx.demo)
    ctx.expect(r, 0)
    check(doc["instructions"] == base["instructions"], "timing must not change the instruction count")
    check(doc["cycles"] > base["cycles"], "dearer loads must cost more cycles")
    check(doc["exit_code"] == 132 and doc["console"] == base["console"],
          "timing must not change the program's behaviour")


@case
def profile_bench_default(ctx):
    # The shipped lanai7-default profile holds the built-in defaults.
    check(ctx.bench_profile.is_file(), f"{ctx.bench_profile} is missing")
    shipped = ctx.run("config", "--profile", ctx.bench_profile)
    builtin = ctx.run("config")
    ctx.expect(shipped, 0)
    drop_name = lambda s: [l for l in s.splitlines() if not l.startswith("name = ")]
    check(drop_name(shipped.out) == drop_name(builtin.out),
          "lanai7-default.toml differs from the built-in defaults")
    _, a = ctx.exec_json("--profile", ctx.bench_profile, ctx.demo)
    _, b = ctx.exec_json(ctx.demo)
    check(a == b, "the demo runs differently with lanai7-default.toml")


def profile_error(ctx, file_name, text, *needles):
    path = ctx.write(file_name, text)
    for args in (["exec", "--profile", path, ctx.demo], ["config", "--profile", path]):
        one_line_error(ctx.run(*args), path, *needles)


@case
def profile_error_unknown_key(ctx):
    profile_error(ctx, "unknown_key.toml", "[lanai]\nclock_mhz = 50.0\nfrobnicate = 1\n",
                  "lanai.frobnicate")


@case
def profile_error_wrong_type(ctx):
    profile_error(ctx, "wrong_type.toml", '[lanai]\nclock_mhz = "fast"\n', "lanai.clock_mhz")
    profile_error(ctx, "wrong_type_int.toml", '[lanai]\nalu_cycles = "1"\n', "lanai.alu_cycles")


@case
def profile_error_negative(ctx):
    profile_error(ctx, "negative.toml", "[lanai]\nstore_cycles = -2\n", "lanai.store_cycles")


@case
def profile_error_sram_not_word_multiple(ctx):
    profile_error(ctx, "sram_odd.toml", "[lanai]\nsram_bytes = 65538\n", "lanai.sram_bytes")


@case
def profile_error_syntax(ctx):
    path = ctx.write("syntax.toml", "name = \"x\"\n[lanai]\nload_cycles = = 2\n")
    for args in (["exec", "--profile", path, ctx.demo], ["config", "--profile", path]):
        line = one_line_error(ctx.run(*args), path)
        check(re.search(rf"{re.escape(str(path))}:3:\d+:", line),
              f"syntax error does not give file:line:column of line 3: {line!r}")


@case
def profile_error_missing_file(ctx):
    path = ctx.scratch / "no_such_profile.toml"
    for args in (["exec", "--profile", path, ctx.demo], ["config", "--profile", path]):
        one_line_error(ctx.run(*args), path)


# --- loader errors ------------------------------------------------------------

@case
def loader_error_not_elf(ctx):
    path = ctx.write("not_elf.o", "this is a text file, not an object\n")
    one_line_error(ctx.run("exec", path), path)


@case
def loader_error_truncated(ctx):
    data = ctx.demo.read_bytes()
    for size in (40, len(data) // 2, len(data) - 1):
        path = ctx.scratch / f"truncated_{size}.o"
        path.write_bytes(data[:size])
        one_line_error(ctx.run("exec", path), path)


@case
def loader_error_undefined_symbol(ctx):
    obj = ctx.object("calls_undefined")
    one_line_error(ctx.run("exec", obj), obj, "cli_test_missing_hook")


@case
def usage_error_status(ctx):
    # Command-line mistakes are usage errors like any other: status 1.
    one_line_error(ctx.run("exec", "--no-such-option", ctx.demo), "--no-such-option")
    one_line_error(ctx.run("exec"))


@case
def usage_error_not_a_whole_number(ctx):
    # A counted option refuses a word, a fraction or nothing as not a whole
    # number, and a number outside its range as out of range; each names
    # the option, the text and the range.
    for text in ("abc", "1.5", "", "2e3"):
        one_line_error(ctx.run("pingpong", "--iters", text), "--iters", f"'{text}' is not a whole number",
                       "expected 1 to 10000000")
    for text in ("0", "-3", "10000001", "99999999999999999999999"):
        one_line_error(ctx.run("pingpong", "--iters", text), "--iters", f"{text} is out of range",
                       "expected 1 to 10000000")


@case
def usage_error_unknown_subcommand(ctx):
    # An unknown subcommand is named, with or without --help after it or a
    # top-level flag before it.
    for args in (["bogus"], ["bogus", "--help"], ["bogus", ctx.demo], ["--no-fast-forward", "bogus"]):
        one_line_error(ctx.run(*args), "unknown subcommand 'bogus'", "exec", "run")


# --- help and disassembly -----------------------------------------------------

def check_help(ctx, args, *mentions):
    r = ctx.run(*args)
    ctx.expect(r, 0)
    for m in mentions:
        check(m in r.out, f"`{' '.join(args)}` does not mention {m!r}")


@case
def help_top(ctx):
    check_help(ctx, ["--help"], "exec", "disasm", "config", "dump-config", "--help", "--version")


@case
def help_exec(ctx):
    check_help(ctx, ["exec", "--help"], "--profile", "--max-cycles", "--json", "--dump-config",
               "--no-runtime", "objects")


@case
def help_disasm(ctx):
    check_help(ctx, ["disasm", "--help"], "--word", "--profile", "objects")


@case
def help_config(ctx):
    check_help(ctx, ["config", "--help"], "--profile")
    check_help(ctx, ["dump-config", "--help"], "--profile")


@case
def disasm_words(ctx):
    r = ctx.run("disasm", "--word", "02900008", "--word", "8116fffc")
    ctx.expect(r, 0)
    check(r.out == "02900008\tadd\t%sp, 0x8, %fp\n8116fffc\tld\t-4[%fp], %pc ! return\n",
          "unexpected disassembly")
    prefixed = ctx.run("disasm", "--word", "0x02900008")
    ctx.expect(prefixed, 0)
    check(prefixed.out == "02900008\tadd\t%sp, 0x8, %fp\n", "a 0x prefix must be accepted")


@case
def disasm_bad_word(ctx):
    for bad in ("zz", "123456789", "12 34"):
        one_line_error(ctx.run("disasm", "--word", bad), bad)


@case
def disasm_object(ctx):
    r = ctx.run("disasm", ctx.object("store_outside_sram"))
    ctx.expect(r, 0)
    check(re.search(r"^[0-9a-f]{8} <store_outside_sram>:$", r.out, re.M),
          "listing has no label for store_outside_sram")
    check(re.search(r"^[0-9a-f]{8} <main>:$", r.out, re.M), "listing has no label for main")
    check(re.search(r"^ *[0-9a-f]+: [0-9a-f]{8}\tst\t", r.out, re.M), "listing has no store")


@case
def disasm_word_and_object(ctx):
    """A word and an object in one command: the word is decoded, then the
    object listed (an object after --word is not taken for a word); an
    object that cannot be read gives its error and nothing else."""
    obj = ctx.object("store_outside_sram")
    r = ctx.run("disasm", "--word", "02900008", obj)
    ctx.expect(r, 0)
    check(r.out.startswith("02900008\tadd\t%sp, 0x8, %fp\n"), "the word is not decoded first")
    check(r.out[r.out.index("\n") + 1:] == ctx.run("disasm", obj).out,
          "the object's listing differs from `disasm` of the object alone")
    # An object that cannot be read: its error alone, not the word's line.
    one_line_error(ctx.run("disasm", "--word", "02900008", "8116fffc"), "8116fffc")


@case
def profile_by_name(ctx):
    """--profile takes a shipped profile's name as well as its file, and an
    unknown name is one line naming it."""
    by_file = ctx.run("config", "--profile", ctx.bench_profile)
    by_name = ctx.run("config", "--profile", ctx.bench_profile.stem)
    ctx.expect(by_name, 0)
    check(by_name.out == by_file.out, "a profile by name differs from the same profile by file")
    one_line_error(ctx.run("config", "--profile", "no-such-card"), "no-such-card",
                   "no shipped profile of that name")


@case
def version(ctx):
    """--version prints the version alone and succeeds, before or after a
    subcommand's name."""
    for words in (["--version"], ["pingpong", "--version"]):
        r = ctx.run(*words)
        ctx.expect(r, 0)
        check(re.fullmatch(r"lanai-emu [0-9]+\.[0-9]+\.[0-9]+\n", r.out),
              f"{' '.join(words)}: unexpected output {r.out!r}")


@case
def exec_trace(ctx):
    """--trace writes one line per instruction, from _start, up to the limit,
    identically on every run, without changing the program's results."""
    _, plain = ctx.exec_json(ctx.demo)
    traces = []
    for n in (1, 2):
        path = ctx.scratch / f"trace{n}.txt"
        _, traced = ctx.exec_json("--trace", path, "--trace-limit", "500", ctx.demo)
        check(traced == plain, "tracing changed the result of the run")
        traces.append(path.read_text())
    check(traces[0] == traces[1], "two traces of the same run differ")
    lines = traces[0].splitlines()
    check(len(lines) == 500, f"expected 500 trace lines, got {len(lines)}")
    first = lines[0].split()
    check(first[0] == "0" and first[2] == "_start",
          f"the trace must start at cycle 0 in _start: {lines[0]!r}")
    cycles = [int(line.split()[0]) for line in lines]
    check(cycles == sorted(cycles) and len(set(cycles)) == len(cycles),
          "trace cycles must strictly increase")
    bad = ctx.run("exec", "--trace", ctx.scratch / "no-such-dir" / "t.txt", ctx.demo)
    ctx.expect(bad, 1)
    check(bad.err.startswith("lanai-emu: ") and len(bad.err.splitlines()) == 1,
          "an unwritable trace file must give a one-line error")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("--emu", required=True)
    p.add_argument("--demo", required=True)
    p.add_argument("--objects", required=True, help="directory of the test firmware objects")
    p.add_argument("--expected", required=True)
    p.add_argument("--bench-profile", required=True)
    opts = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="lanai-cli-") as scratch:
        ctx = Context(opts, scratch)
        try:
            CASES[opts.case](ctx)
        except (Failure, subprocess.TimeoutExpired, UnicodeDecodeError) as e:
            print(f"FAIL {opts.case}: {e}")
            if ctx.log:
                print(ctx.log[-1].describe())
            return 1
    print(f"ok {opts.case} ({len(ctx.log)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
