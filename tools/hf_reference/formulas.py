#!/usr/bin/env python3
"""Closed-form saved-bytes formulas derived from the measurements (operator by operator), checked
against every run in results.json.

Symbols: s seq, b batch, h hidden, a heads, I intermediate, V vocab, L layers, d = h/a, e = bytes per
element of the model dtype (4 FP32, 2 BF16). Three semantics:
  cpu   : what torch 1.13 on CPU saves (dropout noise in model dtype, LayerNorm stats in model dtype,
          Python-number 0-d float64/int64 tensors saved by Mul/Div, MeanBackward1 saves its input)
  gpu   : same graph with CUDA kernels: dropout mask bool (1 B/elem), LayerNorm mean/rstd FP32
          (4 B/row each), wrapped Python scalars stay on the host (0 device bytes)
  gpu2  : gpu + torch>=2 autograd formulas (mean.dim saves no tensor) -- only Llama's RMSNorm changes
Buffers (GPT-2 causal `bias`, BERT position_ids/token_type_ids) are excluded here (activation bytes).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _sem(e, mode):
    cpu = mode == "cpu"
    return dict(m=e if cpu else 1, st=e if cpu else 4, host=cpu)


def bert_layer(s, b, h, a, I, e, mode):
    k = _sem(e, mode)
    sbh, sbI, as2b, sb = s * b * h, s * b * I, a * s * s * b, s * b
    return (e * (8 * sbh + 2 * sbI + 2 * as2b) + k["m"] * (2 * sbh + as2b) + 2 * 2 * k["st"] * sb
            + (8 if k["host"] else 0))  # 8: float64 wrapped 1/sqrt(d) saved by DivBackward0


def bert_nonlayer(s, b, h, V, e, mode):
    k = _sem(e, mode)
    sbh, sb = s * b * h, s * b
    return e * 5 * sbh + k["m"] * sbh + e * sb * V + 2 * 2 * k["st"] * sb + e  # e: nll total_weight


def gpt2_layer(s, b, h, a, I, e, mode):
    k = _sem(e, mode)
    sbh, sbI, as2b, sb = s * b * h, s * b * I, a * s * s * b, s * b
    return (e * (8 * sbh + 5 * sbI + 2 * as2b) + k["m"] * (2 * sbh + as2b) + 2 * 2 * k["st"] * sb
            + e  # torch.full([], sqrt(d)) divisor saved by DivBackward0 (device tensor)
            + (24 if k["host"] else 0))  # three float64 wrapped scalars in NewGELU (0.5*, 0.044715*, sqrt(2/pi)*)


def gpt2_nonlayer(s, b, h, V, e, mode, loss="new"):
    k = _sem(e, mode)
    sbh, sb = s * b * h, s * b
    common = k["m"] * sbh + e * 2 * sbh + 2 * k["st"] * sb + 8 * s  # emb mask, ln_f in, lm_head in, ln_f stats, position_ids
    if loss == "new":
        target = 8 * (s + 1) if b == 1 else 8 * sb  # b==1: .contiguous() of the padded labels is a view
        return common + 4 * sb * V + target + 4 + (8 if k["host"] else 0)
    target = 0 if b == 1 else 8 * b * (s - 1)  # b==1: labels[...,1:].contiguous() is a view of the input labels
    return common + e * b * (s - 1) * V + target + e


def llama_layer(s, b, h, a, I, e, mode, first=False):
    k = _sem(e, mode)
    sbh, sbI, as2b, sb = s * b * h, s * b * I, a * s * s * b, s * b
    mean_self = 0 if mode == "gpu2" else 4
    per_norm = 4 + mean_self + 2 * e  # x in fp32 (the input itself when fp32), x^2 (torch 1.13), x*rsqrt, weight*.. output
    out = (2 * per_norm + 4 * e) * sbh + 4 * e * sbI + 2 * 4 * sb + (4 + (e if e != 4 else 0)) * as2b
    out += 8 if k["host"] else 0  # float64 wrapped `* scaling`
    if first:
        out += 2 * s * (h // a) * e  # cos, sin (shared by all layers; first saved in layer 0)
    return out


def llama_nonlayer(s, b, h, V, e, mode):
    k = _sem(e, mode)
    sbh, sb = s * b * h, s * b
    mean_self = 0 if mode == "gpu2" else 4
    target = 8 * (s + 1) if b == 1 else 8 * sb
    return (4 + mean_self + 2 * e) * sbh + 4 * sb + 4 * sb * V + target + 4 + (8 if k["host"] else 0)


def predict(run, mode):
    d, s, b = run["dims"], run["seq"], run["batch"]
    e = 4 if run["dtype"] == "fp32" else 2
    h, a, I, V, L = d["h"], d["a"], d["inter"], d["vocab"], d["L"]
    if run["model"] == "bert":
        return L * bert_layer(s, b, h, a, I, e, mode) + bert_nonlayer(s, b, h, V, e, mode), bert_layer(s, b, h, a, I, e, mode)
    if run["model"].startswith("gpt2"):
        loss = "legacy" if run["model"] == "gpt2-legacy-loss" else "new"
        return (L * gpt2_layer(s, b, h, a, I, e, mode) + gpt2_nonlayer(s, b, h, V, e, mode, loss),
                gpt2_layer(s, b, h, a, I, e, mode))
    if run["model"] == "llama":
        return (L * llama_layer(s, b, h, a, I, e, mode) + llama_layer(s, b, h, a, I, e, mode, True)
                - llama_layer(s, b, h, a, I, e, mode) + llama_nonlayer(s, b, h, V, e, mode),
                llama_layer(s, b, h, a, I, e, mode))
    raise ValueError(run["model"])


def main(path=os.path.join(HERE, "results.json")):
    doc = json.load(open(path))
    ok = True
    hdr = "%-17s %-4s %1s %4s | %12s %12s %12s | %10s %10s | %s" % (
        "model", "dt", "b", "s", "act(cpu)", "gpu_equiv", "gpu_torch2", "layer_cpu", "layer_gpu", "formula ok")
    print(hdr)
    for r in doc["runs"]:
        tot_cpu, lay_cpu = predict(r, "cpu")
        tot_gpu, lay_gpu = predict(r, "gpu")
        tot_g2, lay_g2 = predict(r, "gpu2")
        checks = [tot_cpu == r["activation_bytes"], tot_gpu == r["gpu_equiv_activation_bytes"],
                  tot_g2 == r["gpu_equiv_torch2_activation_bytes"], lay_cpu == r["layer1_bytes"],
                  lay_gpu == r["layer1_gpu_equiv_bytes"], lay_g2 == r["layer1_gpu_equiv_torch2_bytes"]]
        if "layer_bytes_by_difference_2_minus_1" in r:
            checks.append(r["layer_bytes_by_difference_2_minus_1"] == r["layer1_bytes"])
        checks.append(r["methods_agree"])
        ok &= all(checks)
        print("%-17s %-4s %1d %4d | %12d %12d %12d | %10d %10d | %s" % (
            r["model"], r["dtype"], r["batch"], r["seq"], r["activation_bytes"], r["gpu_equiv_activation_bytes"],
            r["gpu_equiv_torch2_activation_bytes"], r["layer1_bytes"], r["layer1_gpu_equiv_bytes"],
            "OK" if all(checks) else "MISMATCH %s" % checks))
    k = doc.get("korthikanti")
    if k:
        print("korthikanti bf16 s=%d b=%d h=%d a=%d: layer cpu=%d gpu_equiv=%d paper=%d (gpu-paper=%d = 16*s*b LN stats? %s)"
              % (k["seq"], k["batch"], k["hidden"], k["heads"], k["layer_bytes_by_module"], k["layer_gpu_equiv_bytes"],
                 k["paper_sbh_34_plus_5as_over_h"], k["layer_gpu_equiv_bytes"] - k["paper_sbh_34_plus_5as_over_h"],
                 k["layer_gpu_equiv_bytes"] - k["paper_sbh_34_plus_5as_over_h"] == 16 * k["seq"] * k["batch"]))
    print("ALL FORMULAS MATCH" if ok else "SOME MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
