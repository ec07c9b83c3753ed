#pragma once

// The planner's pieces that do not enumerate or simulate layouts: the lever variants a request allows and the
// assumptions every row takes as given (plannerlevers.cpp).

#include "planner.h"

#include <string>
#include <vector>

namespace headroom::detail {

// One setting of the levers: the scenario's own (no levers), or one lever of each allowed kind pulled.
struct LeverVariant {
    Precision precision = Precision::MixedBF16;
    OptimizerKind optimizer = OptimizerKind::AdamW;
    AdamImpl adamImpl = AdamImpl::Foreach;
    bool offload = false;
    FinetuneMethod method = FinetuneMethod::Full;
    std::vector<std::string> levers;

    void apply(TrainingConfig& c) const
    {
        c.precision = precision;
        c.optimizer = optimizer;
        c.adamImpl = adamImpl;
        c.offloadOptimizer = offload;
        c.finetune.method = method;
    }
};

// The scenario's own setting first, then each lever alone. Under LoRA and QLoRA the optimizer, offload and
// precision levers are not combined: the adapters' states are megabytes, so those levers would save next to
// nothing (issue 32: no lever that does nothing).
std::vector<LeverVariant> leverVariants(const PlanLevers& levers, const TrainingConfig& base, const GpuSpec& gpu,
                                        const ModelSpec& model);

std::vector<std::string> planAssumptions(const PlanRequest& request, const GpuSpec& gpu);

} // namespace headroom::detail
