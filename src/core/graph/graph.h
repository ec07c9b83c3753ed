#pragma once

// The operator graph of a forward pass, as PyTorch eager would record it: logical tensors (with the storage they
// live in, so views and in-place ops share bytes), parameters, and operators that say which tensors autograd saves
// for backward. Sizes are per sample (activations) or fixed (parameters), so one graph serves every micro-batch.
// lowering.h turns it into the full training step (forward, recompute, backward, optimizer).

#include "types.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

using TensorId = std::int32_t;
inline constexpr TensorId kNoTensor = -1;

enum class TensorRole : std::uint8_t {
    Activation, // produced by an operator
    Input,      // part of the batch (token ids, labels, images)
    Parameter,  // a leaf that requires grad
    WeightCopy, // a cast of a parameter (autocast cache, FP8 copy)
};

struct GraphTensor {
    Linear numel;
    DType dtype = DType::F32;
    TensorRole role = TensorRole::Activation;
    bool requiresGrad = false;
    std::int32_t storage = -1;
    std::int32_t param = -1;    // parameter index for Parameter and WeightCopy tensors
    std::int32_t producer = -1; // forward operator index, -1 for leaves
    bool operator==(const GraphTensor&) const = default;
};

struct GraphStorage {
    Linear bytes;
    bool autocastCached = false; // autocast keeps the cast until the forward pass leaves the autocast region
    bool operator==(const GraphStorage&) const = default;
};

// Operator types the builder knows. Each has a forward cost, a backward cost and a rule for what it saves.
enum class OpType : std::uint8_t {
    Embedding,
    Linear,
    Conv2d,
    Matmul,         // batched matmul inside eager attention
    FusedAttention, // FlashAttention / SDPA
    Softmax,
    LogSoftmax,
    NllLoss,
    LayerNorm,
    RmsNorm,
    BatchNorm,
    Unary,  // activation functions, casts that need no saved state, pow, rsqrt, tanh
    Add,    // backward passes the gradient through (aliasing it where dtype and shape agree)
    Binary, // mul
    Dropout,
    Cast,
    Split, // one storage viewed as several tensors; backward concatenates the gradients
    Pool,
    Reduce,  // mean over a dimension (RMSNorm variance)
    Send,    // a pipeline stage hands its output on; in backward the next stage's gradient of it arrives here
    Receive, // a pipeline stage's input from the previous stage, kept per micro-batch like any activation
};

// How PyTorch's TensorIterator runs an elementwise kernel on CUDA (aten/src/ATen/native/cuda/CUDALoops.cuh,
// gpu_kernel_impl): contiguous operands of one dtype take the vectorized kernel; where a dtype changes on the way
// (dynamic casting: a BF16 operand in an FP32 operation, a BF16-to-FP32 copy) the unrolled kernel, which loads and
// converts element by element; float-to-BF16/FP16 copies have a vectorized kernel of their own (Copy.cu,
// bfloat16_copy_kernel_cuda). TimeModel prices a casting kernel's bytes at Efficiency::castingBandwidth.
enum class LoopKind : std::uint8_t { Vectorized, Casting };

// Which kernels run a 16-bit batch norm on NCHW (contiguous) CUDA tensors, where PyTorch's choice
// (aten/src/ATen/native/Normalization.cpp, _select_batch_norm_backend) is slow: its native kernels for BF16 input
// (cuDNN is never given BF16), cuDNN's for FP16 input with FP32 parameters (autocast), which on NCHW transposes to
// NHWC and back (cudnn-frontend issue 134). TimeModel prices both at Efficiency::nchwBatchNormBandwidth, cuDNN's
// from compute capability 9 (measured on an H200; timemodel.h).
enum class SlowBatchNorm : std::uint8_t { None, Native, Cudnn };

struct OpCost {
    Linear flops;
    Linear bytes;
    bool operator==(const OpCost&) const = default;
};

struct GraphOp {
    OpType type = OpType::Unary;
    OpKind kind = OpKind::Elementwise;
    MathUnit unit = MathUnit::Fp32Vector;
    std::int16_t layer = -1;  // -1 embeddings/stem, 0..L-1 blocks, L the head and loss
    std::int16_t region = -1; // activation-checkpoint region, -1 when not checkpointed
    std::string_view label;
    std::int32_t inBegin = 0, inCount = 0;
    std::int32_t outBegin = 0, outCount = 0;
    std::int32_t savedBegin = 0, savedCount = 0;
    OpCost forward;
    OpCost backward;
    Linear modelFlops;       // forward matmul FLOPs by the dense convention used for MFU (Narayanan et al. 2021)
    Linear backwardScratch;  // allocated and freed inside the backward kernel (a 4-bit weight dequantized again)
    Linear tpMessage;        // bytes tensor parallelism all-reduces for this operator, forward and backward together
    std::int8_t tpCalls = 0; // the collectives that carry tpMessage
    Linear epMessage;        // bytes this rank sends in expert-parallel all-to-alls, forward and backward together
    Linear cpMessage;        // bytes this rank sends round the context-parallel ring, forward and backward together
    bool inplace = false;
    bool convolution = false; // a cuDNN convolution (TimeModel: its own efficiency on tensor cores)
    bool winograd = false;    // a 3x3, stride-1, ungrouped convolution: cuDNN's Winograd algorithms apply (TimeModel)
    // A GEMM's alignment: the largest power of two, up to 16, that divides the byte size of every leading dimension
    // of its operands (in and out features). cuBLAS and CUTLASS load operands in vectors of that many bytes and pick
    // "align1"/"align2" kernels for an odd or twice-odd dimension (GPT-2's 50,257-word head); TimeModel.
    std::uint8_t alignBytes = 16;
    SlowBatchNorm slowBatchNorm = SlowBatchNorm::None; // a 16-bit batch norm on NCHW CUDA tensors
    // Traffic a tensor-core convolution adds on NCHW (PyTorch's default contiguous) tensors, forward and backward:
    // cuDNN's tensor-core kernels work in NHWC, so each operand is transposed in and the result back out (NVIDIA's
    // convolution guide; MosaicML's channels-last card). Counted only where the GPU runs it on tensor cores.
    Linear forwardLayoutBytes;
    Linear backwardLayoutBytes;
    // A sum over rows in a kernel of its own after the operator's backward kernels, reading these bytes: a Linear's or
    // a convolution's bias gradient (derivatives.yaml addmm: the output's gradient summed to the bias's shape;
    // reduce_kernel in the H200 profiles), a LayerNorm's weight and bias gradients (layer_norm_kernel.cu:
    // GammaBetaBackwardCUDAKernel reads the output's gradient and the input again after the input's gradient).
    // TimeModel prices it at Efficiency::columnReduceBandwidth.
    Linear columnReduceBytes;
    // Copies between memory layouts the operator's ATen calls make beside its own kernels (TensorIterator's
    // elementwise_kernel with offset calculators: a non-contiguous tensor made contiguous), in bytes read and written,
    // and the kernels they add: TimeModel prices them at Efficiency::stridedCopyBandwidth. They are short-lived copies
    // the memory walk does not hold (TransformerBuilder::packedInProjection).
    Linear forwardStridedBytes;
    Linear backwardStridedBytes;
    std::uint8_t forwardExtraKernels = 0;
    std::uint8_t backwardExtraKernels = 0;
    // A fused attention kernel's own speed where it is measured (sdpaspeed.h): the fraction of the dense peak its tiles
    // reach and the FLOPs they execute over those counted, per pass (recomputation as forward); an efficiency of 0
    // leaves the time model's attention figure.
    float forwardEfficiency = 0.0f;
    float backwardEfficiency = 0.0f;
    float forwardWork = 1.0f;
    float backwardWork = 1.0f;
    bool operator==(const GraphOp&) const = default;
};

struct Parameter {
    std::string_view name;
    double numel = 0.0;
    DType dtype = DType::F32;
    std::int16_t layer = -1;
    bool matmulWeight = false; // weight of a Linear / Conv2d (cast by autocast, quantised by 8-bit optimizers)
    bool trainable = true;     // requires_grad: frozen weights have no gradient and no optimizer state
    TensorId tensor = kNoTensor;
    double lastDim = 0.0; // size of the last dimension; 0 for 1-D parameters (Adafactor factors >= 2-D)
    double secondLastDim = 0.0;
    double shards = 1.0;       // ranks that each hold numel of it, tensor- and expert-parallel (1: replicated)
    double expertShards = 1.0; // of those, the expert-parallel ranks: ZeRO shards it over dp / expertShards ranks
    double activeShare = 1.0;  // the share a token computes with: topK / experts for routed experts
    bool operator==(const Parameter&) const = default;
};

struct CheckpointRegion {
    std::int32_t firstOp = 0;
    std::int32_t lastOp = 0; // inclusive
    bool operator==(const CheckpointRegion&) const = default;
};

// A run of identical transformer blocks built once: the operators firstOp..lastOp are one block (real layer
// `layer`) standing for `count` consecutive blocks. The block before it (`layer` - 1) and the one after it
// (`forwardCarry`) are built in full, so that what one block hands to the next (its output, its input's gradient)
// is freed where the real model frees it; lowering.h repeats the block's steps. Parameters of the blocks that are
// not built are in Graph::params all the same (with no tensor), so that counts and model states are exact.
struct LayerRepeat {
    std::int32_t firstOp = -1;
    std::int32_t lastOp = -1; // inclusive
    int count = 1;            // blocks the built one stands for; 1 when nothing repeats
    int layer = -1;           // real index of the first of them
    int forwardCarry = -1;    // real index of the block built after them
    bool operator==(const LayerRepeat&) const = default;
    bool active() const { return count > 1; }
};

// Whether buildGraph builds every block or one block of each run of identical ones (LayerRepeat). The full graph
// is what tests that count operators look at; the simulator uses the repeated one, which answers the same.
enum class GraphLayers : std::uint8_t { All, RepeatIdentical };

struct Graph {
    std::vector<GraphTensor> tensors;
    std::vector<GraphStorage> storages;
    std::vector<GraphOp> ops;
    std::vector<TensorId> refs; // operator inputs, outputs and saved tensors
    std::vector<Parameter> params;
    std::vector<CheckpointRegion> regions;
    LayerRepeat repeat;
    // Storage for labels that are not string literals (CNN layer names); shared with the lowered schedule so
    // that its labels stay valid after the graph is gone.
    std::shared_ptr<std::deque<std::string>> names;
    // What the model returns and the loss reads (the logits): TrainingLoop::KeepOutputs keeps it to the end of
    // backward. kNoTensor on a pipeline stage without the head.
    TensorId modelOutput = kNoTensor;
    // The keys and values transformers' DynamicCache holds (part of the model's output, past_key_values): they live
    // as long as the output does (TrainingLoop).
    std::vector<TensorId> cacheTensors;
    int layers = 0;             // transformer blocks, or CNN layers with weights
    double samplesTokens = 1.0; // tokens (or images) one sample contributes to throughput

    // Empties the graph but keeps its capacity, so that rebuilding on every slider tick allocates nothing.
    void clear();

    // Times an operator runs in the real model: LayerRepeat::count inside the repeated block, else 1.
    int copies(std::int32_t op) const { return op >= repeat.firstOp && op <= repeat.lastOp ? repeat.count : 1; }

    // Parameters of the whole model (a tensor-parallel shard counted once per rank that holds one), and of one GPU.
    double parameterCount() const;
    double trainableParameterCount() const;
    double parameterCountPerGpu() const;
    double largestParameterGroup() const; // elements of the largest layer (DeepSpeed's "largest layer")

    std::span<const TensorId> inputs(const GraphOp& op) const
    {
        return { refs.data() + op.inBegin, size_t(op.inCount) };
    }
    std::span<const TensorId> outputs(const GraphOp& op) const
    {
        return { refs.data() + op.outBegin, size_t(op.outCount) };
    }
    std::span<const TensorId> saved(const GraphOp& op) const
    {
        return { refs.data() + op.savedBegin, size_t(op.savedCount) };
    }
};

// Whether `b` is `a` with every operator's and parameter's block index moved by `shift`: two pipeline stages whose
// blocks are built alike (the stages between the first and the last, of one length). Their lowered steps are then
// one another's with the same shift (shiftLayers in lowering.h), but for the micro-batches each holds in flight.
bool sameUpToLayerShift(const Graph& a, const Graph& b, int shift);

} // namespace headroom
