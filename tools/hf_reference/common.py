"""Shared measurement machinery for the Hugging Face reference figures.

Two independent ways of counting the bytes autograd keeps for backward in one forward pass:

1. ``saved_tensors_hooks`` (pack hook): every tensor autograd saves passes through ``pack``;
   we record its *storage* (data_ptr, full storage nbytes), deduplicated by data_ptr.
2. Graph walk: after the forward, walk ``loss.grad_fn`` through ``next_functions`` and read each
   node's ``_saved_*`` attributes (torch 1.13 exposes them); each storage is counted once, for the
   first node that saves it in forward (reverse-topological) order.

Storages of parameters (anything whose storage is a parameter's storage: tied / transposed weight
views included) and of the input batch (input_ids, labels, attention_mask) are excluded.
Module buffers (GPT-2's causal ``bias``, BERT's ``position_ids`` / ``token_type_ids``) are counted
but reported separately (``buffer_bytes``): they are resident anyway, saving them costs nothing
extra and they do not scale with the batch.

CPU-vs-CUDA notes (torch 1.13, which is what runs here):
* ``F.dropout`` on CPU goes through ``at::_dropout`` = ``input * noise`` where ``noise`` has the
  input dtype (MulBackward0 saves it: 4 B/elem FP32, 2 B/elem BF16). On CUDA ``native_dropout``
  saves a ``bool`` mask (1 B/elem). Masks are identified (saved while inside an ``nn.Dropout``
  module, not requiring grad) and a ``gpu_equiv`` figure recounts them at 1 B/elem.
* ``native_layer_norm`` on CPU keeps mean/rstd in the input dtype (BF16 -> 2 B/row each); on
  CUDA they are FP32 (acc type) for BF16 input (4 B/row each). ``gpu_equiv`` recounts them.
Everything else (matmul/bmm, softmax, log_softmax, nll_loss, gelu, embedding, addmm) saves the
same tensors on both devices.
"""

import collections
import contextlib

import torch
from torch import nn


def storage_key(t):
    st = t.storage()
    return st.data_ptr(), st.nbytes()


class _ModuleStack:
    """Maintains the stack of module names currently executing forward."""

    def __init__(self, model):
        self.stack = []
        self.handles = []
        for name, mod in model.named_modules():
            self.handles.append(mod.register_forward_pre_hook(self._pre(name, mod)))
            self.handles.append(mod.register_forward_hook(self._post()))

    def _pre(self, name, mod):
        def hook(m, inp):
            self.stack.append((name, mod))
        return hook

    def _post(self):
        def hook(m, inp, out):
            self.stack.pop()
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()


class SavedMeter:
    """Pack-hook recorder + graph walker. Use ``with meter.recording(): loss = fwd()``."""

    def __init__(self, model, input_tensors, layer_prefix):
        self.model = model
        self.param_ptrs = {p.storage().data_ptr() for p in model.parameters()}
        self.input_ptrs = {t.storage().data_ptr() for t in input_tensors if t is not None}
        self.buffer_ptrs = {b.storage().data_ptr() for b in model.buffers()}
        self.layer_prefix = layer_prefix  # e.g. "transformer.h." -> per-layer attribution
        self.records = collections.OrderedDict()  # ptr -> info (first pack)
        self.n_pack_calls = 0

    # -- classification ---------------------------------------------------------------------
    def category(self, ptr):
        if ptr in self.param_ptrs:
            return "param"
        if ptr in self.input_ptrs:
            return "input"
        if ptr in self.buffer_ptrs:
            return "buffer"
        return "activation"

    def _region(self, stack):
        """Top-level region of the innermost module: 'layer<i>' / module path / '<root>'."""
        if not stack:
            return "<root>"
        name = stack[-1][0]
        if self.layer_prefix and name.startswith(self.layer_prefix):
            idx = name[len(self.layer_prefix):].split(".")[0]
            return "layer%s" % idx
        return name if name else "<root>"

    # -- pack hook --------------------------------------------------------------------------
    def _pack(self, t):
        self.n_pack_calls += 1
        ptr, nbytes = storage_key(t)
        if ptr not in self.records:
            stack = list(self._mstack.stack)
            inner = stack[-1][1] if stack else None
            kind = "tensor"
            if t.dim() == 0 and not t.requires_grad and t.dtype in (torch.float64, torch.int64):
                # Python number wrapped into a 0-d tensor by the arg parser (e.g. `0.5 * x`,
                # `scores / math.sqrt(d)`): MulBackward0/DivBackward0 save it; always host-side.
                kind = "wrapped_scalar"
            elif isinstance(inner, nn.Dropout) and not t.requires_grad:
                kind = "dropout_mask"
            elif isinstance(inner, nn.LayerNorm) and t.dim() >= 1 and t.shape[-1] == 1:
                kind = "ln_stat"
            self.records[ptr] = dict(
                nbytes=nbytes,
                itemsize=t.element_size(),
                numel=nbytes // t.element_size(),
                dtype=str(t.dtype).replace("torch.", ""),
                shape=tuple(t.shape),
                cat=self.category(ptr),
                region=self._region(stack),
                module=stack[-1][0] if stack else "<root>",
                kind=kind,
            )
        # Return a detached alias (same storage): keeping `t` itself would, for saved outputs,
        # create a tensor -> grad_fn -> packed tensor cycle that Python's GC cannot break (leak).
        return t.detach()

    @staticmethod
    def _unpack(t):
        return t

    @contextlib.contextmanager
    def recording(self):
        self._mstack = _ModuleStack(self.model)
        try:
            with torch.autograd.graph.saved_tensors_hooks(self._pack, self._unpack):
                yield self
        finally:
            self._mstack.remove()

    # -- totals -----------------------------------------------------------------------------
    def counted(self):
        return {p: r for p, r in self.records.items() if r["cat"] in ("activation", "buffer")}

    def totals(self):
        c = self.counted()
        tot = sum(r["nbytes"] for r in c.values())
        buf = sum(r["nbytes"] for r in c.values() if r["cat"] == "buffer")
        return tot, buf

    def gpu_equiv_bytes(self, recs):
        """Bytes with CUDA semantics: bool dropout masks, FP32 LayerNorm stats, wrapped Python
        scalars stay on the host (0 device bytes)."""
        total = 0
        for r in recs.values():
            if r["kind"] == "wrapped_scalar":
                continue
            if r["kind"] == "dropout_mask":
                total += r["numel"]  # bool
            elif r["kind"] == "ln_stat":
                total += r["numel"] * 4  # float acc type on CUDA for fp16/bf16/fp32
            else:
                total += r["nbytes"]
        return total

    def by_region(self):
        out = collections.OrderedDict()
        for r in self.counted().values():
            if r["cat"] != "activation":
                continue
            out.setdefault(r["region"], {"bytes": 0, "gpu_equiv_bytes": 0, "records": {}})
        for p, r in self.counted().items():
            if r["cat"] != "activation":
                continue
            d = out[r["region"]]
            d["bytes"] += r["nbytes"]
            d["records"][p] = r
        for d in out.values():
            d["gpu_equiv_bytes"] = self.gpu_equiv_bytes(d["records"])
        return out

    # -- graph walk -------------------------------------------------------------------------
    def graph_walk(self, loss):
        root = loss.grad_fn
        # collect nodes and in-degrees (edges parent->child in the backward graph)
        indeg = collections.Counter()
        nodes, seen, stack = [], set(), [root]
        while stack:
            n = stack.pop()
            if n is None or n in seen:
                continue
            seen.add(n)
            nodes.append(n)
            for nf, _ in n.next_functions:
                if nf is not None:
                    indeg[nf] += 1
                    stack.append(nf)
        # Kahn: backward execution order; reversed = a valid forward order
        order, ready = [], [root]
        indeg = dict(indeg)
        while ready:
            n = ready.pop()
            order.append(n)
            for nf, _ in n.next_functions:
                if nf is None:
                    continue
                indeg[nf] -= 1
                if indeg[nf] == 0:
                    ready.append(nf)
        assert len(order) == len(nodes), (len(order), len(nodes))
        order.reverse()

        per_node = collections.Counter()
        seen_ptrs = {}
        savers = collections.defaultdict(set)
        for n in order:
            label = type(n).__name__
            for attr in dir(n):
                if not attr.startswith("_saved_"):
                    continue
                try:
                    val = getattr(n, attr)
                except Exception:  # noqa: BLE001 - e.g. undefined optional tensors
                    continue
                vals = val if isinstance(val, (tuple, list)) else (val,)
                for v in vals:
                    if not isinstance(v, torch.Tensor):
                        continue
                    ptr, nbytes = storage_key(v)
                    cat = self.category(ptr)
                    if cat not in ("param", "input"):
                        savers[ptr].add((label, attr))
                    if cat in ("param", "input") or ptr in seen_ptrs:
                        continue
                    rec = self.records.get(ptr)
                    lab = label
                    if rec is not None and rec["kind"] == "dropout_mask":
                        lab = "Dropout(%s)" % label
                    if cat == "buffer":
                        lab = "%s[buffer]" % label
                    seen_ptrs[ptr] = nbytes
                    per_node[lab] += nbytes
        self.savers = savers
        return sum(seen_ptrs.values()), dict(sorted(per_node.items(), key=lambda kv: -kv[1])), set(seen_ptrs)

    def torch113_only_ptrs(self):
        """Storages kept alive only by MeanBackward1._saved_self: torch 1.13 saves `self` for
        mean.dim; torch >= 2.0 (mean_backward(grad, self.sym_sizes(), dim, self.sym_numel(), keepdim))
        saves only sizes/numel. Call after graph_walk()."""
        return {p for p, sv in self.savers.items() if sv and all(x == ("MeanBackward1", "_saved_self") for x in sv)}


def decompose(records, b, s, h, a, inter=None, vocab=None):
    """Split activation storages into coefficient buckets (bytes):
    as2b: attention-score-shaped tensors (last two dims == (s, s)), coefficient of a*s^2*b;
    per-token tensors (numel divisible by b*s): sbh (k multiple of h), sbI, sbV, sb (k == 1);
    other: everything else, in bytes (batch-independent small tensors)."""
    out = collections.Counter()
    for r in records.values():
        shape = r["shape"]
        nb_cpu = r["nbytes"]
        if r["kind"] == "wrapped_scalar":
            out["host_wrapped_scalar_bytes"] += nb_cpu
            continue
        if r["kind"] == "dropout_mask":
            nb_gpu = r["numel"]
        elif r["kind"] == "ln_stat":
            nb_gpu = r["numel"] * 4
        else:
            nb_gpu = nb_cpu
        for tag, nb in (("", nb_cpu), ("gpu_", nb_gpu)):
            if len(shape) >= 2 and shape[-1] == s and shape[-2] == s:
                out[tag + "as2b"] += nb / (a * s * s * b)
                continue
            numel = r["numel"]
            if numel % (b * s) == 0:
                k = numel // (b * s)
                per = nb / (b * s)  # bytes per token
                if k % h == 0:
                    out[tag + "sbh"] += per / h
                elif inter and k % inter == 0:
                    out[tag + "sbI"] += per / inter
                elif vocab and k % vocab == 0:
                    out[tag + "sbV"] += per / vocab
                elif k == 1:
                    out[tag + "sb"] += per
                else:
                    out[tag + "other_per_token_bytes_%d" % k] += per
                continue
            out[tag + "other_bytes"] += nb
    return {k: round(v, 6) for k, v in sorted(out.items())}


def make_batch(vocab, b, s, seed=0, mlm=False):
    g = torch.Generator().manual_seed(seed)
    input_ids = torch.randint(0, vocab, (b, s), generator=g)
    attention_mask = torch.ones(b, s, dtype=torch.long)
    labels = input_ids.clone()
    if mlm:  # ~15% masked positions, rest -100 (values do not change saved bytes)
        keep = torch.rand(b, s, generator=g) < 0.15
        labels[~keep] = -100
    return input_ids, attention_mask, labels
