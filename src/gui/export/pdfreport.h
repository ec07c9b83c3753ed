#pragma once

// The one-page PDF report: the scenario, the verdict, all four charts, the breakdown table, the time budget and
// the sources of every figure used (the GPU file's datasheets, the model's reference implementation, the papers
// behind the formulas). Built from the same Figure as the chart exports.

#include "measured.h"
#include "simulate.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

namespace headroom::gui {

struct ReportInputs {
    std::shared_ptr<const SimulationResult> result;
    // The longest sequence and the suggestions; when absent the report computes them (a few milliseconds).
    std::optional<SearchResult> background;
    // A measurement the window compares with (File > Compare with a Measurement): the report states it too.
    std::shared_ptr<const Measured> measured;
    bool dark = false;
};

QByteArray pdfReport(const ReportInputs& inputs);
// Writes atomically; on failure returns a message naming the path.
std::optional<QString> writePdfReport(const QString& path, const ReportInputs& inputs);

} // namespace headroom::gui
