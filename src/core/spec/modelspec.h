#pragma once

// A model as its reference implementation builds it. Transformers are described by their hyper-parameters plus
// the implementation details that change memory (dropout rates, which head, tied embeddings, how the activation
// and the norm are written); CNNs by their real layer list. Parsed from the `headroom-model` JSON format.

#include "error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace headroom {

// Bounds the model reader enforces on sizes; importers of other formats (hfconfig.h) use the same ones.
inline constexpr std::int64_t kMaxModelLayers = 4096;
inline constexpr std::int64_t kMaxModelWidth = 1 << 20;
inline constexpr std::int64_t kMaxModelVocab = 1 << 24;
inline constexpr std::int64_t kMaxModelParameters = std::int64_t(1) << 50; // reference.parameters

enum class ModelFamily : std::uint8_t { Transformer, Cnn };

enum class NormKind : std::uint8_t { LayerNorm, RMSNorm };

// How the norm is written. `Fused` is one kernel (torch.nn.LayerNorm, apex/TE RMSNorm) that saves its input and
// FP32 statistics. `Upcast` is the Hugging Face LlamaRMSNorm: x.to(float32), pow, mean, rsqrt, mul, cast, mul,
// as separate autograd ops that save the FP32 input and the normalised tensor.
enum class NormImpl : std::uint8_t { Fused, Upcast };

// Activation as the reference code calls it. GeluComposite is transformers' NewGELUActivation ("gelu_new", used
// by GPT-2): 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))) written as tensor ops, so autograd saves four tensors.
enum class Activation : std::uint8_t { Gelu, GeluTanh, GeluComposite, QuickGelu, Silu, Relu };

enum class PositionKind : std::uint8_t { Learned, Rotary, None };
// Classifier is torchvision's image head; SequenceClassification and TokenClassification are transformers'
// *ForSequenceClassification (an encoder's pooler and classifier, a decoder's score at the last token) and
// *ForTokenClassification (dropout and a classifier at every token).
enum class HeadKind : std::uint8_t {
    CausalLM,
    MaskedLM,
    Classifier,
    None,
    SequenceClassification,
    TokenClassification
};
enum class InputKind : std::uint8_t { Tokens, Patches };

// Where eager attention casts the FP32 softmax output back to the value dtype under autocast:
// explicitly before the dropout (GPT-2, Llama: `.to(value.dtype)`) or implicitly at the second matmul (BERT).
enum class ProbsCast : std::uint8_t { BeforeDropout, AtMatmul };

// A sparse mixture-of-experts MLP (Mixtral, Qwen2-MoE, Qwen3-MoE, OLMoE). In each sparse layer a router (a bias-free
// Linear from hidden to `experts` logits, softmax in FP32) picks the top `topK` experts for every token; each
// expert is a gated MLP of width `expertFfn`. Parameters count every expert; compute only the chosen ones.
struct MoeSpec {
    int experts = 0; // routed experts per sparse layer; 0: every MLP is dense
    int topK = 0;
    int expertFfn = 0;            // moe_intermediate_size
    bool normalizeTopK = true;    // norm_topk_prob: the top-k weights are renormalised to sum to 1
    int sharedFfn = 0;            // Qwen2-MoE shared_expert_intermediate_size (with a sigmoid gate); 0: none
    int sparseStep = 1;           // decoder_sparse_step: layer l is sparse when (l + 1) % sparseStep == 0
    std::vector<int> denseLayers; // mlp_only_layers: dense whatever sparseStep says
    double capacityFactor = 0.0;  // 0: dropless; c > 0: every expert padded to c * topK * tokens / experts rows

    bool any() const { return experts > 0; }
    bool sparse(int layer) const;
    bool uniform(int layers) const; // every layer sparse, or none
    double rowsPerToken() const { return capacityFactor > 0.0 ? capacityFactor * topK : double(topK); }
};

// Normalisation of queries and keys before the rotary embedding: Qwen3's RMSNorm over each head's channels, OLMoE's
// RMSNorm over the whole projection.
enum class QkNorm : std::uint8_t { None, PerHead, Projection };

struct TransformerSpec {
    int layers = 12;
    int hidden = 768;
    int heads = 12;
    int kvHeads = 12;
    int headDim = 0; // 0 means hidden / heads
    int ffn = 3072;
    std::int64_t vocab = 50257;
    std::int64_t maxPositions = 1024;
    int typeVocab = 0; // BERT token types

    bool causal = true;
    bool preNorm = true;
    NormKind norm = NormKind::LayerNorm;
    NormImpl normImpl = NormImpl::Fused;
    Activation activation = Activation::Gelu;
    bool gatedFfn = false; // SwiGLU / GeGLU: act(gate(x)) * up(x)
    PositionKind position = PositionKind::Learned;
    bool fusedQkv = false;         // one projection producing Q, K and V (GPT-2 c_attn, torchvision in_proj)
    bool parallelResidual = false; // GPT-NeoX use_parallel_residual: x + attn(ln1(x)) + mlp(ln2(x))
    double rotaryFraction = 1.0;   // GPT-NeoX rotary_pct: RoPE on this fraction of each head's channels
    bool qkvBias = true;
    bool outBias = true;
    bool ffnBias = true;
    bool normBias = true;
    bool embeddingNorm = false; // BERT normalises the summed embeddings
    bool finalNorm = true;      // pre-norm stacks end with a norm
    bool tiedEmbeddings = true;
    HeadKind head = HeadKind::CausalLM;
    bool headBias = false; // bias of the output projection (BERT's decoder bias, ViT's classifier)
    int classes = 0;       // classifier outputs
    ProbsCast probsCast = ProbsCast::BeforeDropout;
    bool softmaxFp32 = false; // eager softmax(..., dtype=torch.float32).to(q.dtype): transformers' Llama family
    QkNorm qkNorm = QkNorm::None;
    MoeSpec moe;

    double embeddingDropout = 0.0;
    double attentionDropout = 0.0; // on the softmax probabilities
    double hiddenDropout = 0.0;    // after the attention output projection and after the FFN output
    double ffnDropout = 0.0;       // after the FFN activation (torchvision MLPBlock)

    InputKind input = InputKind::Tokens;
    int imageSize = 224;
    int patchSize = 16;
    int channels = 3;
    bool classToken = true;
    // The position embedding is built for the image the model runs on (torchvision's VisionTransformer(image_size=
    // ...)); false: it keeps image_size's positions and interpolates them to the image (HF ViT's
    // interpolate_pos_encoding), so its parameters stay those of image_size.
    bool positionsFollowImage = true;

    int effectiveHeadDim() const { return headDim > 0 ? headDim : hidden / heads; }
};

enum class CnnOp : std::uint8_t {
    Conv2d,
    BatchNorm2d,
    Relu,
    Relu6,
    Silu,
    Sigmoid,
    MaxPool2d,
    AdaptiveAvgPool2d, // to 1 x 1
    Add,
    Mul, // x * scale, scale broadcast over H x W (squeeze-and-excitation)
    Flatten,
    Linear,
    Dropout,
    StochasticDepth, // torchvision StochasticDepth(mode="row")
};

struct CnnLayer {
    std::string name;
    CnnOp op = CnnOp::Conv2d;
    std::vector<int> inputs; // indices of earlier layers; -1 is the image; empty means the previous layer
    int outChannels = 0;     // Conv2d; Linear: out features
    int kernel = 1;
    int stride = 1;
    int padding = 0;
    int groups = 1;
    bool bias = false;
    bool inplace = false;
    double p = 0.0; // Dropout / StochasticDepth probability
};

struct CnnSpec {
    int channels = 3;
    int imageSize = 224;
    std::vector<CnnLayer> layers;
};

struct ModelReference {
    std::string implementation; // "transformers BertForMaskedLM", "torchvision.models.resnet50"
    std::string checkpoint;     // "google-bert/bert-base-uncased"
    std::string url;
    std::int64_t parameters = 0; // published count
    std::string parametersSource;
};

struct ModelSpec {
    std::string id;
    std::string name;
    std::string description;
    ModelFamily family = ModelFamily::Transformer;
    ModelReference reference;
    int defaultSequence = 512; // tokens, or image side in pixels for vision models
    TransformerSpec transformer;
    CnnSpec cnn;

    bool isVision() const { return family == ModelFamily::Cnn || transformer.input == InputKind::Patches; }
};

Expected<ModelSpec> parseModelSpec(std::string_view jsonText, std::string_view origin);
std::string serializeModelSpec(const ModelSpec& model);

// Tokens per sample for a transformer at this sequence setting (patches plus class token for ViT).
double transformerTokens(const TransformerSpec& t, std::int64_t sequenceSetting);

} // namespace headroom
