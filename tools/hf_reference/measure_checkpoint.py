#!/usr/bin/env python3
"""What one training forward pass of BertForMaskedLM keeps for backward with and without non-reentrant activation
checkpointing around each BertLayer (HF `gradient_checkpointing_enable(gradient_checkpointing_kwargs=
{"use_reentrant": False})`), in FP32, pure BF16 and BF16 autocast with CUDA's casting rules, on the CPU.

Two parts, measured separately:
* `saved_outside_bytes`: what autograd saves outside the checkpointed layers, by the pack-hook meter of common.py
  (inside a checkpointed layer torch.utils.checkpoint installs its own hooks, so the meter sees nothing there),
  recounted as CUDA stores it (`gpu_equiv`: bool dropout masks, FP32 LayerNorm statistics).
* `held_by_checkpoint_bytes`: storages still alive when the forward pass returns that no pack hook saw and that are
  neither parameters, buffers, the input batch, autocast's weight casts nor the loss. Every tensor an operator
  creates is tracked through a weak reference (TorchFunctionMode); what is still alive is held by the autograd
  graph's checkpoint nodes: the arguments they keep for recomputation.

CUDA autocast on the CPU: torch 1.13's CPU autocast runs layer_norm in BF16 and fails on BERT (FP32 weights), so its
rules are applied by a TorchFunctionMode instead, as aten/src/ATen/autocast_mode.cpp does for CUDA: linear and
matmul in the low-precision type (leaf weights cast once and cached, as cached_cast does), layer_norm and nll_loss
in FP32 (so cross_entropy's 16-bit log-probabilities are cast for nll_loss, and both are saved), softmax with
dtype=float32; every other operator runs in the type of its inputs.

Usage: /usr/bin/python3 tools/hf_reference/measure_checkpoint.py [--out checkpoint_results.json]   (~2 min)
"""

import argparse
import json
import os
import sys
import weakref

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_map
from torch.utils.checkpoint import checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bert  # noqa: E402
from common import SavedMeter, make_batch, storage_key  # noqa: E402

LOWER_PRECISION = {F.linear, torch.matmul, torch.Tensor.matmul, torch.bmm, torch.mm, torch.addmm, torch.baddbmm}
FP32 = {F.layer_norm, F.nll_loss}
FP32_OUTPUT = {F.softmax, F.log_softmax}


class ForwardMode(TorchFunctionMode):
    """Applies CUDA autocast's casting rules when `dtype` is given, and keeps a weak reference to every tensor a
    torch function returns (what C++ creates inside an operator, the meter sees where it is saved)."""

    def __init__(self, dtype=None):
        super().__init__()
        self.dtype = dtype
        self.cache = {}
        self.cast_ptrs = set()
        self.depth = 0
        self.refs = []

    def _cast(self, x, dtype):
        if not isinstance(x, torch.Tensor) or not x.is_floating_point() or x.dtype == dtype:
            return x
        if x.is_leaf and x.requires_grad:  # cached_cast: a leaf that requires grad (a weight) is cast once
            if id(x) not in self.cache:
                self.cache[id(x)] = x.to(dtype)
                self.cast_ptrs.add(storage_key(self.cache[id(x)])[0])
            return self.cache[id(x)]
        return x.to(dtype)

    def _cross_entropy(self, x, target, kwargs):
        # CUDA autocast has no entry for cross_entropy_loss (aten/src/ATen/autocast_mode.h lists nll_loss, not it):
        # it runs nll_loss(log_softmax(x, 1, dtype=x.dtype)) (aten/src/ATen/native/LossNLL.cpp), so log_softmax keeps
        # 16-bit scores 16-bit, and nll_loss, on the FP32 list, casts the log-probabilities to FP32.
        assert not kwargs.get("label_smoothing"), "label smoothing is not emulated"
        rest = {k: v for k, v in kwargs.items() if k in ("weight", "ignore_index", "reduction")}
        self.depth += 1
        try:
            log_probs = torch.log_softmax(x, 1, dtype=x.dtype)
            out = F.nll_loss(log_probs.float(), target, **rest)
        finally:
            self.depth -= 1
        self.refs += [weakref.ref(log_probs), weakref.ref(out)]
        return out

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if self.depth == 0 and self.dtype is not None and func is F.cross_entropy and args[0].dtype != torch.float32:
            return self._cross_entropy(args[0], args[1], kwargs)
        if self.depth == 0 and self.dtype is not None:  # only the outermost call: F.softmax calls Tensor.softmax
            if func in LOWER_PRECISION:
                args, kwargs = tree_map(lambda a: self._cast(a, self.dtype), (args, kwargs))
            elif func in FP32:
                args, kwargs = tree_map(lambda a: self._cast(a, torch.float32), (args, kwargs))
            elif func in FP32_OUTPUT and kwargs.get("dtype") is None and args[0].dtype != torch.float32:
                kwargs["dtype"] = torch.float32
        self.depth += 1
        try:
            out = func(*args, **kwargs)
        finally:
            self.depth -= 1
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor):
                self.refs.append(weakref.ref(t))
        return out

    def alive(self):
        storages = {}
        for r in self.refs:
            t = r()
            if t is not None:
                ptr, nbytes = storage_key(t)
                storages[ptr] = dict(nbytes=nbytes, dtype=str(t.dtype).replace("torch.", ""), shape=list(t.shape))
        return storages


def checkpointed_encoder_forward(encoder):
    def forward(hidden_states, attention_mask=None):
        for layer_module in encoder.layer:
            hidden_states = checkpoint(layer_module, hidden_states, attention_mask, None, use_reentrant=False)
        return hidden_states

    return forward


def run(precision, checkpointing, b, s):
    torch.manual_seed(0)
    cfg = bert.BertConfig()
    model = bert.build(cfg).train()
    if precision == "bf16":
        model = model.to(torch.bfloat16)
    if checkpointing == "full":
        model.bert.encoder.forward = checkpointed_encoder_forward(model.bert.encoder)
    input_ids, attention_mask, labels = make_batch(cfg.vocab_size, b, s, mlm=True)
    meter = SavedMeter(model, [input_ids, attention_mask, labels], "bert.encoder.layer.")
    mode = ForwardMode(torch.bfloat16 if precision == "bf16-autocast" else None)
    with meter.recording(), mode:
        loss, logits = model(input_ids, attention_mask=attention_mask, labels=labels)
    del logits
    counted = meter.counted()
    activations = {p: r for p, r in counted.items() if r["cat"] == "activation"}
    casts = mode.cast_ptrs
    weight_casts = {p: r for p, r in activations.items() if p in casts}
    saved = {p: r for p, r in activations.items() if p not in casts}
    excluded = meter.param_ptrs | meter.input_ptrs | meter.buffer_ptrs | set(counted) | casts
    excluded.add(storage_key(loss)[0])
    held = {p: r for p, r in mode.alive().items() if p not in excluded}
    sbh = s * b * cfg.hidden_size
    return dict(
        model="bert",
        precision=precision,
        checkpointing=checkpointing,
        batch=b,
        seq=s,
        layers=cfg.num_hidden_layers,
        saved_outside_bytes=sum(r["nbytes"] for r in saved.values()),
        saved_outside_gpu_equiv_bytes=meter.gpu_equiv_bytes(saved),
        wrapped_scalar_bytes_host=sum(r["nbytes"] for r in saved.values() if r["kind"] == "wrapped_scalar"),
        weight_cast_bytes=sum(r["nbytes"] for r in weight_casts.values()),
        held_by_checkpoint_bytes=sum(r["nbytes"] for r in held.values()),
        held_by_checkpoint=sorted(held.values(), key=lambda r: -r["nbytes"])[:4],
        held_in_sbh_per_layer=sum(r["nbytes"] for r in held.values()) / (sbh * cfg.num_hidden_layers),
        loss=float(loss),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "checkpoint_results.json"))
    args = ap.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    runs = []
    for precision in ("fp32", "bf16", "bf16-autocast"):
        for checkpointing in ("none", "full"):
            for b, s in ((1, 128), (2, 128), (1, 256)):
                r = run(precision, checkpointing, b, s)
                runs.append(r)
                print("%-13s %-4s b=%d s=%-4d saved=%11d gpu_eq=%11d held=%10d (%.2f sbh/layer) casts=%10d"
                      % (precision, checkpointing, b, s, r["saved_outside_bytes"], r["saved_outside_gpu_equiv_bytes"],
                         r["held_by_checkpoint_bytes"], r["held_in_sbh_per_layer"], r["weight_cast_bytes"]),
                      flush=True)
    doc = dict(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        torch_version=torch.__version__,
        transcription_source=dict(repo="huggingface/transformers", files=bert.SOURCE),
        runs=runs,
    )
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
