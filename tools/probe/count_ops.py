#!/usr/bin/python3
"""count_ops.py: the ATen operators one eager training step issues, counted with the real code under a
TorchDispatchMode, per phase (forward with the loss, the recomputation of checkpointed blocks, backward, optimizer
with zero_grad), split into operators that launch a kernel on CUDA and view/metadata/allocation operators that do
not. Writes tests/data/opcounts/<model>.json (format: tests/data/opcounts/README.md); tests/tst_opcounts.cpp holds
the simulator's per-phase kernel counts to them.

    /usr/bin/python3 tools/probe/count_ops.py                 # every model, ~2 min on 2 CPUs (torch 1.13 CPU)
    /usr/bin/python3 tools/probe/count_ops.py --model gpt2 --out /tmp/opcounts

What runs: the hf_reference transcriptions (GPT-2, BERT-base, Llama 3.2 1B; their real layer counts at a tiny width,
since no operator count depends on the width) and torchvision's ResNet-50 and ViT-B/16 at their real sizes on small
images. Second of two steps counted (the first creates the optimizer state). Where the CPU would issue other
operators than CUDA, the CUDA path is taken, as said in the README: F.dropout -> native_dropout, and autocast's CUDA
casting rules applied by a TorchFunctionMode (CPU autocast in torch 1.13 casts other operators).
"""

import argparse
import collections
import json
import os
import sys

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_map

HERE = os.path.dirname(os.path.realpath(__file__))
# --device cuda runs the step on a GPU with CUDA's own dropout and autocast; --transformers builds transformers' own
# classes (through headroom-probe's builder) instead of the transcriptions, with --attention eager or fused (SDPA).
OPTS = {"device": "cpu", "transformers": False, "attention": "eager"}
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "hf_reference"))

# Operators that launch no kernel: views and metadata changes (their output aliases the input, or they only touch
# sizes and strides), allocations without initialisation, and autograd's bookkeeping. Everything else launches (at
# least) one kernel on CUDA.
NO_KERNEL = {
    "view", "_unsafe_view", "_reshape_alias", "reshape", "t", "transpose", "permute", "expand", "as_strided",
    "slice", "select", "unsqueeze", "squeeze", "split", "split_with_sizes", "unbind", "chunk", "narrow", "alias",
    "detach", "lift_fresh", "view_as_real", "view_as_complex", "diagonal", "unfold", "numpy_T", "_indices",
    "_values", "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "resize_", "set_",
    "is_same_size", "_to_copy_noop", "size", "stride", "sym_size", "sym_stride", "sym_numel", "result_type",
    "_record_function_enter", "_record_function_exit", "_record_function_enter_new",
}
# Operators that make the host wait for the device on CUDA (a device-to-host copy of a scalar).
SYNC = {"_local_scalar_dense", "item", "is_nonzero", "nonzero"}


def is_view(func):
    """A view by its schema: the first output aliases an input without writing it."""
    name = func.overloadpacket.__name__
    if name in NO_KERNEL:
        return True
    try:
        ret = func._schema.returns
        return bool(ret) and ret[0].alias_info is not None and not ret[0].alias_info.is_write
    except AttributeError:
        return False


class OpCounter(TorchDispatchMode):
    """Counts every ATen operator that reaches the backend (below autograd and autocast, so composite operators
    arrive decomposed, as CUDA receives them), by the phase set from outside."""

    def __init__(self):
        super().__init__()
        self.phase = None
        self.in_backward = False
        self.counts = collections.defaultdict(collections.Counter)
        self.views = collections.defaultdict(collections.Counter)
        self.host = collections.defaultdict(collections.Counter)
        self.syncs = collections.defaultdict(collections.Counter)
        self.sizes = collections.defaultdict(list)  # foreach operators: the tensor lists' element counts
        self.host_ptrs = set()  # tensors a CUDA run keeps on the host: the optimizer's step counters

    def _on_host(self, args, out):
        """Whether a CUDA run would run this operator on the host: every tensor it reads is a step counter, or it
        reads no tensor at all in the optimizer (record_function's handle, torch.zeros(1)). On a GPU: every tensor it
        reads is on the CPU, or, reading none, it made a CPU tensor."""
        tensors = []
        for a in args:
            if isinstance(a, torch.Tensor):
                tensors.append(a)
            elif isinstance(a, (list, tuple)):
                tensors += [t for t in a if isinstance(t, torch.Tensor)]
        if OPTS["device"] != "cpu":
            if tensors:
                return all(t.device.type == "cpu" for t in tensors)
            return isinstance(out, torch.Tensor) and out.device.type == "cpu"
        if not tensors:
            return self.phase == "optimizer"
        return all(t.data_ptr() in self.host_ptrs for t in tensors)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func.overloadpacket.__name__ == "detach" and args and not isinstance(args[0], torch.Tensor):
            # A Python number autograd wrapped as a 0-d tensor (`0.5 * x`) reaches this mode unwrapped in torch 1.13;
            # the checkpoint's recomputation detaches what it saves, this among them.
            out = torch.tensor(args[0], dtype=torch.float64 if isinstance(args[0], float) else torch.int64)
        else:
            out = func(*args, **kwargs)
        if self.phase is not None:
            name = "aten." + func.overloadpacket.__name__
            if is_view(func):
                self.views[self.phase][name] += 1
            elif self._on_host(args, out):
                self.host[self.phase][name] += 1
            elif func.overloadpacket.__name__ in SYNC:
                self.syncs[self.phase][name] += 1
            else:
                self.counts[self.phase][name] += 1
            if name.startswith("aten._foreach_") or name.startswith("aten._fused_"):
                lists = [a for a in args if isinstance(a, (list, tuple)) and a and isinstance(a[0], torch.Tensor)]
                self.sizes[self.phase].append((name, len(lists) + (0 if name.endswith("_") else 1),
                                               [t.numel() for t in lists[0]] if lists else [],
                                               any(isinstance(a, (list, tuple)) and a and not isinstance(
                                                   a[0], torch.Tensor) for a in args)))
        return out


# CUDA autocast's casting rules (aten/src/ATen/autocast_mode.cpp, KERNEL_CUDA lists, torch 1.13 to 2.x): matmuls
# and convolutions in the low-precision type, the fp32 list (pow, layer_norm, losses, exp, log, rsqrt, ...) in FP32,
# softmax and log_softmax with dtype=float32 (fp32_set_opt_dtype); every other operator in its inputs' type. Leaf
# tensors that require grad (weights) are cast once per forward, as cached_cast does.
LOWER = {F.linear, torch.matmul, torch.Tensor.matmul, torch.bmm, torch.mm, torch.addmm, torch.baddbmm, F.conv2d,
         torch.Tensor.__matmul__}
FP32 = {F.layer_norm, F.cross_entropy, F.nll_loss, torch.pow, torch.Tensor.pow, torch.rsqrt, torch.exp, torch.log,
        F.group_norm, torch.Tensor.rsqrt}
FP32_OUTPUT = {F.softmax, F.log_softmax, torch.softmax, torch.Tensor.softmax}


class CudaPath(TorchFunctionMode):
    """The CUDA code path on a CPU: F.dropout as native_dropout (what at::dropout calls on CUDA for 0 < p < 1; the
    CPU runs bernoulli_, div_ and mul instead), and, with a dtype, CUDA autocast's rules."""

    def __init__(self, dtype=None):
        super().__init__()
        self.dtype = dtype
        self.cache = {}
        self.depth = 0

    def _cast(self, x, dtype):
        if not isinstance(x, torch.Tensor) or not x.is_floating_point() or x.dtype == dtype:
            return x
        if x.is_leaf and x.requires_grad:
            if id(x) not in self.cache:
                self.cache[id(x)] = x.to(dtype)
            return self.cache[id(x)]
        return x.to(dtype)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if self.depth == 0:
            if func is F.dropout:
                x = args[0]
                p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
                train = kwargs.get("training", args[2] if len(args) > 2 else True)
                if train and 0.0 < p < 1.0 and x.numel() > 0:
                    self.depth += 1
                    try:
                        return torch.native_dropout(x, p, True)[0]
                    finally:
                        self.depth -= 1
            if self.dtype is not None:
                if func in LOWER:
                    args, kwargs = tree_map(lambda a: self._cast(a, self.dtype), (args, kwargs))
                elif func in FP32:
                    args, kwargs = tree_map(lambda a: self._cast(a, torch.float32), (args, kwargs))
                elif func in FP32_OUTPUT and kwargs.get("dtype") is None and args[0].dtype != torch.float32:
                    kwargs["dtype"] = torch.float32
        self.depth += 1
        try:
            return func(*args, **kwargs)
        finally:
            self.depth -= 1

    def new_step(self):
        self.cache = {}


# multi_tensor_apply (aten/src/ATen/native/cuda/MultiTensorApply.cuh, torch 2.x): a foreach operator launches a
# kernel whenever its chunk table is full: depth_to_max_tensors {110, 64, 48, 36, 30} (scalar lists: {96, 64, 48,
# 36, 30}), depth_to_max_blocks 320 blocks of kChunkSize 65536 elements, or at the last chunk.
MAX_TENSORS = (110, 64, 48, 36, 30)
MAX_TENSORS_SCALARLIST = (96, 64, 48, 36, 30)
CHUNK = 65536
MAX_BLOCKS = 320


def foreach_launches(numels, depth, scalar_list=False):
    depth = max(1, min(depth, 5))
    max_tensors = (MAX_TENSORS_SCALARLIST if scalar_list else MAX_TENSORS)[depth - 1]
    launches = tensors = blocks = 0
    numels = [n for n in numels if n > 0]
    for i, n in enumerate(numels):
        tensors += 1
        chunks = (n + CHUNK - 1) // CHUNK
        for c in range(chunks):
            blocks += 1
            last = c == chunks - 1
            if (tensors == max_tensors and last) or blocks == MAX_BLOCKS or (i == len(numels) - 1 and last):
                launches += 1
                blocks = 0
                tensors = 0 if last else 1
    return launches


# --- the models -----------------------------------------------------------------------------------------------------

TINY = dict(hidden=64, heads=4, ffn=256, vocab=512)


def transformer(name, real=False):
    """(model, inputs, layer list, source) of an hf_reference transcription with the preset's layer count."""
    import gpt2
    import llama
    # What the probe runs: model(input_ids, attention_mask, labels) without num_items_in_batch, so the loss is a
    # mean (transformers' ForCausalLMLoss with reduction "mean"), not the transcription's Trainer-style sum.
    gpt2.num_items = lambda labels: None
    llama.num_items = gpt2.num_items
    w = dict(hidden=768, heads=12, ffn=3072) if real else TINY
    if OPTS["transformers"]:
        return transformers_model(name, real)
    if name == "gpt2":
        cfg = gpt2.GPT2Config(vocab_size=50257 if real else TINY["vocab"], n_embd=w["hidden"], n_layer=12,
                              n_head=w["heads"], n_inner=w["ffn"])
        model, layers, mod = gpt2.build(cfg), "transformer.h", gpt2
    elif name == "bert-base":
        import bert
        cfg = bert.BertConfig(vocab_size=30522 if real else TINY["vocab"], hidden_size=w["hidden"],
                              num_hidden_layers=12, num_attention_heads=w["heads"], intermediate_size=w["ffn"])
        model, layers, mod = bert.build(cfg), "bert.encoder.layer", bert
    else:  # Llama 3.2 1B: 16 layers, 32 heads over 8 KV heads (n_rep 4), tied embeddings, no dropout
        if real:
            cfg = llama.LlamaConfig(vocab_size=128256, hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                                    num_attention_heads=32, num_key_value_heads=8, rope_theta=500000.0)
        else:
            cfg = llama.LlamaConfig(vocab_size=TINY["vocab"], hidden_size=64, intermediate_size=176,
                                    num_hidden_layers=16, num_attention_heads=8, num_key_value_heads=2,
                                    rope_theta=500000.0)
        model, layers, mod = llama.build(cfg), "model.layers", llama
        model.lm_head.weight = model.model.embed_tokens.weight
    return model, layers, "tools/hf_reference/%s (%s)" % (mod.__name__ + ".py", ", ".join(
        "%s @ %s" % kv for kv in mod.SOURCE.items()))


def transformers_model(name, real):
    """transformers' own class, built as headroom-probe builds it, from the preset at a tiny width (or its own)."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("headroom_probe", os.path.join(HERE, "headroom-probe"))
    spec = importlib.util.spec_from_loader("headroom_probe", loader)
    probe = importlib.util.module_from_spec(spec)
    loader.exec_module(probe)
    doc = probe.load_model_json(name)
    t = dict(doc["transformer"])
    if not real:
        heads = 8 if name.startswith("llama") else TINY["heads"]
        t.update(hidden=TINY["hidden"], heads=heads, vocab=TINY["vocab"], ffn=176 if heads == 8 else TINY["ffn"])
        if "kv_heads" in t:
            t["kv_heads"] = heads * t["kv_heads"] // doc["transformer"]["heads"]
    arch = probe.architecture(doc)
    model, source, version, prefix = probe.build_transformers(arch, t, OPTS["attention"])
    return model, prefix.rstrip("."), source


def batch(name, vocab, b=2, s=16):
    from common import make_batch
    ids, mask, labels = make_batch(vocab, b, s, mlm=name == "bert-base")
    return ids, mask, labels


def build(name, real=False):
    """-> model, forward(model) -> loss, block list or None, source"""
    if name in ("resnet50", "vit-b-16"):
        import torchvision
        torch.manual_seed(0)
        if name == "resnet50":
            model, side, blocks = torchvision.models.resnet50(weights=None), 64, None
        else:
            model, side, blocks = torchvision.models.vit_b_16(weights=None, image_size=32), 32, "encoder.layers"
        g = torch.Generator().manual_seed(0)
        images = torch.randn(2, 3, side, side, generator=g)
        labels = torch.randint(0, 1000, (2,), generator=g)
        images, labels = images.to(OPTS["device"]), labels.to(OPTS["device"])
        fwd = lambda m: F.cross_entropy(m(images), labels)  # noqa: E731
        return model, fwd, blocks, "torchvision %s (models.%s, weights=None)" % (
            torchvision.__version__, "resnet50" if name == "resnet50" else "vit_b_16")
    model, blocks, source = transformer(name, real)
    vocab = model.config.vocab_size
    ids, mask, labels = (x.to(OPTS["device"]) for x in batch(name, vocab))
    return model, (lambda m: m(ids, attention_mask=mask, labels=labels)[0]), blocks, source


def modules_at(model, path):
    m = model
    for part in path.split("."):
        m = getattr(m, part)
    return list(m)


def checkpoint_blocks(blocks, counter, dtype):
    """Non-reentrant checkpointing around each block (transformers' gradient_checkpointing_enable with
    use_reentrant=False); the recomputation, which runs inside backward, is counted as its own phase. It runs under
    the forward's autocast state, as torch.utils.checkpoint restores it, in a fresh autocast context (so the weights
    are cast again)."""
    import torch.utils.checkpoint as cp
    for block in blocks:
        inner = block.forward

        def run(*a, _inner=inner, _kw=None):
            if counter.in_backward:
                saved, counter.phase = counter.phase, "recompute" if counter.phase else None
                try:
                    with CudaPath(dtype if OPTS["device"] == "cpu" else None):
                        return _inner(*a, **(_kw or {}))
                finally:
                    counter.phase = saved
            return _inner(*a, **(_kw or {}))

        def forward(*args, _run=run, **kwargs):
            return cp.checkpoint(lambda *a: _run(*a, _kw=kwargs), *args, use_reentrant=False)
        block.forward = forward


def count(name, precision, impl, checkpointing=False, cpu_autocast=False):
    model, fwd, blocks, source = build(name)
    model = model.to(OPTS["device"]).train()
    cuda = OPTS["device"] != "cpu"
    counter = OpCounter()
    dtype = torch.bfloat16 if precision == "bf16" else None
    if checkpointing:
        checkpoint_blocks(modules_at(model, blocks), counter, dtype)
    if impl == "fused":
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    else:
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=(impl == "foreach"))
    # On a GPU CUDA's own autocast runs (and checkpoint restores it for the recomputation).
    path = CudaPath(None if cpu_autocast or cuda else dtype)
    for step in range(2):
        measured = step == 1
        path.new_step()
        with counter:
            counter.phase = "forward" if measured else None
            with path, torch.autocast(OPTS["device"], dtype=torch.bfloat16, enabled=cpu_autocast or (
                    cuda and dtype is not None)):
                loss = fwd(model)
            counter.phase = "backward" if measured else None
            counter.in_backward = True
            loss.backward()
            counter.in_backward = False
            counter.phase = "optimizer" if measured else None
            opt.step()
            opt.zero_grad(set_to_none=True)
            counter.phase = None
        counter.host_ptrs = {st["step"].data_ptr() for st in opt.state.values() if "step" in st}
    phases = {}
    for phase in ("forward", "recompute", "backward", "optimizer"):
        if phase == "recompute" and not checkpointing:
            continue
        k, v, h, y = counter.counts[phase], counter.views[phase], counter.host[phase], counter.syncs[phase]
        phases[phase] = {"kernel_ops": sum(k.values()), "view_ops": sum(v.values()), "host_ops": sum(h.values()),
                         "sync_ops": sum(y.values()), "ops": dict(sorted(k.items())), "views": dict(sorted(v.items())),
                         "host": dict(sorted(h.items())), "syncs": dict(sorted(y.items()))}
    foreach = counter.sizes["optimizer"]
    return phases, foreach, source, sum(1 for p in model.parameters() if p.requires_grad)


def cuda_optimizer_launches(name, impl):
    """Kernel launches of the optimizer step on CUDA in torch 2.x for the model at its real size: for-loop, 8 per
    parameter tensor; foreach, the 8 foreach operators of _multi_tensor_adam each chunked by multi_tensor_apply; fused,
    _foreach_add_ of the device step counters plus one _fused_adamw_ (depth 4) per device and dtype."""
    if name in ("resnet50", "vit-b-16"):
        model = build(name)[0]
    else:
        model = transformer(name, real=True)[0]
    numels = [p.numel() for p in model.parameters() if p.requires_grad]
    del model
    if impl == "for-loop":
        return 8 * len(numels)
    if impl == "fused":
        return foreach_launches([1] * len(numels), 1) + foreach_launches(numels, 4)
    # torch/optim/adam.py _multi_tensor_adam, non-capturable (CPU step counters: _foreach_add_ runs on the host):
    # _foreach_mul_(params) [decoupled weight decay], _foreach_lerp_(m, g), _foreach_mul_(v), _foreach_addcmul_(v, g, g),
    # _foreach_sqrt(v), _foreach_div_(sqrt, scalar list), _foreach_add_(sqrt, eps), _foreach_addcdiv_(p, m, denom,
    # scalar list).
    return (foreach_launches(numels, 1) + foreach_launches(numels, 2) + foreach_launches(numels, 1)
            + foreach_launches(numels, 3) + foreach_launches(numels, 2) + foreach_launches(numels, 1, True)
            + foreach_launches(numels, 1) + foreach_launches(numels, 3, True))


MODELS = ("gpt2", "bert-base", "llama-3.2-1b", "resnet50", "vit-b-16")


def run_model(name):
    doc = {"model": name, "torch": torch.__version__, "device": OPTS["device"], "runs": []}
    if OPTS["device"] != "cpu":
        doc["device_name"] = torch.cuda.get_device_name()
    if OPTS["transformers"]:
        import transformers
        doc["transformers"] = transformers.__version__
        doc["attention"] = OPTS["attention"]
    configs = [("fp32", "foreach", False), ("fp32", "for-loop", False), ("bf16", "foreach", False)]
    if OPTS["device"] != "cpu":
        configs.append(("bf16", "fused", False))
    if name == "gpt2":
        configs += [("fp32", "foreach", True), ("bf16", "foreach", True)]
    for precision, impl, ckpt in configs:
        phases, foreach, source, tensors = count(name, precision, impl, ckpt)
        doc["source"] = source
        doc["parameter_tensors"] = tensors
        doc["runs"].append({"precision": precision, "adamw_impl": impl, "checkpointing": "full" if ckpt else "none",
                            "phases": phases})
        # What torch 1.13's own CPU autocast issues instead.
        if precision == "bf16" and not ckpt and OPTS["device"] == "cpu" and impl == "foreach":
            try:
                cpu = count(name, precision, impl, False, cpu_autocast=True)[0]
                doc["bf16_cpu_autocast"] = {p: {"kernel_ops": v["kernel_ops"], "to_copy": v["ops"].get(
                    "aten._to_copy", 0)} for p, v in cpu.items()}
            except RuntimeError as e:
                doc["bf16_cpu_autocast"] = {"error": str(e).splitlines()[0]}
        print("%-13s %-4s %-8s %-4s " % (name, precision, impl, "ckpt" if ckpt else "")
              + " ".join("%s %d+%d+%d+%d" % (p, v["kernel_ops"], v["view_ops"], v["host_ops"], v["sync_ops"])
                         for p, v in phases.items()), flush=True)
    if OPTS["device"] == "cpu" and not OPTS["transformers"]:
        doc["cuda_optimizer_launches_torch2"] = {impl: cuda_optimizer_launches(name, impl)
                                                 for impl in ("foreach", "for-loop", "fused")}
    return doc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", choices=MODELS, action="append")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "opcounts"))
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--transformers", action="store_true", help="transformers' own classes (needs transformers)")
    ap.add_argument("--attention", choices=("eager", "fused"), default="eager", help="with --transformers")
    args = ap.parse_args(argv)
    OPTS.update(device=args.device, transformers=args.transformers, attention=args.attention)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    os.makedirs(args.out, exist_ok=True)
    for name in args.model or MODELS:
        doc = run_model(name)
        with open(os.path.join(args.out, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
