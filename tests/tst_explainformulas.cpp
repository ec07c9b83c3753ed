// The Explain panel's formulas are arithmetic a class can check: for every memory category of every precision x
// fine-tuning method x weight format (autocast FP32 weights, 16-bit weights with FP32 master copies, NF4 under
// QLoRA, FP8 copies) x optimizer x ZeRO layout, each line "count × bytes = total" of the panel as the user reads it
// multiplies out to its total (within the rounding of what is shown), and the totals add up to the category's
// figure in the chart (Estimate::components). The expected bytes per element are the formats' definitions (IEEE and
// bfloat16 widths; NF4 with double quantization, Dettmers et al. 2023 sec. 3: 4 + 8/64 + 32/(64 x 256) bits).

#include "catalogloader.h"
#include "explainer.h"
#include "explainrequest.h"
#include "formatting.h"
#include "labels.h"
#include "language.h"
#include "scenario.h"
#include "sdpa.h"
#include "simulate.h"

#include <QFile>
#include <QLocale>
#include <QRegularExpression>
#include <QTest>
#include <QTextDocumentFragment>

#include <cmath>

using namespace headroom;
using namespace headroom::gui;

namespace {

const Catalog& catalog()
{
    static const Catalog c = CatalogLoader::bundled(nullptr);
    return c;
}

// A displayed quantity and half a unit of its last digit.
struct Shown {
    double value = 0.0;
    double halfUnit = 0.0;
    bool ok = false;
};

// "6,476,005,376", "0.515869140625 B", "3.11 GiB", "5%", "8".
Shown parseQuantity(QString text)
{
    static const QRegularExpression re(QStringLiteral("^([0-9][0-9,]*(?:\\.([0-9]+))?)\\s*(B|KiB|MiB|GiB|TiB|%)?$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return {};
    QString digits = m.captured(1);
    digits.remove(QLatin1Char(','));
    const int decimals = int(m.captured(2).size());
    double scale = 1.0;
    const QString unit = m.captured(3);
    if (unit == QLatin1String("KiB"))
        scale = 1024.0;
    else if (unit == QLatin1String("MiB"))
        scale = 1024.0 * 1024.0;
    else if (unit == QLatin1String("GiB"))
        scale = 1024.0 * 1024.0 * 1024.0;
    else if (unit == QLatin1String("TiB"))
        scale = 1024.0 * 1024.0 * 1024.0 * 1024.0;
    else if (unit == QLatin1String("%"))
        scale = 0.01;
    return { digits.toDouble() * scale, 0.5 * std::pow(10.0, -decimals) * scale, true };
}

// "a × b × c ÷ d" as written; ok is false when a factor is not a number.
Shown evaluate(const QString& expression)
{
    Shown r { 1.0, 0.0, true };
    double relative = 0.0;
    const QStringList quotient = expression.split(QStringLiteral(" ÷ "));
    for (int i = 0; i < quotient.size(); ++i) {
        for (const QString& factor : quotient[i].split(QStringLiteral(" × "))) {
            const Shown f = parseQuantity(factor);
            if (!f.ok || f.value == 0.0)
                return {};
            r.value = i == 0 ? r.value * f.value : r.value / f.value;
            relative += f.halfUnit / f.value;
        }
    }
    r.halfUnit = r.value * relative;
    return r;
}

// The formula block of a category's section: the lines of its <p><b>...</b></p>, as plain text.
QStringList formulaLines(const QString& html)
{
    const int begin = html.indexOf(QStringLiteral("<p><b>"));
    const int end = html.indexOf(QStringLiteral("</b></p>"), begin);
    if (begin < 0 || end < 0)
        return {};
    QStringList lines;
    for (const QString& part : html.mid(begin + 6, end - begin - 6).split(QStringLiteral("<br>")))
        lines << QTextDocumentFragment::fromHtml(part).toPlainText().trimmed();
    return lines;
}

struct Case {
    QString name;
    Scenario scenario;
};

void addCases(QList<Case>& out, const char* model)
{
    const Precision precisions[] = { Precision::FP32,      Precision::TF32,     Precision::MixedFP16,
                                     Precision::MixedBF16, Precision::PureBF16, Precision::MixedFP8 };
    const FinetuneMethod methods[] = { FinetuneMethod::Full, FinetuneMethod::Freeze, FinetuneMethod::LoRA,
                                       FinetuneMethod::DoRA, FinetuneMethod::QLoRA };
    // Weight formats: autocast keeps FP32 weights; master weights keep 16-bit weights with FP32 masters and FP32 or
    // 16-bit gradients.
    struct Style {
        MixedPrecisionStyle style;
        GradientStorage grads;
        const char* name;
    };
    const Style styles[] = { { MixedPrecisionStyle::Autocast, GradientStorage::FP32, "autocast" },
                             { MixedPrecisionStyle::MasterWeights, GradientStorage::FP32, "master-fp32grad" },
                             { MixedPrecisionStyle::MasterWeights, GradientStorage::Low, "master-lowgrad" } };
    const OptimizerKind optimizers[] = { OptimizerKind::AdamW, OptimizerKind::SGDMomentum, OptimizerKind::AdamW8bit,
                                         OptimizerKind::PagedAdamW8bit, OptimizerKind::Adafactor };
    struct Layout {
        int zero, dp;
        bool offload;
        const char* name;
    };
    const Layout layouts[] = {
        { 0, 1, false, "1gpu" }, { 0, 2, false, "ddp2" }, { 2, 2, true, "zero2-offload" }, { 3, 4, false, "zero3x4" }
    };
    for (Precision p : precisions)
        for (FinetuneMethod m : methods)
            for (const Style& st : styles)
                for (OptimizerKind o : optimizers)
                    for (const Layout& l : layouts) {
                        Case c;
                        c.scenario.gpuId = "a100-sxm4-80gb";
                        c.scenario.modelId = model;
                        TrainingConfig& t = c.scenario.config;
                        t.microBatch = 2;
                        t.sequenceLength = 256;
                        t.precision = p;
                        t.mixedStyle = st.style;
                        t.masterGradients = st.grads;
                        t.optimizer = o;
                        t.zeroStage = l.zero;
                        t.dataParallel = l.dp;
                        t.offloadOptimizer = l.offload;
                        t.finetune.method = m;
                        t.finetune.frozenLayers = 2;
                        c.name = QStringLiteral("%1 p%2 m%3 %4 o%5 %6")
                                     .arg(QLatin1String(model))
                                     .arg(int(p))
                                     .arg(int(m))
                                     .arg(QLatin1String(st.name))
                                     .arg(int(o))
                                     .arg(QLatin1String(l.name));
                        out << c;
                    }
}

} // namespace

class TestExplainFormulas : public QObject {
    Q_OBJECT

private:
    // Checks every category's formula against the figure; returns the number of failures (and logs them).
    static int check(const QString& name, const SimulationResult& r);

private slots:
    // The English window's number format (Language::apply("en")): 6,476,005,376.
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void qloraExample();
    void everyCombination();
    void sdpaReasonInTheWindowsLanguage();
    void stepTimeNamesEveryMeasuredKernelRule();
    void operatorTimeAddsUpToWhatTheRooflineShows();
};

int TestExplainFormulas::check(const QString& name, const SimulationResult& r)
{
    int failures = 0;
    auto fail = [&](MemoryCategory c, const QString& why) {
        if (++failures <= 3)
            qWarning("%s, %s: %s", qPrintable(name), toString(c).data(), qPrintable(why));
    };
    for (int ci = 0; ci < kMemoryCategoryCount; ++ci) {
        const auto c = MemoryCategory(ci);
        // The figure the chart shows for the category: the simulated component (transient: at the peak).
        const double figure = c == MemoryCategory::Transient ? r.estimate.atPeak[ci] : r.estimate.components[ci];
        ExplainRequest q;
        q.topic = ExplainRequest::Topic::Category;
        q.category = c;
        const QStringList lines = formulaLines(Explainer::html(q, r));
        double sum = 0.0, slack = 0.0;
        int terms = 0;
        for (const QString& line : lines) {
            // "name: expression = total", "name: total", or "sum: total".
            const int eq = line.lastIndexOf(QStringLiteral(" = "));
            const int colon = line.lastIndexOf(QStringLiteral(": "), eq < 0 ? -1 : eq);
            const Shown total = parseQuantity(eq >= 0 ? line.mid(eq + 3) : line.mid(colon + 2));
            if (colon < 0 && eq < 0)
                continue; // prose
            if (!total.ok) {
                if (!line.endsWith(QLatin1Char(':')))
                    fail(c, QStringLiteral("not a quantity: ") + line);
                continue;
            }
            if (eq >= 0) {
                const int from = int(std::max<qsizetype>(colon >= 0 ? colon + 2 : 0,
                                                         line.lastIndexOf(QStringLiteral(" = "), eq - 1) + 3));
                const Shown product = evaluate(line.mid(from, eq - from));
                if (!product.ok || std::abs(product.value - total.value) > product.halfUnit + total.halfUnit + 1.0)
                    fail(c, QStringLiteral("%1 multiplies out to %2 B").arg(line).arg(product.value, 0, 'f', 0));
            }
            if (line.startsWith(QStringLiteral("sum: "))) {
                if (formatBytes(figure) != line.mid(5))
                    fail(c, QStringLiteral("%1 against the figure %2").arg(line, formatBytes(figure)));
                continue;
            }
            sum += total.value;
            slack += total.halfUnit;
            ++terms;
        }
        const double shownFigure = parseQuantity(formatBytes(figure)).halfUnit;
        if (std::abs(sum - figure) > slack + shownFigure + 1.0)
            fail(c,
                 QStringLiteral("%1 terms add up to %2 B, the figure is %3 B: %4")
                     .arg(terms)
                     .arg(sum, 0, 'f', 0)
                     .arg(figure, 0, 'f', 0)
                     .arg(lines.join(QStringLiteral(" | "))));
    }
    return failures;
}

void TestExplainFormulas::qloraExample()
{
    // The README's QLoRA example: the Weights bar is the NF4 base plus what stays in 16 or 32 bits.
    QFile f(QStringLiteral(HEADROOM_SOURCE_DIR "/resources/scenarios/09-llama-2-7b-qlora.headroom.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto doc = parseScenario(f.readAll().toStdString(), "09");
    QVERIFY(doc.ok());
    const auto r = simulate(catalog(), doc->scenario, SimulateOptions::interactive());
    QVERIFY(r.ok());
    QCOMPARE(check(QStringLiteral("QLoRA example"), *r), 0);
    // Llama 2 7B's block Linear layers (HF config: hidden 4096, intermediate 11008, 32 layers):
    // 32 x (4 x 4096^2 + 3 x 4096 x 11008) = 6,476,005,376 weights in NF4 at (4 + 8/64 + 32/16384) / 8 bytes.
    ExplainRequest q;
    const QStringList weights = formulaLines(Explainer::html(q, *r));
    if (qEnvironmentVariableIsSet("HEADROOM_SHOW_FORMULAS")) {
        for (int ci = 0; ci < kMemoryCategoryCount; ++ci) {
            q.category = MemoryCategory(ci);
            qInfo("%s", qPrintable(formulaLines(Explainer::html(q, *r)).join(QLatin1Char('\n'))));
        }
        q.category = MemoryCategory::Weights;
    }
    QVERIFY2(weights.join(QLatin1Char('\n')).contains(QStringLiteral("6,476,005,376 × 0.515869140625 B")),
             qPrintable(weights.join(QLatin1Char('\n'))));
}

void TestExplainFormulas::everyCombination()
{
    QList<Case> cases;
    addCases(cases, "gpt2");
    addCases(cases, "tinyllama-1.1b");
    int checked = 0, failures = 0;
    SimulationCache cache;
    for (const Case& c : cases) {
        auto r = simulate(catalog(), c.scenario, SimulateOptions::interactive(), &cache);
        if (!r.ok())
            continue; // a combination the simulator refuses (validateConfig)
        ++checked;
        failures += check(c.name, *r);
    }
    qInfo("%d of %d combinations simulated", checked, int(cases.size()));
    QCOMPARE_GE(checked, 1000);
    QCOMPARE(failures, 0);
}

// Issue 29: Explain said why SDPA runs its kernel in English in a Chinese window ("FP32 with grouped-query
// attention"). The window words the refusals itself: in English exactly as the CLI's sdpaReason (sdpa.cpp) says
// them, in Chinese in Chinese (all but a bare "FP32"), over every combination of the calls sdp_utils decides on.
void TestExplainFormulas::sdpaReasonInTheWindowsLanguage()
{
    std::vector<std::pair<SdpaChoice, SdpaCall>> cases;
    for (const KernelBackend device : { KernelBackend::Cuda, KernelBackend::Cpu })
        for (const DType dtype : { DType::F32, DType::BF16, DType::F16 })
            for (const int headDim : { 64, 80, 256 })
                for (const int kvHeads : { 32, 8 })
                    for (const double dropout : { 0.0, 0.1 })
                        for (const int cc : { 75, 86, 90 })
                            for (const int minor : { 4, 11 }) {
                                SdpaCall call;
                                call.device = device;
                                call.dtype = dtype;
                                call.headDim = headDim;
                                call.heads = 32;
                                call.kvHeads = kvHeads;
                                call.dropout = dropout;
                                call.computeCapability = cc;
                                call.torch = TorchVersion { 2, minor };
                                cases.emplace_back(chooseSdpaKernel(call), call);
                            }
    QCOMPARE(cases.size(), std::size_t(2 * 3 * 3 * 2 * 2 * 3 * 2));
    QStringList english;
    for (const auto& [choice, call] : cases) {
        english << QString::fromStdString(sdpaReason(choice, call));
        QCOMPARE(gui::Labels::sdpaReason(choice, call), english.back());
    }
    gui::Language language;
    QVERIFY(language.apply(QStringLiteral("zh_CN")));
    int chinese = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        if (english[qsizetype(i)] == QLatin1String("FP32"))
            continue;
        const QString zh = gui::Labels::sdpaReason(cases[i].first, cases[i].second);
        QVERIFY2(zh.contains(QRegularExpression(QStringLiteral("[\\x{4e00}-\\x{9fff}]"))),
                 qPrintable(english[qsizetype(i)] + QStringLiteral(" -> ") + zh));
        ++chinese;
    }
    QVERIFY(language.apply(QStringLiteral("en")));
    QCOMPARE_GT(chinese, int(cases.size()) / 2);
}

// Every efficiency the step time uses is on the Explain panel's table with its figure: the kernel rules read off the
// H200 profiles too (docs/accuracy.md 3.2), each on a row of its own, its figure in the next cell.
void TestExplainFormulas::stepTimeNamesEveryMeasuredKernelRule()
{
    const auto r = simulate(catalog(), defaultScenario(), SimulateOptions::interactive());
    QVERIFY(r.ok());
    const QString text = QTextDocumentFragment::fromHtml(Explainer::stepTime(*r, r->timeRange)).toPlainText();
    const Efficiency e;
    const std::pair<const char*, double> rules[] = {
        { "16-bit batch norm on NCHW tensors", e.nchwBatchNormBandwidth },
        { "elementwise kernels that convert dtypes", e.castingBandwidth },
        { "sums over rows", e.columnReduceBandwidth },
        { "copies of non-contiguous tensors", e.stridedCopyBandwidth },
    };
    // The host's fitted costs as docs/formulas.md 6.1 gives them.
    for (const double cost : { e.hostForwardOpSeconds, e.hostBackwardOpSeconds, e.hostRecomputeOpSeconds })
        QVERIFY2(text.contains(QLocale().toString(cost * 1e6, 'g', 3) + QStringLiteral(" µs per")), qPrintable(text));
    for (const auto& [name, figure] : rules) {
        const QString percent = QLocale().toString(figure * 100.0, 'f', 0) + QStringLiteral(" %");
        const QRegularExpression row(QRegularExpression::escape(QLatin1String(name)) + QStringLiteral("[^\\n]*\\n")
                                     + QRegularExpression::escape(percent));
        QVERIFY2(text.contains(row),
                 qPrintable(QStringLiteral("%1 at %2 in:\n%3").arg(QLatin1String(name), percent, text)));
    }
}

// A roofline dot's Explain gives its time as the core priced it, part by part, and the parts add up to the time
// shown: the embedding LayerNorm's backward at micro-batch 26 said "time = Σ max(FLOPs / (η_c π), bytes / (η_m β),
// launch) = 1.0 ms" where bytes / (0.78 β) is 0.40 ms (its weight-gradient sums over rows, a kernel of their own at
// 0.35 of β, were not in the formula). Every dot of a GPU-bound and of a host-bound step.
void TestExplainFormulas::operatorTimeAddsUpToWhatTheRooflineShows()
{
    Scenario gpuBound = defaultScenario();
    gpuBound.config.microBatch = 26;
    Scenario hostBound = defaultScenario();
    hostBound.gpuId = "h200-sxm-141gb";
    hostBound.overrides = {};
    hostBound.config.microBatch = 1;
    for (const Scenario& s : { gpuBound, hostBound }) {
        const auto r = simulate(catalog(), s, SimulateOptions::interactive());
        QVERIFY(r.ok());
        double waited = 0.0;
        for (int i = 0; i < int(r->estimate.operatorPoints.size()); ++i) {
            const RooflinePoint& p = r->estimate.operatorPoints[std::size_t(i)];
            const double parts = p.computeSeconds + p.memorySeconds + p.extraSeconds + p.launchSeconds;
            QVERIFY(parts <= p.seconds * (1.0 + 1e-9) + 1e-12);
            QCOMPARE_GE(p.launchSeconds, p.count * Efficiency {}.launchSeconds * 0.999);
            waited += p.hostWaitSeconds();
            ExplainRequest request;
            request.topic = ExplainRequest::Topic::Operator;
            request.operatorIndex = i;
            const QString text = QTextDocumentFragment::fromHtml(Explainer::html(request, *r)).toPlainText();
            for (const double v : { p.computeSeconds + p.memorySeconds, p.extraSeconds, p.launchSeconds,
                                    p.hostWaitSeconds(), p.seconds })
                QVERIFY2(text.contains(formatSeconds(v)),
                         qPrintable(formatSeconds(v) + QStringLiteral(" not in:\n") + text));
            static const QRegularExpression placeholder(QStringLiteral("%\\d"));
            QVERIFY2(!text.contains(placeholder), qPrintable(text));
            if (s.config.microBatch == 26 && p.name == "embed.norm" && p.phase == Phase::Backward) {
                QCOMPARE_GT(p.extraSeconds, 0.0); // the weight gradient's sums over rows
                QVERIFY2(text.contains(QStringLiteral("Bound by memory")), qPrintable(text));
            }
        }
        // The A3000's step is bound by its GPU; the H200's at micro-batch 1 by the host (docs/accuracy.md 3.2).
        QCOMPARE(waited > 0.1 * r->estimate.stepSeconds, r->estimate.hostBound());
    }
}

QTEST_MAIN(TestExplainFormulas)
#include "tst_explainformulas.moc"
