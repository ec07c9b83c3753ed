#include "simulationcontroller.h"

#include "lowering.h"
#include "modelgraph.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace headroom::gui {

namespace {

    // The schedule depends on everything but the micro-batch and the memory overheads.
    bool sameStructure(const TrainingConfig& a, const TrainingConfig& b)
    {
        return a.sequenceLength == b.sequenceLength && a.precision == b.precision && a.mixedStyle == b.mixedStyle
            && a.masterGradients == b.masterGradients && a.zeroStage == b.zeroStage && a.dataParallel == b.dataParallel
            && a.offloadOptimizer == b.offloadOptimizer && a.checkpointing == b.checkpointing
            && a.attention == b.attention && a.optimizer == b.optimizer
            && a.gradientAccumulation == b.gradientAccumulation;
    }

    std::vector<double> sweepBatches(std::int64_t current, std::int64_t best)
    {
        // A power of two, so that the chart's axis only moves when the batch doubles.
        const double want = std::max<double>({ 2.0 * double(best), 2.0 * double(current), 8.0 });
        const double top = std::clamp(std::exp2(std::ceil(std::log2(want))), 8.0, 4096.0);
        std::vector<double> b;
        const int n = 48;
        for (int i = 0; i < n; ++i) {
            const double v = std::round(std::exp(std::log(top) * i / (n - 1)));
            if (b.empty() || v > b.back())
                b.push_back(v);
        }
        // Make the step from fitting to not fitting and the current batch exact points of the curve.
        for (double extra : { double(best), double(best + 1), double(current) }) {
            if (extra >= 1 && extra <= top && std::find(b.begin(), b.end(), extra) == b.end())
                b.insert(std::upper_bound(b.begin(), b.end(), extra), extra);
        }
        return b;
    }

} // namespace

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

SimulationController::~SimulationController()
{
    m_watcher->waitForFinished();
}

void SimulationController::addModel(ModelSpec model)
{
    m_catalog.addModel(std::move(model));
    m_scheduleModel.clear();
}

void SimulationController::addGpu(GpuSpec gpu) { m_catalog.addGpu(std::move(gpu)); }

void SimulationController::removeModel(const std::string& id, const ModelSpec* fallback)
{
    m_catalog.removeModel(id);
    if (fallback)
        m_catalog.addModel(*fallback);
    m_scheduleModel.clear();
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
    m_scenario = scenario;
    recompute();
    return true;
}

void SimulationController::recompute()
{
    const ModelSpec* model = m_catalog.model(m_scenario.modelId);
    const GpuSpec* gpu = m_catalog.gpu(m_scenario.gpuId);
    const TrainingConfig& config = m_scenario.config;
    if (!m_schedule || m_scheduleModel != model->id || !m_scheduleConfig || !sameStructure(*m_scheduleConfig, config)) {
        m_schedule = std::make_shared<const Schedule>(lowerTrainingStep(buildGraph(*model, config), config));
        m_scheduleModel = model->id;
        m_scheduleConfig = config;
    }
    EstimateOptions options;
    options.searchMaxSequence = false;
    // Fill the result nobody holds any more (its vectors keep their capacity), then make it current.
    if (!m_spare || m_spare.use_count() > 1)
        m_spare = std::make_shared<SimulationResult>();
    SimulationResult& r = *m_spare;
    r.model = model;
    r.gpu = gpu;
    r.scenario = m_scenario;
    evaluate(m_schedule, *model, *gpu, config, m_scenario.overrides, options, r.estimate);
    const double overhead = config.overheadBytes ? *config.overheadBytes : gpu->overheadBytes();
    const auto batches = sweepBatches(config.microBatch, r.estimate.maxMicroBatch);
    r.sweep = batchSweep(*m_schedule, batches, overhead, config.allocatorReserveFraction);
    std::swap(m_result, m_spare);
    ++m_generation;
    emit resultChanged();
    // The searches take many rebuilds; during a drag they would compete with the next tick for the CPU.
    m_backgroundDelay->start();
}

BackgroundResult SimulationController::computeBackground(const SimulationResult& current)
{
    BackgroundResult r;
    const Scenario& scenario = current.scenario;
    const GpuSpec& gpu = *current.gpu;
    const double overhead = scenario.config.overheadBytes ? *scenario.config.overheadBytes : gpu.overheadBytes();
    r.maxSequence = maxSequence(*current.model, scenario.config, current.estimate.gpu.memoryBytes, overhead,
                                &r.maxSequenceLimitedByModel);
    if (!current.estimate.fits)
        r.fixes = suggestFixes(*current.model, gpu, scenario.config, scenario.overrides, current.estimate);
    return r;
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
        BackgroundResult r = computeBackground(*current);
        r.generation = generation;
        return r;
    }));
}

} // namespace headroom::gui
