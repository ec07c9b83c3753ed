#pragma once

// One product in a memory figure: elements x copies x bytes per element (÷ the ranks it is sharded over). The lowering
// and the optimizer record the terms their totals are sums of, so that the Explain panel writes arithmetic that
// multiplies out to the figure beside it (explain.h), never a closed form that merely resembles it.

#include "types.h"

#include <string_view>
#include <vector>

namespace headroom {

enum class TermKind : std::uint8_t {
    FrozenWeights,     // parameters without requires_grad, in their dtype (NF4 under QLoRA)
    TrainedWeights,    // parameters that train
    Adapters,          // LoRA / DoRA adapter parameters (lora_A, lora_B, magnitude)
    Gradients,         // .grad of each trained parameter
    DdpBuckets,        // DistributedDataParallel's flat gradient buckets (a second copy)
    MasterWeights,     // FP32 master copy of the trained parameters
    Moments,           // Adam's m and v
    Momentum,          // SGD's momentum buffer
    QuantizedStates,   // bitsandbytes 8-bit states (two per element)
    StateScales,       // their FP32 absmax, one per block of 256 elements, per state
    SmallTensorStates, // bitsandbytes keeps tensors under 4096 elements in 32-bit states
    FactoredStates,    // Adafactor's row and column statistics
    AutocastCasts,     // autocast's cached low-precision casts of the trained FP32 weights
    Fp8Copies,         // Transformer Engine's FP8 weight and its transpose
    Operator,          // bytes held by one operator's tensors (label), summed over layers
    OtherOperators,    // the rest of the operators, summed
    InputBatch,        // the micro-batch's inputs
    FrameworkOverhead, // CUDA context, cuBLAS and library workspaces (frameworkOverheadBytes)
    AllocatorReserve,  // the reserve fraction on the bytes allocated at the peak
    Workspaces,        // blocks of the overhead category allocated in the step (NCCL, cuDNN)
};

struct MemoryTerm {
    TermKind kind = TermKind::FrozenWeights;
    DType dtype = DType::F32;
    double count = 0.0;           // elements, or bytes when bytesPerElement is 1 and dtype is U8 (byte terms)
    double factor = 1.0;          // copies per element (Adam's two moments)
    double bytesPerElement = 4.0; // bytesPerElement(dtype), or a ratio for byte terms (the reserve fraction)
    double divisor = 1.0;         // ranks it is sharded over (ZeRO), 1 when replicated
    bool expert = false;          // routed experts: ZeRO shards them over dp / ep ranks
    std::string_view label;       // Operator terms: the operator; Gradients: "(gradient)" phase is in `backward`
    bool backward = false;        // Operator terms: allocated in the backward
    double bytes() const { return count * factor * bytesPerElement / divisor; }
};

// Adds `count` elements to the term of the same kind, dtype and expert flag, or appends one.
inline void addTerm(std::vector<MemoryTerm>& terms, TermKind kind, DType dtype, double count, double factor = 1.0,
                    bool expert = false)
{
    for (MemoryTerm& t : terms) {
        if (t.kind == kind && t.dtype == dtype && t.expert == expert && t.factor == factor) {
            t.count += count;
            return;
        }
    }
    MemoryTerm t;
    t.kind = kind;
    t.dtype = dtype;
    t.count = count;
    t.factor = factor;
    t.bytesPerElement = bytesPerElement(dtype);
    t.expert = expert;
    terms.push_back(t);
}

inline double sumBytes(const std::vector<MemoryTerm>& terms)
{
    double s = 0.0;
    for (const MemoryTerm& t : terms)
        s += t.bytes();
    return s;
}

struct Graph;
struct TrainingConfig;

// The model states of a graph as terms, by the lowering's rules (lowering.cpp: each parameter in its own dtype, the
// gradients of the trained ones in their dtype or the master-weights gradient type, one copy per weight-copy storage
// of every real block) and the optimizer's (optimizer.cpp): whole-model figures before ZeRO shards them.
struct ModelStateTerms {
    std::vector<MemoryTerm> weights;
    std::vector<MemoryTerm> gradients;
    std::vector<MemoryTerm> weightCopies;
    std::vector<MemoryTerm> optimizer; // master weights and states
};
ModelStateTerms modelStateTerms(const Graph& g, const TrainingConfig& cfg, DType gradientType);
// optimizer.cpp: what optimizerFootprint's stateBytes + masterBytes are the sum of.
std::vector<MemoryTerm> optimizerStateTerms(const Graph& graph, const TrainingConfig& config);

} // namespace headroom
