#include "measured.h"

#include "jsonreader.h"
#include "report.h"
#include "reportjson.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace headroom {

using detail::ObjectReader;
using detail::ParseFailure;
using nlohmann::json;

namespace {

    constexpr double kMaxBytes = 1e18;

    template <typename E>
    E enumField(const ObjectReader& r, std::string_view key, std::optional<E> (*parse)(std::string_view),
                const char* valid)
    {
        const std::string s = r.string(key, 64);
        if (auto v = parse(s))
            return *v;
        r.fail(key, "unknown value \"" + s + "\"; valid: " + valid);
    }

    std::optional<double> bytesOr(const ObjectReader& r, std::string_view key)
    {
        if (!r.has(key))
            return std::nullopt;
        return double(r.integer(key, 0, std::int64_t(kMaxBytes)));
    }

    MeasuredMemory phase(const ObjectReader& memory, std::string_view key)
    {
        MeasuredMemory m;
        if (auto p = memory.objectOr(key)) {
            m.allocatedBytes = bytesOr(*p, "allocated_bytes");
            m.reservedBytes = bytesOr(*p, "reserved_bytes");
            m.peakAllocatedBytes = bytesOr(*p, "peak_allocated_bytes");
            m.peakReservedBytes = bytesOr(*p, "peak_reserved_bytes");
        }
        return m;
    }

    // A figure of the timing object: absent or null where the probe could not measure it.
    std::optional<double> numberIfAny(const ObjectReader& r, std::string_view key, double max)
    {
        if (!r.has(key))
            return std::nullopt;
        return r.number(key, 0.0, max);
    }

    std::optional<double> countIfAny(const ObjectReader& r, std::string_view key)
    {
        if (!r.has(key))
            return std::nullopt;
        return double(r.integer(key, 0, std::int64_t(1e12)));
    }

    MeasuredTiming timing(const ObjectReader& r)
    {
        MeasuredTiming t;
        if (auto o = r.objectOr("timing")) {
            t.hostSeconds = numberIfAny(*o, "host_seconds", 1e7);
            t.issueSeconds = numberIfAny(*o, "issue_seconds", 1e7);
            t.kernels = countIfAny(*o, "kernels");
            t.gpuBusySeconds = numberIfAny(*o, "gpu_busy_seconds", 1e7);
            t.atenOps = countIfAny(*o, "aten_ops");
        }
        return t;
    }

    // JSON has no NaN or Infinity, so Python's json.dump(float("nan")) is a syntax error here: name the key before it.
    std::string keyBefore(std::string_view text, std::size_t offset)
    {
        offset = std::min(offset, text.size());
        const std::size_t colon = text.rfind(':', offset == 0 ? 0 : offset - 1);
        if (colon == std::string_view::npos)
            return {};
        const std::size_t value = text.find_first_not_of(" \t\r\n", colon + 1);
        const std::string_view rest = value == std::string_view::npos ? std::string_view() : text.substr(value);
        if (!rest.starts_with("NaN") && !rest.starts_with("Infinity") && !rest.starts_with("-Infinity"))
            return {};
        const std::size_t close = text.rfind('"', colon);
        if (close == std::string_view::npos || close == 0)
            return {};
        const std::size_t open = text.rfind('"', close - 1);
        if (open == std::string_view::npos)
            return {};
        return std::string(text.substr(open + 1, close - open - 1));
    }

} // namespace

Expected<Measured> parseMeasured(std::string_view jsonText, std::string_view origin)
{
    try {
        json doc;
        try {
            doc = detail::parseDocument(jsonText);
        } catch (ParseFailure& f) {
            const auto at = f.message.find("(byte ");
            if (f.field.empty() && at != std::string::npos) {
                f.field = keyBefore(jsonText, std::size_t(std::strtoull(f.message.c_str() + at + 6, nullptr, 10)));
                if (!f.field.empty())
                    f.message = "must be a number; NaN and Infinity are not JSON (" + f.message + ")";
            }
            throw;
        }
        const ObjectReader r(doc, "");
        const std::string format = r.string("format", 64);
        if (format != "headroom-measured")
            r.fail("format", "must be \"headroom-measured\", got \"" + format + "\"");
        const std::int64_t version = r.integer("version", 1, 1000);
        if (version != 1)
            r.fail("version", "version " + std::to_string(version) + " is newer than this Headroom reads (1)");
        Measured m;
        const ObjectReader s = r.object("scenario");
        m.modelId = s.string("model", 64);
        m.microBatch = s.integer("micro_batch", 1, std::int64_t(1) << 40);
        m.sequenceLength = s.integer("sequence_length", 1, std::int64_t(1) << 30);
        m.precision = enumField(s, "precision", &precisionFromString, "fp32, tf32, fp16, bf16, bf16-pure, fp8");
        if (s.has("checkpointing"))
            m.checkpointing = enumField(s, "checkpointing", &checkpointingFromString, "none, selective, full");
        if (s.has("attention"))
            m.attention = enumField(s, "attention", &attentionFromString, "eager, fused");
        if (s.has("optimizer"))
            m.optimizer = enumField(s, "optimizer", &optimizerFromString,
                                    "adamw, adam, sgd, sgd-momentum, adamw-8bit, adafactor, paged-adamw, "
                                    "paged-adamw-8bit");
        if (s.has("adamw_impl"))
            m.adamImpl = enumField(s, "adamw_impl", &adamImplFromString, "foreach, for-loop, fused");
        if (s.has("loop"))
            m.loop = enumField(s, "loop", &loopFromString, "keep-outputs, drop-outputs");
        if (const auto f = s.objectOr("finetune"))
            m.finetune = readFinetune(*f);
        const ObjectReader d = r.object("device");
        m.deviceType = d.string("type", 64);
        m.deviceName = d.stringOr("name", "", 500);
        m.deviceMemoryBytes = bytesOr(d, "memory_bytes");
        const ObjectReader sw = r.object("software");
        m.torchVersion = sw.string("torch", 200);
        m.transformersVersion = sw.stringOr("transformers", "", 200);
        m.torchvisionVersion = sw.stringOr("torchvision", "", 200);
        m.implementation = sw.stringOr("implementation", "", 500);
        m.timestamp = r.stringOr("timestamp", "", 64);
        m.parameters = double(r.integer("parameters", 0, std::int64_t(1) << 50));
        m.steps = r.integerOr("steps", 1, 1, 1 << 20);
        const ObjectReader mem = r.object("memory");
        m.afterForward = phase(mem, "after_forward");
        m.afterBackward = phase(mem, "after_backward");
        m.afterOptimizerStep = phase(mem, "after_optimizer_step");
        m.peakAllocatedBytes = bytesOr(mem, "peak_allocated_bytes");
        m.peakReservedBytes = bytesOr(mem, "peak_reserved_bytes");
        m.savedActivationBytes = double(r.integer("saved_activation_bytes", 0, std::int64_t(kMaxBytes)));
        m.stepSeconds = r.number("step_seconds", 0.0, 1e7);
        m.timing = timing(r);
        return m;
    } catch (const ParseFailure& f) {
        return Error { std::string(origin), f.field, f.message };
    } catch (const std::exception& e) {
        return Error { std::string(origin), "", e.what() };
    }
}

bool measuredOnCpu(const Measured& m) { return m.deviceType == "cpu"; }

DeviceMatch measuredDevice(const Catalog& catalog, const Measured& m)
{
    return measuredOnCpu(m) ? DeviceMatch {} : matchCudaDevice(catalog, m.deviceName, m.deviceMemoryBytes);
}

void applyMeasuredScenario(const Measured& m, TrainingConfig& c)
{
    c.kernels = measuredOnCpu(m) ? KernelBackend::Cpu : KernelBackend::Cuda;
    c.microBatch = m.microBatch;
    c.sequenceLength = m.sequenceLength;
    c.precision = m.precision;
    c.checkpointing = m.checkpointing;
    c.attention = m.attention;
    c.optimizer = m.optimizer;
    c.adamImpl = m.adamImpl;
    c.loop = m.loop; // drop-outputs for every file the probe wrote before --loop
    c.finetune = m.finetune;
    applyMeasuredReleases(m, c);
}

void applyMeasuredReleases(const Measured& m, TrainingConfig& c)
{
    c.torch = torchVersionFromString(m.torchVersion).value_or(c.torch);
    c.transformers = measuredTransformers(m).value_or(c.transformers);
}

std::optional<Release> measuredTransformers(const Measured& m)
{
    if (m.transformersVersion.empty())
        return std::nullopt;
    if (const auto r = releaseFromString(m.transformersVersion))
        return r;
    if (m.transformersVersion.find("hf_reference") != std::string::npos)
        return kTranscribedTransformers;
    return std::nullopt;
}

std::optional<Error> checkMeasuredScenario(const Measured& m, const std::string& modelId, const TrainingConfig& c,
                                           std::string_view origin)
{
    auto differs = [&](const char* field, const std::string& measured, const std::string& estimated) {
        return Error { std::string(origin), std::string("scenario.") + field,
                       "the file measured " + measured + ", the estimate is of " + estimated
                           + "; estimate the measured scenario (or give only --measured)" };
    };
    if (m.modelId != modelId)
        return differs("model", "\"" + m.modelId + "\"", "\"" + modelId + "\"");
    if (m.microBatch != c.microBatch)
        return differs("micro_batch", std::to_string(m.microBatch), std::to_string(c.microBatch));
    if (m.sequenceLength != c.sequenceLength)
        return differs("sequence_length", std::to_string(m.sequenceLength), std::to_string(c.sequenceLength));
    if (m.precision != c.precision)
        return differs("precision", std::string(toString(m.precision)), std::string(toString(c.precision)));
    if (m.finetune.method != c.finetune.method)
        return differs("finetune.method", std::string(toString(m.finetune.method)),
                       std::string(toString(c.finetune.method)));
    return std::nullopt;
}

MeasuredComparison compareMeasured(const Estimate& e, const Measured& m, const AllocatorEstimate& a)
{
    MeasuredComparison c;
    // What torch.cuda reports is what the caching allocator replay predicts; without it, the tensors at the peak.
    const double tensors = e.peakBytes - e.atPeak[index(MemoryCategory::Overhead)];
    if (m.peakAllocatedBytes)
        c.peakAllocated = MeasuredDifference { a.computed ? a.peakAllocatedBytes : tensors, *m.peakAllocatedBytes };
    if (m.peakReservedBytes)
        c.peakReserved = MeasuredDifference { a.computed ? a.peakReservedBytes : e.peakBytes - e.overheadBytes,
                                              *m.peakReservedBytes };
    c.savedWeightCopies = e.savedWeightCopyBytes;
    c.savedActivations = MeasuredDifference { e.components[index(MemoryCategory::Activations)] + c.savedWeightCopies,
                                              m.savedActivationBytes };
    c.stepSeconds = MeasuredDifference { e.stepSeconds, m.stepSeconds };
    if (!a.computed)
        return c;
    const MeasuredMemory* measured[] = { &m.afterForward, &m.afterBackward, &m.afterOptimizerStep };
    for (std::size_t k = 0; k < c.phases.size(); ++k) {
        const PhaseMemory& p = a.phases[k];
        const MeasuredMemory& q = *measured[k];
        auto diff = [](double predicted, const std::optional<double>& v) {
            return v ? std::optional<MeasuredDifference>(MeasuredDifference { predicted, *v }) : std::nullopt;
        };
        c.phases[k] = { diff(p.allocatedBytes, q.allocatedBytes), diff(p.reservedBytes, q.reservedBytes),
                        diff(p.peakAllocatedBytes, q.peakAllocatedBytes),
                        diff(p.peakReservedBytes, q.peakReservedBytes) };
    }
    return c;
}

namespace {

    json optionalBytes(const std::optional<double>& v) { return v ? detail::integer(*v) : json(nullptr); }

    json phaseJson(const MeasuredMemory& p)
    {
        json j = { { "allocated_bytes", optionalBytes(p.allocatedBytes) },
                   { "reserved_bytes", optionalBytes(p.reservedBytes) } };
        if (p.peakAllocatedBytes || p.peakReservedBytes) {
            j["peak_allocated_bytes"] = optionalBytes(p.peakAllocatedBytes);
            j["peak_reserved_bytes"] = optionalBytes(p.peakReservedBytes);
        }
        return j;
    }

    json differenceJson(const MeasuredDifference& d, bool bytes)
    {
        auto v = [&](double x) { return bytes ? detail::integer(x) : detail::finite(x); };
        return { { "predicted", v(d.predicted) },
                 { "measured", v(d.measured) },
                 { "difference", v(d.difference()) },
                 { "relative", detail::finite(d.relative()) } };
    }

} // namespace

std::string resultWithMeasuredToJson(const SimulationResult& r, const Measured& m, bool timeline)
{
    ReportOptions ro;
    ro.timeline = timeline;
    json j = json::parse(resultToJson(r, ro));
    json measured;
    measured["device"] = { { "type", m.deviceType },
                           { "name", m.deviceName },
                           { "memory_bytes", optionalBytes(m.deviceMemoryBytes) } };
    measured["software"] = { { "torch", m.torchVersion },
                             { "transformers", m.transformersVersion },
                             { "torchvision", m.torchvisionVersion },
                             { "implementation", m.implementation } };
    measured["timestamp"] = m.timestamp;
    measured["parameters"] = detail::integer(m.parameters);
    measured["steps"] = m.steps;
    measured["memory"] = { { "after_forward", phaseJson(m.afterForward) },
                           { "after_backward", phaseJson(m.afterBackward) },
                           { "after_optimizer_step", phaseJson(m.afterOptimizerStep) },
                           { "peak_allocated_bytes", optionalBytes(m.peakAllocatedBytes) },
                           { "peak_reserved_bytes", optionalBytes(m.peakReservedBytes) } };
    measured["saved_activation_bytes"] = detail::integer(m.savedActivationBytes);
    measured["step_seconds"] = detail::finite(m.stepSeconds);
    const MeasuredTiming& t = m.timing;
    if (t.hostSeconds || t.issueSeconds || t.kernels || t.gpuBusySeconds || t.atenOps) {
        auto opt = [](const std::optional<double>& v) { return v ? detail::finite(*v) : json(nullptr); };
        auto count = [](const std::optional<double>& v) { return v ? detail::integer(*v) : json(nullptr); };
        measured["timing"] = { { "host_seconds", opt(t.hostSeconds) },
                               { "issue_seconds", opt(t.issueSeconds) },
                               { "kernels", count(t.kernels) },
                               { "gpu_busy_seconds", opt(t.gpuBusySeconds) },
                               { "aten_ops", count(t.atenOps) } };
    }
    j["measured"] = measured;
    const MeasuredComparison c = compareMeasured(r.estimate, m, r.allocator);
    json diff;
    diff["peak_allocated_bytes"] = c.peakAllocated ? differenceJson(*c.peakAllocated, true) : json(nullptr);
    diff["peak_reserved_bytes"] = c.peakReserved ? differenceJson(*c.peakReserved, true) : json(nullptr);
    diff["saved_activation_bytes"] = differenceJson(c.savedActivations, true);
    diff["saved_activation_bytes"]["predicted_weight_copies"] = detail::integer(c.savedWeightCopies);
    diff["step_seconds"] = differenceJson(c.stepSeconds, false);
    diff["parameters"] = differenceJson({ r.estimate.parameters, m.parameters }, true);
    const char* phaseNames[] = { "after_forward", "after_backward", "after_optimizer_step" };
    for (std::size_t k = 0; k < c.phases.size(); ++k) {
        const MeasuredComparison::Phase& p = c.phases[k];
        json phase = json::object();
        for (const auto& [key, d] :
             { std::pair { "allocated_bytes", &p.allocated }, std::pair { "reserved_bytes", &p.reserved },
               std::pair { "peak_allocated_bytes", &p.peakAllocated },
               std::pair { "peak_reserved_bytes", &p.peakReserved } }) {
            if (*d)
                phase[key] = differenceJson(**d, true);
        }
        if (!phase.empty())
            diff[phaseNames[k]] = phase;
    }
    // The kernels whose saved dtypes the prediction follows, and whether its step time is that of the measured device.
    diff["kernels"] = r.estimate.config.kernels == KernelBackend::Cpu ? "cpu" : "cuda";
    diff["step_compared"] = !measuredOnCpu(m);
    j["measured_difference"] = diff;
    return j.dump(2) + "\n";
}

std::string measuredToTable(const Estimate& e, const Measured& m, const AllocatorEstimate& allocator)
{
    const MeasuredComparison c = compareMeasured(e, m, allocator);
    char line[512];
    auto pct = [](const MeasuredDifference& d) { return d.relative() * 100.0; };
    std::string out;
    std::snprintf(line, sizeof line, "Measured   on %s (%s), torch %s: saved activations %s (predicted %+.1f%%)",
                  m.deviceName.empty() ? m.deviceType.c_str() : m.deviceName.c_str(), m.deviceType.c_str(),
                  m.torchVersion.c_str(), formatBytes(m.savedActivationBytes).c_str(), pct(c.savedActivations));
    out += line;
    if (c.peakAllocated) {
        std::snprintf(line, sizeof line, ", peak allocated %s (%+.1f%%)",
                      formatBytes(c.peakAllocated->measured).c_str(), pct(*c.peakAllocated));
        out += line;
    }
    if (c.peakReserved) {
        std::snprintf(line, sizeof line, ", reserved %s (%+.1f%%)", formatBytes(c.peakReserved->measured).c_str(),
                      pct(*c.peakReserved));
        out += line;
    }
    if (measuredOnCpu(m))
        std::snprintf(line, sizeof line, ", step %s on the CPU (not compared: the prediction is a GPU's)\n",
                      formatSeconds(m.stepSeconds).c_str());
    else
        std::snprintf(line, sizeof line, ", step %s (%+.1f%%)\n", formatSeconds(m.stepSeconds).c_str(),
                      pct(c.stepSeconds));
    return out + line;
}

} // namespace headroom
