#include "report.h"
#include "reportjson.h"

#include <cstdio>

namespace headroom::detail {

nlohmann::json allocatorJson(const AllocatorEstimate& a)
{
    if (!a.computed)
        return nullptr;
    return { { "requested_peak_bytes", integer(a.requestedPeakBytes) },
             { "max_memory_allocated_bytes", integer(a.peakAllocatedBytes) },
             { "max_memory_reserved_bytes", integer(a.peakReservedBytes) },
             { "cublas_workspace_bytes", integer(a.cublasWorkspaceBytes) },
             { "cudnn_workspace_bytes", integer(a.cudnnWorkspaceBytes) },
             { "convolution_steps", a.convolutionSteps },
             { "cuda_context_bytes", integer(a.contextBytes) },
             { "nccl_buffer_bytes", integer(a.ncclBytes) },
             { "nccl_communicators", a.ncclCommunicators },
             { "device_bytes", integer(a.deviceBytes) },
             { "segments", a.segments },
             { "out_of_memory", a.outOfMemory },
             { "lower_bounds", a.sizesHeld },
             { "out_of_memory_phase",
               a.failedPhase >= 0 ? nlohmann::json(std::string(toString(Phase(a.failedPhase)))) : nlohmann::json() },
             { "fits", a.fits() },
             { "expandable_segments", a.expandableSegments } };
}

std::string allocatorTable(const AllocatorEstimate& a, double capacityBytes)
{
    if (!a.computed)
        return {};
    char line[256];
    std::string out = a.sizesHeld
        ? "\nPyTorch    (caching allocator replayed over three steps, each tensor past 16 TiB "
          "held there: the figures are lower bounds)\n"
        : "\nPyTorch    (caching allocator replayed over three steps)\n";
    // ">" before a lower bound.
    auto bytes = [&](double v) { return (a.sizesHeld ? "> " : "") + formatBytes(v); };
    std::snprintf(line, sizeof line, "  %-28s %12s   (tensors as the allocator sizes them, workspaces included)\n",
                  "max_memory_allocated", bytes(a.peakAllocatedBytes).c_str());
    out += line;
    std::snprintf(line, sizeof line, "  %-28s %12s   (one per thread that runs matmuls, held from its first)\n",
                  "  cuBLAS workspace", formatBytes(a.cublasWorkspaceBytes).c_str());
    out += line;
    if (a.convolutionSteps > 0) {
        std::snprintf(line, sizeof line, "  %-28s %12s   (each of %d convolution calls, while it runs)\n",
                      "  cuDNN workspace", formatBytes(a.cudnnWorkspaceBytes).c_str(), a.convolutionSteps);
        out += line;
    }
    std::snprintf(line, sizeof line, "  %-28s %12s   (%d segments%s)\n", "max_memory_reserved",
                  bytes(a.peakReservedBytes).c_str(), a.segments, a.expandableSegments ? ", expandable" : "");
    out += line;
    std::snprintf(line, sizeof line, "  %-28s %12s\n", "CUDA context", formatBytes(a.contextBytes).c_str());
    out += line;
    if (a.ncclCommunicators > 0) {
        std::snprintf(line, sizeof line, "  %-28s %12s   (%d communicators, outside the caching allocator)\n",
                      "NCCL buffers", formatBytes(a.ncclBytes).c_str(), a.ncclCommunicators);
        out += line;
    }
    std::snprintf(line, sizeof line, "  %-28s %12s   of %s: %s\n",
                  a.ncclCommunicators > 0 ? "reserved + context + NCCL" : "reserved + context",
                  bytes(a.deviceBytes).c_str(), formatBytes(capacityBytes).c_str(),
                  a.fits() ? "no OOM" : "cudaMalloc fails (OOM)");
    out += line;
    return out;
}

} // namespace headroom::detail
