#pragma once

// The scaling view's figures: the scenario's replica (its t, p and cp, micro-batch and micro-batches per step) on
// 1 to 1024 GPUs, the extra GPUs as data-parallel replicas (weak scaling: the global batch grows with them), over
// two fabrics, 8 GPUs per node. Throughput per GPU falls below the one-replica figure by what communication and
// the pipeline bubble cost; memory per GPU falls where ZeRO shards over more ranks. This is the explainer's point
// that 12 GB cards over PCIe scale poorly, made visible. Each point is simulate() of a scenario that
// `headroom estimate` reproduces (Scaling::scenarioAt).

#include "links.h"
#include "simulate.h"

#include <vector>

namespace headroom {

enum class ScalingFabric : std::uint8_t {
    Pcie,   // PCIe inside the node (a desktop or laptop card without peer-to-peer: the SHM figure), 100 GbE between
    Nvlink, // the GPU's NVLink or Infinity Fabric inside the node (PCIe past it), InfiniBand NDR between
};

struct ScalingPoint {
    int gpus = 0;
    bool fits = false;
    double peakBytes = 0.0; // the most loaded rank's
    // What "does it fit?" holds against the capacity on that rank (verdictOnDevice): the caching allocator's reserved
    // bytes with the CUDA context and NCCL's buffers where it was replayed, else the peak with the overhead. A point
    // is drawn at it, so that one that does not fit is above the capacity.
    double neededBytes = 0.0;
    double stepSeconds = 0.0;
    double throughputPerGpu = 0.0; // tokens (images) per second per GPU
    double exposedCommunicationSeconds = 0.0;
    double bubbleSeconds = 0.0;
};

struct ScalingSeries {
    ScalingFabric fabric = ScalingFabric::Pcie;
    LinkKind intraLink = LinkKind::Auto;
    LinkKind interLink = LinkKind::Auto;
    std::vector<ScalingPoint> points; // GPU counts 1, 2, 4, ... that the replica divides
};

struct Scaling {
    int replicaGpus = 1;               // t x p x cp of the scenario: the smallest job
    std::vector<ScalingSeries> series; // PCIe always; NVLink when the GPU has a GPU-to-GPU link
    // The scenario of one point: the base with dp = gpus / replica and the series' links.
    static Scenario scenarioAt(const Scenario& base, const ScalingSeries& series, int gpus, int replicaGpus);
};

inline constexpr int kScalingGpusPerNode = 8;

// Errors: the scenario's own (simulate()).
Expected<Scaling> scaling(const Catalog& catalog, const Scenario& scenario, int maxGpus = 1024);

} // namespace headroom
