// Transformer forward passes written the way their reference implementations write them, so that the graph
// records the same autograd saves: Hugging Face transformers (BertForMaskedLM, GPT2LMHeadModel,
// LlamaForCausalLM and its relatives) and torchvision's VisionTransformer.

#include "transformerbuilder.h"

#include "pipeline.h"
#include "sdpa.h"
#include "sdpaspeed.h"

namespace headroom {

namespace detail {

    TensorId TransformerBuilder::linearParam(TensorId x, double in, double out, bool bias, std::string_view name,
                                             Split split)
    {
        const std::size_t first = g.params.size();
        const TensorId y = finetuneLinear(b, policy, x, s, in, out, bias, name);
        if (tp > 1 && split != Split::None) {
            shard(first, split);
            if (split == Split::Row && !sp) // the partial sums are all-reduced before the bias and the residual
                allReduce(g.tensors[y].producer, y);
        }
        return y;
    }

    void TransformerBuilder::shard(std::size_t first, Split split)
    {
        for (std::size_t i = first; i < g.params.size(); ++i) {
            Parameter& p = g.params[i];
            p.shards = (p.matmulWeight || split != Split::Row) ? double(tp) : 1.0;
        }
    }

    void TransformerBuilder::allReduce(std::int32_t op, TensorId tensor, double share, int calls)
    {
        if (tp <= 1 || op < 0)
            return;
        const GraphTensor& t = g.tensors[tensor];
        GraphOp& o = g.ops[std::size_t(op)];
        o.tpMessage += t.numel * (bytesPerElement(t.dtype) * share);
        o.tpCalls = std::int8_t(o.tpCalls + calls);
    }

    // An all-gather or a reduce-scatter moves (t - 1)/t of the whole tensor per rank, half an all-reduce; each runs
    // once in forward and, as the other one, once in backward.
    TensorId TransformerBuilder::gather(TensorId x)
    {
        if (!sp)
            return x;
        // Megatron gathers in the compute dtype: under autocast the shard is cast first.
        if (b.plan().autocast && b.tensor(x).dtype == DType::F32)
            x = b.cast(x, b.plan().lowType, "sp.cast");
        const TensorId y = b.repeat(x, tp, "sp.all_gather");
        allReduce(g.tensors[y].producer, y, 1.0, 2); // all-gather forward, reduce-scatter backward
        return y;
    }

    TensorId TransformerBuilder::scatter(TensorId y)
    {
        if (!sp)
            return y;
        const TensorId x = b.reduceMean(y, 1.0 / tp, "sp.reduce_scatter");
        allReduce(g.tensors[x].producer, y, 1.0, 2); // reduce-scatter forward, all-gather backward
        return x;
    }

    TensorId TransformerBuilder::columnInput(TensorId x, std::int32_t& firstOp, TensorId& sharded)
    {
        firstOp = -1;
        sharded = x;
        if (!sp)
            return x;
        const TensorId y = gather(x);
        sharded = g.inputs(g.ops[std::size_t(g.tensors[y].producer)])[0];
        firstOp = std::int32_t(g.ops.size());
        return y;
    }

    void TransformerBuilder::saveSharded(std::int32_t firstOp, TensorId gathered, TensorId sharded)
    {
        if (firstOp < 0)
            return;
        bool first = true;
        for (std::size_t i = std::size_t(firstOp); i < g.ops.size(); ++i) {
            GraphOp& op = g.ops[i];
            bool patched = false;
            for (std::int32_t k = op.savedBegin; k < op.savedBegin + op.savedCount; ++k) {
                if (g.refs[std::size_t(k)] == gathered) {
                    g.refs[std::size_t(k)] = sharded;
                    patched = true;
                }
            }
            if (patched && first) {
                // The weight gradient needs the whole input again: gathered in backward, freed after it.
                op.backwardScratch += g.storages[std::size_t(g.tensors[gathered].storage)].bytes;
                allReduce(std::int32_t(i), gathered, 0.5);
                first = false;
            }
        }
    }

    TensorId TransformerBuilder::norm(TensorId x, std::string_view name, double width)
    {
        next(ParameterRole::Norm);
        const double h = width > 0.0 ? width : this->h;
        const double rows = b.tensor(x).numel.perSample / h; // s, or s/t under sequence parallelism
        if (m.norm == NormKind::LayerNorm) {
            const TensorId gamma = b.normParameter(name, h);
            const TensorId beta = m.normBias ? b.normParameter(name, h) : kNoTensor;
            return b.layerNorm(x, gamma, beta, rows, h, name);
        }
        const TensorId gamma = b.normParameter(name, h);
        if (m.normImpl == NormImpl::Fused)
            return b.rmsNorm(x, gamma, rows, h, name);
        // transformers LlamaRMSNorm.forward: the variance is computed in FP32 and the weight multiplies the
        // normalised tensor cast back to the input dtype.
        const DType inputType = b.tensor(x).dtype;
        const TensorId x32 = b.cast(x, DType::F32, name);
        const TensorId sq = b.unary(x32, UnaryFn::Square, name);
        // x.pow(2).mean(-1, keepdim=True): torch 1.13's MeanBackward1 keeps its input, for its sizes (derivatives.yaml
        // mean.dim: sum_backward(grad, self.sizes(), ...)); torch 2 keeps only the sizes (self.sym_sizes()). Measured
        // on torch 1.13: tools/hf_reference/results.json, mean_self_bytes_torch113_only.
        const TensorId var = b.reduceMean(sq, 1.0 / h, name, cfg.torch < Release { 2, 0 });
        const TensorId eps = b.unary(var, UnaryFn::AddConstant, name);
        const TensorId r = b.unary(eps, UnaryFn::Rsqrt, name);
        const TensorId normed = b.mul(x32, r, name);
        const TensorId back = b.cast(normed, inputType, name);
        return b.mul(gamma, back, name);
    }

    TensorId TransformerBuilder::activation(TensorId x)
    {
        switch (m.activation) {
        case Activation::Gelu:
            return b.unary(x, UnaryFn::Gelu, "mlp.act");
        case Activation::GeluTanh:
            return b.unary(x, UnaryFn::GeluTanh, "mlp.act");
        case Activation::Silu:
            return b.unary(x, UnaryFn::Silu, "mlp.act");
        case Activation::Relu:
            return b.unary(x, UnaryFn::Relu, "mlp.act");
        case Activation::QuickGelu: {
            // x * torch.sigmoid(1.702 * x)
            const TensorId scaled = b.unary(x, UnaryFn::ScaleByConstant, "mlp.act");
            const TensorId sig = b.unary(scaled, UnaryFn::Sigmoid, "mlp.act");
            return b.mul(x, sig, "mlp.act");
        }
        case Activation::GeluComposite: {
            // transformers NewGELUActivation:
            // 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
            const TensorId cube = b.unary(x, UnaryFn::PowCube, "mlp.act");
            const TensorId c1 = b.unary(cube, UnaryFn::ScaleByConstant, "mlp.act");
            const TensorId inner = b.add(x, c1, "mlp.act");
            const TensorId c2 = b.unary(inner, UnaryFn::ScaleByConstant, "mlp.act");
            const TensorId t = b.unary(c2, UnaryFn::Tanh, "mlp.act");
            const TensorId onePlus = b.unary(t, UnaryFn::AddConstant, "mlp.act");
            const TensorId half = b.unary(x, UnaryFn::ScaleByConstant, "mlp.act");
            return b.mul(half, onePlus, "mlp.act");
        }
        }
        return x;
    }

    TensorId TransformerBuilder::rope(TensorId x)
    {
        if (rd < d) {
            // Partial rotary (GPT-NeoX rotary_pct): transformers apply_rotary_pos_emb rotates the first rotary_dim
            // channels of each head and concatenates the rest back unchanged.
            const double fractions[] = { rd / d, 1.0 - rd / d };
            const auto parts = b.split(x, fractions, "attn.rope", true);
            return b.concat(rotate(parts[0]), parts[1], "attn.rope");
        }
        return rotate(x);
    }

    TensorId TransformerBuilder::rotate(TensorId x)
    {
        // transformers apply_rotary_pos_emb: (x * cos) + (rotate_half(x) * sin), rotate_half = cat(-x2, x1).
        const TensorId xc = b.mul(x, cosT, "attn.rope");
        const double halves[] = { 0.5, 0.5 };
        const auto parts = b.split(x, halves, "attn.rope", true);
        const TensorId neg = b.unary(parts[1], UnaryFn::Neg, "attn.rope");
        const TensorId rot = b.concat(neg, parts[0], "attn.rope");
        const TensorId xs = b.mul(rot, sinT, "attn.rope");
        return b.add(xc, xs, "attn.rope");
    }

    TensorId TransformerBuilder::attention(TensorId input)
    {
        std::int32_t firstOp = -1;
        TensorId sharded = kNoTensor;
        const TensorId x = columnInput(input, firstOp, sharded);
        const double qDim = a * d, kvDim = kv * d;
        TensorId q = kNoTensor, k = kNoTensor, v = kNoTensor;
        TensorId fusedQkv = kNoTensor, splitQ = kNoTensor; // a fused projection and the first part of its split
        if (m.fusedQkv) {
            const TensorId qkv = fusedQkv = linearParam(x, h, qDim + 2.0 * kvDim, m.qkvBias, "attn.qkv", Split::Column);
            const double tot = qDim + 2.0 * kvDim;
            const double fr[] = { qDim / tot, kvDim / tot, kvDim / tot };
            const auto parts = b.split(qkv, fr, "attn.split");
            q = splitQ = parts[0];
            k = parts[1];
            v = parts[2];
        } else {
            q = linearParam(x, h, qDim, m.qkvBias, "attn.q", Split::Column);
            k = linearParam(x, h, kvDim, m.qkvBias, "attn.k", Split::Column);
            v = linearParam(x, h, kvDim, m.qkvBias, "attn.v", Split::Column);
        }
        // The input's gradient is all-reduced once in backward, for the column-parallel projections together.
        if (!sp)
            allReduce(g.tensors[q].producer, x);
        saveSharded(firstOp, x, sharded);
        if (m.qkNorm != QkNorm::None) {
            // Qwen3Attention: q_norm(q.view(..., head_dim)); OlmoeAttention: q_norm(q_proj(x)), the whole projection.
            q = norm(q, "attn.q_norm", m.qkNorm == QkNorm::PerHead ? d : a * d);
            k = norm(k, "attn.k_norm", m.qkNorm == QkNorm::PerHead ? d : kv * d);
        }
        if (m.position == PositionKind::Rotary) {
            q = rope(q);
            k = rope(k);
        }
        const bool selective = cfg.checkpointing == Checkpointing::Selective;
        TensorId ctx = kNoTensor;
        if (cfg.attention == AttentionImpl::Fused) {
            // SDPA's own choice of kernel (sdpa.h): flash, memory-efficient and cuDNN save the output and its
            // log-sum-exp, math the s x s probabilities.
            const SdpaCall call = sdpaCallFor(m, cfg);
            const SdpaChoice kernel = chooseSdpaKernel(call);
            if (kvCache) {
                // past_key_values.update(k, v) before attention: DynamicLayer.update (transformers 5
                // cache_utils.py) concatenates onto the empty tensor its lazy_initialization made, so every layer's
                // K and V are copied, SDPA saves the copies, and the cache holds them as long as the model's output.
                // Where K and V were views of a fused projection that SDPA also keeps through the query (GPT-2's
                // c_attn), that is 2 s h more per layer: measured on the H200, GPT-2 with SDPA saved 150,995,136 B
                // more than without the copies at b8 x 512 in BF16 (the probe's kernel profile: 24 four-dimensional
                // cat kernels a step, 2 a layer). Eager attention's matmuls save reshaped copies of their operands
                // with or without the cache, so its bytes are as counted without it.
                k = b.unary(k, UnaryFn::Copy, "attn.kv_cache");
                v = b.unary(v, UnaryFn::Copy, "attn.kv_cache");
                g.cacheTensors.push_back(k);
                g.cacheTensors.push_back(v);
            }
            if (call.repeatKv()) {
                // transformers' repeat_kv before SDPA when it cannot pass enable_gqa (torch < 2.5, or a mask).
                k = b.repeat(k, a / kv, "attn.repeat_kv");
                v = b.repeat(v, a / kv, "attn.repeat_kv");
            }
            const double kvRun = call.repeatKv() ? a : kv;
            if (kernel.kernel == SdpaKernel::Math) {
                if (selective)
                    b.beginRegion();
                ctx = b.mathAttention(q, k, v, s, sequence, a, kvRun, d, m.attentionDropout, kernel.upcast);
                if (selective)
                    b.endRegion();
            } else {
                ctx = b.fusedAttention(q, k, v, s, sequence, a, d, m.causal, m.attentionDropout, "attn.core",
                                       sdpaLogSumExpRows(kernel.kernel, s));
                // The CUDA kernels' (the CPU's flash kernel keeps per-thread buffers instead).
                double scratch = call.device == KernelBackend::Cuda ? sdpaBackwardScratch(kernel.kernel, s, a, d) : 0.0;
                if (sequenceFirst && kernel.kernel == SdpaKernel::Flash && call.device == KernelBackend::Cuda) {
                    // _flash_attention_backward (attention_backward.cu) makes dout and out contiguous in (B, s,
                    // heads, d): in a sequence-first caller both are laid out (s, B, heads, d), two copies.
                    scratch += 2.0 * s * a * d * bytesPerElement(b.tensor(ctx).dtype);
                }
                GraphOp& attention = g.ops[std::size_t(g.tensors[ctx].producer)];
                attention.backwardScratch += perSample(scratch);
                if (call.device == KernelBackend::Cuda) {
                    const SdpaSpeed speed = sdpaSpeed(kernel.kernel, call.computeCapability,
                                                      { s, sequence, d, m.causal, m.attentionDropout });
                    attention.forwardEfficiency = float(speed.forwardEfficiency);
                    attention.backwardEfficiency = float(speed.backwardEfficiency);
                    attention.forwardWork = float(speed.forwardWork);
                    attention.backwardWork = float(speed.backwardWork);
                }
                // Flash and cuDNN write their output in the query's memory layout (flash_api.cpp empty_like;
                // MHA.cpp alloc_with_matching_layout), the memory-efficient kernel in (B, s, heads, d)
                // (attention.cu _efficient_attention_forward: at::empty({B, M, num_heads, Kv})). A sequence-first
                // caller's permute(2, 0, 1, 3).contiguous() before out_proj (F.multi_head_attention_forward) then
                // copies it, and out_proj saves the copy beside SDPA's own output: ViT-B/16 in FP32 on the H200
                // saved 232,390,656 B more, 32 x 197 x 768 x 4 B per layer.
                if (sequenceFirst && kernel.kernel == SdpaKernel::MemoryEfficient)
                    ctx = b.unary(ctx, UnaryFn::Copy, "attn.out_contiguous");
            }
            if (cp > 1) {
                // The ring: this rank's K and V chunk goes round cp - 1 times forward; backward sends them round
                // again and their gradients back (Megatron's context_parallel.md: all-gather forward,
                // reduce-scatter of dK, dV backward, as ring P2P).
                const double chunk = 2.0 * s * kv * d * bytesPerElement(b.tensor(ctx).dtype);
                g.ops[std::size_t(g.tensors[ctx].producer)].cpMessage += perSample(3.0 * chunk * (cp - 1));
            }
        } else {
            if (kv < a) {
                // repeat_kv materialises K and V for every query head before the eager matmuls.
                k = b.repeat(k, a / kv, "attn.repeat_kv");
                v = b.repeat(v, a / kv, "attn.repeat_kv");
            }
            if (selective)
                b.beginRegion();
            TensorId scores = b.matmul(q, k, a, s, s, d, "attn.scores");
            if (m.causal && m.position == PositionKind::Learned) {
                // GPT-2 divides by torch.full([], sqrt(d)), a 0-d tensor that DivBackward saves.
                const TensorId divisor = b.constant(1.0, b.tensor(scores).dtype, 0.0, "attn.scale", false);
                scores = b.mul(scores, divisor, "attn.scale");
            } else {
                scores = b.unary(scores, UnaryFn::ScaleByConstant, "attn.scale");
            }
            if (causalMask != kNoTensor || paddingMask != kNoTensor) {
                // Additive mask: Llama's 4-D causal mask, BERT's extended padding mask.
                scores = b.add(scores, causalMask != kNoTensor ? causalMask : paddingMask, "attn.mask");
            } else if (m.causal) {
                // GPT-2: torch.where(causal_mask, scores, min) with a boolean buffer.
                scores = b.unary(scores, UnaryFn::ScaleByConstant, "attn.mask");
            }
            const DType valueType = b.tensor(v).dtype;
            TensorId probs = b.softmax(scores, a * s, s, "attn.softmax", m.softmaxFp32);
            if (m.probsCast == ProbsCast::BeforeDropout && (b.plan().autocast || m.softmaxFp32))
                probs = b.cast(probs, b.plan().autocast ? b.plan().lowType : valueType, "attn.probs_cast");
            probs = b.dropout(probs, m.attentionDropout, "attn.dropout");
            ctx = b.matmul(probs, v, a, s, d, s, "attn.context");
            if (selective)
                b.endRegion();
        }
        const TensorId out = linearParam(ctx, qDim, h, m.outBias, "attn.out", Split::Row);
        if (sequenceFirst && splitQ != kNoTensor && cfg.torch >= Release { 2, 0 })
            packedInProjection(input, fusedQkv, splitQ, out);
        return scatter(out);
    }

    // torch.nn.MultiheadAttention under batch_first (torchvision's EncoderBlock, in training): forward hands on
    // query.transpose(1, 0), a non-contiguous (L, N, E) view, and _in_projection_packed (torch/nn/functional.py, torch
    // 2.0 and later) runs F.linear on it, then proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2)
    // .contiguous() and returns proj[0], proj[1], proj[2]. The layout copies that makes, e elements of the hidden
    // size per sample:
    //  forward: ATen's matmul folds the non-contiguous input to two dimensions with a copy (e); the contiguous
    //    (3, L, N, E) copy (3e);
    //  backward: each select's backward zero-fills (3, L, N, E) and copies its slice in (select_backward), and
    //    autograd adds the three in place (input_buffer.cpp accumulate); unflatten's backward reshapes the
    //    non-contiguous sum (a 3e copy); the out-projection's gradient (the output was viewed (L, N, E) and handed
    //    on transposed) is copied before its GEMMs (e); the input's gradient reaches the LayerNorm transposed, which
    //    makes it contiguous (e, in the norm's dtype).
    // Measured on an H200 (ViT-B/16 BF16 at b128, tests/data/measured-heldout/vit-b-16-*-kernels.*): 36 BF16
    // zero-fills and 24 vectorized BF16 adds a step, 3 and 2 a layer; 112 strided direct copies, of which these are
    // 8 a layer. The split's own gradient, a concatenation elsewhere, is here the fills and the adds.
    void TransformerBuilder::packedInProjection(TensorId input, TensorId qkv, TensorId q, TensorId out)
    {
        const double e = b.tensor(input).numel.perSample;
        const double p = bytesPerElement(b.tensor(qkv).dtype);
        const double packed = b.tensor(qkv).numel.perSample; // 3e for self-attention
        GraphOp& linear = g.ops[std::size_t(b.tensor(qkv).producer)];
        linear.forwardStridedBytes += perSample(2.0 * e * p);
        linear.forwardExtraKernels += 1;
        GraphOp& split = g.ops[std::size_t(b.tensor(q).producer)];
        split.forwardStridedBytes += perSample(2.0 * packed * p);
        split.forwardExtraKernels += 1;
        split.backward.bytes = perSample(3.0 * packed * p + 2.0 * 3.0 * packed * p);
        split.backwardStridedBytes += perSample(3.0 * 2.0 * e * p + 2.0 * packed * p);
        split.backwardExtraKernels += 8; // three fills, three slice copies, two adds, the reshape: nine kernels
        GraphOp& outProj = g.ops[std::size_t(b.tensor(out).producer)];
        outProj.backwardStridedBytes += perSample(2.0 * e * p);
        outProj.backwardExtraKernels += 1;
        if (b.tensor(input).producer >= 0) {
            GraphOp& norm = g.ops[std::size_t(b.tensor(input).producer)];
            norm.backwardStridedBytes += perSample(2.0 * e * bytesPerElement(b.tensor(input).dtype));
            norm.backwardExtraKernels += 1;
        }
    }

    TensorId TransformerBuilder::mlp(TensorId input)
    {
        std::int32_t firstOp = -1;
        TensorId sharded = kNoTensor;
        const TensorId x = columnInput(input, firstOp, sharded);
        if (m.gatedFfn) {
            const TensorId gate = linearParam(x, h, f, m.ffnBias, "mlp.gate", Split::Column);
            if (!sp)
                allReduce(g.tensors[gate].producer, x); // the input's gradient, in backward
            const TensorId up = linearParam(x, h, f, m.ffnBias, "mlp.up", Split::Column);
            saveSharded(firstOp, x, sharded);
            const TensorId act = activation(gate);
            const TensorId prod = b.mul(act, up, "mlp.mul");
            return scatter(linearParam(prod, f, h, m.ffnBias, "mlp.down", Split::Row));
        }
        TensorId y = linearParam(x, h, f, m.ffnBias, "mlp.fc1", Split::Column);
        if (!sp)
            allReduce(g.tensors[y].producer, x); // the input's gradient, in backward
        saveSharded(firstOp, x, sharded);
        y = activation(y);
        y = b.dropout(y, m.ffnDropout, "mlp.dropout");
        return scatter(linearParam(y, f, h, m.ffnBias, "mlp.fc2", Split::Row));
    }

    TensorId TransformerBuilder::block(TensorId x)
    {
        if (m.parallelResidual) {
            // GPT-NeoX use_parallel_residual: both branches read the block input and
            // hidden_states = mlp_output + attn_output + hidden_states (transformers GPTNeoXLayer.forward).
            TensorId y = attention(norm(x, "attn.norm"));
            y = b.dropout(y, m.hiddenDropout, "attn.dropout_out");
            TensorId z = mlp(norm(x, "mlp.norm"));
            z = b.dropout(z, m.hiddenDropout, "mlp.dropout_out");
            return b.add(b.add(z, y, "mlp.residual"), x, "attn.residual");
        }
        if (m.preNorm) {
            TensorId y = norm(x, "attn.norm");
            y = attention(y);
            y = b.dropout(y, m.hiddenDropout, "attn.dropout_out");
            x = b.add(y, x, "attn.residual");
            y = norm(x, "mlp.norm");
            y = m.moe.sparse(b.layer()) ? moe(y) : mlp(y);
            y = b.dropout(y, m.hiddenDropout, "mlp.dropout_out");
            return b.add(y, x, "mlp.residual");
        }
        // BERT: LayerNorm(dropout(dense(x)) + input) after attention and after the FFN.
        TensorId y = attention(x);
        y = b.dropout(y, m.hiddenDropout, "attn.dropout_out");
        x = norm(b.add(y, x, "attn.residual"), "attn.norm");
        y = mlp(x);
        y = b.dropout(y, m.hiddenDropout, "mlp.dropout_out");
        return norm(b.add(y, x, "mlp.residual"), "mlp.norm");
    }

    TensorId TransformerBuilder::layer(TensorId x, int l)
    {
        const bool full = cfg.checkpointing == Checkpointing::Full;
        b.setLayer(l);
        if (full)
            b.beginRegion();
        x = block(x);
        if (full)
            b.endRegion();
        return x;
    }

    // The parameters of `layers` blocks that are not built: copies of the built block's, one block after another.
    void TransformerBuilder::copyParameters(std::size_t begin, std::size_t end, int layers)
    {
        for (int k = 1; k <= layers; ++k) {
            for (std::size_t i = begin; i < end; ++i) {
                Parameter p = g.params[i];
                p.layer = static_cast<std::int16_t>(p.layer + k);
                p.tensor = kNoTensor;
                g.params.push_back(p);
            }
        }
    }

    bool TransformerBuilder::build(GraphLayers layers)
    {
        g.layers = m.layers;
        g.samplesTokens = m.input == InputKind::Patches ? 1.0 : sequence; // every rank of a cp group: one sequence
        // This pipeline stage's blocks: all of them without pipeline parallelism.
        const std::vector<LayerRange> chunks = stageLayers(m.layers, cfg, cfg.pipelineStage);
        // Blocks [lo, hi) are made alike; the longest such run is built as lo, one block for lo+1 .. hi-2, and hi-1.
        int lo = 0, hi = m.layers;
        if (const int k = policy.blockKindChange(); k > 0) {
            if (k >= m.layers - k)
                hi = k;
            else
                lo = k;
        }
        lo = std::max(lo, chunks.front().first);
        hi = std::min(hi, chunks.front().last);
        const bool repeat = layers == GraphLayers::RepeatIdentical && chunks.size() == 1 && hi - lo >= 4
            && m.moe.uniform(m.layers);
        TensorId received = kNoTensor, handed = kNoTensor;
        for (const LayerRange& chunk : chunks) {
            TensorId x = chunk.first == 0 ? embeddings() : receive(chunk.first);
            for (int l = chunk.first; l < chunk.last; ++l) {
                if (!repeat || l != lo + 1) {
                    x = layer(x, l);
                    continue;
                }
                received = x;
                const std::size_t paramsBegin = g.params.size();
                g.repeat.firstOp = std::int32_t(g.ops.size());
                x = handed = layer(x, l);
                g.repeat.lastOp = std::int32_t(g.ops.size()) - 1;
                g.repeat.count = hi - lo - 2;
                g.repeat.layer = l;
                g.repeat.forwardCarry = hi - 1;
                copyParameters(paramsBegin, g.params.size(), g.repeat.count - 1);
                l = hi - 2;
            }
            if (chunk.last == m.layers) {
                head(x);
            } else {
                b.setLayer(chunk.last - 1);
                b.send(x, "pipeline.send");
            }
        }
        if (!repeat)
            return true;
        // The built block stands for the others only if it hands on what it received (size, type, requires_grad).
        const GraphTensor& in = g.tensors[received];
        const GraphTensor& out = g.tensors[handed];
        const Linear inBytes = g.storages[in.storage].bytes, outBytes = g.storages[out.storage].bytes;
        return in.dtype == out.dtype && in.requiresGrad == out.requiresGrad && in.role == out.role
            && inBytes.fixed == outBytes.fixed && inBytes.perSample == outBytes.perSample;
    }

} // namespace detail

void buildTransformerGraph(const ModelSpec& model, const TrainingConfig& config, Graph& g, GraphLayers layers)
{
    if (layers == GraphLayers::RepeatIdentical) {
        g.clear();
        detail::TransformerBuilder builder(model, config, g);
        if (builder.build(layers))
            return;
    }
    g.clear();
    const auto& t = model.transformer;
    const std::size_t estimate = std::size_t(t.layers + 2) * 48;
    g.ops.reserve(estimate);
    g.tensors.reserve(estimate * 2);
    g.storages.reserve(estimate * 2);
    g.refs.reserve(estimate * 8);
    g.params.reserve(std::size_t(t.layers + 2) * 16);
    detail::TransformerBuilder builder(model, config, g);
    builder.build(GraphLayers::All);
}

void buildGraph(const ModelSpec& model, const TrainingConfig& config, Graph& out, GraphLayers layers)
{
    if (model.family == ModelFamily::Cnn)
        buildCnnGraph(model, config, out);
    else
        buildTransformerGraph(model, config, out, layers);
}

Graph buildGraph(const ModelSpec& model, const TrainingConfig& config, GraphLayers layers)
{
    Graph g;
    buildGraph(model, config, g, layers);
    return g;
}

} // namespace headroom
