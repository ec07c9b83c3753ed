#include "scenario.h"

#include "contextparallel.h"
#include "moespec.h"

#include "links.h"
#include "pipeline.h"
#include "units.h"

#include "finetune.h"
#include "jsonreader.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace headroom {

using detail::ObjectReader;
using detail::ParseFailure;
using nlohmann::json;

namespace {

    constexpr std::int64_t kMaxBatch = std::int64_t(1) << 40;
    constexpr std::int64_t kMaxSequence = std::int64_t(1) << 30;
    constexpr int kMaxLoraRank = 1 << 16;

    template <typename E>
    E enumField(const ObjectReader& r, std::string_view key, E fallback, std::optional<E> (*parse)(std::string_view),
                const char* valid)
    {
        if (!r.has(key))
            return fallback;
        const std::string s = r.string(key, 64);
        if (auto v = parse(s))
            return *v;
        r.fail(key, "unknown value \"" + s + "\"; valid: " + valid);
    }

    // A library release, "major.minor" (a patch level and local suffix are read past): `what` names the library.
    Release releaseField(const ObjectReader& r, std::string_view key, Release fallback, const char* what,
                         const char* example)
    {
        if (!r.has(key))
            return fallback;
        const std::string s = r.string(key, 64);
        if (auto v = releaseFromString(s))
            return *v;
        r.fail(key, std::string("must be a ") + what + " release such as \"" + example + "\", got \"" + s + "\"");
    }

} // namespace

FinetuneConfig readFinetune(const ObjectReader& r)
{
    FinetuneConfig f;
    f.method = enumField(r, "method", f.method, &finetuneFromString, "full, freeze, lora, dora, qlora");
    f.loraRank = int(r.integerOr("lora_rank", f.loraRank, 1, kMaxLoraRank));
    f.loraAlpha = r.numberOr("lora_alpha", f.loraAlpha, 1e-6, 1e6);
    f.loraDropout = r.numberOr("lora_dropout", f.loraDropout, 0.0, 0.99);
    f.frozenLayers = int(r.integerOr("frozen_layers", f.frozenLayers, -1, kMaxModelLayers));
    if (r.has("lora_targets")) {
        const json& a = r.array("lora_targets", 64);
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!a[i].is_string() || a[i].get_ref<const std::string&>().empty()
                || a[i].get_ref<const std::string&>().size() > 64)
                r.fail("lora_targets", "item " + std::to_string(i) + " must be a module name (1 to 64 characters)");
            f.loraTargets.push_back(a[i].get<std::string>());
        }
    }
    return f;
}

std::optional<Error> validateConfig(const TrainingConfig& c, std::string_view origin)
{
    auto err = [&](const char* field, std::string msg) { return Error { std::string(origin), field, std::move(msg) }; };
    if (c.microBatch < 1 || c.microBatch > kMaxBatch)
        return err("micro_batch", "must be between 1 and " + std::to_string(kMaxBatch));
    if (c.sequenceLength < 1 || c.sequenceLength > kMaxSequence)
        return err("sequence_length", "must be between 1 and " + std::to_string(kMaxSequence));
    if (c.zeroStage < 0 || c.zeroStage > 3)
        return err("zero_stage", "must be 0, 1, 2 or 3");
    if (c.dataParallel < 1 || c.dataParallel > (1 << 20))
        return err("data_parallel", "must be between 1 and 1048576");
    if (c.tensorParallel < 1 || c.tensorParallel > 1024)
        return err("tensor_parallel", "must be between 1 and 1024");
    if (c.pipelineParallel < 1 || c.pipelineParallel > 1024)
        return err("pipeline_parallel", "must be between 1 and 1024");
    if (c.expertParallel < 1 || c.expertParallel > 1024)
        return err("expert_parallel", "must be between 1 and 1024");
    if (c.contextParallel < 1 || c.contextParallel > 1024)
        return err("context_parallel", "must be between 1 and 1024");
    if (c.virtualStages < 1 || c.virtualStages > 128)
        return err("virtual_stages", "must be between 1 and 128");
    if (c.virtualStages > 1 && c.pipelineSchedule != PipelineSchedule::Interleaved)
        return err("virtual_stages", "model chunks per stage need the interleaved pipeline schedule");
    for (const auto& [field, n] : { std::pair { "first_stage_layers", c.firstStageLayers },
                                    std::pair { "last_stage_layers", c.lastStageLayers } }) {
        if (n < 0 || n > kMaxModelLayers)
            return err(field, "must be 0 (an even share) or between 1 and " + std::to_string(kMaxModelLayers));
    }
    if (c.pipelineStage < 0 || c.pipelineStage >= c.pipelineParallel)
        return err("pipeline_stage", "must be between 0 and pipeline_parallel - 1");
    if (c.cluster.gpusPerNode < 0 || c.cluster.gpusPerNode > 1024)
        return err("gpus_per_node", "must be between 0 (one node) and 1024");
    if (linkFigure(c.cluster.intraLink).interNode)
        return err("intra_link",
                   "must be a link inside a node: auto, pcie-shm, pcie4, pcie5, nvlink-bridge, nvlink3 "
                   "or nvlink4");
    if (c.cluster.interLink != LinkKind::Auto && !linkFigure(c.cluster.interLink).interNode)
        return err("inter_link", "must be a link between nodes: auto, eth-100g, ib-hdr or ib-ndr");
    if (c.gradientAccumulation < 1 || c.gradientAccumulation > (1 << 20))
        return err("gradient_accumulation", "must be between 1 and 1048576");
    if (c.overheadBytes && (!std::isfinite(*c.overheadBytes) || *c.overheadBytes < 0 || *c.overheadBytes > 1e15))
        return err("overhead_mib", "must be a finite, non-negative size");
    if (c.cublasWorkspaceBytes
        && (!std::isfinite(*c.cublasWorkspaceBytes) || *c.cublasWorkspaceBytes < 0 || *c.cublasWorkspaceBytes > 1e15))
        return err("cublas_workspace_mib", "must be a finite, non-negative size");
    if (!std::isfinite(c.cudnnWorkspaceBytes) || c.cudnnWorkspaceBytes < 0 || c.cudnnWorkspaceBytes > 1e15)
        return err("cudnn_workspace_mib", "must be a finite, non-negative size");
    if (!std::isfinite(c.allocatorReserveFraction) || c.allocatorReserveFraction < 0 || c.allocatorReserveFraction > 10)
        return err("allocator_reserve", "must be between 0 and 10");
    if (!std::isfinite(c.host.speed) || c.host.speed < 0.01 || c.host.speed > 100)
        return err("host_speed", "must be between 0.01 and 100 (1 is the calibrated host)");
    const FinetuneConfig& f = c.finetune;
    if (f.loraRank < 1 || f.loraRank > kMaxLoraRank)
        return err("lora_rank", "must be between 1 and " + std::to_string(kMaxLoraRank));
    if (!std::isfinite(f.loraAlpha) || f.loraAlpha <= 0 || f.loraAlpha > 1e6)
        return err("lora_alpha", "must be a positive number up to 1000000");
    if (!std::isfinite(f.loraDropout) || f.loraDropout < 0 || f.loraDropout >= 1)
        return err("lora_dropout", "must be at least 0 and below 1");
    if (c.numLabels < 1 || c.numLabels > (1 << 20))
        return err("num_labels", "must be between 1 and 1048576");
    if (f.frozenLayers < -1 || f.frozenLayers > kMaxModelLayers)
        return err("frozen_layers", "must be -1 (all blocks) or between 0 and " + std::to_string(kMaxModelLayers));
    return std::nullopt;
}

namespace {

    // Megatron-LM's rules for a pipeline (arguments.py): at most one stage per block, v p dividing the blocks and p
    // dividing the micro-batches under the interleaved schedule.
    std::optional<Error> validatePipeline(const ModelSpec& model, const TrainingConfig& c, std::string_view origin)
    {
        const int p = c.pipelineParallel;
        auto pp = [&](const char* field, std::string msg) {
            return Error { std::string(origin), field, std::move(msg) };
        };
        if (p == 1 && c.pipelineSchedule == PipelineSchedule::Interleaved)
            return pp("pipeline_schedule", "the interleaved schedule needs pipeline_parallel > 1");
        if (p == 1 && (c.firstStageLayers > 0 || c.lastStageLayers > 0))
            return pp(c.firstStageLayers > 0 ? "first_stage_layers" : "last_stage_layers",
                      "blocks per stage need pipeline_parallel 2 or more");
        if (p == 1)
            return std::nullopt;
        if (model.family != ModelFamily::Transformer)
            return pp("pipeline_parallel", "pipeline stages split transformer blocks; " + model.id + " is a CNN");
        const int layers = model.transformer.layers;
        if (p > layers)
            return pp("pipeline_parallel",
                      std::to_string(p) + " stages for the " + std::to_string(layers) + " blocks of " + model.id
                          + ": each stage needs at least one block");
        if (const std::string problem = unevenStagesProblem(layers, c); !problem.empty())
            return pp(c.firstStageLayers > 0 ? "first_stage_layers" : "last_stage_layers",
                      problem + " (" + model.id + ")");
        if (c.pipelineSchedule == PipelineSchedule::Interleaved) {
            const int v = c.virtualStages;
            if (layers % (p * v) != 0)
                return pp("virtual_stages",
                          "the interleaved schedule gives each of the " + std::to_string(p * v)
                              + " model chunks (pipeline_parallel x virtual_stages) the same blocks: "
                              + std::to_string(p * v) + " must divide the " + std::to_string(layers) + " blocks of "
                              + model.id);
            if (c.gradientAccumulation % p != 0)
                return pp("gradient_accumulation",
                          "the interleaved schedule runs micro-batches in groups of " + std::to_string(p)
                              + " (pipeline_parallel): it must divide the " + std::to_string(c.gradientAccumulation)
                              + " micro-batches per step");
        }
        if (c.finetune.adapters())
            return pp("pipeline_parallel",
                      "adapters (LoRA, DoRA, QLoRA) under pipeline parallelism are not "
                      "modelled; use pipeline_parallel 1");
        return std::nullopt;
    }

} // namespace

std::optional<Error> validateForModel(const ModelSpec& model, const TrainingConfig& c, std::string_view origin)
{
    const TransformerSpec& t = model.transformer;
    if (model.family == ModelFamily::Transformer && t.input == InputKind::Tokens && t.position == PositionKind::Learned
        && c.sequenceLength > t.maxPositions) {
        return Error { std::string(origin), "sequence_length",
                       "must be at most " + std::to_string(t.maxPositions) + ": " + model.id + " has "
                           + std::to_string(t.maxPositions)
                           + " learned positions and no embedding for a token after them" };
    }
    if (c.tensorParallel > 1) {
        // Megatron splits attention heads, key/value groups and the FFN across the tensor-parallel ranks.
        auto tp = [&](std::string msg) { return Error { std::string(origin), "tensor_parallel", std::move(msg) }; };
        const int n = c.tensorParallel;
        if (model.family != ModelFamily::Transformer)
            return tp("tensor parallelism splits transformer blocks; " + model.id + " is a CNN");
        const int kv = t.kvHeads > 0 ? t.kvHeads : t.heads;
        if (t.heads % n != 0 || kv % n != 0 || t.ffn % n != 0 || t.moe.expertFfn % n != 0 || t.moe.sharedFfn % n != 0)
            return tp(std::to_string(n) + " must divide the " + std::to_string(t.heads) + " attention heads, the "
                      + std::to_string(kv) + " key/value heads and the FFN width " + std::to_string(t.ffn) + " of "
                      + model.id);
        if (c.finetune.adapters() || c.finetune.method == FinetuneMethod::QLoRA)
            return tp("adapters (LoRA, DoRA, QLoRA) under tensor parallelism are not modelled; use --tp 1");
        // Under context parallelism each rank's share of the sequence is what SP splits.
        const double tokens = transformerTokens(t, c.sequenceLength) / std::max(1, c.contextParallel);
        if (c.sequenceParallel && std::fmod(tokens, double(n)) != 0.0)
            return Error { std::string(origin), "sequence_parallel",
                           "sequence parallelism splits the " + std::to_string(std::int64_t(tokens))
                               + " tokens of a sequence " + std::to_string(n) + " ways: " + std::to_string(n)
                               + " must divide them" };
    } else if (c.sequenceParallel) {
        return Error { std::string(origin), "sequence_parallel",
                       "sequence parallelism splits the tensor-parallel ranks' work: it needs tensor_parallel > 1" };
    }
    if (auto e = validatePipeline(model, c, origin))
        return e;
    if (auto e = validateExperts(model, c, origin))
        return e;
    if (auto e = validateContext(model, c, origin))
        return e;
    return validateFinetune(model, c, origin);
}

namespace {

    // Every training setting of a scenario file, in the file's order of fields.
    void parseConfig(const ObjectReader& r, TrainingConfig& c)
    {
        c.microBatch = r.integer("micro_batch", 1, kMaxBatch);
        c.sequenceLength = r.integer("sequence_length", 1, kMaxSequence);
        c.precision = enumField(r, "precision", c.precision, &precisionFromString,
                                "fp32, tf32, fp16, bf16, bf16-pure, fp8");
        c.mixedStyle = enumField(r, "mixed_style", c.mixedStyle, &mixedStyleFromString, "autocast, master-weights");
        c.masterGradients = enumField(r, "master_gradients", c.masterGradients, &gradientStorageFromString,
                                      "fp32, low");
        c.zeroStage = int(r.integerOr("zero_stage", 0, 0, 3));
        c.dataParallel = int(r.integerOr("data_parallel", 1, 1, 1 << 20));
        c.tensorParallel = int(r.integerOr("tensor_parallel", 1, 1, 1024));
        c.sequenceParallel = r.booleanOr("sequence_parallel", false);
        c.pipelineParallel = int(r.integerOr("pipeline_parallel", 1, 1, 1024));
        c.expertParallel = int(r.integerOr("expert_parallel", 1, 1, 1024));
        c.contextParallel = int(r.integerOr("context_parallel", 1, 1, 1024));
        c.virtualStages = int(r.integerOr("virtual_stages", 1, 1, 128));
        c.pipelineSchedule = enumField(r, "pipeline_schedule", c.pipelineSchedule, &pipelineScheduleFromString,
                                       "gpipe, 1f1b, interleaved");
        c.firstStageLayers = int(r.integerOr("first_stage_layers", 0, 0, kMaxModelLayers));
        c.lastStageLayers = int(r.integerOr("last_stage_layers", 0, 0, kMaxModelLayers));
        if (auto cl = r.objectOr("cluster")) {
            c.cluster.gpusPerNode = int(cl->integerOr("gpus_per_node", 0, 0, 1024));
            c.cluster.intraLink = enumField(*cl, "intra_link", c.cluster.intraLink, &linkKindFromString,
                                            "auto, pcie-shm, pcie4, pcie5, nvlink-bridge, nvlink3, nvlink4");
            c.cluster.interLink = enumField(*cl, "inter_link", c.cluster.interLink, &linkKindFromString,
                                            "auto, eth-100g, ib-hdr, ib-ndr");
        }
        c.offloadOptimizer = r.booleanOr("offload_optimizer", false);
        c.checkpointing = enumField(r, "checkpointing", c.checkpointing, &checkpointingFromString,
                                    "none, selective, full");
        c.attention = enumField(r, "attention", c.attention, &attentionFromString, "eager, fused");
        c.loop = enumField(r, "loop", c.loop, &loopFromString, "keep-outputs, drop-outputs");
        c.torch = releaseField(r, "torch", c.torch, "PyTorch", "2.11");
        c.transformers = releaseField(r, "transformers", c.transformers, "transformers", "5.17");
        c.optimizer = enumField(r, "optimizer", c.optimizer, &optimizerFromString,
                                "adamw, adam, sgd, sgd-momentum, adamw-8bit, adafactor, paged-adamw, paged-adamw-8bit");
        c.adamImpl = enumField(r, "adamw_impl", c.adamImpl, &adamImplFromString, "foreach, for-loop, fused");
        c.gradientAccumulation = int(r.integerOr("gradient_accumulation", 1, 1, 1 << 20));
        if (auto f = r.objectOr("finetune"))
            c.finetune = readFinetune(*f);
        c.task = enumField(r, "task", c.task, &taskFromString, "model, causal-lm, masked-lm, seq-cls, token-cls");
        c.numLabels = int(r.integerOr("num_labels", c.numLabels, 1, 1 << 20));
        if (r.has("overhead_mib"))
            c.overheadBytes = r.number("overhead_mib", 0, 1 << 24) * units::kMiB;
        c.allocatorReserveFraction = r.numberOr("allocator_reserve", 0.0, 0.0, 10.0);
        c.expandableSegments = r.booleanOr("expandable_segments", false);
        if (r.has("cublas_workspace_mib"))
            // in whole KiB, as CUBLAS_WORKSPACE_CONFIG counts it
            c.cublasWorkspaceBytes = std::round(r.number("cublas_workspace_mib", 0, 1 << 20) * units::kMiB / 1024.0)
                * 1024.0;
        c.cudnnWorkspaceBytes = r.numberOr("cudnn_workspace_mib", 0.0, 0.0, 1 << 20) * units::kMiB;
        c.channelsLast = r.booleanOr("channels_last", false);
        c.ncclChannels = int(r.integerOr("nccl_channels", 0, 0, 64));
        c.host.speed = r.numberOr("host_speed", 1.0, 0.01, 100.0);
        c.host.execution = enumField(r, "execution", c.host.execution, &executionFromString, "eager, cuda-graphs");
    }

    // Every field a version-1 scenario file may hold (docs/schema/headroom-scenario.schema.json). Another is skipped,
    // as every reader skips keys it does not know (a later Headroom's), unless it is within two edits of one of
    // these: a typo ("checkpoiting": "full" was read as no checkpointing), refused with the field it meant.
    constexpr std::string_view kScenarioFields
        = "format version title title_zh gpu model micro_batch sequence_length precision mixed_style master_gradients "
          "zero_stage data_parallel tensor_parallel sequence_parallel pipeline_parallel expert_parallel context_parallel "
          "virtual_stages pipeline_schedule first_stage_layers last_stage_layers cluster offload_optimizer checkpointing "
          "attention loop torch transformers optimizer adamw_impl gradient_accumulation finetune task num_labels "
          "overhead_mib allocator_reserve expandable_segments cublas_workspace_mib cudnn_workspace_mib channels_last "
          "nccl_channels host_speed execution overrides";

    // Edits (insertions, deletions, substitutions) between two short names.
    std::size_t editDistance(std::string_view a, std::string_view b)
    {
        std::vector<std::size_t> row(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j)
            row[j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i) {
            std::size_t diagonal = row[0];
            row[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j) {
                const std::size_t up = row[j];
                row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1) });
                diagonal = up;
            }
        }
        return row[b.size()];
    }

    void refuseMisspeltFields(const json& doc, const ObjectReader& r)
    {
        for (const auto& item : doc.items()) {
            const std::string& key = item.key();
            std::string_view nearest;
            std::size_t best = 3; // a typo: at most two edits away; 0: the field itself
            for (std::size_t at = 0; at < kScenarioFields.size();) {
                const std::size_t end = std::min(kScenarioFields.find(' ', at), kScenarioFields.size());
                const std::string_view known = kScenarioFields.substr(at, end - at);
                // The distance is at least the difference in length: a long key (a fuzzer's) costs nothing.
                const std::size_t apart = key.size() > known.size() ? key.size() - known.size()
                                                                    : known.size() - key.size();
                if (const std::size_t d = apart < best ? editDistance(key, known) : best; d < best) {
                    best = d;
                    nearest = known;
                }
                at = end + 1;
            }
            if (best > 0 && !nearest.empty())
                r.fail(key, "unknown field; did you mean \"" + std::string(nearest) + "\"?");
        }
    }

} // namespace

Expected<ScenarioDocument> parseScenario(std::string_view jsonText, std::string_view origin)
{
    try {
        const json doc = detail::parseDocument(jsonText);
        const ObjectReader r(doc, "");
        const std::string format = r.string("format", 64);
        if (format != "headroom-scenario")
            r.fail("format", "must be \"headroom-scenario\", got \"" + format + "\"");
        const std::int64_t version = r.integer("version", 1, 1000);
        if (version != 1)
            r.fail("version", "version " + std::to_string(version) + " is newer than this Headroom reads (1)");
        refuseMisspeltFields(doc, r);
        ScenarioDocument d;
        d.title = r.stringOr("title", "", 500);
        Scenario& s = d.scenario;
        s.gpuId = r.string("gpu", 64);
        if (r.has("model") && r.find("model")->is_object()) {
            const auto& text = r.find("model")->dump();
            auto m = parseModelSpec(text, std::string(origin) + " (model)");
            if (!m)
                throw ParseFailure { "model." + m.error().field, m.error().message };
            d.embeddedModel = std::move(m.value());
            s.modelId = d.embeddedModel->id;
        } else {
            s.modelId = r.string("model", 64);
        }
        parseConfig(r, s.config);
        if (auto o = r.objectOr("overrides")) {
            if (o->has("memory_gib"))
                s.overrides.memoryBytes = o->number("memory_gib", 0.001, 1 << 20) * units::kGiB;
            if (o->has("bandwidth_gb_per_s"))
                s.overrides.bandwidthBytesPerSecond = o->number("bandwidth_gb_per_s", 0.001, 1e7) * 1e9;
            if (o->has("peak_tflops"))
                s.overrides.peakFlopsPerSecond = o->number("peak_tflops", 1e-6, 1e7) * 1e12;
            s.overrides.note = o->stringOr("note", "", 2000);
        }
        return d;
    } catch (const ParseFailure& f) {
        return Error { std::string(origin), f.field, f.message };
    } catch (const std::exception& e) {
        return Error { std::string(origin), "", e.what() };
    }
}

std::string serializeScenario(const ScenarioDocument& d)
{
    const Scenario& s = d.scenario;
    const TrainingConfig& c = s.config;
    json j;
    j["format"] = "headroom-scenario";
    j["version"] = 1;
    if (!d.title.empty())
        j["title"] = d.title;
    j["gpu"] = s.gpuId;
    if (d.embeddedModel)
        j["model"] = json::parse(serializeModelSpec(*d.embeddedModel));
    else
        j["model"] = s.modelId;
    j["micro_batch"] = c.microBatch;
    j["sequence_length"] = c.sequenceLength;
    j["precision"] = std::string(toString(c.precision));
    j["mixed_style"] = std::string(toString(c.mixedStyle));
    j["master_gradients"] = std::string(toString(c.masterGradients));
    j["zero_stage"] = c.zeroStage;
    j["data_parallel"] = c.dataParallel;
    if (c.tensorParallel != 1)
        j["tensor_parallel"] = c.tensorParallel;
    if (c.sequenceParallel)
        j["sequence_parallel"] = true;
    if (c.pipelineParallel != 1) {
        j["pipeline_parallel"] = c.pipelineParallel;
        j["pipeline_schedule"] = std::string(toString(c.pipelineSchedule));
        if (c.virtualStages != 1)
            j["virtual_stages"] = c.virtualStages;
        if (c.firstStageLayers > 0)
            j["first_stage_layers"] = c.firstStageLayers;
        if (c.lastStageLayers > 0)
            j["last_stage_layers"] = c.lastStageLayers;
    }
    if (c.expertParallel != 1)
        j["expert_parallel"] = c.expertParallel;
    if (c.contextParallel != 1)
        j["context_parallel"] = c.contextParallel;
    if (c.cluster != ClusterConfig {})
        j["cluster"] = { { "gpus_per_node", c.cluster.gpusPerNode },
                         { "intra_link", std::string(toString(c.cluster.intraLink)) },
                         { "inter_link", std::string(toString(c.cluster.interLink)) } };
    j["offload_optimizer"] = c.offloadOptimizer;
    j["checkpointing"] = std::string(toString(c.checkpointing));
    j["attention"] = std::string(toString(c.attention));
    j["loop"] = std::string(toString(c.loop));
    if (c.torch != kTorchRelease)
        j["torch"] = toString(c.torch);
    if (c.transformers != kTransformersRelease)
        j["transformers"] = toString(c.transformers);
    j["optimizer"] = std::string(toString(c.optimizer));
    if (c.adamImpl != AdamImpl::Foreach)
        j["adamw_impl"] = std::string(toString(c.adamImpl));
    j["gradient_accumulation"] = c.gradientAccumulation;
    if (c.finetune != FinetuneConfig {}) {
        // Every field, so that the file holds exactly what was set (the report shows only the method's own).
        const FinetuneConfig& f = c.finetune;
        j["finetune"] = { { "method", std::string(toString(f.method)) },
                          { "lora_rank", f.loraRank },
                          { "lora_alpha", f.loraAlpha },
                          { "lora_dropout", f.loraDropout },
                          { "lora_targets", f.loraTargets },
                          { "frozen_layers", f.frozenLayers } };
    }
    if (c.task != Task::Model) {
        j["task"] = std::string(toString(c.task));
        j["num_labels"] = c.numLabels;
    }
    if (c.overheadBytes)
        j["overhead_mib"] = *c.overheadBytes / units::kMiB;
    if (c.allocatorReserveFraction != 0.0)
        j["allocator_reserve"] = c.allocatorReserveFraction;
    if (c.expandableSegments)
        j["expandable_segments"] = true;
    if (c.cublasWorkspaceBytes)
        j["cublas_workspace_mib"] = *c.cublasWorkspaceBytes / units::kMiB;
    if (c.cudnnWorkspaceBytes > 0.0)
        j["cudnn_workspace_mib"] = c.cudnnWorkspaceBytes / units::kMiB;
    if (c.channelsLast)
        j["channels_last"] = true;
    if (c.ncclChannels > 0)
        j["nccl_channels"] = c.ncclChannels;
    if (c.host.speed != 1.0)
        j["host_speed"] = c.host.speed;
    if (c.host.execution != Execution::Eager)
        j["execution"] = std::string(toString(c.host.execution));
    json o = json::object();
    if (s.overrides.memoryBytes)
        o["memory_gib"] = *s.overrides.memoryBytes / units::kGiB;
    if (s.overrides.bandwidthBytesPerSecond)
        o["bandwidth_gb_per_s"] = *s.overrides.bandwidthBytesPerSecond / 1e9;
    if (s.overrides.peakFlopsPerSecond)
        o["peak_tflops"] = *s.overrides.peakFlopsPerSecond / 1e12;
    if (!s.overrides.note.empty())
        o["note"] = s.overrides.note;
    if (!o.empty())
        j["overrides"] = o;
    return j.dump(2) + "\n";
}

Scenario defaultScenario()
{
    Scenario s;
    s.gpuId = "rtx-a3000-12gb-laptop";
    s.modelId = "bert-base";
    s.config.microBatch = 16;
    s.config.sequenceLength = 512;
    s.config.precision = Precision::MixedFP16;
    s.config.optimizer = OptimizerKind::AdamW;
    s.config.attention = AttentionImpl::Fused;
    s.overrides.bandwidthBytesPerSecond = 392e9;
    s.overrides.note
        = "What-if from the explainer: 392 GB/s. The datasheet figure is 336 GB/s (192-bit x 14 Gbps / 8).";
    return s;
}

} // namespace headroom
