#pragma once

// Emulates PyTorch eager (and torch.autocast) one operator at a time while a model builder describes its forward
// pass. Each call records an operator with its FLOPs and bytes, creates the output tensor in the dtype PyTorch
// would produce, inserts the casts autocast would insert, and records what autograd saves for backward.
//
// Autocast policy follows aten/src/ATen/autocast_mode.cpp (CUDA): linear, matmul, conv and SDPA run in the
// low-precision type (casting activations per call, caching casts of leaf weights for the whole forward);
// layer_norm, pow, rsqrt and the losses run in FP32 (casting their inputs); softmax and log_softmax write FP32
// from 16-bit inputs without a separate cast; everything else keeps or promotes its input types.

#include "graph.h"
#include "trainingconfig.h"

#include <span>
#include <string_view>
#include <vector>

namespace headroom {

struct PrecisionPlan {
    DType paramType = DType::F32; // parameters as stored in the model
    DType lowType = DType::BF16;  // autocast target / 16-bit type
    bool autocast = false;        // torch.autocast region around the forward pass and loss
    bool fp8Gemms = false;        // Transformer Engine style Linear layers
    MathUnit matmulUnit = MathUnit::Fp32Vector;
    MathUnit convUnit = MathUnit::Tf32Tensor;
    MathUnit attentionUnit = MathUnit::Fp32Vector;
    MathUnit fp8Unit = MathUnit::Fp8Tensor;
    bool cpuKernels = false;   // see KernelBackend
    bool channelsLast = false; // torch.channels_last: convolutions need no NCHW <-> NHWC transposes
};

PrecisionPlan planPrecision(const TrainingConfig& config);

enum class UnaryFn : std::uint8_t {
    Gelu,            // F.gelu: saves input
    GeluTanh,        // F.gelu(approximate="tanh"): saves input
    Silu,            // F.silu: saves input
    Relu,            // saves output
    Relu6,           // hardtanh: saves output
    Sigmoid,         // saves output
    Tanh,            // saves output
    PowCube,         // torch.pow(x, 3.0): FP32 under autocast, saves input
    Square,          // x.pow(2): FP32 under autocast, saves input
    Rsqrt,           // FP32 under autocast, saves output
    Neg,             // nothing saved
    ScaleByConstant, // x * python_float: nothing saved
    AddConstant,     // x + python_float: nothing saved
    Copy,            // a new contiguous tensor with x's values (torch.cat onto an empty tensor): nothing saved
};

// How the next parameters are created: whether they require grad, and the dtype they are stored in.
struct ParameterKind {
    bool trainable = true;
    DType dtype = DType::F32;
};

class GraphBuilder {
public:
    GraphBuilder(Graph& graph, const PrecisionPlan& plan);

    void setLayer(int layer) { m_layer = static_cast<std::int16_t>(layer); }
    int layer() const { return m_layer; }
    void beginRegion();
    void endRegion();
    const PrecisionPlan& plan() const { return m_plan; }
    // Parameters created from now on; the default is trainable, in the plan's parameter type.
    void setParameterKind(ParameterKind kind) { m_kind = kind; }
    ParameterKind parameterKind() const { return m_kind; }
    // x.requires_grad_(True) on an activation: transformers' enable_input_require_grads() on the embeddings' output,
    // which reentrant checkpointing of a frozen model needs.
    void requireGrad(TensorId x) { m_g.tensors[x].requiresGrad = true; }

    TensorId input(std::string_view label, DType type, double numelPerSample);
    // A parameter of shape [..., secondLastDim, lastDim]; pass 0 for both when it is 1-D.
    TensorId parameter(std::string_view name, double numel, bool matmulWeight, double lastDim = 0.0,
                       double secondLastDim = 0.0);
    TensorId normParameter(std::string_view name, double numel); // never cast, never 8-bit

    // rows = tokens (or pixels) per sample.
    // perSampleRows = false for lookups shared by the batch (position ids of shape [1, s]).
    TensorId embedding(TensorId weight, TensorId ids, double rows, double dim, std::string_view label,
                       bool perSampleRows = true);
    // perSampleRows = false for rows that do not grow with the batch (DoRA's identity matrix through the adapter).
    TensorId linear(TensorId x, TensorId weight, TensorId bias, double rows, double in, double out,
                    std::string_view label, bool perSampleRows = true);
    // bitsandbytes Linear4bit: x.to(compute), a GEMM against the weight dequantized to the compute type,
    // .to(x.dtype). MatMul4Bit saves no activation; its backward dequantizes the weight again.
    TensorId groupedLinear(TensorId x, TensorId weight, double rows, double in, double out, double groups,
                           std::string_view label);
    TensorId linear4bit(TensorId x, TensorId weight, TensorId bias, double rows, double in, double out, DType compute,
                        std::string_view label, double groups = 1.0);
    TensorId conv2d(TensorId x, TensorId weight, TensorId bias, double inChannels, double outChannels,
                    double kernelArea, double groups, double outPixels, std::string_view label, bool winograd = false);
    // Batched matmul [G, M, K] x [G, K, N]; groups per sample.
    TensorId matmul(TensorId a, TensorId b, double groups, double m, double n, double k, std::string_view label);
    // lseRows: rows of the FP32 log-sum-exp per head (sdpaLogSumExpRows); negative: seq.
    TensorId fusedAttention(TensorId q, TensorId k, TensorId v, double seq, double keys, double heads, double headDim,
                            bool causal, double dropout, std::string_view label, double lseRows = -1.0);
    // SDPA's math kernel (attention.cpp _scaled_dot_product_attention_math): q and k scaled, K and V repeated to
    // every query head under enable_gqa, matmul, softmax (saved), dropout, matmul; upcast: in FP32 for 16-bit inputs.
    TensorId mathAttention(TensorId q, TensorId k, TensorId v, double seq, double keys, double heads, double kvHeads,
                           double headDim, double dropout, bool upcast);
    // forceFp32: softmax(x, dim, dtype=torch.float32), as the Llama family writes it.
    TensorId softmax(TensorId x, double rows, double cols, std::string_view label, bool forceFp32 = false);
    // F.cross_entropy over `rows` rows of `classes` scores: nll_loss(log_softmax(x, 1, dtype=x.dtype)), labelled
    // "loss.log_softmax" and "loss.nll"; the loss.
    TensorId crossEntropy(TensorId logits, TensorId target, double rows, double classes);
    TensorId layerNorm(TensorId x, TensorId gamma, TensorId beta, double rows, double dim, std::string_view label);
    TensorId rmsNorm(TensorId x, TensorId gamma, double rows, double dim, std::string_view label);
    TensorId batchNorm(TensorId x, TensorId gamma, TensorId beta, double channels, std::string_view label);
    TensorId unary(TensorId x, UnaryFn fn, std::string_view label, bool inplace = false);
    TensorId add(TensorId a, TensorId b, std::string_view label, bool inplace = false);
    TensorId concat(TensorId a, TensorId b, std::string_view label); // torch.cat; nothing saved
    // expand + reshape that materialises `factor` copies (transformers repeat_kv); backward sums them.
    TensorId repeat(TensorId x, double factor, std::string_view label);
    // A tensor computed without autograd history (RoPE cos/sin, masks): one elementwise op, no gradient.
    // perSample = false for tensors shared by the whole batch (position ids and RoPE tables of shape [1, s, ...]).
    TensorId constant(double numel, DType type, double flopsPerElement, std::string_view label, bool perSample = true);
    TensorId mul(TensorId a, TensorId b, std::string_view label);
    TensorId dropout(TensorId x, double p, std::string_view label, bool inplace = false);
    TensorId cast(TensorId x, DType to, std::string_view label);
    TensorId reduceMean(TensorId x, double keepFraction, std::string_view label,
                        bool savesInput = false); // output numel = x * keepFraction
    TensorId pool(TensorId x, double outNumelPerSample, double window, bool savesIndices, std::string_view label);
    // `slices`: the pieces are indexed out (x[..., :d]), not torch.split: their gradients go back through
    // slice_backward, not one cat.
    std::vector<TensorId> split(TensorId x, std::span<const double> fractions, std::string_view label,
                                bool slices = false);
    // A new logical tensor over the same storage (view, reshape, permute). No operator is recorded.
    TensorId view(TensorId x, double numelPerSample = -1.0);
    // A pipeline stage's output, sent to the next stage: nothing saved (Megatron frees the sent tensor's data), and
    // a root of backward, where the gradient of x arrives from the next stage.
    void send(TensorId x, std::string_view label);
    // The previous stage's output, arriving: an activation that requires grad (Megatron's received tensors do), so
    // that backward computes the gradient sent back.
    TensorId receive(double numelPerSample, DType type, std::string_view label);
    // x.detach(): the same storage without autograd history.
    TensorId detach(TensorId x);

    const GraphTensor& tensor(TensorId t) const { return m_g.tensors[t]; }
    double numel(TensorId t) const { return m_g.tensors[t].numel.perSample + m_g.tensors[t].numel.fixed; }
    std::string_view intern(std::string s);

private:
    TensorId linearOp(TensorId x, TensorId weight, TensorId bias, double rows, double in, double out, double groups,
                      std::string_view label, bool perSampleRows);
    TensorId newTensor(Linear numel, DType type, TensorRole role, bool requiresGrad);
    TensorId newActivation(double numelPerSample, DType type, bool requiresGrad);
    // Elementwise results of tensors that do not grow with the batch (a weight, DoRA's norms) stay fixed.
    bool isFixed(TensorId t) const { return t == kNoTensor || m_g.tensors[t].numel.perSample == 0.0; }
    static Linear sized(bool fixed, double v) { return fixed ? fixedAmount(v) : perSample(v); }
    TensorId newResult(bool fixed, double numel, DType type, bool requiresGrad);
    int beginOp(OpType type, OpKind kind, MathUnit unit, std::string_view label);
    void addInputs(std::initializer_list<TensorId> ts);
    void addOutputs(std::initializer_list<TensorId> ts);
    void addSaved(std::initializer_list<TensorId> ts);
    void finishOp(int op, OpCost fwd, OpCost bwd, Linear modelFlops = {});

    TensorId autocastLow(TensorId x);         // cast an activation to the low type (per call)
    TensorId autocastFp32(TensorId x);        // cast an activation to FP32 (per call)
    TensorId weightFor(TensorId w, bool fp8); // cached cast of a parameter, or the parameter itself
    DType promote(DType a, DType b) const;
    bool grad(TensorId t) const { return t != kNoTensor && m_g.tensors[t].requiresGrad; }
    double bytes(TensorId t) const;
    // softmax and log_softmax: the same kernel shape, saving their output (FP32 under autocast or when forced).
    TensorId softmaxFamily(OpType type, OpKind kind, TensorId x, double rows, double cols, std::string_view label,
                           bool forceFp32, bool keepDtype = false);
    TensorId nllLoss(TensorId logProbs, TensorId target, double rows, std::string_view label);

    Graph& m_g;
    PrecisionPlan m_plan;
    std::int16_t m_layer = -1;
    std::int16_t m_region = -1;
    ParameterKind m_kind;
    std::vector<TensorId> m_weightCache; // per parameter: its autocast copy
    std::vector<TensorId> m_fp8Cache;    // per parameter: its FP8 copy
};

// FLOPs and bytes of C[M x N] = A[M x K] B[K x N] (NVIDIA, "Matrix Multiplication Background User's Guide").
OpCost gemmCost(double m, double n, double k, double bytesA, double bytesB, double bytesC);
inline double arithmeticIntensity(const OpCost& c, double batch = 1.0)
{
    const double b = c.bytes.at(batch);
    return b > 0 ? c.flops.at(batch) / b : 0.0;
}

} // namespace headroom
