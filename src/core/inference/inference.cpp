#include "inference.h"

#include "inferenceengine.h"
#include "inferenceforward.h"
#include "links.h"

#include <algorithm>
#include <cmath>

namespace headroom {

namespace detail {

    bool storedQuantized(WeightFormat f)
    {
        return f != WeightFormat::Fp16 && f != WeightFormat::Bf16 && f != WeightFormat::Fp32;
    }

    Forward::Forward(const TransformerSpec& t, const InferenceWeights& w, const InferenceConfig& c)
    {
        const double tp = std::max(1, c.tensorParallel);
        actBytes = c.weights == WeightFormat::Fp32 ? 4.0 : 2.0;
        kvElement = kvBytesPerElement(c.kvCache);
        hidden = t.hidden;
        headDim = t.effectiveHeadDim();
        qHeads = t.heads / tp;
        kvHeads = kvHeadsPerRank(t.kvHeads, c.tensorParallel);
        ffn = t.ffn / tp;
        vocab = double(t.vocab) / tp;
        gated = t.gatedFfn;
        fused = t.fusedQkv;
        rotary = t.position == PositionKind::Rotary;
        learned = t.position == PositionKind::Learned;
        softmaxFp32 = t.softmaxFp32;
        impl = c.attention;
        format = c.weights;
        quantized = storedQuantized(c.weights);
        const EngineCosts engine = engineCosts(resolveEngine(c.engine, c.weights), quantized);
        cublasAboveRows = engine.cublasAboveRows;
        passRows = engine.passTokens;
        reservesContext = engine.reservesContext;
        m_layers.assign(std::size_t(std::max(0, t.layers)), LayerBytes {});
        double embeddingBytes = 0.0;
        for (const WeightTensor& x : w.tensors) {
            if (x.role == WeightRole::TokenEmbedding) {
                embeddingBytes = x.bytes;
                embeddingBytesPerElement = x.bytes / (double(x.rows) * double(x.cols) / (x.sharded ? tp : 1.0));
            } else if (x.role == WeightRole::Output) {
                headBytes = x.bytes;
            } else if (x.layer < 0 && x.role == WeightRole::Vector) {
                finalNormBytes += x.bytes;
            }
            if (x.layer < 0 || x.layer >= t.layers)
                continue;
            LayerBytes& l = m_layers[std::size_t(x.layer)];
            switch (x.role) {
            case WeightRole::Query:
                l.query += x.bytes;
                break;
            case WeightRole::Key:
                l.key += x.bytes;
                break;
            case WeightRole::Value:
                l.value += x.bytes;
                break;
            case WeightRole::Qkv:
                l.qkv += x.bytes;
                break;
            case WeightRole::AttentionOutput:
                l.attnOut += x.bytes;
                break;
            case WeightRole::Gate:
                l.gate += x.bytes;
                break;
            case WeightRole::Up:
                l.up += x.bytes;
                break;
            case WeightRole::Down:
                l.down += x.bytes;
                break;
            default:
                l.vectors += x.bytes;
                break;
            }
            if (x.role != WeightRole::Vector)
                largestLinearElements = std::max(largestLinearElements,
                                                 double(x.rows) * double(x.cols) / (x.sharded ? tp : 1.0));
        }
        if (t.tiedEmbeddings)
            headBytes = embeddingBytes; // lm_head reads the embedding matrix
    }

    double Forward::transientBytes(double b, double t, double k) const
    {
        const double T = b * t;
        const double a = actBytes;
        const double q = qHeads * headDim;
        const double kv = kvHeads * headDim;
        double attention = T * (hidden + q + 2 * kv + q) * a; // normed input, Q, K, V, output
        if (impl == AttentionImpl::Eager)
            attention += b * qHeads * t * k * (softmaxFp32 ? a + 4 : 2 * a); // scores and probabilities
        const double mlp = T * (hidden + (gated ? 3 : 2) * ffn) * a;
        const bool dequant = (format == WeightFormat::Nf4 && T > 1) || (format == WeightFormat::Awq4 && T >= 1024);
        const double block = T * hidden * a + std::max(attention, mlp) + (dequant ? 2 * largestLinearElements : 0.0);
        const double logits = T * hidden * a + b * vocab * (a + 4);
        return std::max(block, logits);
    }

    // llama.cpp reserves, when the context is made, a buffer for its worst-case graph: min(n_ctx, n_ubatch) rows
    // attending to all n_ctx cells (llama_new_context_with_model: "build worst-case graph", n_past = n_ctx -
    // n_tokens; ggml_backend_sched_reserve), reused by every pass after. Its tensors are F32; without -fa the scores
    // (KQ, soft_max in place) are the largest. n_ctx: the sequences' prompts and generated tokens.
    double Forward::computeBufferBytes(double b, double context) const
    {
        const double f32 = 4.0;
        const double cells = b * context;
        const double rows = reservedRows(cells);
        const double q = qHeads * headDim;
        const double kv = kvHeads * headDim;
        double attention = rows * (hidden + q + 2 * kv + q) * f32;
        if (impl == AttentionImpl::Eager)
            attention += qHeads * rows * cells * f32;
        const double mlp = rows * (hidden + (gated ? 3 : 2) * ffn) * f32;
        return rows * hidden * f32 + std::max(attention, mlp);
    }

    // ggml-cuda's pool (ggml_cuda_pool_vmm grows to the most it held at once): on the cuBLAS path the F16 copies of
    // a dequantized weight, its activations and its result (ggml_cuda_op_mul_mat_cublas), and without -fa the F16
    // scores of the batched KQ before their conversion to F32 (ggml_cuda_mul_mat_batched_cublas).
    double Forward::poolBytes(double b, double context) const
    {
        const double f16 = 2.0;
        const double cells = b * context;
        const double rows = reservedRows(cells);
        if (cublasAboveRows <= 0 || rows <= cublasAboveRows)
            return 0.0;
        const double widest = std::max({ hidden, qHeads * headDim, ffn });
        const double weight = (quantized ? largestLinearElements : 0.0) * f16 + 2 * rows * widest * f16;
        const double scores = impl == AttentionImpl::Eager ? qHeads * rows * cells * f16 + rows * qHeads * headDim * f16
                                                           : 0.0;
        return std::max(weight, scores);
    }

    double Forward::kvBytesPerToken() const { return 2.0 * layers() * kvHeads * headDim * kvElement; }

} // namespace detail

namespace {

    using detail::Forward;
    using detail::ForwardOp;
    using detail::storedQuantized;

    MathUnit gemmUnitFor(WeightFormat f)
    {
        switch (f) {
        case WeightFormat::Fp32:
            return MathUnit::Fp32Vector;
        case WeightFormat::Bf16:
            return MathUnit::Bf16Tensor;
        case WeightFormat::Fp8:
            return MathUnit::Fp8Tensor;
        default:
            return MathUnit::Fp16Tensor; // the quantized formats compute in FP16
        }
    }

    // Seconds of one operator: its roofline time (bytes at the engine's decode bandwidth where it sets one) plus the
    // engine's floor under each kernel it launches (inferenceengine.h).
    struct Timer {
        const TimeModel& tm;
        MathUnit unit;
        double secondsPerByte = 0.0;       // 0: the time model's
        double weightSecondsPerByte = 0.0; // a weight's mat-vec (projections, lm_head); 0: secondsPerByte
        double floorSeconds = 0.0;         // per kernel
        double gemmSecondsPerFlop = 0.0; // the engine's GEMMs (EngineCosts::cublasGemmEfficiency); 0: the time model's
        InferenceEngine engine = InferenceEngine::Roofline;
        bool quantized = false;
        bool gqa = false;

        MathUnit unitOf(OpKind k) const
        {
            return (k == OpKind::Gemm || k == OpKind::Attention) ? unit : MathUnit::Fp32Vector;
        }
        detail::OpLaunches launches(const ForwardOp& op) const
        {
            return detail::launchesOf(engine, op.name, quantized, gqa, op.cublas);
        }
        double perByte(const ForwardOp& op) const
        {
            const bool weights = op.kind == OpKind::Gemm && op.name != "qk_matmul" && op.name != "sv_matmul";
            if (weights && weightSecondsPerByte > 0)
                return weightSecondsPerByte;
            return secondsPerByte > 0 ? secondsPerByte : tm.secondsPerByte;
        }
        double roofline(const ForwardOp& op) const
        {
            const double perFlop = op.kind == OpKind::Gemm && gemmSecondsPerFlop > 0
                ? gemmSecondsPerFlop
                : tm.secondsPerFlop[int(op.kind)][int(unitOf(op.kind))];
            return std::max(op.flops * perFlop, op.bytes * perByte(op));
        }
        double operator()(const ForwardOp& op) const { return roofline(op) + launches(op).kernels * floorSeconds; }
    };

    struct Collector {
        const Timer& timer;
        std::string_view stage;
        std::vector<InferenceOp>& ops;
        double scale = 1.0; // layers, for the attention core timed once
        double kernels = 0.0;
        double hostOps = 0.0;

        void operator()(const ForwardOp& op)
        {
            auto it = std::find_if(ops.begin(), ops.end(), [&](const InferenceOp& o) { return o.name == op.name; });
            if (it == ops.end()) {
                ops.push_back(InferenceOp { op.name, stage, op.kind, timer.unitOf(op.kind), 0, 0, 0 });
                it = ops.end() - 1;
            }
            it->flops += op.flops * scale;
            it->bytes += op.bytes * scale;
            it->seconds += timer(op) * scale;
            const detail::OpLaunches l = timer.launches(op);
            kernels += l.kernels * scale;
            hostOps += l.hostOps * scale;
        }
    };

    double sumSeconds(const std::vector<InferenceOp>& ops)
    {
        double s = 0.0;
        for (const InferenceOp& o : ops)
            s += o.seconds;
        return s;
    }

    // The ops of one forward pass, collected by name: the blocks, then the attention core (the same in every
    // block, so timed once and scaled), then embedding, final norm and lm_head.
    // `launches` gets the kernels and host operators of the pass.
    std::vector<InferenceOp> forwardPass(const Forward& f, const Timer& timer, std::string_view stage, double b,
                                         double t, double k, detail::OpLaunches* launches = nullptr)
    {
        std::vector<InferenceOp> ops;
        Collector c { timer, stage, ops };
        for (int i = 0; i < f.layers(); ++i)
            f.layer(i, b * t, c);
        c.scale = f.layers();
        // In passes of n_ubatch rows (llama.cpp), each pass's tokens attend to the cache so far and themselves.
        const double perPass = f.passRows > 0 && b * t > f.passRows ? std::max(1.0, std::floor(f.passRows / b)) : t;
        for (double done = 0; done < t; done += perPass) {
            const double rows = std::min(perPass, t - done);
            f.attention(b, rows, k - t + done + rows, c);
        }
        c.scale = 1.0;
        f.outside(b, t, c);
        if (launches)
            *launches = { c.kernels, c.hostOps };
        return ops;
    }

    // A ring all-reduce of the block's output after attention and after the MLP (Megatron row-parallel layers):
    // 2 (n - 1) / n of the bytes cross each link (NCCL's bus bandwidth).
    double tensorParallelSeconds(const GpuSpec& gpu, const Efficiency& eff, int tp, double rows, double bytes,
                                 int layers)
    {
        if (tp <= 1)
            return 0.0;
        // One node, the links the GPU file describes (links.h resolveIntraNodeLink), as training's collectives.
        const double linkBw = collectiveBandwidth(gpu, TrainingConfig {}, eff.link, tp);
        if (linkBw <= 0.0)
            return 0.0;
        const double perAllReduce = 2.0 * (tp - 1) / tp * rows * bytes / linkBw;
        return 2.0 * layers * perAllReduce;
    }

} // namespace

std::optional<Error> validateInferenceConfig(const InferenceConfig& c, std::string_view origin)
{
    auto err = [&](const char* field, std::string msg) { return Error { std::string(origin), field, std::move(msg) }; };
    if (c.batch < 1 || c.batch > kMaxInferenceBatch)
        return err("batch", "must be between 1 and " + std::to_string(kMaxInferenceBatch));
    if (c.prompt < 1 || c.prompt > kMaxInferenceTokens)
        return err("prompt", "must be between 1 and " + std::to_string(kMaxInferenceTokens));
    if (c.generate < 1 || c.generate > kMaxInferenceTokens)
        return err("generate", "must be between 1 and " + std::to_string(kMaxInferenceTokens));
    if (c.groupSize < 0 || c.groupSize > (1 << 20))
        return err("group_size", "must be between 0 (the format's default) and 1048576");
    if (c.tensorParallel < 1 || c.tensorParallel > 1024)
        return err("tp", "must be between 1 and 1024");
    if (c.kvBlockTokens < 1 || c.kvBlockTokens > 65536)
        return err("kv_block", "must be between 1 and 65536");
    if (!std::isfinite(c.memoryUtilization) || c.memoryUtilization <= 0 || c.memoryUtilization > 1)
        return err("gpu_memory_utilization", "must be more than 0 and at most 1");
    if (c.overheadBytes && (!std::isfinite(*c.overheadBytes) || *c.overheadBytes < 0 || *c.overheadBytes > 1e15))
        return err("overhead_mib", "must be a finite, non-negative size");
    return std::nullopt;
}

namespace {

    // Memory of one configuration: everything the limits and the searches need.
    struct MemoryModel {
        const Forward& f;
        double weights = 0.0;
        double overhead = 0.0;
        double usable = 0.0; // capacity less the engine's reserve
        int block = 16;

        double kv(double b, double tokens) const { return b * std::ceil(tokens / block) * block * f.kvBytesPerToken(); }
        // The two candidates for the peak: right after the prefill (prompt's cache, prefill activations) and the
        // last decode step (the whole context's cache, one token's activations); for an engine that reserves its
        // context, what it reserves.
        InferenceMemory at(double b, double prompt, double generate, std::string_view* stage = nullptr) const
        {
            InferenceMemory m;
            m.weights = weights;
            m.overhead = overhead;
            if (f.reservesContext) {
                // The whole context's cache and the worst-case graph's buffers, from the start.
                m.kvCache = kv(b, prompt + generate);
                m.activations = f.computeBufferBytes(b, prompt + generate) + f.poolBytes(b, prompt + generate);
                m.peak = m.weights + m.kvCache + m.activations + m.overhead;
                if (stage)
                    *stage = "prefill";
                return m;
            }
            const double prefillKv = kv(b, prompt);
            const double prefillAct = f.transientBytes(b, prompt, prompt);
            const double decodeKv = kv(b, prompt + generate);
            const double decodeAct = f.transientBytes(b, 1, prompt + generate);
            const bool prefill = prefillKv + prefillAct > decodeKv + decodeAct;
            m.kvCache = prefill ? prefillKv : decodeKv;
            m.activations = prefill ? prefillAct : decodeAct;
            m.peak = m.weights + m.kvCache + m.activations + m.overhead;
            if (stage)
                *stage = prefill ? "prefill" : "decode";
            return m;
        }
        bool fits(double b, double prompt, double generate) const { return at(b, prompt, generate).peak <= usable; }
    };

    // The largest n in [lo, hi] with ok(n), for a predicate that holds up to some n and fails after; lo - 1 if
    // none.
    template <typename Ok>
    std::int64_t largest(std::int64_t lo, std::int64_t hi, Ok ok)
    {
        if (!ok(lo))
            return lo - 1;
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo + 1) / 2;
            if (ok(mid))
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }

    // The engine's side of a pass: the clock its kernel floors are counted in, the bandwidth of its decode kernels.
    struct EngineSetup {
        detail::EngineCosts costs;
        double floorSeconds = 0.0;
        double decodeSecondsPerByte = 0.0;
        double decodeWeightSecondsPerByte = 0.0;
        double gemmSecondsPerFlop = 0.0;
        double fp16AccumulateRate = 0.0;
    };

    EngineSetup engineSetup(InferenceEstimate& e)
    {
        EngineSetup s;
        e.engine = detail::resolveEngine(e.config.engine, e.config.weights);
        s.costs = detail::engineCosts(e.engine, storedQuantized(e.config.weights));
        const auto clock = detail::boostClockHz(*e.gpu.spec);
        e.clockFromFile = bool(clock);
        e.clockHz = clock ? *clock : detail::kTypicalClockHz;
        s.floorSeconds = s.costs.floorCycles / e.clockHz;
        const bool gddr = e.gpu.spec->isGddr();
        const double eta = gddr ? s.costs.matvecGddr : s.costs.matvecHbm;
        const double weightEta = gddr ? s.costs.weightMatvecGddr : s.costs.weightMatvecHbm;
        if (eta > 0 && e.gpu.bandwidthBytesPerSecond > 0) {
            s.decodeSecondsPerByte = 1.0 / (eta * e.gpu.bandwidthBytesPerSecond);
            s.decodeWeightSecondsPerByte = 1.0 / ((weightEta > 0 ? weightEta : eta) * e.gpu.bandwidthBytesPerSecond);
        }
        const auto fp16 = detail::fp16AccumulateFlopsPerSecond(*e.gpu.spec);
        if (s.costs.cublasGemmEfficiency > 0 && fp16) {
            s.fp16AccumulateRate = *fp16;
            s.gemmSecondsPerFlop = 1.0 / (s.costs.cublasGemmEfficiency * *fp16);
        }
        return s;
    }

    InferenceTimeSplit split(const EngineSetup& s, double gpuSeconds, const detail::OpLaunches& l, double passes)
    {
        InferenceTimeSplit x;
        x.gpuSeconds = gpuSeconds;
        x.kernels = l.kernels * passes;
        x.kernelFloorSeconds = x.kernels * s.floorSeconds;
        x.hostSeconds = passes * (s.costs.hostSecondsPerPass + l.hostOps * s.costs.hostSecondsPerOp);
        x.hostOverlaps = s.costs.hostOverlaps;
        x.hostBound = x.hostSeconds > x.gpuSeconds;
        return x;
    }

    PrefillSplit splitPrefill(const std::vector<InferenceOp>& ops, double passes, const EngineSetup& s)
    {
        PrefillSplit x;
        x.passes = passes;
        for (const InferenceOp& o : ops) {
            if (o.kind == OpKind::Gemm) {
                x.gemmSeconds += o.seconds;
                x.gemmFlops += o.flops;
            } else if (o.name == "dequantize" || o.name == "convert_f16") {
                x.conversionSeconds += o.seconds;
            }
        }
        x.cublasRate = s.gemmSecondsPerFlop > 0 ? 1.0 / s.gemmSecondsPerFlop : 0.0;
        x.fp16AccumulateRate = s.fp16AccumulateRate;
        return x;
    }

    // Time: the prefill once (in the engine's passes of n_ubatch tokens); each generated token one decode step over
    // the cache before it and itself. Only the attention core depends on the context, so the rest of a step is timed
    // once.
    void timeInference(InferenceEstimate& e, const Forward& f, const TransformerSpec& t, const GpuSpec& gpu,
                       const Efficiency& efficiency)
    {
        const InferenceConfig& config = e.config;
        const EngineSetup s = engineSetup(e);
        const TimeModel tm(e.gpu, efficiency);
        Timer timer { tm,       e.unit,         0.0,
                      0.0,      s.floorSeconds, s.gemmSecondsPerFlop,
                      e.engine, f.quantized,    f.kvHeads < f.qHeads };
        const double b = double(config.batch);
        const double p = double(config.prompt);
        const double g = double(config.generate);
        detail::OpLaunches launches;
        // Floors and host time per pass of the prefill; the roofline part is the whole prompt's either way.
        const double passes = f.passes(b * p);
        e.prefillOps = forwardPass(f, timer, "prefill", b, p, p, &launches);
        // The operators carry one pass's floors; the other passes' are the phase's.
        e.prefill = split(s, sumSeconds(e.prefillOps) + (passes - 1) * launches.kernels * s.floorSeconds, launches,
                          passes);
        const double tp = config.tensorParallel;
        const double commPrefill = tensorParallelSeconds(gpu, efficiency, int(tp), b * p, t.hidden * f.actBytes,
                                                         t.layers);
        e.communicationSecondsPerToken = tensorParallelSeconds(gpu, efficiency, int(tp), b, t.hidden * f.actBytes,
                                                               t.layers);
        e.prefillSeconds = e.prefill.seconds() + commPrefill;
        e.prefillSplit = splitPrefill(e.prefillOps, passes, s);

        timer.secondsPerByte = s.decodeSecondsPerByte;
        timer.weightSecondsPerByte = s.decodeWeightSecondsPerByte;
        const double middle = p + std::ceil(g / 2);
        e.decodeOps = forwardPass(f, timer, "decode", b, 1, middle, &launches);
        // The step without its attention core, which Forward::attention() times on its own.
        double rest = sumSeconds(e.decodeOps);
        f.attention(b, 1, middle, [&](const ForwardOp& op) { rest -= timer(op) * f.layers(); });
        // Every step up to 4096 generated tokens, then 4096 evenly spaced ones (each operator's time is the larger of
        // two linear functions of the context, so the mean of the samples is within a step of the exact mean).
        const std::int64_t samples = std::min<std::int64_t>(config.generate, 4096);
        double attention = 0.0;
        for (std::int64_t i = 0; i < samples; ++i) {
            const double step = std::floor((double(i) + 0.5) * g / double(samples)) + 1.0;
            f.attention(b, 1, p + step, [&](const ForwardOp& op) { attention += timer(op) * f.layers(); });
        }
        e.decode = split(s, rest + attention / double(samples), launches, 1.0);
        e.decodeSecondsPerToken = e.decode.seconds() + e.communicationSecondsPerToken;
        e.tokensPerSecond = e.decodeSecondsPerToken > 0 ? b / e.decodeSecondsPerToken : 0.0;
    }

} // namespace

Expected<InferenceEstimate> estimateInference(const ModelSpec& model, const InferenceWeights& weights,
                                              const GpuSpec& gpu, const GpuOverrides& overrides,
                                              const InferenceConfig& config, const Efficiency& efficiency)
{
    if (auto e = validateInferenceConfig(config, "inference"))
        return *e;
    const TransformerSpec& t = model.transformer;
    if (t.heads % config.tensorParallel != 0)
        return Error { "command line", "tp",
                       "the " + std::to_string(t.heads) + " attention heads of \"" + model.id
                           + "\" do not split evenly over " + std::to_string(config.tensorParallel) + " ranks" };
    const double context = double(config.prompt) + double(config.generate);
    if (const auto limit = servingContextLimit(model); limit && context > double(*limit))
        return Error { "command line", "prompt",
                       "prompt + generated tokens (" + std::to_string(std::int64_t(context)) + ") exceed the "
                           + std::to_string(t.maxPositions) + " learned positions of \"" + model.id + "\"" };

    InferenceEstimate e;
    e.config = config;
    e.modelId = model.id;
    e.weights = weights;
    const MathUnit wanted = gemmUnitFor(config.weights);
    e.gpu = applyOverrides(gpu, overrides, wanted);
    e.unit = resolveUnit(e.gpu, wanted);
    if (e.unit != wanted)
        e.warnings.push_back({ InferenceWarning::Kind::UnitFallback,
                               "the GPU has no " + std::string(toString(wanted)) + " unit: the GEMMs run on "
                                   + std::string(toString(e.unit)) });
    if (context > double(t.maxPositions))
        e.warnings.push_back({ InferenceWarning::Kind::BeyondPositions,
                               "the context (" + std::to_string(std::int64_t(context)) + " tokens) is longer than the "
                                   + std::to_string(t.maxPositions)
                                   + " the model was trained for: rotary positions need scaling there" });

    const Forward f(t, weights, config);
    const double b = double(config.batch);
    const double p = double(config.prompt);
    const double g = double(config.generate);
    MemoryModel mm { f, weights.bytes, config.overheadBytes ? *config.overheadBytes : gpu.overheadBytes() };
    mm.block = config.kvBlockTokens;
    e.capacityBytes = e.gpu.memoryBytes;
    mm.usable = e.capacityBytes * config.memoryUtilization;
    e.memory = mm.at(b, p, g, &e.peakStage);
    e.memory.engineReserve = e.capacityBytes - mm.usable;
    e.fits = e.memory.peak <= mm.usable;
    e.kvBytesPerToken = f.kvBytesPerToken();
    e.maxBatch = largest(1, kMaxInferenceBatch, [&](std::int64_t n) { return mm.fits(double(n), p, g); });
    const std::int64_t gen = config.generate;
    const std::int64_t longest = largest(gen + 1, kMaxInferenceTokens,
                                         [&](std::int64_t n) { return mm.fits(b, double(n - gen), g); });
    e.maxContext = longest > gen ? longest : 0;
    if (e.maxContext > t.maxPositions) {
        e.maxContext = t.maxPositions;
        e.maxContextLimitedByModel = true;
    }

    // From one prompt token to the model's context (or this one, if longer).
    const double end = std::max(double(t.maxPositions), context);
    for (int i = 0; i < 48; ++i) {
        const auto c = std::int64_t(std::round(g + 1 + (end - g - 1) * i / 47.0));
        e.memoryByContext.push_back({ c, mm.at(b, double(c) - g, g).peak });
    }

    timeInference(e, f, t, gpu, efficiency);
    return e;
}

} // namespace headroom
