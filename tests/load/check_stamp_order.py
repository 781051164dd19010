# Runs a traced QoS-VIA point and checks its stamps in the device trace:
#   - the host injects each reserved VI's messages at exactly its interval:
#     its doorbells reach the card equally spaced;
#   - a reserved VI's messages are stamped from the times their doorbells
#     reached the card (VirtualClock: S_n = max(P_n, S_n-1) + Vtick, so
#     S_n - max(P_n, S_n-1) is one constant per VI), never from the time the
#     firmware noticed them; best effort is stamped last;
#   - every host DMA queue, the receivers' too, serves its waiting requests
#     in stamp order, equal stamps in the order queued; a request inserted
#     while the one ahead of it was already being taken may follow it (the
#     modelled race at the queue's head);
#   - the sender's network send queue starts its packets in stamp order:
#     no packet starts while one with a smaller stamp has been waiting in
#     the queue since before it was taken.
# stdlib only.
#   check_stamp_order.py LANAI_EMU EXPERIMENT OUT_DIR CLOCK_MHZ [--network-may-idle]
# --network-may-idle: the sender's network send queue need not ever hold
# two packets (under Reliable Reception a send holds its record until its
# acknowledgement, which keeps the queue short); its order is checked
# when it does.
import bisect
import json
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
from experiment_run import run_experiment  # noqa: E402

lanai_emu, experiment, out, clock_mhz = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), float(sys.argv[4])
network_may_idle = "--network-may-idle" in sys.argv[5:]
trace_file = out / "trace.json"
run_experiment(lanai_emu, experiment, out, "--trace", str(trace_file))
events = [e for e in json.loads(trace_file.read_text())["traceEvents"] if "ts" in e]
track = {"lanai": 0, "doorbells": 1, "hdma": 2, "nsdma": 3}
STAMP_LAST = 2**64 - 1


def on(node, name):
    return sorted((e for e in events if e["pid"] == node and e["tid"] == track[name]),
                  key=lambda e: e["ts"])


problems = []
counts = {"doorbell": 0, "injection": 0, "hdma": 0, "nsdma": 0}

# Doorbell stamps: the stamp a send's descriptor fetch carries, against the
# cycle its doorbell rang at.
hdma0 = on(0, "hdma")
fetch_stamp = {(e["args"]["vi"], e["args"]["msg"]): e["args"]["stamp"]
               for e in hdma0 if e["name"].startswith("to_sram") and e["args"]["bytes"] == 64}
rung = {}  # per VI, the times (us) its send doorbells reached the card
for e in on(0, "doorbells"):
    if e["name"].startswith("send"):
        rung.setdefault(e["args"]["vi"], []).append(e["ts"])
for vi, times in sorted(rung.items()):
    stamps = [fetch_stamp.get((vi, n)) for n in range(len(times))]
    stamps = stamps[:stamps.index(None)] if None in stamps else stamps
    if not stamps:
        continue
    if all(s == STAMP_LAST for s in stamps):
        counts["doorbell"] += len(stamps)
        continue
    # The host injects a reserved VI's messages at exactly its interval: its
    # doorbells reach the card equally spaced (to the trace's picosecond).
    gaps = [b - a for a, b in zip(times, times[1:])]
    counts["injection"] += len(gaps)
    if gaps and max(gaps) - min(gaps) > 1e-6:
        problems.append(f"vi {vi}: doorbells from {min(gaps):.6f} to {max(gaps):.6f} us apart, "
                        f"not at one interval")
    ticks, previous = [], 0
    for t, stamp in zip(times, stamps):
        posted = math.floor(t * clock_mhz + 1e-6)
        ticks.append(stamp - max(posted, previous))
        previous = stamp
    counts["doorbell"] += len(ticks)
    if max(ticks) - min(ticks) > 2:
        problems.append(f"vi {vi}: stamps are not max(posted, previous) + one Vtick: "
                        f"the step runs from {min(ticks)} to {max(ticks)} cycles")

# Host DMA queues, in service order.
for node in sorted({e["pid"] for e in events}):
    served = on(node, "hdma")
    starts = [e["ts"] for e in served]
    for i, s in enumerate(served):
        for w in served[i + 1:]:
            queued = w["args"]["programmed_us"]
            if queued >= s["ts"]:
                continue
            counts["hdma"] += 1
            if w["args"]["stamp"] >= s["args"]["stamp"]:
                continue
            if bisect.bisect_left(starts, queued - 1e-9) == i:
                continue  # inserted as the engine took the head
            problems.append(f"node {node}: host DMA served {s['name']} (stamp {s['args']['stamp']}) "
                            f"at {s['ts']:.3f} us while {w['name']} (stamp {w['args']['stamp']}) "
                            f"had waited since {queued:.3f} us")

# The network send queue: a packet enters it when the firmware has handled
# its gather (the end of that LANai span) and leaves when the firmware takes
# it for the network send DMA (the start of its send:wait_nsdma span).
lanai0 = on(0, "lanai")
data_done = {(e["args"]["vi"], e["args"]["msg"]): e["ts"] + e["dur"]
             for e in hdma0 if e["name"].startswith("to_sram") and e["args"]["bytes"] > 64}
entered, taken = {}, {}
for e in lanai0:
    key = (e["args"].get("vi"), e["args"].get("msg"))
    if e["name"].startswith("send:gather_data") and key in data_done and e["ts"] >= data_done[key]:
        entered.setdefault(key, e["ts"] + e["dur"])
    if e["name"].startswith("send:wait_nsdma"):
        taken.setdefault(key, e["ts"])
packets = [e for e in on(0, "nsdma")]
for i, p in enumerate(packets):
    key_p = (p["args"]["vi"], p["args"]["msg"])
    if key_p not in taken:
        continue
    for q in packets[i + 1:]:
        key_q = (q["args"]["vi"], q["args"]["msg"])
        if key_q not in entered or entered[key_q] >= taken[key_p]:
            continue
        counts["nsdma"] += 1
        if q["args"]["stamp"] < p["args"]["stamp"]:
            problems.append(f"network send started {p['name']} (stamp {p['args']['stamp']}) at "
                            f"{p['ts']:.3f} us while {q['name']} (stamp {q['args']['stamp']}) had "
                            f"been queued since {entered[key_q]:.3f} us")

for what, n in counts.items():
    if n == 0 and not (what == "nsdma" and network_may_idle):
        problems.append(f"nothing to check for the {what} order")
if problems:
    print("\n".join(problems[:20]))
    sys.exit(1)
print(f"stamps of {counts['doorbell']} sends follow their doorbells; {counts['hdma']} host DMA and "
      f"{counts['nsdma']} network send pairs in stamp order")
