#pragma once

// The parallelism group: the ZeRO stage, data-, tensor-, pipeline-, context- and expert-parallel GPUs, sequence
// parallelism, the pipeline's schedule and its stages' blocks, ZeRO-Offload, where the job's GPUs sit (GPUs per node,
// the link inside a node and the one between nodes), and which stage the memory charts show. The values each row
// offers, and which choice stays while another control changes, are the core's (scenarioedit.h:
// tensorParallelChoices, ..., applyEdit); the rows show them. Tensor and pipeline splits are not modelled with
// adapters, so those rows are off for LoRA, DoRA and QLoRA.

#include "controlgroup.h"

#include <memory>

namespace Ui {
class ParallelGroup;
}

QT_BEGIN_NAMESPACE
class QComboBox;
class QSlider;
class QSpinBox;
QT_END_NAMESPACE

namespace headroom::gui {

class ParallelGroup : public ControlGroup {
    Q_OBJECT

public:
    explicit ParallelGroup(QWidget* parent = nullptr);
    ~ParallelGroup() override;

    // In front of a class only the ZeRO stage stays (the stage shown too hides, as every pipeline row).
    void setPresentationMode(bool on) override;

    QSlider* zeroSlider() const;
    QSlider* dataParallelSlider() const;
    QSpinBox* dataParallelSpin() const;
    QComboBox* tensorParallelCombo() const;
    QComboBox* pipelineCombo() const;
    QComboBox* stageCombo() const;
    QComboBox* expertParallelCombo() const;
    QComboBox* contextParallelCombo() const;
    QComboBox* stageSplitCombo() const;

signals:
    // The pipeline stage the memory charts should show: -1 for the most loaded. Not part of the scenario.
    void stageShown(int stage);

protected:
    void sync(const Scenario& scenario, const Catalog& catalog) override;
    void retranslate() override;

private:
    // What the rows are filled from while a scenario is shown.
    struct Shown {
        const TrainingConfig& config;
        const ModelSpec* model;
        const GpuSpec* gpu;
    };
    void setupCluster();
    void syncTensorAndPipeline(const Shown& s);
    void syncExpertsAndContext(const Shown& s);
    void syncCluster(const Shown& s);
    void syncVisibility();
    void retranslateRows(const Shown& s);
    void retranslateSplits(const Shown& s);
    void retranslateLinks(const Shown& s);
    QString autoIntraLinkText(const Shown& s) const;

    std::unique_ptr<Ui::ParallelGroup> m_ui;
    int m_shownStage = -1; // the stage combo's choice (stageShown)
    bool m_presenting = false;
    bool m_pipeline = false;    // more than one stage: the stage and split rows show
    bool m_severalGpus = false; // the nodes and links rows show
    bool m_moe = false;         // the model has experts: the expert-parallel row shows
    bool m_tokens = false;      // a token sequence: the context-parallel row shows
    bool m_linksStale = true;   // the links' entries are to be worded (at first and in a new language)
};

} // namespace headroom::gui
