#pragma once

// The cheapest changes that make a training step fit: single changes first (each with what it saves, and whether it
// is enough alone), then, when none is enough, combinations of them, best first by the throughput they keep, then
// by how few changes they make.

#include "estimate.h"

#include <string>
#include <utility>
#include <vector>

namespace headroom {

enum class FixKind : std::uint8_t {
    FusedAttention,
    SelectiveCheckpointing,
    FullCheckpointing,
    MixedPrecision,
    EightBitOptimizer,
    ZeroStage,
    OptimizerOffload,
    SmallerMicroBatch, // at the same global batch: micro-batch x accumulation steps unchanged
    PureBf16,          // model.to(torch.bfloat16): 16-bit weights, gradients and optimizer states
    FusedAdamW,        // torch.optim.AdamW(fused=True): no foreach temporaries
    LoRA,              // train PEFT LoRA adapters (r 8 on q and v) instead of every weight: a different training
    QLoRA,             // LoRA over an NF4 base (bitsandbytes 4-bit, prepare_model_for_kbit_training)
    // The largest micro-batch that fits with the accumulation steps whose global batch is nearest the current one
    // (158 = 2 x 79 keeps its global batch only at micro-batch 2; 16 x 10 = 160 is the practical alternative):
    // offered beside SmallerMicroBatch when that is less than half the largest micro-batch that fits.
    NearGlobalBatch,
};

// LoRA and QLoRA change what is trained; the others train the same model the same way, with less memory.
inline bool changesWhatTrains(FixKind k) { return k == FixKind::LoRA || k == FixKind::QLoRA; }

struct Fix {
    FixKind kind = FixKind::FullCheckpointing; // the first change
    std::vector<FixKind> changes;              // every change, in the order applied; one for a single change
    TrainingConfig config;                     // the configuration with the changes applied
    double peakBytes = 0.0;
    double savedBytes = 0.0; // current peak minus this peak
    bool fits = false;       // this suggestion alone is enough
    double stepSeconds = 0.0;
    double throughputPerSecond = 0.0;
};

// Single changes that lower the peak, the ones that make the step fit first, then by their cost in throughput.
std::vector<Fix> suggestFixes(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                              const GpuOverrides& overrides, const Estimate& current);

// Combinations of two or more changes that make the step fit, best first: most throughput, then fewest changes. At
// most `limit`. Hundreds of estimates (tens of milliseconds): the window runs it on a worker.
std::vector<Fix> combinedFixes(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                               const GpuOverrides& overrides, const Estimate& current, std::size_t limit = 3);

// The `headroom estimate` options that, added to the command line of `base`, give the fix's configuration, in a
// stable order ("--offload" takes no value: its value is empty).
std::vector<std::pair<std::string, std::string>> fixArguments(const TrainingConfig& base, const Fix& fix);
// "pure BF16 + 8-bit AdamW + full checkpointing", in English (the window writes its own, translated).
std::string describeFix(const Fix& fix);

} // namespace headroom
