// The control panel's tensor-parallel row: the ways a model's blocks can be split (every t up to 64 that divides its
// attention heads, key/value heads and FFN width, as validateForModel asks), and the choice kept while another
// control changes. Tensor parallelism with adapters is not modelled, so the row is off for LoRA, DoRA and QLoRA.

#include "controlpanel.h"

#include "scenario.h"
#include "ui_controlpanel.h"

namespace headroom::gui {

namespace {

    // The tensor-parallel sizes a model accepts, 1 first.
    QList<int> tensorParallelChoices(const ModelSpec* model, const TrainingConfig& config)
    {
        QList<int> out { 1 };
        if (!model || model->family != ModelFamily::Transformer)
            return out;
        TrainingConfig c = config;
        c.finetune = {};
        for (int t = 2; t <= 64; t *= 2) {
            c.tensorParallel = t;
            if (!validateForModel(*model, c, "window"))
                out << t;
        }
        return out;
    }

} // namespace

void ControlPanel::setupParallel()
{
    connect(m_ui->tpCombo, &QComboBox::currentIndexChanged, this, [this] { edited(QStringLiteral("tensorParallel")); });
}

void ControlPanel::syncParallel(const ModelSpec* model)
{
    const TrainingConfig& c = m_scenario.config;
    QList<int> choices = tensorParallelChoices(model, c);
    if (!choices.contains(c.tensorParallel))
        choices << c.tensorParallel; // a scenario's own value stays visible, and the core says what is wrong with it
    bool same = m_ui->tpCombo->count() == choices.size();
    for (int i = 0; same && i < choices.size(); ++i)
        same = m_ui->tpCombo->itemData(i).toInt() == choices[i];
    if (!same) { // only when the model changes: a slider tick leaves the list as it is
        m_ui->tpCombo->clear();
        for (int t : choices)
            m_ui->tpCombo->addItem(QString::number(t), t);
        retranslateParallel();
    }
    m_ui->tpCombo->setCurrentIndex(std::max(0, m_ui->tpCombo->findData(c.tensorParallel)));
    const bool adapters = c.finetune.adapters();
    m_ui->tpCombo->setEnabled(!adapters && choices.size() > 1);
    m_ui->tpLabel->setEnabled(m_ui->tpCombo->isEnabled());
}

void ControlPanel::editParallel(const QString& control, const ModelSpec* model, bool modelChanged)
{
    TrainingConfig& c = m_scenario.config;
    if (control == QLatin1String("tensorParallel"))
        c.tensorParallel = m_ui->tpCombo->currentData().toInt();
    // A new model, or adapters, keep only a split that the core accepts there.
    if ((modelChanged || control == QLatin1String("finetuneCombo")) && c.tensorParallel != 1
        && (c.finetune.adapters() || !tensorParallelChoices(model, c).contains(c.tensorParallel)))
        c.tensorParallel = 1;
}

void ControlPanel::retranslateParallel()
{
    if (const int i = m_ui->tpCombo->findData(1); i >= 0)
        m_ui->tpCombo->setItemText(i, tr("1 (no tensor parallelism)"));
}

QComboBox* ControlPanel::tensorParallelCombo() const { return m_ui->tpCombo; }

} // namespace headroom::gui
