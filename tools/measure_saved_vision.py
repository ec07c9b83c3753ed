#!/usr/bin/python3
"""Measure what PyTorch autograd really saves for torchvision vision models (dev tool, not part of the build).

For resnet50, mobilenet_v2, efficientnet_b0 and vit_b_16 (torchvision constructors with default arguments),
model.train(), CPU, FP32, one forward pass plus cross-entropy loss:

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        logits = model(x); loss = F.cross_entropy(logits, labels)

and counts the bytes of the tensors autograd saved for backward, two independent ways:

  pack   every tensor handed to the pack hook, deduplicated by the data_ptr of its storage, each storage counted
         once at its full nbytes;
  graph  a walk of the autograd graph from loss.grad_fn through next_functions, reading every node's `_saved_*`
         attributes (tensors or lists of tensors), deduplicated the same way; the bytes of each storage go to the
         node that saved it first in forward order (the pack order), which gives the per-node-type breakdown.

Not counted (reported separately): parameters (and anything sharing storage with one), module buffers
(BatchNorm running_mean / running_var, which native_batch_norm saves), and the input image batch. The labels
that nll_loss saves are counted and also reported as labels_bytes (8 bytes per sample).

Also runs small probes of single operators for the questions that decide how Headroom models them (in-place
SiLU, in-place add, adaptive average pooling to 1x1, dropout, in-place dropout, max pooling indices, stochastic
depth, ReLU6), lists every tensor one vit_b_16 encoder layer saves, and replays the three CNN presets in
resources/models (written by tools/export_torchvision.py) with the per-operator rules the probes show, to check
that layer list plus rules reproduce the measured bytes.

Writes tools/torch_reference_vision.json. Usage: /usr/bin/python3 tools/measure_saved_vision.py [--quick]
Note: this is CPU autograd. On CUDA, F.dropout (not in place) goes through native_dropout and saves a bool mask
instead of the FP32 noise tensor the CPU path saves; everything else measured here is device independent in
torch 1.13 (convolution, batch norm, pooling, activations, adds, matmuls save the same tensors).
"""

import argparse
import collections
import gc
import json
import os
import platform

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

BATCHES = (1, 2)
CNN_SIZES = (224, 160)
MODELS = [
    ("resnet50", lambda: torchvision.models.resnet50(), CNN_SIZES),
    ("mobilenet_v2", lambda: torchvision.models.mobilenet_v2(), CNN_SIZES),
    ("efficientnet_b0", lambda: torchvision.models.efficientnet_b0(), CNN_SIZES),
    ("vit_b_16", lambda: torchvision.models.vit_b_16(), (224,)),
]


def storage_key(t):
    st = t.storage()  # TypedStorage in torch 1.13 (untyped_storage() arrived in 2.0)
    return st.data_ptr(), st.nbytes()


class Recorder:
    """pack/unpack hooks. pack keeps the tensor (so no storage can be freed and its address reused while we
    count) plus the pack sequence number and the module that was running; unpack hands the tensor back and
    leaves the record of the last unpacked save in self.last, which the graph walk reads."""

    def __init__(self, excluded):
        self.excluded = excluded  # data_ptr -> reason
        self.seq = 0
        self.scope = ["<top>"]
        self.saves = []  # (seq, ptr, nbytes, shape, dtype, scope, excluded reason or None)
        self.last = None

    def pack(self, t):
        ptr, nbytes = storage_key(t)
        reason = self.excluded.get(ptr)
        if reason is None and t.is_leaf and t.requires_grad:
            reason = "leaf requiring grad"
        rec = (self.seq, ptr, nbytes, tuple(t.shape), str(t.dtype).replace("torch.", ""), self.scope[-1], reason)
        self.seq += 1
        self.saves.append(rec)
        return (t, rec)

    def unpack(self, packed):
        t, rec = packed
        self.last = rec
        return t

    def install_scopes(self, model):
        handles = []
        for name, m in model.named_modules():
            label = name or "<model>"
            handles.append(m.register_forward_pre_hook(lambda mod, inp, label=label: self.scope.append(label)))
            # A forward hook that returns something replaces the module's output: return None explicitly.
            handles.append(m.register_forward_hook(lambda mod, inp, out: None if self.scope.pop() else None))
        return handles


def saved_attrs(node):
    for attr in dir(node):
        if not attr.startswith("_saved_"):
            continue
        try:
            v = getattr(node, attr)
        except Exception as e:  # pragma: no cover - reported, never expected before backward
            raise RuntimeError(f"{node.name()}.{attr}: {e}")
        if isinstance(v, torch.Tensor):
            yield attr, v
        elif isinstance(v, (list, tuple)):
            for k, item in enumerate(v):
                if isinstance(item, torch.Tensor):
                    yield f"{attr}[{k}]", item


def walk_graph(root, rec):
    """Every node reachable from root, with the saves it holds: [(node, [(attr, tensor, pack record or None)])].
    Reading a `_saved_*` attribute runs the unpack hook, which leaves that save's pack record in rec.last; a list
    attribute unpacks element by element, so its elements get None (looked up by storage later)."""
    seen, stack, result = set(), [root], []
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        items = []
        for attr in dir(n):
            if not attr.startswith("_saved_"):
                continue
            rec.last = None
            v = getattr(n, attr)
            if isinstance(v, torch.Tensor):
                items.append((attr, v, rec.last))
            elif isinstance(v, (list, tuple)):
                for k, item in enumerate(v):
                    if isinstance(item, torch.Tensor):
                        items.append((f"{attr}[{k}]", item, None))
        result.append((n, items))
        for nxt, _ in n.next_functions:
            stack.append(nxt)
    return result


def measure(model_name, build, batch, size, detail_scope=None):
    torch.manual_seed(0)
    model = build()
    model.train()
    x = torch.randn(batch, 3, size, size)
    labels = torch.arange(batch, dtype=torch.int64) % 1000
    excluded = {}
    for p in model.parameters():
        excluded[storage_key(p)[0]] = "parameter"
    for b in model.buffers():
        excluded.setdefault(storage_key(b)[0], "buffer")
    excluded[storage_key(x)[0]] = "input image"
    label_ptr = storage_key(labels)[0]

    rec = Recorder(excluded)
    handles = rec.install_scopes(model)
    with torch.autograd.graph.saved_tensors_hooks(rec.pack, rec.unpack):
        logits = model(x)
        rec.scope.append("loss")
        loss = F.cross_entropy(logits, labels)
        rec.scope.pop()
    for h in handles:
        h.remove()

    # Method 1: pack hook.
    pack_storages = {}
    excluded_bytes = collections.Counter()
    excluded_seen = set()
    for seq, ptr, nbytes, shape, dtype, scope, reason in rec.saves:
        if reason is not None:
            if ptr not in excluded_seen:
                excluded_seen.add(ptr)
                excluded_bytes[reason] += nbytes
            continue
        pack_storages.setdefault(ptr, (nbytes, seq, dtype, scope))
    pack_total = sum(v[0] for v in pack_storages.values())

    # Method 2: graph walk.
    nodes = walk_graph(loss.grad_fn, rec)
    graph_storages = {}  # ptr -> (nbytes, first seq, node name, attr, dtype)
    touched = collections.defaultdict(set)  # node type -> storages
    first_seq_of = {ptr: seq for seq, ptr, *_ in reversed(rec.saves)}
    node_entries = []
    for n, items in nodes:
        for attr, t, r in items:
            ptr, nbytes = storage_key(t)
            if ptr in excluded or (t.is_leaf and t.requires_grad):
                continue
            seq = r[0] if r is not None else first_seq_of.get(ptr, 1 << 60)
            scope = r[5] if r is not None else "?"
            touched[n.name()].add(ptr)
            node_entries.append((seq, n.name(), attr, tuple(t.shape), str(t.dtype).replace("torch.", ""), ptr,
                                 nbytes, scope))
            cur = graph_storages.get(ptr)
            if cur is None or seq < cur[1]:
                graph_storages[ptr] = (nbytes, seq, n.name(), attr, str(t.dtype).replace("torch.", ""))
    graph_total = sum(v[0] for v in graph_storages.values())

    # Storages the pack hook saw that no reachable node exposes. Known case: an in-place op on a view (in-place
    # dropout on the flatten output) is rebased into CopySlices, which keeps the real backward node (and its saved
    # tensors) inside itself, out of reach of next_functions and _saved_* attributes.
    pack_only = [{"storage_bytes": nb, "dtype": dt, "module": sc, "seq": sq,
                  "shape": list(next(r[3] for r in rec.saves if r[1] == ptr))}
                 for ptr, (nb, sq, dt, sc) in sorted(pack_storages.items(), key=lambda kv: kv[1][1])
                 if ptr not in graph_storages]
    graph_only = [{"storage_bytes": v[0], "node": v[2], "attr": v[3]} for ptr, v in graph_storages.items()
                  if ptr not in pack_storages]
    node_types = collections.Counter(n.name() for n, _ in nodes)
    by_node = collections.Counter()
    by_node_attr = collections.Counter()
    by_dtype = collections.Counter()
    for nbytes, seq, node_name, attr, dtype in graph_storages.values():
        by_node[node_name] += nbytes
        by_node_attr[f"{node_name}.{attr}"] += nbytes
        by_dtype[dtype] += nbytes
    if pack_only:
        # Keep by_node_type summing to the pack total; name the bytes for what they are.
        hidden = "torch::autograd::CopySlices (saves of the in-place op it wraps; not exposed)"
        if not any(n.name() == "torch::autograd::CopySlices" for n, _ in nodes):
            hidden = "<saved but unreachable from loss.grad_fn>"
        by_node[hidden] += sum(e["storage_bytes"] for e in pack_only)
    touched_bytes = {k: sum(graph_storages[p][0] for p in v if p in graph_storages) for k, v in touched.items()}
    by_scope = collections.Counter()
    for ptr, (nbytes, seq, dtype, scope) in pack_storages.items():
        top = scope
        if model_name == "vit_b_16" and scope.startswith("encoder.layers."):
            top = ".".join(scope.split(".")[:3])
        elif scope.startswith("features.") or scope.startswith("layer"):
            top = ".".join(scope.split(".")[:2]) if scope.startswith("features.") else scope.split(".")[0]
        by_scope[top] += nbytes

    out = {
        "model": model_name,
        "batch": batch,
        "image_size": size,
        "total_bytes_pack": pack_total,
        "total_bytes_graph": graph_total,
        "agree": pack_total == graph_total and set(pack_storages) == set(graph_storages),
        "agree_counting_pack_only": set(graph_storages) <= set(pack_storages)
        and pack_total == graph_total + sum(e["storage_bytes"] for e in pack_only),
        "labels_bytes": pack_storages.get(label_ptr, (0,))[0],
        "saved_storages": len(pack_storages),
        "pack_calls": len(rec.saves),
        "graph_nodes": len(nodes),
        "pack_only": pack_only,
        "graph_only": graph_only,
        "excluded_bytes": dict(excluded_bytes),
        "node_type_counts": dict(node_types.most_common()),
        "by_node_type": dict(by_node.most_common()),
        "by_node_type_touched": dict(sorted(touched_bytes.items(), key=lambda kv: -kv[1])),
        "by_node_attr": dict(by_node_attr.most_common()),
        "by_dtype": dict(by_dtype.most_common()),
        "by_module": dict(by_scope.most_common()),
    }
    if detail_scope is not None:
        rows = []
        for seq, node_name, attr, shape, dtype, ptr, nbytes, scope in sorted(node_entries):
            if scope == detail_scope or scope.startswith(detail_scope + "."):
                rows.append({"seq": seq, "node": node_name, "attr": attr, "shape": list(shape), "dtype": dtype,
                             "storage_bytes": nbytes, "module": scope,
                             "counted_here": graph_storages[ptr][1] == seq and graph_storages[ptr][3] == attr
                             and graph_storages[ptr][2] == node_name})
        out["detail"] = {"scope": detail_scope, "saves": rows,
                         "bytes": sum(r["storage_bytes"] for r in rows if r["counted_here"])}

    # Sanity: the saved graph must still run backward (nothing was altered by the hooks).
    loss.backward()
    del loss, logits, nodes, rec
    gc.collect()
    return out


# ---------------------------------------------------------------------------------------------------------------
# Replay of the exported presets with the rules the probes show


PRESETS = {"resnet50": "resnet50", "mobilenet_v2": "mobilenet-v2", "efficientnet_b0": "efficientnet-b0"}
REPLAY_RULES = (
    "torch 1.13 CPU, FP32, per storage: conv2d saves its input; batchnorm2d its input plus save_mean and save_invstd "
    "(C floats each; running stats and weight are model state); in-place relu its output (= input storage); "
    "in-place relu6 (hardtanh_) and in-place silu a fresh clone of their input; sigmoid its output; maxpool2d its "
    "input and int64 indices of the output's size; adaptive_avgpool2d (mean over H, W) its input; add nothing; "
    "mul (SE) both inputs; stochastic_depth (p > 0) its [B,1,1,1] noise; dropout an input-sized noise tensor in the "
    "input dtype (in place or not); flatten is a view; linear saves its input (the pooled storage); cross-entropy "
    "saves the log-softmax output, the int64 labels and a 4-byte total_weight. Storages shared by several savers "
    "count once."
)


def replay_preset(path, size, batch):
    """Saved bytes predicted from a Headroom preset's layer list with REPLAY_RULES."""
    with open(path) as f:
        layers = json.load(f)["cnn"]["layers"]
    numel = lambda s: s[0] * s[1] * s[2]
    pooled = lambda h, k, st, p: (h + 2 * p - k) // st + 1
    shape = {"input": (3, size, size)}
    store = {"input": "image"}
    saved = {}
    counter = [0]

    def fresh():
        counter[0] += 1
        return counter[0]

    def save(sid, nbytes):
        if sid != "image":
            saved[sid] = nbytes

    last = "input"
    for l in layers:
        ins = l.get("inputs", [last])
        x, xs, op = shape[ins[0]], store[ins[0]], l["op"]
        y, ys = x, None
        if op == "conv2d":
            save(xs, batch * numel(x) * 4)
            k, st, p = l["kernel"], l.get("stride", 1), l.get("padding", 0)
            y = (l["out_channels"], pooled(x[1], k, st, p), pooled(x[2], k, st, p))
        elif op == "batchnorm2d":
            save(xs, batch * numel(x) * 4)
            save(fresh(), 4 * x[0])
            save(fresh(), 4 * x[0])
        elif op == "relu":
            if not l.get("inplace"):
                raise ValueError("replay only knows in-place relu")
            ys = xs
        elif op in ("relu6", "silu"):
            if not l.get("inplace"):
                raise ValueError(f"replay only knows in-place {op}")
            ys = xs
            save(fresh(), batch * numel(x) * 4)
        elif op == "sigmoid":
            ys = fresh()
            save(ys, batch * numel(x) * 4)
        elif op == "maxpool2d":
            save(xs, batch * numel(x) * 4)
            k, st, p = l["kernel"], l.get("stride", l["kernel"]), l.get("padding", 0)
            y = (x[0], pooled(x[1], k, st, p), pooled(x[2], k, st, p))
            save(fresh(), batch * numel(y) * 8)
        elif op == "adaptive_avgpool2d":
            save(xs, batch * numel(x) * 4)
            y = (x[0], 1, 1)
        elif op == "add":
            if l.get("inplace"):
                ys = xs
        elif op == "mul":
            x2 = shape[ins[1]]
            save(xs, batch * numel(x) * 4)
            save(store[ins[1]], batch * numel(x2) * 4)
            y = x if numel(x) >= numel(x2) else x2
        elif op == "stochastic_depth":
            if l["p"] > 0:
                save(fresh(), batch * 4)
        elif op == "dropout":
            if l["p"] > 0:
                save(fresh(), batch * numel(x) * 4)
            if l.get("inplace") or l["p"] == 0:
                ys = xs
        elif op == "flatten":
            ys = xs
            y = (numel(x), 1, 1)
        elif op == "linear":
            save(xs, batch * numel(x) * 4)
            y = (l["out_features"], 1, 1)
        else:
            raise ValueError(f"replay has no rule for {op}")
        shape[l["name"]] = y
        store[l["name"]] = ys if ys is not None else fresh()
        last = l["name"]
    save(fresh(), batch * shape[last][0] * 4)  # log-softmax output
    save(fresh(), batch * 8)  # labels
    save(fresh(), 4)  # total_weight
    return sum(saved.values())


# ---------------------------------------------------------------------------------------------------------------
# Operator probes


def probe(fn, make_inputs, note):
    """Run fn(*inputs) under the hooks; report the autograd node(s) created and each tensor they save."""
    inputs = make_inputs()
    leaves = [t for t in inputs if isinstance(t, torch.Tensor) and t.requires_grad and t.is_leaf]
    # Feed non-leaf copies so in-place ops are legal and the "input" is an activation, as in a network.
    acts = [t * 1.0 if isinstance(t, torch.Tensor) and t.requires_grad else t for t in inputs]
    in_ptrs = {storage_key(t)[0]: f"input{k}" for k, t in enumerate(acts) if isinstance(t, torch.Tensor)}
    stop = {t.grad_fn for t in acts if isinstance(t, torch.Tensor) and t.grad_fn is not None}
    rec = Recorder({})
    with torch.autograd.graph.saved_tensors_hooks(rec.pack, rec.unpack):
        y = fn(*acts)
    out_ptr = storage_key(y)[0]
    rows = []
    node = y.grad_fn
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None or n in seen or n in stop:
            continue
        seen.add(n)
        saves = []
        for attr, t in saved_attrs(n):
            ptr, nbytes = storage_key(t)
            what = in_ptrs.get(ptr) or ("output" if ptr == out_ptr else "new tensor")
            saves.append({"attr": attr, "shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
                          "storage_bytes": nbytes, "is": what})
        rows.append({"node": n.name(), "saves": saves})
        for nxt, _ in n.next_functions:
            stack.append(nxt)
    packed = [{"shape": list(shape), "dtype": dtype, "storage_bytes": nbytes,
               "is": in_ptrs.get(ptr) or ("output" if ptr == out_ptr else "new tensor")}
              for seq, ptr, nbytes, shape, dtype, scope, reason in rec.saves]
    y.sum().backward()
    del leaves
    return {"note": note, "output_shape": list(y.shape), "output_dtype": str(y.dtype).replace("torch.", ""),
            "output_is_input0": out_ptr == storage_key(acts[0])[0], "nodes": rows, "pack_hook_saw": packed}


def probes():
    torch.manual_seed(0)
    r = lambda *s: (lambda: [torch.randn(*s, requires_grad=True)])
    r2 = lambda a, b: (lambda: [torch.randn(*a, requires_grad=True), torch.randn(*b, requires_grad=True)])
    from torchvision.ops import stochastic_depth

    out = {
        "silu_inplace": probe(lambda x: F.silu(x, inplace=True), r(2, 8, 4, 4), "nn.SiLU(inplace=True)"),
        "silu": probe(lambda x: F.silu(x), r(2, 8, 4, 4), "nn.SiLU()"),
        "relu_inplace": probe(lambda x: F.relu(x, inplace=True), r(2, 8, 4, 4), "nn.ReLU(inplace=True)"),
        "relu6_inplace": probe(lambda x: nn.ReLU6(inplace=True)(x), r(2, 8, 4, 4), "nn.ReLU6(inplace=True)"),
        "sigmoid": probe(torch.sigmoid, r(2, 8, 1, 1), "nn.Sigmoid()"),
        "add_inplace": probe(lambda a, b: a.add_(b), r2((2, 8, 4, 4), (2, 8, 4, 4)), "out += identity"),
        "add": probe(lambda a, b: a + b, r2((2, 8, 4, 4), (2, 8, 4, 4)), "x + self.conv(x)"),
        "se_mul": probe(lambda a, s: s * a, r2((2, 8, 4, 4), (2, 8, 1, 1)), "scale * input (both need grad)"),
        "adaptive_avg_pool_1x1": probe(lambda x: F.adaptive_avg_pool2d(x, 1), r(2, 8, 4, 4),
                                       "nn.AdaptiveAvgPool2d(1) / F.adaptive_avg_pool2d(x, (1, 1))"),
        "adaptive_avg_pool_2x2": probe(lambda x: F.adaptive_avg_pool2d(x, 2), r(2, 8, 4, 4),
                                       "F.adaptive_avg_pool2d(x, 2), for contrast"),
        "dropout_train": probe(lambda x: F.dropout(x, 0.2, True), r(2, 1280), "nn.Dropout(0.2), CPU"),
        "dropout_inplace_train": probe(lambda x: F.dropout(x, 0.2, True, inplace=True), r(2, 1280),
                                       "nn.Dropout(0.2, inplace=True), CPU"),
        "dropout_p0_train": probe(lambda x: F.dropout(x, 0.0, True), r(2, 197, 768), "nn.Dropout(0.0), CPU"),
        "max_pool": probe(lambda x: F.max_pool2d(x, 3, 2, 1), r(2, 8, 8, 8), "nn.MaxPool2d(3, 2, 1)"),
        "stochastic_depth_row": probe(lambda x: stochastic_depth(x, 0.1, "row", True), r(2, 8, 4, 4),
                                      "torchvision StochasticDepth(0.1, 'row'), training"),
        "batchnorm_train": probe(lambda x: nn.BatchNorm2d(8).train()(x), r(2, 8, 4, 4), "nn.BatchNorm2d(8)"),
        "conv": probe(lambda x: nn.Conv2d(8, 4, 3, padding=1, bias=False)(x), r(2, 8, 4, 4), "nn.Conv2d"),
        "layernorm": probe(lambda x: nn.LayerNorm(16, eps=1e-6)(x), r(2, 5, 16), "nn.LayerNorm"),
        "gelu": probe(lambda x: F.gelu(x), r(2, 5, 16), "nn.GELU()"),
        "cross_entropy": probe(lambda x: F.cross_entropy(x, torch.tensor([1, 2])), r(2, 10),
                               "F.cross_entropy(logits, labels)"),
    }
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="only batch 1 at 224 (no file written)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "torch_reference_vision.json"))
    a = ap.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    results = []
    slopes = []
    for name, build, sizes in MODELS:
        for size in sizes:
            per_batch = {}
            for batch in ((1,) if a.quick else BATCHES):
                if a.quick and size != 224:
                    continue
                detail = "encoder.layers.encoder_layer_0" if name == "vit_b_16" else None
                m = measure(name, build, batch, size, detail)
                results.append(m)
                per_batch[batch] = m
                top = ", ".join(f"{k} {v:,}" for k, v in list(m["by_node_type"].items())[:4])
                print(f"{name} b{batch} {size}: pack {m['total_bytes_pack']:,} graph {m['total_bytes_graph']:,} "
                      f"agree {m['agree']} (with pack_only {m['agree_counting_pack_only']}); {top}", flush=True)
            if 1 in per_batch and 2 in per_batch:
                b1, b2 = per_batch[1], per_batch[2]
                slope = b2["total_bytes_pack"] - b1["total_bytes_pack"]
                node_slope = {k: b2["by_node_type"].get(k, 0) - b1["by_node_type"].get(k, 0)
                              for k in set(b1["by_node_type"]) | set(b2["by_node_type"])}
                slopes.append({"model": name, "image_size": size, "per_sample_bytes": slope,
                               "batch_independent_bytes": b1["total_bytes_pack"] - slope,
                               "per_sample_by_node_type": dict(sorted(node_slope.items(), key=lambda kv: (-kv[1], kv[0])))})
                print(f"{name} {size}: per-sample slope {slope:,} bytes, intercept "
                      f"{b1['total_bytes_pack'] - slope:,}", flush=True)
    pr = probes()
    models_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "resources", "models")
    replays = []
    for m in results:
        preset = PRESETS.get(m["model"])
        path = os.path.join(models_dir, f"{preset}.json") if preset else None
        if path and os.path.exists(path):
            predicted = replay_preset(path, m["image_size"], m["batch"])
            replays.append({"model": m["model"], "preset": f"resources/models/{preset}.json", "batch": m["batch"],
                            "image_size": m["image_size"], "predicted_bytes": predicted,
                            "measured_bytes": m["total_bytes_pack"], "difference": predicted - m["total_bytes_pack"]})
            print(f"replay {preset} b{m['batch']} {m['image_size']}: predicted {predicted:,} measured "
                  f"{m['total_bytes_pack']:,} difference {predicted - m['total_bytes_pack']:,}")
    doc = {
        "generated_by": "tools/measure_saved_vision.py",
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "python": platform.python_version(),
        "device": "cpu",
        "dtype": "float32",
        "settings": {
            "models": "torchvision.models.<name>() with default constructor arguments (random init; weights do not "
                      "change what is saved)",
            "mode": "model.train(); torch.manual_seed(0); x = torch.randn(B, 3, S, S); labels = arange(B) % 1000",
            "forward": "with torch.autograd.graph.saved_tensors_hooks(pack, unpack): logits = model(x); "
                       "loss = F.cross_entropy(logits, labels)",
            "batches": list(BATCHES),
            "image_sizes": {n: list(s) for n, _, s in MODELS},
            "counted": "storages of saved tensors, deduplicated by storage data_ptr, full storage nbytes",
            "excluded": "parameters and tensors sharing storage with a parameter, module buffers (BatchNorm running "
                        "stats, saved by native_batch_norm; listed under excluded_bytes), the input image batch",
            "labels": "the int64 labels nll_loss saves are included in the totals and listed as labels_bytes",
            "methods": {
                "pack": "every tensor the pack hook sees",
                "graph": "walk from loss.grad_fn through next_functions, every node's _saved_* attributes; each "
                         "storage attributed to the first node (in forward order) that saved it -> by_node_type; "
                         "by_node_type_touched counts a storage once for every node type that saves it. The graph walk "
                         "cannot see saves held inside a CopySlices node (an in-place op on a view: EfficientNet's "
                         "in-place classifier Dropout on the flatten output); those are listed in pack_only and "
                         "appear in by_node_type under CopySlices, so by_node_type sums to total_bytes_pack",
            },
            "slope": "per_sample_bytes = total(batch 2) - total(batch 1); batch_independent_bytes = total(batch 1) - "
                     "per_sample_bytes",
            "device_note": "CPU autograd. On CUDA, F.dropout(x, p, training=True) (not in place) uses native_dropout "
                           "and saves a bool mask (1 byte per element) instead of the input-dtype noise tensor the "
                           "CPU path saves; in-place dropout (dropout_) has no fused path and saves the noise in the "
                           "input dtype on every device.",
        },
        "results": results,
        "per_sample": slopes,
        "probes": pr,
        "preset_replay": {"rules": REPLAY_RULES, "results": replays},
    }
    if a.quick:
        print(json.dumps(pr, indent=1)[:4000])
        return
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
