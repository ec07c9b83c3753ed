#pragma once

// Owns the catalog and the current scenario, and turns each change into a result for the views. The lowered
// schedule is cached per structure (everything but the micro-batch and the overheads), so that dragging the
// batch slider only walks it again. Searches that need many rebuilds (the longest sequence that fits, the
// suggestions) run on a worker thread and arrive a moment later.

#include "catalog.h"
#include "estimate.h"
#include "sweep.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QObject>

#include <memory>
#include <optional>
#include <vector>

namespace headroom::gui {

struct SimulationResult {
    const ModelSpec* model = nullptr;
    const GpuSpec* gpu = nullptr;
    Scenario scenario;
    Estimate estimate;
    std::vector<SweepPoint> sweep; // breakdown at the peak against micro-batch
};

struct BackgroundResult {
    std::uint64_t generation = 0;
    std::int64_t maxSequence = 0;
    bool maxSequenceLimitedByModel = false;
    std::vector<Fix> fixes;
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
    // Returns false (and changes nothing) when the scenario names an unknown GPU or model.
    bool setScenario(const Scenario& scenario);
    const SimulationResult& result() const { return *m_result; }
    // Views keep the result they show through this pointer; a result nobody holds is reused for the next tick.
    std::shared_ptr<const SimulationResult> sharedResult() const { return m_result; }
    const BackgroundResult& background() const { return m_background; }
    bool backgroundPending() const { return m_background.generation != m_generation; }
    // The longest sequence and the suggestions, computed on the calling thread (what the worker runs).
    static BackgroundResult computeBackground(const SimulationResult& result);

signals:
    void resultChanged();
    void backgroundChanged();

private:
    void recompute();
    void startBackground();

    Catalog m_catalog;
    Scenario m_scenario;
    std::shared_ptr<SimulationResult> m_result;
    std::shared_ptr<SimulationResult> m_spare;
    BackgroundResult m_background;
    std::uint64_t m_generation = 0;

    std::shared_ptr<const Schedule> m_schedule;
    std::string m_scheduleModel;
    std::optional<TrainingConfig> m_scheduleConfig;
    QFutureWatcher<BackgroundResult>* m_watcher = nullptr;
    QTimer* m_backgroundDelay = nullptr; // the search waits for a pause in the slider's movement
    bool m_restartBackground = false;
};

} // namespace headroom::gui
