#include "report.h"

#include "pipeline.h"
#include "reportjson.h"
#include "sdpa.h"

#include "units.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

namespace headroom {

namespace {

    // {"method": "lora", "lora_rank": 8, ...}: the fields of the method in use. Scenario files write every field
    // (scenario.cpp), so that a file keeps what was set; the estimate shows what the method uses.
    nlohmann::json finetuneJson(const FinetuneConfig& f)
    {
        nlohmann::json j;
        j["method"] = std::string(toString(f.method));
        if (f.method == FinetuneMethod::Freeze)
            j["frozen_layers"] = f.frozenLayers;
        if (f.adapters()) {
            j["lora_rank"] = f.loraRank;
            j["lora_alpha"] = f.loraAlpha;
            j["lora_dropout"] = f.loraDropout;
            j["lora_targets"] = f.loraTargets;
        }
        return j;
    }

} // namespace

using detail::categoriesJson;
using detail::communicationJson;
using detail::finite;
using detail::gpuJson;
using detail::integer;
using detail::parallelismJson;
using detail::unitKey;
using nlohmann::json;

namespace detail {

    json integer(double v)
    {
        if (!std::isfinite(v))
            return v > 0 ? json(std::numeric_limits<std::int64_t>::max()) : json(0);
        const double r = std::round(v);
        if (r >= 9.2e18)
            return json(std::numeric_limits<std::int64_t>::max());
        if (r <= -9.2e18)
            return json(std::numeric_limits<std::int64_t>::min());
        return json(static_cast<std::int64_t>(r));
    }

    json finite(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

    const char* unitKey(MathUnit u)
    {
        static const char* k[] = { "fp32", "tf32", "fp16", "bf16", "fp8" };
        return k[int(u)];
    }

    json gpuJson(const EffectiveGpu& eg)
    {
        const GpuSpec& g = *eg.spec;
        json gpu;
        gpu["id"] = g.id;
        gpu["name"] = g.name;
        gpu["memory_bytes"] = integer(eg.memoryBytes);
        gpu["bandwidth_bytes_per_second"] = integer(eg.bandwidthBytesPerSecond);
        json peaks;
        for (int u = 0; u < kMathUnitCount; ++u) {
            if (eg.peakFlopsPerSecond[u] > 0)
                peaks[unitKey(MathUnit(u))] = finite(eg.peakFlopsPerSecond[u]);
        }
        gpu["peak_flops_per_second"] = peaks;
        json overridden = json::array();
        json datasheet;
        if (eg.memoryOverridden) {
            overridden.push_back("memory_bytes");
            datasheet["memory_bytes"] = integer(g.memoryBytes());
        }
        if (eg.bandwidthOverridden) {
            overridden.push_back("bandwidth_bytes_per_second");
            datasheet["bandwidth_bytes_per_second"] = integer(g.bandwidthBytesPerSecond());
            datasheet["bandwidth_sources"] = g.bandwidthGBps.sources;
        }
        if (eg.peakOverridden) {
            const std::string key = std::string("peak_flops_per_second.") + unitKey(eg.overriddenUnit);
            overridden.push_back(key);
            datasheet[key] = finite(g.peakFlopsPerSecond(eg.overriddenUnit));
        }
        gpu["overridden"] = overridden;
        if (!overridden.empty()) {
            gpu["datasheet"] = datasheet;
            gpu["override_note"] = eg.overrideNote;
        }
        gpu["memory_sources"] = g.reportedMiB.present() ? g.reportedMiB.sources : g.capacityGB.sources;
        gpu["overhead_bytes_default"] = integer(g.overheadBytes());
        return gpu;
    }

} // namespace detail

namespace {

    json pointJson(const RooflinePoint& p)
    {
        json j;
        j["name"] = p.name;
        j["kind"] = std::string(toString(p.kind));
        j["phase"] = std::string(toString(p.phase));
        j["unit"] = std::string(toString(p.unit));
        j["flops"] = finite(p.flops);
        j["bytes"] = finite(p.bytes);
        j["seconds"] = finite(p.seconds);
        j["intensity_flops_per_byte"] = finite(p.intensity());
        j["achieved_flops_per_second"] = finite(p.achievedFlopsPerSecond());
        j["kernel_count"] = p.count;
        return j;
    }

} // namespace

std::string formatBytes(double bytes)
{
    using namespace units;
    char buf[64];
    const double a = std::fabs(bytes);
    if (!std::isfinite(bytes))
        return "inf";
    if (a >= 1024.0 * kGiB)
        std::snprintf(buf, sizeof buf, "%.2f TiB", bytes / (1024.0 * kGiB));
    else if (a >= kGiB)
        std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / kGiB);
    else if (a >= kMiB)
        std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / kMiB);
    else if (a >= kKiB)
        std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / kKiB);
    else
        std::snprintf(buf, sizeof buf, "%.0f B", bytes);
    return buf;
}

std::string formatSeconds(double s)
{
    char buf[64];
    if (!std::isfinite(s))
        return "inf";
    if (s >= 1.0)
        std::snprintf(buf, sizeof buf, "%.3f s", s);
    else if (s >= 1e-3)
        std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
    return buf;
}

std::string formatCount(double n)
{
    char buf[64];
    if (n >= 1e12)
        std::snprintf(buf, sizeof buf, "%.2fT", n / 1e12);
    else if (n >= 1e9)
        std::snprintf(buf, sizeof buf, "%.2fB", n / 1e9);
    else if (n >= 1e6)
        std::snprintf(buf, sizeof buf, "%.1fM", n / 1e6);
    else if (n >= 1e3)
        std::snprintf(buf, sizeof buf, "%.1fK", n / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.0f", n);
    return buf;
}

namespace {

    json scenarioJson(const Estimate& e, const ModelSpec& model)
    {
        json scenario;
        scenario["model"] = model.id;
        scenario["gpu"] = e.gpu.spec->id;
        scenario["micro_batch"] = e.config.microBatch;
        scenario[model.isVision() ? "image_size" : "sequence_length"] = e.config.sequenceLength;
        scenario["precision"] = std::string(toString(e.config.precision));
        scenario["mixed_precision_style"] = std::string(toString(e.config.mixedStyle));
        scenario["master_gradients"] = std::string(toString(e.config.masterGradients));
        scenario["zero_stage"] = e.config.zeroStage;
        scenario["data_parallel"] = e.config.dataParallel;
        if (e.config.tensorParallel != 1)
            scenario["tensor_parallel"] = e.config.tensorParallel;
        if (e.config.sequenceParallel)
            scenario["sequence_parallel"] = true;
        scenario["offload_optimizer"] = e.config.offloadOptimizer;
        scenario["checkpointing"] = std::string(toString(e.config.checkpointing));
        scenario["attention"] = std::string(toString(e.config.attention));
        scenario["loop"] = std::string(toString(e.config.loop));
        scenario["torch"] = toString(e.config.torch);
        scenario["transformers"] = toString(e.config.transformers);
        scenario["optimizer"] = std::string(toString(e.config.optimizer));
        scenario["adamw_impl"] = std::string(toString(e.config.adamImpl));
        scenario["gradient_accumulation"] = e.config.gradientAccumulation;
        if (model.isVision())
            scenario["channels_last"] = e.config.channelsLast;
        scenario["finetune"] = finetuneJson(e.config.finetune);
        scenario["task"] = std::string(toString(e.config.task));
        if (e.config.task == Task::SequenceClassification || e.config.task == Task::TokenClassification)
            scenario["num_labels"] = e.config.numLabels;
        return scenario;
    }

    // The kernel SDPA runs (sdpa.h), and the check that refused each one tried before it; null without SDPA.
    json attentionKernelJson(const Estimate& e, const ModelSpec& model)
    {
        if (model.family != ModelFamily::Transformer || e.config.attention != AttentionImpl::Fused)
            return nullptr;
        const SdpaCall call = sdpaCallFor(model.transformer, e.config);
        const SdpaChoice c = chooseSdpaKernel(call);
        json refused = json::array();
        for (int i = 0; i < c.refusedCount; ++i)
            refused.push_back({ { "kernel", std::string(toString(c.refused[std::size_t(i)].kernel)) },
                                { "check", std::string(sdpaSource(c.refused[std::size_t(i)].rule)) } });
        return { { "name", std::string(toString(c.kernel)) },
                 { "reason", sdpaReason(c, call) },
                 { "saves_scores", c.kernel == SdpaKernel::Math },
                 { "refused", refused } };
    }

    json memoryJson(const Estimate& e)
    {
        json mem = categoriesJson(e.components);
        mem["peak"] = integer(e.peakBytes);
        mem["at_peak"] = categoriesJson(e.atPeak);
        mem["host"] = integer(e.hostBytes);
        return mem;
    }

    json timeJson(const Estimate& e)
    {
        return { { "micro_batch_seconds", finite(e.microBatchSeconds) },
                 { "gradient_accumulation", e.config.gradientAccumulation },
                 { "optimizer_seconds", finite(e.optimizerSeconds) },
                 { "communication_seconds", finite(e.communicationSeconds) },
                 { "exposed_communication_seconds", finite(e.exposedCommunicationSeconds) },
                 { "communication_latency_seconds", finite(e.communicationLatencySeconds) },
                 { "offload_seconds", finite(e.offloadSeconds) },
                 { "host_seconds", finite(e.hostSeconds) },
                 { "gpu_busy_seconds", finite(e.gpuBusySeconds) },
                 { "gpu_idle_seconds", finite(e.gpuIdleSeconds()) },
                 { "host_bound", e.hostBound() },
                 { "host_speed", finite(e.config.host.speed) },
                 { "execution", std::string(toString(e.config.host.execution)) },
                 { "communication", communicationJson(e) },
                 { "pipeline_bubble_seconds", finite(e.pipelineBubbleSeconds) } };
    }

    // Warnings are objects with a stable kind (issue 8), so that scripts need not match the English text.
    const char* warningKind(EstimateWarning::Kind k)
    {
        switch (k) {
        case EstimateWarning::Kind::UnitFallback:
            return "unit_fallback";
        case EstimateWarning::Kind::ZeroWithOneRank:
            return "zero_with_one_rank";
        case EstimateWarning::Kind::Fp8Unsupported:
            return "fp8_unsupported";
        case EstimateWarning::Kind::PagedOptimizer:
            return "paged_optimizer";
        case EstimateWarning::Kind::BeyondPositions:
            return "beyond_positions";
        case EstimateWarning::Kind::HugeMicroBatch:
            return "huge_micro_batch";
        case EstimateWarning::Kind::SelectiveRecomputesNothing:
            return "selective_recomputes_nothing";
        }
        return "unknown";
    }

    json rooflineJson(const Estimate& e, const ReportOptions& options)
    {
        json roof;
        json points = json::array();
        for (const auto& p : e.kindPoints)
            points.push_back(pointJson(p));
        roof["points"] = points;
        roof["step"] = pointJson(e.wholeStep);
        if (options.operators) {
            json ops = json::array();
            for (const auto& p : e.operatorPoints)
                ops.push_back(pointJson(p));
            roof["operators"] = ops;
        }
        json roofs;
        roofs["bandwidth_bytes_per_second"] = integer(e.gpu.bandwidthBytesPerSecond);
        json compute;
        for (int u = 0; u < kMathUnitCount; ++u) {
            const double p = e.gpu.peakFlopsPerSecond[u];
            if (p > 0)
                compute[unitKey(MathUnit(u))] = {
                    { "flops_per_second", p }, { "ridge_flops_per_byte", finite(p / e.gpu.bandwidthBytesPerSecond) }
                };
        }
        roofs["compute"] = compute;
        roof["roofs"] = roofs;
        return roof;
    }

    json timelineJson(const Estimate& e)
    {
        json tl = json::array();
        const std::int64_t n = timelineSize(e);
        for (std::int64_t i = 0; i < n; ++i) {
            const TimelineStep t = timelineStep(e, i);
            json p;
            p["step"] = i;
            p["phase"] = std::string(toString(t.step->phase));
            p["recompute"] = t.step->recompute;
            p["operator"] = std::string(t.step->label);
            p["layer"] = t.layer;
            double total = 0.0;
            for (int c = 0; c < kMemoryCategoryCount; ++c)
                total += t.bytes[c];
            p["bytes"] = categoriesJson(t.bytes);
            p["total"] = integer(total);
            tl.push_back(p);
        }
        return tl;
    }

} // namespace

namespace {

    json estimateJson(const Estimate& e, const ModelSpec& model, const ReportOptions& options)
    {
        json j;
        j["format"] = "headroom-estimate";
        j["version"] = 1;
        j["scenario"] = scenarioJson(e, model);
        j["attention_kernel"] = attentionKernelJson(e, model);
        j["model"] = { { "id", model.id },
                       { "name", model.name },
                       { "reference", model.reference.implementation },
                       { "checkpoint", model.reference.checkpoint } };
        j["parameters"] = integer(e.parameters);
        j["active_parameters"] = integer(e.activeParameters);
        if (e.config.tensorParallel > 1 || e.config.expertParallel > 1)
            j["parameters_per_gpu"] = integer(e.parametersPerGpu);
        if (e.config.tensorParallel > 1) {
            j["tensor_parallel_communication_seconds"] = finite(e.tensorParallelSeconds);
        }
        j["trainable_parameters"] = integer(e.trainableParameters);
        j["memory"] = memoryJson(e);
        j["peak_phase"] = std::string(toString(e.peakPhase));
        j["peak_operator"] = e.peakOperator;
        j["peak_layer"] = e.peakLayer;
        j["peak_in_recompute"] = e.peakInRecompute;
        j["gpu"] = gpuJson(e.gpu);
        j["capacity"] = integer(e.capacityBytes);
        j["host_memory_bytes"] = integer(e.hostBytes); // offloaded or paged optimizer states (issue 13's key)
        j["fits"] = e.fits;
        j["headroom_bytes"] = integer(e.headroomBytes);
        // Which rule answered (fitVerdict): the caching allocator replayed under the capacity, or the peak alone.
        j["fit"] = { { "fits", e.fits },
                     { "decided_by", e.fitDecidedBy == FitRule::Allocator ? "allocator" : "peak" },
                     { "free_bytes", integer(e.headroomBytes) } };
        j["max_micro_batch"] = e.maxMicroBatch;
        j[model.isVision() ? "max_image_size" : "max_sequence_length"] = e.maxSequence;
        j["max_sequence_limited_by_model"] = e.maxSequenceLimitedByModel;
        j["step_time_seconds"] = finite(e.stepSeconds);
        j["time"] = timeJson(e);
        j["throughput_per_second"] = finite(e.throughputPerSecond);
        j["throughput_unit"] = e.vision ? "images" : "tokens";
        const double gpus = double(jobGpus(e.config));
        j["throughput_per_gpu_per_second"] = finite(e.throughputPerSecond / gpus);
        j["model_flops_per_second_per_gpu"] = finite(e.stepSeconds > 0 ? e.modelFlopsPerStep / e.stepSeconds : 0.0);
        j["parallelism"] = parallelismJson(e.config);
        j["mfu"] = finite(e.mfu);
        j["hfu"] = finite(e.hfu);
        j["mfu_peak_unit"] = unitKey(e.mfuUnit);
        j["model_flops_per_step"] = finite(e.modelFlopsPerStep);
        j["hardware_flops_per_step"] = finite(e.hardwareFlopsPerStep);
        j["roofline"] = rooflineJson(e, options);
        if (options.timeline && e.schedule)
            j["timeline"] = timelineJson(e);
        json warnings = json::array();
        for (const EstimateWarning& w : e.warnings)
            warnings.push_back({ { "kind", warningKind(w.kind) }, { "message", w.message } });
        j["warnings"] = warnings;
        return j;
    }

    // Best first; `changes` are the `headroom estimate` options that, added to the same command line, give it.
    json suggestionsJson(const SimulationResult& r)
    {
        json list = json::array();
        for (const Fix& f : r.fixes) {
            json changes = json::object();
            for (const auto& [option, value] : fixArguments(r.scenario.config, f))
                changes[option] = value;
            list.push_back({ { "changes", changes },
                             { "fits", f.fits },
                             { "enough_alone", f.fits },
                             { "peak_bytes", integer(f.peakBytes) },
                             { "throughput_per_second", finite(f.throughputPerSecond) },
                             { "description", describeFix(f) } });
        }
        return list;
    }

} // namespace

std::string estimateToJson(const Estimate& e, const ModelSpec& model, const ReportOptions& options)
{
    return estimateJson(e, model, options).dump(2) + "\n";
}

std::string resultToJson(const SimulationResult& r, const ReportOptions& options)
{
    json j = estimateJson(r.estimate, *r.model, options);
    j["ranks"] = detail::ranksJson(r.ranks);
    if (r.searched) {
        j["suggestions"] = suggestionsJson(r);
        j["pytorch"] = detail::allocatorJson(r.allocator);
        if (r.timeRange.computed) {
            j["step_time_range_seconds"] = { { "fast", detail::finite(r.timeRange.fastSeconds) },
                                             { "slow", detail::finite(r.timeRange.slowSeconds) } };
            json levers = json::array();
            for (const TimeLever& l : r.timeRange.levers)
                levers.push_back({ { "lever", timeLeverKey(l.kind) },
                                   { "micro_batch", l.microBatch },
                                   { "step_seconds", detail::finite(l.stepSeconds) },
                                   { "throughput_per_second", detail::finite(l.throughputPerSecond) } });
            j["time_levers"] = levers;
        }
    }
    return j.dump(2) + "\n";
}

namespace {

    // The table's head: the model, how it is split, the GPU and every setting.
    std::string tableSetting(const Estimate& e, const ModelSpec& model)
    {
        std::string out;
        char line[512];
        const GpuSpec& g = *e.gpu.spec;
        std::snprintf(line, sizeof line, "Model      %s (%s parameters)\n", model.name.c_str(),
                      formatCount(e.parameters).c_str());
        out += line;
        if (e.config.tensorParallel > 1) {
            std::snprintf(line, sizeof line,
                          "Split      tensor parallelism %d%s: %s parameters per GPU, %.0f GPUs in all\n",
                          e.config.tensorParallel, e.config.sequenceParallel ? " with sequence parallelism" : "",
                          formatCount(e.parametersPerGpu).c_str(), double(jobGpus(e.config)));
            out += line;
        }
        if (model.transformer.moe.any()) {
            const MoeSpec& moe = model.transformer.moe;
            std::string split;
            if (const int ep = e.config.expertParallel; ep > 1) {
                const int perGpu = moe.experts / ep;
                split = ", " + std::to_string(perGpu) + (perGpu == 1 ? " expert" : " experts") + " per GPU (ep "
                    + std::to_string(ep) + ")";
            }
            std::snprintf(line, sizeof line,
                          "Experts    %d per MoE layer, %d per token: %s active parameters per token%s\n", moe.experts,
                          moe.topK, formatCount(e.activeParameters).c_str(), split.c_str());
            out += line;
        }
        if (e.config.pipelineParallel > 1) {
            std::string uneven;
            if (e.config.firstStageLayers > 0)
                uneven += ", " + std::to_string(e.config.firstStageLayers) + " blocks on the first";
            if (e.config.lastStageLayers > 0)
                uneven += ", " + std::to_string(e.config.lastStageLayers) + " blocks on the last";
            std::snprintf(
                line, sizeof line,
                "Pipeline   %d stages (%s%s), %d micro-batches per step; the figures below are stage %d's, the "
                "most loaded (%s parameters per GPU)\n",
                e.config.pipelineParallel, std::string(toString(e.config.pipelineSchedule)).c_str(), uneven.c_str(),
                e.config.gradientAccumulation, e.config.pipelineStage, formatCount(e.parametersPerGpu).c_str());
            out += line;
        }
        if (e.config.finetune.method != FinetuneMethod::Full) {
            std::snprintf(line, sizeof line, "Trains     %s parameters (%s)\n",
                          formatCount(e.trainableParameters).c_str(),
                          std::string(toString(e.config.finetune.method)).c_str());
            out += line;
        }
        std::snprintf(line, sizeof line, "GPU        %s, %s, %.0f GB/s%s\n", g.name.c_str(),
                      formatBytes(e.gpu.memoryBytes).c_str(), e.gpu.bandwidthBytesPerSecond / 1e9,
                      e.gpu.bandwidthOverridden ? " (what-if override)" : "");
        out += line;
        if (!e.gpu.overrideNote.empty()
            && (e.gpu.bandwidthOverridden || e.gpu.memoryOverridden || e.gpu.peakOverridden))
            out += "           " + e.gpu.overrideNote + "\n";
        std::snprintf(line, sizeof line,
                      "Setting    micro-batch %lld, %s %lld, %s, ZeRO-%d x %d, checkpointing %s, %s attention, %s\n",
                      (long long)e.config.microBatch, model.isVision() ? "image" : "sequence",
                      (long long)e.config.sequenceLength, std::string(toString(e.config.precision)).c_str(),
                      e.config.zeroStage, e.config.dataParallel, std::string(toString(e.config.checkpointing)).c_str(),
                      std::string(toString(e.config.attention)).c_str(),
                      std::string(toString(e.config.optimizer)).c_str());
        out += line;
        std::snprintf(
            line, sizeof line, "Loop       %s\n",
            e.config.loop == TrainingLoop::KeepOutputs
                ? "keep-outputs (output = model(x); loss = loss_fn(output, y): the output lives through backward)"
                : "drop-outputs (loss = model(**batch).loss: the output is freed after the loss)");
        out += line;
        if (model.family == ModelFamily::Transformer && e.config.attention == AttentionImpl::Fused) {
            const SdpaCall call = sdpaCallFor(model.transformer, e.config);
            const SdpaChoice k = chooseSdpaKernel(call);
            std::snprintf(line, sizeof line, "SDPA       %s kernel (torch %s): %s%s\n",
                          std::string(toString(k.kernel)).c_str(), toString(e.config.torch).c_str(),
                          sdpaReason(k, call).c_str(),
                          k.kernel == SdpaKernel::Math ? "; the s x s probabilities are saved" : "");
            out += line;
        }
        return out;
    }

    // Memory by category, the peak and the verdict.
    std::string tableMemory(const Estimate& e, const ModelSpec& model)
    {
        std::string out;
        char line[512];
        out += "\nMemory (per GPU)                 size        at peak\n";
        static const char* names[] = { "weights",     "weight copies", "gradients", "optimizer states",
                                       "activations", "transient",     "overhead" };
        for (int c = 0; c < kMemoryCategoryCount; ++c) {
            std::snprintf(line, sizeof line, "  %-28s %12s %12s\n", names[c], formatBytes(e.components[c]).c_str(),
                          formatBytes(e.atPeak[c]).c_str());
            out += line;
        }
        std::snprintf(line, sizeof line, "  %-28s %12s   (%s, %s%s, layer %d)\n", "peak",
                      formatBytes(e.peakBytes).c_str(), std::string(toString(e.peakPhase)).c_str(),
                      e.peakOperator.c_str(), e.peakInRecompute ? " recompute" : "", e.peakLayer);
        out += line;
        std::snprintf(line, sizeof line, "  %-28s %12s\n", "capacity", formatBytes(e.capacityBytes).c_str());
        out += line;
        std::snprintf(line, sizeof line, "\nVerdict    %s: %s %s (%s)\n", e.fits ? "fits" : "does not fit",
                      formatBytes(std::fabs(e.headroomBytes)).c_str(), e.fits ? "free" : "over",
                      e.fitDecidedBy == FitRule::Allocator ? "caching allocator replayed under the capacity"
                                                           : "simulated peak");
        out += line;
        const std::string largest = e.maxMicroBatch > 0 ? std::to_string(e.maxMicroBatch) : "none, even at batch 1";
        const std::string longest = e.maxSequence > 0
            ? std::to_string(e.maxSequence) + (e.maxSequenceLimitedByModel ? " (model limit)" : "")
            : "none, not even the shortest";
        std::snprintf(line, sizeof line, "           largest micro-batch that fits: %s; longest %s: %s\n",
                      largest.c_str(), model.isVision() ? "image side" : "sequence", longest.c_str());
        out += line;
        return out;
    }

    // Step time, the two clocks, communication, the pipeline and the warnings.
    std::string tableTime(const Estimate& e)
    {
        std::string out;
        char line[512];
        std::snprintf(line, sizeof line, "Time       step %s, %.0f %s/s, MFU %.1f%%\n",
                      formatSeconds(e.stepSeconds).c_str(), e.throughputPerSecond, e.vision ? "images" : "tokens",
                      e.mfu * 100.0);
        out += line;
        std::snprintf(line, sizeof line,
                      "           %s: GPU busy %s, host issuing %s, GPU waiting for the host %s (%s)\n",
                      e.hostBound() ? "host-bound" : "GPU-bound", formatSeconds(e.gpuBusySeconds).c_str(),
                      formatSeconds(e.hostSeconds).c_str(), formatSeconds(e.gpuIdleSeconds()).c_str(),
                      e.config.host.execution == Execution::CudaGraphs ? "CUDA graphs" : "eager");
        out += line;
        std::string comm;
        auto kind = [&](const char* what, double seconds, double bytes) {
            if (seconds > 0.0)
                comm += std::string(comm.empty() ? "" : ", ") + what + " " + formatSeconds(seconds) + " ("
                    + formatBytes(bytes) + ")";
        };
        kind("data-parallel", e.dataParallelSeconds, e.dataParallelBytes);
        kind("tensor-parallel", e.tensorParallelSeconds, e.tensorParallelBytes);
        kind("expert all-to-all", e.expertParallelSeconds, e.expertParallelBytes);
        kind("context ring", e.contextParallelSeconds, e.contextParallelBytes);
        if (!comm.empty())
            out += "           communication " + comm + "; " + formatSeconds(e.exposedCommunicationSeconds)
                + " not hidden\n";
        if (e.pipelineBubbleSeconds > 0.0 || e.pipelineSeconds > 0.0) {
            std::snprintf(line, sizeof line, "           pipeline bubble %s, stage sends %s\n",
                          formatSeconds(e.pipelineBubbleSeconds).c_str(), formatSeconds(e.pipelineSeconds).c_str());
            out += line;
        }
        for (const EstimateWarning& w : e.warnings)
            out += "Warning    " + w.message + "\n";
        return out;
    }

} // namespace

std::string estimateToTable(const Estimate& e, const ModelSpec& model)
{
    return tableSetting(e, model) + tableMemory(e, model) + tableTime(e);
}

std::string_view timeLeverKey(TimeLever::Kind k)
{
    switch (k) {
    case TimeLever::Kind::CudaGraphs:
        return "cuda-graphs";
    case TimeLever::Kind::FusedOptimizer:
        return "fused-optimizer";
    case TimeLever::Kind::LargerBatch:
        return "larger-micro-batch";
    }
    return "cuda-graphs";
}

std::string resultToTable(const SimulationResult& r)
{
    std::string out = estimateToTable(r.estimate, *r.model);
    if (r.timeRange.computed)
        out += "           range " + formatSeconds(r.timeRange.fastSeconds) + " to "
            + formatSeconds(r.timeRange.slowSeconds)
            + ", every kernel at the fast or the slow end of its measured efficiency\n";
    for (const TimeLever& l : r.timeRange.levers) {
        char line[256];
        const std::string what = l.kind == TimeLever::Kind::LargerBatch
            ? "micro-batch " + std::to_string(l.microBatch)
            : std::string(l.kind == TimeLever::Kind::CudaGraphs ? "CUDA graphs" : "fused AdamW");
        std::snprintf(line, sizeof line, "           would help: %s, step %s, %.0f %s/s (+%.0f%%)\n", what.c_str(),
                      formatSeconds(l.stepSeconds).c_str(), l.throughputPerSecond,
                      r.estimate.vision ? "images" : "tokens",
                      (l.throughputPerSecond / r.estimate.throughputPerSecond - 1.0) * 100.0);
        out += line;
    }
    out += detail::allocatorTable(r.allocator, r.estimate.capacityBytes);
    for (std::size_t i = 0; i < r.fixes.size() && i < 5; ++i) {
        const Fix& f = r.fixes[i];
        std::string options;
        for (const auto& [option, value] : fixArguments(r.scenario.config, f))
            options += " " + option + (value.empty() ? "" : " " + value);
        out += (i == 0 ? "Fixes      " : "           ") + describeFix(f) + ": peak " + formatBytes(f.peakBytes)
            + (f.fits ? ", fits" : ", not enough alone") + " (add" + options + ")\n";
    }
    return out;
}

} // namespace headroom
