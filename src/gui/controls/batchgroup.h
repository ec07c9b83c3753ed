#pragma once

// The batch and sequence group: the micro-batch (a slider linear around its value and logarithmic beyond,
// batchscale.h, with typed entry), the sequence length or image side (logarithmic, up to the model's learned
// positions), the gradient accumulation steps, and the note naming scenario values beyond the controls' ranges.

#include "batchscale.h"
#include "controlgroup.h"

#include <memory>

namespace Ui {
class BatchGroup;
}

QT_BEGIN_NAMESPACE
class QSlider;
class QSpinBox;
QT_END_NAMESPACE

namespace headroom::gui {

class BatchGroup : public ControlGroup {
    Q_OBJECT

public:
    explicit BatchGroup(QWidget* parent = nullptr);
    ~BatchGroup() override;

    // In front of a class the accumulation steps go.
    void setPresentationMode(bool on) override;

    // The micro-batch slider's mapping, which moves with the value: ask it again after every change.
    std::int64_t batchFromPosition(int position) const { return m_batchScale.value(position); }
    int positionFromBatch(std::int64_t batch) const { return m_batchScale.position(batch); }

    QSlider* batchSlider() const;
    QSlider* sequenceSlider() const;
    QSpinBox* batchSpin() const;
    QSpinBox* sequenceSpin() const;
    QSpinBox* accumulationSpin() const;
    bool vision() const { return m_vision; } // the sequence row is an image side
    void setRangeNote(const QString& note);  // empty: hidden
    QString rangeNoteText() const;           // empty while hidden

protected:
    void sync(const Scenario& scenario, const Catalog& catalog) override;
    void retranslate() override;

private:
    void syncBatchSlider(std::int64_t batch); // re-anchors the slider's scale unless it is held
    void updateSequenceMode(const ModelSpec* model);

    std::unique_ptr<Ui::BatchGroup> m_ui;
    BatchScale m_batchScale;
    bool m_vision = false;
};

} // namespace headroom::gui
