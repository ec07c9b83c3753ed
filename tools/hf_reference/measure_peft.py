#!/usr/bin/env python3
"""Saved-for-backward bytes of fine-tuned (LoRA, frozen) reference models, measured like measure.py: one train-mode
forward pass with the loss, CPU, torch 1.13, pure dtype (model.to(dtype)), eager attention. Adapters and
freezing are applied as PEFT applies them (lora.py).

Usage:  /usr/bin/python3 tools/hf_reference/measure_peft.py [--out peft_results.json]   (~2 min on 2 CPUs)
"""

import argparse
import json
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lora  # noqa: E402
from common import SavedMeter, make_batch  # noqa: E402
from measure import DTYPES, model_spec  # noqa: E402

# (model, finetune, targets, rank, alpha, dropout); targets None = PEFT's default for the architecture.
CASES = [
    ("llama", "lora", ["q_proj", "v_proj"], 8, 16, 0.0),
    ("llama", "lora", "all-linear", 16, 32, 0.0),
    ("llama", "lora", ["q_proj", "v_proj"], 8, 16, 0.1),
    ("llama", "freeze", None, 0, 0, 0.0),
    ("bert", "lora", ["query", "value"], 8, 8, 0.1),
    ("bert", "lora", "all-linear", 8, 8, 0.0),
    ("bert-seq-cls", "lora", ["query", "value"], 8, 8, 0.1),
]
SEQ = {"llama": 64, "bert": 128, "bert-seq-cls": 128}
NUM_LABELS = 3
ONLY = [m for m in os.environ.get("PEFT_ONLY", "").split(",") if m]
HEAD = {"llama": ["lm_head.", "model.norm."], "bert": ["cls."]}


def run(name, finetune, targets, r, alpha, dropout, dtype, b):
    seq_cls = name == "bert-seq-cls"
    mod, cfg, prefix, dims, mlm = model_spec("bert" if seq_cls else name)
    if seq_cls:
        model = mod.build(cfg, task="seq-cls", num_labels=NUM_LABELS).to(DTYPES[dtype]).train()
    else:
        model = mod.build(cfg).to(DTYPES[dtype]).train()
    adapted = []
    if finetune == "lora":
        adapted = lora.apply_lora(model, targets, r=r, alpha=alpha, dropout=dropout)
        if seq_cls:
            lora.modules_to_save(model, ["classifier"])
    else:
        lora.freeze_all_but_head(model, HEAD[name])
    s = SEQ[name]
    input_ids, attention_mask, labels = make_batch(dims["vocab"], b, s, mlm=mlm)
    if seq_cls:
        labels = torch.arange(b) % NUM_LABELS
    meter = SavedMeter(model, [input_ids, attention_mask, labels], prefix)
    t0 = time.time()
    with meter.recording():
        loss, _ = model(input_ids, attention_mask=attention_mask, labels=labels)
    total, buf = meter.totals()
    walk_total, per_node, walk_ptrs = meter.graph_walk(loss)
    counted = meter.counted()
    act = {p: rec for p, rec in counted.items() if rec["cat"] == "activation"}
    t113 = meter.torch113_only_ptrs() & set(act)
    return dict(
        model=name, config=cfg.__dict__, dtype=dtype, batch=b, seq=s,
        num_labels=NUM_LABELS if seq_cls else None,
        finetune=finetune, lora_targets=targets, lora_rank=r, lora_alpha=alpha, lora_dropout=dropout,
        adapted_modules=adapted,
        trainable_parameters=lora.trainable_parameters(model),
        total_parameters=sum(p.numel() for p in model.parameters()),
        total_saved_bytes=total, buffer_bytes=buf, activation_bytes=total - buf,
        gpu_equiv_activation_bytes=meter.gpu_equiv_bytes(act),
        mean_self_bytes_torch113_only=sum(act[p]["nbytes"] for p in t113),
        wrapped_scalar_bytes_host=sum(rec["nbytes"] for rec in act.values() if rec["kind"] == "wrapped_scalar"),
        dropout_mask_bytes_cpu=sum(rec["nbytes"] for rec in act.values() if rec["kind"] == "dropout_mask"),
        methods_agree=(walk_total == total and walk_ptrs == set(counted)),
        per_node_bytes=per_node, forward_seconds=round(time.time() - t0, 2), torch_version=torch.__version__,
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "peft_results.json"))
    args = ap.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    runs = []
    cases = [c for c in CASES if not ONLY or c[0] in ONLY]
    for case in cases:
        for dtype in DTYPES:
            for b in (1, 2):
                res = run(*case, dtype, b)
                runs.append(res)
                print("%-6s %-6s %-24s r=%-2d p=%.1f %-4s b=%d act=%10d trainable=%8d agree=%s %.1fs" % (
                    res["model"], res["finetune"], str(res["lora_targets"])[:24], res["lora_rank"],
                    res["lora_dropout"], dtype, b, res["activation_bytes"], res["trainable_parameters"],
                    res["methods_agree"], res["forward_seconds"]), flush=True)
    doc = dict(
        description="Bytes autograd saves for backward in one train-mode forward pass of reference models with "
                    "PEFT LoRA adapters or frozen layers (tools/hf_reference/lora.py), counted as in results.json: "
                    "storage-deduplicated saved_tensors_hooks, cross-checked by a grad_fn walk; parameters, "
                    "buffers and the input batch excluded. CPU, pure dtype, eager attention.",
        torch_version=torch.__version__, lora_source=lora.SOURCE, runs=runs)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1, default=str)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
