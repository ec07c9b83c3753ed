#pragma once

// The controls, as eight groups each of its own widget and .ui (controlgroup.h): the GPU and model pickers, batch
// and sequence, precision and optimizer, fine-tuning, parallelism, the PyTorch allocator, the host and the what-if
// overrides. The panel shows each group the scenario it is given and forwards each group's typed edit
// (scenarioedit.h); it holds no rule and never changes the scenario itself: the window applies the edit and gives
// the panel the result.

#include "catalog.h"
#include "scenario.h"
#include "scenarioedit.h"

#include <QWidget>

#include <array>
#include <memory>

namespace Ui {
class ControlPanel;
}

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QSlider;
class QSpinBox;
QT_END_NAMESPACE

namespace headroom::gui {

class ControlGroup;

class ControlPanel : public QWidget {
    Q_OBJECT

public:
    explicit ControlPanel(QWidget* parent = nullptr);
    ~ControlPanel() override;

    void setCatalog(const Catalog* catalog);
    void setScenario(const Scenario& scenario); // updates the controls without emitting
    void setPresentationMode(bool on);          // only the essential controls

    // The micro-batch slider's mapping (batchscale.h: linear around the current value, logarithmic beyond), public
    // for tests and benchmarks. It moves with the value: ask it again after every change.
    std::int64_t batchFromPosition(int position) const;
    int positionFromBatch(std::int64_t batch) const;

    QSlider* batchSlider() const;
    QSlider* sequenceSlider() const;
    QSlider* zeroSlider() const;
    QSlider* dataParallelSlider() const;
    QComboBox* gpuCombo() const;
    QComboBox* modelCombo() const;
    QComboBox* precisionCombo() const;
    QString rangeNoteText() const; // empty when every scenario value fits its control
    QComboBox* optimizerCombo() const;
    QComboBox* checkpointingCombo() const;
    QComboBox* attentionCombo() const;
    QComboBox* loopCombo() const;
    QComboBox* finetuneCombo() const;
    QComboBox* tensorParallelCombo() const;
    QComboBox* expertParallelCombo() const;
    QComboBox* contextParallelCombo() const;
    QComboBox* stageSplitCombo() const; // blocks per pipeline stage
    QComboBox* pipelineCombo() const;
    QComboBox* stageCombo() const;
    QSpinBox* loraRankSpin() const;
    QComboBox* loraTargetsCombo() const;
    QDoubleSpinBox* loraDropoutSpin() const;
    QSpinBox* frozenLayersSpin() const;

signals:
    // A control changed: the edit to apply (applyEdit). `dragging` is true while a slider is held, so that an undo
    // stack can fold one drag into one step.
    void edited(const headroom::ScenarioEdit& edit, bool dragging);
    // A short message for the status bar: what a typed GPU or model name resolved to, or that nothing matches.
    void noteRequested(const QString& message);
    // The pipeline stage the memory charts should show: -1 for the most loaded. Not part of the scenario.
    void stageShown(int stage);

protected:
    void changeEvent(QEvent* event) override;

private:
    void syncFromScenario();
    void updateRangeNote(); // names the scenario values a control cannot show
    std::array<ControlGroup*, 8> groups() const;

    std::unique_ptr<Ui::ControlPanel> m_ui;
    const Catalog* m_catalog = nullptr;
    Scenario m_scenario; // the one shown: a copy of what the window last gave, never edited here
};

} // namespace headroom::gui
