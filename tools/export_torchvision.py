#!/usr/bin/python3
"""Export torchvision CNNs as Headroom model presets (dev tool, not part of the build).

Builds torchvision.models.resnet50(), mobilenet_v2() and efficientnet_b0() with their default constructor
arguments (dropout 0.2 in the MobileNetV2 / EfficientNet-B0 classifiers, stochastic depth 0.2 in EfficientNet-B0
scaled per block as torchvision does), traces each with torch.fx and writes the real layer list to
resources/models/<id>.json in the format src/core/spec/modelspec.cpp (readCnn) reads and src/core/graph/cnnbuilder.cpp builds.

Checks, all fatal on failure:
  1. the parameter count summed over the exported layer list equals sum(p.numel()) of the model and the count
     published in the torchvision docs;
  2. a shape propagation written the way cnnbuilder.cpp does it (conv/pool: floor((H + 2p - k) / s) + 1) agrees
     with the real shapes that torch.fx.passes.shape_prop.ShapeProp records, for every layer, at 224 and at
     160 and 256;
  3. every traced node maps onto a Headroom op; anything unknown stops the export.

Usage: /usr/bin/python3 tools/export_torchvision.py [--check-only] [--out-dir resources/models]
Tested with torch 1.13 and torchvision 0.14 (Debian python3-torch / python3-torchvision).
"""

import argparse
import json
import operator
import os
import sys

import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torch.fx.passes.shape_prop import ShapeProp
from torchvision.ops import StochasticDepth

CHECK_SIZES = (224, 160, 256)

MODELS = [
    {
        "id": "resnet50",
        "name": "ResNet-50",
        "build": lambda: torchvision.models.resnet50(),
        "description": "ResNet-50 v1.5 (stride 2 in the 3x3 convolution of each downsampling bottleneck), "
        "ImageNet classifier with 1000 classes. Layer list traced with torch.fx from torchvision.models.resnet50() "
        "with default arguments: in-place ReLU, in-place residual add (out += identity), max pooling, global "
        "average pooling and a linear head.",
        "reference": {
            "implementation": "torchvision.models.resnet50 (torchvision 0.14)",
            "checkpoint": "ResNet50_Weights.IMAGENET1K_V2 (weights do not change memory)",
            "url": "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html",
            "parameters": 25557032,
            "parameters_source": "torchvision model docs: 25,557,032 params (also the sum of parameter shapes "
            "of the exported layer list)",
        },
    },
    {
        "id": "mobilenet-v2",
        "name": "MobileNetV2",
        "build": lambda: torchvision.models.mobilenet_v2(),
        "description": "MobileNetV2 (width 1.0) ImageNet classifier with 1000 classes. Layer list traced with "
        "torch.fx from torchvision.models.mobilenet_v2() with default arguments: inverted residual blocks with "
        "depthwise convolutions and in-place ReLU6, out-of-place residual add (x + self.conv(x)), global average "
        "pooling, Dropout(0.2) and a linear head.",
        "reference": {
            "implementation": "torchvision.models.mobilenet_v2 (torchvision 0.14)",
            "checkpoint": "MobileNet_V2_Weights.IMAGENET1K_V2 (weights do not change memory)",
            "url": "https://pytorch.org/vision/stable/models/generated/torchvision.models.mobilenet_v2.html",
            "parameters": 3504872,
            "parameters_source": "torchvision model docs: 3,504,872 params (also the sum of parameter shapes "
            "of the exported layer list)",
        },
    },
    {
        "id": "efficientnet-b0",
        "name": "EfficientNet-B0",
        "build": lambda: torchvision.models.efficientnet_b0(),
        "description": "EfficientNet-B0 ImageNet classifier with 1000 classes. Layer list traced with torch.fx "
        "from torchvision.models.efficientnet_b0() with default arguments: MBConv blocks with in-place SiLU, "
        "squeeze-and-excitation (global pooling, 1x1 convolutions, sigmoid, multiply), stochastic depth "
        "(row mode, 0.2 scaled linearly over the blocks) before the in-place residual add (result += input), "
        "global average pooling, in-place Dropout(0.2) and a linear head.",
        "reference": {
            "implementation": "torchvision.models.efficientnet_b0 (torchvision 0.14)",
            "checkpoint": "EfficientNet_B0_Weights.IMAGENET1K_V1 (weights do not change memory)",
            "url": "https://pytorch.org/vision/stable/models/generated/torchvision.models.efficientnet_b0.html",
            "parameters": 5288548,
            "parameters_source": "torchvision model docs: 5,288,548 params (also the sum of parameter shapes "
            "of the exported layer list)",
        },
    },
]


class ExportError(RuntimeError):
    pass


def fail(msg):
    raise ExportError(msg)


def square(value, what, where):
    """An int, or a tuple of equal ints; anything else (non-square, string padding) is unsupported."""
    if isinstance(value, int):
        return value
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        if value[0] != value[1]:
            fail(f"{where}: non-square {what} {value} is not supported")
        return value[0]
    fail(f"{where}: unsupported {what} {value!r}")


class ScopedTracer(torch.fx.Tracer):
    """symbolic_trace's tracer, plus: torchvision StochasticDepth stays a leaf module (so its name and p survive),
    and every node records the qualified name of the module whose forward created it (used to name function
    nodes such as `layer1.0.add`)."""

    def __init__(self):
        super().__init__()
        self.scope = [""]

    def is_leaf_module(self, m, qualname):
        if isinstance(m, StochasticDepth):
            return True
        return super().is_leaf_module(m, qualname)

    def call_module(self, m, forward, args, kwargs):
        self.scope.append(self.path_of_module(m))
        try:
            return super().call_module(m, forward, args, kwargs)
        finally:
            self.scope.pop()

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        node = super().create_node(kind, target, args, kwargs, name, type_expr)
        node.meta["scope"] = self.scope[-1]
        return node


def trace(model):
    tracer = ScopedTracer()
    graph = tracer.trace(model)
    return torch.fx.GraphModule(tracer.root, graph, model.__class__.__name__)


def node_args(node, count, where):
    """The node's tensor inputs; asserts there are exactly `count` of them and nothing else."""
    ins = [a for a in node.args if isinstance(a, torch.fx.Node)]
    if len(ins) != count:
        fail(f"{where}: expected {count} tensor input(s), got args {node.args!r}")
    return ins


def map_node(gm, node):
    """Translate one fx node into a Headroom layer dict (without name/inputs) and its tensor-input nodes."""
    where = f"node {node.name} ({node.op} {node.target})"
    if node.op == "call_module":
        m = gm.get_submodule(node.target)
        if node.kwargs:
            fail(f"{where}: unexpected kwargs {node.kwargs!r}")
        ins = node_args(node, 1, where)
        t = type(m)
        if t is nn.Conv2d:
            if m.padding_mode != "zeros":
                fail(f"{where}: padding_mode {m.padding_mode}")
            if square(m.dilation, "dilation", where) != 1:
                fail(f"{where}: dilation {m.dilation} is not supported")
            layer = {
                "op": "conv2d",
                "out_channels": m.out_channels,
                "kernel": square(m.kernel_size, "kernel", where),
                "stride": square(m.stride, "stride", where),
                "padding": square(m.padding, "padding", where),
                "groups": m.groups,
                "bias": m.bias is not None,
            }
            return layer, ins, m
        if t is nn.BatchNorm2d:
            if not m.affine or not m.track_running_stats:
                fail(f"{where}: only affine BatchNorm2d with running stats is supported")
            return {"op": "batchnorm2d"}, ins, m
        if t in (nn.ReLU, nn.ReLU6, nn.SiLU):
            op = {nn.ReLU: "relu", nn.ReLU6: "relu6", nn.SiLU: "silu"}[t]
            layer = {"op": op}
            if m.inplace:
                layer["inplace"] = True
            return layer, ins, m
        if t is nn.Sigmoid:
            return {"op": "sigmoid"}, ins, m
        if t is nn.MaxPool2d:
            if square(m.dilation, "dilation", where) != 1 or m.ceil_mode or m.return_indices:
                fail(f"{where}: only plain MaxPool2d (dilation 1, floor mode) is supported")
            stride = m.stride if m.stride is not None else m.kernel_size
            layer = {
                "op": "maxpool2d",
                "kernel": square(m.kernel_size, "kernel", where),
                "stride": square(stride, "stride", where),
                "padding": square(m.padding, "padding", where),
            }
            return layer, ins, m
        if t is nn.AdaptiveAvgPool2d:
            if square(m.output_size, "output_size", where) != 1:
                fail(f"{where}: adaptive average pooling only to 1x1 is supported, got {m.output_size}")
            return {"op": "adaptive_avgpool2d"}, ins, m
        if t is nn.Flatten:
            if m.start_dim != 1 or m.end_dim != -1:
                fail(f"{where}: only Flatten(1, -1) is supported")
            return {"op": "flatten"}, ins, m
        if t is nn.Linear:
            return {"op": "linear", "out_features": m.out_features, "bias": m.bias is not None}, ins, m
        if t is nn.Dropout:
            layer = {"op": "dropout", "p": float(m.p)}
            if m.inplace:
                layer["inplace"] = True
            return layer, ins, m
        if t is StochasticDepth:
            if m.mode != "row":
                fail(f"{where}: only StochasticDepth mode 'row' is supported, got {m.mode!r}")
            # torchvision computes 0.2 * block / blocks in floating point (0.07500000000000001); 12 digits keep the
            # value and drop the representation noise.
            return {"op": "stochastic_depth", "p": float(f"{m.p:.12g}")}, ins, m
        fail(f"{where}: unsupported module type {t.__name__}")
    if node.op == "call_function":
        f = node.target
        if f in (operator.add, operator.iadd, torch.add):
            if node.kwargs:
                fail(f"{where}: unexpected kwargs {node.kwargs!r}")
            ins = node_args(node, 2, where)
            if len(node.args) != 2:
                fail(f"{where}: add with extra arguments {node.args!r}")
            layer = {"op": "add"}
            if f is operator.iadd:
                layer["inplace"] = True
            return layer, ins, None
        if f in (operator.mul, torch.mul):
            if node.kwargs or len(node.args) != 2:
                fail(f"{where}: unexpected mul arguments {node.args!r} {node.kwargs!r}")
            return {"op": "mul"}, node_args(node, 2, where), None
        if f is torch.flatten:
            args = list(node.args[1:])
            start = node.kwargs.get("start_dim", args[0] if len(args) > 0 else 0)
            end = node.kwargs.get("end_dim", args[1] if len(args) > 1 else -1)
            if start != 1 or end != -1:
                fail(f"{where}: only torch.flatten(x, 1) is supported")
            return {"op": "flatten"}, node_args(node, 1, where), None
        if f is F.adaptive_avg_pool2d:
            size = node.kwargs.get("output_size", node.args[1] if len(node.args) > 1 else None)
            if square(size, "output_size", where) != 1:
                fail(f"{where}: adaptive average pooling only to 1x1 is supported, got {size!r}")
            return {"op": "adaptive_avgpool2d"}, node_args(node, 1, where), None
        if f in (F.relu, torch.relu):
            layer = {"op": "relu"}
            if node.kwargs.get("inplace", node.args[1] if len(node.args) > 1 else False):
                layer["inplace"] = True
            return layer, node_args(node, 1, where), None
        fail(f"{where}: unsupported function {getattr(f, '__name__', f)}")
    fail(f"{where}: unsupported node kind {node.op}")


FN_NAMES = {
    "add": "add",
    "mul": "mul",
    "flatten": "flatten",
    "adaptive_avgpool2d": "avgpool",
    "relu": "relu",
}


def export_layers(gm):
    """Walk the traced graph in its (topological) order; returns the Headroom layer list and, per layer, the fx
    node it came from (for the shape check) and the module (for parameter checks)."""
    layers, nodes, modules = [], [], []
    name_of = {}  # fx node -> Headroom layer name ("input" for the image)
    used = set()
    output_node = None
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            if name_of:
                fail("more than one graph input")
            name_of[node] = "input"
            continue
        if node.op == "output":
            output_node = node
            continue
        layer, ins, module = map_node(gm, node)
        if node.op == "call_module":
            name = node.target
        else:
            scope = node.meta.get("scope", "")
            base = FN_NAMES[layer["op"]]
            name = f"{scope}.{base}" if scope else base
        if name in used or name == "input":
            k = 1
            while f"{name}_{k}" in used:
                k += 1
            name = f"{name}_{k}"
        used.add(name)
        for a in ins:
            if a not in name_of:
                fail(f"node {node.name}: input {a.name} has no layer")
        in_names = [name_of[a] for a in ins]
        previous = layers[-1]["name"] if layers else "input"
        entry = {"name": name, "op": layer.pop("op")}
        if len(in_names) != 1 or in_names[0] != previous or entry["op"] in ("add", "mul"):
            entry["inputs"] = in_names
        entry.update(layer)
        layers.append(entry)
        nodes.append(node)
        modules.append(module)
        name_of[node] = name
    if output_node is None:
        fail("graph has no output")
    outs = [a for a in output_node.args if isinstance(a, torch.fx.Node)]
    if len(outs) != 1 or name_of.get(outs[0]) != layers[-1]["name"]:
        fail("the graph output is not the last exported layer")
    if layers[-1]["op"] != "linear":
        fail("the last layer is not the linear classifier")
    # Every layer except the last must feed something: a dangling layer means the default input rule went wrong.
    consumed = set()
    for i, l in enumerate(layers):
        consumed.update(l.get("inputs", [layers[i - 1]["name"] if i else "input"]))
    dangling = [l["name"] for l in layers[:-1] if l["name"] not in consumed]
    if dangling:
        fail(f"layers whose output nobody reads: {dangling}")
    return layers, nodes, modules


def propagate(layers, channels, size):
    """Shapes the way src/core/graph/cnnbuilder.cpp computes them: (C, H, W) per layer; also the parameter count."""
    def conv_out(x, k, s, p):
        return max(1, (x + 2 * p - k) // s + 1)

    shapes = {}
    index = {}
    params = 0
    last = (channels, size, size)
    image = last
    per_layer_params = []
    for i, l in enumerate(layers):
        refs = l.get("inputs")
        if refs is None:
            xs = [last]
        else:
            xs = [image if r == "input" else shapes[r] for r in refs]
        x = xs[0]
        op = l["op"]
        n = 0
        if op == "conv2d":
            c, h, w = x
            g = l.get("groups", 1)
            if c % g or l["out_channels"] % g:
                fail(f"{l['name']}: groups {g} do not divide channels {c} -> {l['out_channels']}")
            k, s, p = l["kernel"], l.get("stride", 1), l.get("padding", 0)
            y = (l["out_channels"], conv_out(h, k, s, p), conv_out(w, k, s, p))
            n = l["out_channels"] * (c // g) * k * k + (l["out_channels"] if l.get("bias") else 0)
        elif op == "batchnorm2d":
            y = x
            n = 2 * x[0]
        elif op in ("relu", "relu6", "silu", "sigmoid", "dropout", "stochastic_depth"):
            y = x
        elif op == "maxpool2d":
            k, s, p = l["kernel"], l.get("stride", l["kernel"]), l.get("padding", 0)
            y = (x[0], conv_out(x[1], k, s, p), conv_out(x[2], k, s, p))
        elif op == "adaptive_avgpool2d":
            y = (x[0], 1, 1)
        elif op == "add":
            if xs[0] != xs[1]:
                fail(f"{l['name']}: add of different shapes {xs[0]} and {xs[1]}")
            y = x
        elif op == "mul":
            a, b = xs
            big, small = (a, b) if a[0] * a[1] * a[2] >= b[0] * b[1] * b[2] else (b, a)
            if small != (big[0], 1, 1) and small != big:
                fail(f"{l['name']}: mul of {a} and {b} is not an (SE) channel broadcast")
            y = big
        elif op == "flatten":
            y = (x[0] * x[1] * x[2], 1, 1)
        elif op == "linear":
            fin = x[0] * x[1] * x[2]
            y = (l["out_features"], 1, 1)
            n = fin * l["out_features"] + (l["out_features"] if l.get("bias", True) else 0)
        else:
            fail(f"{l['name']}: no shape rule for {op}")
        shapes[l["name"]] = y
        index[l["name"]] = i
        last = y
        params += n
        per_layer_params.append(n)
    return shapes, params, per_layer_params


def check_shapes(gm, layers, nodes, size, batch=2):
    """Compare the propagated shapes with ShapeProp's real ones; returns the list of mismatches."""
    gm.eval()
    with torch.no_grad():
        ShapeProp(gm).propagate(torch.zeros(batch, 3, size, size))
    ours, _, _ = propagate(layers, 3, size)
    bad = []
    for l, node in zip(layers, nodes):
        real = tuple(node.meta["tensor_meta"].shape)
        if real[0] != batch:
            bad.append((l["name"], "batch", real))
            continue
        mine = ours[l["name"]]
        if len(real) == 4:
            ok = tuple(real[1:]) == mine
        elif len(real) == 2:
            ok = mine[1] == 1 and mine[2] == 1 and real[1] == mine[0]
        else:
            ok = False
        if not ok:
            bad.append((l["name"], mine, real))
    return bad


def check_params(model, layers, modules, published):
    _, total, per_layer = propagate(layers, 3, 224)
    real = sum(p.numel() for p in model.parameters())
    # Per-layer: each exported layer with a module holds exactly that module's parameters.
    for l, m, n in zip(layers, modules, per_layer):
        own = sum(p.numel() for p in m.parameters()) if m is not None else 0
        if own != n:
            fail(f"{l['name']}: exported layer has {n} parameters, the module {own}")
    covered = sum(sum(p.numel() for p in m.parameters()) for m in modules if m is not None)
    if total != real or covered != real or total != published:
        fail(f"parameter count: layer list {total}, modules {covered}, model {real}, published {published}")
    return total


def dump_preset(preset):
    """JSON with one layer per line (the file is meant to be read and diffed)."""
    head = dict(preset)
    cnn = head.pop("cnn")
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, indent=None)},")
    lines.append('  "cnn": {')
    lines.append(f'    "channels": {cnn["channels"]},')
    lines.append(f'    "image_size": {cnn["image_size"]},')
    lines.append('    "layers": [')
    for i, l in enumerate(cnn["layers"]):
        sep = "," if i + 1 < len(cnn["layers"]) else ""
        lines.append(f"      {json.dumps(l)}{sep}")
    lines.append("    ]")
    lines.append("  }")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if json.loads(text) != preset:
        fail("formatted JSON does not round-trip")
    return text


def export(spec, out_dir, check_only):
    torch.manual_seed(0)
    model = spec["build"]()
    gm = trace(model)
    layers, nodes, modules = export_layers(gm)
    params = check_params(model, layers, modules, spec["reference"]["parameters"])
    shape_report = {}
    for size in CHECK_SIZES:
        bad = check_shapes(gm, layers, nodes, size)
        shape_report[size] = bad
        if bad:
            for b in bad[:20]:
                print(f"  shape mismatch at {size}: {b}", file=sys.stderr)
            fail(f"{spec['id']}: {len(bad)} shape mismatches at {size}")
    ops = {}
    for l in layers:
        ops[l["op"]] = ops.get(l["op"], 0) + 1
    preset = {
        "format": "headroom-model",
        "version": 1,
        "id": spec["id"],
        "name": spec["name"],
        "description": spec["description"],
        "family": "cnn",
        "reference": spec["reference"],
        "default_sequence": 224,
        "cnn": {"channels": 3, "image_size": 224, "layers": layers},
    }
    text = dump_preset(preset)
    path = os.path.join(out_dir, spec["id"] + ".json")
    if not check_only:
        with open(path, "w") as f:
            f.write(text)
    print(f"{spec['id']}: {len(layers)} layers, {params:,} parameters (= model, = published), "
          f"shapes agree at {', '.join(map(str, CHECK_SIZES))}; ops {ops}"
          + ("" if check_only else f" -> {path}"))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out-dir", default=os.path.join(root, "resources", "models"))
    ap.add_argument("--check-only", action="store_true", help="run all checks, write nothing")
    ap.add_argument("--only", help="export just this id")
    a = ap.parse_args()
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}")
    os.makedirs(a.out_dir, exist_ok=True)
    for spec in MODELS:
        if a.only and spec["id"] != a.only:
            continue
        export(spec, a.out_dir, a.check_only)


if __name__ == "__main__":
    try:
        main()
    except ExportError as e:
        print(f"export_torchvision: {e}", file=sys.stderr)
        sys.exit(1)
