// Explain > What PyTorch would report: the caching allocator replayed over three steps (src/core/estimate/allocator.h),
// term by term with the rule or the file each comes from and where it is set.

#include "explainer.h"

#include "allocator.h"
#include "explainerhtml.h"
#include "formatting.h"

namespace headroom::gui {

using explainhtml::section;
using explainhtml::source;

QString Explainer::allocator(const SimulationResult& r, const AllocatorEstimate& a)
{
    const Estimate& e = r.estimate;
    const QString title = tr("What PyTorch would report");
    if (!a.computed)
        return section(title, tr("<p>The caching allocator is being replayed…</p>"));
    // A list, not a table: the rules are long and the dock is narrow.
    auto row = [](const QString& what, const QString& value, const QString& rule) {
        return QStringLiteral("<li><b>%1</b><br>%2</li>").arg(tr("%1: %2").arg(what, value), rule); // "：" in Chinese
    };
    const double cublasDefault = r.gpu ? defaultCublasWorkspaceBytes(*r.gpu) : a.cublasWorkspaceBytes;
    QString rows
        = row(tr("max_memory_allocated"), formatBytes(a.peakAllocatedBytes),
              (a.expandableSegments
                   ? tr("the step's tensors and workspaces (%1 requested at once at most, besides cuBLAS's), each "
                        "rounded up to 512 bytes; with expandable segments a block is split whenever 512 bytes or "
                        "more would be left")
                   : tr("the step's tensors and workspaces (%1 requested at once at most, besides cuBLAS's), each "
                        "rounded up to 512 bytes; a cached block is split only when more than 1 MiB (512 bytes for "
                        "requests up to 1 MiB) would be left"))
                  .arg(formatBytes(a.requestedPeakBytes)))
        + row(tr("of it, the cuBLAS workspace"), formatBytes(a.cublasWorkspaceBytes),
              tr("held from the first matmul, one for each thread that runs matmuls (the forward pass's and "
                 "autograd's backward thread): CUBLAS_WORKSPACE_CONFIG (default %1 here) each, plus cuBLASLt's 1 MiB "
                 "each before torch 2.11; --cublas-workspace-config, scenario key cublas_workspace_mib")
                  .arg(formatBytes(cublasDefault)));
    if (a.convolutionSteps > 0)
        rows += row(tr("of it, at a convolution, the cuDNN workspace"), formatBytes(a.cudnnWorkspaceBytes),
                    tr("taken around each of the step's %1 convolution calls while it runs; the size of the engine "
                       "cuDNN picks, set in the control panel (PyTorch allocator)")
                        .arg(a.convolutionSteps));
    rows += row(tr("max_memory_reserved"), formatBytes(a.peakReservedBytes),
                a.expandableSegments
                    ? tr("%1 expandable segments, grown in 2 MiB (small) and 20 MiB (large) steps: %2 above allocated")
                          .arg(a.segments)
                          .arg(formatBytes(a.peakReservedBytes - a.peakAllocatedBytes))
                    : tr("%1 segments: 2 MiB for requests up to 1 MiB, 20 MiB below 10 MiB, the request rounded to "
                         "2 MiB above; freed blocks stay cached: %2 above allocated")
                          .arg(a.segments)
                          .arg(formatBytes(a.peakReservedBytes - a.peakAllocatedBytes)));
    rows += row(tr("CUDA context"), formatBytes(a.contextBytes),
                tr("the framework overhead (%1, the GPU file's estimate or the Overhead control) less the default "
                   "cuBLAS and cuBLASLt workspaces")
                    .arg(formatBytes(e.overheadBytes)));
    if (a.ncclCommunicators > 0)
        rows += row(tr("NCCL buffers"), formatBytes(a.ncclBytes),
                    tr("%1 communicators, 10 MiB per ring channel each, outside the caching allocator")
                        .arg(a.ncclCommunicators));
    // The core's one rule (fitVerdict, allocator.h), and which part of it decided.
    const FitVerdict fit = fitVerdict(e.peakBytes, e.capacityBytes, a);
    QString verdict = a.fits() ? tr("<p><b>%1 of %2: no out-of-memory error.</b></p>")
                               : tr("<p><b>%1 of %2: cudaMalloc fails, an out-of-memory error.</b></p>");
    verdict = verdict.arg(formatBytes(a.deviceBytes), formatBytes(e.capacityBytes));
    verdict += fit.decidedBy == FitRule::Allocator
        ? tr("<p><b>Does it fit?</b> This replay decides: it runs under the GPU's memory less the context and "
             "NCCL's buffers, and when a cudaMalloc fails the allocator returns its cached unused segments to the "
             "driver and tries again (release_cached_blocks; with expandable segments it unmaps their free pages) "
             "before it raises the error. The verdict, the largest micro-batch and sequence, the fixes and the "
             "planner all use this rule.</p>")
        : tr("<p><b>Does it fit?</b> The simulated peak decides: %1 of %2 is more than the GPU holds, and the "
             "replay needs at least as much.</p>")
              .arg(formatBytes(e.peakBytes), formatBytes(e.capacityBytes));
    return section(title,
                   tr("<p>PyTorch's CUDA caching allocator replayed over three training steps of the schedule: what "
                      "torch.cuda.max_memory_allocated and max_memory_reserved would return, and the device memory an "
                      "out-of-memory error is decided by (reserved, the context and NCCL's buffers).</p>")
                       + QStringLiteral("<ul>%1</ul>").arg(rows) + verdict
                       + source(tr("c10/cuda/CUDACachingAllocator.cpp (rounding, pools, splitting, release on a failed "
                                   "cudaMalloc), aten/src/ATen/cuda/CublasHandlePool.cpp (cuBLAS workspace), "
                                   "aten/src/ATen/native/cudnn/Conv_v8.cpp (cuDNN workspace), NCCL's src/init.cc "
                                   "(buffers); docs/formulas.md section 3.2a. Not yet measured on a GPU: "
                                   "docs/accuracy.md section 4.")));
}

} // namespace headroom::gui
