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

int dataParallelSpan(const TrainingConfig& config)
{
    return std::max(1, config.tensorParallel) * gradientRanks(config);
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
    const int first = p > 1 ? config.firstStageLayers : 0, last = p > 1 ? config.lastStageLayers : 0;
    if (first > 0 || last > 0) {
        // Megatron-LM's get_num_layers_to_build: the middle stages share what the first and last leave.
        const int middleStages = p - (first > 0) - (last > 0);
        const int per = middleStages > 0 ? (layers - first - last) / middleStages : 0;
        auto start = [&](int s) { return s == 0 ? 0 : (first > 0 ? first : per) + (s - 1) * per; };
        const int end = stage == p - 1 ? layers : start(stage + 1);
        ranges.push_back({ start(stage), end });
        return ranges;
    }
    const int base = layers / p, extra = layers % p;
    // The last `extra` stages take one more block: the first stage already holds the embeddings.
    auto start = [&](int s) { return s * base + std::max(0, s - (p - extra)); };
    ranges.push_back({ start(stage), start(stage + 1) });
    return ranges;
}

std::vector<std::pair<int, int>> unevenStageSplits(int layers, int p)
{
    std::vector<std::pair<int, int>> splits;
    if (p < 2 || p > layers)
        return splits;
    for (const int per : { layers / p, layers / p + 1 }) {
        const int alone = layers - (p - 1) * per; // the first (or the last) beside p - 1 stages of `per`
        const int pair = layers - (p - 2) * per;  // the first and the last beside p - 2
        if (alone >= 1 && alone < per) {
            splits.emplace_back(alone, 0);
            splits.emplace_back(0, alone);
        }
        if (p > 2 && pair >= 2 && pair % 2 == 0 && pair / 2 < per)
            splits.emplace_back(pair / 2, pair / 2);
    }
    return splits;
}

std::string unevenStagesProblem(int layers, const TrainingConfig& config)
{
    const int p = pipelineStages(config);
    const int first = config.firstStageLayers, last = config.lastStageLayers;
    if (first == 0 && last == 0)
        return {};
    if (p < 2)
        return "blocks per stage need pipeline_parallel 2 or more";
    if (pipelineChunks(config) > 1)
        return "uneven stages cannot be interleaved (Megatron-LM: \"Uneven number of layer not compatible with "
               "interleaved pipeline schedule\")";
    const int middleStages = p - (first > 0) - (last > 0);
    const int left = layers - first - last;
    std::string held;
    if (first > 0)
        held = "the first stage holds " + std::to_string(first);
    if (last > 0)
        held += (held.empty() ? "the last stage holds " : " and the last ") + std::to_string(last);
    held += " of the " + std::to_string(layers) + " blocks";
    if (left < 0)
        return held + ": more blocks than the model's " + std::to_string(layers);
    if (middleStages == 0 && left != 0)
        return held + ": with 2 stages the two counts must add up to the blocks";
    if (left < middleStages || (middleStages > 0 && left % middleStages != 0))
        return held + ", leaving " + std::to_string(left) + " for the other " + std::to_string(middleStages)
            + (middleStages == 1 ? " stage: it must hold at least one"
                                 : " stages: they must share them equally, at least one each")
            + " (Megatron-LM's rule)";
    return {};
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
