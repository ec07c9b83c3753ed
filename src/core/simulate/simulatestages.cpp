#include "simulatestages.h"

#include "modelgraph.h"

#include <algorithm>
#include <cmath>

namespace headroom {

namespace {

    // Per micro-batch on one stage: compute, and the tensor-parallel and pipeline transfers that wait for it.
    double stageMicroSeconds(const Estimate& e)
    {
        const double ga = std::max(1, e.config.gradientAccumulation);
        return e.microBatchSeconds + e.blockingCommunicationSeconds() / ga;
    }

    // What follows the last micro-batch: the optimizer step and the data-parallel collectives not hidden by backward.
    double stageTailSeconds(const Estimate& e)
    {
        const double exposedDp = e.exposedCommunicationSeconds - e.blockingCommunicationSeconds();
        return e.optimizerSeconds + std::max(0.0, exposedDp);
    }

    void addStage(StageTotals& totals, const RankSummary& rank, double tail, double modelFlops, double hardwareFlops,
                  const Estimate& walked)
    {
        totals.micro = std::max(totals.micro, rank.microBatchSeconds);
        totals.tail = std::max(totals.tail, tail);
        totals.modelFlops += modelFlops;
        totals.hardwareFlops += hardwareFlops;
        totals.parameters += walked.parameters;
        totals.active += walked.activeParameters;
        totals.trainable += walked.trainableParameters;
    }

    // Whether a stage built like the one before it (the same steps and blocks but for the block of the other
    // micro-batches in flight, alive from its first step to its last backward step) can be left unwalked: it holds no
    // more in flight than the one before, so its memory is at most that one's at every step up to the block's free
    // (the same sums in the same order, one term no larger: rounding is monotone), and equal but for rounding in the
    // optimizer's steps after it. Then it cannot be the most loaded stage (the first of equals is), and fits when the
    // stage before does, provided that stage's optimizer steps stay clear of its peak by more than the rounding
    // (1e-9 of it, where a few thousand steps' rounding is 1e-12). `walked`: the last stage walked, which bounds the
    // stage before.
    bool boundedByBefore(const LoweredStages& stages, int stage, const Estimate& walked)
    {
        const Schedule& here = *stages.schedules[std::size_t(stage)];
        const Schedule& before = *stages.schedules[std::size_t(stage) - 1];
        if (here.inFlightOthers > before.inFlightOthers)
            return false;
        const double optimizerPeak = walked.phasePeaks[int(Phase::Optimizer)].totalBytes;
        return walked.peakBytes > 0.0 && optimizerPeak <= walked.peakBytes * (1.0 - 1e-9);
    }

} // namespace

RankSummary summarize(const Estimate& e, const TrainingConfig& config, int layers)
{
    RankSummary r;
    r.stage = config.pipelineStage;
    r.layers = stageLayers(layers, config, config.pipelineStage);
    r.inFlightMicroBatches = inFlightMicroBatches(config, config.pipelineStage);
    r.atPeak = e.atPeak;
    r.peakBytes = e.peakBytes;
    r.peakPhase = e.peakPhase;
    r.peakOperator = e.peakOperator;
    r.fits = e.fits;
    r.maxMicroBatch = e.maxMicroBatch;
    r.parametersPerGpu = e.parametersPerGpu;
    r.microBatchSeconds = stageMicroSeconds(e);
    // The forward's share of the micro-batch, by the operators' times (recomputation runs in backward).
    double forward = 0.0, backward = 0.0;
    for (const RooflinePoint& p : e.operatorPoints) {
        if (p.phase == Phase::Forward)
            forward += p.seconds;
        else if (p.phase != Phase::Optimizer)
            backward += p.seconds;
    }
    r.forwardSeconds = forward + backward > 0.0 ? r.microBatchSeconds * forward / (forward + backward) : 0.0;
    return r;
}

int mostLoadedStage(const LoweredStages& stages, const ModelSpec& model, const GpuSpec& gpu, const Scenario& scenario,
                    const EstimateOptions& options, std::vector<RankSummary>& ranks, StageTotals& totals,
                    Estimate* keep, int wanted, bool walkEvery)
{
    EstimateOptions quick = options;
    quick.keepTimeline = false;
    quick.searchMaxSequence = false;
    const auto& schedules = stages.schedules;
    thread_local std::vector<Estimate> estimates;
    if (estimates.size() < schedules.size())
        estimates.resize(schedules.size());
    TrainingConfig c = scenario.config;
    const int layers = model.transformer.layers;
    ranks.clear();
    totals = {};
    int worst = 0;
    double tail = 0.0, modelFlops = 0.0, hardwareFlops = 0.0; // the last stage timed
    int walked = 0;                                           // the last stage walked
    for (int stage = 0; stage < int(schedules.size()); ++stage) {
        c.pipelineStage = stage;
        Estimate& scratch = estimates[std::size_t(stage)];
        // A stage built like the one before it runs the same steps in the same time: only its memory is walked.
        const bool timeBefore = stage > 0 && stages.likeBefore[std::size_t(stage)];
        if (!walkEvery && timeBefore && stage != wanted
            && boundedByBefore(stages, stage, estimates[std::size_t(walked)])) {
            RankSummary r = ranks.back(); // the stage before's memory, at least this one's
            r.stage = stage;
            r.layers = stageLayers(layers, c, stage);
            r.inFlightMicroBatches = inFlightMicroBatches(c, stage);
            addStage(totals, r, tail, modelFlops, hardwareFlops, estimates[std::size_t(walked)]);
            ranks.push_back(std::move(r));
            continue;
        }
        walked = stage;
        quick.time = options.time && !timeBefore;
        evaluate(schedules[std::size_t(stage)], model, gpu, c, scenario.overrides, quick, scratch);
        ranks.push_back(summarize(scratch, c, layers));
        if (timeBefore) {
            ranks.back().microBatchSeconds = ranks[std::size_t(stage) - 1].microBatchSeconds;
            ranks.back().forwardSeconds = ranks[std::size_t(stage) - 1].forwardSeconds;
        } else {
            tail = stageTailSeconds(scratch);
            modelFlops = scratch.modelFlopsPerStep;
            hardwareFlops = scratch.hardwareFlopsPerStep;
        }
        if (scratch.peakBytes > ranks[std::size_t(worst)].peakBytes)
            worst = stage;
        addStage(totals, ranks.back(), tail, modelFlops, hardwareFlops, scratch);
    }
    if (keep) {
        const int kept = wanted >= 0 ? wanted : worst;
        if (kept > 0 && stages.likeBefore[std::size_t(kept)]) { // its time was not walked: walk the whole of it
            c.pipelineStage = kept;
            quick.time = options.time;
            evaluate(schedules[std::size_t(kept)], model, gpu, c, scenario.overrides, quick, *keep);
        } else
            std::swap(*keep, estimates[std::size_t(kept)]);
    }
    return worst;
}

int mostLoaded(const std::vector<RankSummary>& ranks)
{
    int worst = 0;
    for (int k = 1; k < int(ranks.size()); ++k) {
        if (ranks[std::size_t(k)].peakBytes > ranks[std::size_t(worst)].peakBytes)
            worst = k;
    }
    return ranks.empty() ? 0 : ranks[std::size_t(worst)].stage;
}

void combineStages(Estimate& e, const std::vector<RankSummary>& ranks, const StageTotals& totals,
                   const ModelSpec& model)
{
    const TrainingConfig& c = e.config;
    const double p = double(ranks.size());
    const double m = microBatchesPerStep(c);
    const double bubble = totals.micro * bubbleFraction(c) * m; // (p - 1) / v micro-batch times
    e.pipelineBubbleSeconds = bubble;
    e.stepSeconds = totals.micro * m + bubble + totals.tail;
    const double samples = double(std::max<std::int64_t>(1, c.microBatch)) * m * std::max(1, c.dataParallel);
    e.throughputPerSecond = e.stepSeconds > 0 ? samples * e.tokensPerSample / e.stepSeconds : 0.0;
    // Per GPU: the average over the stages.
    e.modelFlopsPerStep = totals.modelFlops / p;
    e.hardwareFlopsPerStep = totals.hardwareFlops / p;
    const double peakFlops = e.gpu.peakFlopsPerSecond[int(e.mfuUnit)];
    const double useful = std::min(e.modelFlopsPerStep, e.hardwareFlopsPerStep);
    e.mfu = (e.stepSeconds > 0 && peakFlops > 0) ? std::min(1.0, useful / (e.stepSeconds * peakFlops)) : 0.0;
    e.hfu = (e.stepSeconds > 0 && peakFlops > 0) ? std::min(1.0, e.hardwareFlopsPerStep / (e.stepSeconds * peakFlops))
                                                 : 0.0;
    // A later stage's copy of tied word embeddings is not a parameter of the model.
    const TransformerSpec& t = model.transformer;
    const double tp = std::max(1, c.tensorParallel);
    const HeadKind head = effectiveHead(t, c);
    const bool vocabHead = head == HeadKind::CausalLM || head == HeadKind::MaskedLM;
    const double tiedCopy = t.tiedEmbeddings && vocabHead ? std::ceil(double(t.vocab) / tp) * tp * t.hidden : 0.0;
    e.parameters = totals.parameters - tiedCopy;
    e.activeParameters = totals.active - tiedCopy;
    e.trainableParameters = totals.trainable - tiedCopy;
    std::int64_t largest = e.maxMicroBatch;
    for (const RankSummary& r : ranks)
        largest = std::min(largest, r.maxMicroBatch);
    e.maxMicroBatch = largest;
}

} // namespace headroom
