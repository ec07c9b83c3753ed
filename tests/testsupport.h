#pragma once

// Shared helpers for the tests: load the bundled catalog once and build custom models in code.

#include "catalogloader.h"
#include "estimate.h"
#include "modelspec.h"
#include "scenario.h"

#include <QFile>
#include <QTest>

#include <string_view>

namespace headroom::test {

inline const Catalog& catalog()
{
    static const Catalog c = [] {
        LoadReport report;
        Catalog cat = CatalogLoader::bundled(&report);
        if (!report.errors.isEmpty())
            qFatal("bundled data failed to load: %s", qPrintable(report.errors.join(QLatin1Char('\n'))));
        return cat;
    }();
    return c;
}

inline const ModelSpec& preset(const char* id)
{
    const ModelSpec* m = catalog().model(id);
    if (!m)
        qFatal("missing preset %s", id);
    return *m;
}

inline const GpuSpec& gpu(const char* id)
{
    const GpuSpec* g = catalog().gpu(id);
    if (!g)
        qFatal("missing GPU %s", id);
    return *g;
}

// One of the example scenarios the window opens (resources/scenarios/), as its file says it.
inline Scenario exampleScenario(const char* file)
{
    QFile f(QStringLiteral(HEADROOM_SOURCE_DIR "/resources/scenarios/") + QLatin1String(file));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read the example %s", file);
    const QByteArray text = f.readAll();
    auto doc = parseScenario(std::string_view(text.constData(), std::size_t(text.size())), file);
    if (!doc)
        qFatal("the example %s does not parse", file);
    return doc->scenario;
}

// Options for a test that reads the peak, the components or the time of an estimate: no search for the longest
// sequence that fits and no per-step timeline, each set by name so that a new field of EstimateOptions keeps its
// default.
inline EstimateOptions fastOptions()
{
    EstimateOptions o;
    o.searchMaxSequence = false;
    o.keepTimeline = false;
    return o;
}

// p pipeline stages running m micro-batches per step under `schedule` (v model chunks per stage when interleaved).
inline TrainingConfig pipelineConfig(int p, int m, PipelineSchedule schedule = PipelineSchedule::OneFOneB, int v = 1)
{
    TrainingConfig c;
    c.pipelineParallel = p;
    c.gradientAccumulation = m;
    c.pipelineSchedule = schedule;
    c.virtualStages = v;
    return c;
}

// The same with the per-step memory timeline kept, for tests that walk it.
inline EstimateOptions fastOptionsWithTimeline()
{
    EstimateOptions o = fastOptions();
    o.keepTimeline = true;
    return o;
}

// A GPT layer as Korthikanti et al. 2022 and Narayanan et al. 2021 describe it: pre-LayerNorm, one QKV projection,
// 4h FFN with GeLU, learned positions, tied embeddings, biases.
inline ModelSpec gptModel(int layers, int hidden, int heads, std::int64_t vocab, std::int64_t positions, double dropout)
{
    ModelSpec m;
    m.id = "test-gpt";
    m.name = "test GPT";
    auto& t = m.transformer;
    t.layers = layers;
    t.hidden = hidden;
    t.heads = heads;
    t.kvHeads = heads;
    t.ffn = 4 * hidden;
    t.vocab = vocab;
    t.maxPositions = positions;
    t.causal = true;
    t.preNorm = true;
    t.activation = Activation::Gelu;
    t.fusedQkv = true;
    t.tiedEmbeddings = true;
    t.head = HeadKind::CausalLM;
    t.embeddingDropout = t.attentionDropout = t.hiddenDropout = dropout;
    return m;
}

} // namespace headroom::test
