# Fragmentation never slows a message of at most one fragment: runs the
# latency program once unfragmented and once under each given policy (on
# fresh clusters, so the runs differ in the policy only) and checks that
# every policy's 1-way latency is at most the unfragmented one (times
# --at-most, default 1: a policy that must gain is checked with less) and
# that the bytes came back intact. stdlib only.
# Usage: frag_no_slower.py --size S [--rounds N] [--at-most R]
#          --policy "POLICY BYTES P0 P1 P2 P3" ... -- PROGRAM ARGS...
# (the program's own arguments after "--" end with its "--").
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import command_check  # noqa: E402

parser = command_check.parser()
parser.add_argument("--size", type=int, required=True, help="message bytes")
parser.add_argument("--rounds", type=int, default=10, help="timed round trips")
parser.add_argument("--at-most", type=float, default=1.0,
                    help="each policy's latency over the unfragmented one may not exceed this")
parser.add_argument("--policy", action="append", default=[],
                    help="POLICY BYTES P0 P1 P2 P3, as the program takes them")
args, command = command_check.parse(parser)


def one_way(policy):
    run = command + [str(args.size), str(args.rounds)] + policy.split()
    proc, _ = command_check.run(run, timeout=600)
    found = re.search(r"node0: \d+ bytes one-way (\d+) ns, intact", proc.stdout)
    return proc, run, (int(found.group(1)) if proc.returncode == 0 and found else None)


problems = []
base_proc, base_run, base = one_way("0 0 0 0 0 0")
if base is None:
    problems.append(f"the unfragmented run failed: {base_proc.stdout}{base_proc.stderr}")
for policy in args.policy:
    proc, run, ns = one_way(policy)
    print(f"{args.size} B, policy {policy}: {ns} ns one-way (unfragmented {base} ns)")
    if ns is None:
        problems.append(f"policy {policy}: the run failed: {proc.stdout}{proc.stderr}")
    elif base is not None and ns > base * args.at_most:
        problems.append(f"policy {policy}: {ns} ns one-way, more than {args.at_most} x "
                        f"unfragmented {base} ns")
command_check.finish(base_run, base_proc, problems)
