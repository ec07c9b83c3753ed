#pragma once

// Turns command-line options into a scenario (GPU, model, training configuration, what-if overrides) and runs
// the estimate. Shared by `estimate` and `export`, so both read options the same way.

#include "catalog.h"
#include "estimate.h"

#include <QCommandLineParser>
#include <QString>

#include <optional>

namespace headroom {

struct ResolvedScenario {
    Scenario scenario;
    const GpuSpec* gpu = nullptr;
    ModelSpec model;
};

void addScenarioOptions(QCommandLineParser& parser);

// Reads the options; on a bad value returns a message that names the option and lists the valid choices.
std::optional<QString> resolveScenario(const QCommandLineParser& parser, const Catalog& catalog, ResolvedScenario* out);

int runEstimate(const QStringList& arguments);
int runList(const QStringList& arguments);

} // namespace headroom
