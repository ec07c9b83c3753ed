#pragma once

// File > Export Figure: which chart, the size, the PNG scale, colours, caption and the file. Shows the command
// line that writes the same figure from a script. The dialog only collects choices; the window writes the file.

#include "figure.h"
#include "scenario.h"

#include <QDialog>

#include <memory>
#include <optional>

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

    // The window's language setting ("" = the system's) and its baseline, which the figure shows.
    void setLanguage(const QString& setting);
    void setBaseline(const std::optional<Scenario>& baseline);
    // Where the baseline scenario goes so that the command can read it: beside the figure.
    QString baselinePath() const;

    // What the dialog would refuse; empty when the choices are valid.
    QString problem() const;
    // `headroom export` with every option the window's figure depends on, quoted for a POSIX shell.
    QString commandLine() const;

private:
    void update();
    void browse();

    std::unique_ptr<Ui::ExportDialog> m_ui;
    Scenario m_scenario;
    QString m_language;
    std::optional<Scenario> m_baseline;
};

} // namespace headroom::gui
