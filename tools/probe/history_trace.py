#!/usr/bin/python3
"""Turns the caching allocator's record that `headroom-probe --memory-history FILE.pickle` writes (the snapshot of
torch.cuda.memory._dump_snapshot) into a compact trace, FILE.trace.json, small enough to bring back from a GPU
machine: every event of device 0 in order as [action, address, size, stream, frames], the frames an index into a table
of the innermost Python frames ("file:line:function", innermost first), so that Headroom's allocator replay can be set
against the real allocator event by event.

    tools/probe/history_trace.py run.pickle [more.pickle ...]     # writes run.trace.json beside each
    tools/probe/history_trace.py --self-test                        # the conversion, on a made-up snapshot

The snapshot's format (torch/cuda/memory.py, `_snapshot`; c10/cuda/CUDACachingAllocator.h, `TraceEntry`): a dict with
"segments" (the allocator's state at the dump) and "device_traces", one list per device of dicts with "action"
(alloc, free_requested, free_completed, segment_alloc, segment_free, segment_map, segment_unmap, snapshot, oom),
"addr", "size", "stream" and "frames" (each {"filename", "line", "name"}). The trace keeps the actions' names, the
frames' table and the probe's marks (events_at: the event count at each phase end of the measured step).
"""

import argparse
import json
import os
import pickle
import sys

FRAMES_KEPT = 4  # innermost Python frames: the module's line, its caller, and two above
PATH_TAIL = 3  # path components kept of a frame's file: ".../transformers/models/gpt2/modeling_gpt2.py" as "models/gpt2/..."


def short_frame(frame):
    parts = str(frame.get("filename", "?")).replace("\\", "/").split("/")
    return "%s:%s:%s" % ("/".join(parts[-PATH_TAIL:]), frame.get("line", 0), frame.get("name", "?"))


def convert(snapshot, marks=None, device=0):
    """-> the compact trace of one device's events."""
    traces = snapshot.get("device_traces", [])
    events = traces[device] if device < len(traces) else []
    table, index, out = [], {}, []
    for e in events:
        key = " < ".join(short_frame(f) for f in (e.get("frames") or [])[:FRAMES_KEPT])
        if key not in index:
            index[key] = len(table)
            table.append(key)
        out.append([e.get("action", "?"), int(e.get("addr", 0)), int(e.get("size", 0)), int(e.get("stream", 0)),
                    index[key]])
    segments = [{"address": int(s.get("address", 0)), "total_size": int(s.get("total_size", 0)),
                 "stream": int(s.get("stream", 0)), "segment_type": s.get("segment_type", "?"),
                 "allocated_size": int(s.get("allocated_size", 0))}
                for s in snapshot.get("segments", []) if int(s.get("device", device)) == device]
    return {"format": "headroom-allocator-trace", "version": 1, "device": device,
            "fields": ["action", "address", "size", "stream", "frames"], "events": out, "frames": table,
            "segments_at_dump": segments, "events_at": marks or {}}


def marks_for(pickle_path):
    """The probe's marks, from the measured file beside the pickle (its memory_history.events_at), if there is one."""
    measured = pickle_path[: -len(".pickle")] + ".headroom-measured.json" if pickle_path.endswith(".pickle") else ""
    if measured and os.path.exists(measured):
        with open(measured, encoding="utf-8") as f:
            return (json.load(f).get("memory_history") or {}).get("events_at", {})
    return {}


def write(pickle_path):
    with open(pickle_path, "rb") as f:
        snapshot = pickle.load(f)
    trace = convert(snapshot, marks_for(pickle_path))
    out = (pickle_path[: -len(".pickle")] if pickle_path.endswith(".pickle") else pickle_path) + ".trace.json"
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        json.dump(trace, f, separators=(",", ":"))
        f.write("\n")
    os.replace(out + ".tmp", out)
    return out, len(trace["events"])


def self_test():
    frame = {"filename": "/usr/lib/python3/site-packages/torchvision/models/vision_transformer.py", "line": 113,
             "name": "forward"}
    caller = {"filename": "/repo/tools/probe/headroom-probe", "line": 500, "name": "train_step"}
    snap = {"segments": [{"device": 0, "address": 1 << 30, "total_size": 20 << 20, "stream": 0,
                          "segment_type": "large", "allocated_size": 512}],
            "device_traces": [[
                {"action": "segment_alloc", "addr": 1 << 30, "size": 20 << 20, "stream": 0, "frames": [frame, caller]},
                {"action": "alloc", "addr": 1 << 30, "size": 512, "stream": 0, "frames": [frame, caller]},
                {"action": "free_requested", "addr": 1 << 30, "size": 512, "stream": 0, "frames": [caller]},
                {"action": "free_completed", "addr": 1 << 30, "size": 512, "stream": 0, "frames": [caller]},
            ]]}
    t = convert(snap, {"after_forward": 2})
    assert [e[0] for e in t["events"]] == ["segment_alloc", "alloc", "free_requested", "free_completed"], t
    assert t["events"][1][1:4] == [1 << 30, 512, 0], t["events"][1]
    assert t["frames"][t["events"][0][4]] == ("torchvision/models/vision_transformer.py:113:forward < "
                                              "tools/probe/headroom-probe:500:train_step"), t["frames"]
    assert t["events"][2][4] == t["events"][3][4] != t["events"][0][4]
    assert t["segments_at_dump"][0]["total_size"] == 20 << 20 and t["events_at"] == {"after_forward": 2}
    assert convert({"device_traces": []})["events"] == []
    print("history_trace: self-test passed")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pickles", nargs="*")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.pickles:
        ap.error("no snapshot given")
    failed = 0
    for p in args.pickles:
        try:
            out, n = write(p)
            print("%s: %d events" % (out, n))
        except (OSError, pickle.UnpicklingError, EOFError, ValueError) as e:
            print("history_trace: %s: %s" % (p, e), file=sys.stderr)
            failed += 1
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
