#pragma once

// A thin, threaded wrapper of simulate() (src/core/simulate/simulate.h): owns the catalog and the current scenario, and
// turns each change into a result for the views. simulate()'s cache keeps the lowered schedule, so that dragging the
// batch slider only walks it again. The searches that need many rebuilds (the longest sequence that fits, the
// suggestions) run on a worker thread and arrive a moment later.

#include "catalog.h"
#include "simulate.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace headroom::gui {

using headroom::SimulationResult;

struct BackgroundResult : SearchResult {
    std::uint64_t generation = 0;
};

class SimulationController : public QObject {
    Q_OBJECT

public:
    explicit SimulationController(Catalog catalog, QObject* parent = nullptr);
    ~SimulationController() override;

    const Catalog& catalog() const { return m_catalog; }
    void addModel(ModelSpec model);
    void addGpu(GpuSpec gpu);
    // Takes a user entry out of the catalog; a bundled entry with the same id, if any, takes its place.
    void removeModel(const std::string& id, const ModelSpec* fallback);
    void removeGpu(const std::string& id, const GpuSpec* fallback);

    const Scenario& scenario() const { return m_scenario; }
    // Returns false (and changes nothing) when the scenario names an unknown GPU or model or holds a value the
    // simulator refuses (validateConfig).
    bool setScenario(const Scenario& scenario);
    // The pipeline stage the result shows (-1: the most loaded); recomputes when it changes.
    void setShownStage(int stage);
    const SimulationResult& result() const { return *m_result; }
    // Views keep the result they show through this pointer; a result nobody holds is reused for the next tick.
    std::shared_ptr<const SimulationResult> sharedResult() const { return m_result; }
    const BackgroundResult& background() const { return m_background; }
    bool backgroundPending() const { return m_background.generation != m_generation; }

signals:
    void resultChanged();
    void backgroundChanged();

private:
    bool recompute();
    void startBackground();

    Catalog m_catalog;
    Scenario m_scenario;
    int m_stage = -1;
    std::shared_ptr<SimulationResult> m_result;
    std::shared_ptr<SimulationResult> m_spare;
    BackgroundResult m_background;
    std::uint64_t m_generation = 0;

    SimulationCache m_cache;
    QFutureWatcher<BackgroundResult>* m_watcher = nullptr;
    QTimer* m_backgroundDelay = nullptr; // the search waits for a pause in the slider's movement
    bool m_restartBackground = false;
};

} // namespace headroom::gui
