#!/usr/bin/env python3
"""The fit of the llama.cpp decode constants (src/core/inference/inferenceengine.cpp,
docs/references/decode-speed.md sec. 2) over the rows of tests/data/decode/llamacpp.json marked fit: true.

Per token, t = Rw / eta_w + Rrest / eta + kernels x kappa / clock + host, with Rw the weights' decode bytes and Rrest
the others' over the GPU's datasheet bandwidth, eta_w the weights' mat-vec kernel's share of it (mul_mat_vec_q for a
quantized format, the 16-bit kernels' eta for F16 in build 1680), eta that of the 16-bit kernels (per memory type:
GDDR or HBM), kappa the cycles per kernel and host the host's time per token, fixed (not fitted). Linear least squares
on the relative error in (1/eta_w, 1/eta, kappa). The bytes, kernel counts and clocks come from `headroom infer
--json`, so they are the program's own and independent of the constants being fitted.

Usage: tools/calibration/fit_decode.py [path/to/headroom] [host milliseconds, default 0.85]
"""
import json
import pathlib
import subprocess
import sys

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[2]


def components(headroom, row):
    cmd = [headroom, 'infer', '--gpu', row['gpu'], '--model', row['model'], '--weights', row['weights'],
           '--engine', row['engine'], '--prompt', str(row['prompt']), '--generate', str(row['generate']),
           '--attention', 'eager', '--kv-block', '1', '--json']
    d = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    gpu = json.loads((REPO / 'gpus' / (row['gpu'] + '.json')).read_text())
    bandwidth = d['roofline']['bandwidth_bytes_per_second']
    points = [p for p in d['roofline']['points'] if p['stage'] == 'decode']
    weights = sum(p['bytes'] for p in points if p['kind'] == 'gemm' and p['name'] not in ('qk_matmul', 'sv_matmul'))
    return {
        'quantized': row['weights'] != 'fp16',
        'gddr': 'GDDR' in gpu['memory']['type'].upper(),
        'weights': weights / bandwidth,
        'rest': (sum(p['bytes'] for p in points) - weights) / bandwidth,
        'floors': d['decode']['kernels_per_token'] / d['engine']['clock_hz'],
        'published': 1.0 / row['tokens_per_second'],
        'row': row,
    }


def columns(c):
    """Coefficients of x = [1/eta_w GDDR, 1/eta_w HBM, 1/eta GDDR, 1/eta HBM, kappa] in t / published."""
    v = [0.0] * 5
    memory = 0 if c['gddr'] else 1
    v[(0 if c['quantized'] else 2) + memory] += c['weights'] / c['published']
    v[2 + memory] += c['rest'] / c['published']
    v[4] = c['floors'] / c['published']
    return v


def main():
    headroom = sys.argv[1] if len(sys.argv) > 1 else str(REPO / 'build/release/src/headroom')
    host = (float(sys.argv[2]) if len(sys.argv) > 2 else 0.85) * 1e-3
    rows = json.loads((REPO / 'tests/data/decode/llamacpp.json').read_text())['rows']
    fitted = [components(headroom, r) for r in rows if r['fit']]
    a = np.array([columns(c) for c in fitted])
    fixed = np.array([host / c['published'] for c in fitted])
    x, *_ = np.linalg.lstsq(a, 1.0 - fixed, rcond=None)
    errors = a @ x + fixed - 1.0
    print('host %.2f ms (fixed) | mul_mat_vec_q GDDR %.3f HBM %.3f | 16-bit GDDR %.3f HBM %.3f | kappa %.0f cycles'
          % (host * 1e3, 1 / x[0], 1 / x[1], 1 / x[2], 1 / x[3], x[4]))
    for c, e in zip(fitted, errors):
        print('  %-16s %-10s time %+5.1f %%' % (c['row']['gpu'], c['row']['weights'], 100 * e))
    print('median %.1f %%, worst %.1f %%' % (100 * np.median(abs(errors)), 100 * max(abs(errors))))


if __name__ == '__main__':
    main()
