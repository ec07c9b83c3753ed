// The control panel's pipeline rows, offscreen: the stages a model's blocks divide into, the schedules the core takes,
// the stage whose memory the charts show, and the verdict naming it. Figures from the core (tst_pipeline holds those
// to Megatron and the papers); here what the window does with them.

#include "controlpanel.h"
#include "links.h"
#include "pipelinescheduleview.h"
#include "rooflineview.h"
#include "scenariohistory.h"
#include "verdictwidget.h"
#include "windowfixture.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

using namespace headroom;
using namespace headroom::gui;

class TestParallelControls : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void pipelineRowOffersTheModelsStages();
    void stageComboShowsOneStage();
    void interleavingNeedsTheMicroBatches();
    void unevenStagesFromAFile();
    void splitRowRelievesTheEnds();
    void expertRowSplitsTheDataParallelGpus();
    void contextRowNeedsFusedAttention();
    void clusterRowsSetTheLinks();
    void autoLinkIsNamed();
    void channelsLastOnlyForConvolutions();

private:
    ControlPanel* controls() const { return m_window->controls(); }
    const SimulationResult& result() const { return m_controller->result(); }
    static QList<int> offered(const QComboBox* combo)
    {
        QList<int> out;
        for (int i = 0; i < combo->count(); ++i)
            out << combo->itemData(i).toInt();
        return out;
    }
    void selectData(QComboBox* combo, const QVariant& value)
    {
        const int i = combo->findData(value);
        QVERIFY2(i >= 0, qPrintable(value.toString()));
        combo->setCurrentIndex(i);
    }
    void selectModel(const char* id)
    {
        const int i = controls()->modelCombo()->findData(QString::fromLatin1(id), Qt::UserRole + 1);
        QVERIFY2(i >= 0, id);
        controls()->modelCombo()->setCurrentIndex(i);
        QCOMPARE(m_controller->scenario().modelId, std::string(id));
    }
    QComboBox* schedule() const { return controls()->findChild<QComboBox*>(QStringLiteral("scheduleCombo")); }
    QComboBox* experts() const { return controls()->findChild<QComboBox*>(QStringLiteral("epCombo")); }
    QSpinBox* dataParallel() const { return controls()->findChild<QSpinBox*>(QStringLiteral("dpSpin")); }
    QSpinBox* accumulation() const { return controls()->findChild<QSpinBox*>(QStringLiteral("accumSpin")); }

    test::WindowFixture m_fixture;
    std::unique_ptr<SimulationController>& m_controller = m_fixture.controller;
    std::unique_ptr<MainWindow>& m_window = m_fixture.window;
};

void TestParallelControls::init() { QVERIFY(m_fixture.open()); }

void TestParallelControls::cleanup() { m_fixture.close(); }

void TestParallelControls::pipelineRowOffersTheModelsStages()
{
    // GPT-2's 12 blocks divide into 2, 3, 4, 6 and 12 stages; Llama-2-7B's 32 into powers of two.
    selectModel("gpt2");
    QComboBox* pp = controls()->pipelineCombo();
    QCOMPARE(offered(pp), (QList<int> { 1, 2, 3, 4, 6, 12 }));
    QVERIFY(!controls()->stageCombo()->isVisible()); // one stage: nothing to choose
    QVERIFY(!schedule()->isEnabled());
    selectData(pp, 4);
    QCOMPARE(m_controller->scenario().config.pipelineParallel, 4);
    QCOMPARE(int(result().ranks.size()), 4);
    QVERIFY(controls()->stageCombo()->isVisible());
    QCOMPARE(controls()->stageCombo()->count(), 5); // the most loaded, then each stage
    QCOMPARE(controls()->stageCombo()->itemText(1), QStringLiteral("stage 1 (blocks 1–3)"));
    // One micro-batch per step: every stage holds one, and the last, with GPT-2's 50257-way logits, holds the most.
    const QString details = m_window->verdict()->details();
    QVERIFY2(details.contains(QStringLiteral("Stage 4 of 4, the most loaded")), qPrintable(details));
    QVERIFY2(details.contains(QStringLiteral("pipeline bubble")), qPrintable(details));
    selectModel("llama-2-7b");
    QCOMPARE(offered(pp), (QList<int> { 1, 2, 4, 8, 16, 32 }));
    QCOMPARE(m_controller->scenario().config.pipelineParallel, 4); // 4 divides 32 too: kept
    QCOMPARE(result().estimate.parameters, 6738415616.0);
}

void TestParallelControls::stageComboShowsOneStage()
{
    selectModel("gpt2");
    selectData(controls()->pipelineCombo(), 3);
    const double mostLoaded = result().estimate.peakBytes;
    const double step = result().estimate.stepSeconds;
    QCOMPARE(result().estimate.config.pipelineStage, 2); // the head's logits: the last stage holds the most
    selectData(controls()->stageCombo(), 0);             // the first stage: the embeddings and four blocks
    QCOMPARE(result().estimate.config.pipelineStage, 0);
    QCOMPARE(result().estimate.peakBytes, result().ranks[0].peakBytes);
    QVERIFY(result().estimate.peakBytes < mostLoaded);
    QCOMPARE(result().estimate.stepSeconds, step); // the time is the pipeline's whichever stage is shown
    QVERIFY2(m_window->verdict()->details().contains(QStringLiteral("Stage 1 of 3:")),
             qPrintable(m_window->verdict()->details()));
    // Back to one stage: the choice goes with the pipeline.
    selectData(controls()->pipelineCombo(), 1);
    QCOMPARE(int(result().ranks.size()), 1);
    QCOMPARE(result().estimate.config.pipelineStage, 0);
}

void TestParallelControls::interleavingNeedsTheMicroBatches()
{
    // Megatron interleaves only when p divides the micro-batches per step: 2 stages and one micro-batch offer 1F1B
    // and GPipe; four micro-batches add two chunks per stage.
    selectModel("gpt2");
    selectData(controls()->pipelineCombo(), 2);
    QCOMPARE(offered(schedule()).size(), 2);
    accumulation()->setValue(4);
    QCOMPARE(m_controller->scenario().config.gradientAccumulation, 4);
    QCOMPARE(offered(schedule()).size(), 3);
    selectData(schedule(), int(PipelineSchedule::Interleaved) | (2 << 8));
    QCOMPARE(int(m_controller->scenario().config.pipelineSchedule), int(PipelineSchedule::Interleaved));
    QCOMPARE(m_controller->scenario().config.virtualStages, 2);
    QCOMPARE(result().ranks[0].inFlightMicroBatches, 2.5); // (2 + 2 + 1) / 2 chunks, Megatron's warm-up
    // Three micro-batches cannot be interleaved over two stages: back to 1F1B, and the scenario stays valid.
    accumulation()->setValue(3);
    QCOMPARE(int(m_controller->scenario().config.pipelineSchedule), int(PipelineSchedule::OneFOneB));
    QVERIFY(result().model);
}

void TestParallelControls::unevenStagesFromAFile()
{
    // A scenario file's uneven stages (Megatron's first/last stage blocks) show in the stage row and stay while the
    // layout takes them; another p returns to an even split, and every p stays on offer.
    const QString path = m_fixture.dir->filePath(QStringLiteral("uneven.headroom.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format":"headroom-scenario","version":1,"gpu":"a100-sxm4-80gb","model":"llama-2-7b",
        "micro_batch":1,"sequence_length":2048,"pipeline_parallel":4,"pipeline_schedule":"1f1b",
        "first_stage_layers":7,"last_stage_layers":7,"gradient_accumulation":8})");
    f.close();
    const auto error = m_window->openScenarioFile(path);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    QCOMPARE(offered(controls()->pipelineCombo()), (QList<int> { 1, 2, 4, 8, 16, 32 }));
    QCOMPARE(controls()->stageCombo()->itemText(1), QStringLiteral("stage 1 (blocks 1–7)"));
    QCOMPARE(controls()->stageCombo()->itemText(2), QStringLiteral("stage 2 (blocks 8–16)"));
    QCOMPARE(result().ranks[3].layers, (std::vector<LayerRange> { { 25, 32 } }));
    // The schedule strip under the charts: the 9-block stages are the slowest and the most loaded; the strip picks
    // out the one the charts show, and its spans are the core's pipelineTimeline.
    PipelineScheduleView* strip = m_window->pipelineSchedule();
    QVERIFY(strip->isVisible());
    QCOMPARE(result().estimate.config.pipelineStage, 1);
    QVERIFY2(strip->summary().startsWith(QStringLiteral("Pipeline schedule: stage 2 works")),
             qPrintable(strip->summary()));
    QCOMPARE(int(result().pipeline.spans.size()), 2 * 4 * 8);
    accumulation()->setValue(4); // 1F1B still takes 7, 9, 9, 7
    QCOMPARE(m_controller->scenario().config.firstStageLayers, 7);
    selectData(controls()->pipelineCombo(), 2);
    QCOMPARE(m_controller->scenario().config.firstStageLayers, 0);
    QCOMPARE(m_controller->scenario().config.lastStageLayers, 0);
    QCOMPARE(controls()->stageCombo()->itemText(1), QStringLiteral("stage 1 (blocks 1–16)"));
    selectData(controls()->pipelineCombo(), 1);
    QVERIFY(!strip->isVisible()); // one stage: no schedule to draw
}

void TestParallelControls::splitRowRelievesTheEnds()
{
    // Issue 31: uneven stages settable in the window. Llama 2 7B's 32 blocks on 4 stages: even, or Megatron's
    // first/last stage blocks that leave the ends fewer (tst_pipeline works them out by hand).
    selectModel("llama-2-7b");
    QComboBox* split = controls()->stageSplitCombo();
    QVERIFY(split->isHidden());
    selectData(controls()->pipelineCombo(), 4);
    QVERIFY(!split->isHidden() && split->isEnabled());
    QCOMPARE(offered(split), (QList<int> { 0, 5, 5 << 16, 7 | 7 << 16 }));
    QCOMPARE(split->itemText(0), QStringLiteral("even (8 + 8 + 8 + 8)"));
    QCOMPARE(split->itemText(1), QStringLiteral("5 + 9 + 9 + 9"));
    QCOMPARE(split->itemText(3), QStringLiteral("7 + 9 + 9 + 7"));
    selectData(split, 5);
    QCOMPARE(m_window->history()->stack()->undoText(), QStringLiteral("blocks per stage"));
    QCOMPARE(m_controller->scenario().config.firstStageLayers, 5);
    QCOMPARE(m_controller->scenario().config.lastStageLayers, 0);
    QCOMPARE(controls()->stageCombo()->itemText(1), QStringLiteral("stage 1 (blocks 1–5)"));
    QCOMPARE(result().ranks[0].layers, (std::vector<LayerRange> { { 0, 5 } }));
    // The window shows simulate()'s answer for the split it set.
    Scenario s = m_controller->scenario();
    auto cli = simulate(m_controller->catalog(), s, SimulateOptions::interactive());
    QVERIFY(cli.ok());
    QCOMPARE(result().estimate.peakBytes, cli->estimate.peakBytes);
    QCOMPARE(result().estimate.stepSeconds, cli->estimate.stepSeconds);
    // Eight stages: the runs of equal stages are counted.
    selectData(controls()->pipelineCombo(), 8);
    QCOMPARE(split->itemText(0), QStringLiteral("even (4 × 8)"));
    selectData(controls()->pipelineCombo(), 1); // one stage: nothing to split
    QVERIFY(split->isHidden());
}

void TestParallelControls::expertRowSplitsTheDataParallelGpus()
{
    // Only a mixture of experts has the row; its choices divide both the data-parallel GPUs and Mixtral's 8 experts.
    selectModel("gpt2");
    QVERIFY(!experts()->isVisible());
    selectModel("mixtral-8x7b");
    QVERIFY(experts()->isVisible());
    dataParallel()->setValue(8);
    QCOMPARE(offered(experts()), (QList<int> { 1, 2, 4, 8 }));
    QCOMPARE(experts()->itemText(3), QStringLiteral("8 (experts per GPU: 1)"));
    selectData(experts(), 8);
    QCOMPARE(m_controller->scenario().config.expertParallel, 8);
    QCOMPARE(result().estimate.config.expertParallel, 8);
    QVERIFY(result().estimate.expertParallelBytes > 0);
    // Six GPUs: 8 no longer divides them; the largest split that does (2) stays.
    dataParallel()->setValue(6);
    QCOMPARE(offered(experts()), (QList<int> { 1, 2 }));
    QCOMPARE(m_controller->scenario().config.expertParallel, 2);
    // A dense model has no experts to split.
    selectModel("llama-2-7b");
    QCOMPARE(m_controller->scenario().config.expertParallel, 1);
    QVERIFY(!experts()->isVisible());
}

void TestParallelControls::contextRowNeedsFusedAttention()
{
    // Llama-2-7B at 4096 tokens under fused attention: 2, 4, 8 and 16 context ranks split it (2 cp divides 4096).
    selectModel("llama-2-7b");
    QComboBox* attention = controls()->findChild<QComboBox*>(QStringLiteral("attentionCombo"));
    selectData(attention, int(AttentionImpl::Fused));
    QComboBox* cp = controls()->contextParallelCombo();
    QVERIFY(cp->isVisible());
    QCOMPARE(offered(cp), (QList<int> { 1, 2, 4, 8, 16 }));
    selectData(cp, 4);
    QCOMPARE(m_controller->scenario().config.contextParallel, 4);
    QCOMPARE(result().estimate.config.contextParallel, 4);
    QVERIFY(result().estimate.contextParallelBytes > 0);
    // Eager attention has no ring: the split ends and the row offers nothing else.
    selectData(attention, int(AttentionImpl::Eager));
    QCOMPARE(m_controller->scenario().config.contextParallel, 1);
    QCOMPARE(offered(cp), (QList<int> { 1 }));
    QVERIFY(!cp->isEnabled());
    // A CNN has no sequence: no row.
    selectModel("resnet50");
    QVERIFY(!cp->isVisible());
}

void TestParallelControls::clusterRowsSetTheLinks()
{
    // One GPU: no links to choose. Sixteen data-parallel GPUs, 8 per node over 100 GbE: the gradient all-reduce
    // crosses nodes and takes longer than on one node's NVSwitch.
    selectModel("llama-2-7b");
    auto* perNode = controls()->findChild<QSpinBox*>(QStringLiteral("perNodeSpin"));
    auto* intra = controls()->findChild<QComboBox*>(QStringLiteral("intraLinkCombo"));
    auto* inter = controls()->findChild<QComboBox*>(QStringLiteral("interLinkCombo"));
    auto* sp = controls()->findChild<QCheckBox*>(QStringLiteral("spCheck"));
    QVERIFY(perNode && intra && inter && sp);
    dataParallel()->setValue(1);
    QVERIFY(!perNode->isVisible());
    dataParallel()->setValue(16);
    QVERIFY(perNode->isVisible());
    selectData(intra, int(LinkKind::Nvlink3));
    const double oneNode = result().estimate.dataParallelSeconds;
    perNode->setValue(8);
    QVERIFY(inter->isEnabled());
    selectData(inter, int(LinkKind::Ethernet100));
    QCOMPARE(m_controller->scenario().config.cluster.gpusPerNode, 8);
    QVERIFY(m_controller->scenario().config.cluster.interLink == LinkKind::Ethernet100);
    QVERIFY(result().estimate.dataParallelSeconds > oneNode);
    // Sequence parallelism needs tensor parallelism: off at t = 1, on at t = 2, and off again when t goes back.
    QVERIFY(!sp->isEnabled());
    selectData(controls()->tensorParallelCombo(), 2);
    QVERIFY(sp->isEnabled());
    sp->setChecked(true);
    QVERIFY(m_controller->scenario().config.sequenceParallel);
    selectData(controls()->tensorParallelCombo(), 1);
    QVERIFY(!m_controller->scenario().config.sequenceParallel);
}

void TestParallelControls::autoLinkIsNamed()
{
    // Four RTX 4090s: GeForce cards without PCIe peer-to-peer (NVIDIA/nccl#1127), so auto is host shared memory at
    // the 3.9 GB/s NVIDIA/nccl#384 measured; the link row and Explain's step time both say so. Eight H100 SXM: the
    // NVSwitch figure nccl-tests#212 measured, 370 GB/s.
    auto* intra = controls()->findChild<QComboBox*>(QStringLiteral("intraLinkCombo"));
    QVERIFY(intra);
    auto selectGpu = [&](const char* id) {
        const int i = controls()->gpuCombo()->findData(QString::fromLatin1(id), Qt::UserRole + 1);
        QVERIFY2(i >= 0, id);
        controls()->gpuCombo()->setCurrentIndex(i);
    };
    selectModel("gpt2");
    selectGpu("rtx-4090");
    dataParallel()->setValue(4);
    QCOMPARE(intra->itemText(0), QStringLiteral("In a node: auto (pcie-shm, 3.9 GB/s)"));
    emit m_window->verdict()->explainRequested(QStringLiteral("time"));
    const QString html = m_window->explainHtml();
    QVERIFY2(html.contains(QStringLiteral("pcie-shm at 3.9 GB/s per GPU")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("data-parallel gradients")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral(" sent; overlaps backward")), qPrintable(html));
    // The roofline's communication roof is that link: the gradients' bytes over their time less NCCL's latency, and
    // the step sits under it at its FLOPs per byte sent.
    RooflineView* roofline = m_window->rooflineChart();
    QCOMPARE(roofline->linkSlope(), 3.9e9);
    const Estimate& e = result().estimate;
    QCOMPARE(roofline->linkMarker().x(), e.wholeStep.flops / e.dataParallelBytes);
    QCOMPARE(roofline->linkMarker().y(), e.wholeStep.achievedFlopsPerSecond());
    // Its height over the roof is the share of the step the links take: about half (the gradients' 192 ms under
    // backward in a 389 ms step).
    QVERIFY(roofline->linkMarker().y() > 0.4 * roofline->linkMarker().x() * 3.9e9);
    selectGpu("h100-sxm5-80gb");
    dataParallel()->setValue(8);
    QCOMPARE(intra->itemText(0), QStringLiteral("In a node: auto (nvlink4, 370.0 GB/s)"));
    dataParallel()->setValue(1);
    QCOMPARE(roofline->linkSlope(), 0.0); // one GPU: no links
}

void TestParallelControls::channelsLastOnlyForConvolutions()
{
    // Only a vision model has a memory format to choose; ResNet-50 with AMP on an A100 runs faster channels_last
    // (the NCHW <-> NHWC transposes around its tensor-core convolutions go), as tst_timecalibration holds.
    auto* check = controls()->findChild<QCheckBox*>(QStringLiteral("channelsLastCheck"));
    QVERIFY(check);
    selectModel("gpt2");
    QVERIFY(!check->isVisible());
    const int gpu = controls()->gpuCombo()->findData(QStringLiteral("a100-sxm4-80gb"), Qt::UserRole + 1);
    QVERIFY(gpu >= 0);
    controls()->gpuCombo()->setCurrentIndex(gpu);
    selectModel("resnet50");
    QVERIFY(check->isVisible());
    QVERIFY(!check->isChecked());
    selectData(controls()->findChild<QComboBox*>(QStringLiteral("precisionCombo")), int(Precision::MixedFP16));
    // The transposes are GPU work: the GPU's busy time drops (the step itself may wait for the host instead).
    const double nchw = result().estimate.gpuBusySeconds;
    check->setChecked(true);
    QVERIFY(m_controller->scenario().config.channelsLast);
    QVERIFY(result().estimate.gpuBusySeconds < nchw * 0.95);
    check->setChecked(false);
    QCOMPARE(result().estimate.gpuBusySeconds, nchw);
}

QTEST_MAIN(TestParallelControls)
#include "tst_parallelcontrols.moc"
