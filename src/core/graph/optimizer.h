#pragma once

// What an optimizer keeps per parameter, what it allocates while stepping, and how many bytes its kernels move.
// Sources per rule are in optimizer.cpp.

#include "graph.h"
#include "trainingconfig.h"

#include <string_view>

namespace headroom {

struct OptimizerFootprint {
    double stateBytes = 0.0;         // moments / momentum / factored statistics, whole model
    double masterBytes = 0.0;        // FP32 master weights (MasterWeights style), whole model
    double tempBytes = 0.0;          // transient allocation during the step (foreach temporaries)
    bool tempPerTensor = false;      // tempBytes is one tensor per trainable parameter, all alive at once
    double trafficBytes = 0.0;       // HBM bytes read + written by the step, whole model
    double flops = 0.0;              // arithmetic of the step, whole model
    int kernels = 1;                 // kernel launches (foreach / fused) for the launch-overhead floor
    int hostOps = 1;                 // operators the host dispatches per step (timemodel.h HostModel)
    double tensors = 0.0;            // parameter tensors it steps (its Python loops visit each)
    std::string_view implementation; // "torch.optim.AdamW (foreach)", ...
    bool paged = false;              // the states live in CUDA unified memory (bitsandbytes paged optimizers)
};

// gradBytes: bytes per element of the gradients the optimizer reads.
OptimizerFootprint optimizerFootprint(const Graph& graph, const TrainingConfig& config, DType paramType,
                                      double gradBytes);

} // namespace headroom
