#include "explainer.h"

#include "explainerhtml.h"
#include "formatting.h"
#include "labels.h"
#include "links.h"
#include "pipeline.h"

#include <QLocale>

namespace headroom::gui {

namespace {

    using explainhtml::section;
    using explainhtml::source;

} // namespace

QString Explainer::html(const ExplainRequest& request, const SimulationResult& r)
{
    if (!r.model)
        return {};
    switch (request.topic) {
    case ExplainRequest::Topic::Category:
    case ExplainRequest::Topic::Timeline:
        return category(request.category, r);
    case ExplainRequest::Topic::Operator:
        return operatorPoint(request.operatorIndex, r);
    case ExplainRequest::Topic::Roof:
    case ExplainRequest::Topic::Capacity:
        return capacity(r);
    case ExplainRequest::Topic::StepTime:
        return stepTime(r, r.timeRange);
    case ExplainRequest::Topic::Allocator:
        return allocator(r, r.allocator);
    }
    return {};
}

QString Explainer::category(MemoryCategory c, const SimulationResult& r)
{
    // The values and the terms come from the core (explain.h); this only writes them in the user's language. Every
    // line of the formula multiplies out to the bytes it ends with, and the lines add up to the figure.
    const CategoryExplanation x = explainCategory(r, c);
    QString body = QStringLiteral("<p>%1</p>").arg(Labels::categoryDescription(c));
    QStringList lines;
    for (const QString& line : formulaLines(x))
        lines << line.toHtmlEscaped();
    if (lines.isEmpty())
        lines << tr("%1 on this GPU").arg(formatBytes(x.bytes));
    QString note;
    QString src;
    switch (c) {
    case MemoryCategory::Weights:
        src = tr(
            "torch.autocast keeps parameters in FP32 (PyTorch AMP documentation); DeepSpeed and Megatron keep 16-bit "
            "weights with an FP32 master copy; ZeRO-3 (P_p) shards them over N ranks (Rajbhandari et al. 2020, sec. 5); "
            "QLoRA stores the adapted Linear weights as NF4 with double quantization (Dettmers et al. 2023, sec. 3).");
        break;
    case MemoryCategory::WeightCopies:
        if (x.note == CategoryExplanation::Note::GatheredCasts)
            note = tr("ZeRO-3 shards the FP32 weights, but each layer is gathered into the same FP32 parameter, "
                      "and autocast keeps the 16-bit cast of every one until the forward pass ends: the whole "
                      "16-bit copy is on every GPU. With 16-bit weights and an FP32 master copy (Weights: master "
                      "weights; DeepSpeed bf16, FSDP MixedPrecision) nothing is cast.");
        src = tr(
            "aten/src/ATen/autocast_mode.cpp: cached_cast keeps one low-precision copy of each leaf weight until the "
            "forward leaves the autocast region, and autograd keeps it until that layer's backward. Transformer Engine "
            "keeps FP8 copies and their transposes.");
        break;
    case MemoryCategory::Gradients:
        if (x.note == CategoryExplanation::Note::OffloadedGradients)
            note = tr("With ZeRO-Offload the gradient partitions go to the host as they are made.");
        src = tr(
            "ZeRO-2 (P_os+g) shards gradients (Rajbhandari et al. 2020); Megatron and DeepSpeed keep FP32 gradient "
            "buffers (18 bytes per parameter with Adam), the ZeRO paper counts 16-bit gradients (16 bytes); PyTorch "
            "DistributedDataParallel keeps a second copy in its buckets.");
        break;
    case MemoryCategory::OptimizerStates:
        if (x.note == CategoryExplanation::Note::OffloadedStates)
            note = tr("On the host (optimizer offload): %1 outside the GPU.").arg(formatBytes(r.estimate.hostBytes));
        else if (x.note == CategoryExplanation::Note::PagedStates)
            note = tr("The paged optimizer's states are in unified memory: %1 outside the GPU's peak.")
                       .arg(formatBytes(r.estimate.hostBytes));
        src = tr("ZeRO paper sec. 3.1: K = 12 bytes per parameter for mixed-precision Adam; bitsandbytes "
                 "Optimizer2State (min_8bit_size = 4096, block size 256); transformers Adafactor defaults.");
        break;
    case MemoryCategory::Activations:
        lines.prepend(tr("tensors autograd saves for backward, at the end of the forward pass, by the operator that "
                         "saved them, summed over layers:"));
        if (x.hasKorthikanti)
            note = tr("For comparison (not the figure), the closed form for a standard GPT layer with 16-bit "
                      "activations and 1-byte dropout masks (Korthikanti et al. 2022, Table 2): sbh(34 + 5as/h) × L "
                      "= %1")
                       .arg(formatBytes(x.korthikantiBytes));
        if (x.hasSdpa) {
            const QString why = Labels::sdpaReason(x.sdpaChoice, x.sdpaCall).toHtmlEscaped();
            note += x.sdpaKernel == SdpaKernel::Math
                ? tr("<br>SDPA runs its %1 kernel in torch %2 (%3): it saves the s × s attention probabilities, as "
                     "eager attention does")
                      .arg(Labels::sdpaKernel(x.sdpaKernel), QString::fromStdString(x.torch), why)
                : tr("<br>SDPA runs its %1 kernel in torch %2 (%3): it saves the output and an FP32 log-sum-exp "
                     "per row, not the scores")
                      .arg(Labels::sdpaKernel(x.sdpaKernel), QString::fromStdString(x.torch), why);
        }
        src = tr(
            "Each operator saves what torch/csrc/autograd/derivatives.yaml says it saves (Linear its input, GELU its "
            "input, softmax its output, dropout a 1-byte mask, LayerNorm its input and FP32 mean and rstd), in the "
            "dtype autocast gives it.");
        break;
    case MemoryCategory::Transient:
        lines.prepend(tr("live at the peak, by the operator that allocated it, summed over layers:"));
        src = tr("Liveness of every tensor in the simulated step: outputs in flight, gradients of activations, the "
                 "optimizer's foreach temporaries (torch.optim._multi_tensor_adam), gathered ZeRO-3 layers.");
        if (x.outputBytes > 0.0)
            note += x.loop == TrainingLoop::KeepOutputs
                ? tr("<br>Training loop <code>output = model(x); loss = loss_fn(output, y); loss.backward()</code>: "
                     "the model's output (%1) stays alive until backward has run. <code>loss = "
                     "model(**batch).loss</code> (Hugging Face Trainer) frees it after the loss.")
                      .arg(formatBytes(x.outputBytes))
                : tr("<br>Training loop <code>loss = model(**batch).loss</code> (Hugging Face Trainer): the model's "
                     "output (%1) is freed after the loss; <code>output = model(x); loss = loss_fn(output, y)</code> "
                     "would keep it through backward.")
                      .arg(formatBytes(x.outputBytes));
        break;
    case MemoryCategory::Overhead:
        src = tr("Not a hardware figure: Headroom's default per GPU generation, editable under What-if overrides.");
        break;
    }
    body += QStringLiteral("<p><b>%1</b></p>").arg(lines.join(QStringLiteral("<br>")));
    if (!note.isEmpty())
        body += QStringLiteral("<p>%1</p>").arg(note);
    body += source(src);
    return section(Labels::category(c), body);
}

QString Explainer::operatorPoint(int i, const SimulationResult& r)
{
    const Estimate& e = r.estimate;
    if (i < 0 || i >= int(e.operatorPoints.size()))
        return {};
    const RooflinePoint& p = e.operatorPoints[i];
    const double peak = e.gpu.peakFlopsPerSecond[int(p.unit)];
    const double bw = e.gpu.bandwidthBytesPerSecond;
    QString body = tr("<p>%1, %2, summed over its %3 kernels in the step.</p>")
                       .arg(Labels::kind(p.kind), Labels::phase(p.phase))
                       .arg(p.count);
    // The time as the core prices it, part by part (RooflinePoint), so that the sum on screen is the figure shown.
    body += tr("<p><b>intensity</b> = FLOPs / bytes = %1 / %2 = %3 FLOP/byte<br>"
               "<b>attainable</b> = min(π, β × I) = min(%4, %5 × %3) = %6<br>"
               "<b>time</b> = Σ max(FLOPs / (η<sub>c</sub> π), bytes / (η<sub>m</sub> β)) + sums over rows and "
               "layout copies + kernels × latency + waiting for the host<br>"
               "&nbsp;&nbsp;= %7 + %8 + %9 + %10 = %11</p>")
                .arg(formatCount(p.flops), formatBytes(p.bytes))
                .arg(p.intensity(), 0, 'f', 2)
                .arg(formatFlopsPerSecond(peak), formatBandwidth(bw),
                     formatFlopsPerSecond(std::min(peak, bw * p.intensity())),
                     formatSeconds(p.computeSeconds + p.memorySeconds), formatSeconds(p.extraSeconds),
                     formatSeconds(p.launchSeconds), formatSeconds(p.hostWaitSeconds()), formatSeconds(p.seconds));
    // Where memory bounds the kernels, the rate they move their bytes at: η_m is not one figure (casting kernels,
    // 16-bit batch norms on NCHW tensors and the rest each have their own, timemodel.h).
    if (p.computeSeconds == 0.0 && p.memorySeconds > 0.0 && bw > 0.0)
        body += tr("<p>Bound by memory: %1 in %2, %3, η<sub>m</sub> = %4 of β.</p>")
                    .arg(formatBytes(p.bytes), formatSeconds(p.memorySeconds),
                         formatBandwidth(p.bytes / p.memorySeconds))
                    .arg(p.bytes / p.memorySeconds / bw, 0, 'f', 2);
    if (p.kind == OpKind::Attention && peak > 0.0)
        body += tr("<p><b>reached</b> = FLOPs / time = %1, %2 % of π. A fused SDPA kernel on Hopper runs at its "
                   "measured rate for its head dim, sequence, causal mask and dropout, well under π at short "
                   "sequences.</p>")
                    .arg(formatFlopsPerSecond(p.achievedFlopsPerSecond()))
                    .arg(p.achievedFlopsPerSecond() / peak * 100.0, 0, 'f', 0);
    body += source(
        tr("Roofline: Williams, Waterman & Patterson 2009. Efficiencies η: GEMMs 0.80 of the dense tensor peak "
           "(MAMF table, stas00/ml-engineering), FP8 0.70, attention 0.60 (FlashAttention-2) and on Hopper SDPA's "
           "measured rates (FlashAttention-3's H100 benchmarks, arXiv:2407.08608, with each kernel's tiles), memory "
           "0.85 (HBM) or 0.78 (GDDR) or the GPU's measured bandwidth; of the datasheet bandwidth, dtype-converting "
           "kernels %2, sums over rows (a bias's or LayerNorm's weight gradient) %3, layout copies %4; a kernel's "
           "latency %1.")
            .arg(QCoreApplication::translate("Format", "%1 µs").arg(Efficiency {}.launchSeconds * 1e6))
            .arg(Efficiency {}.castingBandwidth, 0, 'f', 2)
            .arg(Efficiency {}.columnReduceBandwidth, 0, 'f', 2)
            .arg(Efficiency {}.stridedCopyBandwidth, 0, 'f', 2));
    return section(QString::fromUtf8(p.name.data(), qsizetype(p.name.size())).toHtmlEscaped(), body);
}

QString Explainer::capacity(const SimulationResult& r)
{
    const GpuSpec& g = *r.gpu;
    const Estimate& e = r.estimate;
    QString body = tr("<p>%1: %2, %3; %4 of memory bandwidth.</p>")
                       .arg(QString::fromStdString(g.name).toHtmlEscaped(), formatBytes(e.gpu.memoryBytes),
                            QString::fromStdString(g.memoryType), formatBandwidth(e.gpu.bandwidthBytesPerSecond));
    auto cite = [&](const SourcedFigure& f) {
        QStringList parts;
        for (const auto& id : f.sources) {
            auto it = g.sources.find(id);
            if (it == g.sources.end())
                continue;
            const QString title = QString::fromStdString(it->second.title).toHtmlEscaped();
            parts << (it->second.url.empty()
                          ? title
                          : QStringLiteral("<a href=\"%1\">%2</a>").arg(QString::fromStdString(it->second.url), title));
        }
        return parts.join(QStringLiteral("; "));
    };
    body += source(tr("Capacity: %1").arg(cite(g.reportedMiB.present() ? g.reportedMiB : g.capacityGB)));
    body += source(
        tr("Bandwidth (datasheet %1): %2").arg(formatBandwidth(g.bandwidthBytesPerSecond()), cite(g.bandwidthGBps)));
    if (g.measuredBandwidthGBps.present())
        body += source(tr("Measured bandwidth %1, the roof memory-bound kernels run at: %2")
                           .arg(formatBandwidth(g.measuredBandwidthGBps.value * 1e9), cite(g.measuredBandwidthGBps)));
    // What the file says about its figures: the TGP a laptop part's figures are for, and what the vendor does not
    // publish (never invented: the what-if overrides are the way to explore it).
    if (!g.notes.empty())
        body += source(tr("Notes: %1").arg(QString::fromStdString(g.notes).toHtmlEscaped()));
    if (e.gpu.bandwidthOverridden || e.gpu.memoryOverridden || e.gpu.peakOverridden)
        body += tr("<p><b>What-if active:</b> %1</p>").arg(QString::fromStdString(e.gpu.overrideNote).toHtmlEscaped());
    return section(tr("GPU"), body);
}

// The link the data-parallel ring takes inside a node (links.h resolveIntraNodeLink), at the default link efficiency:
// why a GeForce box spends so long on its gradients.
QString Explainer::linkNote(const SimulationResult& r)
{
    const Estimate& e = r.estimate;
    if (!r.gpu)
        return {};
    const TrainingConfig& c = e.config;
    const int ring = dataParallelSpan(c);
    const int span = c.cluster.gpusPerNode > 0 ? std::min(ring, c.cluster.gpusPerNode) : ring;
    if (span < 2)
        return {};
    const IntraNodeLink link = resolveIntraNodeLink(*r.gpu, c, span);
    const double gbps = collectiveBandwidth(*r.gpu, c, Efficiency {}.link, span) / 1e9;
    if (link.gpuFileRate())
        return source(tr("Inside a node the collectives run at the GPU file's own link rate: %1 GB/s per GPU, one "
                         "direction at %2 % of it (no measured bus bandwidth of this system).")
                          .arg(gbps, 0, 'f', 1)
                          .arg(Efficiency {}.link * 100.0, 0, 'f', 0));
    const LinkFigure& f = linkFigure(link.kind);
    return source(tr("Inside a node the collectives run over %1 at %2 GB/s per GPU: %3.")
                      .arg(QString::fromLatin1(f.id.data(), qsizetype(f.id.size())))
                      .arg(gbps, 0, 'f', 1)
                      .arg(QString::fromLatin1(f.source.data(), qsizetype(f.source.size())).toHtmlEscaped()));
}

// Which clock bounds the step, and what would shorten a host-bound one (simulate.h TimeLever), each with its figures.
QString Explainer::hostBound(const SimulationResult& r, const StepTimeRange& timeRange)
{
    const Estimate& e = r.estimate;
    const QString mode = e.config.host.execution == Execution::CudaGraphs ? tr("replayed as a CUDA graph")
                                                                          : tr("eager");
    QString text = e.hostBound()
        ? tr("<p><b>Host-bound</b> (%1): the host spends %2 issuing the step's operators, the GPU %3 running its "
             "kernels and %4 waiting for the next one. A faster GPU would only wait longer.</p>")
        : tr("<p><b>GPU-bound</b> (%1): the GPU is busy %3 of the step, the host spends %2 issuing its operators, and "
             "the GPU waits %4 for them.</p>");
    text = text.arg(mode, formatSeconds(e.hostSeconds), formatSeconds(e.gpuBusySeconds),
                    formatSeconds(e.gpuIdleSeconds()));
    QString levers;
    const QString unit = e.vision ? tr("images") : tr("tokens");
    for (const TimeLever& l : timeRange.levers) {
        const QString what = l.kind == TimeLever::Kind::CudaGraphs
            ? tr("CUDA graphs (torch.compile mode=\"reduce-overhead\")")
            : l.kind == TimeLever::Kind::FusedOptimizer ? tr("the fused AdamW (fused=True)")
                                                        : tr("micro-batch %1").arg(l.microBatch);
        levers += tr("<li>%1: step %2, %3 (+%4)</li>")
                      .arg(what, formatSeconds(l.stepSeconds), formatRate(l.throughputPerSecond, unit),
                           formatPercent(e.throughputPerSecond > 0 ? l.throughputPerSecond / e.throughputPerSecond - 1.0
                                                                   : 0.0));
    }
    if (!levers.isEmpty())
        text += tr("<p>What would help, each alone:</p><ul>%1</ul>").arg(levers);
    return text;
}

// The step time's range and what it assumes: the efficiencies of the time model at its default and at the two ends of
// their measured ranges (timemodel.h).
QString Explainer::stepTime(const SimulationResult& r, const StepTimeRange& timeRange)
{
    const Estimate& e = r.estimate;
    const Efficiency def, fast = fastEfficiency(), slow = slowEfficiency();
    auto pct = [](double v) { return QLocale().toString(v * 100.0, 'f', 0) + QStringLiteral(" %"); };
    // A fitted constant as docs/formulas.md gives it (three significant digits: 42.5 us stays 42.5, not 43).
    auto constant = [](double seconds) {
        return QCoreApplication::translate("Format", "%1 µs").arg(QLocale().toString(seconds * 1e6, 'g', 3));
    };
    auto row = [&](const QString& what, double d, double f, double s) {
        return QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3 – %4</td></tr>")
            .arg(what, pct(d), pct(s), pct(f));
    };
    QString rows = row(tr("large 16-bit and TF32 GEMMs, of tensor peak"), def.gemmTensor, fast.gemmTensor,
                       slow.gemmTensor)
        + row(tr("convolutions on tensor cores (fitted to measured ResNet-50 rows)"), def.convTensor, fast.convTensor,
              slow.convTensor)
        + row(tr("FP8 GEMMs"), def.gemmFp8, fast.gemmFp8, slow.gemmFp8)
        + row(tr("FP32 GEMMs on the vector units"), def.gemmVector, fast.gemmVector, slow.gemmVector)
        + row(tr("attention kernels (on Hopper, SDPA at its measured rate by sequence instead)"), def.attention,
              fast.attention, slow.attention)
        // Rules measured on an H200 (docs/accuracy.md 3.2): cuBLAS's align1 kernels for a GEMM with an odd 16-bit
        // dimension, 16-bit batch norms on NCHW tensors (PyTorch's native kernels; cuDNN's on Hopper), TensorIterator's
        // kernels that convert dtypes, sums over rows (bias and LayerNorm weight gradients), copies of non-contiguous
        // tensors.
        + row(tr("16-bit GEMMs with an odd dimension, Hopper and later (align1 kernels), of tensor peak"),
              2.0 / def.alignedGemmBytes, 2.0 / def.alignedGemmBytes, 2.0 / def.alignedGemmBytes)
        + row(tr("16-bit batch norm on NCHW tensors (PyTorch's kernels; cuDNN's from Hopper), of bandwidth"),
              def.nchwBatchNormBandwidth, def.nchwBatchNormBandwidth, def.nchwBatchNormBandwidth)
        + row(tr("elementwise kernels that convert dtypes (BF16 with FP32 under autocast), of bandwidth"),
              def.castingBandwidth, def.castingBandwidth, def.castingBandwidth)
        + row(tr("sums over rows (bias and LayerNorm weight gradients), of bandwidth"), def.columnReduceBandwidth,
              def.columnReduceBandwidth, def.columnReduceBandwidth)
        + row(tr("copies of non-contiguous tensors (nn.MultiheadAttention's layouts), of bandwidth"),
              def.stridedCopyBandwidth, def.stridedCopyBandwidth, def.stridedCopyBandwidth);
    // A GPU file's measured bandwidth replaces the generic fraction (timemodel.cpp), the range keeping its ratio.
    const GpuSpec* gpu = r.gpu;
    if (gpu && gpu->measuredBandwidthGBps.present() && gpu->bandwidthGBps.present()) {
        const bool gddr = gpu->isGddr();
        const double generic = gddr ? def.memoryGddr : def.memoryHbm;
        const double measured = gpu->measuredBandwidthGBps.value / gpu->bandwidthGBps.value;
        rows += row(tr("memory bandwidth, measured on this GPU"), measured,
                    measured * (gddr ? fast.memoryGddr : fast.memoryHbm) / generic,
                    measured * (gddr ? slow.memoryGddr : slow.memoryHbm) / generic);
    } else {
        rows += row(tr("memory bandwidth (HBM)"), def.memoryHbm, fast.memoryHbm, slow.memoryHbm)
            + row(tr("memory bandwidth (GDDR)"), def.memoryGddr, fast.memoryGddr, slow.memoryGddr);
    }
    // Communication by kind, per step on this GPU's links: what the step waits for and what overlaps. A list, not a
    // table: it stays readable in a narrow dock.
    QString comm;
    auto kind = [&](const QString& what, double seconds, double bytes, const QString& rule) {
        if (seconds > 0.0 || bytes > 0.0)
            comm += tr("<li><b>%1</b>: %2, %3 sent; %4</li>")
                        .arg(what, formatSeconds(seconds), formatBytes(bytes), rule);
    };
    kind(tr("data-parallel gradients"), e.dataParallelSeconds, e.dataParallelBytes,
         tr("overlaps backward where it can (DDP buckets, ZeRO prefetch)"));
    kind(tr("tensor-parallel all-reduces"), e.tensorParallelSeconds, e.tensorParallelBytes, tr("waited for"));
    kind(tr("pipeline sends"), e.pipelineSeconds, e.pipelineBytes, tr("waited for"));
    kind(tr("expert all-to-alls (MoE)"), e.expertParallelSeconds, e.expertParallelBytes, tr("waited for"));
    if (!comm.isEmpty())
        comm = tr("<p>Communication per step, %1 of it not hidden:</p>")
                   .arg(formatSeconds(e.exposedCommunicationSeconds))
            + QStringLiteral("<ul>%1</ul>").arg(comm) + linkNote(r);
    if (e.communicationLatencySeconds > 0.0)
        comm += tr("<p>Of the communication, %1 is NCCL's latency per call (8.4 µs plus 3.4 µs per ring step over "
                   "NVLink, 5.7 µs over PCIe, 9.6 µs between nodes: NCCL's tuning model).</p>")
                    .arg(formatSeconds(e.communicationLatencySeconds));
    if (e.pipelineBubbleSeconds > 0.0)
        comm += tr("<p>Pipeline bubble: %1 of idle time per step.</p>").arg(formatSeconds(e.pipelineBubbleSeconds));
    QString range;
    if (timeRange.computed)
        range = tr("<p>Between <b>%1</b> and <b>%2</b> with every kernel at the fast or the slow end of its range.</p>")
                    .arg(formatSeconds(timeRange.fastSeconds), formatSeconds(timeRange.slowSeconds));
    return section(tr("Step time: %1").arg(formatSeconds(e.stepSeconds)),
                   tr("<p>Two clocks. The GPU runs each operator's kernels for the longer of its FLOPs over the "
                      "attainable peak of its unit and its bytes over the attainable bandwidth, plus %1 per kernel. "
                      "The host, one CPU thread running eager PyTorch, issues each operator first: %2 per forward "
                      "operator, %3 per backward kernel, %4 per recomputed operator (fitted to 27 runs on an H200), "
                      "and a kernel cannot start before it is issued. FP32 3x3 convolutions on the vector units use "
                      "Winograd (%5x fewer multiplies); tensor-core convolutions on NCHW tensors add the transposes "
                      "to NHWC and back unless the model is channels_last.</p>")
                           .arg(constant(def.launchSeconds), constant(def.hostForwardOpSeconds),
                                constant(def.hostBackwardOpSeconds), constant(def.hostRecomputeOpSeconds),
                                QLocale().toString(def.winogradSpeedup, 'f', 2))
                       + hostBound(r, timeRange) + range
                       + tr("<table><tr><th>fraction reached</th><th>used</th><th>range</th></tr>%1</table>").arg(rows)
                       + comm
                       + source(tr("Ranges: the MAMF table (A100 86.9 %, H100 80.3 % of BF16 peak), FlashAttention-2 "
                                   "(50–73 % on A100), measured bandwidths (T4 0.77 to V100 0.92 of the datasheet); "
                                   "docs/formulas.md section 6 and docs/references/roofline.md section 5. Measured "
                                   "throughputs it is checked against: docs/accuracy.md section 3.")));
}

} // namespace headroom::gui
