#include "hfconfig.h"

#include "hfarchitectures.h"
#include "jsonreader.h"
#include "modelgraph.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace headroom {

using detail::ObjectReader;
using detail::ParseFailure;
using nlohmann::json;

namespace {

    using namespace detail::hf;

    struct Architecture {
        std::string_view className; // the `architectures` entry
        std::string_view modelType; // the `model_type` value
        Imported (*read)(const ObjectReader&);
        HeadKind head = HeadKind::None; // the task head the class puts on the backbone; None keeps read()'s
    };

    // The class a checkpoint of a model type is trained as comes first (a config with only `model_type` gets it);
    // then the text-classification classes over the same backbones. Other classes (BertModel with its pooler
    // alone, question answering) are refused rather than counted wrongly.
    constexpr HeadKind kSeq = HeadKind::SequenceClassification;
    constexpr HeadKind kTok = HeadKind::TokenClassification;
    constexpr Architecture kArchitectures[] = {
        { "BertForMaskedLM", "bert", &readBert },
        { "RobertaForMaskedLM", "roberta", &readRoberta },
        { "GPT2LMHeadModel", "gpt2", &readGpt2 },
        { "GPTNeoXForCausalLM", "gpt_neox", &readGptNeoX },
        { "LlamaForCausalLM", "llama", &readLlama },
        { "MistralForCausalLM", "mistral", &readMistral },
        { "Qwen2ForCausalLM", "qwen2", &readQwen2 },
        { "Qwen3ForCausalLM", "qwen3", &readQwen3 },
        { "MixtralForCausalLM", "mixtral", &readMixtral },
        { "Qwen2MoeForCausalLM", "qwen2_moe", &readQwen2Moe },
        { "Qwen3MoeForCausalLM", "qwen3_moe", &readQwen3Moe },
        { "OlmoeForCausalLM", "olmoe", &readOlmoe },
        { "ViTForImageClassification", "vit", &readVit },
        { "BertForSequenceClassification", "bert", &readBert, kSeq },
        { "BertForTokenClassification", "bert", &readBert, kTok },
        { "RobertaForSequenceClassification", "roberta", &readRoberta, kSeq },
        { "RobertaForTokenClassification", "roberta", &readRoberta, kTok },
        { "GPT2ForSequenceClassification", "gpt2", &readGpt2, kSeq },
        { "GPT2ForTokenClassification", "gpt2", &readGpt2, kTok },
        { "LlamaForSequenceClassification", "llama", &readLlama, kSeq },
        { "LlamaForTokenClassification", "llama", &readLlama, kTok },
        { "MistralForSequenceClassification", "mistral", &readMistral, kSeq },
        { "MistralForTokenClassification", "mistral", &readMistral, kTok },
        { "Qwen2ForSequenceClassification", "qwen2", &readQwen2, kSeq },
        { "Qwen2ForTokenClassification", "qwen2", &readQwen2, kTok },
    };

    Imported readArchitecture(const ObjectReader& r, const Architecture& a)
    {
        Imported m = a.read(r);
        if (a.head != HeadKind::None) {
            m.t.head = a.head;
            m.t.classes = labelCount(r);
            m.t.tiedEmbeddings = false; // the vocabulary projection is gone; nothing ties to the embeddings
        }
        return m;
    }

    // Tokens (or the image side) the estimate starts from: the checkpoint's context, capped so that a 32k-context
    // model opens on a sequence people train at.
    constexpr std::int64_t kDefaultSequenceCap = 4096;

    // `architectures` names the class that from_pretrained builds; `model_type` names the config class. Either
    // identifies the model here, and when both are given they must agree.
    const Architecture& resolveArchitecture(const ObjectReader& r)
    {
        std::string className;
        if (r.has("architectures")) {
            const json& list = r.array("architectures", 64);
            if (list.empty() || !list[0].is_string())
                r.fail("architectures", "must list the model's class name as a string");
            className = list[0].get<std::string>();
        }
        const std::string modelType = r.stringOr("model_type", "", 64);
        if (className.empty() && modelType.empty())
            r.fail("model_type",
                   "is required (or \"architectures\"); supported: " + supportedHuggingFaceArchitectures());
        for (const Architecture& a : kArchitectures) {
            if (className.empty() ? a.modelType != modelType : a.className != className)
                continue;
            if (!modelType.empty() && a.modelType != modelType) {
                r.fail("model_type",
                       "is \"" + modelType + "\", but architectures[0] " + std::string(a.className) + " is a \""
                           + std::string(a.modelType) + "\" model");
            }
            return a;
        }
        if (!className.empty()) {
            throw ParseFailure { r.path("architectures") + "[0]",
                                 "\"" + className
                                     + "\" is not supported; supported: " + supportedHuggingFaceArchitectures() };
        }
        r.fail("model_type",
               "\"" + modelType + "\" is not supported; supported: " + supportedHuggingFaceArchitectures());
    }

    // Model ids are lowercase letters, digits, '-', '_' and '.' (modelspec.cpp): "Llama-2-7b-hf" -> "llama-2-7b-hf".
    std::string modelId(std::string_view hint, std::string_view fallback)
    {
        std::string id;
        for (char c : hint.substr(0, 64)) {
            const char l = char(std::tolower(static_cast<unsigned char>(c)));
            const bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '-' || l == '_' || l == '.';
            id += ok ? l : '-';
        }
        return id.empty() ? std::string(fallback) : id;
    }

    std::string truncated(std::string s, std::size_t n)
    {
        if (s.size() > n)
            s.resize(n);
        return s;
    }

    ModelSpec assemble(const ObjectReader& r, const Architecture& a, const Imported& imported, std::string_view origin,
                       std::string_view idHint)
    {
        ModelSpec m;
        m.family = ModelFamily::Transformer;
        m.transformer = imported.t;
        m.id = modelId(idHint, a.modelType);
        // save_pretrained records where the weights came from; fine-tuned checkpoints often hold a local path.
        const json* source = r.find("_name_or_path");
        const std::string checkpoint = source && source->is_string() && !source->get<std::string>().empty()
            ? truncated(source->get<std::string>(), 200)
            : std::string(idHint.substr(0, 200));
        m.name = truncated((checkpoint.empty() ? std::string(a.className) : checkpoint) + " (Hugging Face config)",
                           200);
        const bool vision = m.transformer.input == InputKind::Patches;
        m.defaultSequence = int(vision ? imported.sequence : std::min(imported.sequence, kDefaultSequenceCap));
        m.description = truncated("Imported from the Hugging Face config " + std::string(origin) + ", as transformers "
                                      + std::string(a.className) + " builds it." + imported.notes,
                                  8192);
        m.reference.implementation = "transformers " + std::string(a.className);
        m.reference.checkpoint = checkpoint;
        TrainingConfig config;
        config.sequenceLength = m.defaultSequence;
        // A model file records at most kMaxModelParameters: refuse a bigger model here, as the config's fault, rather
        // than fail the re-read in importHuggingFaceConfig as if the importer were wrong.
        const double parameters = buildGraph(m, config).parameterCount();
        if (parameters > double(kMaxModelParameters)) {
            throw ParseFailure { "",
                                 "describes a model of " + detail::formatNumber(parameters)
                                     + " parameters; the limit is " + detail::formatNumber(double(kMaxModelParameters))
                                     + " (2^50)" };
        }
        m.reference.parameters = std::llround(parameters);
        m.reference.parametersSource = truncated("exact count of the parameters transformers "
                                                     + std::string(a.className) + " builds from " + std::string(origin)
                                                     + " (imported Hugging Face config; not a published figure)",
                                                 2048);
        return m;
    }

} // namespace

std::string supportedHuggingFaceArchitectures()
{
    std::string s;
    for (const Architecture& a : kArchitectures)
        s += (s.empty() ? "" : ", ") + std::string(a.className) + " (" + std::string(a.modelType) + ")";
    return s;
}

Expected<ModelSpec> importHuggingFaceConfig(std::string_view jsonText, std::string_view origin, std::string_view idHint)
{
    try {
        const json doc = detail::parseDocument(jsonText);
        const ObjectReader r(doc, "");
        const Architecture& a = resolveArchitecture(r);
        const ModelSpec m = assemble(r, a, readArchitecture(r, a), origin, idHint);
        // The result must be a model Headroom reads back unchanged (so that it can be saved as a model file); a
        // failure here is a bug in the importer, not in the user's file.
        auto reread = parseModelSpec(serializeModelSpec(m), origin);
        if (!reread) {
            return Error { std::string(origin), "", "imported model is inconsistent: " + reread.error().toString(),
                           ErrorKind::Internal };
        }
        return m;
    } catch (const ParseFailure& f) {
        return Error { std::string(origin), f.field, f.message };
    } catch (const std::exception& e) {
        return Error { std::string(origin), "", e.what() };
    }
}

Expected<ModelSpec> importModelJson(std::string_view jsonText, std::string_view origin, std::string_view idHint)
{
    try {
        const json doc = detail::parseDocument(jsonText);
        if (doc.is_object() && doc.contains("format"))
            return parseModelSpec(jsonText, origin);
        if (doc.is_object() && (doc.contains("model_type") || doc.contains("architectures")))
            return importHuggingFaceConfig(jsonText, origin, idHint);
        return Error {
            std::string(origin), "",
            "neither a Headroom model file (no \"format\") nor a Hugging Face config.json (no \"model_type\" "
            "or \"architectures\")"
        };
    } catch (const ParseFailure& f) {
        return Error { std::string(origin), f.field, f.message };
    }
}

} // namespace headroom
