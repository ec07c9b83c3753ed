// A block Linear as a fine-tuning method runs it (finetune.h): the base layer (plain, frozen or bitsandbytes
// 4-bit), and beside it PEFT's LoRA or DoRA adapter, operator by operator.

#include "finetune.h"

namespace headroom {

namespace {

    struct Adapter {
        TensorId a = kNoTensor; // lora_A: r x in
        TensorId b = kNoTensor; // lora_B: out x r
    };

    // DoRA's magnitude rescaling (peft/tuners/lora/dora.py DoraLinearLayer.forward, dropout off):
    //   lora_weight = lora_B(lora_A(eye(in))).T               a graph no loss reaches: freed after forward
    //   weight_norm = ||W + scaling * lora_weight.detach()||   detached
    //   mag_norm_scale = magnitude / weight_norm               saves weight_norm
    //   result_dora = (mag_norm_scale - 1) * base_result + mag_norm_scale * lora_B(lora_A(x)) * scaling
    // The two products save base_result and lora_result, each rows x out: DoRA's extra activation memory.
    TensorId doraDelta(GraphBuilder& b, TensorId base, TensorId xa, const Adapter& ad, TensorId weight, double rows,
                       double in, double out, double r)
    {
        const DType xt = b.tensor(xa).dtype;
        const TensorId eye = b.constant(in * in, xt, 1.0, "dora.eye", false);
        const TensorId la = b.linear(eye, ad.a, kNoTensor, in, in, r, "dora.lora_weight", false);
        const TensorId lw = b.linear(la, ad.b, kNoTensor, in, r, out, "dora.lora_weight", false);
        // dequantize_module_weight(base_layer).to(x.dtype): a copy when the dtypes differ or the base is 4-bit.
        TensorId w = weight;
        if (b.tensor(weight).dtype != xt)
            w = b.constant(in * out, xt, 1.0, "dora.weight", false);
        const TensorId sum = b.add(w, b.detach(lw), "dora.weight_norm");
        const TensorId norm = b.reduceMean(sum, 1.0 / in, "dora.weight_norm");
        const TensorId magnitude = b.parameter("lora_magnitude_vector", out, false);
        const TensorId scale = b.mul(magnitude, norm, "dora.scale");
        const TensorId scaleMinusOne = b.unary(scale, UnaryFn::AddConstant, "dora.scale");
        const TensorId loraResult = b.linear(b.linear(xa, ad.a, kNoTensor, rows, in, r, "lora.A"), ad.b, kNoTensor,
                                             rows, r, out, "lora.B");
        const TensorId first = b.mul(scaleMinusOne, base, "dora.mul");
        const TensorId second = b.unary(b.mul(scale, loraResult, "dora.mul"), UnaryFn::ScaleByConstant, "lora.scale");
        return b.add(first, second, "dora.add");
    }

} // namespace

TensorId finetuneLinear(GraphBuilder& b, const FinetunePolicy& policy, TensorId x, double rows, double in, double out,
                        bool bias, std::string_view label, ParameterRole role)
{
    const int layer = b.layer();
    const ParameterKind weightKind = policy.kind(role, layer);
    b.setParameterKind(weightKind);
    const TensorId w = b.parameter(label, in * out, true, in, out);
    TensorId bb = kNoTensor;
    if (bias) {
        b.setParameterKind(policy.kind(role == ParameterRole::Linear ? ParameterRole::Bias : role, layer));
        bb = b.parameter(label, out, false);
    }
    const bool fourBit = weightKind.dtype == DType::NF4;
    TensorId result = fourBit ? b.linear4bit(x, w, bb, rows, in, out, policy.computeType(), label)
                              : b.linear(x, w, bb, rows, in, out, label);
    if (!policy.adapts(label))
        return result;

    const FinetuneConfig& f = policy.config();
    const double r = f.loraRank;
    b.setParameterKind({ true, policy.adapterType() });
    Adapter ad;
    ad.a = b.parameter("lora_A", r * in, true, in, r);
    ad.b = b.parameter("lora_B", out * r, true, r, out);
    const DType resultType = b.tensor(result).dtype;
    TensorId xa = x;
    // lora/layer.py Linear.forward casts x to the adapter dtype (_cast_input_dtype); lora/bnb.py Linear4bit does
    // so only outside autocast, and first clones the base result ("defensively", per Tim Dettmers).
    const bool convert = !fourBit || !policy.autocast();
    if (convert)
        xa = b.cast(x, policy.adapterType(), "lora.cast");
    if (fourBit)
        result = b.unary(result, UnaryFn::ScaleByConstant, "lora.clone");
    TensorId delta = kNoTensor;
    if (f.method == FinetuneMethod::DoRA) {
        // DoraLinearVariant.forward: with a dropout the base result is recomputed from dropout(x) instead.
        TensorId base = result;
        const TensorId xd = b.dropout(xa, f.loraDropout, "lora.dropout");
        if (xd != xa)
            base = b.linear(xd, w, kNoTensor, rows, in, out, "dora.base");
        delta = doraDelta(b, base, xd, ad, w, rows, in, out, r);
    } else {
        const TensorId xd = b.dropout(xa, f.loraDropout, "lora.dropout");
        const TensorId ha = b.linear(xd, ad.a, kNoTensor, rows, in, r, "lora.A");
        const TensorId hb = b.linear(ha, ad.b, kNoTensor, rows, r, out, "lora.B");
        delta = b.unary(hb, UnaryFn::ScaleByConstant, "lora.scale");
    }
    if (fourBit && convert)
        delta = b.cast(delta, resultType, "lora.cast");
    const TensorId y = b.add(result, delta, "lora.add");
    return b.cast(y, resultType, "lora.cast"); // result.to(torch_result_dtype)
}

} // namespace headroom
