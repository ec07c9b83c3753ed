#include "types.h"

namespace headroom {

std::string_view toString(DType t)
{
    switch (t) {
    case DType::F32:
        return "fp32";
    case DType::F16:
        return "fp16";
    case DType::BF16:
        return "bf16";
    case DType::F8:
        return "fp8";
    case DType::I64:
        return "int64";
    case DType::I32:
        return "int32";
    case DType::U8:
        return "uint8";
    case DType::NF4:
        return "nf4";
    }
    return "fp32";
}

std::string_view toString(MemoryCategory c)
{
    switch (c) {
    case MemoryCategory::Weights:
        return "weights";
    case MemoryCategory::WeightCopies:
        return "weight_copies";
    case MemoryCategory::Gradients:
        return "gradients";
    case MemoryCategory::OptimizerStates:
        return "optimizer_states";
    case MemoryCategory::Activations:
        return "activations";
    case MemoryCategory::Transient:
        return "transient";
    case MemoryCategory::Overhead:
        return "overhead";
    }
    return "transient";
}

std::string_view toString(Phase p)
{
    switch (p) {
    case Phase::Forward:
        return "forward";
    case Phase::Backward:
        return "backward";
    case Phase::Optimizer:
        return "optimizer";
    }
    return "forward";
}

std::string_view toString(OpKind k)
{
    switch (k) {
    case OpKind::Gemm:
        return "gemm";
    case OpKind::Attention:
        return "attention";
    case OpKind::Normalization:
        return "normalization";
    case OpKind::Elementwise:
        return "elementwise";
    case OpKind::Embedding:
        return "embedding";
    case OpKind::Loss:
        return "loss";
    case OpKind::Optimizer:
        return "optimizer";
    }
    return "elementwise";
}

std::string_view toString(MathUnit u)
{
    switch (u) {
    case MathUnit::Fp32Vector:
        return "fp32";
    case MathUnit::Tf32Tensor:
        return "tf32";
    case MathUnit::Fp16Tensor:
        return "fp16";
    case MathUnit::Bf16Tensor:
        return "bf16";
    case MathUnit::Fp8Tensor:
        return "fp8";
    }
    return "fp32";
}

} // namespace headroom
