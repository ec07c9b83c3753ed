// The parallelism pieces of the estimate's JSON (issue 11's contract): the degrees and GPU count, the
// communication by kind, and every pipeline stage.

#include "reportjson.h"

#include "links.h"
#include "pipeline.h"

#include <algorithm>
#include <cmath>

namespace headroom::detail {

using nlohmann::json;

json categoriesJson(const CategoryBytes& bytes)
{
    json j;
    for (int c = 0; c < kMemoryCategoryCount; ++c)
        j[std::string(toString(MemoryCategory(c)))] = integer(bytes[c]);
    return j;
}

namespace {

    json linkJson(LinkKind kind)
    {
        const LinkFigure& f = linkFigure(kind);
        json j = { { "kind", std::string(f.id) }, { "source", std::string(f.source) } };
        if (kind != LinkKind::Auto) {
            j["gb_per_second"] = f.gbPerSecond;
            j["measured_bus_bandwidth"] = f.measured;
        }
        return j;
    }

} // namespace

json parallelismJson(const TrainingConfig& c)
{
    return {
        { "tp", std::max(1, c.tensorParallel) },
        { "sp", c.sequenceParallel },
        { "pp", std::max(1, c.pipelineParallel) },
        { "vpp", c.pipelineSchedule == PipelineSchedule::Interleaved ? std::max(1, c.virtualStages) : 1 },
        { "pipeline_schedule", std::string(toString(c.pipelineSchedule)) },
        // Blocks on the first and last stages; 0: an even share (each rank's own are in ranks[].layers).
        { "first_stage_layers", c.pipelineParallel > 1 ? c.firstStageLayers : 0 },
        { "last_stage_layers", c.pipelineParallel > 1 ? c.lastStageLayers : 0 },
        { "cp", std::max(1, c.contextParallel) },
        { "ep", std::max(1, c.expertParallel) },
        { "dp", std::max(1, c.dataParallel) },
        { "gpus", integer(double(jobGpus(c))) },
        { "micro_batches_per_step", std::max(1, c.gradientAccumulation) },
        { "gpus_per_node", c.cluster.gpusPerNode > 0 ? integer(c.cluster.gpusPerNode) : integer(double(jobGpus(c))) },
        { "nodes", integer(c.cluster.gpusPerNode > 0 ? std::ceil(double(jobGpus(c)) / c.cluster.gpusPerNode) : 1.0) },
        { "intra_link", linkJson(c.cluster.intraLink) },
        { "inter_link",
          linkJson(c.cluster.interLink == LinkKind::Auto ? LinkKind::InfinibandHdr : c.cluster.interLink) },
        // In double: a what-if micro-batch of 2^40 times the ranks passes int64; integer() saturates.
        { "global_batch",
          integer(double(c.microBatch) * std::max(1, c.gradientAccumulation) * std::max(1, c.dataParallel)) }
    };
}

json communicationJson(const Estimate& e)
{
    auto kind = [](double seconds, double bytes) {
        return json { { "seconds", finite(seconds) }, { "bytes", integer(bytes) } };
    };
    return { { "data_parallel", kind(e.dataParallelSeconds, e.dataParallelBytes) },
             { "tensor_parallel", kind(e.tensorParallelSeconds, e.tensorParallelBytes) },
             { "pipeline", kind(e.pipelineSeconds, e.pipelineBytes) },
             { "expert_parallel", kind(e.expertParallelSeconds, e.expertParallelBytes) },
             { "context_parallel", kind(e.contextParallelSeconds, e.contextParallelBytes) } };
}

json ranksJson(const std::vector<RankSummary>& ranks)
{
    json list = json::array();
    for (const RankSummary& r : ranks) {
        json layers = json::array();
        for (const LayerRange& l : r.layers)
            layers.push_back({ l.first, l.last });
        list.push_back({ { "stage", r.stage },
                         { "layers", layers },
                         { "in_flight_micro_batches", finite(r.inFlightMicroBatches) },
                         { "memory", categoriesJson(r.atPeak) },
                         { "peak_bytes", integer(r.peakBytes) },
                         { "peak_phase", std::string(toString(r.peakPhase)) },
                         { "peak_operator", r.peakOperator },
                         { "fits", r.fits },
                         { "max_micro_batch", r.maxMicroBatch },
                         { "parameters_per_gpu", integer(r.parametersPerGpu) },
                         { "micro_batch_seconds", finite(r.microBatchSeconds) } });
    }
    return list;
}

} // namespace headroom::detail
