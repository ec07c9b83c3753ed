#pragma once

// How fast a fused SDPA kernel runs, where that is measured: on Hopper (compute capability 9.0: H100, H200, GH200)
// cuDNN's and FlashAttention-2's kernels reach well under the dense tensor peak that a GEMM nears, and less the
// shorter the sequence. Two effects, each a closed form of the kernel's tiles:
//   * tile quantization: a kernel computes whole Bq x Bk tiles of the score matrix, so a sequence not a multiple
//     of the tile, and the causal diagonal's half-masked tiles, cost whole tiles (ViT-B/16's 197 tokens run as
//     256 x 256, 1.69x the FLOPs counted);
//   * the prologue and epilogue of a query tile (load Q, rescale and write O) amortised over the key tiles it
//     visits: the rate rises as inner / (inner + sHalf), inner the keys a query tile sees.
// Their constants, per kernel and pass, are read off FlashAttention-3's benchmarks on an H100 SXM5 (Shah et al.
// 2024, arXiv:2407.08608, figures 5 and 6: cuDNN and FlashAttention-2, head dims 64 and 128, sequences 512 to 16k,
// no dropout), and dropout's cost off the H200 profiles of tests/data/measured-heldout/*-kernels.* (torch 2.11,
// cuDNN 9.19): docs/formulas.md "SDPA's speed". Elsewhere (other GPUs, the memory-efficient kernel) nothing is
// measured and the time model's generic attention efficiency stands.

#include "sdpa.h"

namespace headroom {

struct SdpaShape {
    double queries = 0.0;
    double keys = 0.0;
    double headDim = 0.0;
    bool causal = false;
    double dropout = 0.0;
};

// One SDPA call's kernels, forward and backward. An efficiency is a fraction of the unit's dense peak on the FLOPs
// the tiles execute; `work` is those FLOPs over the ones counted (4 q k d per head forward, halved when causal, and
// 2.5 times that backward). An efficiency of 0: not known, the time model's generic attention efficiency applies.
struct SdpaSpeed {
    double forwardEfficiency = 0.0;
    double backwardEfficiency = 0.0;
    double forwardWork = 1.0;
    double backwardWork = 1.0;
};

SdpaSpeed sdpaSpeed(SdpaKernel kernel, int computeCapability, const SdpaShape& shape);

} // namespace headroom
