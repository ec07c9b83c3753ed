#include "graphbuilder.h"

#include <algorithm>
#include <cassert>

namespace headroom {

PrecisionPlan planPrecision(const TrainingConfig& config)
{
    PrecisionPlan p;
    p.cpuKernels = config.kernels == KernelBackend::Cpu;
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
{
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
    const TensorId t = newTensor(fixedAmount(numel), m_plan.paramType, TensorRole::Parameter, true);
    m_g.tensors[t].param = static_cast<std::int32_t>(m_g.params.size());
    m_g.params.push_back({ name, numel, m_plan.paramType, m_layer, matmulWeight, t, lastDim, secondLastDim });
    return t;
}

TensorId GraphBuilder::normParameter(std::string_view name, double numel) { return parameter(name, numel, false); }

int GraphBuilder::beginOp(OpType type, OpKind kind, MathUnit unit, std::string_view label)
{
    GraphOp op;
    op.type = type;
    op.kind = kind;
    op.unit = unit;
    op.layer = m_layer;
    op.region = m_region;
    op.label = label;
    op.inBegin = static_cast<std::int32_t>(m_g.refs.size());
    m_g.ops.push_back(op);
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

// ---- matmul-like operators ----------------------------------------------------------------------------------

TensorId GraphBuilder::embedding(TensorId weight, TensorId ids, double rows, double dim, std::string_view label,
                                 bool perSampleRows)
{
    const GraphTensor w = m_g.tensors[weight];
    const double pw = bytesPerElement(w.dtype);
    const double vocab = w.numel.fixed / dim;
    const int op = beginOp(OpType::Embedding, OpKind::Embedding, MathUnit::Fp32Vector, label);
    addInputs({ weight, ids });
    const Linear rowsL = perSampleRows ? perSample(rows) : fixedAmount(rows);
    const TensorId y = newTensor(rowsL * dim, w.dtype, TensorRole::Activation, true);
    m_g.tensors[y].producer = op;
    addOutputs({ y });
    addSaved({ ids });
    // Backward (embedding_dense_backward): zero a dense V x dim gradient, then scatter-add one row per token.
    finishOp(op, { {}, rowsL * (dim * 2.0 * pw + 8.0) },
             { rowsL * dim, fixedAmount(vocab * dim * pw) + rowsL * (dim * 3.0 * pw + 8.0) });
    return y;
}

TensorId GraphBuilder::linear(TensorId x, TensorId weight, TensorId bias, double rows, double in, double out,
                              std::string_view label)
{
    const bool fp8 = m_plan.fp8Gemms;
    TensorId xs = x; // what autograd saves for the weight gradient
    TensorId ws = weight;
    TensorId xin = x;
    TensorId win = weight;
    TensorId bin = bias;
    DType outType = m_g.tensors[x].dtype;
    if (fp8) {
        // TE casts the input to FP8 inside its autograd function and saves the FP8 copy; gradients flow to the
        // BF16/FP32 input and weight directly.
        const int c = beginOp(OpType::Cast, OpKind::Elementwise, MathUnit::Fp32Vector, "fp8 input cast");
        addInputs({ x });
        xs = newActivation(rows * in, DType::F8, false);
        addOutputs({ xs });
        finishOp(c, { {}, perSample(rows * in * (bytesPerElement(m_g.tensors[x].dtype) + 1.0)) }, {});
        ws = weightFor(weight, true);
        outType = m_plan.lowType;
    } else if (m_plan.autocast) {
        xin = xs = autocastLow(x);
        win = ws = weightFor(weight, false);
        bin = weightFor(bias, false);
        outType = m_plan.lowType;
    }
    const double px = bytesPerElement(m_g.tensors[xs].dtype);
    const double pw = bytesPerElement(m_g.tensors[ws].dtype);
    const double py = bytesPerElement(outType);
    const MathUnit unit = fp8 ? m_plan.fp8Unit : m_plan.matmulUnit;
    const int op = beginOp(OpType::Linear, OpKind::Gemm, unit, label);
    addInputs({ xin, win, bin });
    const bool needsGrad = grad(xin) || grad(win) || grad(bin);
    const TensorId y = newActivation(rows * out, outType, needsGrad);
    addOutputs({ y });
    if (grad(win))
        addSaved({ xs });
    if (grad(xin))
        addSaved({ ws });
    const double mac = rows * in * out;
    OpCost fwd { perSample(2.0 * mac + (bias != kNoTensor ? rows * out : 0.0)),
                 Linear { in * out * pw, rows * (in * px + out * py) } };
    OpCost bwd;
    if (grad(xin)) { // dgrad: dX = dY W^T
        bwd.flops += perSample(2.0 * mac);
        bwd.bytes += Linear { in * out * pw, rows * (out * py + in * px) };
    }
    if (grad(win)) { // wgrad: dW = X^T dY
        bwd.flops += perSample(2.0 * mac);
        bwd.bytes += Linear { in * out * pw, rows * (in * px + out * py) };
    }
    if (grad(bin)) {
        bwd.flops += perSample(rows * out);
        bwd.bytes += perSample(rows * out * py);
    }
    finishOp(op, fwd, bwd, perSample(2.0 * mac));
    return y;
}

TensorId GraphBuilder::conv2d(TensorId x, TensorId weight, TensorId bias, double inChannels, double outChannels,
                              double kernelArea, double groups, double outPixels, std::string_view label)
{
    TensorId xin = autocastLow(x);
    TensorId win = weightFor(weight, false);
    TensorId bin = weightFor(bias, false);
    const DType outType = m_g.tensors[xin].dtype;
    const double inNumel = m_g.tensors[xin].numel.perSample;
    const double px = bytesPerElement(m_g.tensors[xin].dtype);
    const double pw = bytesPerElement(m_g.tensors[win].dtype);
    const int op = beginOp(OpType::Conv2d, OpKind::Gemm, m_plan.autocast || m_plan.paramType != DType::F32
                                                             ? m_plan.matmulUnit
                                                             : m_plan.convUnit,
                           label);
    addInputs({ xin, win, bin });
    const TensorId y = newActivation(outPixels * outChannels, outType, true);
    addOutputs({ y });
    if (grad(win))
        addSaved({ xin });
    if (grad(xin))
        addSaved({ win });
    const double weightNumel = outChannels * (inChannels / groups) * kernelArea;
    const double mac = outPixels * weightNumel;
    const double outNumel = outPixels * outChannels;
    OpCost fwd { perSample(2.0 * mac), Linear { weightNumel * pw, inNumel * px + outNumel * px } };
    OpCost bwd;
    if (grad(xin)) {
        bwd.flops += perSample(2.0 * mac);
        bwd.bytes += Linear { weightNumel * pw, inNumel * px + outNumel * px };
    }
    if (grad(win)) {
        bwd.flops += perSample(2.0 * mac);
        bwd.bytes += Linear { weightNumel * pw, inNumel * px + outNumel * px };
    }
    if (grad(bin))
        bwd.bytes += perSample(outNumel * px);
    finishOp(op, fwd, bwd, perSample(2.0 * mac));
    return y;
}

TensorId GraphBuilder::matmul(TensorId a, TensorId b, double groups, double m, double n, double k,
                              std::string_view label)
{
    const TensorId ai = autocastLow(a);
    const TensorId bi = autocastLow(b);
    const DType outType = promote(m_g.tensors[ai].dtype, m_g.tensors[bi].dtype);
    const double pa = bytesPerElement(m_g.tensors[ai].dtype);
    const double pb = bytesPerElement(m_g.tensors[bi].dtype);
    const double pc = bytesPerElement(outType);
    const int op = beginOp(OpType::Matmul, OpKind::Attention, m_plan.attentionUnit, label);
    addInputs({ ai, bi });
    const TensorId y = newActivation(groups * m * n, outType, grad(ai) || grad(bi));
    addOutputs({ y });
    if (grad(ai))
        addSaved({ bi });
    if (grad(bi))
        addSaved({ ai });
    const double flops = 2.0 * groups * m * n * k;
    const double io = groups * (m * k * pa + k * n * pb + m * n * pc);
    finishOp(op, { perSample(flops), perSample(io) }, { perSample(2.0 * flops), perSample(2.0 * io) },
             perSample(flops));
    return y;
}

TensorId GraphBuilder::fusedAttention(TensorId q, TensorId k, TensorId v, double seq, double heads,
                                      double headDim, bool causal, double dropout, std::string_view label)
{
    const TensorId qi = autocastLow(q);
    const TensorId ki = autocastLow(k);
    const TensorId vi = autocastLow(v);
    const DType t = m_g.tensors[qi].dtype;
    const double p = bytesPerElement(t);
    const int op = beginOp(OpType::FusedAttention, OpKind::Attention, m_plan.attentionUnit, label);
    addInputs({ qi, ki, vi });
    const TensorId o = newActivation(seq * heads * headDim, t, true);
    const TensorId lse = newActivation(seq * heads, DType::F32, false); // log-sum-exp per row
    addOutputs({ o, lse });
    addSaved({ qi, ki, vi, o, lse });
    (void)dropout; // the dropout mask is regenerated from the saved RNG state, not stored
    // FlashAttention-2 (Dao 2023): forward 4 s^2 d per head, backward 10 s^2 d per head (five matmuls, including
    // recomputing S). Causal kernels skip the masked half. MFU counts the dense 4 s^2 h without the skip.
    const double dense = 4.0 * seq * seq * heads * headDim;
    const double skip = causal ? 0.5 : 1.0;
    const double qkvo = numel(qi) + numel(ki) + numel(vi) + seq * heads * headDim;
    const OpCost fwd { perSample(dense * skip), perSample(qkvo * p + seq * heads * 4.0) };
    const OpCost bwd { perSample(2.5 * dense * skip),
                       perSample((qkvo + seq * heads * headDim) * p + (numel(qi) + numel(ki) + numel(vi)) * p
                                 + seq * heads * 4.0) };
    finishOp(op, fwd, bwd, perSample(dense));
    return o;
}

// ---- normalisation, softmax and losses ----------------------------------------------------------------------

TensorId GraphBuilder::softmax(TensorId x, double rows, double cols, std::string_view label, bool forceFp32)
{
    const DType in = m_g.tensors[x].dtype;
    const DType outType = (m_plan.autocast || forceFp32) ? DType::F32 : in; // fp32_set_opt_dtype: no separate cast
    const double n = rows * cols;
    const int op = beginOp(OpType::Softmax, OpKind::Attention, MathUnit::Fp32Vector, label);
    addInputs({ x });
    const TensorId y = newActivation(n, outType, grad(x));
    addOutputs({ y });
    addSaved({ y });
    const double pi = bytesPerElement(in), po = bytesPerElement(outType);
    finishOp(op, { perSample(5.0 * n), perSample(n * (pi + po)) }, { perSample(4.0 * n), perSample(n * (2 * po + pi)) });
    return y;
}

TensorId GraphBuilder::logSoftmax(TensorId x, double rows, double cols, std::string_view label)
{
    const DType in = m_g.tensors[x].dtype;
    const DType outType = m_plan.autocast ? DType::F32 : in;
    const double n = rows * cols;
    const int op = beginOp(OpType::LogSoftmax, OpKind::Loss, MathUnit::Fp32Vector, label);
    addInputs({ x });
    const TensorId y = newActivation(n, outType, grad(x));
    addOutputs({ y });
    addSaved({ y });
    const double pi = bytesPerElement(in), po = bytesPerElement(outType);
    finishOp(op, { perSample(5.0 * n), perSample(n * (pi + po)) }, { perSample(4.0 * n), perSample(n * (2 * po + pi)) });
    return y;
}

TensorId GraphBuilder::nllLoss(TensorId logProbs, TensorId target, double rows, std::string_view label)
{
    const double n = numel(logProbs);
    const double p = bytesPerElement(m_g.tensors[logProbs].dtype);
    const int op = beginOp(OpType::NllLoss, OpKind::Loss, MathUnit::Fp32Vector, label);
    addInputs({ logProbs, target });
    const TensorId loss = newTensor(fixedAmount(1.0), DType::F32, TensorRole::Activation, true);
    // nll_loss_forward also returns total_weight, a 0-d tensor of the input's dtype that backward reads.
    const TensorId totalWeight = newTensor(fixedAmount(1.0), m_g.tensors[logProbs].dtype, TensorRole::Activation, false);
    m_g.tensors[loss].producer = m_g.tensors[totalWeight].producer = op;
    addOutputs({ loss, totalWeight });
    addSaved({ target, totalWeight });
    // Backward writes a dense gradient the size of the log-probabilities (zeros plus one entry per row).
    finishOp(op, { perSample(rows), perSample(rows * (8.0 + p)) }, { perSample(rows), perSample(n * p + rows * 8.0) });
    return loss;
}

TensorId GraphBuilder::layerNorm(TensorId x, TensorId gamma, TensorId beta, double rows, double dim,
                                 std::string_view label)
{
    const TensorId xi = autocastFp32(x);
    const DType t = m_g.tensors[xi].dtype;
    const double p = bytesPerElement(t);
    const double n = rows * dim;
    const int op = beginOp(OpType::LayerNorm, OpKind::Normalization, MathUnit::Fp32Vector, label);
    addInputs({ xi, gamma, beta });
    const TensorId y = newActivation(n, t, true);
    // CUDA layer_norm keeps mean and rstd in FP32 (acc type); the CPU kernel in the input dtype.
    const DType stats = m_plan.cpuKernels ? t : DType::F32;
    const TensorId mean = newActivation(rows, stats, false);
    const TensorId rstd = newActivation(rows, stats, false);
    addOutputs({ y, mean, rstd });
    addSaved({ xi, mean, rstd });
    const double pg = bytesPerElement(m_plan.paramType);
    // 7 FLOPs per element for a norm, as LLM-Viewer counts them.
    finishOp(op, { perSample(7.0 * n), Linear { 2.0 * dim * pg, n * 2.0 * p + rows * 8.0 } },
             { perSample(10.0 * n), Linear { 4.0 * dim * pg, n * 3.0 * p + rows * 8.0 } });
    return y;
}

TensorId GraphBuilder::rmsNorm(TensorId x, TensorId gamma, double rows, double dim, std::string_view label)
{
    const TensorId xi = autocastFp32(x);
    const DType t = m_g.tensors[xi].dtype;
    const double p = bytesPerElement(t);
    const double n = rows * dim;
    const int op = beginOp(OpType::RmsNorm, OpKind::Normalization, MathUnit::Fp32Vector, label);
    addInputs({ xi, gamma });
    const TensorId y = newActivation(n, t, true);
    const TensorId rstd = newActivation(rows, DType::F32, false);
    addOutputs({ y, rstd });
    addSaved({ xi, rstd });
    const double pg = bytesPerElement(m_plan.paramType);
    finishOp(op, { perSample(5.0 * n), Linear { dim * pg, n * 2.0 * p + rows * 4.0 } },
             { perSample(8.0 * n), Linear { 2.0 * dim * pg, n * 3.0 * p + rows * 4.0 } });
    return y;
}

TensorId GraphBuilder::batchNorm(TensorId x, TensorId gamma, TensorId beta, double channels, std::string_view label)
{
    const DType t = m_g.tensors[x].dtype; // cuDNN batch norm takes 16-bit input with FP32 parameters
    const double p = bytesPerElement(t);
    const double n = numel(x);
    const int op = beginOp(OpType::BatchNorm, OpKind::Normalization, MathUnit::Fp32Vector, label);
    addInputs({ x, gamma, beta });
    const TensorId y = newActivation(n, t, true);
    const TensorId mean = newTensor(fixedAmount(channels), DType::F32, TensorRole::Activation, false);
    const TensorId invstd = newTensor(fixedAmount(channels), DType::F32, TensorRole::Activation, false);
    m_g.tensors[mean].producer = m_g.tensors[invstd].producer = op;
    addOutputs({ y, mean, invstd });
    addSaved({ x, mean, invstd });
    // Training-mode batch norm reads the input twice (statistics, then normalisation) and writes the output.
    finishOp(op, { perSample(5.0 * n), perSample(3.0 * n * p) }, { perSample(8.0 * n), perSample(5.0 * n * p) });
    return y;
}

// ---- elementwise --------------------------------------------------------------------------------------------

TensorId GraphBuilder::unary(TensorId x, UnaryFn fn, std::string_view label, bool inplace)
{
    TensorId xi = x;
    if (fn == UnaryFn::PowCube || fn == UnaryFn::Square || fn == UnaryFn::Rsqrt)
        xi = autocastFp32(x);
    const DType t = m_g.tensors[xi].dtype;
    const double n = numel(xi);
    const double p = bytesPerElement(t);
    double flopsPerElement = 1.0;
    bool savesInput = false, savesOutput = false;
    switch (fn) {
    case UnaryFn::Gelu:
    case UnaryFn::GeluTanh:
        flopsPerElement = 8.0;
        savesInput = true;
        break;
    case UnaryFn::Silu:
        flopsPerElement = 4.0;
        savesInput = true;
        break;
    case UnaryFn::PowCube:
        flopsPerElement = 2.0;
        savesInput = true;
        break;
    case UnaryFn::Square:
        savesInput = true;
        break;
    case UnaryFn::Relu:
        savesOutput = true;
        break;
    case UnaryFn::Relu6: // hardtanh: hardtanh_backward(grad, self, min, max)
        savesInput = true;
        break;
    case UnaryFn::Sigmoid:
    case UnaryFn::Tanh:
        flopsPerElement = 4.0;
        savesOutput = true;
        break;
    case UnaryFn::Rsqrt:
        savesOutput = true;
        break;
    case UnaryFn::Neg:
    case UnaryFn::ScaleByConstant:
    case UnaryFn::AddConstant:
        break;
    }
    const int op = beginOp(OpType::Unary, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ xi });
    TensorId y;
    TensorId original = xi;
    if (inplace) {
        GraphTensor copy = m_g.tensors[xi];
        copy.producer = op;
        copy.requiresGrad = grad(xi);
        copy.role = TensorRole::Activation;
        m_g.tensors.push_back(copy);
        y = static_cast<TensorId>(m_g.tensors.size() - 1);
        m_g.ops[op].inplace = true;
        // An in-place op whose backward needs its input (silu_, hardtanh_) makes autograd save a clone of the input
        // before it is overwritten: in place saves nothing then (measured with torch 1.13 saved_tensors_hooks,
        // tools/torch_reference_vision.json).
        if (savesInput)
            original = newActivation(n, t, false);
    } else {
        y = newActivation(n, t, grad(xi));
    }
    if (original != xi)
        addOutputs({ y, original });
    else
        addOutputs({ y });
    if (savesInput)
        addSaved({ original });
    if (savesOutput)
        addSaved({ y });
    const double savedIo = (savesInput || savesOutput) ? p : 0.0;
    finishOp(op, { perSample(flopsPerElement * n), perSample(2.0 * n * p) },
             { perSample(2.0 * flopsPerElement * n), perSample(n * (2.0 * p + savedIo)) });
    return y;
}

TensorId GraphBuilder::add(TensorId a, TensorId b, std::string_view label, bool inplace)
{
    const GraphTensor ta = m_g.tensors[a];
    const GraphTensor tb = m_g.tensors[b];
    const DType t = promote(ta.dtype, tb.dtype);
    const double n = std::max(numel(a), numel(b));
    const double io = numel(a) * bytesPerElement(ta.dtype) + numel(b) * bytesPerElement(tb.dtype)
        + n * bytesPerElement(t);
    const int op = beginOp(OpType::Add, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ a, b });
    TensorId y;
    if (inplace && ta.dtype == t) {
        GraphTensor copy = m_g.tensors[a];
        copy.producer = op;
        copy.requiresGrad = grad(a) || grad(b);
        copy.role = TensorRole::Activation;
        m_g.tensors.push_back(copy);
        y = static_cast<TensorId>(m_g.tensors.size() - 1);
        m_g.ops[op].inplace = true;
    } else {
        y = newActivation(n, t, grad(a) || grad(b));
    }
    addOutputs({ y });
    // AddBackward passes the incoming gradient through; a cast is needed only where dtypes differ.
    finishOp(op, { perSample(n), perSample(io) }, { {}, {} });
    return y;
}

TensorId GraphBuilder::concat(TensorId a, TensorId b, std::string_view label)
{
    const GraphTensor ta = m_g.tensors[a];
    const GraphTensor tb = m_g.tensors[b];
    const DType t = promote(ta.dtype, tb.dtype);
    const Linear n = ta.numel + tb.numel;
    const double io = (ta.numel.perSample + ta.numel.fixed) * bytesPerElement(ta.dtype)
        + (tb.numel.perSample + tb.numel.fixed) * bytesPerElement(tb.dtype);
    // A parameter concatenated with a batch (ViT's class token) is expanded over the batch first.
    const Linear out = ta.numel.perSample > 0 || tb.numel.perSample > 0
        ? perSample(ta.numel.perSample + tb.numel.perSample + ta.numel.fixed + tb.numel.fixed)
        : n;
    const int op = beginOp(OpType::Add, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ a, b });
    const TensorId y = newTensor(out, t, TensorRole::Activation, grad(a) || grad(b));
    m_g.tensors[y].producer = op;
    addOutputs({ y });
    finishOp(op, { {}, out * bytesPerElement(t) + perSample(io) }, { {}, out * (2.0 * bytesPerElement(t)) });
    return y;
}

TensorId GraphBuilder::repeat(TensorId x, double factor, std::string_view label)
{
    const GraphTensor src = m_g.tensors[x];
    const double n = src.numel.perSample;
    const double p = bytesPerElement(src.dtype);
    const int op = beginOp(OpType::Reduce, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ x });
    const TensorId y = newActivation(n * factor, src.dtype, src.requiresGrad);
    addOutputs({ y });
    finishOp(op, { {}, perSample(n * p * (1.0 + factor)) }, { perSample(n * factor), perSample(n * p * (1.0 + factor)) });
    return y;
}

TensorId GraphBuilder::constant(double numel, DType type, double flopsPerElement, std::string_view label, bool perSampleSize)
{
    const int op = beginOp(OpType::Unary, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({});
    const Linear n = perSampleSize ? perSample(numel) : fixedAmount(numel);
    const TensorId y = newTensor(n, type, TensorRole::Activation, false);
    m_g.tensors[y].producer = op;
    addOutputs({ y });
    finishOp(op, { n * flopsPerElement, n * bytesPerElement(type) }, {});
    return y;
}

TensorId GraphBuilder::mul(TensorId a, TensorId b, std::string_view label)
{
    const GraphTensor ta = m_g.tensors[a];
    const GraphTensor tb = m_g.tensors[b];
    const DType t = promote(ta.dtype, tb.dtype);
    const double n = std::max(numel(a), numel(b));
    const double p = bytesPerElement(t);
    const double io = numel(a) * bytesPerElement(ta.dtype) + numel(b) * bytesPerElement(tb.dtype) + n * p;
    const int op = beginOp(OpType::Binary, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ a, b });
    const TensorId y = newActivation(n, t, grad(a) || grad(b));
    addOutputs({ y });
    if (grad(a))
        addSaved({ b });
    if (grad(b))
        addSaved({ a });
    finishOp(op, { perSample(n), perSample(io) }, { perSample(2.0 * n), perSample(io + n * p) });
    return y;
}

TensorId GraphBuilder::dropout(TensorId x, double p, std::string_view label, bool inplace)
{
    // aten::dropout returns its input when p == 0 (or in eval mode): no mask, no copy.
    if (p <= 0.0)
        return x;
    const DType t = m_g.tensors[x].dtype;
    const double n = numel(x);
    const double pe = bytesPerElement(t);
    const int op = beginOp(OpType::Dropout, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ x });
    TensorId y;
    TensorId mask;
    if (inplace) {
        // dropout_ multiplies by a noise tensor of the input's dtype and saves it (aten _dropout_impl).
        GraphTensor copy = m_g.tensors[x];
        copy.producer = op;
        copy.role = TensorRole::Activation;
        m_g.tensors.push_back(copy);
        y = static_cast<TensorId>(m_g.tensors.size() - 1);
        m_g.ops[op].inplace = true;
        mask = newActivation(n, t, false);
    } else {
        y = newActivation(n, t, grad(x));
        // CUDA native_dropout saves a bool mask, one byte per element; the CPU kernel saves input-dtype noise.
        mask = newActivation(n, m_plan.cpuKernels ? t : DType::U8, false);
    }
    addOutputs({ y, mask });
    addSaved({ mask });
    finishOp(op, { perSample(n), perSample(n * (2.0 * pe + 1.0)) }, { perSample(n), perSample(n * (2.0 * pe + 1.0)) });
    return y;
}

TensorId GraphBuilder::reduceMean(TensorId x, double keepFraction, std::string_view label)
{
    const DType t = m_g.tensors[x].dtype;
    const double n = numel(x);
    const double p = bytesPerElement(t);
    const int op = beginOp(OpType::Reduce, OpKind::Normalization, MathUnit::Fp32Vector, label);
    addInputs({ x });
    const TensorId y = newActivation(n * keepFraction, t, grad(x));
    addOutputs({ y });
    finishOp(op, { perSample(n), perSample(n * p * (1.0 + keepFraction)) },
             { perSample(n), perSample(n * p * (1.0 + keepFraction)) });
    return y;
}

TensorId GraphBuilder::pool(TensorId x, double outNumelPerSample, double window, bool savesIndices,
                            std::string_view label)
{
    const DType t = m_g.tensors[x].dtype;
    const double n = numel(x);
    const double p = bytesPerElement(t);
    const int op = beginOp(OpType::Pool, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ x });
    const TensorId y = newActivation(outNumelPerSample, t, grad(x));
    TensorId indices = kNoTensor;
    if (savesIndices) {
        indices = newActivation(outNumelPerSample, DType::I64, false); // max_pool2d_with_indices: int64
        addOutputs({ y, indices });
    } else {
        addOutputs({ y });
    }
    addSaved({ x, indices });
    const double idx = savesIndices ? 8.0 * outNumelPerSample : 0.0;
    finishOp(op, { perSample(window * outNumelPerSample), perSample(n * p + outNumelPerSample * p + idx) },
             { perSample(outNumelPerSample * window), perSample(n * p + outNumelPerSample * p + idx) });
    return y;
}

std::vector<TensorId> GraphBuilder::split(TensorId x, std::span<const double> fractions, std::string_view label)
{
    const auto src = m_g.tensors[x];
    const int op = beginOp(OpType::Split, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ x });
    std::vector<TensorId> outs;
    outs.reserve(fractions.size());
    for (double f : fractions) {
        GraphTensor part = src;
        part.numel = src.numel * f;
        part.producer = op;
        part.role = TensorRole::Activation;
        m_g.tensors.push_back(part);
        outs.push_back(static_cast<TensorId>(m_g.tensors.size() - 1));
        m_g.refs.push_back(outs.back());
        ++m_g.ops[op].outCount;
    }
    m_g.ops[op].savedBegin = m_g.ops[op].outBegin + m_g.ops[op].outCount;
    const double io = src.numel.perSample * bytesPerElement(src.dtype);
    // Forward is a view; backward concatenates the pieces' gradients into one new tensor.
    finishOp(op, { {}, {} }, { {}, perSample(2.0 * io) });
    return outs;
}

TensorId GraphBuilder::view(TensorId x, double numelPerSample)
{
    if (numelPerSample < 0.0 || numelPerSample == m_g.tensors[x].numel.perSample)
        return x;
    const double f = numelPerSample / m_g.tensors[x].numel.perSample;
    const double fractions[] = { f };
    return split(x, fractions, "slice")[0];
}

} // namespace headroom
