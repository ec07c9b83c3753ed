#include "infercommand.h"

#include "catalogloader.h"
#include "estimatecommand.h"
#include "gguf.h"
#include "inferencereport.h"
#include "modelimport.h"
#include "optionparse.h"
#include "simulate.h"
#include "units.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QTextStream>

namespace headroom {

namespace {

    // The defaults: the explainer's laptop GPU at its datasheet figures, and the 7B model its readers ask about.
    constexpr const char* kDefaultGpu = "rtx-a3000-12gb-laptop";
    constexpr const char* kDefaultModel = "llama-2-7b";

    QCommandLineOption option(const char* name, const char* description, const char* value = nullptr)
    {
        return value
            ? QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(description), QString::fromLatin1(value))
            : QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(description));
    }

    struct Options {
        QCommandLineOption gpu = option("gpu", "GPU id (default: rtx-a3000-12gb-laptop; see `headroom list gpus`).",
                                        "id");
        QCommandLineOption model
            = option("model",
                     "Decoder preset id (default: llama-2-7b), a Headroom model JSON file, a Hugging Face "
                     "config.json or a checkpoint directory.",
                     "id|path");
        QCommandLineOption batch = option("batch", "Sequences decoded together (default 1).", "N");
        QCommandLineOption prompt = option("prompt", "Prompt tokens per sequence (default 512).", "N");
        QCommandLineOption generate = option("generate", "Generated tokens per sequence (default 128).", "N");
        QCommandLineOption weights = option("weights", "Weight format (default fp16).", "format");
        QCommandLineOption group = option("group-size", "GPTQ/AWQ group (default 128) or NF4 block (default 64).", "N");
        QCommandLineOption kv = option("kv-cache", "KV cache element: fp16 (default), fp8, int8, q8_0 or q4_0.",
                                       "type");
        QCommandLineOption tp = option("tp", "Tensor-parallel GPUs (default 1): memory and time per GPU.", "N");
        QCommandLineOption attention = option("attention",
                                              "fused (FlashAttention, default) or eager (the scores are materialised).",
                                              "impl");
        QCommandLineOption engine = option("engine",
                                           "What runs the model: auto (default: llama.cpp for a GGUF format, else "
                                           "roofline), roofline, llama.cpp (CUDA graphs, as build 2837 of May 2024), "
                                           "llama.cpp-no-graphs (as build 1680 of Dec 2023) or transformers (eager "
                                           "generate): sets the kernels, their floors and bandwidth, and host time.",
                                           "name");
        QCommandLineOption kvBlock = option("kv-block",
                                            "KV cache block in tokens (default 16, vLLM's; 1 for a contiguous cache).",
                                            "N");
        QCommandLineOption utilization = option(
            "gpu-memory-utilization",
            "Fraction of the capacity the engine may use (vLLM; default 1): the rest is its reserve.", "fraction");
        QCommandLineOption overhead = option("overhead-mib",
                                             "CUDA context and workspaces in MiB (default: the GPU "
                                             "file's).",
                                             "MiB");
        QCommandLineOption memory = option("memory-gib", "What-if: override the GPU's memory capacity (GiB).", "GiB");
        QCommandLineOption bandwidth = option("bandwidth-gbps",
                                              "What-if: override the memory bandwidth (GB/s), e.g. 392.", "GB/s");
        QCommandLineOption json = option("json", "Print the result as JSON.");
        QCommandLineOption failIfOom = option("fail-if-oom", "Exit with status 3 when it does not fit.");

        void addTo(QCommandLineParser& p) const
        {
            p.addOptions({ gpu, model, batch, prompt, generate, weights, group, kv, tp, attention, engine, kvBlock,
                           utilization, overhead, memory, bandwidth, json, failIfOom });
        }
    };

    std::optional<QString> readConfig(const QCommandLineParser& p, const Options& o, InferenceScenario* s)
    {
        InferenceConfig& c = s->config;
        std::optional<QString> e;
        std::int64_t n = 0;
        double d = 0.0;
        if ((e = integer(p, o.batch, 1, kMaxInferenceBatch, &c.batch))
            || (e = integer(p, o.prompt, 1, kMaxInferenceTokens, &c.prompt))
            || (e = integer(p, o.generate, 1, kMaxInferenceTokens, &c.generate)))
            return e;
        const std::string formats(kWeightFormatChoices);
        if ((e = choice(p, o.weights, &weightFormatFromString, formats.c_str(), &c.weights))
            || (e = choice(p, o.kv, &kvCacheTypeFromString, "fp16, fp8, int8, q8_0, q4_0", &c.kvCache))
            || (e = choice(p, o.attention, &attentionFromString, "eager, fused", &c.attention))
            || (e = choice(p, o.engine, &inferenceEngineFromString, std::string(kInferenceEngineChoices).c_str(),
                           &c.engine)))
            return e;
        n = c.groupSize;
        if ((e = integer(p, o.group, 1, 1 << 20, &n)))
            return e;
        c.groupSize = int(n);
        n = c.tensorParallel;
        if ((e = integer(p, o.tp, 1, 1024, &n)))
            return e;
        c.tensorParallel = int(n);
        n = c.kvBlockTokens;
        if ((e = integer(p, o.kvBlock, 1, 65536, &n)))
            return e;
        c.kvBlockTokens = int(n);
        if ((e = number(p, o.utilization, 0.01, 1, &c.memoryUtilization)))
            return e;
        if (p.isSet(o.overhead)) {
            if ((e = number(p, o.overhead, 0, 1 << 20, &d)))
                return e;
            c.overheadBytes = units::fromMiB(d);
        }
        if (p.isSet(o.memory)) {
            if ((e = number(p, o.memory, 0.001, 1 << 20, &d)))
                return e;
            s->overrides.memoryBytes = units::fromGiB(d);
            s->overrides.note = "what-if capacity from the command line";
        }
        if (p.isSet(o.bandwidth)) {
            if ((e = number(p, o.bandwidth, 0.001, 1e7, &d)))
                return e;
            s->overrides.bandwidthBytesPerSecond = d * 1e9;
            s->overrides.note = "what-if bandwidth from the command line";
        }
        return std::nullopt;
    }

    // A .gguf file: the decoder its header describes, with the tensor types it stores.
    std::optional<QString> readGguf(const QString& path, Catalog& catalog, ModelSpec* model,
                                    std::optional<GgufFile>* gguf)
    {
        GgufFile file;
        if (auto e = readGgufHeader(path, &file))
            return QStringLiteral("--model: %1").arg(*e);
        auto m = ggufModel(file, QFileInfo(path).completeBaseName().toStdString(), path.toStdString());
        if (!m)
            return QStringLiteral("--model: %1").arg(QString::fromStdString(m.error().toString()));
        *model = *m;
        catalog.addModel(*model);
        *gguf = std::move(file);
        return std::nullopt;
    }

} // namespace

int runInfer(const QStringList& arguments)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral(
            "Memory, fit and speed of serving a decoder-only language model: weights in their stored format, the KV\n"
            "cache, prefill and decode activations; prefill time and decode time per token on the roofline, with the\n"
            "engine's kernel floors and host time.\n"
            "Weight formats: %1.")
            .arg(QLatin1String(kWeightFormatChoices.data(), qsizetype(kWeightFormatChoices.size()))));
    p.addHelpOption();
    const Options o;
    o.addTo(p);
    p.addPositionalArgument(QStringLiteral("infer"), QStringLiteral("The command."));
    if (!p.parse(arguments)) {
        err << "headroom infer: " << p.errorText() << "\n";
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        out << p.helpText();
        return 0;
    }
    if (p.positionalArguments().size() > 1) {
        err << "headroom infer: unexpected argument \"" << p.positionalArguments().at(1) << "\"\n";
        return 2;
    }
    LoadReport report;
    Catalog catalog = CatalogLoader::withUserData(&report);
    for (const QString& e : report.errors)
        err << "warning: " << e << "\n";
    InferenceScenario s;
    s.gpuId = p.isSet(o.gpu) ? p.value(o.gpu).toStdString() : kDefaultGpu;
    ModelSpec model;
    std::optional<GgufFile> gguf;
    const QString modelValue = p.isSet(o.model) ? p.value(o.model) : QString::fromLatin1(kDefaultModel);
    auto e = modelValue.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive)
        ? readGguf(modelValue, catalog, &model, &gguf)
        : resolveModelOption(modelValue, catalog, &model);
    if (!e)
        e = readConfig(p, o, &s);
    if (!e && gguf && p.isSet(o.weights))
        e = QStringLiteral("--weights: a .gguf model stores its own weight types (%1)")
                .arg(QString::fromStdString(ggufWeights(*gguf, 1).format));
    if (e) {
        err << "headroom infer: " << *e << "\n";
        return 2;
    }
    s.modelId = model.id;
    if (gguf)
        s.storedWeights = ggufWeights(*gguf, s.config.tensorParallel);
    const auto result = simulateInference(catalog, s);
    if (!result) {
        const Error& e = result.error();
        err << "headroom infer: "
            << (e.field.empty() ? QString()
                                : QStringLiteral("--%1: ").arg(
                                    QString::fromStdString(e.field).replace(QLatin1Char('_'), QLatin1Char('-'))))
            << QString::fromStdString(e.message) << "\n";
        return 2;
    }
    out << QString::fromStdString(p.isSet(o.json) ? inferenceToJson(*result, model) : inferenceToTable(*result, model));
    out.flush();
    return (p.isSet(o.failIfOom) && !result->fits) ? 3 : 0;
}

} // namespace headroom
