#include "sdpaspeed.h"

#include <algorithm>
#include <cmath>

namespace headroom {

namespace {

    // A kernel's tile and its speed on Hopper, one pass. The rate on the executed FLOPs is
    // peak x (atHead64 .. atHead128 by head dim) x inner / (inner + sHalf).
    struct PassSpeed {
        double tileQueries = 64.0, tileKeys = 128.0; // Bq x Bk of the score matrix
        double atHead64 = 0.0, atHead128 = 0.0;      // the long-sequence fraction of the dense peak
        double sHalf = 0.0;                          // keys a query tile sees when the rate is half that
    };

    // FlashAttention-3's figures 5 and 6 (H100 SXM5, BF16, batch x sequence 16k, hidden 2048, no dropout), on the 989
    // TFLOP/s dense peak: cuDNN forward, head dim 64, 335 TFLOP/s at 512 to 413 at 16k; head dim 128, 497 to 617;
    // backward 266 to 433 and 305 to 518. FlashAttention-2: forward 282 to 324 and 309 to 370, backward 198 to 291 and
    // 214 to 322 (cuDNN head dim 128 forward peaks at 2k, 617, and eases to 595: 0.63 sits between). The tiles are the
    // kernels': cuDNN's sm90 flash fprop 64x128x64 and bprop 64x64x64 (kernel names in the H200 profiles);
    // FlashAttention-2's Flash_fwd_kernel_traits<64, 128, 128> and Flash_bwd_kernel_traits<.., 128, 128, ..>
    // (flash_fwd_launch_template.h, flash_bwd_launch_template.h).
    constexpr PassSpeed kCudnnForward { 64.0, 128.0, 0.420, 0.630, 122.0 };
    constexpr PassSpeed kCudnnBackward { 64.0, 64.0, 0.445, 0.535, 350.0 };
    constexpr PassSpeed kFlashForward { 128.0, 128.0, 0.330, 0.375, 90.0 };
    constexpr PassSpeed kFlashBackward { 128.0, 128.0, 0.300, 0.330, 255.0 };

    // Dropout inside the kernel (Philox draws per score, in both passes): measured on the H200 (torch 2.11, cuDNN 9.19,
    // tests/data/measured-heldout/bert-base-cuda-b32-s512-bf16-kernels.*): BERT's p = 0.1 at b32 x 512, non-causal,
    // head dim 64, forward 162 TFLOP/s where the no-dropout figure is 335, backward 221 where it is 266.
    constexpr double kDropoutForward = 0.50;
    constexpr double kDropoutBackward = 0.82;

    struct Tiles {
        double total = 0.0; // tiles the kernel computes
        double inner = 0.0; // keys a query tile sees, on average
    };

    // Tiles of a q x k score matrix. Causal with q = k (top-left aligned, as is_causal): query tile j sees key tiles
    // up to ceil(j Bq / Bk); with Bk = r Bq that sums, over n query tiles n = a r + b, to r a (a + 1) / 2 + b (a + 1).
    // A rank's queries against every key (context parallelism's load-balanced chunks): half the tiles and half a
    // diagonal tile per query tile.
    Tiles tiles(double q, double k, double bq, double bk, bool causal)
    {
        const double qt = std::ceil(q / bq), kt = std::ceil(k / bk);
        Tiles t;
        if (!causal) {
            t.total = qt * kt;
        } else if (q == k) {
            const double r = std::max(1.0, std::round(bk / bq));
            const double a = std::floor(qt / r), b = qt - a * r;
            t.total = std::min(qt * kt, r * a * (a + 1.0) / 2.0 + b * (a + 1.0));
        } else {
            t.total = std::min(qt * kt, qt * kt / 2.0 + qt / 2.0);
        }
        t.inner = t.total * bk / qt;
        return t;
    }

    double fractionAt(const PassSpeed& p, double headDim)
    {
        const double x = std::clamp((headDim - 64.0) / 64.0, 0.0, 1.0);
        return p.atHead64 + x * (p.atHead128 - p.atHead64);
    }

} // namespace

SdpaSpeed sdpaSpeed(SdpaKernel kernel, int computeCapability, const SdpaShape& shape)
{
    SdpaSpeed out;
    if (computeCapability != 90 || shape.queries <= 0.0 || shape.keys <= 0.0)
        return out;
    if (kernel != SdpaKernel::CuDnn && kernel != SdpaKernel::Flash)
        return out;
    const bool cudnn = kernel == SdpaKernel::CuDnn;
    const double counted = shape.queries * shape.keys * (shape.causal ? 0.5 : 1.0);
    auto pass = [&](const PassSpeed& p, double dropoutFactor, double& efficiency, double& work) {
        const Tiles t = tiles(shape.queries, shape.keys, p.tileQueries, p.tileKeys, shape.causal);
        work = t.total * p.tileQueries * p.tileKeys / counted;
        efficiency = fractionAt(p, shape.headDim) * t.inner / (t.inner + p.sHalf)
            * (shape.dropout > 0.0 ? dropoutFactor : 1.0);
    };
    pass(cudnn ? kCudnnForward : kFlashForward, kDropoutForward, out.forwardEfficiency, out.forwardWork);
    pass(cudnn ? kCudnnBackward : kFlashBackward, kDropoutBackward, out.backwardEfficiency, out.backwardWork);
    return out;
}

} // namespace headroom
