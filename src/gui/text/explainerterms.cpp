// The Explain panel's arithmetic: each memory category as the sum of products the core gives (explain.h,
// memoryterm.h), written so that a class can multiply every line out to the figure beside it.

#include "explainer.h"

#include "formatting.h"

#include <QLocale>

namespace headroom::gui {

namespace {
    // Every digit of a count or a byte size: 6,738,415,616; 0.515869140625.
    QString exact(double v) { return QLocale().toString(v, 'g', 15); }
} // namespace

QString Explainer::dtypeName(DType t)
{
    switch (t) {
    case DType::F32:
        return tr("FP32");
    case DType::F16:
        return tr("FP16");
    case DType::BF16:
        return tr("BF16");
    case DType::F8:
        return tr("FP8");
    case DType::U8:
        return tr("INT8");
    case DType::I64:
        return tr("INT64");
    case DType::I32:
        return tr("INT32");
    case DType::NF4:
        // Dettmers et al. 2023, sec. 3: 4-bit codes, an 8-bit absmax per block of 64 and an FP32 constant per 256
        // blocks: (4 + 8/64 + 32/16384) / 8 bytes.
        return tr("NF4: 4 bits + 8-bit absmax per 64 weights + FP32 constant per 16,384 = 4.127 bits");
    }
    return {};
}

QString Explainer::termName(const MemoryTerm& t)
{
    switch (t.kind) {
    case TermKind::FrozenWeights:
        return tr("frozen weights (%1)").arg(dtypeName(t.dtype));
    case TermKind::TrainedWeights:
        return tr("trained weights (%1)").arg(dtypeName(t.dtype));
    case TermKind::Adapters:
        return tr("LoRA adapters (%1)").arg(dtypeName(t.dtype));
    case TermKind::Gradients:
        return tr("gradients (%1)").arg(dtypeName(t.dtype));
    case TermKind::DdpBuckets:
        return tr("DDP gradient buckets (%1)").arg(dtypeName(t.dtype));
    case TermKind::MasterWeights:
        return tr("FP32 master weights");
    case TermKind::Moments:
        return tr("Adam moments m and v (%1)").arg(dtypeName(t.dtype));
    case TermKind::Momentum:
        return tr("momentum (%1)").arg(dtypeName(t.dtype));
    case TermKind::QuantizedStates:
        return tr("8-bit states m and v");
    case TermKind::StateScales:
        return tr("their FP32 absmax, one per 256 elements");
    case TermKind::SmallTensorStates:
        return tr("32-bit states of tensors under 4096 elements");
    case TermKind::FactoredStates:
        return tr("factored second moments, rows + columns (FP32)");
    case TermKind::AutocastCasts:
        return tr("autocast's cached casts (%1)").arg(dtypeName(t.dtype));
    case TermKind::Fp8Copies:
        return tr("FP8 weight copies and transposes");
    case TermKind::Operator: {
        QString label = QString::fromUtf8(t.label.data(), qsizetype(t.label.size()));
        return t.backward ? tr("%1 (gradient)").arg(label) : label;
    }
    case TermKind::OtherOperators:
        return tr("all other operators");
    case TermKind::InputBatch:
        return tr("the micro-batch's inputs");
    case TermKind::FrameworkOverhead:
        return tr("CUDA context and workspaces");
    case TermKind::AllocatorReserve:
        return tr("allocator reserve");
    case TermKind::Workspaces:
        return tr("buffers allocated in the step (NCCL, cuDNN)");
    }
    return {};
}

// "name: count × bytes B = total", with the copies in front and the ZeRO shard behind.
QString Explainer::termLine(const MemoryTerm& t)
{
    const QString total = formatBytes(t.bytes());
    if (t.kind == TermKind::AllocatorReserve)
        return tr("%1, on the bytes allocated at the peak: %2 × %3 = %4")
            .arg(termName(t), formatPercent(t.bytesPerElement, 0), formatBytes(t.count), total);
    if (t.dtype == DType::U8 && t.kind != TermKind::QuantizedStates)
        return tr("%1: %2").arg(termName(t), total);
    QString product = tr("%1 × %2 B").arg(exact(t.count), exact(t.bytesPerElement));
    if (t.factor != 1.0)
        product = tr("%1 × %2").arg(exact(t.factor), product);
    if (t.divisor != 1.0)
        product = tr("%1 ÷ %2").arg(product, exact(t.divisor));
    return tr("%1: %2 = %3").arg(termName(t), product, total);
}

QStringList Explainer::formulaLines(const CategoryExplanation& x)
{
    QStringList lines;
    for (const MemoryTerm& t : x.terms)
        lines << termLine(t);
    if (x.terms.size() > 1)
        lines << tr("sum: %1").arg(formatBytes(x.bytes));
    return lines;
}

QStringList Explainer::formulaLines(MemoryCategory c, const SimulationResult& r)
{
    return formulaLines(explainCategory(r, c));
}

} // namespace headroom::gui
