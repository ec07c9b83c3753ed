#include "overridegroup.h"

#include "labels.h"
#include "timemodel.h"
#include "ui_overridegroup.h"
#include "units.h"

#include <cmath>
#include <optional>
#include <tuple>

namespace headroom::gui {

OverrideGroup::OverrideGroup(QWidget* parent)
    : ControlGroup(parent)
    , m_ui(std::make_unique<Ui::OverrideGroup>())
{
    m_ui->setupUi(this);
    const std::tuple<QCheckBox*, QDoubleSpinBox*, Control, double> overrides[] = {
        { m_ui->capacityCheck, m_ui->capacitySpin, Control::MemoryOverride, units::kGiB },
        { m_ui->bandwidthCheck, m_ui->bandwidthSpin, Control::BandwidthOverride, 1e9 },
        { m_ui->peakCheck, m_ui->peakSpin, Control::PeakOverride, 1e12 },
    };
    for (const auto& [check, spin, control, unit] : overrides) {
        auto send = [this, c = check, s = spin, what = control, u = unit] {
            edit(what, c->isChecked() ? std::optional(s->value() * u) : std::nullopt);
        };
        connect(check, &QCheckBox::toggled, this, send);
        connect(spin, &QDoubleSpinBox::valueChanged, this, send);
    }
    connect(m_ui->overheadSpin, &QSpinBox::valueChanged, this,
            [this](int mib) { edit(Control::Overhead, units::fromMiB(mib)); });
}

OverrideGroup::~OverrideGroup() = default;

// Each figure is the what-if where one is set, else the GPU's own; the overhead as frameworkOverheadBytes gives it.
void OverrideGroup::sync(const Scenario& s, const Catalog& catalog)
{
    const GpuSpec* gpu = catalog.gpu(s.gpuId);
    const TrainingConfig& c = s.config;
    m_ui->capacityCheck->setChecked(s.overrides.memoryBytes.has_value());
    m_ui->capacitySpin->setValue((s.overrides.memoryBytes ? *s.overrides.memoryBytes : (gpu ? gpu->memoryBytes() : 0))
                                 / units::kGiB);
    m_ui->bandwidthCheck->setChecked(s.overrides.bandwidthBytesPerSecond.has_value());
    m_ui->bandwidthSpin->setValue((s.overrides.bandwidthBytesPerSecond ? *s.overrides.bandwidthBytesPerSecond
                                                                       : (gpu ? gpu->bandwidthBytesPerSecond() : 0))
                                  / 1e9);
    m_ui->peakCheck->setChecked(s.overrides.peakFlopsPerSecond.has_value());
    const MathUnit unit = gemmUnit(c);
    m_ui->peakSpin->setValue(
        (s.overrides.peakFlopsPerSecond ? *s.overrides.peakFlopsPerSecond : (gpu ? gpu->peakFlopsPerSecond(unit) : 0))
        / 1e12);
    m_ui->overheadSpin->setValue(
        int(std::lround(units::toMiB(gpu ? frameworkOverheadBytes(*gpu, c) : c.overheadBytes.value_or(0.0)))));
    updateMarks(s.overrides.note);
}

void OverrideGroup::updateMarks(const std::string& note)
{
    const bool any = m_ui->capacityCheck->isChecked() || m_ui->bandwidthCheck->isChecked()
        || m_ui->peakCheck->isChecked();
    m_ui->capacitySpin->setEnabled(m_ui->capacityCheck->isChecked());
    m_ui->bandwidthSpin->setEnabled(m_ui->bandwidthCheck->isChecked());
    m_ui->peakSpin->setEnabled(m_ui->peakCheck->isChecked());
    // Style sheets re-polish the whole group, so they change only when the state does, never on a slider tick.
    const QString sheet = any ? QStringLiteral("QGroupBox#overrideGroup { border: 2px solid #D55E00; "
                                               "border-radius: 4px; margin-top: 1.2em; }"
                                               "QGroupBox#overrideGroup::title { color: #D55E00; "
                                               "subcontrol-origin: margin; left: 8px; }")
                              : QString();
    if (styleSheet() != sheet)
        setStyleSheet(sheet);
    const QString title = any ? tr("What-if overrides (active)") : tr("What-if overrides");
    if (this->title() != title)
        setTitle(title);
    const QString shown = any && !note.empty() ? Labels::overrideNote(note) : QString();
    if (m_ui->overrideNote->text() != shown) {
        m_ui->overrideNote->setText(shown);
        m_ui->overrideNote->setVisible(!shown.isEmpty());
    }
}

void OverrideGroup::retranslate() { m_ui->retranslateUi(this); }

} // namespace headroom::gui
