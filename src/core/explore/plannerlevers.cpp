// The planner's levers (precision, optimizer, ZeRO-Offload, LoRA/QLoRA), the links each layout's collectives take
// and the assumptions every row of a plan takes as given.

#include "plannerdetail.h"

#include "pipeline.h"
#include "report.h"

#include <algorithm>
#include <cmath>

namespace headroom {

namespace detail {

    std::vector<LeverVariant> leverVariants(const PlanLevers& levers, const TrainingConfig& base, const GpuSpec& gpu,
                                            const ModelSpec& model)
    {
        LeverVariant own;
        own.precision = base.precision;
        own.optimizer = base.optimizer;
        own.adamImpl = base.adamImpl;
        own.offload = base.offloadOptimizer;
        own.method = base.finetune.method;
        std::vector<LeverVariant> v { own };
        auto with = [&](auto change, std::string name) {
            LeverVariant x = own;
            change(x);
            x.levers.push_back(std::move(name));
            v.push_back(std::move(x));
        };
        const bool transformer = model.family == ModelFamily::Transformer;
        const bool full = base.finetune.method == FinetuneMethod::Full;
        const bool autocast16 = (base.precision == Precision::MixedBF16 || base.precision == Precision::MixedFP16)
            && base.mixedStyle == MixedPrecisionStyle::Autocast;
        if (levers.precision && autocast16 && gpu.supports(MathUnit::Bf16Tensor))
            with([](LeverVariant& x) { x.precision = Precision::PureBF16; }, "bf16-pure");
        // Transformer Engine's FP8 GEMMs: only on FP8 tensor cores (compute capability 8.9 and up), for transformers.
        if (levers.precision && transformer && base.precision == Precision::MixedBF16
            && gpu.supports(MathUnit::Fp8Tensor))
            with([](LeverVariant& x) { x.precision = Precision::MixedFP8; }, "fp8");
        const bool adam = base.optimizer == OptimizerKind::AdamW || base.optimizer == OptimizerKind::Adam;
        if (levers.optimizer && adam) {
            if (base.adamImpl != AdamImpl::Fused)
                with([](LeverVariant& x) { x.adamImpl = AdamImpl::Fused; }, "adamw-fused");
            for (OptimizerKind k : { OptimizerKind::AdamW8bit, OptimizerKind::PagedAdamW, OptimizerKind::PagedAdamW8bit,
                                     OptimizerKind::Adafactor })
                with([k](LeverVariant& x) { x.optimizer = k; }, std::string(toString(k)));
        }
        if (levers.offload && !base.offloadOptimizer)
            with([](LeverVariant& x) { x.offload = true; }, "offload");
        if (full && transformer) {
            for (FinetuneMethod m : levers.finetune) {
                if (m != FinetuneMethod::Full)
                    with([m](LeverVariant& x) { x.method = m; }, std::string(toString(m)));
            }
        }
        return v;
    }

    std::vector<std::string> planAssumptions(const PlanRequest& r, const GpuSpec& gpu)
    {
        const TrainingConfig& c = r.base.config;
        const ClusterConfig& cl = c.cluster;
        std::vector<std::string> a;
        const double memory = r.base.overrides.memoryBytes.value_or(gpu.memoryBytes());
        std::string g = std::to_string(r.gpus) + " x " + gpu.name + " (" + formatBytes(memory) + " each)";
        if (r.base.overrides.memoryBytes || r.base.overrides.bandwidthBytesPerSecond
            || r.base.overrides.peakFlopsPerSecond)
            g += "; what-if figures: " + r.base.overrides.note;
        a.push_back(g);
        const int nodes = (r.gpus + r.gpusPerNode - 1) / r.gpusPerNode;
        a.push_back(std::to_string(nodes) + (nodes == 1 ? " node" : " nodes") + " of up to "
                    + std::to_string(r.gpusPerNode) + " GPUs; tensor parallelism stays inside a node");
        a.push_back(cl.intraLink == LinkKind::Auto
                        ? "inside a node: auto, the GPU file's NVLink where a group fits on it, else its PCIe "
                          "(pcie-shm without peer-to-peer); --intra-link sets it"
                        : "inside a node: " + std::string(toString(cl.intraLink)) + " (given)");
        if (nodes > 1)
            a.push_back(cl.interLink == LinkKind::Auto
                            ? "between nodes: ib-hdr (auto); --inter-link sets it"
                            : "between nodes: " + std::string(toString(cl.interLink)) + " (given)");
        a.push_back("global batch " + std::to_string(r.globalBatch) + " samples, sequence "
                    + std::to_string(c.sequenceLength) + "; precision " + std::string(toString(c.precision))
                    + ", optimizer " + std::string(toString(c.optimizer)) + ", attention "
                    + std::string(toString(c.attention)) + ", " + std::string(toString(c.finetune.method))
                    + " training, unless a row's levers change them");
        std::string levers;
        for (const auto& [on, name] :
             { std::pair { r.levers.precision, "precision" }, std::pair { r.levers.optimizer, "optimizer" },
               std::pair { r.levers.offload, "offload" } }) {
            if (on)
                levers += std::string(levers.empty() ? "" : ", ") + name;
        }
        for (FinetuneMethod m : r.levers.finetune)
            levers += (levers.empty() ? "" : ", ") + std::string(toString(m));
        a.push_back(levers.empty() ? "levers: none allowed (the scenario's precision, optimizer and method)"
                                   : "levers allowed: " + levers + ", one of each kind at a time");
        a.emplace_back("Megatron's rank order (t innermost, then cp, dp, p); compute and communication do not overlap "
                       "beyond what the estimate models");
        return a;
    }

} // namespace detail

std::vector<PlanLink> planLinks(const GpuSpec& gpu, const TrainingConfig& c)
{
    const ClusterConfig& cl = c.cluster;
    const double efficiency = SimulateOptions {}.efficiency.link;
    const int tp = std::max(1, c.tensorParallel), cp = std::max(1, c.contextParallel);
    const int dp = std::max(1, c.dataParallel), pp = std::max(1, c.pipelineParallel);
    const int ep = std::max(1, c.expertParallel);
    std::vector<PlanLink> links;
    // The spans estimate.cpp gives each kind of transfer.
    auto add = [&](const char* group, int ranks, int span) {
        if (ranks <= 1)
            return;
        PlanLink l;
        l.group = group;
        l.ranks = ranks;
        l.span = span;
        l.interNode = cl.gpusPerNode > 0 && span > cl.gpusPerNode;
        if (l.interNode) {
            l.kind = cl.interLink == LinkKind::Auto ? LinkKind::InfinibandHdr : cl.interLink;
            l.automatic = cl.interLink == LinkKind::Auto;
        } else {
            l.kind = resolveIntraNodeLink(gpu, c, span).kind;
            l.automatic = cl.intraLink == LinkKind::Auto;
        }
        l.bytesPerSecond = collectiveBandwidth(gpu, c, efficiency, span);
        links.push_back(l);
    };
    add("tensor_parallel", tp, tp);
    add("context_parallel", cp, tp * cp);
    add("expert_parallel", ep, tp * cp * ep);
    add("data_parallel", dp, dataParallelSpan(c));
    add("pipeline", pp, dataParallelSpan(c) * pp);
    return links;
}

} // namespace headroom
