#include "modelspec.h"

#include "jsonreader.h"
#include "moespec.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace headroom {

using detail::ObjectReader;
using detail::ParseFailure;
using nlohmann::json;

namespace {

    constexpr std::int64_t kMaxLayers = kMaxModelLayers;
    constexpr std::int64_t kMaxWidth = kMaxModelWidth;
    constexpr std::int64_t kMaxVocab = kMaxModelVocab;
    constexpr std::size_t kMaxCnnLayers = 20000;

    const std::initializer_list<std::pair<std::string_view, NormKind>> kNorm { { "layernorm", NormKind::LayerNorm },
                                                                               { "rmsnorm", NormKind::RMSNorm } };
    const std::initializer_list<std::pair<std::string_view, NormImpl>> kNormImpl { { "fused", NormImpl::Fused },
                                                                                   { "upcast", NormImpl::Upcast } };
    const std::initializer_list<std::pair<std::string_view, Activation>> kAct {
        { "gelu", Activation::Gelu },
        { "gelu_tanh", Activation::GeluTanh },
        { "gelu_new", Activation::GeluComposite },
        { "quick_gelu", Activation::QuickGelu },
        { "silu", Activation::Silu },
        { "relu", Activation::Relu },
    };
    const std::initializer_list<std::pair<std::string_view, PositionKind>> kPos { { "learned", PositionKind::Learned },
                                                                                  { "rotary", PositionKind::Rotary },
                                                                                  { "none", PositionKind::None } };
    const std::initializer_list<std::pair<std::string_view, HeadKind>> kHead {
        { "causal_lm", HeadKind::CausalLM },
        { "masked_lm", HeadKind::MaskedLM },
        { "classifier", HeadKind::Classifier },
        { "sequence_classification", HeadKind::SequenceClassification },
        { "token_classification", HeadKind::TokenClassification },
        { "none", HeadKind::None }
    };
    const std::initializer_list<std::pair<std::string_view, InputKind>> kInput { { "tokens", InputKind::Tokens },
                                                                                 { "patches", InputKind::Patches } };
    const std::initializer_list<std::pair<std::string_view, ProbsCast>> kProbs {
        { "before_dropout", ProbsCast::BeforeDropout }, { "at_matmul", ProbsCast::AtMatmul }
    };
    const std::initializer_list<std::pair<std::string_view, QkNorm>> kQkNorm { { "none", QkNorm::None },
                                                                               { "per_head", QkNorm::PerHead },
                                                                               { "projection", QkNorm::Projection } };
    const std::initializer_list<std::pair<std::string_view, CnnOp>> kCnnOps {
        { "conv2d", CnnOp::Conv2d },
        { "batchnorm2d", CnnOp::BatchNorm2d },
        { "relu", CnnOp::Relu },
        { "relu6", CnnOp::Relu6 },
        { "silu", CnnOp::Silu },
        { "sigmoid", CnnOp::Sigmoid },
        { "maxpool2d", CnnOp::MaxPool2d },
        { "adaptive_avgpool2d", CnnOp::AdaptiveAvgPool2d },
        { "add", CnnOp::Add },
        { "mul", CnnOp::Mul },
        { "flatten", CnnOp::Flatten },
        { "linear", CnnOp::Linear },
        { "dropout", CnnOp::Dropout },
        { "stochastic_depth", CnnOp::StochasticDepth },
    };

    template <typename E>
    std::string_view nameOf(std::initializer_list<std::pair<std::string_view, E>> table, E v)
    {
        for (const auto& [n, e] : table) {
            if (e == v)
                return n;
        }
        return table.begin()->first;
    }

    bool validModelId(const std::string& id)
    {
        if (id.empty() || id.size() > 64)
            return false;
        return std::all_of(id.begin(), id.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
        });
    }

    TransformerSpec readTransformer(const ObjectReader& r)
    {
        TransformerSpec t;
        t.layers = int(r.integer("layers", 1, kMaxLayers));
        t.hidden = int(r.integer("hidden", 1, kMaxWidth));
        t.heads = int(r.integer("heads", 1, 65536));
        t.kvHeads = int(r.integerOr("kv_heads", t.heads, 1, 65536));
        t.headDim = int(r.integerOr("head_dim", 0, 0, 65536));
        if (t.headDim == 0 && t.hidden % t.heads != 0)
            r.fail("heads", "must divide hidden (" + std::to_string(t.hidden) + ") unless head_dim is given");
        if (t.heads % t.kvHeads != 0)
            r.fail("kv_heads", "must divide heads (" + std::to_string(t.heads) + "), got " + std::to_string(t.kvHeads));
        t.ffn = int(r.integer("ffn", 1, kMaxWidth * 16));
        t.vocab = r.integerOr("vocab", 0, 0, kMaxVocab);
        t.maxPositions = r.integerOr("max_positions", 0, 0, std::int64_t(1) << 24);
        t.typeVocab = int(r.integerOr("type_vocab", 0, 0, 1024));
        t.causal = r.boolean("causal");
        const std::string placement = r.stringOr("norm_position", "pre", 16);
        if (placement != "pre" && placement != "post")
            r.fail("norm_position", "unknown value \"" + placement + "\"; valid: pre, post");
        t.preNorm = placement == "pre";
        t.norm = r.choice("norm", kNorm);
        t.normImpl = r.choiceOr("norm_impl", NormImpl::Fused, kNormImpl);
        t.activation = r.choice("activation", kAct);
        t.gatedFfn = r.booleanOr("gated_ffn", false);
        t.position = r.choice("position", kPos);
        t.fusedQkv = r.booleanOr("fused_qkv", false);
        t.parallelResidual = r.booleanOr("parallel_residual", false);
        t.rotaryFraction = r.numberOr("rotary_fraction", 1.0, 0.0, 1.0);
        if (t.rotaryFraction <= 0.0)
            r.fail("rotary_fraction", "must be above 0 and at most 1, got 0");
        if (t.parallelResidual && !t.preNorm)
            r.fail("parallel_residual", "needs norm_position \"pre\"");
        if (auto bias = r.objectOr("bias")) {
            t.qkvBias = bias->booleanOr("qkv", true);
            t.outBias = bias->booleanOr("attn_out", true);
            t.ffnBias = bias->booleanOr("ffn", true);
            t.normBias = bias->booleanOr("norm", true);
        }
        t.embeddingNorm = r.booleanOr("embedding_norm", false);
        t.finalNorm = r.booleanOr("final_norm", t.preNorm);
        t.tiedEmbeddings = r.booleanOr("tied_embeddings", false);
        t.head = r.choice("head", kHead);
        t.headBias = r.booleanOr("head_bias", false);
        t.classes = int(r.integerOr("classes", 0, 0, 1 << 24));
        t.probsCast = r.choiceOr("probs_cast", ProbsCast::BeforeDropout, kProbs);
        t.softmaxFp32 = r.booleanOr("softmax_fp32", false);
        t.qkNorm = r.choiceOr("qk_norm", QkNorm::None, kQkNorm);
        if (t.qkNorm != QkNorm::None && t.norm != NormKind::RMSNorm)
            r.fail("qk_norm", "is an RMSNorm; the model's norm must be rmsnorm");
        if (auto moe = r.objectOr("moe")) {
            t.moe = detail::readMoe(*moe, t.layers);
            if (!t.gatedFfn)
                r.fail("moe", "experts are gated MLPs (Mixtral, Qwen-MoE, OLMoE); set gated_ffn to true");
            if (!t.preNorm || t.parallelResidual)
                r.fail("moe", "expert layers are modelled in sequential pre-norm blocks only");
        }
        if (auto drop = r.objectOr("dropout")) {
            t.embeddingDropout = drop->numberOr("embedding", 0.0, 0.0, 0.999);
            t.attentionDropout = drop->numberOr("attention", 0.0, 0.0, 0.999);
            t.hiddenDropout = drop->numberOr("hidden", 0.0, 0.0, 0.999);
            t.ffnDropout = drop->numberOr("ffn", 0.0, 0.0, 0.999);
        }
        t.input = r.choiceOr("input", InputKind::Tokens, kInput);
        if (t.input == InputKind::Patches) {
            t.imageSize = int(r.integer("image_size", 1, 65536));
            t.patchSize = int(r.integer("patch_size", 1, 4096));
            t.channels = int(r.integerOr("channels", 3, 1, 4096));
            t.classToken = r.booleanOr("class_token", true);
            t.positionsFollowImage = r.booleanOr("positions_follow_image", true);
            if (t.patchSize > t.imageSize)
                r.fail("patch_size", "is larger than image_size");
        } else {
            if (t.vocab < 1)
                r.fail("vocab", "is required for token inputs");
        }
        if (t.position == PositionKind::Learned && t.input == InputKind::Tokens && t.maxPositions < 1)
            r.fail("max_positions", "is required with learned positions");
        const bool classifies = t.head == HeadKind::Classifier || t.head == HeadKind::SequenceClassification
            || t.head == HeadKind::TokenClassification;
        if (classifies && t.classes < 1)
            r.fail("classes", "is required for a classifier head");
        if ((t.head == HeadKind::CausalLM || t.head == HeadKind::MaskedLM) && t.input != InputKind::Tokens)
            r.fail("head", "a language-model head needs token inputs");
        if ((t.head == HeadKind::SequenceClassification || t.head == HeadKind::TokenClassification)
            && t.input != InputKind::Tokens)
            r.fail("head", "a text-classification head needs token inputs");
        if (t.tiedEmbeddings && t.input != InputKind::Tokens)
            r.fail("tied_embeddings", "needs token inputs");
        return t;
    }

    CnnSpec readCnn(const ObjectReader& r)
    {
        CnnSpec c;
        c.channels = int(r.integerOr("channels", 3, 1, 4096));
        c.imageSize = int(r.integer("image_size", 1, 65536));
        const json& layers = r.array("layers", kMaxCnnLayers);
        if (layers.empty())
            r.fail("layers", "must not be empty");
        std::map<std::string, int> byName;
        bool sawLinear = false;
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const ObjectReader l(layers[i], r.path("layers") + "[" + std::to_string(i) + "]");
            CnnLayer L;
            L.name = l.string("name", 200);
            if (L.name.empty() || L.name == "input")
                l.fail("name", "must be a non-empty name other than \"input\"");
            if (byName.count(L.name))
                l.fail("name", "repeats the name \"" + L.name + "\"");
            L.op = l.choice("op", kCnnOps);
            if (l.has("inputs")) {
                const json& ins = l.array("inputs", 2);
                for (const json& in : ins) {
                    if (!in.is_string())
                        l.fail("inputs", "must list layer names as strings");
                    const std::string ref = in.get<std::string>();
                    if (ref == "input") {
                        L.inputs.push_back(-1);
                        continue;
                    }
                    auto it = byName.find(ref);
                    if (it == byName.end())
                        l.fail("inputs", "names \"" + ref + "\", which is not an earlier layer");
                    L.inputs.push_back(it->second);
                }
            }
            if ((L.op == CnnOp::Add || L.op == CnnOp::Mul) && L.inputs.size() != 2)
                l.fail("inputs", "an add or mul layer needs two inputs");
            if (L.op == CnnOp::Conv2d) {
                L.outChannels = int(l.integer("out_channels", 1, kMaxWidth));
                L.kernel = int(l.integer("kernel", 1, 64));
                L.stride = int(l.integerOr("stride", 1, 1, 64));
                L.padding = int(l.integerOr("padding", 0, 0, 64));
                L.groups = int(l.integerOr("groups", 1, 1, kMaxWidth));
                L.bias = l.booleanOr("bias", false);
            } else if (L.op == CnnOp::Linear) {
                L.outChannels = int(l.integer("out_features", 1, kMaxWidth * 16));
                L.bias = l.booleanOr("bias", true);
                sawLinear = true;
            } else if (L.op == CnnOp::MaxPool2d) {
                L.kernel = int(l.integer("kernel", 1, 64));
                L.stride = int(l.integerOr("stride", L.kernel, 1, 64));
                L.padding = int(l.integerOr("padding", 0, 0, 64));
            } else if (L.op == CnnOp::Dropout || L.op == CnnOp::StochasticDepth) {
                L.p = l.number("p", 0.0, 0.999);
            }
            L.inplace = l.booleanOr("inplace", false);
            byName.emplace(L.name, int(i));
            c.layers.push_back(std::move(L));
        }
        if (!sawLinear)
            r.fail("layers", "needs a linear classifier layer");
        return c;
    }

    json transformerJson(const TransformerSpec& t)
    {
        json j;
        j["layers"] = t.layers;
        j["hidden"] = t.hidden;
        j["heads"] = t.heads;
        j["kv_heads"] = t.kvHeads;
        if (t.headDim)
            j["head_dim"] = t.headDim;
        j["ffn"] = t.ffn;
        if (t.vocab)
            j["vocab"] = t.vocab;
        if (t.maxPositions)
            j["max_positions"] = t.maxPositions;
        if (t.typeVocab)
            j["type_vocab"] = t.typeVocab;
        j["causal"] = t.causal;
        j["norm_position"] = t.preNorm ? "pre" : "post";
        j["norm"] = nameOf(kNorm, t.norm);
        j["norm_impl"] = nameOf(kNormImpl, t.normImpl);
        j["activation"] = nameOf(kAct, t.activation);
        j["gated_ffn"] = t.gatedFfn;
        j["position"] = nameOf(kPos, t.position);
        j["fused_qkv"] = t.fusedQkv;
        if (t.parallelResidual)
            j["parallel_residual"] = true;
        if (t.rotaryFraction != 1.0)
            j["rotary_fraction"] = t.rotaryFraction;
        j["bias"] = { { "qkv", t.qkvBias }, { "attn_out", t.outBias }, { "ffn", t.ffnBias }, { "norm", t.normBias } };
        j["embedding_norm"] = t.embeddingNorm;
        j["final_norm"] = t.finalNorm;
        j["tied_embeddings"] = t.tiedEmbeddings;
        j["head"] = nameOf(kHead, t.head);
        j["head_bias"] = t.headBias;
        if (t.classes)
            j["classes"] = t.classes;
        j["probs_cast"] = nameOf(kProbs, t.probsCast);
        if (t.softmaxFp32)
            j["softmax_fp32"] = true;
        if (t.qkNorm != QkNorm::None)
            j["qk_norm"] = nameOf(kQkNorm, t.qkNorm);
        if (t.moe.any())
            j["moe"] = detail::moeJson(t.moe);
        j["dropout"] = { { "embedding", t.embeddingDropout },
                         { "attention", t.attentionDropout },
                         { "hidden", t.hiddenDropout },
                         { "ffn", t.ffnDropout } };
        j["input"] = nameOf(kInput, t.input);
        if (t.input == InputKind::Patches) {
            j["image_size"] = t.imageSize;
            j["patch_size"] = t.patchSize;
            j["channels"] = t.channels;
            j["class_token"] = t.classToken;
            if (!t.positionsFollowImage)
                j["positions_follow_image"] = false;
        }
        return j;
    }

    json cnnJson(const CnnSpec& c)
    {
        json j;
        j["channels"] = c.channels;
        j["image_size"] = c.imageSize;
        json layers = json::array();
        for (const auto& L : c.layers) {
            json l;
            l["name"] = L.name;
            l["op"] = nameOf(kCnnOps, L.op);
            if (!L.inputs.empty()) {
                json ins = json::array();
                for (int k : L.inputs)
                    ins.push_back(k < 0 ? std::string("input") : c.layers[k].name);
                l["inputs"] = ins;
            }
            switch (L.op) {
            case CnnOp::Conv2d:
                l["out_channels"] = L.outChannels;
                l["kernel"] = L.kernel;
                l["stride"] = L.stride;
                l["padding"] = L.padding;
                l["groups"] = L.groups;
                l["bias"] = L.bias;
                break;
            case CnnOp::Linear:
                l["out_features"] = L.outChannels;
                l["bias"] = L.bias;
                break;
            case CnnOp::MaxPool2d:
                l["kernel"] = L.kernel;
                l["stride"] = L.stride;
                l["padding"] = L.padding;
                break;
            case CnnOp::Dropout:
            case CnnOp::StochasticDepth:
                l["p"] = L.p;
                break;
            default:
                break;
            }
            if (L.inplace)
                l["inplace"] = true;
            layers.push_back(l);
        }
        j["layers"] = layers;
        return j;
    }

} // namespace

Expected<ModelSpec> parseModelSpec(std::string_view jsonText, std::string_view origin)
{
    try {
        const json doc = detail::parseDocument(jsonText);
        const ObjectReader r(doc, "");
        const std::string format = r.string("format", 64);
        if (format != "headroom-model")
            r.fail("format", "must be \"headroom-model\", got \"" + format + "\"");
        const std::int64_t version = r.integer("version", 1, 1000);
        if (version != 1)
            r.fail("version", "version " + std::to_string(version) + " is newer than this Headroom reads (1)");
        ModelSpec m;
        m.id = r.string("id", 64);
        if (!validModelId(m.id))
            r.fail("id",
                   "must be lowercase letters, digits, '-', '_' or '.', at most 64 characters, got \"" + m.id + "\"");
        m.name = r.string("name", 200);
        m.description = r.stringOr("description", "", 8192);
        if (auto ref = r.objectOr("reference")) {
            m.reference.implementation = ref->stringOr("implementation", "", 512);
            m.reference.checkpoint = ref->stringOr("checkpoint", "", 512);
            m.reference.url = ref->stringOr("url", "", 2048);
            m.reference.parameters = ref->integerOr("parameters", 0, 0, kMaxModelParameters);
            m.reference.parametersSource = ref->stringOr("parameters_source", "", 2048);
        }
        const std::string family = r.string("family", 32);
        if (family == "transformer") {
            m.family = ModelFamily::Transformer;
            m.transformer = readTransformer(r.object("transformer"));
            // A model with learned positions has no embedding past max_positions: its starting sequence stays within.
            const TransformerSpec& t = m.transformer;
            const bool learned = t.input == InputKind::Tokens && t.position == PositionKind::Learned;
            const std::int64_t fallback = t.input == InputKind::Patches ? t.imageSize
                : learned                                               ? std::min<std::int64_t>(512, t.maxPositions)
                                                                        : 512;
            m.defaultSequence = int(r.integerOr("default_sequence", fallback, 1, 1 << 24));
            if (learned && m.defaultSequence > t.maxPositions)
                m.defaultSequence = int(t.maxPositions); // where an estimate starts; longer is refused there
        } else if (family == "cnn") {
            m.family = ModelFamily::Cnn;
            m.cnn = readCnn(r.object("cnn"));
            m.defaultSequence = int(r.integerOr("default_sequence", m.cnn.imageSize, 1, 65536));
        } else {
            r.fail("family", "unknown value \"" + family + "\"; valid: transformer, cnn");
        }
        return m;
    } catch (const ParseFailure& f) {
        return Error { std::string(origin), f.field, f.message };
    } catch (const std::exception& e) {
        return Error { std::string(origin), "", e.what() };
    }
}

std::string serializeModelSpec(const ModelSpec& m)
{
    json j;
    j["format"] = "headroom-model";
    j["version"] = 1;
    j["id"] = m.id;
    j["name"] = m.name;
    if (!m.description.empty())
        j["description"] = m.description;
    json ref;
    if (!m.reference.implementation.empty())
        ref["implementation"] = m.reference.implementation;
    if (!m.reference.checkpoint.empty())
        ref["checkpoint"] = m.reference.checkpoint;
    if (!m.reference.url.empty())
        ref["url"] = m.reference.url;
    if (m.reference.parameters)
        ref["parameters"] = m.reference.parameters;
    if (!m.reference.parametersSource.empty())
        ref["parameters_source"] = m.reference.parametersSource;
    if (!ref.empty())
        j["reference"] = ref;
    j["default_sequence"] = m.defaultSequence;
    if (m.family == ModelFamily::Cnn) {
        j["family"] = "cnn";
        j["cnn"] = cnnJson(m.cnn);
    } else {
        j["family"] = "transformer";
        j["transformer"] = transformerJson(m.transformer);
    }
    return j.dump(2) + "\n";
}

double transformerTokens(const TransformerSpec& t, std::int64_t sequenceSetting)
{
    if (t.input == InputKind::Patches) {
        const double side = std::floor(double(sequenceSetting) / t.patchSize);
        return side * side + (t.classToken ? 1.0 : 0.0);
    }
    return double(sequenceSetting);
}

} // namespace headroom
