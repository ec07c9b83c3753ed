// The sparse mixture-of-experts MLP as transformers writes it for Mixtral, Qwen2-MoE, Qwen3-MoE and OLMoE
// (MixtralSparseMoeBlock and its copies): a router, a top-k choice per token, the chosen experts' gated MLPs over the
// routed token copies, and their weighted sum. The experts are one grouped GEMM per projection (transformers'
// MixtralExperts with 3-D gate_up_proj / down_proj, Megatron's GroupedMLP); with uniform routing every expert gets
// topK * tokens / experts rows.

#include "transformerbuilder.h"

namespace headroom::detail {

TensorId TransformerBuilder::expertLinear(TensorId x, double rows, double in, double out, std::string_view name,
                                          Split split)
{
    const double experts = double(m.moe.experts) / ep;
    next(ParameterRole::Linear);
    const std::size_t first = g.params.size();
    const TensorId w = b.parameter(name, experts * in * out, true, in, out);
    if (tp > 1)
        shard(first, split);
    g.params[first].shards *= ep; // expert parallelism: this rank holds experts / ep of them
    g.params[first].expertShards = ep;
    g.params[first].activeShare = double(m.moe.topK) / m.moe.experts;
    if (b.tensor(w).dtype == DType::NF4)
        return b.linear4bit(x, w, kNoTensor, rows, in, out, policy.computeType(), name, experts);
    return b.groupedLinear(x, w, rows, in, out, experts, name);
}

TensorId TransformerBuilder::sharedExpert(TensorId x)
{
    // Qwen2MoeSparseMoeBlock: shared_expert is a dense gated MLP; its output is scaled by
    // sigmoid(shared_expert_gate(x)), a Linear(hidden, 1) without bias, and added to the routed experts'.
    const double width = m.moe.sharedFfn / double(tp);
    const TensorId gate = linearParam(x, h, width, false, "moe.shared.gate", Split::Column);
    const TensorId up = linearParam(x, h, width, false, "moe.shared.up", Split::Column);
    const TensorId prod = b.mul(activation(gate), up, "moe.shared.mul");
    const TensorId y = linearParam(prod, width, h, false, "moe.shared.down", Split::Row);
    const TensorId score = linearParam(x, h, 1.0, false, "moe.shared_gate");
    return b.mul(b.unary(score, UnaryFn::Sigmoid, "moe.shared_gate"), y, "moe.shared_gate");
}

TensorId TransformerBuilder::moe(TensorId input)
{
    const MoeSpec& e = m.moe;
    const double experts = e.experts, k = e.topK;
    std::int32_t firstOp = -1;
    TensorId sharded = kNoTensor;
    const TensorId x = columnInput(input, firstOp, sharded);
    const DType type = b.tensor(x).dtype;

    // router_logits = self.gate(hidden_states); softmax(router_logits, dim=1, dtype=torch.float); torch.topk.
    const TensorId logits = linearParam(x, h, experts, false, "moe.router");
    const TensorId probs = b.softmax(logits, s, experts, "moe.router", true);
    TensorId weights = b.pool(probs, s * k, experts / k, true, "moe.topk"); // TopkBackward keeps the indices
    if (e.normalizeTopK) // routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        weights = b.mul(weights, b.reduceMean(weights, 1.0 / k, "moe.topk_sum"), "moe.topk_norm");
    weights = b.cast(weights, type, "moe.weights_cast"); // routing_weights.to(hidden_states.dtype)

    // Each token is copied to its k experts (hidden_states[top_x], or Megatron's permutation and all-to-all).
    const double rows = s * e.rowsPerToken();
    const TensorId routed = b.repeat(x, e.rowsPerToken(), "moe.dispatch");
    if (ep > 1) // dispatch: (ep - 1) / ep of the copies leave the rank, forward and backward
        g.ops[std::size_t(g.tensors[routed].producer)].epMessage += g.tensors[routed].numel
            * (2.0 * bytesPerElement(type) * (ep - 1) / ep);
    const double width = e.expertFfn / double(tp);
    const TensorId gate = expertLinear(routed, rows, h, width, "moe.experts.gate", Split::Column);
    const TensorId up = expertLinear(routed, rows, h, width, "moe.experts.up", Split::Column);
    const TensorId prod = b.mul(activation(gate), up, "moe.experts.mul");
    const TensorId down = expertLinear(prod, rows, width, h, "moe.experts.down", Split::Row);
    // current_hidden_states * routing_weights[top_x, idx, None], then index_add_ back to one row per token.
    const TensorId scaled = b.mul(down, weights, "moe.scale");
    TensorId y = b.reduceMean(scaled, 1.0 / e.rowsPerToken(), "moe.combine");
    const std::int32_t combine = g.tensors[y].producer;
    if (ep > 1) // combine: the copies come back
        g.ops[std::size_t(combine)].epMessage += g.tensors[scaled].numel
            * (2.0 * bytesPerElement(type) * (ep - 1) / ep);
    if (!sp) {
        allReduce(combine, y);                    // the experts' down projection is row-parallel: partial sums
        allReduce(g.tensors[logits].producer, x); // the input's gradient, in backward
    }
    if (e.sharedFfn > 0)
        y = b.add(y, sharedExpert(x), "moe.shared_add");
    saveSharded(firstOp, x, sharded);
    return scatter(y);
}

} // namespace headroom::detail
