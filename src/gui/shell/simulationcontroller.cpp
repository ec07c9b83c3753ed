#include "simulationcontroller.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace headroom::gui {

SimulationController::SimulationController(Catalog catalog, QObject* parent)
    : QObject(parent)
    , m_catalog(std::move(catalog))
    , m_result(std::make_shared<SimulationResult>())
    , m_watcher(new QFutureWatcher<BackgroundResult>(this))
{
    m_backgroundDelay = new QTimer(this);
    m_backgroundDelay->setSingleShot(true);
    m_backgroundDelay->setInterval(60);
    connect(m_backgroundDelay, &QTimer::timeout, this, &SimulationController::startBackground);
    connect(m_watcher, &QFutureWatcher<BackgroundResult>::finished, this, [this] {
        BackgroundResult r = m_watcher->result();
        if (r.generation == m_generation) {
            m_background = std::move(r);
            emit backgroundChanged();
        }
        if (m_restartBackground) {
            m_restartBackground = false;
            startBackground();
        }
    });
}

SimulationController::~SimulationController() { m_watcher->waitForFinished(); }

void SimulationController::addModel(ModelSpec model)
{
    m_catalog.addModel(std::move(model));
    m_cache.clear();
}

void SimulationController::addGpu(GpuSpec gpu) { m_catalog.addGpu(std::move(gpu)); }

void SimulationController::removeModel(const std::string& id, const ModelSpec* fallback)
{
    m_catalog.removeModel(id);
    if (fallback)
        m_catalog.addModel(*fallback);
    m_cache.clear();
}

void SimulationController::removeGpu(const std::string& id, const GpuSpec* fallback)
{
    m_catalog.removeGpu(id);
    if (fallback)
        m_catalog.addGpu(*fallback);
}

bool SimulationController::setScenario(const Scenario& scenario)
{
    if (!m_catalog.gpu(scenario.gpuId) || !m_catalog.model(scenario.modelId))
        return false;
    const Scenario previous = m_scenario;
    m_scenario = scenario;
    if (!recompute()) {
        m_scenario = previous;
        return false;
    }
    return true;
}

bool SimulationController::recompute()
{
    SimulateOptions options = SimulateOptions::interactive(); // the searches: startBackground
    options.stage = m_stage;
    // Fill the result nobody holds any more (its vectors keep their capacity), then make it current.
    if (!m_spare || m_spare.use_count() > 1)
        m_spare = std::make_shared<SimulationResult>();
    if (simulate(m_catalog, m_scenario, options, &m_cache, *m_spare))
        return false; // a value simulate() refuses (validateConfig) leaves the last result standing
    std::swap(m_result, m_spare);
    ++m_generation;
    emit resultChanged();
    // The searches take many rebuilds; during a drag they would compete with the next tick for the CPU.
    m_backgroundDelay->start();
    return true;
}

void SimulationController::setShownStage(int stage)
{
    if (stage == m_stage)
        return;
    m_stage = stage;
    recompute();
}

void SimulationController::startBackground()
{
    if (m_watcher->isRunning()) {
        m_restartBackground = true; // one more run with the newest scenario when this one ends
        return;
    }
    // The task shares the result (the model and GPU it points to live in the catalog, which only grows).
    const std::shared_ptr<const SimulationResult> current = m_result;
    const std::uint64_t generation = m_generation;
    m_watcher->setFuture(QtConcurrent::run([current, generation] {
        BackgroundResult r;
        static_cast<SearchResult&>(r) = searchFits(*current);
        r.generation = generation;
        return r;
    }));
}

} // namespace headroom::gui
