#!/usr/bin/env python3
"""Measure the bytes autograd saves for backward in ONE training forward pass (loss included) of
operator-faithful re-implementations of HF BertForMaskedLM, GPT2LMHeadModel, LlamaForCausalLM and a
Korthikanti-style GPT layer, with real PyTorch (CPU). See README.md for definitions.

Usage:  /usr/bin/python3 tools/hf_reference/measure.py [--quick] [--out results.json]
"""

import argparse
import dataclasses
import json
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bert  # noqa: E402
import gpt2  # noqa: E402
import korthikanti  # noqa: E402
import llama  # noqa: E402
from common import SavedMeter, decompose, make_batch  # noqa: E402

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


def model_spec(name, n_layers=None, **over):
    """-> (module, config, build fn, layer prefix, dims dict, mlm flag)"""
    if name == "bert":
        cfg = bert.BertConfig(**over)
        if n_layers is not None:
            cfg.num_hidden_layers = n_layers
        dims = dict(h=cfg.hidden_size, a=cfg.num_attention_heads, inter=cfg.intermediate_size,
                    vocab=cfg.vocab_size, L=cfg.num_hidden_layers)
        return bert, cfg, "bert.encoder.layer.", dims, True
    if name in ("gpt2", "gpt2-legacy-loss"):
        cfg = gpt2.GPT2Config(loss="legacy" if name == "gpt2-legacy-loss" else "new", **over)
        if n_layers is not None:
            cfg.n_layer = n_layers
        dims = dict(h=cfg.n_embd, a=cfg.n_head, inter=cfg.n_inner or 4 * cfg.n_embd,
                    vocab=cfg.vocab_size, L=cfg.n_layer)
        return gpt2, cfg, "transformer.h.", dims, False
    if name == "llama":
        cfg = llama.LlamaConfig(**over)
        if n_layers is not None:
            cfg.num_hidden_layers = n_layers
        dims = dict(h=cfg.hidden_size, a=cfg.num_attention_heads, inter=cfg.intermediate_size,
                    vocab=cfg.vocab_size, L=cfg.num_hidden_layers, kv=cfg.num_key_value_heads)
        return llama, cfg, "model.layers.", dims, False
    raise ValueError(name)


def run_once(name, dtype, b, s, n_layers=None, keep_records=False):
    mod, cfg, prefix, dims, mlm = model_spec(name, n_layers)
    model = mod.build(cfg).to(DTYPES[dtype]).train()
    input_ids, attention_mask, labels = make_batch(dims["vocab"], b, s, mlm=mlm)
    meter = SavedMeter(model, [input_ids, attention_mask, labels], prefix)
    t0 = time.time()
    with meter.recording():
        loss, _logits = model(input_ids, attention_mask=attention_mask, labels=labels)
    elapsed = time.time() - t0
    total, buf = meter.totals()
    walk_total, per_node, walk_ptrs = meter.graph_walk(loss)
    counted = meter.counted()
    regions = meter.by_region()
    act_records = {p: r for p, r in counted.items() if r["cat"] == "activation"}
    t113 = meter.torch113_only_ptrs() & set(act_records)
    gpu_eq = meter.gpu_equiv_bytes(act_records)
    res = dict(
        model=name,
        config=dataclasses.asdict(cfg),
        dims=dims,
        dtype=dtype,
        batch=b,
        seq=s,
        n_layers=dims["L"],
        total_saved_bytes=total,
        buffer_bytes=buf,
        activation_bytes=total - buf,
        gpu_equiv_activation_bytes=gpu_eq,
        mean_self_bytes_torch113_only=sum(act_records[p]["nbytes"] for p in t113),
        gpu_equiv_torch2_activation_bytes=gpu_eq - sum(act_records[p]["nbytes"] for p in t113),
        wrapped_scalar_bytes_host=sum(r["nbytes"] for r in act_records.values() if r["kind"] == "wrapped_scalar"),
        dropout_mask_bytes_cpu=sum(r["nbytes"] for r in act_records.values() if r["kind"] == "dropout_mask"),
        ln_stat_bytes_cpu=sum(r["nbytes"] for r in act_records.values() if r["kind"] == "ln_stat"),
        graph_walk_total_bytes=walk_total,
        methods_agree=(walk_total == total and walk_ptrs == set(counted)),
        n_saved_storages=len(counted),
        per_node_bytes=per_node,
        per_region_bytes={k: dict(bytes=v["bytes"], gpu_equiv_bytes=v["gpu_equiv_bytes"]) for k, v in regions.items()},
        loss=float(loss),
        forward_seconds=round(elapsed, 2),
        torch_version=torch.__version__,
        transcription_source=dict(repo="huggingface/transformers", files=mod.SOURCE),
    )
    # one interior layer (index 1), attributed by module
    if "layer1" in regions:
        lay = regions["layer1"]
        res["layer1_bytes"] = lay["bytes"]
        res["layer1_gpu_equiv_bytes"] = lay["gpu_equiv_bytes"]
        res["layer1_decomposition"] = decompose(lay["records"], b, s, dims["h"], dims["a"], dims["inter"], dims["vocab"])
        lay2 = {p: r for p, r in lay["records"].items() if p not in t113}
        res["layer1_gpu_equiv_torch2_bytes"] = meter.gpu_equiv_bytes(lay2)
        res["layer1_decomposition_torch2"] = {k: v for k, v in decompose(
            lay2, b, s, dims["h"], dims["a"], dims["inter"], dims["vocab"]).items() if k.startswith("gpu_")}
        res["layer1_storages"] = sorted(
            [dict(module=r["module"], shape=list(r["shape"]), dtype=r["dtype"], bytes=r["nbytes"],
                  kind=("mean_self_torch113_only" if p in t113 else r["kind"]))
             for p, r in lay["records"].items()], key=lambda d: d["module"])
    non_layer = {p: r for p, r in act_records.items() if not r["region"].startswith("layer")}
    res["non_layer_bytes"] = sum(r["nbytes"] for r in non_layer.values())
    res["non_layer_decomposition"] = decompose(non_layer, b, s, dims["h"], dims["a"], dims["inter"], dims["vocab"])
    if keep_records:
        res["_records"] = counted
    return res


def run_korthikanti(b=2, s=128, h=256, a=8):
    out = {}
    for nl in (1, 2, 3):
        cfg = korthikanti.KConfig(hidden_size=h, num_heads=a, num_layers=nl, max_seq=s)
        model = korthikanti.build(cfg).to(torch.bfloat16).train()
        x = torch.randn(b, s, h, dtype=torch.bfloat16)
        meter = SavedMeter(model, [x], "layers.")
        with meter.recording():
            loss = model(x)
        total, buf = meter.totals()
        walk_total, per_node, walk_ptrs = meter.graph_walk(loss)
        regions = meter.by_region()
        out[nl] = dict(total=total, buffer=buf, act=total - buf, walk=walk_total,
                       agree=(walk_total == total and walk_ptrs == set(meter.counted())),
                       per_node=per_node, regions=regions)
    lay = out[2]["regions"]["layer1"]
    diff = out[3]["act"] - out[2]["act"]
    paper = s * b * h * (34 + 5 * a * s / h)
    recs = lay["records"]
    res = dict(
        model="korthikanti_gpt_layer", dtype="bf16", batch=b, seq=s, hidden=h, heads=a,
        layer_bytes_by_module=lay["bytes"],
        layer_bytes_by_difference_3_minus_2_layers=diff,
        layer_gpu_equiv_bytes=lay["gpu_equiv_bytes"],
        paper_sbh_34_plus_5as_over_h=paper,
        dropout_mask_bytes_cpu=sum(r["nbytes"] for r in recs.values() if r["kind"] == "dropout_mask"),
        dropout_mask_elements=sum(r["numel"] for r in recs.values() if r["kind"] == "dropout_mask"),
        ln_stat_bytes_cpu=sum(r["nbytes"] for r in recs.values() if r["kind"] == "ln_stat"),
        ln_stat_elements=sum(r["numel"] for r in recs.values() if r["kind"] == "ln_stat"),
        decomposition=decompose(recs, b, s, h, a, 4 * h, None),
        storages=sorted([dict(module=r["module"], shape=list(r["shape"]), dtype=r["dtype"], bytes=r["nbytes"],
                              kind=r["kind"]) for r in recs.values()], key=lambda d: d["module"]),
        methods_agree=all(v["agree"] for v in out.values()),
        per_node_bytes_2layers=out[2]["per_node"],
        buffer_bytes=out[2]["buffer"],
        torch_version=torch.__version__,
    )
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "results.json"))
    ap.add_argument("--quick", action="store_true", help="B=1, smallest seq only")
    ap.add_argument("--models", default="bert,gpt2,gpt2-legacy-loss,llama")
    args = ap.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))

    grid = {"bert": (128, 256), "gpt2": (128, 256), "gpt2-legacy-loss": (128, 256), "llama": (64, 128)}
    runs, layer_diff = [], []
    for name in args.models.split(","):
        for dtype in DTYPES:
            for s in grid[name][:1] if args.quick else grid[name]:
                for b in (1,) if args.quick else (1, 2):
                    r = run_once(name, dtype, b, s)
                    # per-layer by difference: 2 layers minus 1 layer (activation bytes)
                    if name != "gpt2-legacy-loss":
                        r2 = run_once(name, dtype, b, s, n_layers=2)
                        r1 = run_once(name, dtype, b, s, n_layers=1)
                        r["layer_bytes_by_difference_2_minus_1"] = r2["activation_bytes"] - r1["activation_bytes"]
                        r["layer_gpu_equiv_bytes_by_difference_2_minus_1"] = (
                            r2["gpu_equiv_activation_bytes"] - r1["gpu_equiv_activation_bytes"])
                        r["layer_gpu_equiv_torch2_bytes_by_difference_2_minus_1"] = (
                            r2["gpu_equiv_torch2_activation_bytes"] - r1["gpu_equiv_torch2_activation_bytes"])
                    runs.append(r)
                    print("%-17s %-4s b=%d s=%-4d total=%12d act=%12d buf=%9d gpu_eq=%12d layer=%10s walk_ok=%s  %.1fs"
                          % (name, dtype, b, s, r["total_saved_bytes"], r["activation_bytes"], r["buffer_bytes"],
                             r["gpu_equiv_activation_bytes"], r.get("layer1_bytes"), r["methods_agree"],
                             r["forward_seconds"]), flush=True)
    # per-sample slopes
    slopes = []
    for r2 in runs:
        if r2["batch"] != 2:
            continue
        r1 = [r for r in runs if r["model"] == r2["model"] and r["dtype"] == r2["dtype"]
              and r["seq"] == r2["seq"] and r["batch"] == 1]
        if r1:
            r1 = r1[0]
            slopes.append(dict(model=r2["model"], dtype=r2["dtype"], seq=r2["seq"],
                               slope_total_bytes=r2["total_saved_bytes"] - r1["total_saved_bytes"],
                               slope_activation_bytes=r2["activation_bytes"] - r1["activation_bytes"],
                               slope_gpu_equiv_bytes=r2["gpu_equiv_activation_bytes"] - r1["gpu_equiv_activation_bytes"],
                               slope_gpu_equiv_torch2_bytes=(r2["gpu_equiv_torch2_activation_bytes"]
                                                             - r1["gpu_equiv_torch2_activation_bytes"]),
                               intercept_activation_bytes=2 * r1["activation_bytes"] - r2["activation_bytes"]))
    k = None if args.quick else run_korthikanti()
    doc = dict(
        description="Bytes autograd saves for backward in one train-mode forward pass (loss included), "
                    "measured with saved_tensors_hooks (storage-deduplicated) and cross-checked by walking "
                    "grad_fn._saved_*; parameters and the input batch excluded; module buffers counted in "
                    "total_saved_bytes but split out as buffer_bytes. CPU, pure dtype (model.to(dtype)), "
                    "no autocast. gpu_equiv_* recount CPU dropout noise (input dtype) as CUDA bool masks "
                    "(1 B/elem) and LayerNorm mean/rstd at FP32 (4 B/row each).",
        torch_version=torch.__version__,
        runs=runs,
        per_sample_slopes=slopes,
        korthikanti=k,
    )
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1, default=str)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
