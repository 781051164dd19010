#!/usr/bin/env python3
# Where each sent message's time goes, from the device trace of one run
# (`lanai-emu run ... --trace FILE`): from its send doorbell to its tail on
# the wire, cut at the moments the sending card's devices record. stdlib
# only.
#
#   tools/trace_stages.py TRACE.json [--node N] [--vi V ...] [--csv]
#
# Without --vi it lists the node's VIs (doorbells, mean interval between
# them) so that a class can be found, then the stages over all of them;
# --vi keeps the VIs named. --csv prints one row per message instead: its
# VI, number, doorbell time and stages. A message counts only if the trace
# holds every step of it in order: its doorbell, descriptor read, data read
# and packet; one read or sent in several pieces overlaps its stages and is
# left out (and counted).
import argparse
import json
import signal
import statistics
import sys
from collections import defaultdict

# (name, from, to): the moments each stage lies between, in order; they sum
# to the last row.
STAGES = (
    ("doorbell to descriptor read queued (LANai)", "doorbell", "descriptor_queued"),
    ("descriptor read waiting in the host DMA queue", "descriptor_queued", "descriptor_start"),
    ("descriptor read in service", "descriptor_start", "descriptor_done"),
    ("descriptor in SRAM to data read queued (LANai)", "descriptor_done", "data_queued"),
    ("data read waiting in the host DMA queue", "data_queued", "data_start"),
    ("data read in service", "data_start", "data_done"),
    ("data in SRAM to packet started (LANai, send DMA)", "data_done", "packet_start"),
    ("packet started to its tail on the wire", "packet_start", "tail_sent"),
)
TOTAL = ("doorbell to tail on the wire", "doorbell", "tail_sent")


def fail(message):
    sys.exit(f"trace_stages: {message}")


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    events = data.get("traceEvents") if isinstance(data, dict) else data
    if not isinstance(events, list):
        fail(f"{path}: not a Chrome trace (no list of trace events)")
    return events


def track_names(events, node):
    """{tid: track name} of the node's process."""
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("pid") == node:
            names[e.get("tid")] = e.get("args", {}).get("name")
    return names


def messages_of(events, node):
    """{(vi, msg): {moment: us}} for every message the node sent, and the
    doorbell times per VI."""
    names = track_names(events, node)
    if not names:
        fail(f"the trace has no node {node}")
    doorbells = defaultdict(list)
    moments = defaultdict(dict)
    reads = defaultdict(list)  # (vi, msg) -> [(queued, start, end)] in order
    packets = defaultdict(list)
    latest = {}  # per track: the run's events come in time order
    for e in events:
        if e.get("pid") != node or e.get("ph") == "M" or not isinstance(e.get("ts"), (int, float)):
            continue
        track, args = names.get(e.get("tid")), e.get("args", {})
        start = e["ts"]
        end = start + e.get("dur", 0)
        if start < latest.get(track, start):
            fail("the trace holds several runs, its times starting again (a pingpong trace "
                 "has one per message size): give it the trace of one run, such as "
                 "`lanai-emu run --trace`'s")
        latest[track] = start
        if track == "doorbells" and e.get("name", "").startswith("send ") and "vi" in args:
            doorbells[args["vi"]].append(start)
        elif "vi" not in args or "msg" not in args:
            continue
        elif track == "HDMA" and e.get("name", "").startswith("to_sram"):
            reads[args["vi"], args["msg"]].append((args.get("programmed_us", start), start, end))
        elif track == "NSDMA":
            packets[args["vi"], args["msg"]].append((start, end))
        elif track == "link" and e.get("name", "").startswith("tx"):
            moments[args["vi"], args["msg"]]["tail_sent"] = end
    for vi, times in doorbells.items():
        times.sort()
        # A VI's messages are numbered from 0 in the order their doorbells ring.
        for msg, at in enumerate(times):
            moments[vi, msg]["doorbell"] = at
    several = set()
    for key, spans in reads.items():
        if len(spans) > 2:
            several.add(key)
        if len(spans) != 2:
            continue
        m = moments[key]
        m["descriptor_queued"], m["descriptor_start"], m["descriptor_done"] = spans[0]
        m["data_queued"], m["data_start"], m["data_done"] = spans[1]
    for key, spans in packets.items():
        if len(spans) > 1:
            several.add(key)
        moments[key]["packet_start"] = spans[0][0]
    order = ["doorbell"] + [s[2] for s in STAGES]
    whole = {k: m for k, m in moments.items()
             if k not in several and set(order) <= m.keys()
             and all(m[a] <= m[b] for a, b in zip(order, order[1:]))}
    return whole, doorbells, several


def main():
    p = argparse.ArgumentParser(description="Where each sent message's time goes, from a "
                                "lanai-emu device trace.")
    p.add_argument("trace")
    p.add_argument("--node", type=int, default=0, help="the sending node (default 0)")
    p.add_argument("--vi", type=int, action="append", default=[],
                   help="keep this VI's messages (repeatable; default all)")
    p.add_argument("--csv", action="store_true", help="one row per message")
    args = p.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quietly, into `head`

    events = load(args.trace)
    messages, doorbells, several = messages_of(events, args.node)
    unknown = [v for v in args.vi if v not in doorbells]
    if unknown:
        fail(f"node {args.node} rang no send doorbell on VI {', '.join(map(str, unknown))} "
             f"(its VIs: {', '.join(map(str, sorted(doorbells))) or 'none'})")
    kept = sorted(k for k in messages if not args.vi or k[0] in args.vi)
    if not kept:
        fail(f"no message of node {args.node} is whole in the trace")

    if args.csv:
        print("vi,msg,doorbell_us," + ",".join(f"{a}_to_{b}_us" for _, a, b in STAGES + (TOTAL,)))
        for key in kept:
            m = messages[key]
            print(f"{key[0]},{key[1]},{m['doorbell']:.6f}," +
                  ",".join(f"{m[b] - m[a]:.6f}" for _, a, b in STAGES + (TOTAL,)))
        return

    if not args.vi:
        print(f"node {args.node}: send doorbells per VI")
        print(f"{'vi':>4} {'doorbells':>9} {'mean interval us':>17}")
        for vi in sorted(doorbells):
            times = doorbells[vi]
            gap = (times[-1] - times[0]) / (len(times) - 1) if len(times) > 1 else float("nan")
            print(f"{vi:>4} {len(times):>9} {gap:>17.1f}")
        print()
    which = "VI " + ", ".join(map(str, sorted(set(args.vi)))) if args.vi else "all VIs"
    print(f"node {args.node}, {which}: {len(kept)} messages whole in the trace (us)")
    pieces = sum(1 for k in several if not args.vi or k[0] in args.vi)
    if pieces:
        print(f"(left out: {pieces} messages of several data reads or packets, whose stages "
              "overlap)")
    print(f"{'stage':<50} {'mean':>8} {'sd':>8} {'max':>8}")
    for name, a, b in STAGES + (TOTAL,):
        values = [messages[k][b] - messages[k][a] for k in kept]
        sd = statistics.pstdev(values) if len(values) > 1 else 0.0
        print(f"{name:<50} {statistics.fmean(values):>8.1f} {sd:>8.1f} {max(values):>8.1f}")


if __name__ == "__main__":
    main()
