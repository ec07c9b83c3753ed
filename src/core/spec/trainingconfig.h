#pragma once

// The knobs of one training step. Every field has a default that matches what PyTorch does when nobody
// changes it, so that an estimate with no options describes the common case.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

enum class Precision : std::uint8_t {
    FP32,      // FP32 everywhere; matmuls on the FP32 vector units (PyTorch >= 1.12 default: allow_tf32 = False)
    TF32,      // FP32 storage, matmuls and convolutions on TF32 tensor cores
    MixedFP16, // FP16 mixed precision (autocast + GradScaler, or FP16 weights with an FP32 master copy)
    MixedBF16, // BF16 mixed precision
    PureBF16,  // model.to(torch.bfloat16): weights, gradients and optimizer states all BF16, no master copy
    MixedFP8,  // Transformer Engine style: GEMMs in FP8 with per-tensor scaling, everything else BF16 mixed
};

// How mixed precision keeps its weights.
enum class MixedPrecisionStyle : std::uint8_t {
    Autocast,      // torch.autocast: FP32 weights, 16-bit copies cast per step, FP32 gradients
    MasterWeights, // DeepSpeed / Megatron: 16-bit weights, FP32 master copy inside the optimizer
};

// Gradient storage under MasterWeights. The ZeRO paper counts 16-bit gradients (16 bytes per parameter with Adam);
// Megatron accumulates into FP32 main_grad and DeepSpeed keeps an FP32 gradient partition (18 bytes per parameter).
enum class GradientStorage : std::uint8_t { Low, FP32 };

enum class Checkpointing : std::uint8_t {
    None,
    Selective, // recompute the attention core only (Korthikanti et al. 2022, sec. 5)
    Full,      // keep only each block's input, recompute the block in backward
};

enum class AttentionImpl : std::uint8_t {
    Eager, // matmul + softmax + dropout + matmul: the s x s scores are saved
    Fused, // FlashAttention / scaled_dot_product_attention: only Q, K, V, O and the log-sum-exp are saved
};

// The Python loop around the step. KeepOutputs: `output = model(x); loss = loss_fn(output, y); loss.backward()`, the
// PyTorch tutorials' and accelerate's loop: the model's output (the logits) lives in `output` until backward has run.
// DropOutputs: `loss = model(**batch).loss` inside a function (HF Trainer.training_step, Lightning, headroom-probe):
// the output is freed once the loss is computed (docs/formulas.md, "The training loop").
enum class TrainingLoop : std::uint8_t { KeepOutputs, DropOutputs };

// A library release (major.minor). PyTorch's decides which SDPA kernels exist and what they accept (sdpa.h);
// transformers' how its models run a training step (transformerbuilder.cpp: the key/value cache).
struct Release {
    int major = 0;
    int minor = 0;
    // No <=>: <compare> pulls in <concepts>, which Qt 6.4's moc cannot parse (every test includes this header).
    bool operator==(const Release&) const = default;
    bool operator<(const Release& o) const { return major != o.major ? major < o.major : minor < o.minor; }
    bool operator>(const Release& o) const { return o < *this; }
    bool operator<=(const Release& o) const { return !(o < *this); }
    bool operator>=(const Release& o) const { return !(*this < o); }
};
using TorchVersion = Release;
// The releases of the H200 measurements (tests/data/measured/README.md), the defaults.
inline constexpr Release kTorchRelease { 2, 11 };
inline constexpr Release kTransformersRelease { 5, 17 };
// The transformers code tools/hf_reference transcribes (its README: v4.44 to v4.50), which the CPU measurements ran.
inline constexpr Release kTranscribedTransformers { 4, 44 };

// PagedAdamW and PagedAdamW8bit are bitsandbytes' paged optimizers: the same states in CUDA unified memory, which
// the driver evicts to host memory when the GPU runs out (QLoRA, Dettmers et al. 2023, sec. 3).
enum class OptimizerKind : std::uint8_t {
    AdamW,
    Adam,
    SGD,
    SGDMomentum,
    AdamW8bit,
    Adafactor,
    PagedAdamW,
    PagedAdamW8bit
};

// Which of PyTorch's three Adam/AdamW implementations steps the parameters (torch.optim.AdamW(foreach=, fused=)):
// their temporaries differ by the size of the optimizer state (optimizer.cpp).
enum class AdamImpl : std::uint8_t {
    Foreach, // _multi_tensor_adamw, PyTorch's default on CUDA: one state-sized temporary for the whole model
    ForLoop, // _single_tensor_adamw (foreach=False): temporaries of one parameter at a time
    Fused,   // _fused_adamw (fused=True): one kernel, no temporaries
};

// Whose kernels decide the dtypes of saved helper tensors. Training runs on CUDA; Cpu exists so that the simulator
// can be checked byte for byte against measurements taken with PyTorch on a machine without a GPU (CPU dropout
// saves input-dtype noise instead of a 1-byte mask, CPU layer_norm saves its statistics in the input dtype).
enum class KernelBackend : std::uint8_t { Cuda, Cpu };

// How a pipeline-parallel step orders its micro-batches (Narayanan et al. 2021, arXiv 2104.04473 sec. 2.2).
enum class PipelineSchedule : std::uint8_t {
    GPipe,       // every forward, then every backward: each stage holds all m micro-batches
    OneFOneB,    // PipeDream-Flush: stage s holds at most p - s micro-batches
    Interleaved, // 1F1B over v model chunks per stage: bubble / v, stage 0 holds p + (p - 1) / v micro-batches
};

enum class LinkKind : std::uint8_t; // links.h

// How the host issues the step's kernels. Eager: one CPU thread runs the Python of every module and dispatches each
// ATen operator (the dispatcher, autocast, autograd's recording, the launch), so a GPU that finishes a kernel before
// the next is issued waits. CudaGraphs: the step is captured once and replayed (torch.cuda.graphs,
// torch.compile(mode="reduce-overhead")): the per-operator host work collapses into one launch per step.
enum class Execution : std::uint8_t { Eager, CudaGraphs };

// The CPU that issues the kernels, relative to the one the host costs were calibrated on (timemodel.h,
// docs/formulas.md 1.5a): 2 issues every operator twice as fast, 0.5 half as fast (a laptop CPU).
struct HostConfig {
    double speed = 1.0;
    Execution execution = Execution::Eager;
    bool operator==(const HostConfig&) const = default;
};

// Where the job's GPUs sit. 0 GPUs per node: every GPU of the job on one node's links.
struct ClusterConfig {
    int gpusPerNode = 0;
    LinkKind intraLink {}; // LinkKind::Auto: the GPU file's NVLink or PCIe
    LinkKind interLink {}; // LinkKind::Auto: InfiniBand HDR
    bool operator==(const ClusterConfig&) const = default;
};

// What the step trains. Frozen weights get no gradient and no optimizer state; adapters are PEFT's LoRA / DoRA
// modules beside the frozen Linear layers they target; QLoRA also stores those Linear weights as NF4 with double
// quantization (bitsandbytes Linear4bit) and computes in the 16-bit type.
enum class FinetuneMethod : std::uint8_t {
    Full,   // every parameter trains
    Freeze, // the embeddings and the first frozenLayers blocks are frozen; the rest trains
    LoRA,   // peft LoraConfig: low-rank adapters A (r x in) and B (out x r), base model frozen
    DoRA,   // LoraConfig(use_dora=True): LoRA plus a magnitude vector per adapted Linear
    QLoRA,  // LoRA over a bitsandbytes 4-bit (NF4, double-quantized) base, after prepare_model_for_kbit_training
};

// Defaults are peft.LoraConfig's: r = 8, lora_alpha = 8, lora_dropout = 0.0, and target_modules None, which
// means PEFT's per-architecture default (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING: q and v).
struct FinetuneConfig {
    FinetuneMethod method = FinetuneMethod::Full;
    int loraRank = 8;
    double loraAlpha = 8.0;
    double loraDropout = 0.0;
    // Module names as the reference implementation spells them (q_proj, v_proj, query, c_attn, ...) or as
    // Headroom's operator labels (attn.q, mlp.up); "all-linear" adapts every Linear but the output layer. Empty:
    // PEFT's default for the architecture.
    std::vector<std::string> loraTargets;
    int frozenLayers = -1; // Freeze: blocks frozen from the input side; -1 freezes them all (only the head trains)

    bool adapters() const
    {
        return method == FinetuneMethod::LoRA || method == FinetuneMethod::DoRA || method == FinetuneMethod::QLoRA;
    }
    bool operator==(const FinetuneConfig&) const = default;
};

// The head the step trains: the model's own, or another over the same backbone, as transformers' Auto classes
// build it (AutoModelForSequenceClassification, ...). A language-model head's vocabulary logits dominate memory; a
// classifier's do not.
enum class Task : std::uint8_t { Model, CausalLM, MaskedLM, SequenceClassification, TokenClassification };

struct TrainingConfig {
    std::int64_t microBatch = 8;
    std::int64_t sequenceLength = 512; // tokens; for vision models the image side in pixels
    Precision precision = Precision::MixedBF16;
    MixedPrecisionStyle mixedStyle = MixedPrecisionStyle::Autocast;
    GradientStorage masterGradients = GradientStorage::FP32;
    int zeroStage = 0;             // 0..3
    int dataParallel = 1;          // data-parallel ranks that ZeRO partitions over
    int tensorParallel = 1;        // Megatron tensor-parallel ranks: heads, FFN and vocabulary split t ways per GPU
    bool sequenceParallel = false; // with tensorParallel > 1: norms, dropouts and residuals on s/t tokens per GPU
    int pipelineParallel = 1;      // pipeline stages p: each holds a contiguous share of the blocks (pipeline.h)
    int expertParallel = 1;        // MoE: routed experts split over ep of the data-parallel ranks (ep divides dp)
    int contextParallel = 1;       // ring attention: each of cp ranks holds s/cp of every sequence (contextparallel.h)
    int virtualStages = 1;         // model chunks per stage under the interleaved schedule (Megatron's vpp)
    int firstStageLayers = 0;      // blocks on the first pipeline stage; 0: an even share (pipeline.h)
    int lastStageLayers = 0;       // blocks on the last pipeline stage; 0: an even share
    PipelineSchedule pipelineSchedule = PipelineSchedule::OneFOneB;
    int pipelineStage = 0; // the rank whose step this describes: 0 .. p-1 (simulate() walks every stage)
    ClusterConfig cluster; // the links of the collectives (links.h): time only
    HostConfig host;       // the CPU issuing the kernels and how (timemodel.h): time only
    bool offloadOptimizer = false;
    Checkpointing checkpointing = Checkpointing::None;
    AttentionImpl attention = AttentionImpl::Fused;
    OptimizerKind optimizer = OptimizerKind::AdamW;
    AdamImpl adamImpl = AdamImpl::Foreach; // for Adam and AdamW without master weights
    int gradientAccumulation = 1;
    std::optional<double> overheadBytes;        // CUDA context + workspaces; default from the GPU's generation
    double allocatorReserveFraction = 0.0;      // caching-allocator slack on top of allocated bytes
    bool expandableSegments = false;            // PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (allocator.h)
    std::optional<double> cublasWorkspaceBytes; // CUBLAS_WORKSPACE_CONFIG's total; default by GPU (allocator.h)
    double cudnnWorkspaceBytes = 0.0;           // a block of each cuDNN convolution step (lowering.cpp)
    bool channelsLast = false; // model.to(memory_format=torch.channels_last): NHWC convolutions (time only)
    int ncclChannels = 0;      // NCCL_MIN/MAX_NCHANNELS: ring channels per communicator; 0: the link's (ncclmemory.h)
    KernelBackend kernels = KernelBackend::Cuda;
    FinetuneConfig finetune;
    Task task = Task::Model;
    int numLabels = 2; // PretrainedConfig's default num_labels
    TrainingLoop loop = TrainingLoop::KeepOutputs;
    TorchVersion torch = kTorchRelease;
    Release transformers = kTransformersRelease; // of a transformers model (ModelReference::implementation)
    // The GPU's compute capability, major * 10 + minor ("9.0" -> 90), which SDPA's kernel choice reads (sdpa.h).
    // Not a knob: simulate() and estimate() set it from the GPU file; 0 (unknown) decides as on sm80.
    int computeCapability = 0;

    bool operator==(const TrainingConfig&) const = default;
};

// What-if overrides of a GPU's figures. Each one is visible in every result that uses it.
struct GpuOverrides {
    std::optional<double> memoryBytes;
    std::optional<double> bandwidthBytesPerSecond;
    std::optional<double> peakFlopsPerSecond; // the roof of the precision in use
    std::string note;                         // why: shown beside the overridden figure

    bool operator==(const GpuOverrides&) const = default;
};

bool isMixed(Precision p);
bool usesTensorCores(Precision p);

std::string_view toString(Precision p);
std::string_view toString(MixedPrecisionStyle s);
std::string_view toString(GradientStorage g);
std::string_view toString(Checkpointing c);
std::string_view toString(AttentionImpl a);
std::string_view toString(OptimizerKind o);
std::string_view toString(AdamImpl a);
std::string_view toString(FinetuneMethod m);
std::string_view toString(Task t);
std::string_view toString(PipelineSchedule p);
std::string_view toString(Execution e);
std::string_view toString(TrainingLoop l);
std::string toString(TorchVersion v);

std::optional<Precision> precisionFromString(std::string_view s);
std::optional<MixedPrecisionStyle> mixedStyleFromString(std::string_view s);
std::optional<GradientStorage> gradientStorageFromString(std::string_view s);
std::optional<Checkpointing> checkpointingFromString(std::string_view s);
std::optional<AttentionImpl> attentionFromString(std::string_view s);
std::optional<OptimizerKind> optimizerFromString(std::string_view s);
std::optional<AdamImpl> adamImplFromString(std::string_view s);
std::optional<FinetuneMethod> finetuneFromString(std::string_view s);
std::optional<Task> taskFromString(std::string_view s);
std::optional<PipelineSchedule> pipelineScheduleFromString(std::string_view s);
std::optional<Execution> executionFromString(std::string_view s);
std::optional<TrainingLoop> loopFromString(std::string_view s);
// "2.11", "2.11.0+cu130" -> 2.11
std::optional<TorchVersion> torchVersionFromString(std::string_view s); // "2.11", "2.11.0+cu130", "1.13.0a0"
inline std::optional<Release> releaseFromString(std::string_view s) { return torchVersionFromString(s); }
// A GPU file's compute_capability ("8.6", "12.0") as major * 10 + minor; 0 when it is not NVIDIA's ("gfx942", "").
int computeCapabilityCode(std::string_view s);

} // namespace headroom
