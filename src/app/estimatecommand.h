#pragma once

// Turns command-line options into a scenario (GPU, model, training configuration, what-if overrides) and runs
// the estimate. Shared by `estimate` and `export`, so both read options the same way.

#include "catalog.h"
#include "estimate.h"
#include "measured.h"
#include "scenario.h"

#include <QCommandLineParser>
#include <QString>

#include <optional>

namespace headroom {

struct ResolvedScenario {
    Scenario scenario;
    const GpuSpec* gpu = nullptr;
    ModelSpec model;
    QString title; // of the scenario file, if any
};

void addScenarioOptions(QCommandLineParser& parser);
// --gpu and --model (empty: unchanged) applied to a scenario as `headroom estimate` applies them: another GPU drops
// the what-if figures, another model starts at micro-batch 8 and its own sequence. A message naming the option when a
// GPU or model is unknown, or the file and its field where the id came from the scenario file `origin`. Fills
// *modelOut.
std::optional<QString> applyGpuAndModel(const QString& gpu, const QString& model, Catalog& catalog, Scenario& s,
                                        ModelSpec* modelOut, const QString& origin = {});

// A --model value: a preset id, or a model file or checkpoint directory, which is imported into `catalog`.
std::optional<QString> resolveModelOption(const QString& value, Catalog& catalog, ModelSpec* out);

// A scenario file (.headroom.json) given to --`option`: its scenario and title; a model it embeds is added to
// `catalog`. The message names the option, the file and the field.
std::optional<QString> readScenarioFile(const QString& option, const QString& path, Catalog& catalog, Scenario* s,
                                        QString* title);

// Reads the options; on a bad value returns a message that names the option and lists the valid choices.
// A scenario file given with --scenario may carry its own model, which is added to `catalog`.
std::optional<QString> resolveScenario(const QCommandLineParser& parser, Catalog& catalog, ResolvedScenario* out);

// The options that reproduce `scenario` (for a model that is a catalog id or a file path): what the window's
// export dialog shows as the equivalent command line.
QStringList scenarioToArguments(const Scenario& scenario);

// --measured FILE as `headroom estimate` reads it: with no scenario option given (the command's `ownOptions` aside),
// the estimate takes the file's scenario, else the two must agree; the GPU is the one its device name is unless
// --gpu or --scenario chooses. A message naming the file and the field when it cannot be compared.
std::optional<QString> readMeasuredOption(const QCommandLineParser& p, const QString& path,
                                          const QStringList& ownOptions, Catalog& catalog, ResolvedScenario* r,
                                          Measured* out);

int runEstimate(const QStringList& arguments);
int runList(const QStringList& arguments);

} // namespace headroom
