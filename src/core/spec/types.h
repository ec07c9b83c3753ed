#pragma once

// Vocabulary shared by every part of the core: element types, memory categories, phases, operator kinds and
// the arithmetic units whose peaks form the roofline. The GUI maps these enums to translated labels; the core
// only provides stable identifiers for JSON.

#include <array>
#include <cstdint>
#include <string_view>

namespace headroom {

// NF4 is bitsandbytes' 4-bit NormalFloat with double quantization, per element: two weights per byte, an 8-bit
// absmax per block of 64 and an FP32 constant per 256 blocks (Dettmers et al. 2023, sec. 3: 4.127 bits).
enum class DType : std::uint8_t { F32, F16, BF16, F8, I64, I32, U8, NF4 };

constexpr double bytesPerElement(DType t)
{
    switch (t) {
    case DType::F32:
    case DType::I32:
        return 4.0;
    case DType::F16:
    case DType::BF16:
        return 2.0;
    case DType::F8:
    case DType::U8:
        return 1.0;
    case DType::I64:
        return 8.0;
    case DType::NF4:
        return (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0;
    }
    return 4.0;
}

constexpr bool isLowPrecisionFloat(DType t) { return t == DType::F16 || t == DType::BF16 || t == DType::F8; }

// Where a byte of device memory belongs. The order is the stacking order of the charts (bottom to top).
enum class MemoryCategory : std::uint8_t {
    Weights,         // parameters as the model holds them (a ZeRO-3 shard when partitioned)
    WeightCopies,    // low-precision casts of the weights: autocast's cache, FP8 copies and transposes
    Gradients,       // parameter gradients (a shard under ZeRO-2/3), DDP buckets
    OptimizerStates, // FP32 master weights, moments, momentum buffers
    Activations,     // tensors saved for backward
    Transient,       // everything else that lives for a while: outputs in flight, activation gradients, workspaces
    Overhead,        // CUDA context, library workspaces, allocator reserve
};
inline constexpr int kMemoryCategoryCount = 7;
using CategoryBytes = std::array<double, kMemoryCategoryCount>;

constexpr int index(MemoryCategory c) { return static_cast<int>(c); }

enum class Phase : std::uint8_t { Forward, Backward, Optimizer };

// Operator kinds of the roofline legend.
enum class OpKind : std::uint8_t { Gemm, Attention, Normalization, Elementwise, Embedding, Loss, Optimizer };
inline constexpr int kOpKindCount = 7;

// The arithmetic unit (and so the compute roof) an operator runs on.
enum class MathUnit : std::uint8_t { Fp32Vector, Tf32Tensor, Fp16Tensor, Bf16Tensor, Fp8Tensor };
inline constexpr int kMathUnitCount = 5;

std::string_view toString(DType t);
std::string_view toString(MemoryCategory c);
std::string_view toString(Phase p);
std::string_view toString(OpKind k);
std::string_view toString(MathUnit u);

// A quantity that grows linearly with the micro-batch: value(B) = fixed + perSample * B. Every byte and FLOP
// count in a training step has this form, which makes the largest micro-batch that fits a closed-form result.
struct Linear {
    double fixed = 0.0;
    double perSample = 0.0;

    constexpr double at(double batch) const { return fixed + perSample * batch; }
    constexpr bool operator==(const Linear&) const = default;
    constexpr Linear& operator+=(const Linear& o)
    {
        fixed += o.fixed;
        perSample += o.perSample;
        return *this;
    }
    constexpr Linear& operator-=(const Linear& o)
    {
        fixed -= o.fixed;
        perSample -= o.perSample;
        return *this;
    }
    friend constexpr Linear operator+(Linear a, const Linear& b) { return a += b; }
    friend constexpr Linear operator-(Linear a, const Linear& b) { return a -= b; }
    friend constexpr Linear operator*(Linear a, double k) { return { a.fixed * k, a.perSample * k }; }
    friend constexpr Linear operator*(double k, Linear a) { return a * k; }
};

constexpr Linear perSample(double v) { return { 0.0, v }; }
constexpr Linear fixedAmount(double v) { return { v, 0.0 }; }

} // namespace headroom
