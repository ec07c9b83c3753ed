#include "inferencereport.h"

#include "report.h"
#include "reportjson.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>

namespace headroom {

using detail::finite;
using detail::integer;
using nlohmann::json;

namespace {

    json configJson(const InferenceConfig& c, const std::string& weights)
    {
        json j;
        j["batch"] = c.batch;
        j["prompt"] = c.prompt;
        j["generate"] = c.generate;
        j["weights"] = weights; // the option's value, or "gguf Q4_K_M" for a .gguf file
        j["group_size"] = c.groupSize > 0 ? c.groupSize : defaultGroupSize(c.weights);
        j["kv_cache"] = std::string(toString(c.kvCache));
        j["tp"] = c.tensorParallel;
        j["attention"] = std::string(toString(c.attention));
        j["engine"] = std::string(toString(c.engine));
        j["kv_block_tokens"] = c.kvBlockTokens;
        j["gpu_memory_utilization"] = c.memoryUtilization;
        return j;
    }

    json pointJson(const InferenceOp& p)
    {
        json j;
        j["name"] = p.name;
        j["stage"] = p.stage;
        j["kind"] = std::string(toString(p.kind));
        j["unit"] = std::string(toString(p.unit));
        j["flops"] = finite(p.flops);
        j["bytes"] = finite(p.bytes);
        j["seconds"] = finite(p.seconds);
        j["intensity_flops_per_byte"] = finite(p.intensity());
        return j;
    }

    // Where a pass's time goes (InferenceTimeSplit); `per` names the unit: "token" for decode, "prefill" for the
    // prompt.
    json splitJson(const InferenceTimeSplit& x, const std::string& per)
    {
        json j;
        j["gpu_seconds_" + per] = finite(x.gpuSeconds);
        j["kernel_floor_seconds_" + per] = finite(x.kernelFloorSeconds);
        j["host_seconds_" + per] = finite(x.hostSeconds);
        j["kernels_" + per] = finite(x.kernels);
        j["host_overlaps_gpu"] = x.hostOverlaps;
        j["bound"] = x.hostBound ? "host" : "gpu";
        return j;
    }

    // Bytes on the GPU by stored type ("q4_K", "f32"), the form llama.cpp's loader prints.
    std::map<std::string, double> bytesByType(const InferenceWeights& w)
    {
        std::map<std::string, double> m;
        for (const WeightTensor& t : w.tensors)
            if (!t.onHost)
                m[std::string(ggmlTypeInfo(t.ggml).name)] += t.bytes;
        return m;
    }

    // Where the prefill's time goes: its GEMMs and their rate (with llama.cpp's cuBLAS path, a fraction of the tensor
    // cores' FP16-accumulate rate), and the conversions that path adds.
    std::string prefillLine(const InferenceEstimate& e)
    {
        const PrefillSplit& x = e.prefillSplit;
        if (x.gemmSeconds <= 0)
            return {};
        std::string out = "           prefill: ";
        char part[200];
        if (x.passes > 1) {
            std::snprintf(part, sizeof part, "%.0f passes; ", x.passes);
            out += part;
        }
        std::snprintf(part, sizeof part, "GEMMs %s at %.1f TFLOP/s", formatSeconds(x.gemmSeconds).c_str(),
                      x.gemmFlops / x.gemmSeconds / 1e12);
        out += part;
        if (x.cublasRate > 0 && x.fp16AccumulateRate > 0) {
            std::snprintf(part, sizeof part,
                          " (cuBLAS at %.2f of the tensor cores' %.1f TFLOP/s with FP16 accumulation)",
                          x.cublasRate / x.fp16AccumulateRate, x.fp16AccumulateRate / 1e12);
            out += part;
        }
        if (x.conversionSeconds > 0)
            out += "; dequantize and conversions " + formatSeconds(x.conversionSeconds);
        return out + "\n";
    }

} // namespace

std::string inferenceToJson(const InferenceEstimate& e, const ModelSpec& model)
{
    json j;
    j["format"] = "headroom-inference";
    j["version"] = 1;
    j["model"] = { { "id", model.id }, { "name", model.name } };
    j["gpu"] = detail::gpuJson(e.gpu);
    j["config"] = configJson(e.config, e.weights.format);
    j["parameters"] = integer(e.weights.parameters);
    json byType;
    for (const auto& [type, bytes] : bytesByType(e.weights))
        byType[type] = integer(bytes);
    j["weights"] = { { "format", e.weights.format }, { "bytes", integer(e.weights.bytes) }, { "by_type", byType } };
    j["host_memory_bytes"] = integer(e.weights.hostBytes);
    j["memory"] = { { "weights", integer(e.memory.weights) },
                    { "kv_cache", integer(e.memory.kvCache) },
                    { "activations", integer(e.memory.activations) },
                    { "overhead", integer(e.memory.overhead) },
                    { "engine_reserve", integer(e.memory.engineReserve) },
                    { "peak", integer(e.memory.peak) },
                    { "peak_stage", e.peakStage } };
    j["kv_cache_bytes_per_token"] = integer(e.kvBytesPerToken);
    j["capacity"] = integer(e.capacityBytes);
    j["fits"] = e.fits;
    j["headroom_bytes"] = integer(e.capacityBytes - e.memory.engineReserve - e.memory.peak);
    j["max_batch"] = e.maxBatch;
    j["max_context"] = e.maxContext;
    j["max_context_limited_by_model"] = e.maxContextLimitedByModel;
    j["prefill_seconds"] = finite(e.prefillSeconds);
    j["decode_seconds_per_token"] = finite(e.decodeSecondsPerToken);
    j["tokens_per_second"] = finite(e.tokensPerSecond);
    j["communication_seconds_per_token"] = finite(e.communicationSecondsPerToken);
    j["compute_unit"] = std::string(toString(e.unit));
    j["engine"] = { { "name", std::string(toString(e.engine)) },
                    { "clock_hz", finite(e.clockHz) },
                    { "clock_from_gpu_file", e.clockFromFile } };
    j["decode"] = splitJson(e.decode, "per_token");
    j["prefill"] = splitJson(e.prefill, "total");
    const PrefillSplit& ps = e.prefillSplit;
    j["prefill"]["passes"] = finite(ps.passes);
    j["prefill"]["gemm_seconds"] = finite(ps.gemmSeconds);
    j["prefill"]["gemm_flops_per_second"] = finite(ps.gemmSeconds > 0 ? ps.gemmFlops / ps.gemmSeconds : 0.0);
    j["prefill"]["conversion_seconds"] = finite(ps.conversionSeconds);
    j["engine"]["cublas_gemm_flops_per_second"] = finite(ps.cublasRate);
    j["engine"]["fp16_accumulate_flops_per_second"] = finite(ps.fp16AccumulateRate);
    json points = json::array();
    for (const auto* ops : { &e.prefillOps, &e.decodeOps })
        for (const InferenceOp& p : *ops)
            points.push_back(pointJson(p));
    j["roofline"] = { { "bandwidth_bytes_per_second", integer(e.gpu.bandwidthBytesPerSecond) },
                      { "peak_flops_per_second", finite(e.gpu.peakFlopsPerSecond[int(e.unit)]) },
                      { "points", points } };
    // Objects with a stable kind, as the training estimate writes them (issue 8).
    json warnings = json::array();
    for (const InferenceWarning& w : e.warnings) {
        const char* kind = w.kind == InferenceWarning::Kind::UnitFallback ? "unit_fallback" : "beyond_positions";
        warnings.push_back({ { "kind", kind }, { "message", w.message } });
    }
    j["warnings"] = warnings;
    return j.dump(2) + "\n";
}

std::string inferenceToTable(const InferenceEstimate& e, const ModelSpec& model)
{
    std::string out;
    char line[512];
    const InferenceConfig& c = e.config;
    std::snprintf(line, sizeof line, "Model      %s (%s parameters), %s weights, %s KV cache\n", model.name.c_str(),
                  formatCount(e.weights.parameters).c_str(), e.weights.format.c_str(),
                  std::string(toString(c.kvCache)).c_str());
    out += line;
    std::snprintf(line, sizeof line, "GPU        %s, %s, %.0f GB/s%s%s\n", e.gpu.spec->name.c_str(),
                  formatBytes(e.gpu.memoryBytes).c_str(), e.gpu.bandwidthBytesPerSecond / 1e9,
                  e.gpu.bandwidthOverridden ? " (what-if override)" : "",
                  c.tensorParallel > 1
                      ? (", one of " + std::to_string(c.tensorParallel) + " tensor-parallel ranks").c_str()
                      : "");
    out += line;
    std::snprintf(line, sizeof line, "Setting    batch %lld, prompt %lld, generate %lld tokens, %s attention\n",
                  (long long)c.batch, (long long)c.prompt, (long long)c.generate,
                  std::string(toString(c.attention)).c_str());
    out += line;
    out += "\nMemory (per GPU)\n";
    const std::pair<const char*, double> rows[] = {
        { "weights", e.memory.weights },
        { "KV cache", e.memory.kvCache },
        { "activations", e.memory.activations },
        { "overhead", e.memory.overhead },
        { "peak", e.memory.peak },
        { "engine reserve", e.memory.engineReserve },
        { "capacity", e.capacityBytes },
    };
    for (const auto& [name, bytes] : rows) {
        if (std::string_view(name) == "engine reserve" && bytes <= 0)
            continue;
        std::snprintf(line, sizeof line, "  %-16s %12s%s\n", name, formatBytes(bytes).c_str(),
                      std::string_view(name) == "peak" ? (std::string("   (") + std::string(e.peakStage) + ")").c_str()
                                                       : "");
        out += line;
    }
    if (e.weights.hostBytes > 0) {
        std::snprintf(line, sizeof line, "  %-16s %12s   (input embedding, kept by llama.cpp)\n", "host memory",
                      formatBytes(e.weights.hostBytes).c_str());
        out += line;
    }
    const double free = e.capacityBytes - e.memory.engineReserve - e.memory.peak;
    std::snprintf(line, sizeof line, "\nVerdict    %s: %s %s\n", e.fits ? "fits" : "does not fit",
                  formatBytes(std::fabs(free)).c_str(), e.fits ? "free" : "over");
    out += line;
    const std::string batch = e.maxBatch > 0 ? std::to_string(e.maxBatch) : "none, even at batch 1";
    std::snprintf(line, sizeof line, "           largest batch that fits: %s; longest context: %lld tokens%s\n",
                  batch.c_str(), (long long)e.maxContext, e.maxContextLimitedByModel ? " (model limit)" : "");
    out += line;
    std::snprintf(line, sizeof line, "Time       prefill %s, decode %s per token, %.1f tokens/s\n",
                  formatSeconds(e.prefillSeconds).c_str(), formatSeconds(e.decodeSecondsPerToken).c_str(),
                  e.tokensPerSecond);
    out += line;
    std::snprintf(
        line, sizeof line,
        "           %s: per token %s on the GPU (%s of it the floors of %.0f kernels) %s %s on the host; %s-bound\n",
        std::string(toString(e.engine)).c_str(), formatSeconds(e.decode.gpuSeconds).c_str(),
        formatSeconds(e.decode.kernelFloorSeconds).c_str(), e.decode.kernels, e.decode.hostOverlaps ? "beside" : "+",
        formatSeconds(e.decode.hostSeconds).c_str(), e.decode.hostBound ? "host" : "GPU");
    out += line;
    out += prefillLine(e);
    for (const InferenceWarning& w : e.warnings)
        out += "Warning    " + w.message + "\n";
    return out;
}

} // namespace headroom
