// CNN forward passes from their layer lists, with shape propagation for any image size. Operators save what
// PyTorch's autograd saves for them (torch/csrc/autograd derivatives.yaml): convolution its input, batch norm its
// input and per-channel statistics, in-place ReLU its output, max pooling its input and int64 indices.

#include "graphbuilder.h"
#include "modelgraph.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace headroom {

namespace {

    struct Shape {
        double c = 0, h = 0, w = 0;
        double numel() const { return c * h * w; }
    };

    double convOut(double in, int kernel, int stride, int padding)
    {
        return std::max(1.0, std::floor((in + 2.0 * padding - kernel) / stride) + 1.0);
    }

    // One layer as torchvision's module runs it on x (shape xs; second: the other operand of Add and Mul). Returns
    // its output and sets ys to the output's shape; convolutions and Linear layers open a new layer group.
    TensorId cnnLayer(GraphBuilder& b, const CnnLayer& L, std::string_view name, TensorId x, const Shape& xs,
                      const std::pair<TensorId, Shape>& second, Shape& ys, int& group, double& classes)
    {
        TensorId y = x;
        ys = xs;
        switch (L.op) {
        case CnnOp::Conv2d: {
            b.setLayer(group++);
            ys.c = L.outChannels;
            ys.h = convOut(xs.h, L.kernel, L.stride, L.padding);
            ys.w = convOut(xs.w, L.kernel, L.stride, L.padding);
            const double k2 = double(L.kernel) * L.kernel;
            const double groups = std::max(1, L.groups);
            const TensorId w = b.parameter(name, ys.c * (xs.c / groups) * k2, true, L.kernel, L.kernel);
            const TensorId bias = L.bias ? b.parameter(name, ys.c, false) : kNoTensor;
            const bool winograd = L.kernel == 3 && L.stride == 1 && groups == 1.0;
            y = b.conv2d(x, w, bias, xs.c, ys.c, k2, groups, ys.h * ys.w, name, winograd);
            break;
        }
        case CnnOp::BatchNorm2d: {
            const TensorId gamma = b.normParameter(name, xs.c);
            const TensorId beta = b.normParameter(name, xs.c);
            y = b.batchNorm(x, gamma, beta, xs.c, name);
            break;
        }
        case CnnOp::Relu:
            y = b.unary(x, UnaryFn::Relu, name, L.inplace);
            break;
        case CnnOp::Relu6:
            y = b.unary(x, UnaryFn::Relu6, name, L.inplace);
            break;
        case CnnOp::Silu:
            y = b.unary(x, UnaryFn::Silu, name, L.inplace);
            break;
        case CnnOp::Sigmoid:
            y = b.unary(x, UnaryFn::Sigmoid, name, L.inplace);
            break;
        case CnnOp::MaxPool2d:
            ys.h = convOut(xs.h, L.kernel, L.stride, L.padding);
            ys.w = convOut(xs.w, L.kernel, L.stride, L.padding);
            y = b.pool(x, ys.numel(), double(L.kernel) * L.kernel, true, name);
            break;
        case CnnOp::AdaptiveAvgPool2d:
            ys.h = ys.w = 1.0;
            y = b.pool(x, ys.c, xs.h * xs.w, false, name);
            break;
        case CnnOp::Add: {
            y = b.add(x, second.first, name, L.inplace);
            break;
        }
        case CnnOp::Mul: {
            const auto& [x2, xs2] = second;
            y = b.mul(x, x2, name);
            ys = xs.numel() >= xs2.numel() ? xs : xs2;
            break;
        }
        case CnnOp::Flatten:
            ys = { xs.numel(), 1.0, 1.0 };
            break;
        case CnnOp::Linear: {
            b.setLayer(group++);
            const double in = xs.numel();
            const double outF = L.outChannels;
            const TensorId w = b.parameter(name, in * outF, true, in, outF);
            const TensorId bias = L.bias ? b.parameter(name, outF, false) : kNoTensor;
            y = b.linear(x, w, bias, 1.0, in, outF, name);
            ys = { outF, 1.0, 1.0 };
            classes = outF;
            break;
        }
        case CnnOp::Dropout:
            y = b.dropout(x, L.p, name, L.inplace);
            break;
        case CnnOp::StochasticDepth:
            // torchvision.ops.StochasticDepth(mode="row"): input * noise, noise of shape [B, 1, 1, 1]; identity
            // when p == 0.
            if (L.p > 0.0) {
                const TensorId noise = b.constant(1.0, b.tensor(x).dtype, 1.0, name);
                y = b.mul(x, noise, name);
            }
            break;
        }
        return y;
    }

} // namespace

void buildCnnGraph(const ModelSpec& model, const TrainingConfig& config, Graph& g)
{
    const CnnSpec& spec = model.cnn;
    g.clear();
    g.ops.reserve(spec.layers.size() * 2 + 8);
    g.tensors.reserve(spec.layers.size() * 4 + 8);
    g.storages.reserve(spec.layers.size() * 4 + 8);
    g.refs.reserve(spec.layers.size() * 10);
    GraphBuilder b(g, planPrecision(config));
    b.setLayer(-1);
    const double side = double(std::max<std::int64_t>(1, config.sequenceLength));
    // The images are cast to the model's own dtype (FP32 under autocast, BF16 for a model.to(torch.bfloat16)).
    const TensorId image = b.input("images", b.plan().paramType, spec.channels * side * side);
    const TensorId labels = b.input("labels", DType::I64, 1.0);

    std::vector<TensorId> out(spec.layers.size(), kNoTensor);
    std::vector<Shape> shape(spec.layers.size());
    const Shape imageShape { double(spec.channels), side, side };
    int group = 0;
    TensorId last = image;
    Shape lastShape = imageShape;
    double classes = 0.0;

    for (std::size_t i = 0; i < spec.layers.size(); ++i) {
        const CnnLayer& L = spec.layers[i];
        auto inputAt = [&](std::size_t k) -> std::pair<TensorId, Shape> {
            if (k >= L.inputs.size())
                return { last, lastShape };
            const int ref = L.inputs[k];
            if (ref < 0 || ref >= int(i))
                return { image, imageShape };
            return { out[ref], shape[ref] };
        };
        const auto [x, xs] = inputAt(0);
        const std::string_view name = b.intern(L.name);
        Shape ys;
        const TensorId y = cnnLayer(b, L, name, x, xs, inputAt(1), ys, group, classes);
        out[i] = y;
        shape[i] = ys;
        last = y;
        lastShape = ys;
    }
    b.setLayer(group);
    g.modelOutput = last;
    b.crossEntropy(last, labels, 1.0, std::max(1.0, classes > 0 ? classes : lastShape.numel()));
    g.layers = group;
    g.samplesTokens = 1.0;
}

} // namespace headroom
