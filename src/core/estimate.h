#pragma once

// The public entry point of the core: a model, a GPU and a training configuration in; the memory timeline, the
// peak and where it happens, the verdict, the step time and the roofline points out. Everything comes from one
// lowered schedule (lowering.h), walked at the chosen micro-batch.

#include "gpuspec.h"
#include "lowering.h"
#include "modelspec.h"
#include "trainingconfig.h"

#include <memory>
#include <string>
#include <vector>

namespace headroom {

// Fractions of the datasheet peaks that kernels reach. Defaults and their sources: docs/formulas.md and
// ../shared/reference/roofline.md sec. 5.
struct Efficiency {
    double gemmTensor = 0.80;  // large BF16/FP16/TF32 GEMMs: A100 86.9 %, H100 80.3 % of peak (MAMF table)
    double gemmFp8 = 0.70;     // FP8 GEMMs: H100 70.9 %, H200 73.4 %
    double gemmVector = 0.65;  // FP32 SIMT GEMMs: 0.6-0.7
    double attention = 0.60;   // FlashAttention-2: 50-73 % of peak on A100
    double vector = 0.50;      // arithmetic of elementwise kernels (they are memory-bound in practice)
    double memoryHbm = 0.85;   // V100 0.92, A100 PCIe 0.83 of datasheet bandwidth
    double memoryGddr = 0.78;  // Titan RTX 0.83, T4 0.77
    double link = 0.80;        // NCCL bus bandwidth over link peak
    double launchSeconds = 5e-6; // per kernel: "about 4-6 us" of CPU launch overhead in eager mode
    double hostOptimizerParamsPerSecond = 1.0e9; // DeepSpeed CPU Adam, order of magnitude on a many-core host
};

struct RooflinePoint {
    std::string_view name; // a literal or a label owned by the estimate's schedule
    OpKind kind = OpKind::Gemm;
    Phase phase = Phase::Forward;
    MathUnit unit = MathUnit::Fp32Vector;
    double flops = 0.0;
    double bytes = 0.0;
    double seconds = 0.0;
    int count = 0;

    double intensity() const { return bytes > 0 ? flops / bytes : 0.0; }
    double achievedFlopsPerSecond() const { return seconds > 0 ? flops / seconds : 0.0; }
};

struct EstimateWarning {
    enum class Kind : std::uint8_t {
        UnitFallback,     // the GPU lacks the precision's unit: GEMMs are timed on `fallback`
        ZeroWithOneRank,  // ZeRO with one data-parallel rank partitions nothing
        Fp8Unsupported,   // FP8 training on a GPU without FP8 tensor cores
    };
    Kind kind = Kind::UnitFallback;
    MathUnit unit = MathUnit::Fp32Vector;
    MathUnit fallback = MathUnit::Fp32Vector;
};

struct Estimate {
    // Inputs, as used.
    EffectiveGpu gpu;
    TrainingConfig config;
    std::string modelId;
    double parameters = 0.0;
    double tokensPerSample = 1.0;
    bool vision = false;

    // Memory. `components` are the steady sizes of each category (full gradients, all weight copies, the
    // activations saved at the end of the forward pass, the transient bytes at the peak, the overhead);
    // `atPeak` is the breakdown at the moment of the peak.
    CategoryBytes components {};
    CategoryBytes atPeak {};
    double peakBytes = 0.0;
    std::int32_t peakStep = -1;
    Phase peakPhase = Phase::Forward;
    std::string peakOperator;
    int peakLayer = -1;
    bool peakInRecompute = false;
    double capacityBytes = 0.0;
    double headroomBytes = 0.0; // negative when it does not fit
    bool fits = false;
    std::int64_t maxMicroBatch = 0;
    std::int64_t maxSequence = 0;        // tokens, or image side for vision models
    bool maxSequenceLimitedByModel = false;

    // Time.
    double microBatchSeconds = 0.0; // forward + backward of one micro-batch
    double optimizerSeconds = 0.0;
    double communicationSeconds = 0.0;
    double exposedCommunicationSeconds = 0.0;
    double offloadSeconds = 0.0;
    double stepSeconds = 0.0;
    double throughputPerSecond = 0.0; // tokens/s (images/s for vision), whole data-parallel job
    double modelFlopsPerStep = 0.0;    // per GPU
    double hardwareFlopsPerStep = 0.0; // per GPU, recomputation included
    double mfu = 0.0;
    MathUnit mfuUnit = MathUnit::Fp32Vector;

    std::vector<RooflinePoint> kindPoints;     // one per operator kind present
    std::vector<RooflinePoint> operatorPoints; // per operator label and phase, summed over layers
    RooflinePoint wholeStep;

    // The timeline: per schedule step, bytes per category at this micro-batch (overhead included).
    std::shared_ptr<const Schedule> schedule;
    std::vector<CategoryBytes> timeline;
    std::vector<double> stepStart; // seconds from the start of the micro-batch to each step (one micro-batch, then
                                   // the optimizer step)

    // Each warning in English (for the command line and JSON) with its kind, from which the window writes it in
    // the user's language.
    std::vector<std::string> warnings;
    std::vector<EstimateWarning> warningKinds; // parallel to `warnings`
};

struct EstimateOptions {
    Efficiency efficiency;
    bool searchMaxSequence = true;
    bool keepTimeline = true;
};

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
              const TrainingConfig& config, const GpuOverrides& overrides, const EstimateOptions& options, Estimate& out);

// Largest micro-batch whose peak fits `capacityBytes` (0 when even one sample does not fit).
std::int64_t maxMicroBatch(const Schedule& schedule, double capacityBytes, double overheadBytes,
                           double reserveFraction);
// Longest sequence (or image side) that fits at the configured micro-batch.
std::int64_t maxSequence(const ModelSpec& model, const TrainingConfig& config, double capacityBytes,
                         double overheadBytes, bool* limitedByModel = nullptr);

double peakBytes(const Schedule& schedule, double microBatch, double overheadBytes, double reserveFraction);

// The default scenario the project was asked for: RTX A3000 12 GB with a what-if 392 GB/s bandwidth roof.
struct Scenario {
    std::string gpuId;
    std::string modelId;
    TrainingConfig config;
    GpuOverrides overrides;

    bool operator==(const Scenario&) const = default;
};
Scenario defaultScenario();

} // namespace headroom
