// GraphBuilder's matmul-like operators: embedding lookups, Linear (plain, autocast, FP8 and bitsandbytes 4-bit),
// convolutions, batched matmuls and fused attention, with what autograd saves for each (graphbuilder.h).

#include "graphbuilder.h"

#include <algorithm>
#include <cmath>

namespace headroom {

namespace {

    // The largest power of two, up to 16, dividing a row's byte size (GraphOp::alignBytes).
    std::uint8_t alignmentBytes(double rowBytes)
    {
        const auto n = static_cast<long long>(std::llround(rowBytes));
        if (n <= 0 || double(n) != rowBytes)
            return 1;
        std::uint8_t a = 1;
        while (a < 16 && n % (2LL * a) == 0)
            a = std::uint8_t(2 * a);
        return a;
    }

} // namespace

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
                              std::string_view label, bool perSampleRows)
{
    return linearOp(x, weight, bias, rows, in, out, 1.0, label, perSampleRows);
}

// A mixture of experts' projection as one grouped GEMM (transformers' MixtralExperts, Megatron's GroupedMLP): the
// routed token copies, `rows` per sample in all, each multiply their expert's in x out slice of a
// groups x in x out weight. Every expert's weight is read; each row costs one in x out product.
TensorId GraphBuilder::groupedLinear(TensorId x, TensorId weight, double rows, double in, double out, double groups,
                                     std::string_view label)
{
    return linearOp(x, weight, kNoTensor, rows, in, out, groups, label, true);
}

TensorId GraphBuilder::linearOp(TensorId x, TensorId weight, TensorId bias, double rows, double in, double out,
                                double groups, std::string_view label, bool perSampleRows)
{
    const bool fp8 = m_plan.fp8Gemms;
    TensorId xs = x; // what autograd saves for the weight gradient
    TensorId ws = weight;
    TensorId xin = x;
    TensorId win = weight;
    TensorId bin = bias;
    DType outType = m_g.tensors[x].dtype;
    auto byRows = [&](double v) { return perSampleRows ? perSample(v) : fixedAmount(v); };
    if (fp8) {
        // TE casts the input to FP8 inside its autograd function and saves the FP8 copy; gradients flow to the
        // BF16/FP32 input and weight directly.
        const int c = beginOp(OpType::Cast, OpKind::Elementwise, MathUnit::Fp32Vector, "fp8 input cast");
        addInputs({ x });
        xs = newTensor(byRows(rows * in), DType::F8, TensorRole::Activation, false);
        m_g.tensors[xs].producer = c;
        addOutputs({ xs });
        finishOp(c, { {}, byRows(rows * in * (bytesPerElement(m_g.tensors[x].dtype) + 1.0)) }, {});
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
    const TensorId y = newTensor(byRows(rows * out), outType, TensorRole::Activation, needsGrad);
    m_g.tensors[y].producer = op;
    addOutputs({ y });
    if (grad(win))
        addSaved({ xs });
    if (grad(xin))
        addSaved({ ws });
    const double mac = rows * in * out;
    const Linear weightBytes = fixedAmount(groups * in * out * pw);
    OpCost fwd { byRows(2.0 * mac + (bias != kNoTensor ? rows * out : 0.0)),
                 weightBytes + byRows(rows * (in * px + out * py)) };
    OpCost bwd;
    if (grad(xin)) { // dgrad: dX = dY W^T
        bwd.flops += byRows(2.0 * mac);
        bwd.bytes += weightBytes + byRows(rows * (out * py + in * px));
    }
    if (grad(win)) { // wgrad: dW = X^T dY
        bwd.flops += byRows(2.0 * mac);
        bwd.bytes += weightBytes + byRows(rows * (in * px + out * py));
    }
    if (grad(bin))
        bwd.flops += byRows(rows * out);
    finishOp(op, fwd, bwd, byRows(2.0 * mac));
    if (grad(bin))
        m_g.ops[op].columnReduceBytes = byRows(rows * out * py);
    m_g.ops[op].alignBytes = std::min({ alignmentBytes(in * px), alignmentBytes(in * pw), alignmentBytes(out * py) });
    return y;
}

TensorId GraphBuilder::linear4bit(TensorId x, TensorId weight, TensorId bias, double rows, double in, double out,
                                  DType compute, std::string_view label, double groups)
{
    const DType inType = m_g.tensors[x].dtype;
    const TensorId xc = cast(x, compute, "linear4bit.cast");
    const double n = groups * in * out;
    const double pq = bytesPerElement(m_g.tensors[weight].dtype);
    const double pc = bytesPerElement(compute);
    // dequantize_4bit into a compute-type buffer, then F.linear: bitsandbytes' CUDA path for more than 1536 rows
    // (backends/cuda/ops.py _dequant_linear_fallback); the fused kernel for fewer rows needs no buffer.
    const int dq = beginOp(OpType::Cast, OpKind::Elementwise, MathUnit::Fp32Vector, "linear4bit.dequantize");
    addInputs({ weight });
    const TensorId wd = newTensor(fixedAmount(n), compute, TensorRole::Activation, false);
    m_g.tensors[wd].producer = dq;
    addOutputs({ wd });
    finishOp(dq, { fixedAmount(n), fixedAmount(n * (pq + pc)) }, {});
    const MathUnit unit = compute == DType::BF16 ? MathUnit::Bf16Tensor
        : compute == DType::F16                  ? MathUnit::Fp16Tensor
                                                 : m_plan.matmulUnit;
    const int op = beginOp(OpType::Linear, OpKind::Gemm, unit, label);
    addInputs({ xc, wd, bias });
    const TensorId y = newActivation(rows * out, compute, grad(xc));
    addOutputs({ y });
    // MatMul4Bit.forward keeps ctx.tensors = (None, B): the packed weight, a parameter; no activation.
    const double mac = rows * in * out;
    const OpCost fwd { perSample(2.0 * mac), Linear { n * pc, rows * (in + out) * pc } };
    // MatMul4Bit.backward: grad_A = grad_output @ dequantize_4bit(B); the weight gets no gradient.
    const OpCost bwd { perSample(2.0 * mac), Linear { n * (pq + 2.0 * pc), rows * (in + out) * pc } };
    finishOp(op, fwd, bwd, perSample(2.0 * mac));
    m_g.ops[op].backwardScratch = grad(xc) ? fixedAmount(n * pc) : Linear {};
    return cast(y, inType, "linear4bit.cast");
}

TensorId GraphBuilder::conv2d(TensorId x, TensorId weight, TensorId bias, double inChannels, double outChannels,
                              double kernelArea, double groups, double outPixels, std::string_view label, bool winograd)
{
    TensorId xin = autocastLow(x);
    TensorId win = weightFor(weight, false);
    TensorId bin = weightFor(bias, false);
    const DType outType = m_g.tensors[xin].dtype;
    const double inNumel = m_g.tensors[xin].numel.perSample;
    const double px = bytesPerElement(m_g.tensors[xin].dtype);
    const double pw = bytesPerElement(m_g.tensors[win].dtype);
    const int op = beginOp(OpType::Conv2d, OpKind::Gemm,
                           m_plan.autocast || m_plan.paramType != DType::F32 ? m_plan.matmulUnit : m_plan.convUnit,
                           label);
    addInputs({ xin, win, bin });
    const TensorId y = newActivation(outPixels * outChannels, outType, true);
    addOutputs({ y });
    // derivatives.yaml gives convolution one formula for input, weight and bias (convolution_backward reads both),
    // so autograd saves the input and the weight whenever any of them needs a gradient: the first convolution of a
    // network saves its weight (under autocast, the cached 16-bit copy) though the image needs no gradient.
    if (grad(win) || grad(xin) || grad(bin))
        addSaved({ xin, win });
    const double weightNumel = outChannels * (inChannels / groups) * kernelArea;
    const double mac = outPixels * weightNumel;
    const double outNumel = outPixels * outChannels;
    // In NCHW each pass transposes its two activation operands (x and y forward; dy and dx for dgrad; x and dy
    // for wgrad): a read and a write of each.
    const Linear transposes = m_plan.channelsLast ? Linear {} : perSample(2.0 * (inNumel + outNumel) * px);
    OpCost fwd { perSample(2.0 * mac), Linear { weightNumel * pw, inNumel * px + outNumel * px } };
    Linear backwardTransposes;
    OpCost bwd;
    if (grad(xin)) {
        bwd.flops += perSample(2.0 * mac);
        bwd.bytes += Linear { weightNumel * pw, inNumel * px + outNumel * px };
        backwardTransposes += transposes;
    }
    if (grad(win)) {
        bwd.flops += perSample(2.0 * mac);
        bwd.bytes += Linear { weightNumel * pw, inNumel * px + outNumel * px };
        backwardTransposes += transposes;
    }
    finishOp(op, fwd, bwd, perSample(2.0 * mac));
    GraphOp& o = m_g.ops[op];
    // convolution_backward sums the output's gradient for the bias in a kernel of its own (Convolution.cpp: the
    // cuDNN backends compute the input's and the weight's gradients only).
    if (grad(bin))
        o.columnReduceBytes = perSample(outNumel * px);
    o.convolution = true;
    o.winograd = winograd;
    o.forwardLayoutBytes = transposes;
    o.backwardLayoutBytes = o.backward.flops.perSample > 0.0 ? backwardTransposes : Linear {};
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

TensorId GraphBuilder::fusedAttention(TensorId q, TensorId k, TensorId v, double seq, double keys, double heads,
                                      double headDim, bool causal, double dropout, std::string_view label,
                                      double lseRows)
{
    const TensorId qi = autocastLow(q);
    const TensorId ki = autocastLow(k);
    const TensorId vi = autocastLow(v);
    const DType t = m_g.tensors[qi].dtype;
    const double p = bytesPerElement(t);
    const int op = beginOp(OpType::FusedAttention, OpKind::Attention, m_plan.attentionUnit, label);
    addInputs({ qi, ki, vi });
    const TensorId o = newActivation(seq * heads * headDim, t, true);
    const TensorId lse = newActivation((lseRows < 0.0 ? seq : lseRows) * heads, DType::F32, false); // per row
    addOutputs({ o, lse });
    addSaved({ qi, ki, vi, o, lse });
    (void)dropout; // the dropout mask is regenerated from the saved RNG state, not stored
    // FlashAttention-2 (Dao 2023): forward 4 s^2 d per head, backward 10 s^2 d per head (five matmuls, including
    // recomputing S). Causal kernels skip the masked half. MFU counts the dense 4 s^2 h without the skip. Under
    // context parallelism the `seq` local queries meet all `keys` keys (the ring brings the others' K and V, read
    // once each); Megatron's load-balanced split keeps half of that work causal on every rank.
    const double dense = 4.0 * seq * keys * heads * headDim;
    const double skip = causal ? 0.5 : 1.0;
    const double qkvo = numel(qi) + (numel(ki) + numel(vi)) * (keys / seq) + seq * heads * headDim;
    const OpCost fwd { perSample(dense * skip), perSample(qkvo * p + seq * heads * 4.0) };
    const OpCost bwd { perSample(2.5 * dense * skip),
                       perSample((qkvo + seq * heads * headDim) * p + (numel(qi) + numel(ki) + numel(vi)) * p
                                 + seq * heads * 4.0) };
    finishOp(op, fwd, bwd, perSample(dense));
    return o;
}

TensorId GraphBuilder::mathAttention(TensorId q, TensorId k, TensorId v, double seq, double keys, double heads,
                                     double kvHeads, double headDim, double dropoutP, bool upcast)
{
    // Autocast casts SDPA's inputs (lower_precision_fp); the composite then runs below the Autocast dispatch key.
    q = autocastLow(q);
    k = autocastLow(k);
    v = autocastLow(v);
    const DType origin = m_g.tensors[q].dtype;
    const bool autocastWas = m_plan.autocast;
    m_plan.autocast = false;
    if (upcast) { // query_acc = query_.to(at::kFloat), and so key_acc and value_acc
        q = cast(q, DType::F32, "attn.math_upcast");
        k = cast(k, DType::F32, "attn.math_upcast");
        v = cast(v, DType::F32, "attn.math_upcast");
    }
    q = unary(q, UnaryFn::ScaleByConstant, "attn.scale"); // query_acc * sqrt(scale): nothing saved
    if (kvHeads < heads) {
        // pre_process_group_query_attention_input: key.repeat_interleave(heads / kv_heads, -3), and the value's.
        k = repeat(k, heads / kvHeads, "attn.repeat_kv");
        v = repeat(v, heads / kvHeads, "attn.repeat_kv");
    }
    k = unary(k, UnaryFn::ScaleByConstant, "attn.scale"); // key.transpose(-2, -1) * sqrt(scale)
    // The causal mask (ones(L, S).tril() as an additive float mask) is added in place: one s x s tensor for the
    // whole batch, not saved, left out.
    const TensorId scores = matmul(q, k, heads, seq, keys, headDim, "attn.scores");
    TensorId probs = softmax(scores, heads * seq, keys, "attn.softmax"); // _safe_softmax saves its result
    probs = dropout(probs, dropoutP, "attn.dropout");
    TensorId ctx = matmul(probs, v, heads, seq, headDim, keys, "attn.context");
    if (upcast)
        ctx = cast(ctx, origin, "attn.math_downcast"); // .to(origin_dtype)
    m_plan.autocast = autocastWas;
    return ctx;
}

} // namespace headroom
