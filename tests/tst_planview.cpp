// View › Plan a Multi-GPU Layout: `headroom plan` in the window, on a worker. The layouts it lists are plan()'s
// for the same request, fastest first; double-clicking one applies it to the window's scenario.

#include "language.h"
#include "planview.h"
#include "sanitizer.h"
#include "testsupport.h"
#include "windowfixture.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>

using namespace headroom;

class TestPlanView : public QObject {
    Q_OBJECT

private slots:
    void listsThePlannersLayouts();
    void rejectionReasonsAreTranslated();
};

void TestPlanView::listsThePlannersLayouts()
{
    HEADROOM_SKIP_PLANNER_UNDER_SANITIZER();
    headroom::test::WindowFixture fixture;
    QVERIFY(fixture.open());
    gui::PlanView* view = fixture.window->planView();
    Scenario s = fixture.controller->scenario();
    s.gpuId = "a100-sxm4-80gb";
    s.modelId = "llama-2-7b";
    s.config.sequenceLength = 2048;
    QVERIFY(fixture.window->applyScenario(s));
    QSignalSpy shown(view, &gui::PlanView::planShown);
    view->gpusSpin()->setValue(16);
    view->setScenario(fixture.controller->scenario());
    view->refresh();
    QVERIFY(shown.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(!view->busy(), 30000);

    // The same request to the core: the same layouts in the same order.
    PlanRequest r;
    r.base = fixture.controller->scenario();
    r.gpus = 16;
    r.gpusPerNode = 8;
    r.globalBatch = 64;
    r.levers = gui::PlanView::windowLevers();
    const auto p = plan(headroom::test::catalog(), r);
    QVERIFY(p.ok());
    QCOMPARE(view->result().evaluated, p->evaluated);
    QVERIFY(view->table()->rowCount() > 10);
    QCOMPARE(view->table()->rowCount(), std::min(50, int(p->layouts.size())));
    QCOMPARE(view->result().layouts.front().throughputPerSecond, p->layouts.front().throughputPerSecond);
    QVERIFY(view->status().contains(QStringLiteral("fastest first")));

    // Double-clicking the second row applies its layout: 16 GPUs as t x p x cp x dp.
    const TrainingConfig want = p->layouts[1].config;
    emit view->table()->cellDoubleClicked(1, 0);
    const TrainingConfig& got = fixture.controller->scenario().config;
    QCOMPARE(got.tensorParallel, want.tensorParallel);
    QCOMPARE(got.pipelineParallel, want.pipelineParallel);
    QCOMPARE(got.dataParallel, want.dataParallel);
    QCOMPARE(got.microBatch, want.microBatch);
    QCOMPARE(got.tensorParallel * got.pipelineParallel * got.contextParallel * got.dataParallel, 16);
    fixture.close();
}

// Every reason the planner gives reads in Chinese in a Chinese window (but a simulator's refusal, which keeps its
// message); in English it is the CLI's own sentence.
void TestPlanView::rejectionReasonsAreTranslated()
{
    int seen = 0;
    gui::Language chinese;
    for (auto [gpu, model, gpus, perNode, seq] :
         { std::tuple { "a100-sxm4-80gb", "llama-2-7b", 16, 8, 2048 }, std::tuple { "rtx-3090", "gpt2", 12, 4, 1024 },
           std::tuple { "rtx-3090", "resnet50", 8, 8, 224 } }) {
        PlanRequest r;
        r.base = defaultScenario();
        r.base.gpuId = gpu;
        r.base.modelId = model;
        r.base.config.sequenceLength = seq;
        r.gpus = gpus;
        r.gpusPerNode = perNode;
        r.globalBatch = 48;
        const auto p = plan(headroom::test::catalog(), r);
        QVERIFY2(p.ok(), model);
        for (const PlanRejection& x : p->rejected) {
            QCOMPARE(gui::PlanView::reasonText(x), QString::fromStdString(x.reason));
            if (x.kind == PlanReason::Refused)
                continue;
            QVERIFY(chinese.apply(QStringLiteral("zh_CN")));
            const QString zh = gui::PlanView::reasonText(x);
            QVERIFY(chinese.apply(QStringLiteral("en")));
            QVERIFY2(zh.contains(QRegularExpression(QStringLiteral("[\\x{4e00}-\\x{9fff}]"))), x.reason.c_str());
            ++seen;
        }
    }
    QVERIFY(seen >= 6);
}

QTEST_MAIN(TestPlanView)
#include "tst_planview.moc"
