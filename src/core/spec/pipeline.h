#pragma once

// Pipeline parallelism: which blocks each stage holds, how many micro-batches a stage keeps in flight, and the
// bubble. The stage's memory and work come from its own operator graph (buildGraph with
// TrainingConfig::pipelineStage) and the lowering adds the in-flight micro-batches as one block; only the counts
// live here.
//
// Sources (docs/references/parallelism.md): Narayanan et al. 2021 (arXiv 2104.04473) sec. 2.2 for the schedules
// and the bubble; Korthikanti et al. 2022 (arXiv 2205.05198) sec. 4.2.3 for the first stage's in-flight factor;
// Megatron-LM's schedules.py for the interleaved warm-up count.

#include "trainingconfig.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace headroom {

// Blocks [first, last) of the model, on one stage; a stage holds one range, or v of them when interleaved.
struct LayerRange {
    int first = 0;
    int last = 0;
    bool operator==(const LayerRange&) const = default;
};

int pipelineStages(const TrainingConfig& config);      // p, at least 1
int pipelineChunks(const TrainingConfig& config);      // v under the interleaved schedule, else 1
int microBatchesPerStep(const TrainingConfig& config); // m: micro-batches each pipeline runs per optimizer step
std::int64_t jobGpus(const TrainingConfig& config);    // t x p x cp x dp
// The ranks gradients are reduced and ZeRO partitions over: Megatron's data-parallel group with context
// parallelism, dp x cp.
int gradientRanks(const TrainingConfig& config);
// The GPUs one data-parallel ring spans in Megatron's layout (tensor-parallel ranks innermost): t x dp x cp.
int dataParallelSpan(const TrainingConfig& config);

// The blocks of `stage`. Without interleaving the stages hold contiguous runs of floor(L/p) blocks and the last
// L mod p stages one more (the first stage also holds the embeddings, the last the head and the loss); with it,
// stage s holds virtual stages s, s + p, ..., each of L / (p v) blocks (Megatron's layout). Uneven stages follow
// Megatron-LM's get_num_layers_to_build (--decoder-first/last-pipeline-num-layers): the first and last stages hold
// the blocks given, the stages between share the rest equally (validateForModel checks that they divide it).
std::vector<LayerRange> stageLayers(int layers, const TrainingConfig& config, int stage);

// Megatron's rule for uneven stages as a message, or empty when `layers` blocks split as `config` asks: the blocks
// left after the first and last stages' must divide equally, at least one each, over the stages between.
std::string unevenStagesProblem(int layers, const TrainingConfig& config);

// Megatron-LM's uneven stages that relieve the ends of a pipeline of p stages (--decoder-first-pipeline-num-layers,
// --decoder-last-pipeline-num-layers), as (first, last) block counts, 0 for "as a middle stage": the middle stages
// hold floor(L / p) or that plus one blocks each, and the first stage, the last or both hold the rest, fewer than a
// middle stage (the first also holds the embeddings and, under 1F1B, the most micro-batches in flight; the last the
// head). Each passes unevenStagesProblem.
std::vector<std::pair<int, int>> unevenStageSplits(int layers, int p);

// Micro-batches whose activations `stage` holds at once, in units of the whole stage's activations of one
// micro-batch: GPipe m; 1F1B min(m, p - s); interleaved (Megatron's warm-up (p - s - 1) 2 + (v - 1) p chunks,
// plus the one running) / v, at most m. Stage 0 of the interleaved schedule: p (1 + (p - 1) / (p v)).
double inFlightMicroBatches(const TrainingConfig& config, int stage);

// The bubble as a share of the ideal time of m micro-batches: (p - 1) / (v m).
double bubbleFraction(const TrainingConfig& config);

} // namespace headroom
