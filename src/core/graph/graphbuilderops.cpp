// GraphBuilder's normalisations, softmax, losses and elementwise operators: what each saves for backward and in
// which dtype, per PyTorch's derivatives.yaml and the CUDA/CPU kernels (graphbuilder.h).

#include "graphbuilder.h"

#include <algorithm>
#include <cassert>

namespace headroom {

// ---- normalisation, softmax and losses ----------------------------------------------------------------------

TensorId GraphBuilder::softmax(TensorId x, double rows, double cols, std::string_view label, bool forceFp32)
{
    return softmaxFamily(OpType::Softmax, OpKind::Attention, x, rows, cols, label, forceFp32);
}

// F.cross_entropy runs cross_entropy_loss (aten/src/ATen/native/LossNLL.cpp), which is
// nll_loss_nd(log_softmax(self, class_dim, self.scalar_type()), target): log_softmax is given the logits' own dtype.
// CPU autocast casts the whole loss to FP32 (autocast_mode.cpp: KERNEL_CPU(cross_entropy_loss, fp32)), so it saves
// FP32 log-probabilities. CUDA autocast has no entry for cross_entropy_loss: log_softmax keeps 16-bit logits 16-bit
// (fp32_set_opt_dtype leaves a given dtype alone) and saves that output, then nll_loss (AT_FORALL_FP32) casts it
// to FP32 and saves the copy (derivatives.yaml nll_loss_forward saves self): both stay until backward. Measured on
// the H200 (BERT MLM, BF16 autocast, 16 x 512 tokens): B x s x V x 2 bytes more than FP32 log-probabilities alone.
// transformers' causal-LM loss upcasts first (logits.float()), which leaves nothing 16-bit to save.
TensorId GraphBuilder::crossEntropy(TensorId logits, TensorId target, double rows, double classes)
{
    const DType t = m_g.tensors[logits].dtype;
    const bool lowLogits = t == DType::F16 || t == DType::BF16;
    if (m_plan.autocast && !m_plan.cpuKernels && lowLogits) {
        const TensorId lsm = softmaxFamily(OpType::LogSoftmax, OpKind::Loss, logits, rows, classes, "loss.log_softmax",
                                           false, true);
        return nllLoss(cast(lsm, DType::F32, "loss.nll_upcast"), target, rows, "loss.nll");
    }
    const TensorId lsm = softmaxFamily(OpType::LogSoftmax, OpKind::Loss, logits, rows, classes, "loss.log_softmax",
                                       false);
    return nllLoss(lsm, target, rows, "loss.nll");
}

// keepDtype: the output dtype was given (log_softmax(x, dim, dtype=x.dtype)), which autocast does not change.
TensorId GraphBuilder::softmaxFamily(OpType type, OpKind kind, TensorId x, double rows, double cols,
                                     std::string_view label, bool forceFp32, bool keepDtype)
{
    const DType in = m_g.tensors[x].dtype;
    // fp32_set_opt_dtype: FP32 without a separate cast.
    const DType outType = keepDtype ? in : (m_plan.autocast || forceFp32) ? DType::F32 : in;
    const double n = rows * cols;
    const int op = beginOp(type, kind, MathUnit::Fp32Vector, label);
    addInputs({ x });
    const TensorId y = newActivation(n, outType, grad(x));
    addOutputs({ y });
    addSaved({ y });
    const double pi = bytesPerElement(in), po = bytesPerElement(outType);
    // A row that does not fit in a block's shared memory (48 KiB, sharedMemPerBlock) is read once per pass
    // (aten/src/ATen/native/cuda/SoftMax.cu, cunn_SoftMaxForward: ilpReduce for the maximum, again for the sum of
    // exponentials, WriteFpropResults; cunn_SoftMaxBackward: the gradient's sum, then the write): a vocabulary-wide
    // loss row reads its input three times. Shorter rows are held in shared memory or a warp's registers and read
    // once. Measured on an H200 (torch 2.11, GPT-2 at b32 x 512, 50,257 FP32 logits a row): cunn_SoftMaxForward
    // 2.94 ms and cunn_SoftMaxBackward 3.40 ms, 3.1 ms each for three reads and a write at 4.25 TB/s
    // (tests/data/measured-heldout/gpt2-cuda-b32-s512-bf16-kernels.*).
    const bool rereads = cols * pi > 48.0 * 1024.0;
    const double inputReads = rereads ? 3.0 : 1.0;
    // Backward reads the gradient and the output, and once more for the sum (log-softmax: the gradient; softmax:
    // both) where the row is re-read.
    const double backwardReads = !rereads ? 2.0 : (type == OpType::Softmax ? 4.0 : 3.0);
    finishOp(op, { perSample(5.0 * n), perSample(n * (inputReads * pi + po)) },
             { perSample(4.0 * n), perSample(n * (backwardReads * po + pi)) });
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
    const TensorId totalWeight = newTensor(fixedAmount(1.0), m_g.tensors[logProbs].dtype, TensorRole::Activation,
                                           false);
    m_g.tensors[loss].producer = m_g.tensors[totalWeight].producer = op;
    addOutputs({ loss, totalWeight });
    // derivatives.yaml nll_loss_forward saves self, target and total_weight; self is log_softmax's saved output
    // unless autocast cast it to FP32 in between (crossEntropy).
    addSaved({ logProbs, target, totalWeight });
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
    // The weight's and the bias's gradients are sums over the rows, in a kernel of their own that reads the output's
    // gradient and the input again (aten/src/ATen/native/cuda/layer_norm_kernel.cu, GammaBetaBackwardCUDAKernel after
    // the input's gradient; 25 of each a step in GPT-2's H200 profile).
    if (grad(gamma) || grad(beta)) {
        m_g.ops[op].columnReduceBytes = perSample(2.0 * n * p);
        m_g.ops[op].backwardExtraKernels += 1; // inside native_layer_norm_backward: no operator of its own
    }
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
    // save_mean and save_invstd: the accumulate type on CUDA (batch_norm_cuda), the parameters' dtype on the CPU
    // (batch_norm_cpu: FP32 only when the parameters are FP32 beside a 16-bit input).
    const DType stats = m_plan.cpuKernels ? m_plan.paramType : DType::F32;
    const TensorId mean = newTensor(fixedAmount(channels), stats, TensorRole::Activation, false);
    const TensorId invstd = newTensor(fixedAmount(channels), stats, TensorRole::Activation, false);
    m_g.tensors[mean].producer = m_g.tensors[invstd].producer = op;
    addOutputs({ y, mean, invstd });
    addSaved({ x, mean, invstd });
    // Training-mode batch norm reads the input twice (statistics, then normalisation) and writes the output.
    finishOp(op, { perSample(5.0 * n), perSample(3.0 * n * p) }, { perSample(8.0 * n), perSample(5.0 * n * p) });
    if (!m_plan.channelsLast && !m_plan.cpuKernels && (t == DType::BF16 || t == DType::F16))
        m_g.ops[op].slowBatchNorm = t == DType::BF16 ? SlowBatchNorm::Native : SlowBatchNorm::Cudnn;
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
    const bool fixed = isFixed(xi);
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
    case UnaryFn::Copy:
        flopsPerElement = 0.0;
        break;
    }
    const int op = beginOp(OpType::Unary, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ xi });
    TensorId y = kNoTensor;
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
            original = newResult(fixed, n, t, false);
    } else {
        y = newResult(fixed, n, t, grad(xi));
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
    if (fn == UnaryFn::Square || fn == UnaryFn::PowCube || fn == UnaryFn::Rsqrt) {
        // Three kernels in backward, each a pass over the tensor (torch/csrc/autograd/FunctionsManual.cpp
        // pow_backward: grad * (exponent * self.pow(exponent - 1)); derivatives.yaml rsqrt: -0.5 * grad *
        // result.pow(3)): the power (a copy for x.pow(1)), the scalar product, the product with the gradient.
        // The node's further ATen calls are GPU kernels only: the host's cost per backward node (timemodel.h) is
        // fitted per its first; counting them as host operators too took the 27 H200 runs' median from 4.3 to
        // 5.5 % with every host constant refitted (docs/accuracy.md 3.2).
        finishOp(op, { sized(fixed, flopsPerElement * n), sized(fixed, 2.0 * n * p) },
                 { sized(fixed, 3.0 * n), sized(fixed, 7.0 * n * p) });
        m_g.ops[op].backwardExtraKernels = 2;
        return y;
    }
    finishOp(op, { sized(fixed, flopsPerElement * n), sized(fixed, 2.0 * n * p) },
             { sized(fixed, 2.0 * flopsPerElement * n), sized(fixed, n * (2.0 * p + savedIo)) });
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
    const bool fixed = isFixed(a) && isFixed(b);
    const int op = beginOp(OpType::Add, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ a, b });
    TensorId y = kNoTensor;
    if (inplace && ta.dtype == t) {
        GraphTensor copy = m_g.tensors[a];
        copy.producer = op;
        copy.requiresGrad = grad(a) || grad(b);
        copy.role = TensorRole::Activation;
        m_g.tensors.push_back(copy);
        y = static_cast<TensorId>(m_g.tensors.size() - 1);
        m_g.ops[op].inplace = true;
    } else {
        y = newResult(fixed, n, t, grad(a) || grad(b));
    }
    addOutputs({ y });
    // AddBackward passes the incoming gradient through; a cast is needed only where dtypes differ.
    finishOp(op, { sized(fixed, n), sized(fixed, io) }, { {}, {} });
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

void GraphBuilder::send(TensorId x, std::string_view label)
{
    const int op = beginOp(OpType::Send, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ x });
    finishOp(op, { {}, {} }, { {}, {} });
}

TensorId GraphBuilder::receive(double numelPerSample, DType type, std::string_view label)
{
    const int op = beginOp(OpType::Receive, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({});
    const TensorId y = newTensor(perSample(numelPerSample), type, TensorRole::Activation, true);
    m_g.tensors[y].producer = op;
    addOutputs({ y });
    finishOp(op, { {}, {} }, {});
    m_g.tensors[y].requiresGrad = true; // finishOp clears it for an operator with no input that requires grad
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
    finishOp(op, { {}, perSample(n * p * (1.0 + factor)) },
             { perSample(n * factor), perSample(n * p * (1.0 + factor)) });
    return y;
}

TensorId GraphBuilder::constant(double numel, DType type, double flopsPerElement, std::string_view label,
                                bool perSampleSize)
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
    const bool fixed = isFixed(a) && isFixed(b);
    const int op = beginOp(OpType::Binary, OpKind::Elementwise, MathUnit::Fp32Vector, label);
    addInputs({ a, b });
    const TensorId y = newResult(fixed, n, t, grad(a) || grad(b));
    addOutputs({ y });
    if (grad(a))
        addSaved({ b });
    if (grad(b))
        addSaved({ a });
    // MulBackward0 (derivatives.yaml mul.Tensor): each operand that needs a gradient gets the output's gradient times
    // the other, a kernel over the output's size; one broadcast to the output's shape is then summed back to its own
    // (sum_to), a reduction kernel of its own (RMSNorm's x * rsqrt(var), its weight times the normalised tensor).
    Linear backwardBytes;
    int kernels = 0;
    for (const auto& [self, other] : { std::pair { a, b }, std::pair { b, a } }) {
        if (!grad(self))
            continue;
        ++kernels;
        backwardBytes = backwardBytes
            + sized(fixed, 2.0 * n * p + numel(other) * bytesPerElement(m_g.tensors[other].dtype));
        if (numel(self) < n) {
            ++kernels;
            backwardBytes = backwardBytes
                + sized(fixed, n * p + numel(self) * bytesPerElement(m_g.tensors[self].dtype));
        }
    }
    finishOp(op, { sized(fixed, n), sized(fixed, io) }, { sized(fixed, double(kernels) * n), backwardBytes });
    m_g.ops[op].backwardExtraKernels = std::uint8_t(std::max(kernels - 1, 0));
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
    TensorId y = kNoTensor;
    TensorId mask = kNoTensor;
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

TensorId GraphBuilder::reduceMean(TensorId x, double keepFraction, std::string_view label, bool savesInput)
{
    const DType t = m_g.tensors[x].dtype;
    const double n = numel(x);
    const double p = bytesPerElement(t);
    const bool fixed = isFixed(x);
    const int op = beginOp(OpType::Reduce, OpKind::Normalization, MathUnit::Fp32Vector, label);
    addInputs({ x });
    const TensorId y = newResult(fixed, n * keepFraction, t, grad(x));
    addOutputs({ y });
    if (savesInput && grad(x))
        addSaved({ x });
    finishOp(op, { sized(fixed, n), sized(fixed, n * p * (1.0 + keepFraction)) },
             { sized(fixed, n), sized(fixed, n * p * (1.0 + keepFraction)) });
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

std::vector<TensorId> GraphBuilder::split(TensorId x, std::span<const double> fractions, std::string_view label,
                                          bool slices)
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
    if (!slices) {
        // Forward is a view; backward concatenates the pieces' gradients into one new tensor (split_backward: cat).
        finishOp(op, { {}, {} }, { {}, perSample(2.0 * io) });
        return outs;
    }
    // Indexing (x[..., :d], x[:, 0]): each piece's SliceBackward0 / SelectBackward0 is slice_backward or
    // select_backward (aten/src/ATen/native/TensorShape.cpp), a tensor of zeros the input's size with the piece's
    // gradient copied in, two kernels; the pieces' gradients are then summed, an add each after the first.
    const double parts = double(fractions.size());
    double sumFractions = 0.0;
    for (double f : fractions)
        sumFractions += f;
    finishOp(op, { {}, {} },
             { perSample((parts - 1.0) * src.numel.perSample),
               perSample(parts * io + 2.0 * sumFractions * io + 3.0 * (parts - 1.0) * io) });
    m_g.ops[op].backwardExtraKernels = std::uint8_t(3.0 * parts - 2.0);
    return outs;
}

TensorId GraphBuilder::view(TensorId x, double numelPerSample)
{
    if (numelPerSample < 0.0 || numelPerSample == m_g.tensors[x].numel.perSample)
        return x;
    const double f = numelPerSample / m_g.tensors[x].numel.perSample;
    const double fractions[] = { f };
    return split(x, fractions, "slice", true)[0];
}

TensorId GraphBuilder::detach(TensorId x)
{
    GraphTensor d = m_g.tensors[x];
    d.requiresGrad = false;
    m_g.tensors.push_back(d);
    return static_cast<TensorId>(m_g.tensors.size() - 1);
}

} // namespace headroom
