#include "scenariohistory.h"

#include <QDateTime>
#include <QHash>

namespace headroom::gui {

class ScenarioCommand : public QUndoCommand {
public:
    ScenarioCommand(ScenarioHistory* history, Scenario before, Scenario after, const QString& what, bool mergeable)
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
    QString m_what;
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

void ScenarioHistory::record(const Scenario& now, const QString& what, bool dragging)
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
    const bool mergeable = what != QLatin1String("open") && what != QLatin1String("example")
        && what != QLatin1String("fix") && what != QLatin1String("reset") && what != QLatin1String("tour")
        && what != QLatin1String("model") && what != QLatin1String("gpu");
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

QString ScenarioHistory::describe(const QString& what)
{
    static const QHash<QString, const char*> names {
        { QStringLiteral("batch"), QT_TR_NOOP("micro-batch") },
        { QStringLiteral("sequence"), QT_TR_NOOP("sequence length") },
        { QStringLiteral("data-parallel"), QT_TR_NOOP("data-parallel GPUs") },
        { QStringLiteral("zero"), QT_TR_NOOP("ZeRO stage") },
        { QStringLiteral("tensorParallel"), QT_TR_NOOP("tensor-parallel GPUs") },
        { QStringLiteral("pipelineParallel"), QT_TR_NOOP("pipeline stages") },
        { QStringLiteral("pipelineSchedule"), QT_TR_NOOP("pipeline schedule") },
        { QStringLiteral("accumulation"), QT_TR_NOOP("gradient accumulation") },
        { QStringLiteral("precisionCombo"), QT_TR_NOOP("precision") },
        { QStringLiteral("styleCombo"), QT_TR_NOOP("mixed-precision style") },
        { QStringLiteral("optimizerCombo"), QT_TR_NOOP("optimizer") },
        { QStringLiteral("checkpointingCombo"), QT_TR_NOOP("checkpointing") },
        { QStringLiteral("attentionCombo"), QT_TR_NOOP("attention") },
        { QStringLiteral("loopCombo"), QT_TR_NOOP("training loop") },
        { QStringLiteral("finetuneCombo"), QT_TR_NOOP("fine-tuning method") },
        { QStringLiteral("loraRank"), QT_TR_NOOP("LoRA rank") },
        { QStringLiteral("loraTargets"), QT_TR_NOOP("LoRA target modules") },
        { QStringLiteral("loraDropout"), QT_TR_NOOP("LoRA dropout") },
        { QStringLiteral("frozenLayers"), QT_TR_NOOP("frozen layers") },
        { QStringLiteral("gpu"), QT_TR_NOOP("GPU") },
        { QStringLiteral("model"), QT_TR_NOOP("model") },
        { QStringLiteral("offload"), QT_TR_NOOP("optimizer offload") },
        { QStringLiteral("override"), QT_TR_NOOP("what-if figures") },
        { QStringLiteral("overhead"), QT_TR_NOOP("framework overhead") },
        { QStringLiteral("hostSpeed"), QT_TR_NOOP("host CPU speed") },
        { QStringLiteral("cudaGraphs"), QT_TR_NOOP("CUDA graphs") },
        { QStringLiteral("open"), QT_TR_NOOP("open scenario") },
        { QStringLiteral("example"), QT_TR_NOOP("example scenario") },
        { QStringLiteral("fix"), QT_TR_NOOP("suggested change") },
        { QStringLiteral("reset"), QT_TR_NOOP("reset") },
        { QStringLiteral("tour"), QT_TR_NOOP("tour step") },
    };
    const auto it = names.find(what);
    return it == names.end() ? tr("change") : tr(it.value());
}

} // namespace headroom::gui
