#include "trainingconfig.h"

#include <array>
#include <string>
#include <utility>

namespace headroom {

namespace {

    template <typename E, std::size_t N>
    std::optional<E> lookup(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view s)
    {
        for (const auto& [name, value] : table) {
            if (name == s)
                return value;
        }
        return std::nullopt;
    }

    template <typename E, std::size_t N>
    std::string_view reverse(const std::array<std::pair<std::string_view, E>, N>& table, E v)
    {
        for (const auto& [name, value] : table) {
            if (value == v)
                return name;
        }
        return table[0].first;
    }

    constexpr std::array<std::pair<std::string_view, Precision>, 6> kPrecision { {
        { "fp32", Precision::FP32 },
        { "tf32", Precision::TF32 },
        { "fp16", Precision::MixedFP16 },
        { "bf16", Precision::MixedBF16 },
        { "bf16-pure", Precision::PureBF16 },
        { "fp8", Precision::MixedFP8 },
    } };
    constexpr std::array<std::pair<std::string_view, MixedPrecisionStyle>, 2> kStyle { {
        { "autocast", MixedPrecisionStyle::Autocast },
        { "master-weights", MixedPrecisionStyle::MasterWeights },
    } };
    constexpr std::array<std::pair<std::string_view, GradientStorage>, 2> kGrad { {
        { "fp32", GradientStorage::FP32 },
        { "low", GradientStorage::Low },
    } };
    constexpr std::array<std::pair<std::string_view, Checkpointing>, 3> kCkpt { {
        { "none", Checkpointing::None },
        { "selective", Checkpointing::Selective },
        { "full", Checkpointing::Full },
    } };
    constexpr std::array<std::pair<std::string_view, AttentionImpl>, 2> kAttn { {
        { "eager", AttentionImpl::Eager },
        { "fused", AttentionImpl::Fused },
    } };
    constexpr std::array<std::pair<std::string_view, OptimizerKind>, 8> kOpt { {
        { "adamw", OptimizerKind::AdamW },
        { "adam", OptimizerKind::Adam },
        { "sgd", OptimizerKind::SGD },
        { "sgd-momentum", OptimizerKind::SGDMomentum },
        { "adamw-8bit", OptimizerKind::AdamW8bit },
        { "adafactor", OptimizerKind::Adafactor },
        { "paged-adamw", OptimizerKind::PagedAdamW },
        { "paged-adamw-8bit", OptimizerKind::PagedAdamW8bit },
    } };
    constexpr std::array<std::pair<std::string_view, AdamImpl>, 3> kAdamImpl { {
        { "foreach", AdamImpl::Foreach },
        { "for-loop", AdamImpl::ForLoop },
        { "fused", AdamImpl::Fused },
    } };

    constexpr std::array<std::pair<std::string_view, FinetuneMethod>, 5> kFinetune { {
        { "full", FinetuneMethod::Full },
        { "freeze", FinetuneMethod::Freeze },
        { "lora", FinetuneMethod::LoRA },
        { "dora", FinetuneMethod::DoRA },
        { "qlora", FinetuneMethod::QLoRA },
    } };

    constexpr std::array<std::pair<std::string_view, Task>, 5> kTask { {
        { "model", Task::Model },
        { "causal-lm", Task::CausalLM },
        { "masked-lm", Task::MaskedLM },
        { "seq-cls", Task::SequenceClassification },
        { "token-cls", Task::TokenClassification },
    } };

    constexpr std::array<std::pair<std::string_view, PipelineSchedule>, 3> kPipeline { {
        { "gpipe", PipelineSchedule::GPipe },
        { "1f1b", PipelineSchedule::OneFOneB },
        { "interleaved", PipelineSchedule::Interleaved },
    } };

    constexpr std::array<std::pair<std::string_view, Execution>, 2> kExecution { {
        { "eager", Execution::Eager },
        { "cuda-graphs", Execution::CudaGraphs },
    } };

    constexpr std::array<std::pair<std::string_view, TrainingLoop>, 2> kLoop { {
        { "keep-outputs", TrainingLoop::KeepOutputs },
        { "drop-outputs", TrainingLoop::DropOutputs },
    } };

    // Leading decimal digits of s from `at`, or -1 when there are none.
    int leadingNumber(std::string_view s, std::size_t& at)
    {
        int v = -1;
        while (at < s.size() && s[at] >= '0' && s[at] <= '9' && v < 100000) {
            v = (v < 0 ? 0 : v * 10) + (s[at] - '0');
            ++at;
        }
        return v;
    }

} // namespace

bool isMixed(Precision p) { return p == Precision::MixedFP16 || p == Precision::MixedBF16 || p == Precision::MixedFP8; }

bool usesTensorCores(Precision p) { return p != Precision::FP32; }

std::string_view toString(Precision p) { return reverse(kPrecision, p); }
std::string_view toString(MixedPrecisionStyle s) { return reverse(kStyle, s); }
std::string_view toString(GradientStorage g) { return reverse(kGrad, g); }
std::string_view toString(Checkpointing c) { return reverse(kCkpt, c); }
std::string_view toString(AttentionImpl a) { return reverse(kAttn, a); }
std::string_view toString(OptimizerKind o) { return reverse(kOpt, o); }
std::string_view toString(AdamImpl a) { return reverse(kAdamImpl, a); }
std::string_view toString(FinetuneMethod m) { return reverse(kFinetune, m); }
std::string_view toString(Task t) { return reverse(kTask, t); }
std::string_view toString(PipelineSchedule p) { return reverse(kPipeline, p); }
std::string_view toString(Execution e) { return reverse(kExecution, e); }

std::string_view toString(TrainingLoop l) { return reverse(kLoop, l); }
std::string toString(TorchVersion v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }

std::optional<TrainingLoop> loopFromString(std::string_view s) { return lookup(kLoop, s); }

std::optional<TorchVersion> torchVersionFromString(std::string_view s)
{
    std::size_t at = 0;
    const int major = leadingNumber(s, at);
    if (major < 0 || at >= s.size() || s[at] != '.')
        return std::nullopt;
    ++at;
    const int minor = leadingNumber(s, at);
    if (minor < 0 || (at < s.size() && s[at] != '.' && s[at] != '+' && s[at] != 'a' && s[at] != 'r'))
        return std::nullopt;
    return TorchVersion { major, minor };
}

int computeCapabilityCode(std::string_view s)
{
    std::size_t at = 0;
    const int major = leadingNumber(s, at);
    if (major <= 0 || at >= s.size() || s[at] != '.')
        return 0;
    ++at;
    const int minor = leadingNumber(s, at);
    return minor < 0 || minor > 9 || at != s.size() ? 0 : major * 10 + minor;
}

std::optional<Precision> precisionFromString(std::string_view s) { return lookup(kPrecision, s); }
std::optional<MixedPrecisionStyle> mixedStyleFromString(std::string_view s) { return lookup(kStyle, s); }
std::optional<GradientStorage> gradientStorageFromString(std::string_view s) { return lookup(kGrad, s); }
std::optional<Checkpointing> checkpointingFromString(std::string_view s) { return lookup(kCkpt, s); }
std::optional<AttentionImpl> attentionFromString(std::string_view s) { return lookup(kAttn, s); }
std::optional<OptimizerKind> optimizerFromString(std::string_view s) { return lookup(kOpt, s); }
std::optional<AdamImpl> adamImplFromString(std::string_view s) { return lookup(kAdamImpl, s); }
std::optional<FinetuneMethod> finetuneFromString(std::string_view s) { return lookup(kFinetune, s); }
std::optional<Task> taskFromString(std::string_view s) { return lookup(kTask, s); }
std::optional<PipelineSchedule> pipelineScheduleFromString(std::string_view s) { return lookup(kPipeline, s); }
std::optional<Execution> executionFromString(std::string_view s) { return lookup(kExecution, s); }

} // namespace headroom
