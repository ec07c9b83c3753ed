#pragma once

// One walk of a lowered schedule (lowering.h) at the chosen micro-batch on one GPU: the memory timeline, the peak
// and where it happens, the peak of each phase, the verdict, the step time and the roofline points. Callers go
// through simulate() (simulate.h), which owns the graph and schedule caches; the functions here are its pieces.

#include "allocator.h"
#include "gpuspec.h"
#include "lowering.h"
#include "modelspec.h"
#include "sdpa.h"
#include "timemodel.h"
#include "trainingconfig.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace headroom {

struct RooflinePoint {
    std::string_view name; // a literal or a label owned by the estimate's schedule
    OpKind kind = OpKind::Gemm;
    Phase phase = Phase::Forward;
    MathUnit unit = MathUnit::Fp32Vector;
    double flops = 0.0;
    double bytes = 0.0;
    double seconds = 0.0;
    int count = 0; // kernels launched for it in one micro-batch, every run of a repeated block
    // `seconds` in its parts (TimeModel::Parts): kernels bound by compute, kernels bound by memory, the sums over
    // rows and layout copies in kernels of their own, the kernels' latencies; the rest is the GPU waiting for the
    // host to issue them (hostWaitSeconds()).
    double computeSeconds = 0.0, memorySeconds = 0.0, extraSeconds = 0.0, launchSeconds = 0.0;
    double hostWaitSeconds() const
    {
        return std::max(0.0, seconds - computeSeconds - memorySeconds - extraSeconds - launchSeconds);
    }

    double intensity() const { return bytes > 0 ? flops / bytes : 0.0; }
    double achievedFlopsPerSecond() const { return seconds > 0 ? flops / seconds : 0.0; }
};

// Above this the micro-batch gets a warning (HugeMicroBatch); the simulator still takes up to kMaxBatch.
inline constexpr std::int64_t kHugeMicroBatch = 1 << 16;

struct EstimateWarning {
    enum class Kind : std::uint8_t {
        UnitFallback,    // the GPU lacks the precision's unit: GEMMs are timed on `fallback`
        ZeroWithOneRank, // ZeRO with one data-parallel rank partitions nothing
        Fp8Unsupported,  // FP8 training on a GPU without FP8 tensor cores
        PagedOptimizer,  // the states are in unified memory: outside the peak, paged in when the GPU has no room
        BeyondPositions, // a sequence longer than the model's positions (learned: it has no embedding for them)
        HugeMicroBatch,  // a micro-batch no training run uses: the arithmetic holds, the setting is suspect
        SelectiveRecomputesNothing, // selective checkpointing where the attention kernel saves no scores (sdpa.h)
    };
    Kind kind = Kind::UnitFallback;
    MathUnit unit = MathUnit::Fp32Vector;
    MathUnit fallback = MathUnit::Fp32Vector;
    std::string message;                 // in English, for the command line and JSON; the window writes it from `kind`
    std::optional<SdpaKernel> kernel {}; // SelectiveRecomputesNothing: the SDPA kernel that runs (none: no attention)
};

// The highest point of one phase of the step and its breakdown (overhead and allocator reserve included).
struct PhasePeak {
    CategoryBytes atPeak {};
    double totalBytes = 0.0; // the sum of atPeak; 0 for a phase the step does not have
    std::int32_t step = -1;  // among the real model's steps (Schedule::locate)
};

struct Estimate {
    // Inputs, as used.
    EffectiveGpu gpu;
    TrainingConfig config;
    std::string modelId;
    double parameters = 0.0;
    double activeParameters = 0.0;    // per token: total minus the experts a token does not use (memory holds all)
    double trainableParameters = 0.0; // PEFT get_nb_trainable_parameters: the ones with requires_grad
    double parametersPerGpu = 0.0;    // one GPU's share under tensor parallelism
    double tokensPerSample = 1.0;
    bool vision = false;

    // Memory. `components` are the steady sizes of each category (full gradients, all weight copies, the
    // activations saved at the end of the forward pass, the transient bytes at the peak, the overhead);
    // `atPeak` is the breakdown at the moment of the peak.
    CategoryBytes components {};
    CategoryBytes atPeak {};
    // Of components[WeightCopies], the casts autograd saves outside checkpointed regions (Schedule::
    // savedWeightCopyBytes): what saved_tensors_hooks counts besides the activations.
    double savedWeightCopyBytes = 0.0;
    std::array<PhasePeak, 3> phasePeaks {}; // forward, backward, optimizer (index: int(Phase))
    double overheadBytes = 0.0;             // framework overhead used (frameworkOverheadBytes)
    double peakBytes = 0.0;
    std::int32_t peakStep = -1;
    Phase peakPhase = Phase::Forward;
    std::string peakOperator;
    int peakLayer = -1;
    bool peakInRecompute = false;
    double capacityBytes = 0.0;
    // The verdict (fitVerdict, allocator.h): by the peak in evaluate(); simulate() with the searches replaces it, the
    // headroom (capacity less what the deciding rule needs) and the largest micro-batch and sequence by the replay.
    double headroomBytes = 0.0; // negative when it does not fit
    bool fits = false;
    FitRule fitDecidedBy = FitRule::Peak;
    std::int64_t maxMicroBatch = 0;
    std::int64_t maxSequence = 0; // tokens, or image side for vision models
    bool maxSequenceLimitedByModel = false;

    // Time.
    double microBatchSeconds = 0.0; // forward + backward of one micro-batch
    double optimizerSeconds = 0.0;
    double communicationSeconds = 0.0;
    double exposedCommunicationSeconds = 0.0;
    double communicationLatencySeconds = 0.0; // of communicationSeconds: NCCL's per-call latency (links.h)
    double tensorParallelSeconds = 0.0;       // of communicationSeconds: the tensor-parallel all-reduces, never hidden
    double dataParallelSeconds = 0.0;         // of communicationSeconds: gradient all-reduce or ZeRO collectives
    double pipelineSeconds = 0.0;             // of communicationSeconds: this stage's sends and receives, never hidden
    double expertParallelSeconds = 0.0;       // of communicationSeconds: MoE token all-to-alls, never hidden
    double expertParallelBytes = 0.0;
    double contextParallelSeconds = 0.0;        // of communicationSeconds: the ring of keys and values
    double contextParallelExposedSeconds = 0.0; // the part of it the attention kernels do not hide
    double contextParallelBytes = 0.0;
    double tensorParallelBytes = 0.0; // per step, sent by this GPU
    double dataParallelBytes = 0.0;
    double pipelineBytes = 0.0;
    // The transfers every micro-batch waits for: tensor-parallel, pipeline, expert-parallel, and the context ring's
    // part that attention does not hide.
    double blockingCommunicationSeconds() const
    {
        return tensorParallelSeconds + pipelineSeconds + expertParallelSeconds + contextParallelExposedSeconds;
    }
    // Every collective's bytes per step on this GPU, and the rate they cross the links at (their time less NCCL's
    // per-call latency): the communication roof of the roofline.
    double communicationBytes() const
    {
        return dataParallelBytes + tensorParallelBytes + pipelineBytes + expertParallelBytes + contextParallelBytes;
    }
    double linkBytesPerSecond() const
    {
        const double t = communicationSeconds - communicationLatencySeconds;
        return t > 0.0 ? communicationBytes() / t : 0.0;
    }
    // The step's FLOPs per byte it sends: where it sits under the communication roof; 0 without communication.
    double flopsPerByteSent() const
    {
        return communicationBytes() > 0.0 ? wholeStep.flops / communicationBytes() : 0.0;
    }
    double pipelineBubbleSeconds = 0.0; // the whole pipeline's idle time per step (simulate() fills it)
    double offloadSeconds = 0.0;
    // The two clocks (timemodel.h playClocks): the host's time issuing the step's operators and the GPU's time
    // running its kernels, both without communication. The step is host-bound when the GPU waits for the host for
    // more of it than it computes.
    double hostSeconds = 0.0;
    double gpuBusySeconds = 0.0;
    // The GPU's idle time inside the compute part of the step: waiting for the host to issue the next kernel.
    double gpuIdleSeconds() const
    {
        return std::max(0.0,
                        microBatchSeconds * std::max(1, config.gradientAccumulation) + optimizerSeconds - offloadSeconds
                            - gpuBusySeconds);
    }
    bool hostBound() const { return hostSeconds > gpuBusySeconds; }
    double hostBytes = 0.0; // optimizer state in host memory (ZeRO-Offload) or unified memory (paged optimizers)
    double stepSeconds = 0.0;
    double throughputPerSecond = 0.0;  // tokens/s (images/s for vision), whole data-parallel job
    double modelFlopsPerStep = 0.0;    // per GPU
    double hardwareFlopsPerStep = 0.0; // per GPU, recomputation included
    // Model FLOPs utilisation (PaLM, Appendix B): the model FLOPs of the method (3x forward for what trains, 2x for a
    // frozen weight's matmul: lowering.h modelFlops) over the step time at the peak; HFU: every FLOP the step executes
    // (recomputation, elementwise work and the optimizer included) over the same.
    double mfu = 0.0;
    double hfu = 0.0;
    MathUnit mfuUnit = MathUnit::Fp32Vector;

    std::vector<RooflinePoint> kindPoints;     // one per operator kind present
    std::vector<RooflinePoint> operatorPoints; // per operator label and phase, summed over layers
    RooflinePoint wholeStep;

    // The timeline: per schedule step, bytes per category at this micro-batch (overhead included), and seconds
    // from the start of the micro-batch to the step (one micro-batch, then the optimizer step). A repeated block's
    // steps (Schedule::repeats) hold its first run; one run adds runDelta and runSeconds. timelineStep() gives
    // every step of the real model. peakStep and PhasePeak::step index those (Schedule::locate).
    std::shared_ptr<const Schedule> schedule;
    std::vector<CategoryBytes> timeline;
    std::vector<double> stepStart;
    std::vector<CategoryBytes> runDelta; // per Schedule::repeats entry
    std::vector<double> runSeconds;

    std::vector<EstimateWarning> warnings;
};

// One step of the real model's timeline (every run of a repeated block).
struct TimelineStep {
    const Step* step = nullptr;
    int layer = -1;
    CategoryBytes bytes {};
    double start = 0.0;
};
// Steps in the timeline: 0 when the estimate kept none (EstimateOptions::keepTimeline).
std::int64_t timelineSize(const Estimate& e);
TimelineStep timelineStep(const Estimate& e, std::int64_t real);

// The timeline's phase boundaries: seconds from the start of the micro-batch to its first backward step and to the
// optimizer step (0 where the estimate kept no timeline, or the step has no such phase).
struct PhaseStarts {
    double backward = 0.0;
    double optimizer = 0.0;
};
PhaseStarts phaseStarts(const Estimate& e);

struct EstimateOptions {
    Efficiency efficiency;
    bool searchMaxSequence = true;
    bool keepTimeline = true;
    // Build one block of each run of identical blocks (GraphLayers::RepeatIdentical): the same answers, faster.
    GraphLayers layers = GraphLayers::RepeatIdentical;
    // false: the memory walk only; the time, work, throughput and roofline fields stay empty (simulate() gives a
    // pipeline stage built like the one before it that one's time: simulatestages.cpp).
    bool time = true;
};

// The CUDA context, library workspaces and framework buffers that no tensor accounts for: the configuration's own
// figure when it has one, else the GPU file's default for its generation. The one place this rule lives.
double frameworkOverheadBytes(const GpuSpec& gpu, const TrainingConfig& config);

// Unit that the GEMMs of this configuration use, after falling back where the GPU lacks it.
MathUnit gemmUnit(const TrainingConfig& config);

Estimate estimate(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                  const GpuOverrides& overrides = {}, const EstimateOptions& options = {});
// The same into an existing estimate, reusing its memory.
void estimate(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config, const GpuOverrides& overrides,
              const EstimateOptions& options, Estimate& out);

// Walks an already lowered schedule (the batch-slider fast path).
Estimate evaluate(std::shared_ptr<const Schedule> schedule, const ModelSpec& model, const GpuSpec& gpu,
                  const TrainingConfig& config, const GpuOverrides& overrides, const EstimateOptions& options);
// The same into an existing estimate, reusing its memory (a slider tick then allocates nothing).
void evaluate(std::shared_ptr<const Schedule> schedule, const ModelSpec& model, const GpuSpec& gpu,
              const TrainingConfig& config, const GpuOverrides& overrides, const EstimateOptions& options, Estimate& e);

// Memory at every step is fixed + perSample * B, so the largest B that fits a budget is the minimum over steps of
// (budget - fixed) / perSample: exact, with no search. Feed it the live bytes of every step (and of the resident
// state before the first).
struct LargestBatch {
    double budget = 0.0; // (capacity - overhead) / (1 + allocator reserve)
    double best = std::numeric_limits<double>::infinity();
    void consider(const Linear& live) // inline: the walk calls it at every step
    {
        if (live.fixed > budget) {
            best = -1.0;
            return;
        }
        // Divided only where the quotient can be below the best so far: a product above the room by more than its
        // rounding means a quotient above the best by more than an ulp (most steps; a division costs ten products).
        const double room = budget - live.fixed;
        if (live.perSample > 0.0 && !(room > best * live.perSample * (1.0 + 0x1p-50)))
            best = std::min(best, room / live.perSample);
    }
    std::int64_t result() const; // 0 when even one sample does not fit; at most 2^40
};

// Largest micro-batch whose peak fits `capacityBytes` (0 when even one sample does not fit).
std::int64_t maxMicroBatch(const Schedule& schedule, double capacityBytes, double overheadBytes,
                           double reserveFraction);
// Longest sequence (or image side) that fits at the configured micro-batch.
std::int64_t maxSequence(const ModelSpec& model, const TrainingConfig& config, double capacityBytes,
                         double overheadBytes, bool* limitedByModel = nullptr);

double peakBytes(const Schedule& schedule, double microBatch, double overheadBytes, double reserveFraction);

} // namespace headroom
