#!/usr/bin/python3
"""Runs headroom-probe over the grid of issue 9 on one machine, one fresh process per run, and writes each run's
.headroom-measured.json into --out, with grid-log.json listing what ran, what was skipped and why, and what failed.

Meant to be the one prepared script for a machine with an NVIDIA GPU, where time is short: the most informative runs
come first, and no run is started once --budget-seconds would be exceeded, so that what finished is kept. The files
go to tests/data/measured/ (TestMeasuredFiles holds the predictions to them).

    tools/probe/grid.py --out "$OUT" --budget-seconds 480          # on the GPU machine
    tools/probe/grid.py --out /tmp/grid --device cpu --smoke        # its logic, on a CPU, in about a minute
"""

import argparse
import itertools
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.realpath(__file__))
PROBE = os.path.join(HERE, "headroom-probe")

# (model, micro batch, sequence length or image side, kind). Sizes that keep each step well above launch overhead on
# a data-centre GPU and well inside its memory with FP32 AdamW states.
MODELS = [
    ("gpt2", 8, 512, "transformer"),
    ("bert-base", 16, 512, "transformer"),
    ("llama-3.2-1b", 4, 1024, "transformer"),
    ("resnet50", 64, 224, "cnn"),
    ("vit-b-16", 32, 224, "vit"),
]
PRECISIONS = ("bf16", "fp16", "fp32")
CHECKPOINTING = ("none", "full")
ATTENTION = ("fused", "eager")
ADAMW = ("fused", "foreach")


def runs(models, device, torch_version, have_transformers=True):
    """Every combination the probe can run, in the order they are worth having: each model's default first (bf16,
    no checkpointing, SDPA, fused AdamW), then one setting changed at a time, then the rest. Without transformers the
    probe's transcriptions run eager attention only; fused AdamW needs CUDA, or torch 2.4 on a CPU."""
    torch_major = torch_version[0]
    out = []
    for model, batch, seq, kind in models:
        combos = []
        for precision, ckpt, attention, impl in itertools.product(PRECISIONS, CHECKPOINTING, ATTENTION, ADAMW):
            if kind == "cnn" and (ckpt != "none" or attention != "fused"):
                continue
            if kind == "vit" and attention != ("fused" if torch_major >= 2 else "eager"):
                continue  # nn.MultiheadAttention's choice, not the probe's
            if kind == "transformer" and attention == "fused" and not have_transformers:
                continue
            if device == "cpu" and (precision == "fp16" or impl == "fused" and tuple(torch_version) < (2, 4)):
                continue
            if kind == "cnn":
                attention = "eager"  # the scenario's value for a model without attention
            changed = sum(a != b for a, b in zip((precision, ckpt, attention, impl), combos[0][4:8])) if combos else 0
            combos.append((changed, model, batch, seq, precision, ckpt, attention, impl))
        combos.sort(key=lambda c: c[0])
        out.append(combos)
    # Interleave the models so that a short budget still covers each of them.
    ordered = []
    for i in range(max(len(c) for c in out)):
        for combos in out:
            if i < len(combos):
                ordered.append(combos[i][1:])
    return ordered


def name(model, batch, seq, precision, ckpt, attention, impl, device):
    return "%s-%s-b%d-s%d-%s-%s-%s-%s.headroom-measured.json" % (model, device, batch, seq, precision,
                                                                 "ckpt" if ckpt == "full" else "nockpt", attention,
                                                                 impl)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, metavar="DIR")
    ap.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    ap.add_argument("--budget-seconds", type=float, default=480.0, metavar="S",
                    help="start no run after this many seconds, less the slowest run so far (default 480)")
    ap.add_argument("--run-timeout", type=float, default=150.0, metavar="S", help="per run (default 150)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes and two models: checks the grid's logic")
    ap.add_argument("--steps", type=int, default=4)
    args = ap.parse_args(argv)

    import importlib.util
    import torch  # only for its version: the runs themselves are separate processes
    version = tuple(int("".join(ch for ch in part if ch.isdigit()) or 0) for part in torch.__version__.split(".")[:2])
    have_transformers = importlib.util.find_spec("transformers") is not None
    models = MODELS
    if args.smoke:
        models = [("gpt2", 1, 32, "transformer"), ("resnet50", 1, 64, "cnn")]
    os.makedirs(args.out, exist_ok=True)
    start = time.monotonic()
    slowest = 0.0
    log = {"device": args.device, "torch": torch.__version__, "transformers": have_transformers,
           "budget_seconds": args.budget_seconds,
           "ran": [], "failed": [], "not_started": []}
    for model, batch, seq, precision, ckpt, attention, impl in runs(models, args.device, version, have_transformers):
        file = name(model, batch, seq, precision, ckpt, attention, impl, args.device)
        if args.smoke and len(log["ran"]) + len(log["failed"]) >= 6:
            log["not_started"].append(file)
            continue
        if time.monotonic() - start + slowest > args.budget_seconds:
            log["not_started"].append(file)
            continue
        cmd = [sys.executable, PROBE, "--model", model, "--batch", str(batch), "--seq", str(seq), "--precision",
               precision, "--checkpointing", ckpt, "--attention", attention, "--adamw-impl", impl, "--device",
               args.device, "--steps", str(args.steps), "--out", os.path.join(args.out, file)]
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.run_timeout)
            code, err = p.returncode, p.stderr[-2000:]
        except subprocess.TimeoutExpired:
            code, err = None, "timed out after %.0f s" % args.run_timeout
        seconds = time.monotonic() - t0
        slowest = max(slowest, seconds)
        entry = {"file": file, "seconds": round(seconds, 2)}
        if code == 0:
            log["ran"].append(entry)
        else:
            entry["exit"] = code
            entry["stderr"] = err
            log["failed"].append(entry)
        print("%-90s %s %.1f s" % (file, "ok" if code == 0 else "FAILED", seconds), flush=True)
    with open(os.path.join(args.out, "grid-log.json"), "w", encoding="utf-8") as f:
        json.dump(log, f, indent=2)
        f.write("\n")
    print("grid: %d ran, %d failed, %d not started in %.0f s" % (len(log["ran"]), len(log["failed"]),
                                                                len(log["not_started"]), time.monotonic() - start))
    return 0 if log["ran"] else 1


if __name__ == "__main__":
    sys.exit(main())
