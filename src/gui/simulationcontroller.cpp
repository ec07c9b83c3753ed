#include "simulationcontroller.h"

#include "lowering.h"
#include "modelgraph.h"

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
        const double top = std::clamp<double>(std::max<double>({ 2.0 * double(best), 2.0 * double(current), 8.0 }), 8.0, 4096.0);
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
    , m_watcher(new QFutureWatcher<BackgroundResult>(this))
{
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
    m_result.model = model;
    m_result.gpu = gpu;
    m_result.scenario = m_scenario;
    m_result.estimate = evaluate(m_schedule, *model, *gpu, config, m_scenario.overrides, options);
    const double overhead = config.overheadBytes ? *config.overheadBytes : gpu->overheadBytes();
    const auto batches = sweepBatches(config.microBatch, m_result.estimate.maxMicroBatch);
    m_result.sweep = batchSweep(*m_schedule, batches, overhead, config.allocatorReserveFraction);
    ++m_generation;
    emit resultChanged();
    startBackground();
}

void SimulationController::startBackground()
{
    if (m_watcher->isRunning()) {
        m_restartBackground = true; // one more run with the newest scenario when this one ends
        return;
    }
    const ModelSpec model = *m_result.model;
    const GpuSpec gpu = *m_result.gpu;
    const Scenario scenario = m_scenario;
    const Estimate current = m_result.estimate;
    const std::uint64_t generation = m_generation;
    m_watcher->setFuture(QtConcurrent::run([=] {
        BackgroundResult r;
        r.generation = generation;
        const double overhead = scenario.config.overheadBytes ? *scenario.config.overheadBytes : gpu.overheadBytes();
        const EffectiveGpu eff = applyOverrides(gpu, scenario.overrides, gemmUnit(scenario.config));
        r.maxSequence = maxSequence(model, scenario.config, eff.memoryBytes, overhead, &r.maxSequenceLimitedByModel);
        if (!current.fits)
            r.fixes = suggestFixes(model, gpu, scenario.config, scenario.overrides, current);
        return r;
    }));
}

} // namespace headroom::gui
