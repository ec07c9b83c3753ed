#include "scenariotext.h"
#include "units.h"

#include "formatting.h"
#include "labels.h"

#include <QCoreApplication>
#include <QLocale>

namespace headroom::gui::ScenarioText {

namespace {

    struct Tr {
        Q_DECLARE_TR_FUNCTIONS(ScenarioText)
    };

    QString csvField(const QString& s)
    {
        if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
            return s;
        QString q = s;
        q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        return QLatin1Char('"') + q + QLatin1Char('"');
    }

} // namespace

QString pytorch(const AllocatorEstimate& a, double capacityBytes)
{
    if (!a.computed)
        return {};
    const QString capacity = formatBytes(capacityBytes);
    // A tensor past 16 TiB is replayed at that size: the figures are lower bounds (allocator.h sizesHeld).
    auto bytes = [&](double v) { return (a.sizesHeld ? QStringLiteral("> ") : QString()) + formatBytes(v); };
    if (a.ncclCommunicators > 0)
        return Tr::tr("PyTorch: max_memory_allocated %1 · max_memory_reserved %2 · reserved + CUDA context + %3 of "
                      "NCCL buffers %4 of %5")
            .arg(bytes(a.peakAllocatedBytes), bytes(a.peakReservedBytes), formatBytes(a.ncclBytes),
                 bytes(a.deviceBytes), capacity);
    return Tr::tr("PyTorch: max_memory_allocated %1 · max_memory_reserved %2 · reserved + CUDA context %3 of %4")
        .arg(bytes(a.peakAllocatedBytes), bytes(a.peakReservedBytes), bytes(a.deviceBytes), capacity);
}

QString measured(const Estimate& e, const Measured& m, const AllocatorEstimate& a)
{
    auto signedPercent = [](const MeasuredDifference& d) {
        return QStringLiteral("%1%2 %")
            .arg(d.relative() >= 0 ? QStringLiteral("+") : QString())
            .arg(d.relative() * 100.0, 0, 'f', 1);
    };
    const QString device = QString::fromStdString(m.deviceName.empty() ? m.deviceType : m.deviceName);
    if (auto other = checkMeasuredScenario(m, e.modelId, e.config, "measurement"))
        return Tr::tr("Measured on %1 for another scenario (%2): not compared")
            .arg(device, QString::fromStdString(other->field));
    const MeasuredComparison c = compareMeasured(e, m, a);
    QStringList parts;
    if (c.peakAllocated)
        parts << Tr::tr("peak allocated %1 (predicted %2)")
                     .arg(formatBytes(c.peakAllocated->measured), signedPercent(*c.peakAllocated));
    if (c.peakReserved)
        parts << Tr::tr("reserved %1 (predicted %2)")
                     .arg(formatBytes(c.peakReserved->measured), signedPercent(*c.peakReserved));
    parts << Tr::tr("saved activations %1 (predicted %2)")
                 .arg(formatBytes(c.savedActivations.measured), signedPercent(c.savedActivations));
    if (measuredOnCpu(m))
        parts << Tr::tr("step %1 on the CPU (not compared)").arg(formatSeconds(c.stepSeconds.measured));
    else
        parts << Tr::tr("step %1 (predicted %2)")
                     .arg(formatSeconds(c.stepSeconds.measured), signedPercent(c.stepSeconds));
    return Tr::tr("Measured on %1 (torch %2): %3")
        .arg(device, QString::fromStdString(m.torchVersion), parts.join(QStringLiteral(" · ")));
}

QString title(const SimulationResult& r)
{
    if (!r.model || !r.gpu)
        return {};
    return Tr::tr("%1 on %2").arg(QString::fromStdString(r.model->name), QString::fromStdString(r.gpu->name));
}

QString settings(const SimulationResult& r)
{
    const TrainingConfig& c = r.scenario.config;
    const bool vision = r.estimate.vision;
    QStringList parts;
    parts << Tr::tr("micro-batch %1").arg(c.microBatch);
    parts << (vision ? Tr::tr("image %1×%1 px").arg(c.sequenceLength) : Tr::tr("sequence %1").arg(c.sequenceLength));
    parts << Labels::precision(c.precision);
    if (isMixed(c.precision))
        parts << Labels::mixedStyle(c.mixedStyle);
    parts << Labels::optimizer(c.optimizer);
    const FinetuneConfig& f = c.finetune;
    if (f.method == FinetuneMethod::Freeze)
        parts << (f.frozenLayers < 0 ? Tr::tr("every layer frozen, the head trains")
                                     : Tr::tr("first %1 layers frozen").arg(f.frozenLayers));
    else if (f.adapters())
        parts << Tr::tr("%1 rank %2 on %3")
                     .arg(Labels::finetune(f.method))
                     .arg(f.loraRank)
                     .arg(Labels::loraTargets(f, r.model))
                + (f.loraDropout > 0 ? Tr::tr(", dropout %1").arg(f.loraDropout) : QString());
    parts << Tr::tr("ZeRO stage %1").arg(c.zeroStage);
    parts << (c.dataParallel == 1 ? Tr::tr("1 GPU") : Tr::tr("%1 data-parallel GPUs").arg(c.dataParallel));
    if (c.offloadOptimizer)
        parts << Tr::tr("optimizer offloaded to the host");
    parts << (c.checkpointing == Checkpointing::None
                  ? Tr::tr("no activation checkpointing")
                  : Tr::tr("checkpointing: %1").arg(Labels::checkpointing(c.checkpointing)));
    if (!vision)
        parts << Tr::tr("attention: %1").arg(Labels::attention(c.attention));
    if (c.gradientAccumulation > 1)
        parts << Tr::tr("%1 accumulation steps").arg(c.gradientAccumulation);
    return parts.join(QStringLiteral(" · "));
}

QString overrides(const SimulationResult& r)
{
    const EffectiveGpu& g = r.estimate.gpu;
    QStringList parts;
    if (g.memoryOverridden)
        parts << Tr::tr("capacity %1").arg(formatBytes(g.memoryBytes));
    if (g.bandwidthOverridden)
        parts << Tr::tr("bandwidth %1 (datasheet %2)")
                     .arg(formatBandwidth(g.bandwidthBytesPerSecond),
                          formatBandwidth(r.gpu ? r.gpu->bandwidthBytesPerSecond() : 0.0));
    if (g.peakOverridden)
        parts << Tr::tr("%1 peak %2")
                     .arg(Labels::unit(g.overriddenUnit),
                          formatFlopsPerSecond(g.peakFlopsPerSecond[std::size_t(g.overriddenUnit)]));
    if (parts.isEmpty())
        return {};
    return Tr::tr("What-if: %1").arg(parts.join(QStringLiteral(", ")));
}

QString verdict(const SimulationResult& r, const SearchResult* searched)
{
    const Estimate& e = r.estimate;
    const QString unit = e.vision ? Tr::tr("images") : Tr::tr("tokens");
    // The core's one answer (fitVerdict): the replay's when it ran, else the peak's.
    const FitVerdict& v = searched ? searched->verdict : r.verdict;
    const QString needed = formatBytes(v.neededBytes), capacity = formatBytes(v.capacityBytes);
    QString memory;
    if (v.decidedBy == FitRule::Allocator)
        memory = v.fits
            ? Tr::tr("Fits: reserved and context %1 of %2, %3 free").arg(needed, capacity, formatBytes(v.freeBytes()))
            : Tr::tr("Does not fit: reserved and context %1 of %2, %3 over")
                  .arg(needed, capacity, formatBytes(-v.freeBytes()));
    else
        memory = v.fits
            ? Tr::tr("Fits: peak %1 of %2, %3 free").arg(needed, capacity, formatBytes(v.freeBytes()))
            : Tr::tr("Does not fit: peak %1 of %2, %3 over").arg(needed, capacity, formatBytes(-v.freeBytes()));
    // As the window says it: a micro-batch of 0 is no batch at all.
    const std::int64_t largest = searched ? searched->maxMicroBatch : e.maxMicroBatch;
    return Tr::tr("%1 · largest micro-batch %2 · step %3 · %4 · MFU %5")
        .arg(memory)
        .arg(largest > 0 ? QString::number(largest) : Tr::tr("none, even at batch 1"))
        .arg(formatSeconds(e.stepSeconds), formatRate(e.throughputPerSecond, unit), formatPercent(e.mfu));
}

QString longest(const SearchResult& searched)
{
    if (searched.maxSequence <= 0)
        return Tr::tr("none, not even the shortest");
    return QString::number(searched.maxSequence)
        + (searched.maxSequenceLimitedByModel ? Tr::tr(" (the model's limit)") : QString());
}

QString fixEffect(const Fix& fix, const Estimate& current)
{
    const QString unit = current.vision ? Tr::tr("images") : Tr::tr("tokens");
    const QString saves
        = (fix.fits ? Tr::tr("saves %1, fits") : Tr::tr("saves %1, not enough alone")).arg(formatBytes(fix.savedBytes));
    const QString rate = formatRate(fix.throughputPerSecond, unit);
    const double ratio = current.throughputPerSecond > 0 ? fix.throughputPerSecond / current.throughputPerSecond : 1.0;
    QString cost;
    if (ratio < 0.995)
        cost = Tr::tr("%1 slower (%2)").arg(formatPercent(1.0 - ratio), rate);
    else if (ratio > 1.005)
        cost = Tr::tr("%1 faster (%2)").arg(formatPercent(ratio - 1.0), rate);
    else
        cost = Tr::tr("same speed (%1)").arg(rate);
    QString effect = saves + QStringLiteral(" · ") + cost;
    // A change of the global batch is a change of the training: said first.
    const std::int64_t before = current.config.microBatch * current.config.gradientAccumulation;
    const std::int64_t after = fix.config.microBatch * fix.config.gradientAccumulation;
    if (before != after)
        effect = Tr::tr("global batch %1 instead of %2").arg(after).arg(before) + QStringLiteral(" · ") + effect;
    return effect;
}

QStringList caption(const SimulationResult& r, const SearchResult* searched)
{
    QStringList lines { title(r), settings(r) };
    if (const QString o = overrides(r); !o.isEmpty())
        lines << o;
    lines << verdict(r, searched);
    return lines;
}

QString breakdownCsv(const SimulationResult& r, const SearchResult* searched)
{
    // The window's verdict is the searches' (the result's own is the peak's where they have not run).
    const FitVerdict verdict = searched ? searched->verdict : searchFits(r).verdict;
    const Estimate& e = r.estimate;
    // Plain C-locale numbers: a CSV is read by programs.
    const QLocale c = QLocale::c();
    QString out = QStringLiteral("category,label,steady_bytes,at_peak_bytes,at_peak_gib,share_of_peak\n");
    auto row = [&](const QString& id, const QString& label, double steady, double atPeak) {
        out += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                   .arg(id, csvField(label), c.toString(steady, 'f', 0), c.toString(atPeak, 'f', 0),
                        c.toString(atPeak / units::kGiB, 'f', 4),
                        c.toString(e.peakBytes > 0 ? atPeak / e.peakBytes : 0.0, 'f', 4));
    };
    for (int i = 0; i < kMemoryCategoryCount; ++i) {
        const auto cat = MemoryCategory(i);
        row(QString::fromLatin1(toString(cat).data(), qsizetype(toString(cat).size())), Labels::category(cat),
            e.components[std::size_t(i)], e.atPeak[std::size_t(i)]);
    }
    double steady = 0.0;
    for (double b : e.components)
        steady += b;
    row(QStringLiteral("total"), Tr::tr("Total"), steady, e.peakBytes);
    // What the verdict holds against the capacity: with PyTorch's caching allocator and the CUDA context where it was
    // replayed (above the total by what the allocator keeps cached), so that a reader can tell "fits" from the table.
    row(QStringLiteral("needed"), Tr::tr("Needed (the verdict's figure)"), verdict.neededBytes, verdict.neededBytes);
    row(QStringLiteral("capacity"), Tr::tr("GPU capacity"), e.capacityBytes, e.capacityBytes);
    return out;
}

} // namespace headroom::gui::ScenarioText
