#include "lowering.h"

#include "graphbuilder.h"
#include "pipeline.h"
#include "schedulerepeat.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>

namespace headroom {

namespace {

    // How many times an operator's forward matmul FLOPs count in the step's model FLOPs. The dense convention
    // (Narayanan et al. 2021): 3x for a matmul whose weight trains, and for one between activations (attention)
    // whenever anything before it trains. A frozen weight (PEFT, layer freezing) gets no weight gradient: 2x when its
    // input needs a gradient, 1x when nothing before it trains (the first layers over frozen embeddings).
    double modelPasses(const Graph& g, const GraphOp& op)
    {
        bool frozenWeight = false, trainedWeight = false, inputGrad = false;
        for (TensorId t : g.inputs(op)) {
            const GraphTensor& x = g.tensors[std::size_t(t)];
            const bool weight = x.role == TensorRole::Parameter || x.role == TensorRole::WeightCopy;
            const Parameter* p = weight && x.param >= 0 ? &g.params[std::size_t(x.param)] : nullptr;
            if (p && (p->matmulWeight || p->lastDim > 0.0))
                (p->trainable ? trainedWeight : frozenWeight) = true;
            else if (!p)
                inputGrad = inputGrad || x.requiresGrad || x.role == TensorRole::Input;
        }
        if (trainedWeight)
            return 3.0;
        if (frozenWeight)
            return inputGrad ? 2.0 : 1.0;
        return inputGrad ? 3.0 : 1.0;
    }

    // Which TensorIterator kernel an elementwise operator runs (graph.h LoopKind). Forward: the casting kernel where
    // an input that is a tensor (not a 0-d scalar) has another dtype than the output, but in a float-to-BF16/FP16
    // cast. Backward, as autograd's formulas (derivatives.yaml) run them: a downcast's gradient is cast back up (the
    // casting copy), and a product of mixed dtypes multiplies the gradient by the other, mixed, operand; an addition
    // hands its gradient on (cast down, vectorized). Measured on an H200 (tests/data/measured-heldout/*-kernels.*:
    // unrolled_elementwise_kernel against vectorized_elementwise_kernel).
    LoopKind loopKind(const Graph& g, const GraphOp& op, Phase phase)
    {
        // PyTorch's floating-point operators only: FP8 and 4-bit casts are Transformer Engine's and bitsandbytes'
        // own kernels.
        auto floating = [](DType t) { return t == DType::F32 || t == DType::BF16 || t == DType::F16; };
        if (op.kind != OpKind::Elementwise || op.outCount == 0)
            return LoopKind::Vectorized;
        const DType out = g.tensors[std::size_t(g.outputs(op)[0])].dtype;
        if (!floating(out))
            return LoopKind::Vectorized;
        bool mixed = false, down = false;
        for (TensorId t : g.inputs(op)) {
            const GraphTensor& x = g.tensors[std::size_t(t)];
            if ((x.numel.perSample <= 0.0 && x.numel.fixed <= 1.0) || !floating(x.dtype))
                continue;
            mixed = mixed || x.dtype != out;
            down = down || (x.dtype == DType::F32 && (out == DType::BF16 || out == DType::F16));
        }
        const bool cast = op.type == OpType::Cast;
        if (phase == Phase::Forward)
            return mixed && !(cast && down) ? LoopKind::Casting : LoopKind::Vectorized;
        return mixed && ((cast && down) || op.type == OpType::Binary) ? LoopKind::Casting : LoopKind::Vectorized;
    }

    constexpr std::int32_t kResident = -2;

    // Per-thread scratch arrays, reused across lowerings so that a slider tick allocates nothing.
    struct Scratch {
        std::vector<std::int32_t> storageProducer, block0, block1, gradBlock, paramGrad;
        std::vector<std::uint8_t> saved, seenStorage;
        std::vector<std::int32_t> allocCount, freeCount, allocFill, freeFill, freeCopies;
        std::vector<std::int32_t> labelGroup;
        std::unordered_map<const char*, std::int32_t> labelByPointer;
        std::unordered_map<std::string_view, std::int32_t> labelByText;
    };

    class Lowerer {
    public:
        Lowerer(const Graph& graph, const TrainingConfig& config, Schedule& out, Scratch& scratch)
            : g(graph)
            , cfg(config)
            , plan(planPrecision(config))
            , ranks(gradientRanks(config))
            , recompute(config.checkpointing != Checkpointing::None && !graph.regions.empty())
            , s(out)
            , storageProducer(scratch.storageProducer)
            , block0(scratch.block0)
            , block1(scratch.block1)
            , gradBlock(scratch.gradBlock)
            , paramGrad(scratch.paramGrad)
            , saved(scratch.saved)
            , sc(scratch)
        {
        }

        void run();

    private:
        // ---- blocks and uses ----
        std::int32_t newBlock(Linear bytes, MemoryCategory cat, std::int32_t step)
        {
            MemoryBlock b;
            b.bytes = bytes;
            b.category = cat;
            b.alloc = step;
            b.lastUse = step;
            s.blocks.push_back(b);
            saved.push_back(0);
            return static_cast<std::int32_t>(s.blocks.size() - 1);
        }
        void use(std::int32_t b, std::int32_t step)
        {
            if (b >= 0)
                s.blocks[b].lastUse = std::max(s.blocks[b].lastUse, step);
        }
        std::int32_t emit(Phase phase, bool isRecompute, std::int32_t op, const OpCost& cost)
        {
            Step& st = s.steps.emplace_back(); // in place: a Step is 144 bytes
            st.phase = phase;
            st.recompute = isRecompute;
            st.op = op;
            st.cost = cost;
            if (op >= 0) {
                const GraphOp& o = g.ops[op];
                st.kind = o.kind;
                st.unit = o.unit;
                st.layer = o.layer;
                st.label = o.label;
                st.convolution = o.convolution;
                st.winograd = o.winograd;
                st.alignBytes = o.alignBytes;
                st.slowBatchNorm = o.slowBatchNorm;
                st.loop = loopKind(g, o, isRecompute ? Phase::Forward : phase);
                st.layoutBytes = phase == Phase::Backward && !isRecompute ? o.backwardLayoutBytes
                                                                          : o.forwardLayoutBytes;
                const bool backward = phase == Phase::Backward && !isRecompute;
                st.kernels = backward && (o.type == OpType::Linear || o.type == OpType::Conv2d) ? 2 : 1;
                if (backward && o.columnReduceBytes.perSample + o.columnReduceBytes.fixed > 0.0) {
                    st.columnReduceBytes = o.columnReduceBytes;
                    // A bias's sum is an ATen call of the autograd node's own (AddmmBackward0: mm, mm, sum); a
                    // LayerNorm's is a second kernel of native_layer_norm_backward (backwardExtraKernels).
                    if (o.type == OpType::Linear || o.type == OpType::Conv2d)
                        ++st.kernels;
                }
                // Layout copies run inside ATen calls the host already issues for the operator: kernels, not host
                // operators.
                st.stridedBytes = backward ? o.backwardStridedBytes : o.forwardStridedBytes;
                st.efficiency = backward ? o.backwardEfficiency : o.forwardEfficiency;
                st.work = backward ? o.backwardWork : o.forwardWork;
                const int extra = backward ? o.backwardExtraKernels : o.forwardExtraKernels;
                st.hostOps = st.kernels; // the autograd node dispatches each of its kernels
                // _BatchNorm.forward in training also counts the batch: num_batches_tracked.add_(1)
                // (torch/nn/modules/batchnorm.py), an operator and a kernel of its own.
                if (o.type == OpType::BatchNorm && phase == Phase::Forward && !isRecompute)
                    st.hostOps = st.kernels = 2;
                st.kernels += extra;
            }
            const auto index = static_cast<std::int32_t>(s.steps.size() - 1);
            // cuDNN takes the workspace of the plan it runs from the caching allocator just before a convolution
            // call and gives it back after it (aten/src/ATen/native/cudnn/Conv_v8.cpp, run_conv_plan).
            if (st.convolution && cfg.cudnnWorkspaceBytes > 0.0)
                newBlock(Linear { cfg.cudnnWorkspaceBytes, 0.0 }, MemoryCategory::Transient, index);
            return index;
        }

        bool isResidentTensor(TensorId t) const
        {
            const auto& x = g.tensors[t];
            return x.role == TensorRole::Parameter || x.role == TensorRole::Input
                || (x.role == TensorRole::WeightCopy && !g.storages[x.storage].autocastCached);
        }
        bool producedInRegion(std::int32_t storage, int region) const
        {
            const std::int32_t p = storageProducer[storage];
            const auto& r = g.regions[region];
            return p >= r.firstOp && p <= r.lastOp;
        }
        std::int32_t blockFor(TensorId t, int regionContext) const
        {
            if (isResidentTensor(t))
                return -1;
            const std::int32_t st = g.tensors[t].storage;
            if (regionContext >= 0 && producedInRegion(st, regionContext))
                return block1[st];
            return block0[st];
        }
        MemoryCategory storageCategory(TensorId t) const
        {
            return g.tensors[t].role == TensorRole::WeightCopy ? MemoryCategory::WeightCopies
                                                               : MemoryCategory::Transient;
        }

        void forwardPass();
        void backwardPass();
        void recomputeRegion(int region);
        void produceGrad(TensorId t, const GraphOp& op, std::int32_t step);
        void produceParamGrad(std::int32_t param, std::int32_t step);
        void optimizerStep();
        void keepOutputs();
        void layerBuffers();
        void setupResident();
        void gradientStorage();
        void residentModelStates();
        void residentGradients();
        void communicationVolumes();
        void offloadVolumes();
        void finish();
        void inFlightMicroBatches();
        void buildEvents();
        void groupSteps();
        bool masterWeights() const
        {
            return isMixed(cfg.precision) && cfg.mixedStyle == MixedPrecisionStyle::MasterWeights;
        }

        const Graph& g;
        const TrainingConfig& cfg;
        PrecisionPlan plan;
        int ranks;
        bool recompute;
        Schedule& s;

        std::vector<std::int32_t>& storageProducer;
        std::vector<std::int32_t>&block0, &block1, &gradBlock, &paramGrad;
        std::vector<std::uint8_t>& saved;
        Scratch& sc;
        double gradElemBytes = 4.0;
        double weightBytes = 0.0;          // every parameter in its own dtype
        double trainableWeightBytes = 0.0; // the parameters that train
        double gradientBytes = 0.0;        // their gradients
        // Of those, the routed experts' under expert parallelism: ZeRO shards them over the dp / ep ranks that hold
        // the same experts (Megatron's expert data-parallel group), not over all dp.
        double expertWeightBytes = 0.0, expertTrainableWeightBytes = 0.0, expertGradientBytes = 0.0;
        double expertTrainableShare = 0.0; // of the trained parameters' elements
        double ep = 1.0;
        bool gradsResident = false;
        // This rank's ZeRO shard of `all` bytes of which `experts` belong to routed experts.
        double zeroShard(double all, double experts) const { return (all + experts * (ep - 1.0)) / ranks; }
        // Gradients take the parameter's dtype, or the master-weights gradient storage.
        double gradBytesOf(const Parameter& p) const
        {
            return masterWeights() ? gradElemBytes : bytesPerElement(p.dtype);
        }
    };

    // The memory alive for the whole step and the per-step traffic, one piece per term (as Megatron's
    // theoretical_memory_usage.py keeps one function per memory term).
    void Lowerer::setupResident()
    {
        gradientStorage();
        residentModelStates();
        residentGradients();
        communicationVolumes();
        offloadVolumes();
    }

    void Lowerer::gradientStorage()
    {
        if (masterWeights())
            gradElemBytes = cfg.masterGradients == GradientStorage::FP32 ? 4.0 : bytesPerElement(plan.paramType);
        else
            gradElemBytes = bytesPerElement(plan.paramType);
        s.gradientType = gradElemBytes == 4.0 ? DType::F32 : plan.paramType;
        s.parameters = s.activeParameters = s.trainableParameters = s.parametersPerGpu = 0.0;
        weightBytes = trainableWeightBytes = gradientBytes = 0.0;
        expertWeightBytes = expertTrainableWeightBytes = expertGradientBytes = 0.0;
        ep = std::max(1, cfg.expertParallel);
        double trainable = 0.0, expertTrainable = 0.0;
        for (const auto& p : g.params) {
            const double w = p.numel * bytesPerElement(p.dtype);
            const bool expert = p.expertShards > 1.0;
            s.parameters += p.numel * p.shards; // the whole model; memory below is this GPU's share
            s.activeParameters += p.numel * p.shards * p.activeShare;
            s.parametersPerGpu += p.numel;
            weightBytes += w;
            expertWeightBytes += expert ? w : 0.0;
            if (!p.trainable)
                continue;
            s.trainableParameters += p.numel * p.shards;
            trainableWeightBytes += w;
            gradientBytes += p.numel * gradBytesOf(p);
            trainable += p.numel;
            if (expert) {
                expertTrainableWeightBytes += w;
                expertGradientBytes += p.numel * gradBytesOf(p);
                expertTrainable += p.numel;
            }
        }
        expertTrainableShare = trainable > 0.0 ? expertTrainable / trainable : 0.0;
    }

    void Lowerer::residentModelStates()
    {
        const int zero = cfg.zeroStage;

        // Parameters, each in its own dtype: a 1/N shard under ZeRO-3 (ZeRO paper, sec. 5.3, P_p).
        s.resident[index(MemoryCategory::Weights)] = fixedAmount(zero >= 3 ? zeroShard(weightBytes, expertWeightBytes)
                                                                           : weightBytes);

        // Persistent FP8 weight copies and the input batch.
        for (const auto& x : g.tensors) {
            const bool firstOfStorage = storageProducer[x.storage] == x.producer;
            if (x.role == TensorRole::WeightCopy && !g.storages[x.storage].autocastCached && firstOfStorage) {
                // A copy per real block.
                s.resident[index(MemoryCategory::WeightCopies)] += g.storages[x.storage].bytes
                    * double(g.copies(x.producer));
            } else if (x.role == TensorRole::Input)
                s.resident[index(MemoryCategory::Transient)] += g.storages[x.storage].bytes;
        }

        // Optimizer states and master weights: a 1/N shard from ZeRO-1 on; on the host when offloaded.
        const double gradBytesForOptimizer = s.trainableParameters > 0 ? gradientBytes / s.trainableParameters
                                                                       : gradElemBytes;
        s.optimizer = optimizerFootprint(g, cfg, plan.paramType, gradBytesForOptimizer);
        s.optimizerTempBlock = -1; // optimizerStep() sets them
        s.optimizerTempTensors.clear();
        const double shard = zero >= 1 ? zeroShard(1.0, expertTrainableShare) : 1.0;
        if (cfg.offloadOptimizer) {
            s.hostBytes = (s.optimizer.stateBytes + s.optimizer.masterBytes) * shard;
        } else if (s.optimizer.paged) {
            // Paged states are counted where the driver can always put them: host memory. The GPU's peak leaves them
            // out; they take whatever room is left on the GPU and are paged in over PCIe when there is none.
            s.hostBytes = s.optimizer.stateBytes * shard;
            s.resident[index(MemoryCategory::OptimizerStates)] = fixedAmount(s.optimizer.masterBytes * shard);
        } else {
            s.resident[index(MemoryCategory::OptimizerStates)] = fixedAmount(
                (s.optimizer.stateBytes + s.optimizer.masterBytes) * shard);
        }
    }

    void Lowerer::residentGradients()
    {
        const int zero = cfg.zeroStage;
        const bool master = masterWeights();
        // Gradients that exist before backward starts: accumulation over micro-batches keeps them, and Megatron
        // allocates its FP32 main_grad buffer once at start-up.
        gradsResident = cfg.gradientAccumulation > 1 || (master && cfg.masterGradients == GradientStorage::FP32);
        const bool gradsOnHost = cfg.offloadOptimizer && zero >= 2;
        paramGrad.assign(g.params.size(), -1);
        if (gradsResident) {
            if (!gradsOnHost)
                s.resident[index(MemoryCategory::Gradients)] += fixedAmount(
                    zero >= 2 ? zeroShard(gradientBytes, expertGradientBytes) : gradientBytes);
            for (std::size_t i = 0; i < g.params.size(); ++i)
                paramGrad[i] = g.params[i].trainable ? kResident : -1;
        }
        // PyTorch DistributedDataParallel keeps flat gradient buckets as large as all gradients
        // (gradient_as_bucket_view defaults to False). DeepSpeed and Megatron reduce in their own contiguous
        // gradient buffers, which the ZeRO paper's baseline (16 bytes per parameter) already counts.
        if (ranks > 1 && zero == 0 && !master)
            s.resident[index(MemoryCategory::Gradients)] += fixedAmount(gradientBytes);
    }

    void Lowerer::communicationVolumes()
    {
        const int zero = cfg.zeroStage;
        // Collectives per rank (NCCL ring volumes, nccl-tests PERFORMANCE.md; ZeRO paper sec. 7). Only trained
        // parameters have gradients to reduce and new values to gather; ZeRO-3 gathers every weight.
        // Routed experts reduce over their expert data-parallel group of dp / ep ranks, the rest over all dp.
        s.commBytesPerStep = s.commBytesPerMicroBatch = 0.0;
        s.dpCallsPerStep = s.dpCallsPerMicroBatch = 0.0;
        // One collective per 25 MiB bucket (PyTorch DDP's bucket_cap_mb; DeepSpeed's buckets are larger, so this
        // counts at least as many calls as it makes).
        auto calls = [](double bytes) { return bytes > 0.0 ? std::ceil(bytes / (25.0 * 1024 * 1024)) : 0.0; };
        auto group = [&](double n, double sg, double sw, double wb) {
            if (n <= 1.0)
                return;
            const double f = (n - 1.0) / n;
            switch (zero) {
            case 0:
                s.commBytesPerStep += 2.0 * f * sg;
                s.dpCallsPerStep += calls(sg);
                break;
            case 1:
                s.commBytesPerStep += f * (sg + sw);
                s.dpCallsPerStep += calls(sg) + calls(sw);
                break;
            case 2:
                s.commBytesPerMicroBatch += f * sg;
                s.commBytesPerStep += f * sw;
                s.dpCallsPerMicroBatch += calls(sg);
                s.dpCallsPerStep += calls(sw);
                break;
            default:
                s.commBytesPerMicroBatch += f * (2.0 * wb + sg);
                s.dpCallsPerMicroBatch += 2.0 * calls(wb) + calls(sg);
                break;
            }
        };
        group(ranks, gradientBytes - expertGradientBytes, trainableWeightBytes - expertTrainableWeightBytes,
              weightBytes - expertWeightBytes);
        group(ranks / ep, expertGradientBytes, expertTrainableWeightBytes, expertWeightBytes);
    }

    void Lowerer::offloadVolumes()
    {
        const int zero = cfg.zeroStage;
        if (cfg.offloadOptimizer) {
            const double shard = 1.0 / (zero >= 1 ? ranks : 1);
            s.offloadParameters = s.trainableParameters * shard;
            s.offloadBytesPerStep = (gradientBytes + trainableWeightBytes) * shard;
        }
    }

    void Lowerer::forwardPass()
    {
        const std::int32_t nOps = static_cast<std::int32_t>(g.ops.size());
        s.savedWeightCopyBytes = {};
        for (std::int32_t i = 0; i < nOps; ++i) {
            const GraphOp& op = g.ops[i];
            const std::int32_t step = emit(Phase::Forward, false, i, op.forward);
            for (TensorId t : g.outputs(op)) {
                if (isResidentTensor(t))
                    continue;
                const std::int32_t st = g.tensors[t].storage;
                if (block0[st] < 0)
                    block0[st] = newBlock(g.storages[st].bytes, storageCategory(t), step);
                use(block0[st], step);
            }
            for (TensorId t : g.inputs(op))
                use(blockFor(t, -1), step);
            if (!(recompute && op.region >= 0)) {
                for (TensorId t : g.saved(op)) {
                    const std::int32_t b = blockFor(t, -1);
                    if (b < 0)
                        continue;
                    if (!saved[b] && g.tensors[t].role == TensorRole::WeightCopy)
                        s.savedWeightCopyBytes += s.blocks[std::size_t(b)].bytes * double(g.copies(i));
                    saved[b] = 1;
                }
            } else {
                // Inside a checkpointed region nothing is kept; the region's inputs are kept by the checkpoint
                // itself, which the recomputation's use of them expresses.
            }
        }
        s.forwardEnd = nOps - 1;
        // Autocast caches casts of leaf weights until the forward pass leaves the autocast region.
        for (std::size_t st = 0; st < g.storages.size(); ++st) {
            if (g.storages[st].autocastCached && block0[st] >= 0)
                use(block0[st], s.forwardEnd);
        }
    }

    void Lowerer::recomputeRegion(int region)
    {
        const auto& r = g.regions[region];
        for (std::int32_t j = r.firstOp; j <= r.lastOp; ++j) {
            const GraphOp& op = g.ops[j];
            const std::int32_t step = emit(Phase::Backward, true, j, op.forward);
            for (TensorId t : g.outputs(op)) {
                if (isResidentTensor(t))
                    continue;
                const std::int32_t st = g.tensors[t].storage;
                if (producedInRegion(st, region)) {
                    if (block1[st] < 0)
                        block1[st] = newBlock(g.storages[st].bytes, storageCategory(t), step);
                    use(block1[st], step);
                } else {
                    use(block0[st], step);
                }
            }
            for (TensorId t : g.inputs(op)) {
                const std::int32_t b = blockFor(t, region);
                use(b, step);
                // What the region takes from outside it is held by the checkpoint from the forward pass to this
                // recomputation (torch.utils.checkpoint keeps the function's arguments): an activation, whether
                // or not an operator saves it. Under autocast the layer's FP32 input is only cast and added,
                // never saved, and was counted as a temporary (BERT MLM, BF16 autocast: 21.6 % too few
                // activation bytes).
                if (b >= 0 && !producedInRegion(g.tensors[t].storage, region))
                    saved[b] = 1;
            }
            for (TensorId t : g.saved(op)) {
                const std::int32_t b = blockFor(t, region);
                if (b >= 0)
                    saved[b] = 1;
            }
        }
    }

    void Lowerer::produceParamGrad(std::int32_t param, std::int32_t step)
    {
        const Parameter& p = g.params[param];
        const double incoming = p.numel * bytesPerElement(p.dtype);
        const bool zeroShards = cfg.zeroStage >= 2;
        if (paramGrad[param] < 0 && paramGrad[param] != kResident) {
            // First gradient of this parameter: AccumulateGrad keeps the incoming tensor as .grad. Under ZeRO-2/3
            // the full gradient sits in the layer's reduce bucket and only this rank's shard stays.
            double bytes = p.numel * gradBytesOf(p) * (zeroShards ? p.expertShards / ranks : 1.0);
            if (cfg.offloadOptimizer && zeroShards)
                bytes = 0.0;
            paramGrad[param] = newBlock(fixedAmount(bytes), MemoryCategory::Gradients, step);
            return;
        }
        // Accumulation into an existing gradient (a tied weight's second use, a later micro-batch, Megatron's
        // main_grad): the incoming tensor lives for this step only. Under ZeRO-2/3 it is in the bucket already.
        if (!zeroShards)
            use(newBlock(fixedAmount(incoming), MemoryCategory::Transient, step), step);
        if (paramGrad[param] >= 0)
            use(paramGrad[param], step);
    }

    void Lowerer::produceGrad(TensorId t, const GraphOp& op, std::int32_t step)
    {
        const GraphTensor& x = g.tensors[t];
        if (x.role == TensorRole::Parameter) {
            produceParamGrad(x.param, step);
            return;
        }
        const Linear bytes = x.numel * bytesPerElement(x.dtype);
        if (gradBlock[t] < 0) {
            if (op.type == OpType::Add && op.outCount > 0) {
                const TensorId out = g.outputs(op)[0];
                const GraphTensor& o = g.tensors[out];
                if (gradBlock[out] >= 0 && o.dtype == x.dtype && o.numel.perSample == x.numel.perSample
                    && o.numel.fixed == x.numel.fixed) {
                    gradBlock[t] = gradBlock[out]; // AddBackward returns the incoming gradient itself
                    use(gradBlock[t], step);
                    return;
                }
            }
            gradBlock[t] = newBlock(bytes, MemoryCategory::Transient, step);
        } else {
            use(newBlock(bytes, MemoryCategory::Transient, step), step); // accumulated, then freed
            // The engine sums a tensor's gradients as they arrive (torch/csrc/autograd/input_buffer.cpp, accumulate:
            // an add, in place where it can): a kernel reading two gradients and writing one. A GPU kernel only: the
            // host's cost per backward node is fitted per its first kernel (graphbuilderops.cpp, unary).
            Step& st = s.steps[std::size_t(step)];
            ++st.kernels;
            if (st.accumulations < 255)
                ++st.accumulations;
            st.cost.bytes += bytes * 3.0;
        }
        use(gradBlock[t], step);
    }

    void Lowerer::backwardPass()
    {
        const std::int32_t nOps = static_cast<std::int32_t>(g.ops.size());
        for (std::int32_t i = nOps - 1; i >= 0; --i) {
            const GraphOp& op = g.ops[i];
            if (recompute && op.region >= 0 && g.regions[op.region].lastOp == i)
                recomputeRegion(op.region);

            bool anyInputGrad = false;
            for (TensorId t : g.inputs(op))
                anyInputGrad = anyInputGrad || g.tensors[t].requiresGrad;
            // The loss is the root of backward, and so is each pipeline send, whose gradient the next stage sends.
            bool anyOutputGrad = (i == nOps - 1) || op.type == OpType::Send;
            for (TensorId t : g.outputs(op))
                anyOutputGrad = anyOutputGrad || gradBlock[t] >= 0;
            if (!anyInputGrad || !anyOutputGrad)
                continue;

            const std::int32_t step = emit(Phase::Backward, false, i, op.backward);
            if (op.backwardScratch.fixed > 0.0 || op.backwardScratch.perSample > 0.0)
                use(newBlock(op.backwardScratch, MemoryCategory::Transient, step), step);
            const int ctx = (recompute && op.region >= 0) ? op.region : -1;
            for (TensorId t : g.saved(op))
                use(blockFor(t, ctx), step);
            for (TensorId t : g.outputs(op)) {
                if (gradBlock[t] >= 0)
                    use(gradBlock[t], step);
            }
            for (TensorId t : g.inputs(op)) {
                if (g.tensors[t].requiresGrad)
                    produceGrad(t, op, step);
            }
        }
    }

    // TrainingLoop::KeepOutputs: `output = model(x); loss = loss_fn(output, y); loss.backward()` holds the model's
    // output in a Python variable until backward has run, where the loop that drops it frees it after the loss.
    void Lowerer::keepOutputs()
    {
        s.modelOutputBytes = {};
        if (g.modelOutput == kNoTensor)
            return;
        s.modelOutputBytes = g.storages[g.tensors[g.modelOutput].storage].bytes;
        // Either loop holds the output, and the cache with it, to the end of the forward pass at least: the loss is
        // computed while `logits` is still a local of the model's forward (transformers' *ForCausalLM.forward
        // returns it beside the loss) or of the loop (`output = model(x); loss = loss_fn(output, y)`).
        auto holdTo = [&](std::int32_t step) {
            use(blockFor(g.modelOutput, -1), step);
            for (const TensorId t : g.cacheTensors)
                use(blockFor(t, -1), step);
        };
        holdTo(s.forwardEnd);
        const auto last = static_cast<std::int32_t>(s.steps.size()) - 1;
        if (cfg.loop == TrainingLoop::KeepOutputs && last > s.forwardEnd)
            holdTo(last);
    }

    void Lowerer::layerBuffers()
    {
        const int zero = cfg.zeroStage;
        if (zero < 2)
            return;
        // Layer index -1 .. layers: shift by one.
        int maxLayer = 0;
        for (const auto& op : g.ops)
            maxLayer = std::max<int>(maxLayer, op.layer);
        const int n = maxLayer + 2;
        std::vector<std::int32_t> firstF(n, -1), lastF(n, -1), firstB(n, -1), lastB(n, -1);
        for (std::int32_t i = 0; i < static_cast<std::int32_t>(s.steps.size()); ++i) {
            const Step& st = s.steps[i];
            if (st.op < 0)
                continue;
            const int l = st.layer + 1;
            auto& first = st.phase == Phase::Forward ? firstF : firstB;
            auto& last = st.phase == Phase::Forward ? lastF : lastB;
            if (first[l] < 0)
                first[l] = i;
            last[l] = i;
        }
        std::vector<double> used(n, 0.0), owned(n, 0.0);
        std::vector<std::uint8_t> seen(g.params.size() * n, 0);
        for (const auto& op : g.ops) {
            for (TensorId t : g.inputs(op)) {
                const std::int32_t p = g.tensors[t].param;
                if (p < 0)
                    continue;
                const int l = op.layer + 1;
                if (!seen[std::size_t(p) * n + l]) {
                    seen[std::size_t(p) * n + l] = 1;
                    used[l] += g.params[p].numel * bytesPerElement(g.params[p].dtype);
                }
            }
        }
        for (const auto& p : g.params) {
            if (p.trainable) // the bucket holds the gradients as backward produces them, in the parameter's dtype
                owned[p.layer + 1] += p.numel * bytesPerElement(p.dtype);
        }
        for (int l = 0; l < n; ++l) {
            // ZeRO-3 gathers a layer's parameters before it runs and releases them after, in forward and again in
            // backward (DeepSpeed stage3 pre/post-forward hooks).
            if (zero >= 3 && used[l] > 0.0) {
                if (firstF[l] >= 0)
                    use(newBlock(fixedAmount(used[l]), MemoryCategory::Transient, firstF[l]), lastF[l]);
                if (firstB[l] >= 0)
                    use(newBlock(fixedAmount(used[l]), MemoryCategory::Transient, firstB[l]), lastB[l]);
            }
            // ZeRO-2/3 reduce-scatter a layer's gradients from a full-size bucket once its backward is done.
            if (owned[l] > 0.0 && firstB[l] >= 0)
                use(newBlock(fixedAmount(owned[l]), MemoryCategory::Transient, firstB[l]), lastB[l]);
        }
    }

    void Lowerer::optimizerStep()
    {
        const double shard = cfg.zeroStage >= 1 ? zeroShard(1.0, expertTrainableShare) : 1.0;
        OpCost cost;
        if (!cfg.offloadOptimizer) {
            cost.flops = fixedAmount(s.optimizer.flops * shard);
            cost.bytes = fixedAmount(s.optimizer.trafficBytes * shard);
        }
        const std::int32_t step = emit(Phase::Optimizer, false, -1, cost);
        Step& st = s.steps[step];
        st.kind = OpKind::Optimizer;
        st.unit = MathUnit::Fp32Vector;
        st.layer = static_cast<std::int16_t>(g.layers);
        st.label = s.optimizer.implementation;
        st.kernels = s.optimizer.kernels;
        st.hostOps = s.optimizer.hostOps;
        s.optimizerBegin = step;
        // Gradients stay until the optimizer has consumed them (zero_grad(set_to_none=True) frees them after).
        for (std::int32_t b : paramGrad)
            use(b, step);
        if (s.optimizer.tempBytes <= 0.0 || cfg.offloadOptimizer)
            return;
        const std::int32_t temp = newBlock(fixedAmount(s.optimizer.tempBytes * shard), MemoryCategory::Transient, step);
        use(temp, step);
        if (s.optimizer.tempPerTensor && cfg.zeroStage == 0) { // ZeRO steps a flat partition: one tensor
            s.optimizerTempBlock = temp;
            for (const Parameter& p : g.params) {
                if (p.trainable)
                    s.optimizerTempTensors.push_back(p.numel * bytesPerElement(p.dtype));
            }
        }
    }

    void Lowerer::finish()
    {
        // A transient block that autograd saved for backward is an activation.
        for (std::size_t b = 0; b < s.blocks.size(); ++b) {
            if (saved[b] && s.blocks[b].category == MemoryCategory::Transient)
                s.blocks[b].category = MemoryCategory::Activations;
        }
        inFlightMicroBatches();
        detail::markRepeats(g, s);
        buildEvents();
        detail::repeatDeltas(s);
        Linear tpMessages;
        s.pipelineBytesPerMicroBatch = s.epCommBytesPerMicroBatch = s.cpCommBytesPerMicroBatch = {};
        s.tpCallsPerMicroBatch = s.epCallsPerMicroBatch = s.pipelineCallsPerMicroBatch = 0.0;
        for (std::int32_t i = 0; i < std::int32_t(g.ops.size()); ++i) {
            const GraphOp& op = g.ops[std::size_t(i)];
            const double copies = g.copies(i); // a repeated block's operator runs once per block
            s.modelFlops += op.modelFlops * (modelPasses(g, op) * copies);
            tpMessages += op.tpMessage * copies;
            // One collective forward and one backward for each operator that has a message.
            s.tpCallsPerMicroBatch += op.tpCalls * copies;
            if (op.epMessage.fixed > 0.0 || op.epMessage.perSample > 0.0)
                s.epCallsPerMicroBatch += 2.0 * copies;
            if (op.type == OpType::Send || op.type == OpType::Receive)
                s.pipelineCallsPerMicroBatch += 2.0; // the activation one way, its gradient back
            s.epCommBytesPerMicroBatch += op.epMessage * copies;
            s.cpCommBytesPerMicroBatch += op.cpMessage * copies;
            // A stage sends its output forward and, in backward, the gradient of its input back.
            if (op.type == OpType::Send)
                s.pipelineBytesPerMicroBatch += g.storages[g.tensors[g.inputs(op)[0]].storage].bytes;
            else if (op.type == OpType::Receive)
                s.pipelineBytesPerMicroBatch += g.storages[g.tensors[g.outputs(op)[0]].storage].bytes;
        }
        // Ring all-reduce: each rank sends and receives 2 (t - 1) / t of the message (nccl-tests PERFORMANCE.md).
        const double t = std::max(1, cfg.tensorParallel);
        s.tpCommBytesPerMicroBatch = tpMessages * (2.0 * (t - 1.0) / t);
        groupSteps();
        s.tokensPerSample = g.samplesTokens;
        s.layers = g.layers;
    }

    // A pipeline stage holds the activations of the micro-batches it has run forward and not yet backward (pipeline.h):
    // in the steady state of 1F1B, k - 1 others beside the one it runs, in forward and in backward alike, and none
    // once the optimizer steps. One block stands for them: k - 1 times what this micro-batch keeps from the end of
    // its forward pass to its backward (saved activations and the tensors still live, the received input among
    // them), a repeated block's counted once per block.
    void Lowerer::inFlightMicroBatches()
    {
        s.inFlightKept = {};
        s.inFlightOthers = headroom::inFlightMicroBatches(cfg, cfg.pipelineStage) - 1.0;
        if (s.forwardEnd < 0)
            return;
        std::int32_t lastBackward = -1;
        for (std::int32_t i = 0; i < std::int32_t(s.steps.size()); ++i) {
            if (s.steps[std::size_t(i)].phase == Phase::Backward)
                lastBackward = i;
        }
        if (lastBackward < 0)
            return;
        Linear kept;
        for (const MemoryBlock& b : s.blocks) {
            const bool activation = b.category == MemoryCategory::Activations
                || b.category == MemoryCategory::Transient;
            if (!activation || b.alloc < 0 || b.alloc > s.forwardEnd || b.lastUse <= s.forwardEnd)
                continue;
            const std::int32_t op = s.steps[std::size_t(b.alloc)].op;
            kept += b.bytes * double(op >= 0 ? g.copies(op) : 1);
        }
        s.inFlightKept = kept;
        if (s.inFlightOthers <= 0.0 || (kept.fixed == 0.0 && kept.perSample == 0.0))
            return;
        s.inFlightBlock = newBlock(kept * s.inFlightOthers, MemoryCategory::Activations, 0);
        use(s.inFlightBlock, lastBackward);
    }

    // Each step's allocations, then its frees, as one flat list (Schedule::events) that walkSchedule reads.
    void Lowerer::buildEvents()
    {
        const std::size_t nSteps = s.steps.size();
        auto& allocCount = sc.allocCount;
        auto& freeCount = sc.freeCount;
        allocCount.assign(nSteps, 0);
        freeCount.assign(nSteps, 0);
        auto& copies = sc.freeCopies;
        copies.resize(s.blocks.size());
        for (std::size_t i = 0; i < s.blocks.size(); ++i) {
            const MemoryBlock& b = s.blocks[i];
            if (b.alloc < 0)
                continue;
            copies[i] = detail::freeCopies(s, b);
            ++allocCount[b.alloc];
            freeCount[std::max(b.alloc, b.lastUse)] += copies[i];
        }
        std::int32_t offset = 0;
        for (std::size_t i = 0; i < nSteps; ++i) {
            s.steps[i].eventsBegin = offset;
            s.steps[i].allocCount = allocCount[i];
            s.steps[i].freeCount = freeCount[i];
            offset += allocCount[i] + freeCount[i];
        }
        s.events.assign(offset, -1);
        auto& allocFill = sc.allocFill;
        auto& freeFill = sc.freeFill;
        allocFill.assign(nSteps, 0);
        freeFill.assign(nSteps, 0);
        for (std::int32_t b = 0; b < static_cast<std::int32_t>(s.blocks.size()); ++b) {
            const auto& blk = s.blocks[b];
            if (blk.alloc < 0)
                continue;
            const Step& a = s.steps[blk.alloc];
            s.events[a.eventsBegin + allocFill[blk.alloc]++] = b;
            const std::int32_t f = std::max(blk.alloc, blk.lastUse);
            const Step& fr = s.steps[f];
            for (int k = copies[std::size_t(b)]; k > 0; --k) // a block every run allocated: freed once per run
                s.events[fr.eventsBegin + fr.allocCount + freeFill[f]++] = b;
        }
    }

    void Lowerer::groupSteps()
    {
        const std::size_t nSteps = s.steps.size();
        // Group steps by label text, phase and kind. Labels are mostly string literals shared by every layer, so
        // a first pass finds each distinct label once (by content) and the groups follow from it.
        auto& byPointer = sc.labelByPointer;
        auto& byText = sc.labelByText;
        byPointer.clear();
        byText.clear();
        s.stepGroup.resize(nSteps);
        auto& groupOf = sc.labelGroup; // label index * 3 phases * kinds -> group
        groupOf.clear();
        constexpr int kSlots = 3 * kOpKindCount;
        const char* lastPointer = nullptr;
        std::int32_t lastLabel = -1;
        for (std::size_t i = 0; i < nSteps; ++i) {
            const Step& st = s.steps[i];
            const Phase shown = st.recompute ? Phase::Forward : st.phase; // recomputation is forward work
            std::int32_t label = lastLabel;
            if (st.label.data() != lastPointer) {
                auto p = byPointer.find(st.label.data());
                if (p != byPointer.end()) {
                    label = p->second;
                } else {
                    auto [t, inserted] = byText.try_emplace(st.label, std::int32_t(byText.size()));
                    if (inserted)
                        groupOf.resize(groupOf.size() + kSlots, -1);
                    label = t->second;
                    byPointer.emplace(st.label.data(), label);
                }
                lastPointer = st.label.data();
                lastLabel = label;
            }
            std::int32_t& slot
                = groupOf[std::size_t(label) * kSlots + std::size_t(shown) * kOpKindCount + std::size_t(st.kind)];
            if (slot < 0) {
                slot = std::int32_t(s.groups.size());
                s.groups.push_back({ st.label, shown, st.kind, st.unit });
            }
            s.stepGroup[i] = slot;
        }
    }

    void Lowerer::run()
    {
        s.names = g.names;
        s.blocks.clear();
        s.groups.clear();
        s.stepGroup.clear();
        s.events.clear();
        s.steps.clear();
        s.repeats.clear();
        s.stepRepeat.clear();
        s.realSteps = 0;
        s.resident = {};
        s.modelFlops = {};
        s.commBytesPerMicroBatch = s.commBytesPerStep = s.offloadBytesPerStep = s.offloadParameters = s.hostBytes = 0.0;
        s.tpCommBytesPerMicroBatch = {};
        s.inFlightBlock = -1;
        saved.clear();
        const std::size_t nStorages = g.storages.size();
        storageProducer.assign(nStorages, -1);
        auto& seenStorage = sc.seenStorage;
        seenStorage.assign(nStorages, 0);
        for (const auto& t : g.tensors) {
            if (!seenStorage[t.storage]) {
                seenStorage[t.storage] = 1;
                storageProducer[t.storage] = t.producer;
            }
        }
        block0.assign(nStorages, -1);
        block1.assign(nStorages, -1);
        gradBlock.assign(g.tensors.size(), -1);
        s.blocks.reserve(g.tensors.size() * 3);
        s.steps.reserve(g.ops.size() * 3 + 2);
        setupResident();
        forwardPass();
        backwardPass();
        keepOutputs();
        layerBuffers();
        optimizerStep();
        finish();
    }

} // namespace

void lowerTrainingStep(const Graph& graph, const TrainingConfig& config, Schedule& out)
{
    thread_local Scratch scratch;
    Lowerer lowerer(graph, config, out, scratch);
    lowerer.run();
}

Schedule lowerTrainingStep(const Graph& graph, const TrainingConfig& config)
{
    Schedule s;
    lowerTrainingStep(graph, config, s);
    return s;
}

bool retargetInFlight(Schedule& s, const TrainingConfig& config)
{
    const double others = inFlightMicroBatches(config, config.pipelineStage) - 1.0;
    const bool nothingKept = s.inFlightKept.fixed == 0.0 && s.inFlightKept.perSample == 0.0;
    if (others == s.inFlightOthers || (nothingKept && s.inFlightBlock < 0)) {
        s.inFlightOthers = others;
        return true;
    }
    if (s.inFlightBlock < 0 || others <= 0.0)
        return false; // the block is missing, or would be: lowered anew
    s.blocks[std::size_t(s.inFlightBlock)].bytes = s.inFlightKept * others;
    s.inFlightOthers = others;
    detail::repeatDeltas(s); // in case the block starts or ends inside a repeated block
    return true;
}

void shiftLayers(Schedule& s, int shift)
{
    for (Step& step : s.steps) {
        if (step.op >= 0)
            step.layer = static_cast<std::int16_t>(step.layer + shift);
    }
    for (StepRepeat& r : s.repeats) {
        r.layer += shift;
        r.carry += shift;
    }
}

TrainingConfig inFlightFreeKey(TrainingConfig key)
{
    // The micro-batches per step shape the lowering through whether gradients persist between them (more than one)
    // and the in-flight block, which retargetInFlight sets.
    key.gradientAccumulation = std::min(key.gradientAccumulation, 2);
    return key;
}

TrainingConfig scheduleKey(const TrainingConfig& config)
{
    // Memory is linear in the micro-batch (the schedule holds lines, evaluate() picks the point); the framework
    // overhead and the allocator reserve are added after the walk. Everything else shapes the graph or its lowering.
    TrainingConfig key = config;
    const TrainingConfig defaults;
    key.microBatch = defaults.microBatch;
    key.overheadBytes = defaults.overheadBytes;
    key.allocatorReserveFraction = defaults.allocatorReserveFraction;
    key.expandableSegments = defaults.expandableSegments;
    key.cublasWorkspaceBytes = defaults.cublasWorkspaceBytes; // in the overhead: the cuDNN workspace is a block
    key.ncclChannels = defaults.ncclChannels;                 // NCCL's buffers are added to the allocator's figures
    key.cluster = defaults.cluster;                           // links set the communication time only
    key.host = defaults.host;                                 // the host sets the time only
    if (key.attention != AttentionImpl::Fused) // the GPU's compute capability matters to SDPA's kernel choice only
        key.computeCapability = defaults.computeCapability;
    // The micro-batches per step shape the lowering only through whether gradients persist between micro-batches
    // (more than one) and, with a pipeline, how many each stage holds in flight: 1F1B holds min(m, p - s), the same
    // for every m of at least p. GPipe and the interleaved schedule keep m.
    if (key.pipelineSchedule == PipelineSchedule::OneFOneB && key.gradientAccumulation > 1)
        key.gradientAccumulation = std::max(2, std::min(key.gradientAccumulation, std::max(1, key.pipelineParallel)));
    return key;
}

TrainingConfig graphShapingKey(TrainingConfig key)
{
    const TrainingConfig defaults;
    key.zeroStage = defaults.zeroStage;
    key.dataParallel = defaults.dataParallel;
    key.gradientAccumulation = defaults.gradientAccumulation;
    return key;
}

} // namespace headroom
