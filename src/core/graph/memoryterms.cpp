#include "memoryterm.h"

#include "graph.h"
#include "trainingconfig.h"

#include <set>

namespace headroom {

ModelStateTerms modelStateTerms(const Graph& g, const TrainingConfig& cfg, DType gradientType)
{
    ModelStateTerms t;
    const bool master = isMixed(cfg.precision) && cfg.mixedStyle == MixedPrecisionStyle::MasterWeights;
    for (const Parameter& p : g.params) {
        const bool expert = p.expertShards > 1.0;
        const TermKind kind = p.name.starts_with("lora_") ? TermKind::Adapters
            : p.trainable                                 ? TermKind::TrainedWeights
                                                          : TermKind::FrozenWeights;
        addTerm(t.weights, kind, p.dtype, p.numel, 1.0, expert);
        // lowering.cpp gradBytesOf: the master-weights gradient storage, or the parameter's own dtype.
        if (p.trainable)
            addTerm(t.gradients, TermKind::Gradients, master ? gradientType : p.dtype, p.numel, 1.0, expert);
    }
    // One copy per weight-copy storage, in every real block the graph's repeated block stands for (lowering.cpp
    // residentModelStates; autocast's cached casts are made once per leaf and kept to the end of the forward).
    std::set<std::int32_t> seen;
    for (const GraphTensor& x : g.tensors) {
        if (x.role != TensorRole::WeightCopy || !seen.insert(x.storage).second)
            continue;
        addTerm(t.weightCopies,
                g.storages[std::size_t(x.storage)].autocastCached ? TermKind::AutocastCasts : TermKind::Fp8Copies,
                x.dtype, x.numel.fixed * double(g.copies(x.producer)));
    }
    t.optimizer = optimizerStateTerms(g, cfg);
    return t;
}

} // namespace headroom
