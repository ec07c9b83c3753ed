#include "scaling.h"

#include "pipeline.h"

#include <algorithm>
#include <numeric>

namespace headroom {

Scenario Scaling::scenarioAt(const Scenario& base, const ScalingSeries& series, int gpus, int replicaGpus)
{
    Scenario s = base;
    TrainingConfig& c = s.config;
    c.dataParallel = std::max(1, gpus / std::max(1, replicaGpus));
    if (c.expertParallel > 1 && c.dataParallel % c.expertParallel != 0)
        c.expertParallel = std::gcd(c.expertParallel, c.dataParallel);
    c.cluster.gpusPerNode = kScalingGpusPerNode;
    c.cluster.intraLink = series.intraLink;
    c.cluster.interLink = series.interLink;
    return s;
}

Expected<Scaling> scaling(const Catalog& catalog, const Scenario& scenario, int maxGpus)
{
    const GpuSpec* gpu = catalog.gpu(scenario.gpuId);
    if (!gpu)
        return Error { "scaling", "gpu", "unknown GPU \"" + scenario.gpuId + "\"" };
    Scaling out;
    TrainingConfig replica = scenario.config;
    replica.dataParallel = 1;
    out.replicaGpus = int(jobGpus(replica));
    // The PCIe a card sits on (links.h pcieLink): GeForce cards without peer-to-peer go through host shared memory
    // (next-round.md sec. 4.3), the others by their host link's generation; PCIe 3 cards with peer-to-peer get the
    // measured PCIe 4 figure, the closest the table holds.
    out.series.push_back({ ScalingFabric::Pcie, pcieLink(*gpu).kind, LinkKind::Ethernet100, {} });
    if (gpu->gpuLinkGBps.present() && gpu->gpuLinkGBps.value > 0.0)
        out.series.push_back({ ScalingFabric::Nvlink, LinkKind::Auto, LinkKind::InfinibandNdr, {} });

    SimulateOptions quick;
    quick.timeline = false;
    quick.sweep = false;
    quick.searches = false;
    SimulationResult r;
    for (ScalingSeries& series : out.series) {
        for (int n = out.replicaGpus; n <= maxGpus; n *= 2) {
            const Scenario s = Scaling::scenarioAt(scenario, series, n, out.replicaGpus);
            if (auto e = simulate(catalog, s, quick, nullptr, r))
                return *e;
            ScalingPoint p;
            p.gpus = n;
            const FitVerdict verdict = verdictOnDevice(r); // every rank's peak, then the allocator replayed
            p.fits = verdict.fits;
            p.neededBytes = verdict.neededBytes;
            p.peakBytes = r.estimate.peakBytes;
            p.stepSeconds = r.estimate.stepSeconds;
            p.throughputPerGpu = r.estimate.throughputPerSecond / n;
            p.exposedCommunicationSeconds = r.estimate.exposedCommunicationSeconds;
            p.bubbleSeconds = r.estimate.pipelineBubbleSeconds;
            series.points.push_back(p);
        }
    }
    return out;
}

} // namespace headroom
