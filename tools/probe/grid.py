#!/usr/bin/python3
"""Runs headroom-probe over the grid of issue 9 on one machine, one fresh process per run, and writes each run's
.headroom-measured.json into --out, with grid-log.json listing what ran, what was skipped and why, and what failed.

Meant to be the one prepared script for a machine with an NVIDIA GPU, where time is short: the most informative runs
come first, and no run is started once --budget-seconds would be exceeded, so that what finished is kept. The files
go to tests/data/measured/ (TestMeasuredFiles holds the predictions to them).

    tools/probe/grid.py --out "$OUT" --budget-seconds 480          # on the GPU machine
    tools/probe/grid.py --out /tmp/grid --device cpu --smoke        # its logic, on a CPU, in about a minute
    tools/probe/grid.py --grid time --out "$OUT" --budget-seconds 480   # batch sweeps for the step-time model

`--grid time` (issue 27) sweeps the micro-batch of the five models at FP32, BF16 and FP16 (no checkpointing, SDPA
attention where transformers is there, AdamW foreach, PyTorch's default on CUDA), so that a step's host-bound part
(flat in the batch) and its GPU-bound part (growing with it) can be told apart; each file carries the probe's
"timing" (host CPU time, kernels and GPU-busy time). Each run's seconds are estimated beforehand (process start-up
plus its steps at a fraction of the H200's peak, or the host floor); the runs are ordered so that every model gets
its smallest, a middle and its largest batch in BF16 before the points between them and before the other precisions,
and a run is started only while its estimate (scaled by how far the finished runs' estimates were off) fits the
budget.

`--grid finetune` (issue 28 item 4) runs LoRA and DoRA through peft (probe 0.2.3 `--finetune`): Llama 3.2 1B with
adapters on q and v, on q, k, v and o, on every linear, with checkpointing, in FP32, and DoRA; the held-out shape of
the issue (TinyLlama 1.1B, r 16 on q, k, v and o, BF16 autocast, 2,048 tokens); BERT-base and GPT-2 with PEFT's
default targets. QLoRA needs a pretrained checkpoint to quantize, which the machine does not have.
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
# (model, micro batch, sequence, precision, checkpointing, (method, rank, alpha, targets)): --grid finetune.
FINETUNE_RUNS = [
    ("llama-3.2-1b", 4, 1024, "bf16", "none", ("lora", 16, 32, "q_proj,v_proj")),
    ("tinyllama-1.1b", 4, 2048, "bf16", "none", ("lora", 16, 32, "q_proj,k_proj,v_proj,o_proj")),
    ("llama-3.2-1b", 4, 1024, "bf16", "none", ("lora", 16, 32, "all-linear")),
    ("bert-base", 16, 512, "bf16", "none", ("lora", 8, 8, "query,value")),
    ("gpt2", 8, 512, "bf16", "none", ("lora", 8, 8, "c_attn")),
    ("llama-3.2-1b", 4, 1024, "bf16", "full", ("lora", 16, 32, "q_proj,v_proj")),
    ("llama-3.2-1b", 4, 1024, "bf16", "none", ("dora", 16, 32, "q_proj,v_proj")),
    ("llama-3.2-1b", 4, 1024, "fp32", "none", ("lora", 16, 32, "q_proj,v_proj")),
    # QLoRA (an NF4 base through bitsandbytes; run only where bitsandbytes is installed): PEFT's q/v default and the
    # QLoRA paper's every-Linear recipe with checkpointing.
    ("llama-3.2-1b", 4, 1024, "bf16", "none", ("qlora", 16, 32, "q_proj,v_proj")),
    ("llama-3.2-1b", 4, 1024, "bf16", "full", ("qlora", 16, 32, "all-linear")),
]
# (model, micro batch, sequence, precision, checkpointing, attention, AdamW): --grid residuals, the runs among the 27 of
# shared/measured-h200 whose memory Headroom does not yet explain (docs/accuracy.md 1.7, issue 28 items 5 and 6), run
# again with the caching allocator's record: ViT-B/16's 40-70 MB missing at its backward's start (BF16, FP32, with
# checkpointing), BERT with checkpointing (reserved +17.6 %), ResNet-50 (reserved -6 %), and the checkpointed GPT-2
# and Llama runs whose cache probe 0.2.2 kept (probe 0.2.3 and later turn it off).
RESIDUAL_RUNS = [
    ("vit-b-16", 32, 224, "bf16", "none", "fused", "fused"),
    ("bert-base", 16, 512, "bf16", "full", "fused", "fused"),
    ("resnet50", 64, 224, "bf16", "none", "eager", "fused"),
    ("vit-b-16", 32, 224, "bf16", "full", "fused", "fused"),
    ("vit-b-16", 32, 224, "fp32", "none", "fused", "fused"),
    ("resnet50", 64, 224, "fp32", "none", "eager", "fused"),
    ("gpt2", 8, 512, "bf16", "full", "fused", "fused"),
    ("llama-3.2-1b", 4, 1024, "bf16", "full", "fused", "fused"),
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


# The time grid: (model, sequence or image side, kind, batches, parameters, training FLOPs per sample at that size).
# FLOPs: 6 x parameters x tokens for the transformers (+ attention's 12 x layers x hidden x seq^2), torchvision's
# GFLOPS x 3 for the vision models (ResNet-50 4.09, ViT-B/16 17.56 per 224 x 224 image, forward).
TIME_MODELS = [
    ("gpt2", 512, "transformer", (1, 2, 4, 8, 16, 32), 124e6, 6 * 124e6 * 512 + 12 * 12 * 768 * 512 ** 2),
    ("bert-base", 512, "transformer", (1, 2, 4, 8, 16, 32), 110e6, 6 * 110e6 * 512 + 12 * 12 * 768 * 512 ** 2),
    ("llama-3.2-1b", 1024, "transformer", (1, 2, 4, 8), 1.24e9, 6 * 1.24e9 * 1024 + 12 * 16 * 2048 * 1024 ** 2),
    ("resnet50", 224, "cnn", (1, 4, 16, 32, 64, 128, 256), 25.6e6, 3 * 4.09e9),
    ("vit-b-16", 224, "vit", (1, 4, 16, 32, 64, 128), 86.6e6, 3 * 17.56e9),
]
TIME_PRECISIONS = ("bf16", "fp32", "fp16")
# A run's seconds on one H200, from the 27 runs in shared/measured-h200 (torch 2.11, 4 steps each) and grid-log.json
# there: the rates eager steps reach (the FLOPs above over step_seconds: Llama 3.2 1B b4 BF16 270 TFLOP/s, FP32 44,
# GPT-2 b8 FP32 38, BERT b16 FP32 41; GPT-2 b8 BF16 94, host-bound), the host floor of an eager step (GPT-2 and BERT
# in BF16: 31-41 ms); the process around the steps (Python, torch and transformers imports, the CUDA context, the
# first step's cuBLAS/cuDNN set-up): 9.6-9.9 s for ViT-B/16 and ResNet-50, 11-14 s for GPT-2 and BERT, 25-30 s for
# Llama 3.2 1B, i.e. about 9 s plus building and moving the model, 1 s per 70 M parameters; and the probe's two
# steps after the measured ones (the ATen-operator count in Python, the profiler's start), about 2 s.
RATE = {"bf16": 200e12, "fp16": 200e12, "fp32": 40e12}
HOST_FLOOR_SECONDS = 0.035
PROCESS_SECONDS = 9.0
PARAMETERS_PER_SECOND = 7e7
PROFILE_SECONDS = 2.0


def spread(batches):
    """The smallest, the largest, the middle, then the rest in halving gaps: the sweep's shape comes first."""
    order, gaps = [batches[0], batches[-1]], [(0, len(batches) - 1)]
    while gaps:
        lo, hi = gaps.pop(0)
        if hi - lo < 2:
            continue
        mid = (lo + hi) // 2
        order.append(batches[mid])
        gaps += [(lo, mid), (mid, hi)]
    return order + [b for b in batches if b not in order]


def estimate_seconds(steps, flops_per_sample, batch, precision, device, params):
    """A run's wall time: the process and the model, the steps (the first counted twice: cuBLAS/cuDNN set-up) and
    the two extra steps of the probe's timing (its ATen-operator count and the profiler)."""
    if device == "cpu":
        return 20.0 + (steps + 2) * flops_per_sample * batch / 2e10
    step = max(HOST_FLOOR_SECONDS, flops_per_sample * batch / RATE[precision])
    return PROCESS_SECONDS + params / PARAMETERS_PER_SECOND + PROFILE_SECONDS + (steps + 3) * step


def time_runs(models, device, steps, torch_major, have_transformers):
    """-> [(estimate, model, batch, seq, precision, ckpt, attention, impl)] in the order to run them."""
    precisions = [p for p in TIME_PRECISIONS if not (device == "cpu" and p == "fp16")]
    # SDPA where the probe can run it; torchvision's ViT runs what nn.MultiheadAttention picks (SDPA from torch 2.0).
    attention = {"transformer": "fused" if have_transformers else "eager", "cnn": "eager",
                 "vit": "fused" if torch_major >= 2 else "eager"}
    sweeps = {}
    for precision in precisions:
        for model, seq, kind, batches, params, flops in models:
            sweeps[precision, model] = [(estimate_seconds(steps, flops, b, precision, device, params), model, b, seq,
                                         precision, "none", attention[kind], "foreach")
                                        for b in spread(list(batches))]
    # The shape of every sweep first: BF16's smallest, largest and middle batch for each model, then FP32's, then
    # FP16's ends; then the points between, BF16 before FP32 before FP16. Inside a level, one model after another.
    levels = [("bf16", 0, 3), ("fp32", 0, 3), ("fp16", 0, 2), ("bf16", 3, None), ("fp32", 3, None), ("fp16", 2, None)]
    out = []
    for precision, lo, hi in levels:
        if precision not in precisions:
            continue
        chunks = [sweeps[precision, m[0]][lo:hi] for m in models]
        out += [c[i] for i in range(max(map(len, chunks))) for c in chunks if i < len(c)]
    return out


def name(model, batch, seq, precision, ckpt, attention, impl, device, finetune=()):
    tag = "-%s-r%d-%s" % (finetune[0], finetune[1], finetune[3].replace(",", "+")) if finetune else ""
    return "%s-%s-b%d-s%d-%s-%s-%s-%s%s.headroom-measured.json" % (model, device, batch, seq, precision,
                                                                   "ckpt" if ckpt == "full" else "nockpt", attention,
                                                                   impl, tag)


def finetune_runs(smoke, have_transformers, have_bitsandbytes=False):
    """--grid finetune's runs: SDPA attention (eager without transformers), foreach AdamW; QLoRA's only with
    bitsandbytes."""
    chosen = [("bert-base", 1, 32, "fp32", "none", ("lora", 8, 8, "query,value"))] if smoke else FINETUNE_RUNS
    chosen = [r for r in chosen if r[5][0] != "qlora" or have_bitsandbytes]
    attention = "fused" if have_transformers else "eager"
    return [(None, m, b, s, p, c, attention, "foreach", f) for m, b, s, p, c, f in chosen]


def residual_runs(smoke, device, torch_major, have_transformers):
    """--grid residuals' runs, in the order of what they would settle; on a CPU (the logic's check) in FP32 without
    fused AdamW, and with the transcriptions' eager attention where transformers is not there."""
    chosen = RESIDUAL_RUNS[:3] if smoke else RESIDUAL_RUNS
    out = []
    for m, b, s, p, c, a, impl in chosen:
        if smoke:
            b, s = 1, (64 if m in ("vit-b-16", "resnet50") else 32)
        if device == "cpu":  # FP32: Debian's torch 1.13 CPU autocast does not carry BF16 through a checkpointed layer
            p, impl = "fp32", "foreach"
        if m == "vit-b-16":
            a = "fused" if torch_major >= 2 else "eager"  # nn.MultiheadAttention's choice, not the probe's
        elif a == "fused" and not have_transformers:
            a = "eager"
        out.append((None, m, b, s, p, c, a, impl))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, metavar="DIR")
    ap.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    ap.add_argument("--budget-seconds", type=float, default=480.0, metavar="S",
                    help="start no run after this many seconds, less the slowest run so far (default 480)")
    ap.add_argument("--run-timeout", type=float, default=150.0, metavar="S", help="per run (default 150)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes and two models: checks the grid's logic")
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--dry-run", action="store_true", help="print the runs in order with their estimates; run none")
    ap.add_argument("--memory-history", action="store_true",
                    help="CUDA: each run also writes the caching allocator's record, <file>.pickle beside it "
                         "(headroom-probe --memory-history)")
    ap.add_argument("--grid", choices=("memory", "time", "finetune", "residuals"), default="memory",
                    help="memory: issue 9's grid (default); time: batch sweeps for the step-time model (issue 27); "
                         "finetune: LoRA, DoRA and (with bitsandbytes) QLoRA runs (issue 28); residuals: the measured runs whose memory is not "
                         "yet explained, with the allocator's record on CUDA (issue 28)")
    args = ap.parse_args(argv)

    import importlib.util
    import torch  # only for its version: the runs themselves are separate processes
    version = tuple(int("".join(ch for ch in part if ch.isdigit()) or 0) for part in torch.__version__.split(".")[:2])
    have_transformers = importlib.util.find_spec("transformers") is not None
    models = MODELS
    if args.smoke:
        models = [("gpt2", 1, 32, "transformer"), ("resnet50", 1, 64, "cnn")]
    if args.grid == "time":
        time_models = TIME_MODELS
        if args.smoke:
            time_models = [("gpt2", 32, "transformer", (1, 2, 4), 124e6, 6 * 124e6 * 32),
                           ("resnet50", 64, "cnn", (1, 2, 4), 25.6e6, 3 * 4.09e9 / 12)]
        planned = time_runs(time_models, args.device, args.steps, version[0], have_transformers)
    elif args.grid == "finetune":
        planned = finetune_runs(args.smoke, have_transformers, importlib.util.find_spec("bitsandbytes") is not None)
    elif args.grid == "residuals":
        planned = residual_runs(args.smoke, args.device, version[0], have_transformers)
        args.memory_history = args.device == "cuda"  # what these runs are for
    else:
        planned = [(None,) + r for r in runs(models, args.device, version, have_transformers)]
    if args.dry_run:
        total = 0.0
        for r in planned:
            file = name(*r[1:8], args.device, *r[8:])
            if r[0] is not None:
                fits = total + r[0] <= args.budget_seconds
                total += r[0] if fits else 0.0
                print("%7.1f s  %7.1f s  %s%s" % (r[0], total, file, "" if fits else "  (not started)"))
            else:
                print(file)
        return 0
    os.makedirs(args.out, exist_ok=True)
    start = time.monotonic()
    slowest = 0.0
    log = {"device": args.device, "torch": torch.__version__, "transformers": have_transformers,
           "budget_seconds": args.budget_seconds, "grid": args.grid,
           "ran": [], "failed": [], "not_started": []}
    off = []  # actual over estimated seconds of the finished runs
    for r in planned:
        estimate, model, batch, seq, precision, ckpt, attention, impl = r[:8]
        finetune = r[8] if len(r) > 8 else ()
        file = name(model, batch, seq, precision, ckpt, attention, impl, args.device, finetune)
        if args.smoke and len(log["ran"]) + len(log["failed"]) >= 6:
            log["not_started"].append(file)
            continue
        if estimate is None:
            expected = slowest
        else:  # the estimate, scaled by how far off the finished runs' were (the median, never below 1)
            expected = estimate * max(1.0, sorted(off)[len(off) // 2] if off else 1.0)
        if time.monotonic() - start + expected > args.budget_seconds:
            log["not_started"].append(file)
            continue
        cmd = [sys.executable, PROBE, "--model", model, "--batch", str(batch), "--seq", str(seq), "--precision",
               precision, "--checkpointing", ckpt, "--attention", attention, "--adamw-impl", impl, "--device",
               args.device, "--steps", str(args.steps), "--out", os.path.join(args.out, file)]
        if args.memory_history:
            cmd += ["--memory-history", os.path.join(args.out, file.replace(".headroom-measured.json", ".pickle"))]
        if finetune:
            cmd += ["--finetune", finetune[0], "--lora-rank", str(finetune[1]), "--lora-alpha", str(finetune[2]),
                    "--lora-targets", finetune[3]]
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.run_timeout)
            code, err = p.returncode, p.stderr[-2000:]
        except subprocess.TimeoutExpired:
            code, err = None, "timed out after %.0f s" % args.run_timeout
        seconds = time.monotonic() - t0
        slowest = max(slowest, seconds)
        entry = {"file": file, "seconds": round(seconds, 2)}
        if estimate is not None:
            entry["estimated_seconds"] = round(estimate, 2)
            if code == 0:
                off.append(seconds / estimate)
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
