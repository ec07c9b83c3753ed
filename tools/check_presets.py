#!/usr/bin/env python3
"""Check Headroom's transformer model presets against their published parameter counts.

For every resources/models/*.json with family "transformer" this script

  * validates the keys and enumerated values the way src/core/spec/modelspec.cpp (readTransformer) reads them,
  * counts the parameters in closed form, creating exactly the parameters src/core/graph/transformerbuilder.cpp
    creates (embeddings, per-layer projections and norms, final norm, heads), and
  * compares the count with reference.parameters and with the published figures listed in PUBLISHED below.

It exits non-zero if a preset fails validation or its count differs from reference.parameters.
CNN presets are skipped (they are counted by the C++ tests). Usage:

    python3 tools/check_presets.py [resources/models]
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Published counts found independently of Headroom, with where they come from.
PUBLISHED: dict[str, list[tuple[int, str]]] = {
    "gpt2": [(124439808, "keras-hub gpt2_base_en \"params\" (keras_hub/src/models/gpt2/gpt2_presets.py)")],
    "gpt2-medium": [(354823168, "keras-hub gpt2_medium_en \"params\"")],
    "gpt2-large": [(774030080, "keras-hub gpt2_large_en \"params\"")],
    "gpt2-xl": [(1557611200, "keras-hub gpt2_extra_large_en \"params\"")],
    "bert-base": [(109514298, "sum(p.numel()) of AutoModelForMaskedLM('bert-base-uncased'), as printed in public notebooks")],
    "bert-large": [(335174458, "BertForMaskedLM('bert-large-uncased') total, as printed in public model comparisons")],
    "llama-2-7b": [(6738415616, "keras-hub llama2_7b_en \"params\" (keras_hub/src/models/llama/llama_presets.py)")],
    "llama-3-8b": [(8030261248, "keras-hub llama3_8b_en \"params\" (keras_hub/src/models/llama3/llama3_presets.py)")],
    "mistral-7b": [(7241732096, "keras-hub mistral_7b_en \"params\" (keras_hub/src/models/mistral/mistral_presets.py)")],
    "qwen2.5-0.5b": [(494032768, "Qwen2ForCausalLM parameter count; model card rounds it to 0.49B (0.36B non-embedding)")],
    "vit-b-16": [(86567656, "torchvision ViT_B_16_Weights.IMAGENET1K_V1 meta[\"num_params\"]")],
}

NORMS = {"layernorm", "rmsnorm"}
NORM_IMPLS = {"fused", "upcast"}
ACTIVATIONS = {"gelu", "gelu_tanh", "gelu_new", "quick_gelu", "silu", "relu"}
POSITIONS = {"learned", "rotary", "none"}
HEADS = {"causal_lm", "masked_lm", "classifier", "none"}
INPUTS = {"tokens", "patches"}
PROBS = {"before_dropout", "at_matmul"}
PLACEMENTS = {"pre", "post"}

TOP_KEYS = {"format", "version", "id", "name", "description", "family", "reference", "default_sequence", "transformer"}
REF_KEYS = {"implementation", "checkpoint", "url", "parameters", "parameters_source"}
T_KEYS = {
    "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn", "vocab", "max_positions", "type_vocab", "causal",
    "norm_position", "norm", "norm_impl", "activation", "gated_ffn", "position", "fused_qkv", "bias",
    "embedding_norm", "final_norm", "tied_embeddings", "head", "head_bias", "classes", "probs_cast", "dropout",
    "input", "image_size", "patch_size", "channels", "class_token",
}
BIAS_KEYS = {"qkv", "attn_out", "ffn", "norm"}
DROP_KEYS = {"embedding", "attention", "hidden", "ffn"}


class Invalid(Exception):
    pass


def _int(t: dict, key: str, lo: int, hi: int, default: int | None = None) -> int:
    if key not in t:
        if default is None:
            raise Invalid(f"transformer.{key} is required")
        return default
    v = t[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise Invalid(f"transformer.{key} must be an integer in [{lo}, {hi}], got {v!r}")
    return v


def _bool(obj: dict, key: str, default: bool | None, where: str = "transformer") -> bool:
    if key not in obj:
        if default is None:
            raise Invalid(f"{where}.{key} is required")
        return default
    if not isinstance(obj[key], bool):
        raise Invalid(f"{where}.{key} must be a boolean")
    return obj[key]


def _choice(t: dict, key: str, allowed: set[str], default: str | None = None) -> str:
    if key not in t:
        if default is None:
            raise Invalid(f"transformer.{key} is required")
        return default
    if t[key] not in allowed:
        raise Invalid(f"transformer.{key}: unknown value {t[key]!r}; valid: {sorted(allowed)}")
    return t[key]


def read_transformer(t: dict) -> dict:
    """Mirror of readTransformer() in src/core/spec/modelspec.cpp, including its defaults."""
    unknown = set(t) - T_KEYS
    if unknown:
        raise Invalid(f"transformer has keys the loader does not read: {sorted(unknown)}")
    s: dict = {}
    s["layers"] = _int(t, "layers", 1, 4096)
    s["hidden"] = _int(t, "hidden", 1, 1 << 20)
    s["heads"] = _int(t, "heads", 1, 65536)
    s["kv_heads"] = _int(t, "kv_heads", 1, 65536, s["heads"])
    s["head_dim"] = _int(t, "head_dim", 0, 65536, 0)
    if s["head_dim"] == 0 and s["hidden"] % s["heads"]:
        raise Invalid("transformer.heads must divide hidden unless head_dim is given")
    if s["heads"] % s["kv_heads"]:
        raise Invalid("transformer.kv_heads must divide heads")
    s["ffn"] = _int(t, "ffn", 1, (1 << 20) * 16)
    s["vocab"] = _int(t, "vocab", 0, 1 << 24, 0)
    s["max_positions"] = _int(t, "max_positions", 0, 1 << 24, 0)
    s["type_vocab"] = _int(t, "type_vocab", 0, 1024, 0)
    s["causal"] = _bool(t, "causal", None)
    s["pre_norm"] = _choice(t, "norm_position", PLACEMENTS, "pre") == "pre"
    s["norm"] = _choice(t, "norm", NORMS)
    s["norm_impl"] = _choice(t, "norm_impl", NORM_IMPLS, "fused")
    s["activation"] = _choice(t, "activation", ACTIVATIONS)
    s["gated_ffn"] = _bool(t, "gated_ffn", False)
    s["position"] = _choice(t, "position", POSITIONS)
    s["fused_qkv"] = _bool(t, "fused_qkv", False)
    bias = t.get("bias", {})
    if set(bias) - BIAS_KEYS:
        raise Invalid(f"transformer.bias has unknown keys {sorted(set(bias) - BIAS_KEYS)}")
    s["qkv_bias"] = _bool(bias, "qkv", True, "transformer.bias")
    s["out_bias"] = _bool(bias, "attn_out", True, "transformer.bias")
    s["ffn_bias"] = _bool(bias, "ffn", True, "transformer.bias")
    s["norm_bias"] = _bool(bias, "norm", True, "transformer.bias")
    s["embedding_norm"] = _bool(t, "embedding_norm", False)
    s["final_norm"] = _bool(t, "final_norm", s["pre_norm"])
    s["tied"] = _bool(t, "tied_embeddings", False)
    s["head"] = _choice(t, "head", HEADS)
    s["head_bias"] = _bool(t, "head_bias", False)
    s["classes"] = _int(t, "classes", 0, 1 << 24, 0)
    s["probs_cast"] = _choice(t, "probs_cast", PROBS, "before_dropout")
    drop = t.get("dropout", {})
    if set(drop) - DROP_KEYS:
        raise Invalid(f"transformer.dropout has unknown keys {sorted(set(drop) - DROP_KEYS)}")
    for k in DROP_KEYS:
        v = drop.get(k, 0.0)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 0.999:
            raise Invalid(f"transformer.dropout.{k} must be a number in [0, 0.999]")
    s["input"] = _choice(t, "input", INPUTS, "tokens")
    if s["input"] == "patches":
        s["image_size"] = _int(t, "image_size", 1, 65536)
        s["patch_size"] = _int(t, "patch_size", 1, 4096)
        s["channels"] = _int(t, "channels", 1, 4096, 3)
        s["class_token"] = _bool(t, "class_token", True)
        if s["patch_size"] > s["image_size"]:
            raise Invalid("transformer.patch_size is larger than image_size")
    elif s["vocab"] < 1:
        raise Invalid("transformer.vocab is required for token inputs")
    if s["position"] == "learned" and s["input"] == "tokens" and s["max_positions"] < 1:
        raise Invalid("transformer.max_positions is required with learned positions")
    if s["head"] == "classifier" and s["classes"] < 1:
        raise Invalid("transformer.classes is required for a classifier head")
    if s["head"] in ("causal_lm", "masked_lm") and s["input"] != "tokens":
        raise Invalid("transformer.head: a language-model head needs token inputs")
    if s["tied"] and s["input"] != "tokens":
        raise Invalid("transformer.tied_embeddings needs token inputs")
    return s


def count_parameters(s: dict) -> dict[str, int]:
    """Parameters as TransformerBuilder creates them, grouped for the report."""
    h, f, L = s["hidden"], s["ffn"], s["layers"]
    d = s["head_dim"] or h // s["heads"]
    q_dim, kv_dim = s["heads"] * d, s["kv_heads"] * d

    def linear(i: int, o: int, bias: bool) -> int:
        return i * o + (o if bias else 0)

    def norm() -> int:  # LayerNorm: gamma (+ beta if norm bias); RMSNorm: gamma only
        return h + (h if s["norm"] == "layernorm" and s["norm_bias"] else 0)

    parts: dict[str, int] = {}
    # embeddings()
    if s["input"] == "patches":
        side = s["image_size"] // s["patch_size"]
        tokens = side * side + (1 if s["class_token"] else 0)
        parts["embeddings"] = (h * s["channels"] * s["patch_size"] ** 2 + h  # conv_proj weight + bias
                               + (h if s["class_token"] else 0)               # class_token
                               + tokens * h)                                  # encoder.pos_embedding
    else:
        emb = s["vocab"] * h
        if s["type_vocab"] > 0:
            emb += s["type_vocab"] * h
        if s["position"] == "learned":
            emb += s["max_positions"] * h
        if s["embedding_norm"]:
            emb += norm()
        parts["embeddings"] = emb
    # attention() + mlp() + the two norms of each block
    if s["fused_qkv"]:
        attn = linear(h, q_dim + 2 * kv_dim, s["qkv_bias"])
    else:
        attn = linear(h, q_dim, s["qkv_bias"]) + 2 * linear(h, kv_dim, s["qkv_bias"])
    attn += linear(q_dim, h, s["out_bias"])
    if s["gated_ffn"]:
        mlp = 2 * linear(h, f, s["ffn_bias"]) + linear(f, h, s["ffn_bias"])
    else:
        mlp = linear(h, f, s["ffn_bias"]) + linear(f, h, s["ffn_bias"])
    parts["layers"] = L * (attn + mlp + 2 * norm())
    # head()
    head = norm() if s["pre_norm"] and s["final_norm"] else 0
    v = s["vocab"]
    if s["head"] == "causal_lm":
        head += (0 if s["tied"] else v * h) + (v if s["head_bias"] else 0)
    elif s["head"] == "masked_lm":
        head += linear(h, h, True) + norm() + (0 if s["tied"] else v * h) + (v if s["head_bias"] else 0)
    elif s["head"] == "classifier":
        head += s["classes"] * h + (s["classes"] if s["head_bias"] else 0)
    parts["head"] = head
    return parts


def check_file(path: Path) -> tuple[str, int | None, int | None, list[str]]:
    problems: list[str] = []
    doc = json.loads(path.read_text(encoding="utf-8"))
    ident = doc.get("id", path.stem)
    if doc.get("family") != "transformer":
        return ident, None, None, []
    if set(doc) - TOP_KEYS:
        problems.append(f"unknown top-level keys {sorted(set(doc) - TOP_KEYS)}")
    if doc.get("format") != "headroom-model" or doc.get("version") != 1:
        problems.append("format must be headroom-model, version 1")
    if path.stem != ident:
        problems.append(f"file name {path.name} does not match id {ident!r}")
    ref = doc.get("reference", {})
    if set(ref) - REF_KEYS:
        problems.append(f"unknown reference keys {sorted(set(ref) - REF_KEYS)}")
    if not ref.get("parameters_source"):
        problems.append("reference.parameters_source is empty")
    text = path.read_text(encoding="utf-8")
    if text != json.dumps(doc, indent=2, ensure_ascii=False) + "\n":
        problems.append("not formatted as json.dumps(indent=2) plus a trailing newline")
    try:
        spec = read_transformer(doc["transformer"])
    except Invalid as e:
        return ident, None, ref.get("parameters"), problems + [str(e)]
    seq = doc.get("default_sequence")
    if spec["input"] == "patches" and seq is not None and seq < spec["patch_size"]:
        problems.append("default_sequence (image side) is smaller than one patch")
    total = sum(count_parameters(spec).values())
    expected = ref.get("parameters")
    if expected != total:
        problems.append(f"closed-form count {total:,} != reference.parameters {expected!r}")
    for value, source in PUBLISHED.get(ident, []):
        if value != total:
            problems.append(f"closed-form count {total:,} != published {value:,} ({source})")
    return ident, total, expected, problems


def main(argv: list[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else ROOT / "resources" / "models"
    rows, failed = [], False
    for path in sorted(folder.glob("*.json")):
        ident, total, expected, problems = check_file(path)
        if total is None and not problems:
            continue  # not a transformer preset
        published = ", ".join(f"{v:,}" for v, _ in PUBLISHED.get(ident, [])) or "-"
        ok = not problems
        failed |= not ok
        rows.append((ident, f"{total:,}" if total is not None else "?", f"{expected:,}" if expected else "-",
                     published, "ok" if ok else "FAIL"))
        for p in problems:
            print(f"{path.name}: {p}", file=sys.stderr)
    header = ("id", "closed form", "reference", "published", "")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(str(c).rjust(w) if i in (1, 2, 3) else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
    if not rows:
        print(f"no transformer presets in {folder}", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
