#include "scenariohistory.h"

#include <QDateTime>

namespace headroom::gui {

class ScenarioCommand : public QUndoCommand {
public:
    ScenarioCommand(ScenarioHistory* history, Scenario before, Scenario after, Change what, bool mergeable)
        : m_history(history)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_what(what)
        , m_mergeable(mergeable)
        , m_time(QDateTime::currentMSecsSinceEpoch())
    {
        setText(ScenarioHistory::describe(what));
    }

    int id() const override { return 0x5CE7; }

    void undo() override { m_history->apply(m_before); }
    void redo() override
    {
        // The first redo comes from push(): the change is already shown.
        if (m_pushed)
            m_history->apply(m_after);
        m_pushed = true;
    }

    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = static_cast<const ScenarioCommand*>(other);
        // Typing "128" into the batch box is one step, not three.
        if (!m_mergeable || !o->m_mergeable || o->m_what != m_what || o->m_time - m_time > 1500)
            return false;
        m_after = o->m_after;
        m_time = o->m_time;
        if (m_after == m_before)
            setObsolete(true);
        return true;
    }

private:
    ScenarioHistory* m_history;
    Scenario m_before;
    Scenario m_after;
    Change m_what;
    bool m_mergeable;
    qint64 m_time;
    bool m_pushed = false;
};

ScenarioHistory::ScenarioHistory(QObject* parent)
    : QObject(parent)
{
}

void ScenarioHistory::reset(const Scenario& current)
{
    m_stack.clear();
    m_committed = current;
    m_hasCommitted = true;
}

void ScenarioHistory::record(const Scenario& now, Change what, bool dragging)
{
    if (m_applying || dragging)
        return; // the drag becomes one step when the slider is released
    if (!m_hasCommitted) {
        reset(now);
        return;
    }
    if (now == m_committed)
        return;
    // Slider releases and menu actions stand alone; typed values and arrow keys merge per control.
    const auto* control = std::get_if<Control>(&what);
    const bool mergeable = control && *control != Control::Model && *control != Control::Gpu;
    Scenario before = m_committed;
    m_committed = now;
    m_stack.push(new ScenarioCommand(this, std::move(before), now, what, mergeable));
}

void ScenarioHistory::apply(const Scenario& s)
{
    m_applying = true;
    m_committed = s;
    emit applyRequested(s);
    m_applying = false;
}

namespace {

    QString describeControl(Control c)
    {
        switch (c) {
        case Control::Gpu:
            return ScenarioHistory::tr("GPU");
        case Control::Model:
            return ScenarioHistory::tr("model");
        case Control::MicroBatch:
            return ScenarioHistory::tr("micro-batch");
        case Control::SequenceLength:
            return ScenarioHistory::tr("sequence length");
        case Control::Accumulation:
            return ScenarioHistory::tr("gradient accumulation");
        case Control::Precision:
            return ScenarioHistory::tr("precision");
        case Control::MixedStyle:
            return ScenarioHistory::tr("mixed-precision style");
        case Control::Optimizer:
            return ScenarioHistory::tr("optimizer");
        case Control::Checkpointing:
            return ScenarioHistory::tr("checkpointing");
        case Control::Attention:
            return ScenarioHistory::tr("attention");
        case Control::Loop:
            return ScenarioHistory::tr("training loop");
        case Control::ZeroStage:
            return ScenarioHistory::tr("ZeRO stage");
        case Control::DataParallel:
            return ScenarioHistory::tr("data-parallel GPUs");
        case Control::OptimizerOffload:
            return ScenarioHistory::tr("optimizer offload");
        case Control::ChannelsLast:
            return ScenarioHistory::tr("channels last");
        case Control::MemoryOverride:
        case Control::BandwidthOverride:
        case Control::PeakOverride:
            return ScenarioHistory::tr("what-if figures");
        case Control::Overhead:
            return ScenarioHistory::tr("framework overhead");
        case Control::FinetuneMethod:
            return ScenarioHistory::tr("fine-tuning method");
        case Control::LoraRank:
            return ScenarioHistory::tr("LoRA rank");
        case Control::LoraTargets:
            return ScenarioHistory::tr("LoRA target modules");
        case Control::LoraDropout:
            return ScenarioHistory::tr("LoRA dropout");
        case Control::FrozenLayers:
            return ScenarioHistory::tr("frozen layers");
        case Control::TensorParallel:
            return ScenarioHistory::tr("tensor-parallel GPUs");
        case Control::PipelineParallel:
            return ScenarioHistory::tr("pipeline stages");
        case Control::PipelineSchedule:
            return ScenarioHistory::tr("pipeline schedule");
        case Control::ExpertParallel:
            return ScenarioHistory::tr("expert-parallel GPUs");
        case Control::ContextParallel:
            return ScenarioHistory::tr("context-parallel GPUs");
        case Control::SequenceParallel:
            return ScenarioHistory::tr("sequence parallelism");
        case Control::GpusPerNode:
            return ScenarioHistory::tr("GPUs per node");
        case Control::IntraLink:
            return ScenarioHistory::tr("link in a node");
        case Control::InterLink:
            return ScenarioHistory::tr("link between nodes");
        case Control::ExpandableSegments:
            return ScenarioHistory::tr("expandable segments");
        case Control::CudnnWorkspace:
            return ScenarioHistory::tr("cuDNN workspace");
        case Control::HostSpeed:
            return ScenarioHistory::tr("host CPU speed");
        case Control::CudaGraphs:
            return ScenarioHistory::tr("CUDA graphs");
        case Control::StageSplit:
            return ScenarioHistory::tr("blocks per stage");
        }
        return ScenarioHistory::tr("change");
    }

    QString describeAction(Action a)
    {
        switch (a) {
        case Action::Open:
            return ScenarioHistory::tr("open scenario");
        case Action::Example:
            return ScenarioHistory::tr("example scenario");
        case Action::Fix:
            return ScenarioHistory::tr("suggested change");
        case Action::Reset:
            return ScenarioHistory::tr("reset");
        case Action::Tour:
            return ScenarioHistory::tr("tour step");
        case Action::Plan:
            return ScenarioHistory::tr("plan layout");
        case Action::Measured:
            return ScenarioHistory::tr("measured run");
        }
        return ScenarioHistory::tr("change");
    }

} // namespace

QString ScenarioHistory::describe(Change what)
{
    if (const auto* control = std::get_if<Control>(&what))
        return describeControl(*control);
    return describeAction(std::get<Action>(what));
}

} // namespace headroom::gui
