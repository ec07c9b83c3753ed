#include "labels.h"

#include "scenarioedit.h"

#include "formatting.h"
#include "scenario.h"
#include "units.h"

#include <algorithm>

namespace headroom::gui {

QString Labels::category(MemoryCategory c)
{
    switch (c) {
    case MemoryCategory::Weights:
        return tr("Weights");
    case MemoryCategory::WeightCopies:
        return tr("Weight copies");
    case MemoryCategory::Gradients:
        return tr("Gradients");
    case MemoryCategory::OptimizerStates:
        return tr("Optimizer states");
    case MemoryCategory::Activations:
        return tr("Activations");
    case MemoryCategory::Transient:
        return tr("Temporaries");
    case MemoryCategory::Overhead:
        return tr("Framework overhead");
    }
    return {};
}

QString Labels::categoryDescription(MemoryCategory c)
{
    switch (c) {
    case MemoryCategory::Weights:
        return tr(
            "Parameters as the model stores them: FP32 under autocast, 16-bit with a master copy, a 1/N shard under ZeRO-3.");
    case MemoryCategory::WeightCopies:
        return tr("Low-precision copies of the weights: autocast's FP16/BF16 cache, FP8 weights and their transposes.");
    case MemoryCategory::Gradients:
        return tr("Parameter gradients, a 1/N shard under ZeRO-2 and ZeRO-3, plus data-parallel gradient buckets.");
    case MemoryCategory::OptimizerStates:
        return tr("FP32 master weights and the optimizer's moments or momentum, a 1/N shard from ZeRO-1 on.");
    case MemoryCategory::Activations:
        return tr("Tensors autograd saves in the forward pass for the backward pass, the loss's included.");
    case MemoryCategory::Transient:
        return tr(
            "Outputs in flight, activation gradients, gathered ZeRO-3 layers, optimizer temporaries, cuDNN workspaces, "
            "the input batch.");
    case MemoryCategory::Overhead:
        return tr("CUDA context, cuBLAS workspaces and caching-allocator slack.");
    }
    return {};
}

QString Labels::segment(GpuSegment s)
{
    switch (s) {
    case GpuSegment::Laptop:
        return tr("laptop");
    case GpuSegment::Desktop:
        return tr("desktop");
    case GpuSegment::Workstation:
        return tr("workstation");
    case GpuSegment::Datacenter:
        return tr("data center");
    }
    return {};
}

QStringList Labels::segmentSearchTerms(GpuSegment s)
{
    // Fixed, not translated: a user may search in either language whatever the window's. The Chinese names are the
    // .ts translations of segment() (tst_translations checks they agree).
    QStringList terms { segment(s) };
    switch (s) {
    case GpuSegment::Laptop:
        terms << QStringLiteral("laptop") << QStringLiteral("笔记本");
        break;
    case GpuSegment::Desktop:
        terms << QStringLiteral("desktop") << QStringLiteral("台式机");
        break;
    case GpuSegment::Workstation:
        terms << QStringLiteral("workstation") << QStringLiteral("工作站");
        break;
    case GpuSegment::Datacenter:
        terms << QStringLiteral("data center") << QStringLiteral("datacenter") << QStringLiteral("数据中心");
        break;
    }
    terms.removeDuplicates();
    return terms;
}

QString Labels::phase(Phase p)
{
    switch (p) {
    case Phase::Forward:
        return tr("forward");
    case Phase::Backward:
        return tr("backward");
    case Phase::Optimizer:
        return tr("optimizer step");
    }
    return {};
}

QString Labels::error(const Error& e)
{
    const QString origin = QString::fromStdString(e.origin), field = QString::fromStdString(e.field);
    QString reason = QString::fromStdString(e.message);
    if (!origin.isEmpty() && !field.isEmpty())
        return tr("%1: %2: %3", "a file, its field that is wrong, and why (in English)").arg(origin, field, reason);
    if (!origin.isEmpty() || !field.isEmpty())
        return tr("%1: %2", "a file or a field, and what is wrong with it (in English)")
            .arg(origin.isEmpty() ? field : origin, reason);
    return reason;
}

QString Labels::kind(OpKind k)
{
    switch (k) {
    case OpKind::Gemm:
        return tr("GEMM");
    case OpKind::Attention:
        return tr("Attention");
    case OpKind::Normalization:
        return tr("Normalization");
    case OpKind::Elementwise:
        return tr("Elementwise");
    case OpKind::Embedding:
        return tr("Embedding");
    case OpKind::Loss:
        return tr("Loss");
    case OpKind::Optimizer:
        return tr("Optimizer");
    }
    return {};
}

QString Labels::unit(MathUnit u)
{
    switch (u) {
    case MathUnit::Fp32Vector:
        return tr("FP32");
    case MathUnit::Tf32Tensor:
        return tr("TF32 tensor");
    case MathUnit::Fp16Tensor:
        return tr("FP16 tensor");
    case MathUnit::Bf16Tensor:
        return tr("BF16 tensor");
    case MathUnit::Fp8Tensor:
        return tr("FP8 tensor");
    }
    return {};
}

QString Labels::unitShort(MathUnit u)
{
    switch (u) {
    case MathUnit::Fp32Vector:
        return tr("FP32");
    case MathUnit::Tf32Tensor:
        return tr("TF32");
    case MathUnit::Fp16Tensor:
        return tr("FP16");
    case MathUnit::Bf16Tensor:
        return tr("BF16");
    case MathUnit::Fp8Tensor:
        return tr("FP8");
    }
    return {};
}

QString Labels::precision(Precision p)
{
    switch (p) {
    case Precision::FP32:
        return tr("FP32");
    case Precision::TF32:
        return tr("FP32 with TF32 matmuls");
    case Precision::MixedFP16:
        return tr("FP16 mixed");
    case Precision::MixedBF16:
        return tr("BF16 mixed");
    case Precision::PureBF16:
        return tr("Pure BF16");
    case Precision::MixedFP8:
        return tr("FP8 mixed (Transformer Engine)");
    }
    return {};
}

QString Labels::mixedStyle(MixedPrecisionStyle s)
{
    return s == MixedPrecisionStyle::Autocast ? tr("torch.autocast (FP32 weights)")
                                              : tr("DeepSpeed/Megatron (16-bit weights, FP32 master)");
}

QString Labels::checkpointing(Checkpointing c)
{
    switch (c) {
    case Checkpointing::None:
        return tr("None");
    case Checkpointing::Selective:
        return tr("Selective (attention core)");
    case Checkpointing::Full:
        return tr("Full (every block)");
    }
    return {};
}

QString Labels::attention(AttentionImpl a)
{
    return a == AttentionImpl::Fused ? tr("Fused (FlashAttention / SDPA)") : tr("Eager (scores saved)");
}

QString Labels::loop(TrainingLoop l)
{
    return l == TrainingLoop::KeepOutputs ? tr("Keep outputs (output = model(x))") : tr("Drop outputs (HF Trainer)");
}

QString Labels::sdpaKernel(SdpaKernel k)
{
    switch (k) {
    case SdpaKernel::Flash:
        return tr("FlashAttention");
    case SdpaKernel::MemoryEfficient:
        return tr("memory-efficient");
    case SdpaKernel::CuDnn:
        return tr("cuDNN");
    case SdpaKernel::Math:
        return tr("math");
    }
    return {};
}

namespace {

    // One refusal of sdpa.h's rules in words (sdpa.cpp's phrase, translated).
    QString sdpaPhrase(SdpaRule r, const SdpaCall& c)
    {
        switch (r) {
        case SdpaRule::NoSdpa:
            return Labels::tr("no SDPA before torch 2.0");
        case SdpaRule::FlashDtype:
        case SdpaRule::CudnnDtype:
        case SdpaRule::MemEffDtype:
            if (c.dtype == DType::F32)
                return QStringLiteral("FP32");
            return c.dtype == DType::BF16 ? Labels::tr("BF16 before sm80") : Labels::tr("this dtype");
        case SdpaRule::FlashMask:
            return Labels::tr("an attention mask");
        case SdpaRule::FlashHeadDim:
        case SdpaRule::CudnnHeadDim:
        case SdpaRule::MemEffHeadDim:
            return Labels::tr("head dim %1").arg(c.headDim);
        case SdpaRule::FlashArch:
        case SdpaRule::MemEffArch:
            return Labels::tr("compute capability %1.%2").arg(c.computeCapability / 10).arg(c.computeCapability % 10);
        case SdpaRule::FlashBackward:
            return Labels::tr("training with head dim %1 on sm86-sm89").arg(c.headDim);
        case SdpaRule::MemEffGqa:
            return Labels::tr("grouped-query attention");
        case SdpaRule::CudnnDropout:
            return Labels::tr("dropout %1 (cuDNN takes multiples of 1/16)").arg(c.dropout);
        case SdpaRule::CpuFlashDropout:
            return Labels::tr("dropout on the CPU");
        }
        return {};
    }

} // namespace

QString Labels::sdpaReason(const SdpaChoice& choice, const SdpaCall& call)
{
    QStringList phrases;
    for (int i = 0; i < choice.refusedCount; ++i) {
        const QString p = sdpaPhrase(choice.refused[std::size_t(i)].rule, call);
        if (!p.isEmpty() && !phrases.contains(p))
            phrases << p;
    }
    if (phrases.size() == 1)
        return phrases.front();
    if (phrases.size() > 1) // "FP32 with grouped-query attention, head dim 256"
        return tr("%1 with %2").arg(phrases.front(), phrases.mid(1).join(tr(", ")));
    if (choice.kernel == SdpaKernel::CuDnn)
        return tr("cuDNN first on sm90/sm100 from torch 2.9");
    return call.device == KernelBackend::Cpu ? tr("the CPU's first choice") : tr("first in PyTorch's order");
}

QString Labels::optimizer(OptimizerKind o)
{
    switch (o) {
    case OptimizerKind::AdamW:
        return tr("AdamW");
    case OptimizerKind::Adam:
        return tr("Adam");
    case OptimizerKind::SGD:
        return tr("SGD");
    case OptimizerKind::SGDMomentum:
        return tr("SGD with momentum");
    case OptimizerKind::AdamW8bit:
        return tr("8-bit AdamW (bitsandbytes)");
    case OptimizerKind::Adafactor:
        return tr("Adafactor");
    case OptimizerKind::PagedAdamW:
        return tr("Paged AdamW (bitsandbytes)");
    case OptimizerKind::PagedAdamW8bit:
        return tr("Paged 8-bit AdamW (bitsandbytes)");
    }
    return {};
}

QString Labels::finetune(FinetuneMethod m)
{
    switch (m) {
    case FinetuneMethod::Full:
        return tr("Full");
    case FinetuneMethod::Freeze:
        return tr("Freeze layers");
    case FinetuneMethod::LoRA:
        return tr("LoRA");
    case FinetuneMethod::DoRA:
        return tr("DoRA");
    case FinetuneMethod::QLoRA:
        return tr("QLoRA");
    }
    return {};
}

QString Labels::loraTargets(const FinetuneConfig& f, const ModelSpec* model)
{
    if (f.loraTargets.empty()) {
        // FinetunePolicy: PEFT's TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING, q and v, or the fused projection.
        const bool fused = model && model->transformer.fusedQkv;
        return fused ? tr("fused qkv (PEFT default)") : tr("q, v (PEFT default)");
    }
    if (std::find(f.loraTargets.begin(), f.loraTargets.end(), "all-linear") != f.loraTargets.end())
        return tr("all linear layers"); // PEFT adapts every Linear when the list holds the shorthand
    QStringList names;
    for (const std::string& t : f.loraTargets)
        names << QString::fromStdString(t);
    return names.join(QStringLiteral(", "));
}

QString Labels::fix(const Fix& f)
{
    if (f.changes.size() <= 1)
        return change(f.kind, f.config);
    QStringList parts;
    for (FixKind k : f.changes)
        parts << change(k, f.config);
    return parts.join(QStringLiteral(" + "));
}

QString Labels::change(FixKind kind, const TrainingConfig& config)
{
    const TrainingConfig& c = config;
    switch (kind) {
    case FixKind::FusedAttention:
        return tr("Use fused attention");
    case FixKind::SelectiveCheckpointing:
        return tr("Recompute the attention core (selective checkpointing)");
    case FixKind::FullCheckpointing:
        return tr("Checkpoint every block (full recomputation)");
    case FixKind::MixedPrecision:
        return tr("Train in %1").arg(precision(c.precision));
    case FixKind::EightBitOptimizer:
        return tr("Use 8-bit AdamW");
    case FixKind::ZeroStage:
        return tr("Go to ZeRO stage %1").arg(c.zeroStage);
    case FixKind::OptimizerOffload:
        return tr("Offload the optimizer to the CPU");
    case FixKind::SmallerMicroBatch:
        return tr("Micro-batch %1 with %2 accumulation steps").arg(c.microBatch).arg(c.gradientAccumulation);
    case FixKind::NearGlobalBatch:
        if (c.gradientAccumulation == 1)
            return tr("Micro-batch %1 without accumulation (global batch %1)").arg(c.microBatch);
        return tr("Micro-batch %1 with %2 accumulation steps (global batch %3)")
            .arg(c.microBatch)
            .arg(c.gradientAccumulation)
            .arg(c.microBatch * c.gradientAccumulation);
    case FixKind::PureBf16:
        return tr("Train in pure BF16 (model.to(torch.bfloat16))");
    case FixKind::FusedAdamW:
        return tr("Use fused AdamW (torch.optim.AdamW(fused=True))");
    case FixKind::LoRA:
        return tr("Train LoRA adapters instead of every weight (peft.LoraConfig, r = %1)").arg(c.finetune.loraRank);
    case FixKind::QLoRA:
        return tr("Train LoRA over a 4-bit NF4 base (QLoRA, bitsandbytes)");
    }
    return {};
}

QString Labels::layer(int layer, int layers)
{
    if (layer < 0)
        return tr("the embeddings");
    if (layer >= layers)
        return tr("the head");
    return tr("layer %1").arg(layer);
}

QString Labels::norm(NormKind n)
{
    switch (n) {
    case NormKind::LayerNorm:
        return tr("LayerNorm");
    case NormKind::RMSNorm:
        return tr("RMSNorm");
    }
    return {};
}

QString Labels::activation(Activation a)
{
    switch (a) {
    case Activation::Gelu:
        return tr("GELU (exact)");
    case Activation::GeluTanh:
        return tr("GELU (tanh approximation)");
    case Activation::GeluComposite:
        return tr("GELU (tanh, written as tensor ops: gelu_new)");
    case Activation::QuickGelu:
        return tr("QuickGELU");
    case Activation::Silu:
        return tr("SiLU");
    case Activation::Relu:
        return tr("ReLU");
    }
    return {};
}

QString Labels::position(PositionKind p)
{
    switch (p) {
    case PositionKind::Learned:
        return tr("Learned");
    case PositionKind::Rotary:
        return tr("Rotary (RoPE)");
    case PositionKind::None:
        return tr("None");
    }
    return {};
}

QString Labels::head(HeadKind h)
{
    switch (h) {
    case HeadKind::CausalLM:
        return tr("Causal language model");
    case HeadKind::MaskedLM:
        return tr("Masked language model");
    case HeadKind::Classifier:
        return tr("Classifier");
    case HeadKind::SequenceClassification:
        return tr("Sequence classification");
    case HeadKind::TokenClassification:
        return tr("Token classification");
    case HeadKind::None:
        return tr("None");
    }
    return {};
}

QString Labels::overrideNote(const std::string& note)
{
    static const std::string defaultNote = defaultScenario().overrides.note;
    if (note == defaultNote)
        return tr("What-if from the explainer: 392 GB/s. The datasheet figure is 336 GB/s (192-bit × 14 Gbps / 8).");
    if (note == kWindowOverrideNote)
        return tr("What-if set in the window");
    return QString::fromStdString(note);
}

QStringList Labels::warnings(const Estimate& e)
{
    QStringList out;
    for (const EstimateWarning& w : e.warnings) {
        switch (w.kind) {
        case EstimateWarning::Kind::UnitFallback:
            out << tr("%1 has no %2 peak: the matrix multiplications are timed on %3")
                       .arg(e.gpu.spec ? QString::fromStdString(e.gpu.spec->name) : QString(), unit(w.unit),
                            unit(w.fallback));
            break;
        case EstimateWarning::Kind::ZeroWithOneRank:
            out << tr("ZeRO partitions over data-parallel GPUs; with one GPU it saves no memory");
            break;
        case EstimateWarning::Kind::Fp8Unsupported:
            out << tr("FP8 training needs FP8 tensor cores (compute capability 8.9 or later)");
            break;
        case EstimateWarning::Kind::BeyondPositions:
            out << tr("The sequence (%1 tokens) is longer than the model's positions: learned positions have no "
                      "embedding beyond them, rotary ones need scaling")
                       .arg(e.config.sequenceLength);
            break;
        case EstimateWarning::Kind::HugeMicroBatch:
            out << tr("A micro-batch of %1 is far beyond any training run's; check the setting")
                       .arg(e.config.microBatch);
            break;
        case EstimateWarning::Kind::SelectiveRecomputesNothing:
            out << (!w.kernel
                        ? tr(
                            "Selective checkpointing recomputes the attention scores, and this model has no attention: "
                            "memory and time are as without checkpointing")
                        : tr("Selective checkpointing recomputes the attention scores, and SDPA's %1 kernel saves "
                             "none: memory and time are as without checkpointing; full checkpointing recomputes whole "
                             "blocks")
                              .arg(sdpaKernel(*w.kernel)));
            break;
        case EstimateWarning::Kind::PagedOptimizer:
            out << tr("The paged optimizer's %1 of states live in unified memory: the peak leaves them out; they use "
                      "the room left on the GPU and are paged over PCIe when there is none (not in the step time)")
                       .arg(formatBytes(e.hostBytes));
            break;
        }
    }
    return out;
}

} // namespace headroom::gui
