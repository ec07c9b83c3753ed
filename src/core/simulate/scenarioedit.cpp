#include "scenarioedit.h"

#include "allocator.h"
#include "contextparallel.h"
#include "estimate.h"
#include "finetune.h"
#include "links.h"
#include "moespec.h"
#include "pipeline.h"
#include "units.h"

#include <algorithm>
#include <cmath>

namespace headroom {

namespace {

    bool isTransformer(const ModelSpec* model) { return model && model->family == ModelFamily::Transformer; }

    // The fields a count or an enum sets. False when the control takes no integer.
    bool setInteger(TrainingConfig& c, Control control, std::int64_t v)
    {
        switch (control) {
        case Control::MicroBatch:
            c.microBatch = v;
            return true;
        case Control::SequenceLength:
            c.sequenceLength = v;
            return true;
        case Control::Accumulation:
            c.gradientAccumulation = int(v);
            return true;
        case Control::Precision:
            c.precision = Precision(v);
            return true;
        case Control::MixedStyle:
            c.mixedStyle = MixedPrecisionStyle(v);
            return true;
        case Control::Optimizer:
            c.optimizer = OptimizerKind(v);
            return true;
        case Control::Checkpointing:
            c.checkpointing = Checkpointing(v);
            return true;
        case Control::Attention:
            c.attention = AttentionImpl(v);
            return true;
        case Control::Loop:
            c.loop = TrainingLoop(v);
            return true;
        case Control::ZeroStage:
            c.zeroStage = int(v);
            return true;
        case Control::DataParallel:
            c.dataParallel = int(v);
            return true;
        case Control::FinetuneMethod:
            c.finetune.method = FinetuneMethod(v);
            return true;
        case Control::LoraRank:
            c.finetune.loraRank = int(v);
            return true;
        case Control::FrozenLayers:
            c.finetune.frozenLayers = int(v);
            return true;
        case Control::TensorParallel:
            c.tensorParallel = int(v);
            return true;
        case Control::PipelineParallel:
            c.pipelineParallel = int(v);
            return true;
        case Control::PipelineSchedule:
            c.pipelineSchedule = PipelineSchedule(v & 0xff);
            c.virtualStages = std::max(1, int(v >> 8));
            return true;
        case Control::StageSplit:
            setStageSplit(c, v);
            return true;
        case Control::ExpertParallel:
            c.expertParallel = int(v);
            return true;
        case Control::ContextParallel:
            c.contextParallel = int(v);
            return true;
        case Control::GpusPerNode:
            c.cluster.gpusPerNode = int(v);
            return true;
        case Control::IntraLink:
            c.cluster.intraLink = LinkKind(v);
            return true;
        case Control::InterLink:
            c.cluster.interLink = LinkKind(v);
            return true;
        default:
            return false;
        }
    }

    bool setFlag(TrainingConfig& c, Control control, bool on)
    {
        switch (control) {
        case Control::OptimizerOffload:
            c.offloadOptimizer = on;
            return true;
        case Control::ChannelsLast:
            c.channelsLast = on;
            return true;
        case Control::SequenceParallel:
            c.sequenceParallel = on;
            return true;
        case Control::ExpandableSegments:
            c.expandableSegments = on;
            return true;
        case Control::CudaGraphs:
            c.host.execution = on ? Execution::CudaGraphs : Execution::Eager;
            return true;
        default:
            return false;
        }
    }

    bool setNumber(TrainingConfig& c, Control control, double v)
    {
        switch (control) {
        case Control::LoraDropout:
            c.finetune.loraDropout = v;
            return true;
        case Control::CudnnWorkspace:
            c.cudnnWorkspaceBytes = v;
            return true;
        case Control::HostSpeed:
            c.host.speed = v;
            return true;
        default:
            return false;
        }
    }

    // A what-if figure on or off. The note says where a what-if came from; it goes with the last one.
    bool setOverride(GpuOverrides& o, Control control, std::optional<double> v)
    {
        switch (control) {
        case Control::MemoryOverride:
            o.memoryBytes = v;
            break;
        case Control::BandwidthOverride:
            o.bandwidthBytesPerSecond = v;
            break;
        case Control::PeakOverride:
            o.peakFlopsPerSecond = v;
            break;
        default:
            return false;
        }
        if (!o.memoryBytes && !o.bandwidthBytesPerSecond && !o.peakFlopsPerSecond)
            o.note.clear();
        else if (o.note.empty())
            o.note = kWindowOverrideNote;
        return true;
    }

    // The overhead shown is frameworkOverheadBytes: the GPU's figure (or the scenario's) plus the difference a
    // CUBLAS_WORKSPACE_CONFIG makes. The scenario keeps the figure without that difference, and none at all when it is
    // the GPU's own, so that a later workspace or GPU change is not counted twice.
    void setOverhead(TrainingConfig& c, const GpuSpec* gpu, double shownBytes)
    {
        double base = shownBytes;
        if (gpu)
            base -= cublasWorkspaceChangeBytes(*gpu, c);
        if (gpu && std::abs(units::toMiB(base - gpu->overheadBytes())) < 0.5)
            c.overheadBytes.reset();
        else
            c.overheadBytes = std::max(0.0, base);
    }

    // A new model or method keeps what validateFinetune accepts there: a CNN trains in full, frozen layers stop at the
    // model's depth, and module names the model does not have give way to PEFT's default for it.
    void keepFinetune(FinetuneConfig& f, const ModelSpec& model)
    {
        if (model.family == ModelFamily::Cnn) {
            f.method = FinetuneMethod::Full;
            return;
        }
        if (f.frozenLayers > model.transformer.layers)
            f.frozenLayers = -1;
        // Only the module names are in question here: the same names with an adapter method and the model's own head.
        TrainingConfig adapted;
        adapted.finetune = f;
        adapted.finetune.method = FinetuneMethod::LoRA;
        if (validateFinetune(model, adapted, "window"))
            f.loraTargets.clear();
    }

    template <typename T>
    bool contains(const std::vector<T>& v, T x)
    {
        return std::find(v.begin(), v.end(), x) != v.end();
    }

    // The splits: a schedule the layout does not take falls back to 1F1B; expert, context and sequence parallelism
    // keep only what the GPUs, the attention and t allow; a new model or adapters keep only the t and p the core
    // accepts there; uneven stages stay while the layout takes them.
    void keepParallel(TrainingConfig& c, const ModelSpec* model, Control control, bool modelChanged)
    {
        if (c.pipelineSchedule == PipelineSchedule::Interleaved
            && (c.pipelineParallel < 2 || !contains(scheduleChoices(model, c), scheduleValue(c)))) {
            c.pipelineSchedule = PipelineSchedule::OneFOneB;
            c.virtualStages = 1;
        }
        c.pipelineStage = 0;
        if (control != Control::ExpertParallel) {
            if (const std::vector<int> experts = expertChoices(model, c); !contains(experts, c.expertParallel)) {
                int kept = 1;
                for (int ep : experts)
                    kept = ep <= c.expertParallel ? ep : kept;
                c.expertParallel = kept;
            }
        }
        if (c.tensorParallel < 2)
            c.sequenceParallel = false; // SP splits the tensor-parallel ranks' work
        if (control != Control::ContextParallel && c.contextParallel != 1
            && !contains(contextChoices(model, c), c.contextParallel))
            c.contextParallel = 1;
        const bool reconsider = modelChanged || control == Control::FinetuneMethod;
        if (reconsider && c.tensorParallel != 1
            && (c.finetune.adapters() || !contains(tensorParallelChoices(model, c), c.tensorParallel)))
            c.tensorParallel = 1;
        if (reconsider && c.pipelineParallel != 1
            && (c.finetune.adapters() || !contains(pipelineChoices(model, c), c.pipelineParallel))) {
            c.pipelineParallel = 1;
            c.pipelineSchedule = PipelineSchedule::OneFOneB;
            c.virtualStages = 1;
        }
        if ((c.firstStageLayers > 0 || c.lastStageLayers > 0)
            && (!model || c.pipelineParallel < 2 || !unevenStagesProblem(model->transformer.layers, c).empty()))
            c.firstStageLayers = c.lastStageLayers = 0;
    }

    Error editError(Control control, const std::string& message)
    {
        return Error { "window", std::string(toString(control)), message };
    }

    // The id controls: the GPU and the model, with their rules.
    std::optional<Error> setId(Scenario& s, Control control, const std::string& id, const Catalog& catalog,
                               bool& modelChanged)
    {
        if (control == Control::Gpu) {
            if (!catalog.gpu(id))
                return editError(control, "no GPU with the id \"" + id + "\"");
            if (id != s.gpuId) { // overrides belong to the GPU they were made for: a new GPU starts from its datasheet
                s.overrides = {};
                s.config.overheadBytes.reset();
            }
            s.gpuId = id;
            return std::nullopt;
        }
        if (control == Control::LoraTargets) {
            if (id.empty())
                s.config.finetune.loraTargets.clear();
            else
                s.config.finetune.loraTargets = { id };
            return std::nullopt;
        }
        if (control != Control::Model)
            return editError(control, "this control takes no name");
        const ModelSpec* model = catalog.model(id);
        if (!model)
            return editError(control, "no model with the id \"" + id + "\"");
        modelChanged = id != s.modelId;
        s.modelId = id;
        if (modelChanged) // a new model starts at its usual sequence length (or image size)
            s.config.sequenceLength = model->defaultSequence;
        return std::nullopt;
    }

    std::optional<Error> setValue(Scenario& s, const ScenarioEdit& e, const Catalog& catalog, bool& modelChanged)
    {
        TrainingConfig& c = s.config;
        bool ok = false;
        if (const auto* v = std::get_if<std::int64_t>(&e.value))
            ok = setInteger(c, e.control, *v);
        else if (const auto* b = std::get_if<bool>(&e.value))
            ok = setFlag(c, e.control, *b);
        else if (const auto* id = std::get_if<std::string>(&e.value))
            return setId(s, e.control, *id, catalog, modelChanged);
        else if (const auto* o = std::get_if<std::optional<double>>(&e.value))
            ok = setOverride(s.overrides, e.control, *o);
        else if (const auto* x = std::get_if<double>(&e.value)) {
            ok = setNumber(c, e.control, *x);
            if (e.control == Control::Overhead) {
                setOverhead(c, catalog.gpu(s.gpuId), *x);
                ok = true;
            }
        }
        if (!ok)
            return editError(e.control, "a value of the wrong kind for this control");
        return std::nullopt;
    }

} // namespace

Expected<Scenario> applyEdit(const Scenario& scenario, const ScenarioEdit& edit, const Catalog& catalog)
{
    Scenario s = scenario;
    bool modelChanged = false;
    if (auto error = setValue(s, edit, catalog, modelChanged))
        return *error;
    const ModelSpec* model = catalog.model(s.modelId);
    if (model && (modelChanged || edit.control == Control::FinetuneMethod))
        keepFinetune(s.config.finetune, *model);
    keepParallel(s.config, model, edit.control, modelChanged);
    return s;
}

std::int64_t scheduleValue(const TrainingConfig& c)
{
    const auto schedule = std::int64_t(c.pipelineSchedule);
    return c.pipelineSchedule == PipelineSchedule::Interleaved ? schedule | (std::int64_t(c.virtualStages) << 8)
                                                               : schedule;
}

std::int64_t stageSplitValue(const TrainingConfig& c)
{
    return std::int64_t(c.firstStageLayers) | (std::int64_t(c.lastStageLayers) << 16);
}

void setStageSplit(TrainingConfig& c, std::int64_t value)
{
    c.firstStageLayers = int(value & 0xffff);
    c.lastStageLayers = int((value >> 16) & 0xffff);
}

std::vector<std::int64_t> stageSplitChoices(const ModelSpec* model, const TrainingConfig& config)
{
    std::vector<std::int64_t> out { 0 };
    if (!isTransformer(model) || config.pipelineParallel < 2
        || config.pipelineSchedule == PipelineSchedule::Interleaved)
        return out;
    TrainingConfig c = config;
    c.finetune = {};
    c.pipelineStage = 0;
    for (const auto& [first, last] : unevenStageSplits(model->transformer.layers, config.pipelineParallel)) {
        c.firstStageLayers = first;
        c.lastStageLayers = last;
        if (!validateForModel(*model, c, "window"))
            out.push_back(stageSplitValue(c));
    }
    return out;
}

std::vector<int> tensorParallelChoices(const ModelSpec* model, const TrainingConfig& config)
{
    std::vector<int> out { 1 };
    if (!isTransformer(model))
        return out;
    TrainingConfig c = config;
    c.finetune = {};
    for (int t = 2; t <= 64; t *= 2) {
        c.tensorParallel = t;
        if (!validateForModel(*model, c, "window"))
            out.push_back(t);
    }
    return out;
}

std::vector<int> pipelineChoices(const ModelSpec* model, const TrainingConfig& config)
{
    std::vector<int> out { 1 };
    if (!isTransformer(model))
        return out;
    TrainingConfig c = config;
    c.finetune = {};
    c.pipelineSchedule = PipelineSchedule::OneFOneB;
    c.virtualStages = 1;
    c.pipelineStage = 0;
    c.firstStageLayers = c.lastStageLayers = 0; // an even split: uneven stages end when p changes
    for (int p = 2; p <= std::min(64, model->transformer.layers); ++p) {
        c.pipelineParallel = p;
        if (model->transformer.layers % p == 0 && !validateForModel(*model, c, "window"))
            out.push_back(p);
    }
    return out;
}

// 1F1B and GPipe always; interleaving two chunks when they split the blocks and p divides the micro-batches per step.
std::vector<std::int64_t> scheduleChoices(const ModelSpec* model, const TrainingConfig& config)
{
    std::vector<std::int64_t> out { std::int64_t(PipelineSchedule::OneFOneB), std::int64_t(PipelineSchedule::GPipe) };
    if (!model || config.pipelineParallel < 2)
        return out;
    TrainingConfig c = config;
    c.finetune = {};
    c.pipelineSchedule = PipelineSchedule::Interleaved;
    c.virtualStages = 2;
    c.pipelineStage = 0;
    c.firstStageLayers = c.lastStageLayers = 0; // choosing interleaving ends uneven stages
    if (!validateForModel(*model, c, "window"))
        out.push_back(scheduleValue(c));
    return out;
}

// Every ep up to 64 that divides the data-parallel GPUs and the experts (validateExperts).
std::vector<int> expertChoices(const ModelSpec* model, const TrainingConfig& config)
{
    std::vector<int> out { 1 };
    if (!isTransformer(model) || !model->transformer.moe.any())
        return out;
    TrainingConfig c = config;
    for (int ep = 2; ep <= std::min(64, config.dataParallel); ++ep) {
        c.expertParallel = ep;
        if (!validateExperts(*model, c, "window"))
            out.push_back(ep);
    }
    return out;
}

// Powers of two up to 16 that validateContext takes (fused attention, 2 cp dividing the tokens).
std::vector<int> contextChoices(const ModelSpec* model, const TrainingConfig& config)
{
    std::vector<int> out { 1 };
    if (!model)
        return out;
    TrainingConfig c = config;
    for (int cp = 2; cp <= 16; cp *= 2) {
        c.contextParallel = cp;
        if (!validateContext(*model, c, "window"))
            out.push_back(cp);
    }
    return out;
}

std::string_view toString(Control c)
{
    switch (c) {
    case Control::Gpu:
        return "gpu";
    case Control::Model:
        return "model";
    case Control::MicroBatch:
        return "micro-batch";
    case Control::SequenceLength:
        return "sequence length";
    case Control::Accumulation:
        return "gradient accumulation";
    case Control::Precision:
        return "precision";
    case Control::MixedStyle:
        return "mixed-precision style";
    case Control::Optimizer:
        return "optimizer";
    case Control::Checkpointing:
        return "checkpointing";
    case Control::Attention:
        return "attention";
    case Control::Loop:
        return "training loop";
    case Control::ZeroStage:
        return "ZeRO stage";
    case Control::DataParallel:
        return "data-parallel GPUs";
    case Control::OptimizerOffload:
        return "optimizer offload";
    case Control::ChannelsLast:
        return "channels last";
    case Control::MemoryOverride:
        return "what-if capacity";
    case Control::BandwidthOverride:
        return "what-if bandwidth";
    case Control::PeakOverride:
        return "what-if peak";
    case Control::Overhead:
        return "framework overhead";
    case Control::FinetuneMethod:
        return "fine-tuning method";
    case Control::LoraRank:
        return "LoRA rank";
    case Control::LoraTargets:
        return "LoRA target modules";
    case Control::LoraDropout:
        return "LoRA dropout";
    case Control::FrozenLayers:
        return "frozen layers";
    case Control::TensorParallel:
        return "tensor-parallel GPUs";
    case Control::PipelineParallel:
        return "pipeline stages";
    case Control::PipelineSchedule:
        return "pipeline schedule";
    case Control::ExpertParallel:
        return "expert-parallel GPUs";
    case Control::ContextParallel:
        return "context-parallel GPUs";
    case Control::SequenceParallel:
        return "sequence parallelism";
    case Control::GpusPerNode:
        return "GPUs per node";
    case Control::IntraLink:
        return "link in a node";
    case Control::InterLink:
        return "link between nodes";
    case Control::ExpandableSegments:
        return "expandable segments";
    case Control::CudnnWorkspace:
        return "cuDNN workspace";
    case Control::HostSpeed:
        return "host CPU speed";
    case Control::CudaGraphs:
        return "CUDA graphs";
    case Control::StageSplit:
        return "blocks per pipeline stage";
    }
    return "control";
}

} // namespace headroom
