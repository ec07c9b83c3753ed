#include "graphbuilder.h"

#include <algorithm>
#include <cassert>

namespace headroom {

PrecisionPlan planPrecision(const TrainingConfig& config)
{
    PrecisionPlan p;
    p.cpuKernels = config.kernels == KernelBackend::Cpu;
    p.channelsLast = config.channelsLast;
    const bool master = config.mixedStyle == MixedPrecisionStyle::MasterWeights;
    switch (config.precision) {
    case Precision::FP32:
        // PyTorch >= 1.12: torch.backends.cuda.matmul.allow_tf32 = False, but cudnn.allow_tf32 = True, so
        // convolutions still run on TF32 tensor cores (PyTorch PR #79537; CUDA semantics notes).
        p.paramType = DType::F32;
        p.matmulUnit = MathUnit::Fp32Vector;
        p.attentionUnit = MathUnit::Fp32Vector;
        p.convUnit = MathUnit::Tf32Tensor;
        break;
    case Precision::TF32:
        p.paramType = DType::F32;
        p.matmulUnit = p.attentionUnit = p.convUnit = MathUnit::Tf32Tensor;
        break;
    case Precision::MixedFP16:
        p.lowType = DType::F16;
        p.paramType = master ? DType::F16 : DType::F32;
        p.autocast = !master;
        p.matmulUnit = p.attentionUnit = p.convUnit = MathUnit::Fp16Tensor;
        break;
    case Precision::MixedBF16:
    case Precision::MixedFP8:
        p.lowType = DType::BF16;
        p.paramType = master ? DType::BF16 : DType::F32;
        p.autocast = !master;
        p.matmulUnit = p.attentionUnit = p.convUnit = MathUnit::Bf16Tensor;
        p.fp8Gemms = config.precision == Precision::MixedFP8;
        break;
    case Precision::PureBF16:
        p.lowType = DType::BF16;
        p.paramType = DType::BF16;
        p.matmulUnit = p.attentionUnit = p.convUnit = MathUnit::Bf16Tensor;
        break;
    }
    return p;
}

OpCost gemmCost(double m, double n, double k, double bytesA, double bytesB, double bytesC)
{
    return { fixedAmount(2.0 * m * n * k), fixedAmount(bytesA * m * k + bytesB * k * n + bytesC * m * n) };
}

GraphBuilder::GraphBuilder(Graph& graph, const PrecisionPlan& plan)
    : m_g(graph)
    , m_plan(plan)
    , m_kind { true, plan.paramType }
{
    m_weightCache.reserve(graph.params.capacity());
    m_fp8Cache.reserve(plan.fp8Gemms ? graph.params.capacity() : 0);
}

std::string_view GraphBuilder::intern(std::string s)
{
    if (!m_g.names)
        m_g.names = std::make_shared<std::deque<std::string>>();
    m_g.names->push_back(std::move(s));
    return m_g.names->back();
}

void GraphBuilder::beginRegion()
{
    m_region = static_cast<std::int16_t>(m_g.regions.size());
    m_g.regions.push_back({ static_cast<std::int32_t>(m_g.ops.size()), static_cast<std::int32_t>(m_g.ops.size()) });
}

void GraphBuilder::endRegion()
{
    if (m_region < 0)
        return;
    auto& r = m_g.regions[m_region];
    r.lastOp = static_cast<std::int32_t>(m_g.ops.size()) - 1;
    if (r.lastOp < r.firstOp)
        m_g.regions.pop_back();
    m_region = -1;
}

TensorId GraphBuilder::newTensor(Linear numel, DType type, TensorRole role, bool requiresGrad)
{
    GraphTensor t;
    t.numel = numel;
    t.dtype = type;
    t.role = role;
    t.requiresGrad = requiresGrad;
    t.storage = static_cast<std::int32_t>(m_g.storages.size());
    m_g.storages.push_back({ numel * bytesPerElement(type), false });
    m_g.tensors.push_back(t);
    return static_cast<TensorId>(m_g.tensors.size() - 1);
}

TensorId GraphBuilder::newActivation(double numelPerSample, DType type, bool requiresGrad)
{
    const TensorId t = newTensor(perSample(numelPerSample), type, TensorRole::Activation, requiresGrad);
    m_g.tensors[t].producer = static_cast<std::int32_t>(m_g.ops.size()) - 1;
    return t;
}

TensorId GraphBuilder::newResult(bool fixed, double numel, DType type, bool requiresGrad)
{
    if (!fixed)
        return newActivation(numel, type, requiresGrad);
    const TensorId t = newTensor(fixedAmount(numel), type, TensorRole::Activation, requiresGrad);
    m_g.tensors[t].producer = static_cast<std::int32_t>(m_g.ops.size()) - 1;
    return t;
}

double GraphBuilder::bytes(TensorId t) const
{
    if (t == kNoTensor)
        return 0.0;
    const auto& g = m_g.tensors[t];
    return (g.numel.fixed + g.numel.perSample) * bytesPerElement(g.dtype);
}

TensorId GraphBuilder::input(std::string_view label, DType type, double numelPerSample)
{
    (void)label;
    return newTensor(perSample(numelPerSample), type, TensorRole::Input, false);
}

TensorId GraphBuilder::parameter(std::string_view name, double numel, bool matmulWeight, double lastDim,
                                 double secondLastDim)
{
    const TensorId t = newTensor(fixedAmount(numel), m_kind.dtype, TensorRole::Parameter, m_kind.trainable);
    m_g.tensors[t].param = static_cast<std::int32_t>(m_g.params.size());
    m_g.params.push_back(
        { name, numel, m_kind.dtype, m_layer, matmulWeight, m_kind.trainable, t, lastDim, secondLastDim });
    return t;
}

TensorId GraphBuilder::normParameter(std::string_view name, double numel) { return parameter(name, numel, false); }

int GraphBuilder::beginOp(OpType type, OpKind kind, MathUnit unit, std::string_view label)
{
    GraphOp& op = m_g.ops.emplace_back(); // in place: an operator is about 300 bytes
    op.type = type;
    op.kind = kind;
    op.unit = unit;
    op.layer = m_layer;
    op.region = m_region;
    op.label = label;
    op.inBegin = static_cast<std::int32_t>(m_g.refs.size());
    return static_cast<int>(m_g.ops.size()) - 1;
}

void GraphBuilder::addInputs(std::initializer_list<TensorId> ts)
{
    auto& op = m_g.ops.back();
    for (TensorId t : ts) {
        if (t == kNoTensor)
            continue;
        m_g.refs.push_back(t);
        ++op.inCount;
    }
    op.outBegin = op.inBegin + op.inCount;
}

void GraphBuilder::addOutputs(std::initializer_list<TensorId> ts)
{
    auto& op = m_g.ops.back();
    for (TensorId t : ts) {
        m_g.refs.push_back(t);
        ++op.outCount;
    }
    op.savedBegin = op.outBegin + op.outCount;
}

void GraphBuilder::addSaved(std::initializer_list<TensorId> ts)
{
    auto& op = m_g.ops.back();
    for (TensorId t : ts) {
        if (t == kNoTensor)
            continue;
        m_g.refs.push_back(t);
        ++op.savedCount;
    }
}

void GraphBuilder::finishOp(int op, OpCost fwd, OpCost bwd, Linear modelFlops)
{
    auto& o = m_g.ops[op];
    o.forward = fwd;
    o.backward = bwd;
    o.modelFlops = modelFlops;
    // Autograd records a node only when an input requires grad (compute_requires_grad in the generated
    // VariableType): otherwise the operator saves nothing and its outputs do not require grad. This is what a
    // frozen embedding or a frozen block in front of the first trainable weight comes to.
    bool any = false;
    for (TensorId t : m_g.inputs(o))
        any = any || grad(t);
    if (any)
        return;
    for (TensorId t : m_g.outputs(o))
        m_g.tensors[t].requiresGrad = false;
    if (o.savedCount > 0 && std::size_t(o.savedBegin) + std::size_t(o.savedCount) == m_g.refs.size())
        m_g.refs.resize(std::size_t(o.savedBegin));
    o.savedCount = 0;
    o.backward = {};
    o.backwardScratch = {};
}

DType GraphBuilder::promote(DType a, DType b) const
{
    auto rank = [](DType t) {
        switch (t) {
        case DType::F32:
            return 4;
        case DType::BF16:
        case DType::F16:
            return 3;
        case DType::F8:
            return 2;
        default:
            return 1;
        }
    };
    return rank(a) >= rank(b) ? a : b;
}

// ---- casts --------------------------------------------------------------------------------------------------

TensorId GraphBuilder::cast(TensorId x, DType to, std::string_view label)
{
    const GraphTensor src = m_g.tensors[x];
    if (src.dtype == to)
        return x;
    const double n = src.numel.perSample;
    const int op = beginOp(OpType::Cast, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ x });
    const TensorId y = newActivation(n, to, src.requiresGrad);
    addOutputs({ y });
    const double io = bytesPerElement(src.dtype) + bytesPerElement(to);
    finishOp(op, { {}, perSample(n * io) }, { {}, perSample(n * io) });
    return y;
}

TensorId GraphBuilder::autocastLow(TensorId x)
{
    if (!m_plan.autocast || x == kNoTensor)
        return x;
    const DType t = m_g.tensors[x].dtype;
    if (t != DType::F32)
        return x;
    return cast(x, m_plan.lowType, "autocast");
}

TensorId GraphBuilder::autocastFp32(TensorId x)
{
    if (!m_plan.autocast || x == kNoTensor)
        return x;
    if (m_g.tensors[x].dtype == DType::F32)
        return x;
    return cast(x, DType::F32, "autocast fp32");
}

TensorId GraphBuilder::weightFor(TensorId w, bool fp8)
{
    if (w == kNoTensor)
        return w;
    const GraphTensor src = m_g.tensors[w];
    const double n = src.numel.fixed;
    if (fp8) {
        // Transformer Engine keeps an FP8 copy of each GEMM weight and its transpose in module workspaces that
        // persist across steps; they are refreshed (cast) on every forward.
        if (std::size_t(src.param) < m_fp8Cache.size() && m_fp8Cache[src.param] != kNoTensor)
            return m_fp8Cache[src.param];
        const int op = beginOp(OpType::Cast, OpKind::Elementwise, MathUnit::Fp32Vector, "fp8 weight cast");
        addInputs({});
        const TensorId c = newTensor(fixedAmount(2.0 * n), DType::F8, TensorRole::WeightCopy, false);
        m_g.tensors[c].param = src.param;
        m_g.tensors[c].producer = op;
        addOutputs({ c });
        finishOp(op, { {}, fixedAmount(n * (bytesPerElement(src.dtype) + 2.0)) }, {});
        if (m_fp8Cache.size() <= std::size_t(src.param))
            m_fp8Cache.resize(std::size_t(src.param) + 1, kNoTensor);
        m_fp8Cache[src.param] = c;
        return c;
    }
    if (!m_plan.autocast || src.dtype != DType::F32)
        return w;
    if (!src.requiresGrad) {
        // autocast caches the cast only of a leaf that requires grad (autocast_mode.cpp cached_cast: can_try_cache
        // needs arg.requires_grad() && arg.is_leaf()): a frozen FP32 weight is cast again on every call, and the
        // Linear saves that copy when its input needs a gradient.
        const int op = beginOp(OpType::Cast, OpKind::Elementwise, MathUnit::Fp32Vector, "autocast weight cast");
        addInputs({ w });
        const TensorId c = newTensor(fixedAmount(n), m_plan.lowType, TensorRole::Activation, false);
        m_g.tensors[c].producer = op;
        addOutputs({ c });
        finishOp(op, { {}, fixedAmount(n * (bytesPerElement(src.dtype) + bytesPerElement(m_plan.lowType))) }, {});
        return c;
    }
    if (std::size_t(src.param) < m_weightCache.size() && m_weightCache[src.param] != kNoTensor)
        return m_weightCache[src.param];
    const int op = beginOp(OpType::Cast, OpKind::Elementwise, MathUnit::Fp32Vector, "autocast weight cast");
    addInputs({ w });
    const TensorId c = newTensor(fixedAmount(n), m_plan.lowType, TensorRole::WeightCopy, true);
    m_g.tensors[c].param = src.param;
    m_g.tensors[c].producer = op;
    m_g.storages[m_g.tensors[c].storage].autocastCached = true;
    addOutputs({ c });
    const double io = n * (bytesPerElement(src.dtype) + bytesPerElement(m_plan.lowType));
    finishOp(op, { {}, fixedAmount(io) }, { {}, fixedAmount(io) });
    if (m_weightCache.size() <= std::size_t(src.param))
        m_weightCache.resize(std::size_t(src.param) + 1, kNoTensor);
    m_weightCache[src.param] = c;
    return c;
}

} // namespace headroom
