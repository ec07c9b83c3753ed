// The window, offscreen: each control changes the simulated values the charts show (read back from their series),
// the capacity line follows the GPU, overflow is shown, the roofline's slope is the bandwidth or its override.

#include "appsettings.h"
#include "batchscale.h"
#include "batchsweepview.h"
#include "catalogloader.h"
#include "clirun.h"
#include "controlpanel.h"
#include "formatting.h"
#include "labels.h"
#include "mainwindow.h"
#include "memorychartview.h"
#include "pickersearch.h"
#include "rooflineview.h"
#include "scenariohistory.h"
#include "simulationcontroller.h"
#include "testsupport.h"
#include "timelineview.h"

#include "verdictwidget.h"
#include <QAbstractAxis>
#include <QChart>

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDockWidget>
#include <QFile>
#include <QGraphicsSimpleTextItem>
#include <QGroupBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <functional>

using namespace headroom;
using namespace headroom::gui;

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void defaultScenarioIsShown();
    void batchSliderMovesEveryChart();
    void capacityFollowsTheGpu();
    void overflowIsShown();
    void verdictStatesWhatPyTorchWouldReport();
    void allocatorControlsChangeWhatPyTorchWouldReport();
    void measurementIsComparedWhileItsScenarioHolds();
    void rooflineSlopeIsTheBandwidth();
    void precisionChangesRoofAndDots();
    void checkpointingAndZeroShrinkTheirCategories();
    void sequenceSliderChangesActivations();
    void explainGivesFormulaAndSource();
    void scenarioAndGeometryAreRemembered();
    void badScenarioFileChangesNothing();
    void valuesBeyondAControlAreKept();
    void gpuPickerGroupsAndSearchesBySegment();
    void searchPopupSelectsTheChosenModel();
    void chartTitlesSurviveResizes();
    void explainPanelOpensOnTheLargestCategory();
    void mnemonicsAreUnique();
    void weightsControlOnlyInMixedPrecision();
    void sequenceStopsAtLearnedPositions();
    void modelListStatesEachCountOnce();
    void everyControlSaysWhatItDoes();
    void wheelOverThePanelScrollsIt();
    void typedNameResolvesToTheBestMatch();
    void batchSliderStepsOneByOneNearItsValue();
    void chartsGiveTheVerdictsAnswer();
    void nothingFitsSaysNone();
    void timelineStatesWhatItSpans();
    void timelinePeakLabelOffTheCapacityLine();
    void timelinePhaseNamesClearOfTheFrame();
    void memoryChartShowsWhatCrossesTheLine();
    void memoryChartNamesThePhaseItStopsIn();
    void verdictHoldsItsHeightThroughADrag();
    void everyControlHasItsUndoWords();
    void overheadStepIsOneMiB();

private:
    static double total(const MemoryChartView* v, Phase p)
    {
        double t = 0.0;
        for (int c = 0; c < kMemoryCategoryCount; ++c)
            t += v->barValue(p, MemoryCategory(c));
        return t;
    }
    void selectData(QComboBox* combo, int value)
    {
        const int i = combo->findData(value);
        QVERIFY(i >= 0);
        combo->setCurrentIndex(i);
    }
    void selectId(QComboBox* combo, const char* id)
    {
        const int i = combo->findData(QString::fromLatin1(id), Qt::UserRole + 1);
        QVERIFY2(i >= 0, id);
        combo->setCurrentIndex(i);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<SimulationController> m_controller;
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindow::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<AppSettings>(m_dir->filePath(QStringLiteral("settings.ini")), nullptr);
    m_controller = std::make_unique<SimulationController>(CatalogLoader::bundled());
    m_window = std::make_unique<MainWindow>(m_controller.get(), m_settings.get());
    QVERIFY(m_window->applyScenario(defaultScenario()));
    m_window->resize(1600, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestMainWindow::cleanup()
{
    m_window.reset();
    m_controller.reset();
    m_settings.reset();
}

void TestMainWindow::defaultScenarioIsShown()
{
    const Estimate& e = m_controller->result().estimate;
    // RTX A3000 12 GB: the driver's 12288 MiB; the default's what-if bandwidth.
    QCOMPARE(m_window->memoryChart()->capacityLine(), 12288.0 * 1048576.0);
    QCOMPARE(m_window->sweepChart()->capacityLine(), 12288.0 * 1048576.0);
    QCOMPARE(e.gpu.bandwidthBytesPerSecond, 392e9);
    QVERIFY(m_window->verdict()->headline().contains(QStringLiteral("Fits")));
    // The bars are the timeline's phase maxima: the tallest is the estimate's peak minus nothing.
    const double tallest = std::max({ total(m_window->memoryChart(), Phase::Forward),
                                      total(m_window->memoryChart(), Phase::Backward),
                                      total(m_window->memoryChart(), Phase::Optimizer) });
    QCOMPARE(tallest, e.peakBytes);
    QCOMPARE(m_window->timelineChart()->peakMarker().y(), e.peakBytes);
    QVERIFY(m_window->timelineChart()->peakText().contains(QStringLiteral("backward")));
}

void TestMainWindow::batchSliderMovesEveryChart()
{
    ControlPanel* c = m_window->controls();
    const double actBefore = m_window->memoryChart()->barValue(Phase::Forward, MemoryCategory::Activations);
    const QList<QPointF> gemmBefore = m_window->rooflineChart()->dots(OpKind::Gemm);
    QVERIFY(!gemmBefore.isEmpty());
    c->batchSlider()->setValue(c->positionFromBatch(32));
    QCOMPARE(m_controller->scenario().config.microBatch, 32);
    // Activations grow, the sweep's marker moves to the new batch with the new peak, and the GEMM dots move
    // toward the compute roof (more FLOPs per weight byte).
    QCOMPARE_GT(m_window->memoryChart()->barValue(Phase::Forward, MemoryCategory::Activations), 1.9 * actBefore);
    QCOMPARE(m_window->sweepChart()->marker().x(), 32.0);
    QCOMPARE(m_window->sweepChart()->marker().y(), m_controller->result().estimate.peakBytes);
    const QList<QPointF> gemmAfter = m_window->rooflineChart()->dots(OpKind::Gemm);
    double maxBefore = 0.0, maxAfter = 0.0;
    for (const auto& p : gemmBefore)
        maxBefore = std::max(maxBefore, p.x());
    for (const auto& p : gemmAfter)
        maxAfter = std::max(maxAfter, p.x());
    QCOMPARE_GT(maxAfter, maxBefore);
}

void TestMainWindow::capacityFollowsTheGpu()
{
    selectId(m_window->controls()->gpuCombo(), "rtx-3090");
    QCOMPARE(QString::fromStdString(m_controller->scenario().gpuId), QStringLiteral("rtx-3090"));
    // RTX 3090: 24 GB (gpu-specs.csv), 936 GB/s; the A3000's what-if does not carry over.
    QCOMPARE(m_window->memoryChart()->capacityLine(), 24.0 * 1073741824.0);
    QCOMPARE(m_window->rooflineChart()->bandwidthSlope(), 936e9);
}

void TestMainWindow::overflowIsShown()
{
    m_window->controls()->batchSlider()->setValue(m_window->controls()->positionFromBatch(256));
    QVERIFY(!m_controller->result().estimate.fits);
    QVERIFY(m_window->memoryChart()->overflowShown());
    QVERIFY(m_window->memoryChart()->verdictText().contains(QStringLiteral("over")));
    QVERIFY(m_window->verdict()->headline().contains(QStringLiteral("Does not fit")));
    // Suggestions arrive from the background search.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->verdict()->suggestions().contains(QStringLiteral("saves")), 10000);
}

// The verdict's third line: the caching allocator replayed on the worker, allocated and reserved as torch.cuda
// reports them and, with the CUDA context, what an OOM is decided by (the same figures as the core's replay).
void TestMainWindow::verdictStatesWhatPyTorchWouldReport()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_window->verdict()->details().contains(QStringLiteral("max_memory_allocated")), 10000);
    const auto r = simulate(m_controller->catalog(), m_controller->scenario(), SimulateOptions {});
    QVERIFY(r && r->allocator.computed);
    const QString details = m_window->verdict()->details();
    for (double bytes : { r->allocator.peakAllocatedBytes, r->allocator.peakReservedBytes, r->allocator.deviceBytes })
        QVERIFY2(details.contains(formatBytes(bytes)), qPrintable(details));
    QVERIFY(r->allocator.peakReservedBytes > r->allocator.peakAllocatedBytes);
    // The step time with its range (every kernel at the fast or the slow end of its efficiency), whose link opens
    // the assumptions in Explain.
    QVERIFY(r->timeRange.computed);
    QVERIFY(r->timeRange.fastSeconds < r->estimate.stepSeconds && r->estimate.stepSeconds < r->timeRange.slowSeconds);
    for (double seconds : { r->timeRange.fastSeconds, r->timeRange.slowSeconds })
        QVERIFY2(details.contains(formatSeconds(seconds)), qPrintable(details));
    emit m_window->verdict()->explainRequested(QStringLiteral("time"));
    QVERIFY(m_window->explainHtml().contains(QStringLiteral("Step time")));
    QVERIFY(m_window->explainHtml().contains(formatSeconds(r->timeRange.slowSeconds)));
    // The PyTorch figures link to their terms: each with its figure and the rule or file it comes from.
    QVERIFY(details.contains(QStringLiteral("href=\"allocator\"")));
    emit m_window->verdict()->explainRequested(QStringLiteral("allocator"));
    const QString html = m_window->explainHtml();
    QVERIFY2(html.contains(QStringLiteral("What PyTorch would report")), qPrintable(html));
    for (double bytes : { r->allocator.cublasWorkspaceBytes, r->allocator.contextBytes, r->allocator.deviceBytes })
        QVERIFY2(html.contains(formatBytes(bytes)), qPrintable(formatBytes(bytes)));
    QVERIFY(html.contains(QStringLiteral("CUDACachingAllocator.cpp")));
}

// Expandable segments and a cuDNN workspace, set in the panel, reach the scenario and the replay; the workspace
// row shows for a model with convolutions only.
void TestMainWindow::allocatorControlsChangeWhatPyTorchWouldReport()
{
    auto* expandable = m_window->controls()->findChild<QCheckBox*>(QStringLiteral("expandableCheck"));
    auto* cudnn = m_window->controls()->findChild<QSpinBox*>(QStringLiteral("cudnnSpin"));
    QVERIFY(expandable && cudnn);
    QVERIFY(!cudnn->isVisibleTo(m_window->controls())); // BERT-base: no convolution
    Scenario s = m_controller->scenario();
    s.modelId = "resnet50";
    s.config.sequenceLength = 224;
    m_window->applyScenario(s, Control::Model);
    QVERIFY(cudnn->isVisibleTo(m_window->controls()));
    cudnn->setValue(128);
    QCOMPARE(m_controller->scenario().config.cudnnWorkspaceBytes, 128.0 * 1024 * 1024);
    expandable->setChecked(true);
    QVERIFY(m_controller->scenario().config.expandableSegments);
    QTRY_VERIFY_WITH_TIMEOUT(m_controller->background().allocator.computed
                                 && m_controller->background().allocator.cudnnWorkspaceBytes == 128.0 * 1024 * 1024
                                 && m_controller->background().allocator.expandableSegments,
                             10000);
}

// File > Compare with a Measurement: the window takes the measured scenario (GPT-2, batch 1, sequence 64, FP32, the
// probe's CPU run) and the verdict states the measurement against the prediction; a changed batch is another
// scenario, not compared; a malformed file changes nothing and names the file and the field.
void TestMainWindow::measurementIsComparedWhileItsScenarioHolds()
{
    const QString file = QStringLiteral(HEADROOM_SOURCE_DIR)
        + QStringLiteral("/tests/data/measured/gpt2-cpu-b1-s64-fp32.headroom-measured.json");
    QCOMPARE(m_window->openMeasuredFile(file), std::optional<QString>());
    const Scenario s = m_controller->scenario();
    QCOMPARE(QString::fromStdString(s.modelId), QStringLiteral("gpt2"));
    QCOMPARE(s.config.microBatch, 1);
    QCOMPARE(s.config.sequenceLength, 64);
    QVERIFY(s.config.precision == Precision::FP32);
    // The saved activations the probe measured (91,326,268 bytes in the file) against the prediction for them.
    const double predicted = m_controller->result().estimate.components[index(MemoryCategory::Activations)];
    const double relative = predicted / 91326268.0 - 1.0;
    const QString expected = QStringLiteral("saved activations %1 (predicted %2%3 %)")
                                 .arg(formatBytes(91326268.0), relative >= 0 ? QStringLiteral("+") : QString())
                                 .arg(relative * 100.0, 0, 'f', 1);
    QVERIFY2(m_window->verdict()->details().contains(expected), qPrintable(m_window->verdict()->details()));
    QVERIFY(m_window->verdict()->details().contains(QStringLiteral("Measured on x86_64 (torch 1.13.0a0)")));
    QVERIFY(m_window->timelineChart()->measuredText().isEmpty()); // a CPU run has no allocator figures
    // Predicted with the CPU kernels' saved dtypes while the scenario is the measured one, with CUDA's otherwise.
    QVERIFY(s.config.kernels == KernelBackend::Cpu);
    m_window->controls()->batchSlider()->setValue(m_window->controls()->positionFromBatch(2));
    QVERIFY(m_controller->scenario().config.kernels == KernelBackend::Cuda);
    m_window->controls()->batchSlider()->setValue(m_window->controls()->positionFromBatch(1));
    QVERIFY(m_controller->scenario().config.kernels == KernelBackend::Cpu);

    // The same run as a GPU would report it: its peak is drawn on the timeline and compared with the replay's.
    QFile cpu(file);
    QVERIFY(cpu.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(cpu.readAll()).object();
    QJsonObject device = doc.value(QStringLiteral("device")).toObject();
    device[QStringLiteral("type")] = QStringLiteral("cuda");
    device[QStringLiteral("name")] = QStringLiteral("NVIDIA RTX A3000 12GB Laptop GPU");
    doc[QStringLiteral("device")] = device;
    QJsonObject memory = doc.value(QStringLiteral("memory")).toObject();
    memory[QStringLiteral("peak_allocated_bytes")] = 2000000000.0;
    doc[QStringLiteral("memory")] = memory;
    const QString gpuFile = m_dir->filePath(QStringLiteral("gpu.headroom-measured.json"));
    QFile out(gpuFile);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(doc).toJson());
    out.close();
    // The default scenario's what-if 392 GB/s is in force; a run on the real A3000 is compared with its own 336.
    QVERIFY(m_controller->scenario().overrides.bandwidthBytesPerSecond.has_value());
    QCOMPARE(m_window->openMeasuredFile(gpuFile), std::optional<QString>());
    QCOMPARE(QString::fromStdString(m_controller->scenario().gpuId), QStringLiteral("rtx-a3000-12gb-laptop"));
    QVERIFY(!m_controller->scenario().overrides.bandwidthBytesPerSecond.has_value());
    QVERIFY2(m_window->timelineChart()->measuredText().contains(formatBytes(2000000000.0)),
             qPrintable(m_window->timelineChart()->measuredText()));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->verdict()->details().contains(QStringLiteral("peak allocated ")), 10000);

    Scenario changed = s;
    changed.config.microBatch = 2;
    QVERIFY(m_window->applyScenario(changed, Control::MicroBatch));
    QVERIFY2(m_window->verdict()->details().contains(QStringLiteral("another scenario (scenario.micro_batch)")),
             qPrintable(m_window->verdict()->details()));
    QVERIFY(m_window->timelineChart()->measuredText().isEmpty());

    const QString bad = m_dir->filePath(QStringLiteral("bad.headroom-measured.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format":"headroom-measured","version":1,"scenario":{"model":"gpt2","micro_batch":"two"}})");
    f.close();
    const QString error = m_window->openMeasuredFile(bad).value_or(QString());
    QVERIFY2(error.contains(QStringLiteral("bad.headroom-measured.json"))
                 && error.contains(QStringLiteral("micro_batch")),
             qPrintable(error));
    QCOMPARE(m_controller->scenario().config.microBatch, 2);
}

void TestMainWindow::rooflineSlopeIsTheBandwidth()
{
    QCOMPARE(m_window->rooflineChart()->bandwidthSlope(), 392e9);
    QVERIFY(m_window->rooflineChart()->bandwidthLabel().contains(QStringLiteral("392")));
    // Remove the what-if: the datasheet's 336 GB/s.
    Scenario s = m_controller->scenario();
    s.overrides = {};
    m_window->applyScenario(s);
    QCOMPARE(m_window->rooflineChart()->bandwidthSlope(), 336e9);
}

void TestMainWindow::precisionChangesRoofAndDots()
{
    ControlPanel* c = m_window->controls();
    const QList<QPointF> before = m_window->rooflineChart()->dots(OpKind::Gemm);
    selectData(c->precisionCombo(), int(Precision::FP32));
    QCOMPARE(int(m_controller->result().estimate.mfuUnit), int(MathUnit::Fp32Vector));
    // The FP32 roof of the A3000 (11.8 TFLOP/s) is drawn and the GEMMs fall to it: FP32 GEMMs move 4-byte elements.
    QCOMPARE(m_window->rooflineChart()->computeRoof(MathUnit::Fp32Vector), 11.8e12);
    const QList<QPointF> after = m_window->rooflineChart()->dots(OpKind::Gemm);
    double topBefore = 0.0, topAfter = 0.0;
    for (const auto& p : before)
        topBefore = std::max(topBefore, p.y());
    for (const auto& p : after)
        topAfter = std::max(topAfter, p.y());
    QCOMPARE_LT(topAfter, topBefore);
    QCOMPARE_LE(topAfter, 11.8e12);
}

void TestMainWindow::checkpointingAndZeroShrinkTheirCategories()
{
    ControlPanel* c = m_window->controls();
    selectData(c->attentionCombo(), int(AttentionImpl::Eager));
    const double act = m_window->memoryChart()->barValue(Phase::Forward, MemoryCategory::Activations);
    selectData(c->checkpointingCombo(), int(Checkpointing::Full));
    QCOMPARE_LT(m_window->memoryChart()->barValue(Phase::Forward, MemoryCategory::Activations), act / 4.0);

    c->dataParallelSlider()->setValue(30); // 2^3 = 8 GPUs
    QCOMPARE(m_controller->scenario().config.dataParallel, 8);
    const double states = m_window->memoryChart()->barValue(Phase::Forward, MemoryCategory::OptimizerStates);
    c->zeroSlider()->setValue(1);
    QCOMPARE(m_window->memoryChart()->barValue(Phase::Forward, MemoryCategory::OptimizerStates), states / 8.0);
}

void TestMainWindow::sequenceSliderChangesActivations()
{
    ControlPanel* c = m_window->controls();
    const double before = m_window->memoryChart()->barValue(Phase::Forward, MemoryCategory::Activations);
    c->sequenceSlider()->setValue(c->sequenceSlider()->value() - 10); // half the tokens
    QCOMPARE(m_controller->scenario().config.sequenceLength, 256);
    QCOMPARE_LT(m_window->memoryChart()->barValue(Phase::Forward, MemoryCategory::Activations), 0.6 * before);
}

void TestMainWindow::explainGivesFormulaAndSource()
{
    ExplainRequest r;
    r.topic = ExplainRequest::Topic::Category;
    r.category = MemoryCategory::OptimizerStates;
    emit m_window->memoryChart()->explainRequested(r);
    const QString html = m_window->explainHtml();
    QVERIFY(html.contains(QStringLiteral("Optimizer states")));
    QVERIFY(html.contains(QStringLiteral("ZeRO paper")));
    r.category = MemoryCategory::Activations;
    emit m_window->memoryChart()->explainRequested(r);
    QVERIFY(m_window->explainHtml().contains(QStringLiteral("derivatives.yaml")));
    // The GPU: what its file says the vendor does not publish is shown, not filled in.
    Scenario s = m_controller->scenario();
    s.gpuId = "ascend-910b";
    s.overrides = {};
    QVERIFY(m_window->applyScenario(s));
    r.topic = ExplainRequest::Topic::Capacity;
    emit m_window->memoryChart()->explainRequested(r);
    QVERIFY2(m_window->explainHtml().contains(QStringLiteral("Not published")), qPrintable(m_window->explainHtml()));
}

void TestMainWindow::scenarioAndGeometryAreRemembered()
{
    m_window->controls()->batchSlider()->setValue(m_window->controls()->positionFromBatch(4));
    m_window->resize(1300, 760);
    m_window->close();
    const auto saved = m_settings->lastScenario();
    QVERIFY(saved.has_value());
    QCOMPARE(saved->scenario.config.microBatch, 4);
    QVERIFY(!m_settings->windowGeometry().isEmpty());
    // A fresh window restores the geometry.
    MainWindow again(m_controller.get(), m_settings.get());
    QCOMPARE(again.size(), QSize(1300, 760));
}

void TestMainWindow::badScenarioFileChangesNothing()
{
    const Scenario before = m_controller->scenario();
    const QString path = m_dir->filePath(QStringLiteral("bad.headroom.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        R"({"format":"headroom-scenario","version":1,"gpu":"rtx-a3000-12gb-laptop","model":"gpt2","micro_batch":-1,"sequence_length":8})");
    f.close();
    const QString error = m_window->openScenarioFile(path).value_or(QString());
    QVERIFY2(error.contains(QStringLiteral("micro_batch")) && error.contains(QStringLiteral("bad.headroom.json")),
             qPrintable(error));
    QCOMPARE(m_controller->scenario().config.microBatch, before.config.microBatch);
    QCOMPARE(m_controller->scenario().modelId, before.modelId);
}

void TestMainWindow::valuesBeyondAControlAreKept()
{
    // The micro-batch spin box stops at 1,000,000; a scenario may hold up to 2^40 (validateConfig). Editing another
    // control must not replace the file's value with the clamped one, and the panel says what it keeps.
    Scenario s = defaultScenario();
    s.config.microBatch = 3000000;
    s.config.gradientAccumulation = 10000; // the accumulation spin box stops at 4096
    QVERIFY(m_window->applyScenario(s));
    QVERIFY(m_window->controls()->rangeNoteText().contains(QStringLiteral("3000000")));
    QVERIFY(m_window->controls()->rangeNoteText().contains(QStringLiteral("10000")));
    selectData(m_window->controls()->precisionCombo(), int(Precision::FP32));
    QCOMPARE(int(m_controller->scenario().config.precision), int(Precision::FP32));
    QCOMPARE(m_controller->scenario().config.microBatch, std::int64_t(3000000));
    QCOMPARE(m_controller->scenario().config.gradientAccumulation, 10000);
    // Changing the control itself replaces the value, and the note goes.
    m_window->controls()->batchSlider()->setValue(m_window->controls()->positionFromBatch(8));
    QCOMPARE(m_controller->scenario().config.microBatch, std::int64_t(8));
    QVERIFY(!m_window->controls()->rangeNoteText().contains(QStringLiteral("3000000")));
}

void TestMainWindow::gpuPickerGroupsAndSearchesBySegment()
{
    // Every catalog GPU can be picked, under a "vendor · segment" header, and the search matches the segment.
    QComboBox* combo = m_window->controls()->gpuCombo();
    const QAbstractItemModel* search = combo->completer()->model();
    QStringList ids;
    for (int r = 0; r < search->rowCount(); ++r)
        ids << search->index(r, 0).data(Qt::UserRole + 1).toString();
    for (const GpuSpec& g : m_controller->catalog().gpus())
        QVERIFY2(ids.contains(QString::fromStdString(g.id)), g.id.c_str());
    auto entryOf = [&](const char* id) {
        return search->index(int(ids.indexOf(QString::fromLatin1(id))), 0).data().toString();
    };
    QVERIFY2(entryOf("rtx-a3000-12gb-laptop").endsWith(QStringLiteral("NVIDIA · laptop")),
             qPrintable(entryOf("rtx-a3000-12gb-laptop")));
    QVERIFY2(entryOf("h100-sxm5-80gb").endsWith(QStringLiteral("NVIDIA · data center")),
             qPrintable(entryOf("h100-sxm5-80gb")));
    QVERIFY(combo->findText(QStringLiteral("NVIDIA · laptop")) >= 0); // the group header
    // The search also finds a segment by its Chinese name (and "datacenter"), though the window is in English:
    // exactly the GPUs of that segment.
    QCompleter* completer = combo->completer();
    auto found = [&](const QString& text) {
        completer->setCompletionPrefix(text);
        QStringList out;
        for (int r = 0; r < completer->completionModel()->rowCount(); ++r)
            out << completer->completionModel()->index(r, 0).data(Qt::UserRole + 1).toString();
        out.sort();
        return out;
    };
    auto idsOf = [&](GpuSegment s) {
        QStringList out;
        for (const GpuSpec& g : m_controller->catalog().gpus())
            if (g.segmentKind() == s)
                out << QString::fromStdString(g.id);
        out.sort();
        return out;
    };
    QCOMPARE_GE(idsOf(GpuSegment::Laptop).size(), 20);
    QCOMPARE(found(QStringLiteral("笔记本")), idsOf(GpuSegment::Laptop));
    QCOMPARE(found(QStringLiteral("数据中心")), idsOf(GpuSegment::Datacenter));
    QCOMPARE(found(QStringLiteral("datacenter")), idsOf(GpuSegment::Datacenter));
    QCOMPARE(found(QStringLiteral("工作站")), idsOf(GpuSegment::Workstation));
    QVERIFY(found(QStringLiteral("RTX 5080 Laptop")).contains(QStringLiteral("rtx-5080-laptop-16gb")));
    // The popup shows the entry in the window's language only; the other language is matched, not displayed.
    QCOMPARE(search->index(int(ids.indexOf(QStringLiteral("l2-24gb"))), 0).data().toString(),
             QStringLiteral("NVIDIA L2 (24 GB) — NVIDIA · data center"));
    // Choosing a search entry selects that GPU.
    const int row = int(ids.indexOf(QStringLiteral("h100-sxm5-80gb")));
    emit combo->completer()->activated(search->index(row, 0));
    QCOMPARE(QString::fromStdString(m_controller->scenario().gpuId), QStringLiteral("h100-sxm5-80gb"));
}

// Choosing an entry of the search popup selects that entry. QComboBox's own handler took the entry's row in the
// search list (which has no group headers) as a row of the picker: typing "resnet" and choosing "ResNet-50" selected
// GPT-2 Large.
void TestMainWindow::searchPopupSelectsTheChosenModel()
{
    QComboBox* combo = m_window->controls()->modelCombo();
    QCompleter* completer = combo->completer();
    const int before = m_window->history()->stack()->count();
    for (const char* id : { "resnet50", "llama-2-7b", "vit-b-16" }) {
        const ModelSpec* m = m_controller->catalog().model(id);
        QVERIFY(m);
        completer->setCompletionPrefix(QString::fromStdString(m->name));
        QCOMPARE_GE(completer->completionModel()->rowCount(), 1);
        // What a click on the popup's first entry emits: an index of the filtered completion model.
        const QModelIndex entry = completer->completionModel()->index(0, 0);
        QCOMPARE(entry.data(Qt::UserRole + 1).toString(), QString::fromLatin1(id));
        emit completer->activated(entry);
        QCOMPARE(QString::fromStdString(m_controller->scenario().modelId), QString::fromLatin1(id));
        QTRY_COMPARE(combo->lineEdit()->text(), combo->itemText(combo->currentIndex()));
    }
    // One undo step per choice, none for a model passed on the way.
    QCOMPARE(m_window->history()->stack()->count(), before + 3);
}

// Issue 8: after a resize (or a dock opening) the charts' titles and tick labels vanished, because their text items
// were cached as pixmaps that Qt Charts' re-layout left stale. Each chart's title band must still hold ink after the
// window has been resized three times and the batch moved.
void TestMainWindow::chartTitlesSurviveResizes()
{
    auto ink = [](ChartPanel* c) {
        const QImage img = c->grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QColor background = img.pixelColor(2, 2);
        int dark = 0;
        for (int y = 0; y < std::min(img.height(), 40); ++y)
            for (int x = img.width() / 4; x < img.width() * 3 / 4; ++x)
                dark += std::abs(img.pixelColor(x, y).lightness() - background.lightness()) > 80;
        return dark;
    };
    for (const QSize size : { QSize(1920, 1080), QSize(1100, 700), QSize(1500, 950) }) {
        m_window->resize(size);
        QTest::qWait(50);
    }
    m_window->controls()->batchSlider()->triggerAction(QSlider::SliderPageStepAdd);
    QTest::qWait(50);
    for (ChartPanel* c : m_window->charts())
        QVERIFY2(ink(c) > 100, qPrintable(c->title()));
}

// View > Explain Panel (F1) before anything was clicked explains the largest category at the peak instead of an
// empty page; F1 again closes it.
void TestMainWindow::explainPanelOpensOnTheLargestCategory()
{
    auto* action = m_window->findChild<QAction*>(QStringLiteral("explainAction"));
    auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("explainDock"));
    QVERIFY(action && dock);
    QVERIFY(!dock->isVisible());
    action->trigger();
    QVERIFY(dock->isVisible());
    // BERT-base at batch 16, seq 512 in FP16: activations dominate the backward peak.
    QVERIFY2(m_window->explainHtml().contains(QStringLiteral("Activations")), qPrintable(m_window->explainHtml()));
    action->trigger();
    QVERIFY(!dock->isVisible());
}

// Two controls (or a control and a menu) with the same Alt+letter make the key cycle between them instead of acting:
// Alt+H did not open Help while "Offload ... to the &host" and "Over&head" shared it (issue 8).
void TestMainWindow::mnemonicsAreUnique()
{
    auto mnemonic = [](const QString& text) -> QChar {
        const int i = text.indexOf(QLatin1Char('&'));
        return (i >= 0 && i + 1 < text.size() && text[i + 1] != QLatin1Char('&')) ? text[i + 1].toLower() : QChar();
    };
    QMap<QChar, QString> seen;
    auto add = [&](const QString& text) {
        const QChar c = mnemonic(text);
        if (c.isNull())
            return;
        QVERIFY2(!seen.contains(c), qPrintable(QStringLiteral("%1 and %2").arg(seen.value(c), text)));
        seen.insert(c, text);
    };
    for (QAction* a : m_window->menuBar()->actions())
        add(a->text());
    for (QLabel* l : m_window->controls()->findChildren<QLabel*>())
        if (l->buddy())
            add(l->text());
    for (QAbstractButton* b : m_window->controls()->findChildren<QAbstractButton*>())
        add(b->text());
    for (QGroupBox* g : m_window->controls()->findChildren<QGroupBox*>())
        add(g->title());
    QVERIFY(seen.size() > 10);
}

// Issue 8: the Weights (mixed-style) control is disabled where it does not apply.
// Issue 8: a sequence past GPT-2's 1024 learned positions (n_positions) is refused by the core; the controls end
// there (BERT: 512), and a RoPE model keeps the whole range.
void TestMainWindow::sequenceStopsAtLearnedPositions()
{
    auto* spin = m_window->controls()->findChild<QSpinBox*>(QStringLiteral("seqSpin"));
    auto* slider = m_window->controls()->findChild<QSlider*>(QStringLiteral("seqSlider"));
    QVERIFY(spin && slider);
    for (const auto& [model, limit] : { std::pair { "gpt2", 1024 }, std::pair { "bert-base", 512 } }) {
        Scenario s = defaultScenario();
        s.modelId = model;
        s.config.sequenceLength = 128;
        QVERIFY(m_window->applyScenario(s));
        QCOMPARE(spin->maximum(), limit);
        slider->setValue(slider->maximum());
        QCOMPARE(spin->value(), limit);
        QCOMPARE(m_controller->scenario().config.sequenceLength, std::int64_t(limit));
    }
    Scenario llama = defaultScenario();
    llama.modelId = "llama-2-7b";
    QVERIFY(m_window->applyScenario(llama));
    QVERIFY(spin->maximum() > 100000);
}

// Issue 8: the list read "GPT-2 XL (1.5B) (1.56B)": the name carried a rounded count and the list appends the exact
// one.
void TestMainWindow::modelListStatesEachCountOnce()
{
    auto* combo = m_window->controls()->findChild<QComboBox*>(QStringLiteral("modelCombo"));
    QVERIFY(combo && combo->count() > 10);
    const QRegularExpression count(QStringLiteral("\\(\\d+(\\.\\d+)?\\s?[KMB]\\)"));
    int withCount = 0;
    for (int i = 0; i < combo->count(); ++i) {
        const QString text = combo->itemText(i);
        int n = 0;
        for (auto it = count.globalMatch(text); it.hasNext(); it.next())
            ++n;
        QVERIFY2(n <= 1, qPrintable(text));
        withCount += n;
    }
    QVERIFY(withCount > 10); // the counts are there, once each
}

void TestMainWindow::weightsControlOnlyInMixedPrecision()
{
    auto* precision = m_window->controls()->findChild<QComboBox*>(QStringLiteral("precisionCombo"));
    auto* style = m_window->controls()->findChild<QComboBox*>(QStringLiteral("styleCombo"));
    QVERIFY(precision && style);
    QVERIFY(style->isEnabled()); // the default scenario is FP16 mixed
    for (const Precision p : { Precision::FP32, Precision::TF32, Precision::PureBF16 }) {
        selectData(precision, int(p));
        QVERIFY2(!style->isEnabled(), toString(p).data());
    }
    selectData(precision, int(Precision::MixedBF16));
    QVERIFY(style->isEnabled());
}

// Issue 8: every control of the panel has a tooltip that says what it does and names what sets the same in
// PyTorch, DeepSpeed, PEFT or bitsandbytes (or, for a hardware figure, where it comes from).
void TestMainWindow::everyControlSaysWhatItDoes()
{
    static const QStringList kFrameworkWords { QStringLiteral("torch"),         QStringLiteral("DeepSpeed"),
                                               QStringLiteral("PEFT"),          QStringLiteral("LoraConfig"),
                                               QStringLiteral("bnb"),           QStringLiteral("Megatron"),
                                               QStringLiteral("tokenizer"),     QStringLiteral("datasheet"),
                                               QStringLiteral("requires_grad"), QStringLiteral("HF "),
                                               QStringLiteral("transformers") };
    QStringList missing;
    const QList<QWidget*> all = m_window->controls()->findChildren<QWidget*>();
    for (QWidget* w : all) {
        const bool control = qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSlider*>(w)
            || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QAbstractButton*>(w);
        if (!control || w->objectName().isEmpty() || w->objectName().startsWith(QLatin1String("qt_")))
            continue;
        const QString tip = w->toolTip();
        const bool names = std::any_of(kFrameworkWords.begin(), kFrameworkWords.end(),
                                       [&](const QString& word) { return tip.contains(word); });
        if (tip.size() < 30 || !names)
            missing << QStringLiteral("%1: \"%2\"").arg(w->objectName(), tip.left(60));
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
}

// Issue 8: turning the wheel over the panel scrolled it until the pointer reached a combo, which then changed
// value (the tensor-parallel size). A control takes the wheel only once it has focus.
void TestMainWindow::wheelOverThePanelScrollsIt()
{
    m_window->resize(1280, 720);
    QTest::qWait(50);
    auto* scroll = m_window->findChild<QScrollArea*>(QStringLiteral("controlsScroll"));
    QVERIFY(scroll);
    QVERIFY2(scroll->verticalScrollBar()->maximum() > 0, "the panel should need scrolling at 1280x720");
    QComboBox* combo = m_window->controls()->findChild<QComboBox*>(QStringLiteral("precisionCombo"));
    QVERIFY(combo && !combo->hasFocus());
    const int index = combo->currentIndex();
    const int scrolled = scroll->verticalScrollBar()->value();
    const QPointF at(5, 5);
    QWheelEvent wheel(at, combo->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(combo, &wheel);
    QCOMPARE(combo->currentIndex(), index);
    QVERIFY2(scroll->verticalScrollBar()->value() > scrolled, "the wheel should scroll the panel");
    QCOMPARE(combo->focusPolicy(), Qt::StrongFocus);
}

// Issue 29: typing "Llama 2 7B" in the Model box and pressing Enter changed nothing and said nothing. Names are
// matched without case, spaces, dashes or dots, on the id or the name (resources/models/*.json: "Llama 2 7B" is
// llama-2-7b, "BERT Base (uncased, MLM)" bert-base, "Llama 3 8B" llama-3-8b); an unknown name says so.
void TestMainWindow::typedNameResolvesToTheBestMatch()
{
    QComboBox* combo = m_window->controls()->modelCombo();
    const struct {
        const char* typed;
        const char* id;
    } cases[] = { { "Llama 2 7B", "llama-2-7b" }, { "gpt2", "gpt2" },          { "LLAMA-2-7b", "llama-2-7b" },
                  { "bert", "bert-base" },        { "llama 3", "llama-3-8b" }, { "resnet 50", "resnet50" } };
    for (const auto& c : cases) {
        combo->lineEdit()->setText(QString::fromLatin1(c.typed));
        emit combo->lineEdit()->editingFinished();
        QCOMPARE(QString::fromStdString(m_controller->scenario().modelId), QString::fromLatin1(c.id));
        QCOMPARE(combo->lineEdit()->text(), combo->itemText(combo->currentIndex()));
    }
    combo->lineEdit()->setText(QStringLiteral("no such network"));
    emit combo->lineEdit()->editingFinished();
    QCOMPARE(QString::fromStdString(m_controller->scenario().modelId), QStringLiteral("resnet50"));
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("no such network")),
             qPrintable(m_window->statusBar()->currentMessage()));
    QCOMPARE(combo->lineEdit()->text(), combo->itemText(combo->currentIndex()));
    QCOMPARE(bestPickerMatch({ { QStringLiteral("a"), QStringLiteral("Alpha") } }, QStringLiteral("zeta")), -1);
}

// Issue 29: the logarithmic slider jumped from 4 to 891 in a short drag. Held, it now moves one by one within
// BatchScale::kFineValues of where the drag started, a few pixels apiece, and still reaches 1 and 4096 at its ends.
void TestMainWindow::batchSliderStepsOneByOneNearItsValue()
{
    ControlPanel* c = m_window->controls();
    QSlider* slider = c->batchSlider();
    slider->setValue(c->positionFromBatch(30));
    QCOMPARE(m_controller->scenario().config.microBatch, std::int64_t(30));
    const int start = slider->value();
    const int step = slider->singleStep();
    // At least four pixels per value on this slider.
    QCOMPARE_GE(double(step) * slider->width() / BatchScale::kPositions, 4.0);
    slider->setSliderDown(true);
    for (int k = -BatchScale::kFineValues; k <= BatchScale::kFineValues; ++k) {
        slider->setValue(start + k * step);
        QCOMPARE(m_controller->scenario().config.microBatch, std::int64_t(30 + k));
    }
    slider->setValue(slider->maximum());
    QCOMPARE(m_controller->scenario().config.microBatch, BatchScale::kMaxValue);
    slider->setValue(slider->minimum());
    QCOMPARE(m_controller->scenario().config.microBatch, std::int64_t(1));
    slider->setValue(start + 3 * step);
    slider->setSliderDown(false);
    emit slider->sliderReleased();
    QCOMPARE(m_controller->scenario().config.microBatch, std::int64_t(33));
    // Released, the scale is anchored on the new value: the arrow keys step by one from there.
    slider->triggerAction(QAbstractSlider::SliderSingleStepAdd);
    QCOMPARE(m_controller->scenario().config.microBatch, std::int64_t(34));
    slider->triggerAction(QAbstractSlider::SliderSingleStepSub);
    slider->triggerAction(QAbstractSlider::SliderSingleStepSub);
    QCOMPARE(m_controller->scenario().config.microBatch, std::int64_t(32));
    // Every value maps to a position that maps back to it, or to a neighbour where one position holds several
    // (4 %: a 960-position slider over 1 to 4096).
    for (std::int64_t v = 1; v <= BatchScale::kMaxValue; v += (v < 64 ? 1 : v / 16))
        QCOMPARE_LE(std::abs(c->batchFromPosition(c->positionFromBatch(v)) - v), v / 25);
}

// Issue 28: one answer to "does it fit?". Once the background search has replayed the caching allocator, the memory
// chart's label and the sweep's "largest that fits" say what the verdict says (the default scenario, BERT-base b16
// on the RTX A3000: its peak leaves more free than the replay with the CUDA context does).
void TestMainWindow::chartsGiveTheVerdictsAnswer()
{
    QVERIFY(m_window->applyScenario(defaultScenario()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->backgroundPending(), 20000);
    const BackgroundResult& bg = m_controller->background();
    QVERIFY(bg.allocator.computed);
    QVERIFY(bg.verdict.fits);
    const Estimate& e = m_controller->result().estimate;
    QVERIFY(std::abs(e.headroomBytes - bg.verdict.freeBytes()) > 1024.0 * 1024.0); // the two answers differ here
    QVERIFY2(m_window->memoryChart()->verdictText().contains(formatBytes(bg.verdict.freeBytes())),
             qPrintable(m_window->memoryChart()->verdictText()));
    QCOMPARE(m_window->sweepChart()->largestFitting(), double(bg.maxMicroBatch));
    // And a tick on the capacity line marks that micro-batch (the label alone stood beside the current batch's line).
    const BatchSweepView* sweep = m_window->sweepChart();
    const QPointF at = sweep->chart()->mapToPosition(
        QPointF(double(bg.maxMicroBatch), sweep->capacityLine() / (1024.0 * 1024.0 * 1024.0)));
    const QLineF mark = sweep->largestFittingMark();
    QVERIFY(!mark.isNull());
    QCOMPARE_LT(std::abs(mark.x1() - at.x()) + std::abs(mark.x2() - at.x()), 1.0);
    QCOMPARE_LT(std::min(mark.y1(), mark.y2()), at.y());
    QCOMPARE_GT(std::max(mark.y1(), mark.y2()), at.y());
    // The label on a plate that hides the lines crossing it (the current batch's, in a narrow chart).
    QVERIFY(sweep->largestFittingPlate().contains(sweep->largestFittingLabel()));
    // The dashed curve is what the device holds by the replay: at the current micro-batch the verdict's figure, and
    // past the largest that fits over the capacity (the peak's curve crossed the line at 28, the verdict said 25).
    const QList<QPointF> curve = sweep->allocatorCurve();
    QVERIFY(curve.size() >= 8);
    bool current = false, past = false;
    for (const QPointF& p : curve) {
        if (p.x() == double(e.config.microBatch)) {
            QCOMPARE(p.y(), bg.allocator.deviceBytes);
            current = true;
        }
        if (p.x() == double(bg.maxMicroBatch + 1)) {
            QCOMPARE_GT(p.y(), e.capacityBytes);
            past = true;
        }
    }
    QVERIFY(current && past);
}

// Llama 2 7B on the 12 GB RTX A3000 under BF16 autocast: its FP32 weights alone are 6.74e9 x 4 B = 25.1 GiB, so
// no sequence fits. The verdict said "longest sequence that fits: 0", a figure; the PDF and the CLI's report too.
void TestMainWindow::nothingFitsSaysNone()
{
    Scenario s = defaultScenario();
    s.gpuId = "rtx-a3000-12gb-laptop";
    s.modelId = "llama-2-7b";
    s.config.sequenceLength = 2048;
    s.config.microBatch = 1;
    QVERIFY(m_window->applyScenario(s));
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->backgroundPending(), 60000);
    QCOMPARE(m_controller->background().maxSequence, std::int64_t(0));
    const QString details = m_window->verdict()->details();
    QVERIFY2(details.contains(QStringLiteral("longest sequence that fits: none, not even the shortest")),
             qPrintable(details));
    QVERIFY2(!details.contains(QStringLiteral("fits: 0")), qPrintable(details));
    const ::test::CliRun cli = ::test::runHeadroom(
        { QStringLiteral("estimate"), QStringLiteral("--gpu"), QStringLiteral("rtx-a3000-12gb-laptop"),
          QStringLiteral("--model"), QStringLiteral("llama-2-7b"), QStringLiteral("--seq"), QStringLiteral("2048") });
    QVERIFY2(cli.out.contains("longest sequence: none, not even the shortest"), cli.out.constData());
}

// The QLoRA example at micro-batch 16 peaks at 12.42 GiB against the A3000's 12 GiB: beside its marker, the peak's
// label was centred on the peak's height, and the capacity line ran through its text (the window's walk).
void TestMainWindow::timelinePeakLabelOffTheCapacityLine()
{
    Scenario s = headroom::test::exampleScenario("09-llama-2-7b-qlora.headroom.json");
    s.config.microBatch = 16;
    m_window->resize(1024, 768); // where the walk saw it: four charts, each small
    QVERIFY(m_window->applyScenario(s));
    QCoreApplication::processEvents();
    const Estimate& e = m_controller->result().estimate;
    QCOMPARE_GT(e.peakBytes, e.capacityBytes);
    QCOMPARE_LT(e.peakBytes, 1.1 * e.capacityBytes); // the peak's marker next to the line
    const TimelineView* timeline = m_window->timelineChart();
    QChart* chart = timeline->chart();
    const QLineSeries* capacity = nullptr;
    for (QAbstractSeries* series : chart->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (line && line->count() == 2 && qFuzzyCompare(line->at(0).y(), e.capacityBytes / (1024.0 * 1024 * 1024)))
            capacity = line;
    }
    QVERIFY(capacity);
    const double lineY = chart->mapToPosition(capacity->at(0), const_cast<QLineSeries*>(capacity)).y();
    const QGraphicsSimpleTextItem* peak = nullptr;
    for (QGraphicsItem* item : chart->childItems()) {
        auto* label = dynamic_cast<QGraphicsSimpleTextItem*>(item);
        if (label && label->isVisible() && label->text().contains(QStringLiteral("12.42")))
            peak = label;
    }
    QVERIFY(peak);
    const QRectF r = peak->mapRectToParent(peak->boundingRect());
    QVERIFY2(r.bottom() <= lineY || r.top() >= lineY,
             qPrintable(
                 QStringLiteral("%1: %2 to %3, line at %4").arg(peak->text()).arg(r.top()).arg(r.bottom()).arg(lineY)));
}

// The QLoRA example's optimizer step is the last 0.3 % of the timeline: its name, placed at the phase's start and
// pushed back inside the plot, stood against the plot's right edge ("optimizer step", "优化器步" in the walk).
void TestMainWindow::timelinePhaseNamesClearOfTheFrame()
{
    // The QLoRA example, whose optimizer step ends the plot; the default scenario in presentation mode at 1024x768,
    // whose optimizer step is a few pixels narrower than its name (the walk saw the line through it); and at
    // micro-batch 21, whose peak (9.48 GiB) leaves its label no room above the marker under the capacity line.
    Scenario b21 = defaultScenario();
    b21.config.microBatch = 21;
    const std::array<std::tuple<Scenario, bool, QSize>, 3> cases {
        std::tuple { headroom::test::exampleScenario("09-llama-2-7b-qlora.headroom.json"), false, QSize(1600, 1000) },
        std::tuple { defaultScenario(), true, QSize(1024, 768) },
        std::tuple { b21, false, QSize(1024, 768) },
    };
    for (const auto& [scenario, presentation, size] : cases) {
        m_window->setPresentationMode(presentation, false);
        m_window->resize(size);
        QVERIFY(m_window->applyScenario(scenario));
        QTest::qWait(50);
        QCoreApplication::processEvents();
        const TimelineView* timeline = m_window->timelineChart();
        const QRectF plot = timeline->chart()->plotArea();
        const QList<QRectF> names = timeline->phaseLabelRects();
        QCOMPARE(names.size(), 3);
        // Nor does a boundary between the phases run through one (the optimizer step's name, pushed back inside
        // the plot, sat across the line at its start).
        for (const QRectF& r : names + QList<QRectF> { timeline->peakLabelRect() })
            for (const double x : timeline->phaseBoundaries())
                QVERIFY2(x <= r.left() || x >= r.right(),
                         qPrintable(QStringLiteral("line at %1 through %2 to %3").arg(x).arg(r.left()).arg(r.right())));
        // And the peak's label inside the plot (over the axis's ticks it hid the "8") and clear of its marker
        // (presentation mode's larger triangle ran into "of the head").
        QVERIFY2(plot.adjusted(-1, -1, 1, 1).contains(timeline->peakLabelRect()),
                 qPrintable(QStringLiteral("label from %1 in a plot from %2")
                                .arg(timeline->peakLabelRect().left())
                                .arg(plot.left())));
        QVERIFY2(!timeline->peakLabelRect().intersects(timeline->peakMarkerRect()),
                 qPrintable(QStringLiteral("label bottom %1, marker top %2")
                                .arg(timeline->peakLabelRect().bottom())
                                .arg(timeline->peakMarkerRect().top())));
        // Each name stands over its phase, or before it pointing at it: the optimizer step's name, ended before its
        // boundary, stood over the backward pass and read as the backward's.
        const QList<double> bounds = timeline->phaseBoundaries();
        const QStringList texts = timeline->phaseLabelTexts();
        const std::array<double, 4> edges { plot.left(), bounds[0], bounds[1], plot.right() };
        for (int p = 0; p < 3; ++p) {
            const bool over = names[p].right() > edges[p] && names[p].left() < edges[p + 1];
            QVERIFY2(over || (names[p].right() <= edges[p] && texts[p].endsWith(QChar(0x2192))),
                     qPrintable(QStringLiteral("'%1' from %2 to %3, its phase from %4 to %5")
                                    .arg(texts[p])
                                    .arg(names[p].left())
                                    .arg(names[p].right())
                                    .arg(edges[p])
                                    .arg(edges[p + 1])));
        }
        for (const QRectF& r : names)
            QVERIFY2(plot.adjusted(2, 0, -2, 0).contains(r),
                     qPrintable(QStringLiteral("%1 to %2 in a plot from %3 to %4")
                                    .arg(r.left())
                                    .arg(r.right())
                                    .arg(plot.left())
                                    .arg(plot.right())));
    }
    m_window->setPresentationMode(false, false);
}

// The QLoRA example at micro-batch 13: every bar (the tensors at each phase's peak, 10.6 GiB at most) under the 12 GiB
// line, while the verdict, from the allocator replay, said "does not fit: 401.8 MiB over" (reserved + context
// 12.39 GiB). The chart now draws what the allocator holds above each bar and says the cache is what is over.
void TestMainWindow::memoryChartShowsWhatCrossesTheLine()
{
    Scenario s = headroom::test::exampleScenario("09-llama-2-7b-qlora.headroom.json");
    s.config.microBatch = 13;
    QVERIFY(m_window->applyScenario(s));
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->backgroundPending(), 60000);
    const BackgroundResult& bg = m_controller->background();
    QVERIFY(bg.allocator.computed);
    QVERIFY(!bg.verdict.fits);
    const Estimate& e = m_controller->result().estimate;
    const MemoryChartView* chart = m_window->memoryChart();
    // The step fails: one outline, at what the verdict says the step needs, where the bars stay under the line.
    int outlined = 0;
    for (const Phase p : { Phase::Forward, Phase::Backward, Phase::Optimizer }) {
        QCOMPARE_LE(e.phasePeaks[std::size_t(p)].totalBytes, e.capacityBytes); // the case: every bar under the line
        if (chart->cacheTop(p) > 0.0) {
            QCOMPARE(chart->cacheTop(p), bg.verdict.neededBytes);
            ++outlined;
        }
    }
    QCOMPARE(outlined, 1);
    QCOMPARE_GT(bg.verdict.neededBytes, e.capacityBytes); // what the chart draws crosses the line the verdict is over
    // The sweep's allocator curve is the verdict's figure at every batch: over the line at 13, under it at 12, the
    // largest that fits (replayed with no capacity it said 12.6 GiB at 12, over the line left of the tick).
    bool at13 = false, at12 = false;
    for (const QPointF& point : m_window->sweepChart()->allocatorCurve()) {
        if (point.x() == 13.0) {
            QCOMPARE(point.y(), bg.verdict.neededBytes);
            at13 = true;
        }
        if (point.x() == double(bg.maxMicroBatch)) {
            QCOMPARE_LE(point.y(), e.capacityBytes);
            at12 = true;
        }
    }
    QVERIFY(at13 && at12);
    // And the timeline, which draws the tensors under the line, names what the verdict counts, as the headline does.
    const QString peak = m_window->timelineChart()->peakText();
    QVERIFY2(peak.contains(QStringLiteral("needs ") + formatBytes(bg.verdict.neededBytes)), qPrintable(peak));
    QCOMPARE(bg.maxMicroBatch, std::int64_t(12));
    QVERIFY2(chart->verdictText().contains(QStringLiteral("allocator")), qPrintable(chart->verdictText()));
}

// BERT-base in FP16 at micro-batch 50 on the A3000: the tensors peak in the backward pass (the tallest bar), while the
// replay's first failed cudaMalloc is in the forward pass, where the outline stood with nothing saying why. The
// chart's verdict names the phase the step stops in; at 26 that is the backward.
void TestMainWindow::memoryChartNamesThePhaseItStopsIn()
{
    for (const auto& [batch, stops] : { std::pair { 50, Phase::Forward }, std::pair { 26, Phase::Backward } }) {
        Scenario s = defaultScenario();
        s.config.microBatch = batch;
        QVERIFY(m_window->applyScenario(s));
        QTRY_VERIFY_WITH_TIMEOUT(!m_controller->backgroundPending(), 60000);
        const BackgroundResult& bg = m_controller->background();
        QVERIFY(bg.allocator.outOfMemory);
        QCOMPARE(bg.allocator.failedPhase, int(stops));
        QVERIFY(m_controller->result().estimate.peakPhase == Phase::Backward);
        const MemoryChartView* chart = m_window->memoryChart();
        QCOMPARE_GT(chart->cacheTop(stops), 0.0);
        QVERIFY2(chart->verdictText().contains(Labels::phase(stops)), qPrintable(chart->verdictText()));
        QVERIFY2(chart->verdictText().contains(formatBytes(-bg.verdict.freeBytes())), qPrintable(chart->verdictText()));
    }
}

// Issue 29: with gradient accumulation 2 the timeline said "% of 12.90 s" while the step took 25.81 s. The length now
// stands under the axis title, which stays the same from tick to tick (a new title re-laid out the chart each time).
void TestMainWindow::timelineStatesWhatItSpans()
{
    Scenario s = defaultScenario();
    s.config.microBatch = 8;
    QVERIFY(m_window->applyScenario(s));
    const TimelineView* timeline = m_window->timelineChart();
    const QAbstractAxis* time = timeline->chart()->axes(Qt::Horizontal).front();
    const QString title = time->titleText();
    const double eight = m_controller->result().estimate.stepSeconds;
    QCOMPARE(timeline->lengthShown(), QStringLiteral("100 % = ") + formatSeconds(eight));
    s.config.microBatch = 16;
    QVERIFY(m_window->applyScenario(s));
    const double sixteen = m_controller->result().estimate.stepSeconds;
    QVERIFY(sixteen > eight);
    QCOMPARE(time->titleText(), title);
    QCOMPARE(timeline->lengthShown(), QStringLiteral("100 % = ") + formatSeconds(sixteen));

    s.config.gradientAccumulation = 2;
    QVERIFY(m_window->applyScenario(s));
    const Estimate& two = m_controller->result().estimate;
    const double span = two.microBatchSeconds + two.optimizerSeconds;
    QVERIFY(two.stepSeconds > 1.5 * span); // two micro-batches and one optimizer step
    const QString shown = timeline->lengthShown();
    QVERIFY2(shown.startsWith(QStringLiteral("100 % = ") + formatSeconds(span)), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("one of 2 micro-batches")), qPrintable(shown));
    QVERIFY2(shown.endsWith(QStringLiteral("the step takes ") + formatSeconds(two.stepSeconds)), qPrintable(shown));
    QVERIFY2(!time->titleText().contains(QStringLiteral("step")), qPrintable(time->titleText()));
}

// Issue 29: dragging the micro-batch across the fit boundary showed the suggestions, then none, then them again, and
// the charts under the verdict jumped up and down on every tick, each jump a re-layout of the whole window. The
// verdict now grows at once and gives the room back only once its text has stayed shorter for a moment.
void TestMainWindow::verdictHoldsItsHeightThroughADrag()
{
    Scenario s = defaultScenario(); // BERT-base on the A3000: micro-batch 16 fits, 64 does not
    auto apply = [&](std::int64_t batch) {
        s.config.microBatch = batch;
        QVERIFY(m_window->applyScenario(s));
        QTRY_VERIFY_WITH_TIMEOUT(!m_controller->backgroundPending(), 60000);
        QCoreApplication::processEvents();
    };
    apply(16);
    QTest::qWait(1000);
    VerdictWidget* verdict = m_window->verdict();
    QVERIFY(verdict->suggestions().isEmpty());
    const int fits = verdict->height();
    apply(64);
    QVERIFY(verdict->suggestions().contains(QStringLiteral("fix:")));
    const int over = verdict->height();
    QVERIFY2(over > fits, qPrintable(QStringLiteral("%1 -> %2").arg(fits).arg(over)));
    apply(16);
    QVERIFY(verdict->suggestions().isEmpty());
    QCOMPARE(verdict->height(), over); // held while the ticks go on
    QTRY_COMPARE_WITH_TIMEOUT(verdict->height(), fits, 3000);
}

QTEST_MAIN(TestMainWindow)
// Issue 30: every control's change is one undo step in its own words. Nine controls had none and read "Undo change"
// (channels last, the links, the allocator rows, ...); the words now come from a switch over the controls that
// -Wswitch keeps complete, and this checks that each widget sends the control it stands for.
void TestMainWindow::everyControlHasItsUndoWords()
{
    QUndoStack* stack = m_window->history()->stack();
    ControlPanel* panel = m_window->controls();
    auto expectUndo = [&](const char* widget, const QString& words, const std::function<void(QWidget*)>& change) {
        auto* w = panel->findChild<QWidget*>(QString::fromLatin1(widget));
        QVERIFY2(w, widget);
        const int before = stack->count();
        change(w);
        QCOMPARE(stack->count(), before + 1);
        QCOMPARE(stack->undoText(), words);
    };
    expectUndo("channelsLastCheck", QStringLiteral("channels last"),
               [](QWidget* w) { static_cast<QCheckBox*>(w)->toggle(); });
    expectUndo("expandableCheck", QStringLiteral("expandable segments"),
               [](QWidget* w) { static_cast<QCheckBox*>(w)->toggle(); });
    expectUndo("perNodeSpin", QStringLiteral("GPUs per node"),
               [](QWidget* w) { static_cast<QSpinBox*>(w)->setValue(8); });
    expectUndo("intraLinkCombo", QStringLiteral("link in a node"),
               [](QWidget* w) { static_cast<QComboBox*>(w)->setCurrentIndex(1); });
    expectUndo("cudnnSpin", QStringLiteral("cuDNN workspace"),
               [](QWidget* w) { static_cast<QSpinBox*>(w)->setValue(64); });
    expectUndo("capacityCheck", QStringLiteral("what-if figures"),
               [](QWidget* w) { static_cast<QCheckBox*>(w)->toggle(); });
    // Undo returns the control and the scenario to what they were before the what-if.
    stack->undo();
    QVERIFY(!m_controller->scenario().overrides.memoryBytes.has_value());
    QVERIFY(!panel->findChild<QCheckBox*>(QStringLiteral("capacityCheck"))->isChecked());
}

// Issue 30's seam: the overhead box shows the overhead with the cuBLAS workspace a scenario sets
// (CUBLAS_WORKSPACE_CONFIG=:4096:16 on an H100 is 32 MiB more than PyTorch's default :4096:8, CublasHandlePool.cpp).
// One arrow click added that difference again each time; now it adds the click's 1 MiB.
void TestMainWindow::overheadStepIsOneMiB()
{
    Scenario s = defaultScenario();
    s.gpuId = "h100-sxm5-80gb";
    s.overrides = {};
    s.config.cublasWorkspaceBytes = 64.0 * 1024 * 1024;
    QVERIFY(m_window->applyScenario(s));
    auto* spin = m_window->controls()->findChild<QSpinBox*>(QStringLiteral("overheadSpin"));
    QVERIFY(spin);
    const GpuSpec* gpu = m_controller->catalog().gpu(s.gpuId);
    const double shown = frameworkOverheadBytes(*gpu, m_controller->scenario().config) / (1024.0 * 1024);
    QCOMPARE(spin->value(), int(std::lround(shown)));
    for (int click = 1; click <= 3; ++click) {
        spin->stepUp();
        const double now = frameworkOverheadBytes(*gpu, m_controller->scenario().config) / (1024.0 * 1024);
        QCOMPARE(std::lround(now), std::lround(shown) + click);
        QCOMPARE(spin->value(), int(std::lround(now)));
    }
}

#include "tst_mainwindow.moc"
