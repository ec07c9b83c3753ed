#include "optimizer.h"

#include "memoryterm.h"

#include <algorithm>
#include <cmath>

namespace headroom {

namespace {

    // bitsandbytes 8-bit optimizers quantise a state only for tensors of at least min_8bit_size = 4096 elements,
    // block-wise with one FP32 absmax per 256 elements (bitsandbytes/optim/optimizer.py, Optimizer2State).
    constexpr double kBnbMin8bitSize = 4096.0;
    constexpr double kBnbBlock = 256.0;

    double adafactorState(const Parameter& p)
    {
        // transformers.optimization.Adafactor with its defaults (beta1=None, so no first moment): a factored second
        // moment (row and column statistics) for parameters with >= 2 dimensions, a full one otherwise.
        if (p.lastDim > 0.0 && p.secondLastDim > 0.0)
            return p.numel / p.lastDim + p.numel / p.secondLastDim;
        return p.numel;
    }

    // PyTorch's own Adam/AdamW (torch/optim/adam.py, adamw.py) in the implementation the configuration picks.
    void adamStep(OptimizerFootprint& f, const TrainingConfig& config, double params, double largest, double tensors,
                  double s, double pw, double gradBytes)
    {
        const bool adamw = config.optimizer == OptimizerKind::AdamW;
        const double decay = adamw ? 2.0 * pw : 0.0; // AdamW first decays p in place
        // lerp_(m), mul_(v), addcmul_(v), sqrt(v) -> temporary, div_, add_(eps), addcdiv_(p).
        const double unfused = decay + (2 * s + gradBytes) + 2 * s + (2 * s + gradBytes) + 2 * s + 2 * s + 2 * s
            + (2 * pw + 2 * s);
        switch (config.adamImpl) {
        case AdamImpl::Foreach:
            // _multi_tensor_adam: the _foreach_sqrt allocates one state-sized temporary per parameter, all at once
            // (ForeachUnaryOp.cu: an empty_like of each tensor of the list, in its order).
            f.implementation = adamw ? "torch.optim.AdamW (foreach)" : "torch.optim.Adam (foreach)";
            f.tempBytes = s * params;
            f.tempPerTensor = true;
            f.trafficBytes = params * unfused;
            f.kernels = 8;
            // torch/optim/adamw.py _multi_tensor_adamw: the step counters' add, the decay's mul, lerp, mul,
            // addcmul, sqrt, div, add and addcdiv, each one foreach operator over the tensor lists.
            f.hostOps = 9 + (adamw ? 1 : 0);
            break;
        case AdamImpl::ForLoop:
            // _single_tensor_adam: denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps), parameter by
            // parameter: the sqrt and the quotient of the largest parameter are alive together.
            f.implementation = adamw ? "torch.optim.AdamW (for-loop)" : "torch.optim.Adam (for-loop)";
            f.tempBytes = 2.0 * s * largest;
            f.trafficBytes = params * (unfused + 2 * s);
            f.kernels = int(std::min(8.0 * tensors, 1e9));
            f.hostOps = int(std::min((9.0 + (adamw ? 1.0 : 0.0)) * tensors, 1e9)); // the same, tensor by tensor
            break;
        case AdamImpl::Fused:
            // _fused_adam: one multi-tensor kernel reads p, g, m, v and writes p, m, v; nothing is allocated.
            f.implementation = adamw ? "torch.optim.AdamW (fused)" : "torch.optim.Adam (fused)";
            f.tempBytes = 0.0;
            f.trafficBytes = params * (2 * pw + gradBytes + 4 * s);
            f.kernels = 1;
            f.hostOps = 2; // _fused_adamw_ and the foreach add of the step counters (adamw.py _fused_adamw)
            break;
        }
    }

} // namespace

// The states as terms (memoryterm.h), parameter by parameter, by the rules optimizerFootprint's totals follow: each
// state takes the dtype of the tensor it updates (the FP32 master copy, or the parameter itself).
std::vector<MemoryTerm> optimizerStateTerms(const Graph& graph, const TrainingConfig& config)
{
    std::vector<MemoryTerm> terms;
    const bool master = isMixed(config.precision) && config.mixedStyle == MixedPrecisionStyle::MasterWeights;
    for (const auto& p : graph.params) {
        if (!p.trainable)
            continue;
        const DType state = master ? DType::F32 : p.dtype;
        const bool expert = p.expertShards > 1.0;
        if (master)
            addTerm(terms, TermKind::MasterWeights, DType::F32, p.numel, 1.0, expert);
        switch (config.optimizer) {
        case OptimizerKind::AdamW:
        case OptimizerKind::Adam:
            addTerm(terms, TermKind::Moments, state, p.numel, 2.0, expert);
            break;
        case OptimizerKind::SGD:
            break;
        case OptimizerKind::SGDMomentum:
            addTerm(terms, TermKind::Momentum, state, p.numel, 1.0, expert);
            break;
        case OptimizerKind::PagedAdamW:
            addTerm(terms, TermKind::Moments, DType::F32, p.numel, 2.0, expert);
            break;
        case OptimizerKind::AdamW8bit:
        case OptimizerKind::PagedAdamW8bit:
            if (p.numel >= kBnbMin8bitSize) {
                addTerm(terms, TermKind::QuantizedStates, DType::U8, p.numel, 2.0, expert);
                addTerm(terms, TermKind::StateScales, DType::F32, std::ceil(p.numel / kBnbBlock), 2.0, expert);
            } else {
                addTerm(terms, TermKind::SmallTensorStates, DType::F32, p.numel, 2.0, expert);
            }
            break;
        case OptimizerKind::Adafactor:
            addTerm(terms, TermKind::FactoredStates, DType::F32, adafactorState(p), 1.0, expert);
            break;
        }
    }
    return terms;
}

namespace {

    // bitsandbytes AdamW8bit and PagedAdamW8bit: two 8-bit states per element with an FP32 absmax per block, 32-bit
    // states for small tensors.
    void bnb8bitStep(OptimizerFootprint& f, const Graph& graph, const TrainingConfig& config, double params, double pw,
                     double gradBytes, double masterIo, int kernelsPerTensor) // masterIo: 0 without master weights
    {
        const bool paged = config.optimizer == OptimizerKind::PagedAdamW8bit;
        f.implementation = paged ? "bitsandbytes PagedAdamW8bit" : "bitsandbytes AdamW8bit";
        f.paged = paged;
        double state = 0.0;
        for (const auto& p : graph.params) {
            if (!p.trainable)
                continue;
            if (p.numel >= kBnbMin8bitSize)
                state += 2.0 * p.numel + 2.0 * 4.0 * std::ceil(p.numel / kBnbBlock);
            else
                state += 2.0 * 4.0 * p.numel;
        }
        f.stateBytes = state;
        f.flops = 20.0 * params;
        f.trafficBytes = params * (gradBytes + 2.0 * pw + 2.0 * 2.0) + params * masterIo;
        f.kernels = kernelsPerTensor;
        f.hostOps = 3 * kernelsPerTensor; // bitsandbytes steps tensor by tensor from Python (optimizer.py update_step)
    }

    // transformers Adafactor: factored FP32 statistics and the per-parameter loop's FP32 temporaries.
    void adafactorStep(OptimizerFootprint& f, const Graph& graph, double params, double largest, double pw,
                       double gradBytes, int kernelsPerTensor)
    {
        f.implementation = "transformers Adafactor";
        double state = 0.0;
        for (const auto& p : graph.params)
            state += p.trainable ? adafactorState(p) : 0.0;
        f.stateBytes = 4.0 * state; // statistics are kept in FP32
        // The per-parameter loop allocates grad**2 and the reconstructed second moment in FP32, plus FP32 copies of
        // 16-bit gradients and parameters.
        f.tempBytes = largest * (2.0 * 4.0 + (pw < 4.0 ? 8.0 : 0.0));
        f.flops = 20.0 * params;
        f.trafficBytes = params * (gradBytes + 10.0 * 4.0 + 2.0 * pw);
        f.kernels = 12 * kernelsPerTensor;
        f.hostOps = 12 * kernelsPerTensor;
    }

} // namespace

OptimizerFootprint optimizerFootprint(const Graph& graph, const TrainingConfig& config, DType paramType,
                                      double gradBytes)
{
    OptimizerFootprint f;
    const bool master = isMixed(config.precision) && config.mixedStyle == MixedPrecisionStyle::MasterWeights;
    // Optimizer states take the dtype of the tensor they update: the FP32 master copy, the FP32 parameters under
    // autocast, or BF16 parameters under pure BF16 (torch.zeros_like(p)).
    // Only what trains is stepped; frozen weights have no state (PEFT, layer freezing). Parameters of mixed dtypes
    // (FP32 adapters on a BF16 model) are counted by their mean element size, which keeps every total exact.
    double params = 0.0;
    double largest = 0.0;
    double paramBytes = 0.0;
    double tensorCount = 0.0;
    for (const auto& p : graph.params) {
        if (!p.trainable)
            continue;
        params += p.numel;
        paramBytes += p.numel * bytesPerElement(p.dtype);
        largest = std::max(largest, p.numel * bytesPerElement(p.dtype));
        tensorCount += 1.0;
    }
    const double pw = params > 0.0 ? paramBytes / params : bytesPerElement(paramType);
    const double s = master ? 4.0 : pw;
    largest /= pw;
    const int kernelsPerTensor = static_cast<int>(std::min(tensorCount, 1e9));
    f.tensors = tensorCount;
    if (master)
        f.masterBytes = 4.0 * params; // ZeRO paper sec. 3.1: FP32 parameters are part of the optimizer states (K = 12)

    // The master copy is updated by a fused kernel that also writes the 16-bit weights (DeepSpeed FusedAdam,
    // Megatron / TE FusedAdam). Plain PyTorch uses the foreach implementation by default on CUDA.
    const double masterIo = master ? 4.0 + 4.0 + pw : 0.0; // read + write master, write 16-bit weights
    switch (config.optimizer) {
    case OptimizerKind::AdamW:
    case OptimizerKind::Adam: {
        f.stateBytes = 2.0 * s * params;
        f.flops = 14.0 * params; // roofline notes sec. 4.4: 12-15 FLOP per parameter
        if (master) {
            f.implementation = "fused Adam (DeepSpeed / Megatron)";
            f.trafficBytes = params * (gradBytes + masterIo + 4.0 * s);
            f.kernels = 1;
        } else {
            adamStep(f, config, params, largest, tensorCount, s, pw, gradBytes);
        }
        break;
    }
    case OptimizerKind::SGD:
        f.implementation = master ? "fused SGD" : "torch.optim.SGD (foreach)";
        f.flops = 2.0 * params;
        f.trafficBytes = params * (master ? gradBytes + masterIo : 2.0 * pw + gradBytes);
        f.kernels = 1;
        break;
    case OptimizerKind::SGDMomentum:
        f.implementation = master ? "fused SGD with momentum" : "torch.optim.SGD momentum (foreach)";
        f.stateBytes = s * params;
        f.flops = 4.0 * params;
        f.trafficBytes = params
            * (master ? gradBytes + masterIo + 2.0 * s : 2 * s + (2 * s + gradBytes) + (2 * pw + s));
        f.kernels = 3;
        f.hostOps = 3;
        break;
    case OptimizerKind::PagedAdamW:
        // bitsandbytes PagedAdamW (optim_bits=32): two FP32 states per element, one fused kernel per tensor, in
        // unified memory (optim/optimizer.py: is_paged -> get_paged buffers).
        f.implementation = "bitsandbytes PagedAdamW";
        f.paged = true;
        f.stateBytes = 2.0 * 4.0 * params;
        f.flops = 14.0 * params;
        f.trafficBytes = params * (gradBytes + 2.0 * pw + 4.0 * 4.0) + (master ? params * masterIo : 0.0);
        f.kernels = kernelsPerTensor;
        f.hostOps = 3 * kernelsPerTensor;
        break;
    case OptimizerKind::AdamW8bit:
    case OptimizerKind::PagedAdamW8bit:
        bnb8bitStep(f, graph, config, params, pw, gradBytes, masterIo, kernelsPerTensor);
        break;
    case OptimizerKind::Adafactor:
        adafactorStep(f, graph, params, largest, pw, gradBytes, kernelsPerTensor);
        break;
    }
    // GradScaler.unscale_ (FP16 autocast) reads and writes every gradient once more.
    if (config.precision == Precision::MixedFP16 && !master)
        f.trafficBytes += params * 2.0 * gradBytes;
    return f;
}

} // namespace headroom
