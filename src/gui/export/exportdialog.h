#pragma once

// File > Export Figure: which chart, the size, the PNG scale, colours, caption and the file. Shows the command
// line that writes the same figure from a script. The dialog only collects choices; the window writes the file.

#include "figure.h"
#include "scenario.h"

#include <QDialog>

#include <memory>

namespace Ui {
class ExportDialog;
}

namespace headroom::gui {

class ExportDialog : public QDialog {
    Q_OBJECT

public:
    ExportDialog(const Scenario& scenario, QWidget* parent = nullptr);
    ~ExportDialog() override;

    FigureOptions options() const;
    void setOptions(const FigureOptions& options);
    QString path() const;
    void setPath(const QString& path);

    // What the dialog would refuse; empty when the choices are valid.
    QString problem() const;
    QString commandLine() const;

private:
    void update();
    void browse();

    std::unique_ptr<Ui::ExportDialog> m_ui;
    Scenario m_scenario;
};

} // namespace headroom::gui
