// The control panel's fine-tuning rows, offscreen: each control changes what the simulator trains (read back from the
// controller's estimate and the verdict), a scenario file sets them, other edits keep the file's values, and a CNN
// leaves only full training. Trainable counts are PEFT's get_nb_trainable_parameters for Llama-2-7B (Hu et al. 2021:
// an adapter on a Linear in x out has r * (in + out) parameters).

#include "appsettings.h"
#include "catalogloader.h"
#include "controlpanel.h"
#include "mainwindow.h"
#include "scenariotext.h"
#include "simulationcontroller.h"
#include "verdictwidget.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace headroom;
using namespace headroom::gui;

class TestFinetuneControls : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void qloraMakesLlama2FitOnTheA3000();
    void allLinearAndRankTrainMore();
    void rowsFollowTheMethod();
    void scenarioFileSetsTheControls();
    void otherEditsKeepTheFilesValues();
    void exampleAndSuggestionSetTheControls();
    void cnnTrainsInFullOnly();
    void newModelKeepsAValidMethod();
    void refusedScenarioIsReported();
    void everyControlHasATooltip();
    void groupMnemonicFocusesTheMethod();
    void tensorParallelRowOffersTheModelsSplits();

private:
    ControlPanel* controls() const { return m_window->controls(); }
    const Estimate& estimate() const { return m_controller->result().estimate; }
    const FinetuneConfig& finetune() const { return m_controller->scenario().config.finetune; }
    void selectData(QComboBox* combo, const QVariant& value)
    {
        const int i = combo->findData(value);
        QVERIFY2(i >= 0, qPrintable(value.toString()));
        combo->setCurrentIndex(i);
    }
    void selectId(QComboBox* combo, const char* id)
    {
        const int i = combo->findData(QString::fromLatin1(id), Qt::UserRole + 1);
        QVERIFY2(i >= 0, id);
        combo->setCurrentIndex(i);
    }
    // Llama-2-7B at one sequence of 512 tokens on the 12 GB A3000: 135 GB in full training.
    void llamaAtBatchOne()
    {
        selectId(controls()->gpuCombo(), "rtx-a3000-12gb-laptop");
        selectId(controls()->modelCombo(), "llama-2-7b");
        QCOMPARE(m_controller->scenario().modelId, std::string("llama-2-7b"));
        controls()->batchSlider()->setValue(controls()->positionFromBatch(1));
        controls()->sequenceSlider()->setValue(30); // 64 * 2^3
        QCOMPARE(m_controller->scenario().config.microBatch, 1);
        QCOMPARE(m_controller->scenario().config.sequenceLength, 512);
    }
    QString writeScenario(const QByteArray& json)
    {
        const QString path = m_dir->filePath(QStringLiteral("finetune.headroom.json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(json);
        return path;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<SimulationController> m_controller;
    std::unique_ptr<MainWindow> m_window;
};

void TestFinetuneControls::init()
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

void TestFinetuneControls::cleanup()
{
    m_window.reset();
    m_controller.reset();
    m_settings.reset();
}

void TestFinetuneControls::qloraMakesLlama2FitOnTheA3000()
{
    llamaAtBatchOne();
    QVERIFY(!estimate().fits);
    QCOMPARE(estimate().trainableParameters, estimate().parameters);
    QVERIFY2(!m_window->verdict()->details().contains(QStringLiteral("trainable")),
             qPrintable(m_window->verdict()->details()));

    selectData(controls()->finetuneCombo(), int(FinetuneMethod::QLoRA));
    QCOMPARE(int(finetune().method), int(FinetuneMethod::QLoRA));
    QVERIFY2(estimate().fits, qPrintable(m_window->verdict()->headline()));
    QVERIFY(m_window->verdict()->headline().contains(QStringLiteral("Fits")));
    // PEFT, r = 8 on q_proj and v_proj: 32 layers x 2 x 8 x (4096 + 4096).
    QCOMPARE(estimate().trainableParameters, 4194304.0);
    const QString details = m_window->verdict()->details();
    QVERIFY2(details.contains(QStringLiteral("6.74B parameters, 4.2M trainable (0.06%, QLoRA)")), qPrintable(details));
    // Exported figures and the report say what trained.
    const QString settings = ScenarioText::settings(m_controller->result());
    QVERIFY2(settings.contains(QStringLiteral("QLoRA rank 8 on q, v (PEFT default)")), qPrintable(settings));
}

void TestFinetuneControls::allLinearAndRankTrainMore()
{
    llamaAtBatchOne();
    selectData(controls()->finetuneCombo(), int(FinetuneMethod::LoRA));
    QCOMPARE(estimate().trainableParameters, 4194304.0);
    const double qv = estimate().trainableParameters;
    selectData(controls()->loraTargetsCombo(), QStringLiteral("all-linear"));
    QCOMPARE(finetune().loraTargets, std::vector<std::string> { "all-linear" });
    // Every Linear of the blocks: 32 x 8 x (4 x (4096 + 4096) + 3 x (4096 + 11008)).
    QCOMPARE_GT(estimate().trainableParameters, qv);
    QCOMPARE(estimate().trainableParameters, 19988480.0);
    // The count is linear in the rank.
    controls()->loraRankSpin()->setValue(16);
    QCOMPARE(finetune().loraRank, 16);
    QCOMPARE(estimate().trainableParameters, 2 * 19988480.0);
    // Back to PEFT's default targets.
    selectData(controls()->loraTargetsCombo(), QStringLiteral("default"));
    QVERIFY(finetune().loraTargets.empty());
    QCOMPARE(estimate().trainableParameters, 2 * 4194304.0);
}

void TestFinetuneControls::rowsFollowTheMethod()
{
    llamaAtBatchOne();
    auto adapterRows = [&] {
        return controls()->loraRankSpin()->isEnabled() && controls()->loraTargetsCombo()->isEnabled()
            && controls()->loraDropoutSpin()->isEnabled();
    };
    QVERIFY(controls()->finetuneCombo()->isEnabled());
    QVERIFY(!adapterRows());
    QVERIFY(!controls()->frozenLayersSpin()->isEnabled());
    for (FinetuneMethod m : { FinetuneMethod::LoRA, FinetuneMethod::DoRA, FinetuneMethod::QLoRA }) {
        selectData(controls()->finetuneCombo(), int(m));
        QVERIFY2(adapterRows(), toString(m).data());
        QVERIFY(!controls()->frozenLayersSpin()->isEnabled());
    }
    selectData(controls()->finetuneCombo(), int(FinetuneMethod::Freeze));
    QVERIFY(!adapterRows());
    QVERIFY(controls()->frozenLayersSpin()->isEnabled());
    // From "all" (-1) to the model's 32 blocks; freezing fewer trains more.
    QCOMPARE(controls()->frozenLayersSpin()->minimum(), -1);
    QCOMPARE(controls()->frozenLayersSpin()->maximum(), 32);
    QCOMPARE(controls()->frozenLayersSpin()->text(), QStringLiteral("all"));
    const double allFrozen = estimate().trainableParameters;
    controls()->frozenLayersSpin()->setValue(16);
    QCOMPARE(finetune().frozenLayers, 16);
    QCOMPARE_GT(estimate().trainableParameters, allFrozen);
    // Dropout on the adapters' input saves a mask and the dropped input: more activation memory.
    selectData(controls()->finetuneCombo(), int(FinetuneMethod::LoRA));
    const double before = estimate().peakBytes;
    controls()->loraDropoutSpin()->setValue(0.05);
    QCOMPARE(finetune().loraDropout, 0.05);
    QCOMPARE_GT(estimate().peakBytes, before);
}

void TestFinetuneControls::scenarioFileSetsTheControls()
{
    const QString path = writeScenario(R"({"format":"headroom-scenario","version":1,"gpu":"rtx-a3000-12gb-laptop",
        "model":"llama-2-7b","micro_batch":1,"sequence_length":512,"precision":"bf16",
        "finetune":{"method":"dora","lora_rank":2048,"lora_alpha":32,"lora_dropout":0.1,
                    "lora_targets":["q_proj","k_proj","v_proj","o_proj"]}})");
    QVERIFY(!path.isEmpty());
    const auto error = m_window->openScenarioFile(path);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    QCOMPARE(controls()->finetuneCombo()->currentData().toInt(), int(FinetuneMethod::DoRA));
    QCOMPARE(controls()->loraRankSpin()->value(), 1024); // the spin box's end; the file's 2048 is kept, with a note
    QVERIFY2(controls()->rangeNoteText().contains(QStringLiteral("LoRA rank 2048")),
             qPrintable(controls()->rangeNoteText()));
    QCOMPARE(controls()->loraDropoutSpin()->value(), 0.1);
    QCOMPARE(controls()->loraTargetsCombo()->currentText(), QStringLiteral("q_proj, k_proj, v_proj, o_proj"));
    QVERIFY(controls()->loraRankSpin()->isEnabled());
    QVERIFY(!controls()->frozenLayersSpin()->isEnabled());

    const QString freeze = writeScenario(R"({"format":"headroom-scenario","version":1,"gpu":"rtx-a3000-12gb-laptop",
        "model":"bert-base","micro_batch":8,"sequence_length":128,
        "finetune":{"method":"freeze","frozen_layers":10}})");
    QVERIFY(!m_window->openScenarioFile(freeze));
    QCOMPARE(controls()->finetuneCombo()->currentData().toInt(), int(FinetuneMethod::Freeze));
    QCOMPARE(controls()->frozenLayersSpin()->value(), 10);
    QCOMPARE(controls()->frozenLayersSpin()->maximum(), 12);
    QVERIFY(controls()->frozenLayersSpin()->isEnabled());
    QVERIFY(!controls()->loraRankSpin()->isEnabled());
    QVERIFY(controls()->rangeNoteText().isEmpty());
    // BERT's PEFT default is query and value, not a fused projection.
    QCOMPARE(controls()->loraTargetsCombo()->itemText(0), QStringLiteral("q, v (PEFT default)"));
    selectId(controls()->modelCombo(), "gpt2");
    QCOMPARE(controls()->loraTargetsCombo()->itemText(0), QStringLiteral("fused qkv (PEFT default)"));
}

void TestFinetuneControls::otherEditsKeepTheFilesValues()
{
    const QString path = writeScenario(R"({"format":"headroom-scenario","version":1,"gpu":"rtx-a3000-12gb-laptop",
        "model":"llama-2-7b","micro_batch":1,"sequence_length":512,
        "finetune":{"method":"lora","lora_rank":2048,"lora_alpha":32,"lora_dropout":0.123,
                    "lora_targets":["q_proj","k_proj","v_proj","o_proj"]}})");
    QVERIFY(!m_window->openScenarioFile(path));
    const FinetuneConfig file = finetune();
    QCOMPARE(file.loraDropout, 0.123); // the spin box shows 0.12
    // Every other control, fine-tuning rows included, leaves the file's other fields alone.
    controls()->batchSlider()->setValue(controls()->positionFromBatch(2));
    selectData(controls()->optimizerCombo(), int(OptimizerKind::AdamW8bit));
    selectData(controls()->finetuneCombo(), int(FinetuneMethod::QLoRA));
    QCOMPARE(m_controller->scenario().config.microBatch, 2);
    FinetuneConfig expected = file;
    expected.method = FinetuneMethod::QLoRA;
    QVERIFY(finetune() == expected);
    // The edited control replaces its own value.
    controls()->loraRankSpin()->setValue(64);
    QCOMPARE(finetune().loraRank, 64);
    QCOMPARE(finetune().loraAlpha, 32.0);
    QCOMPARE(finetune().loraTargets.size(), std::size_t(4));
    QVERIFY(controls()->rangeNoteText().isEmpty());
    // Choosing a preset replaces the file's list, which then leaves the combo.
    selectData(controls()->loraTargetsCombo(), QStringLiteral("all-linear"));
    QCOMPARE(controls()->loraTargetsCombo()->count(), 2);
    QCOMPARE(finetune().loraDropout, 0.123);
}

// The bundled QLoRA example and a suggested fix reach the rows as a file does.
void TestFinetuneControls::exampleAndSuggestionSetTheControls()
{
    const QString example = QStringLiteral(HEADROOM_SOURCE_DIR
                                           "/resources/scenarios/09-llama-2-7b-qlora.headroom.json");
    const auto error = m_window->openScenarioFile(example);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    QCOMPARE(controls()->finetuneCombo()->currentData().toInt(), int(FinetuneMethod::QLoRA));
    QCOMPARE(controls()->loraRankSpin()->value(), 16);
    QCOMPARE(controls()->loraTargetsCombo()->currentData().toString(), QStringLiteral("all-linear"));
    QCOMPARE(controls()->loraDropoutSpin()->value(), 0.05);
    QVERIFY(estimate().fits);

    // Full training of the same model at batch 1 does not fit; the first suggestion is QLoRA, and applying it sets the
    // method row.
    llamaAtBatchOne();
    selectData(controls()->finetuneCombo(), int(FinetuneMethod::Full));
    QVERIFY(!estimate().fits);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->verdict()->suggestions().contains(QStringLiteral("QLoRA")), 20000);
    auto* fixes = m_window->verdict()->findChild<QLabel*>(QStringLiteral("verdictFixes"));
    QVERIFY(fixes);
    emit fixes->linkActivated(QStringLiteral("fix:0"));
    QCOMPARE(int(finetune().method), int(FinetuneMethod::QLoRA));
    QCOMPARE(controls()->finetuneCombo()->currentData().toInt(), int(FinetuneMethod::QLoRA));
    QVERIFY(controls()->loraRankSpin()->isEnabled());
    QVERIFY(estimate().fits);
}

void TestFinetuneControls::cnnTrainsInFullOnly()
{
    llamaAtBatchOne();
    selectData(controls()->finetuneCombo(), int(FinetuneMethod::LoRA));
    selectId(controls()->modelCombo(), "resnet50");
    // validateFinetune refuses LoRA on a CNN: the window trains it in full instead of refusing the model.
    QCOMPARE(m_controller->scenario().modelId, std::string("resnet50"));
    QCOMPARE(int(finetune().method), int(FinetuneMethod::Full));
    QCOMPARE(controls()->finetuneCombo()->currentData().toInt(), int(FinetuneMethod::Full));
    QVERIFY(!controls()->finetuneCombo()->isEnabled());
    QVERIFY(!controls()->loraRankSpin()->isEnabled());
    QVERIFY(!controls()->loraTargetsCombo()->isEnabled());
    QVERIFY(!controls()->loraDropoutSpin()->isEnabled());
    QVERIFY(!controls()->frozenLayersSpin()->isEnabled());
    QVERIFY2(controls()->finetuneCombo()->toolTip().contains(QStringLiteral("CNN")),
             qPrintable(controls()->finetuneCombo()->toolTip()));
    // A transformer again: the methods come back.
    selectId(controls()->modelCombo(), "vit-b-16");
    QVERIFY(controls()->finetuneCombo()->isEnabled());
    QVERIFY(!controls()->finetuneCombo()->toolTip().contains(QStringLiteral("CNN")));
}

void TestFinetuneControls::newModelKeepsAValidMethod()
{
    // Module names GPT-2 does not have give way to its PEFT default; frozen layers beyond its depth become "all".
    const QString path = writeScenario(R"({"format":"headroom-scenario","version":1,"gpu":"rtx-a3000-12gb-laptop",
        "model":"llama-2-7b","micro_batch":1,"sequence_length":512,
        "finetune":{"method":"lora","lora_targets":["q_proj","v_proj"]}})");
    QVERIFY(!m_window->openScenarioFile(path));
    selectId(controls()->modelCombo(), "gpt2");
    QCOMPARE(m_controller->scenario().modelId, std::string("gpt2"));
    QCOMPARE(int(finetune().method), int(FinetuneMethod::LoRA));
    QVERIFY(finetune().loraTargets.empty());
    QCOMPARE(controls()->loraTargetsCombo()->currentData().toString(), QStringLiteral("default"));

    selectId(controls()->modelCombo(), "llama-2-7b");
    selectData(controls()->finetuneCombo(), int(FinetuneMethod::Freeze));
    controls()->frozenLayersSpin()->setValue(30);
    selectId(controls()->modelCombo(), "bert-base");
    QCOMPARE(m_controller->scenario().modelId, std::string("bert-base"));
    QCOMPARE(finetune().frozenLayers, -1);
}

void TestFinetuneControls::refusedScenarioIsReported()
{
    const Scenario before = m_controller->scenario();
    const QString path = writeScenario(R"({"format":"headroom-scenario","version":1,"gpu":"rtx-a3000-12gb-laptop",
        "model":"resnet50","micro_batch":8,"sequence_length":224,"finetune":{"method":"lora"}})");
    const QString error = m_window->openScenarioFile(path).value_or(QString());
    QVERIFY2(error.contains(QStringLiteral("CNN")), qPrintable(error));
    QCOMPARE(m_controller->scenario().modelId, before.modelId);
}

void TestFinetuneControls::everyControlHasATooltip()
{
    const QList<QWidget*> widgets { controls()->finetuneCombo(), controls()->loraRankSpin(),
                                    controls()->loraTargetsCombo(), controls()->loraDropoutSpin(),
                                    controls()->frozenLayersSpin() };
    for (QWidget* w : widgets)
        QVERIFY2(w->toolTip().size() > 40, qPrintable(w->objectName()));
    QVERIFY(controls()->finetuneCombo()->toolTip().contains(QStringLiteral("bnb_4bit_quant_type=\"nf4\"")));
    QVERIFY(controls()->loraRankSpin()->toolTip().contains(QStringLiteral("LoraConfig(r=")));
    QVERIFY(controls()->loraTargetsCombo()->toolTip().contains(QStringLiteral("target_modules")));
    QComboBox* method = controls()->finetuneCombo();
    QCOMPARE(method->count(), 5);
    for (int i = 0; i < method->count(); ++i)
        QVERIFY2(!method->itemData(i, Qt::ToolTipRole).toString().isEmpty(), qPrintable(method->itemText(i)));
    QVERIFY(method->itemData(method->findData(int(FinetuneMethod::QLoRA)), Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("prepare_model_for_kbit_training")));
}

// The rows share the panel's 26 letters: the group's Alt+U reaches the method, the rows follow it with Tab.
void TestFinetuneControls::groupMnemonicFocusesTheMethod()
{
    auto* group = controls()->findChild<QGroupBox*>(QStringLiteral("finetuneGroup"));
    QVERIFY(group);
    QCOMPARE(group->title(), QStringLiteral("Fine-t&uning"));
    m_window->activateWindow();
    if (!QTest::qWaitForWindowActive(m_window.get()))
        QSKIP("the platform does not activate windows, so shortcuts are not delivered");
    QTest::keyClick(m_window.get(), Qt::Key_U, Qt::AltModifier);
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(controls()->finetuneCombo()));
}

void TestFinetuneControls::tensorParallelRowOffersTheModelsSplits()
{
    // Llama-2-7B (32 heads, 32 key/value heads, FFN 11008 = 2^8 x 43): splits 1, 2, 4, 8, 16, 32 divide them all.
    llamaAtBatchOne();
    QComboBox* tp = controls()->tensorParallelCombo();
    QList<int> offered;
    for (int i = 0; i < tp->count(); ++i)
        offered << tp->itemData(i).toInt();
    QCOMPARE(offered, (QList<int> { 1, 2, 4, 8, 16, 32 }));
    QVERIFY(tp->isEnabled());
    const double whole = estimate().components[index(MemoryCategory::Weights)];
    selectData(tp, 4);
    QCOMPARE(m_controller->scenario().config.tensorParallel, 4);
    QVERIFY(estimate().components[index(MemoryCategory::Weights)] < 0.26 * whole);
    QCOMPARE(estimate().parameters, 6738415616.0); // still the whole model's count
    // GPT-2's 12 heads split 2 or 4 ways; the choice of 4 stays, 8 is not offered.
    selectId(controls()->modelCombo(), "gpt2");
    offered.clear();
    for (int i = 0; i < tp->count(); ++i)
        offered << tp->itemData(i).toInt();
    QCOMPARE(offered, (QList<int> { 1, 2, 4 }));
    QCOMPARE(m_controller->scenario().config.tensorParallel, 4);
    // Adapters under tensor parallelism are not modelled: LoRA turns the row off and the split back to 1.
    selectData(controls()->finetuneCombo(), int(FinetuneMethod::LoRA));
    QCOMPARE(m_controller->scenario().config.tensorParallel, 1);
    QVERIFY(!tp->isEnabled());
    QVERIFY(m_controller->result().model); // the scenario stayed valid throughout
}

QTEST_MAIN(TestFinetuneControls)
#include "tst_finetunecontrols.moc"
