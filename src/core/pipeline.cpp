#include "pipeline.h"

#include <algorithm>

namespace headroom {

int pipelineStages(const TrainingConfig& config) { return std::max(1, config.pipelineParallel); }

int pipelineChunks(const TrainingConfig& config)
{
    return config.pipelineSchedule == PipelineSchedule::Interleaved ? std::max(1, config.virtualStages) : 1;
}

int microBatchesPerStep(const TrainingConfig& config) { return std::max(1, config.gradientAccumulation); }

int gradientRanks(const TrainingConfig& config)
{
    return std::max(1, config.dataParallel) * std::max(1, config.contextParallel);
}

std::int64_t jobGpus(const TrainingConfig& config)
{
    // In 64 bits: 1024 x 1024 x 2^20 ranks pass what an int holds.
    return std::int64_t(std::max(1, config.tensorParallel)) * std::max(1, config.pipelineParallel)
        * std::max(1, config.contextParallel) * std::max(1, config.dataParallel);
}

std::vector<LayerRange> stageLayers(int layers, const TrainingConfig& config, int stage)
{
    const int p = pipelineStages(config);
    const int v = pipelineChunks(config);
    stage = std::clamp(stage, 0, p - 1);
    std::vector<LayerRange> ranges;
    if (v > 1) {
        const int per = layers / (p * v); // validateForModel checks that p v divides the blocks
        for (int c = 0; c < v; ++c) {
            const int first = (c * p + stage) * per;
            ranges.push_back({ first, first + per });
        }
        return ranges;
    }
    const int base = layers / p, extra = layers % p;
    // The last `extra` stages take one more block: the first stage already holds the embeddings.
    auto start = [&](int s) { return s * base + std::max(0, s - (p - extra)); };
    ranges.push_back({ start(stage), start(stage + 1) });
    return ranges;
}

double inFlightMicroBatches(const TrainingConfig& config, int stage)
{
    const int p = pipelineStages(config);
    const int m = microBatchesPerStep(config);
    stage = std::clamp(stage, 0, p - 1);
    if (p == 1)
        return 1.0;
    switch (config.pipelineSchedule) {
    case PipelineSchedule::GPipe:
        return m;
    case PipelineSchedule::OneFOneB:
        return std::min(m, p - stage);
    case PipelineSchedule::Interleaved: {
        // Megatron-LM schedules.py, forward_backward_pipelining_with_interleaving: the warm-up forwards of model
        // chunks, at most every chunk of every micro-batch, then the one that runs.
        const int v = pipelineChunks(config);
        const long long total = static_cast<long long>(m) * v;
        if (m == p) // Megatron runs every forward first when there are exactly p micro-batches
            return m;
        const long long warmup = std::min<long long>((p - stage - 1) * 2LL + (v - 1LL) * p, total);
        return double(std::min(warmup + 1, total)) / v;
    }
    }
    return 1.0;
}

double bubbleFraction(const TrainingConfig& config)
{
    const int p = pipelineStages(config);
    return double(p - 1) / (double(pipelineChunks(config)) * microBatchesPerStep(config));
}

} // namespace headroom
