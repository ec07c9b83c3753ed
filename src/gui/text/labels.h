#pragma once

// Translated, user-visible names for the core's enums. The core returns enums and stable identifiers; every
// string a person reads goes through tr() here.

#include "error.h"
#include "estimate.h"
#include "modelspec.h"
#include "sdpa.h"
#include "sweep.h"
#include "trainingconfig.h"
#include "types.h"

#include <QCoreApplication>
#include <QString>

namespace headroom::gui {

class Labels {
    Q_DECLARE_TR_FUNCTIONS(Labels)

public:
    static QString category(MemoryCategory c);
    static QString categoryDescription(MemoryCategory c);
    static QString phase(Phase p);
    // A core error in the window's language: where it is (the file, the field) framed in words, the reason as the
    // core gives it, in English (the core has no translations). English keeps "file: field: reason".
    static QString error(const Error& e);
    static QString segment(GpuSegment s); // "laptop", "data center"; 笔记本, 数据中心 in Chinese
    // What a GPU search matches for a segment in any UI language: segment() and the names in both of the app's
    // languages ("laptop" and 笔记本 whether the window is in English or Chinese), plus "datacenter".
    static QStringList segmentSearchTerms(GpuSegment s);
    static QString kind(OpKind k);
    static QString unit(MathUnit u);
    static QString unitShort(MathUnit u); // "BF16", for the roofline's roof labels
    static QString precision(Precision p);
    static QString mixedStyle(MixedPrecisionStyle s);
    static QString checkpointing(Checkpointing c);
    static QString attention(AttentionImpl a);
    static QString loop(TrainingLoop l);
    static QString sdpaKernel(SdpaKernel k);
    // Why SDPA runs that kernel, in the window's language: what the kernels before it refused ("FP32 with
    // grouped-query attention"), as the core's sdpaReason says it in English for the CLI.
    static QString sdpaReason(const SdpaChoice& choice, const SdpaCall& call);
    static QString optimizer(OptimizerKind o);
    static QString finetune(FinetuneMethod m);
    // The adapted layers: PEFT's default for the model ("q, v"; "qkv" where fused), all linear layers, or the names.
    static QString loraTargets(const FinetuneConfig& f, const ModelSpec* model);
    static QString fix(const Fix& f); // a combination joins its changes with " + "
    static QString change(FixKind kind, const TrainingConfig& config);
    static QString layer(int layer, int layers);
    // A what-if note for display: the default scenario's own note in the user's language, any other as written.
    static QString overrideNote(const std::string& note);
    // The core's warnings, in the user's language.
    static QStringList warnings(const Estimate& e);
    static QString norm(NormKind n);
    static QString activation(Activation a);
    static QString position(PositionKind p);
    static QString head(HeadKind h);
};

} // namespace headroom::gui
