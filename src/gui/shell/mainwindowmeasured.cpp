// File > Compare with a Measurement: a .headroom-measured.json that headroom-probe wrote on a GPU (docs/formats.md).
// The window takes the scenario it ran; the verdict states what was measured beside what is predicted for as long
// as the scenario stays the measured one.

#include "mainwindow.h"

#include "catalogloader.h"
#include "controlpanel.h"
#include "labels.h"
#include "measured.h"
#include "simulationcontroller.h"
#include "timelineview.h"
#include "ui_mainwindow.h"
#include "verdictwidget.h"

#include <QFileDialog>
#include <QMessageBox>

namespace headroom::gui {

std::optional<QString> MainWindow::openMeasuredFile(const QString& path)
{
    QByteArray text;
    if (auto e = CatalogLoader::readFile(path, &text, 4 << 20))
        return e;
    auto m = parseMeasured(std::string_view(text.constData(), std::size_t(text.size())), path.toStdString());
    if (!m)
        return Labels::error(m.error());
    // Every check before any change: a file that cannot be shown leaves the window as it was.
    const ModelSpec* model = m_controller->catalog().model(m->modelId);
    if (!model)
        return tr("%1: scenario.model: \"%2\" is neither a preset nor one of your models")
            .arg(path, QString::fromStdString(m->modelId));
    Scenario s = m_controller->scenario();
    s.modelId = m->modelId;
    // The GPU it ran on, where its device name is one of the GPU files (else the window's stays), with that GPU's
    // own figures: a GPU run is not compared with a what-if, as `headroom estimate --measured` does not.
    if (!measuredOnCpu(*m)) {
        if (const DeviceMatch d = measuredDevice(m_controller->catalog(), *m); d.unique())
            s.gpuId = d.ids.front();
        s.overrides = {};
    }
    applyMeasuredScenario(*m, s.config);
    if (auto e = validateForModel(*model, s.config, path.toStdString()))
        return Labels::error(*e);
    m_measured = std::make_shared<const Measured>(*m);
    m_ui->verdict->setMeasured(m_measured);
    applyScenario(s, Action::Measured);
    return std::nullopt;
}

// The timeline shows the measured peak while the scenario is the one measured.
void MainWindow::showMeasured(const SimulationResult& r)
{
    const bool same = m_measured && r.model
        && !checkMeasuredScenario(*m_measured, r.model->id, r.scenario.config, "measurement");
    m_ui->timelineChart->setMeasuredPeak(same ? m_measured->peakAllocatedBytes : std::nullopt);
}

void MainWindow::connectMeasured()
{
    connect(m_ui->measuredAction, &QAction::triggered, this, [this] {
        const QString path
            = QFileDialog::getOpenFileName(this, tr("Compare with a Measurement"), QString(),
                                           tr("headroom-probe measurements (*.headroom-measured.json *.json)"));
        if (path.isEmpty())
            return;
        if (auto error = openMeasuredFile(path))
            QMessageBox::warning(this, tr("Cannot open the measurement"), *error);
    });
}

} // namespace headroom::gui
