#include "estimatecommand.h"

#include "allocatoroptions.h"
#include "baseline.h"
#include "catalogloader.h"
#include "finetuneoptions.h"
#include "measured.h"
#include "modelimport.h"
#include "optionparse.h"
#include "parallelismoptions.h"
#include "report.h"
#include "scenario.h"
#include "simulate.h"
#include "units.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <cmath>

namespace headroom {

namespace {

    QTextStream& out()
    {
        static QTextStream s(stdout);
        return s;
    }
    QTextStream& err()
    {
        static QTextStream s(stderr);
        return s;
    }

    const QCommandLineOption kScenario({ QStringLiteral("scenario") },
                                       QStringLiteral("Start from a scenario file (.headroom.json); the other options "
                                                      "change it."),
                                       QStringLiteral("file"));
    const QCommandLineOption kGpu({ QStringLiteral("gpu") }, QStringLiteral("GPU id (see `headroom list gpus`)."),
                                  QStringLiteral("id"));
    const QCommandLineOption
        kModel({ QStringLiteral("model") },
               QStringLiteral("Model preset id (see `headroom list models`), a Headroom model JSON file, a Hugging "
                              "Face config.json, or a checkpoint directory holding one."),
               QStringLiteral("id|path"));
    const QCommandLineOption kBatch(
        { QStringLiteral("batch") },
        QStringLiteral("Micro-batch size (default: 16, the default scenario's; 8 when --model picks another model)."),
        QStringLiteral("N"));
    const QCommandLineOption kSeq({ QStringLiteral("seq") },
                                  QStringLiteral("Sequence length in tokens, or image side in pixels for vision models "
                                                 "(default: the model's)."),
                                  QStringLiteral("N"));
    const QCommandLineOption
        kPrecision({ QStringLiteral("precision") },
                   QStringLiteral("fp32, tf32, fp16, bf16, bf16-pure or fp8 (default: fp16, the default scenario's)."),
                   QStringLiteral("p"));
    const QCommandLineOption kStyle({ QStringLiteral("mixed-style") },
                                    QStringLiteral("autocast (FP32 weights) or master-weights (16-bit weights, FP32 "
                                                   "master copy; DeepSpeed/Megatron)."),
                                    QStringLiteral("style"));
    const QCommandLineOption kMasterGrads({ QStringLiteral("master-grads") },
                                          QStringLiteral("Gradient storage with master-weights: fp32 or low."),
                                          QStringLiteral("g"));
    const QCommandLineOption kZero({ QStringLiteral("zero") }, QStringLiteral("ZeRO stage 0-3 (default 0)."),
                                   QStringLiteral("stage"));
    const QCommandLineOption kDp({ QStringLiteral("dp") }, QStringLiteral("Data-parallel GPUs (default 1)."),
                                 QStringLiteral("N"));
    const QCommandLineOption
        kSp({ QStringLiteral("sp") },
            QStringLiteral("With --tp: Megatron sequence parallelism (norms, dropouts and residuals "
                           "on 1/tp of the tokens per GPU)."));
    const QCommandLineOption kTp({ QStringLiteral("tp") },
                                 QStringLiteral("Tensor-parallel GPUs per model replica, Megatron-style (default 1); "
                                                "the job uses tp x pp x dp GPUs."),
                                 QStringLiteral("N"));
    const QCommandLineOption kOffload({ QStringLiteral("offload") },
                                      QStringLiteral("Keep optimizer states on the host (ZeRO-Offload)."));
    const QCommandLineOption kCkpt({ QStringLiteral("checkpointing") },
                                   QStringLiteral("Activation checkpointing: none, selective or full."),
                                   QStringLiteral("mode"));
    const QCommandLineOption kAttention({ QStringLiteral("attention") },
                                        QStringLiteral("eager (s x s scores saved) or fused (FlashAttention/SDPA)."),
                                        QStringLiteral("impl"));
    const QCommandLineOption
        kLoop({ QStringLiteral("loop") },
              QStringLiteral("The training loop: keep-outputs (default: output = model(x); loss = loss_fn(output, y); "
                             "loss.backward() keeps the logits through backward) or drop-outputs (HF Trainer: "
                             "freed after the loss)."),
              QStringLiteral("loop"));
    const QCommandLineOption
        kOptimizer({ QStringLiteral("optimizer") },
                   QStringLiteral("adamw, adam, sgd, sgd-momentum, adamw-8bit, adafactor, paged-adamw or "
                                  "paged-adamw-8bit."),
                   QStringLiteral("name"));
    const QCommandLineOption
        kAdamImpl({ QStringLiteral("adamw-impl") },
                  QStringLiteral("PyTorch's Adam/AdamW implementation: foreach (default, PyTorch's "
                                 "on CUDA), for-loop or fused."),
                  QStringLiteral("impl"));
    const QCommandLineOption kGradAccum({ QStringLiteral("grad-accum") },
                                        QStringLiteral("Gradient accumulation steps (default 1)."),
                                        QStringLiteral("N"));
    const QCommandLineOption
        kChannelsLast({ QStringLiteral("channels-last") },
                      QStringLiteral("Convolutions on torch.channels_last (NHWC) tensors: no layout transposes around "
                                     "tensor-core convolutions (time only)."));
    const QCommandLineOption kHostSpeed(
        { QStringLiteral("host-speed") },
        QStringLiteral("The CPU issuing the kernels against the calibrated one (default 1; 0.5: half as fast, "
                       "a laptop CPU) (time only)."),
        QStringLiteral("x"));
    const QCommandLineOption
        kExecution({ QStringLiteral("execution") },
                   QStringLiteral("eager (default: the host issues every operator) or cuda-graphs (the step replayed "
                                  "as a CUDA graph, torch.compile mode=\"reduce-overhead\") (time only)."),
                   QStringLiteral("mode"));
    const QCommandLineOption kMemory({ QStringLiteral("memory-gib") },
                                     QStringLiteral("What-if: override the GPU's memory capacity (GiB)."),
                                     QStringLiteral("GiB"));
    const QCommandLineOption kBandwidth({ QStringLiteral("bandwidth-gbps") },
                                        QStringLiteral("What-if: override the memory bandwidth (GB/s)."),
                                        QStringLiteral("GB/s"));
    const QCommandLineOption kPeak({ QStringLiteral("peak-tflops") },
                                   QStringLiteral("What-if: override the peak of the precision in use (TFLOP/s)."),
                                   QStringLiteral("TFLOP/s"));
    const QCommandLineOption kDatasheet({ QStringLiteral("datasheet") },
                                        QStringLiteral("Use the GPU's datasheet figures, without the default "
                                                       "scenario's what-if bandwidth."));

    // --measured: the file, parsed; with no scenario option given, the estimate takes the file's scenario, else the
    // two must agree on model, batch, sequence and precision (measured.h checkMeasuredScenario). Unless --gpu or
    // --scenario chose one, the GPU is the file's CUDA device (devicename.h); a name that fits several files, or
    // none, is refused.
    std::optional<QString> readMeasured(const QString& path, bool adopt, bool gpuChosen, bool whatIfGiven,
                                        bool loopGiven, Catalog& catalog, ResolvedScenario* r, Measured* out)
    {
        QByteArray text;
        if (auto e = CatalogLoader::readFile(path, &text, 4 << 20))
            return QStringLiteral("--measured: %1").arg(*e);
        auto m = parseMeasured(std::string_view(text.constData(), std::size_t(text.size())), path.toStdString());
        if (!m)
            return QStringLiteral("--measured: %1").arg(QString::fromStdString(m.error().toString()));
        *out = *m;
        if (!gpuChosen && !measuredOnCpu(*m)) {
            const DeviceMatch d = measuredDevice(catalog, *m);
            if (!d.unique()) {
                QStringList ids;
                for (const std::string& id : d.ids)
                    ids << QString::fromStdString(id);
                return QStringLiteral("--measured: %1: device.name: \"%2\" is %3; give --gpu with the GPU it ran on")
                    .arg(path, QString::fromStdString(m->deviceName),
                         ids.isEmpty() ? QStringLiteral("none of the GPU files")
                                       : QStringLiteral("any of %1").arg(ids.join(QStringLiteral(", "))));
            }
            r->scenario.gpuId = d.ids.front();
            r->gpu = catalog.gpu(r->scenario.gpuId);
        }
        // A GPU run is compared with its GPU's own figures: no what-if (the default scenario's 392 GB/s included)
        // unless the command line gives one.
        if (!measuredOnCpu(*m) && !whatIfGiven)
            r->scenario.overrides = {};
        if (adopt) {
            const ModelSpec* model = catalog.model(m->modelId);
            if (!model)
                return QStringLiteral("--measured: %1: scenario.model: \"%2\" is not a preset; give --model with "
                                      "its model file and the measured scenario's options")
                    .arg(path, QString::fromStdString(m->modelId));
            r->model = *model;
            r->scenario.modelId = m->modelId;
            applyMeasuredScenario(*m, r->scenario.config);
            if (auto invalid = validateForModel(r->model, r->scenario.config, path.toStdString()))
                return QStringLiteral("--measured: %1").arg(QString::fromStdString(invalid->toString()));
            return std::nullopt;
        }
        if (auto e = checkMeasuredScenario(*m, r->scenario.modelId, r->scenario.config, path.toStdString()))
            return QStringLiteral("--measured: %1").arg(QString::fromStdString(e->toString()));
        if (measuredOnCpu(*m))
            r->scenario.config.kernels = KernelBackend::Cpu;
        // The run's PyTorch and transformers, and its loop unless --loop says which loop to predict.
        applyMeasuredReleases(*m, r->scenario.config);
        if (!loopGiven)
            r->scenario.config.loop = m->loop;
        return std::nullopt;
    }

} // namespace

std::optional<QString> resolveModelOption(const QString& value, Catalog& catalog, ModelSpec* out)
{
    if (const ModelSpec* m = catalog.model(value.toStdString())) {
        *out = *m;
        return std::nullopt;
    }
    if (value.endsWith(QLatin1String(".json")) || value.contains(QLatin1Char('/')) || QFileInfo::exists(value)) {
        if (auto e = importModelFile(value, out))
            return QStringLiteral("--model: %1").arg(*e);
        catalog.addModel(*out); // simulate() finds every model in the catalog
        return std::nullopt;
    }
    return QStringLiteral("--model: unknown model \"%1\" (not a preset id, a .json file or a directory); valid ids: %2")
        .arg(value, QString::fromStdString(catalog.modelIds()));
}

void addScenarioOptions(QCommandLineParser& parser)
{
    parser.addOptions({ kScenario,    kGpu,          kModel,     kBatch,     kSeq,    kPrecision, kStyle,
                        kMasterGrads, kZero,         kDp,        kTp,        kSp,     kOffload,   kCkpt,
                        kAttention,   kOptimizer,    kAdamImpl,  kGradAccum, kMemory, kBandwidth, kPeak,
                        kDatasheet,   kChannelsLast, kHostSpeed, kExecution, kLoop });
    addAllocatorOptions(parser);
    addFinetuneOptions(parser);
    addParallelismOptions(parser);
}

std::optional<QString> applyGpuAndModel(const QString& gpu, const QString& model, Catalog& catalog, Scenario& s,
                                        ModelSpec* modelOut, const QString& origin)
{
    const bool sameGpu = gpu.isEmpty() || gpu.toStdString() == s.gpuId;
    if (!sameGpu)
        s.gpuId = gpu.toStdString();
    // An id from the scenario file is that file's field, not an option the user did not pass.
    const QString where = origin.isEmpty() ? QString() : origin + QStringLiteral(": ");
    if (!catalog.gpu(s.gpuId)) {
        return ((sameGpu && !origin.isEmpty() ? where + QStringLiteral("gpu") : QStringLiteral("--gpu"))
                + QStringLiteral(": unknown GPU id \"%1\"; valid: %2"))
            .arg(QString::fromStdString(s.gpuId), QString::fromStdString(catalog.gpuIds()));
    }
    // A scenario's what-if figures belong to its GPU; another GPU starts from its datasheet.
    if (!sameGpu)
        s.overrides = {};
    if (!model.isEmpty() && model.toStdString() != s.modelId) {
        if (auto e = resolveModelOption(model, catalog, modelOut))
            return e;
        s.modelId = modelOut->id;
        s.config.microBatch = 8;
        s.config.sequenceLength = modelOut->defaultSequence;
        return std::nullopt;
    }
    const ModelSpec* m = catalog.model(s.modelId);
    if (!m)
        return (where + QStringLiteral("model: unknown model \"%1\"; valid ids: %2"))
            .arg(QString::fromStdString(s.modelId), QString::fromStdString(catalog.modelIds()));
    *modelOut = *m;
    return std::nullopt;
}

namespace {

    // The training settings of `headroom estimate` (batch, precision, ZeRO, checkpointing, optimizer, host,
    // allocator), each checked as it is read.
    std::optional<QString> readTrainingOptions(const QCommandLineParser& p, TrainingConfig& c)
    {
        double d = 0.0;
        std::optional<QString> e;
        if ((e = integer(p, kBatch, 1, qint64(1) << 40, &c.microBatch)))
            return e;
        if ((e = integer(p, kSeq, 1, qint64(1) << 30, &c.sequenceLength)))
            return e;
        if ((e = choice(p, kPrecision, &precisionFromString, "fp32, tf32, fp16, bf16, bf16-pure, fp8", &c.precision)))
            return e;
        if ((e = choice(p, kStyle, &mixedStyleFromString, "autocast, master-weights", &c.mixedStyle)))
            return e;
        if ((e = choice(p, kMasterGrads, &gradientStorageFromString, "fp32, low", &c.masterGradients)))
            return e;
        if ((e = integer(p, kZero, 0, 3, &c.zeroStage)))
            return e;
        if ((e = integer(p, kDp, 1, 1 << 20, &c.dataParallel)))
            return e;
        if ((e = integer(p, kTp, 1, 1024, &c.tensorParallel)))
            return e;
        if (p.isSet(kSp))
            c.sequenceParallel = true;
        if (p.isSet(kOffload))
            c.offloadOptimizer = true;
        if (p.isSet(kChannelsLast))
            c.channelsLast = true;
        if ((e = choice(p, kCkpt, &checkpointingFromString, "none, selective, full", &c.checkpointing)))
            return e;
        if ((e = choice(p, kAttention, &attentionFromString, "eager, fused", &c.attention)))
            return e;
        if ((e = choice(p, kLoop, &loopFromString, "keep-outputs, drop-outputs", &c.loop)))
            return e;
        if ((e = choice(p, kOptimizer, &optimizerFromString,
                        "adamw, adam, sgd, sgd-momentum, adamw-8bit, adafactor, paged-adamw, paged-adamw-8bit",
                        &c.optimizer)))
            return e;
        if ((e = choice(p, kAdamImpl, &adamImplFromString, "foreach, for-loop, fused", &c.adamImpl)))
            return e;
        if ((e = integer(p, kGradAccum, 1, 1 << 20, &c.gradientAccumulation)))
            return e;
        if (p.isSet(kHostSpeed)) {
            if ((e = number(p, kHostSpeed, 0.01, 100.0, &d)))
                return e;
            c.host.speed = d;
        }
        if ((e = choice(p, kExecution, &executionFromString, "eager, cuda-graphs", &c.host.execution)))
            return e;
        if ((e = readAllocatorOptions(p, &c)))
            return e;
        return std::nullopt;
    }

} // namespace

std::optional<QString> readScenarioFile(const QString& option, const QString& path, Catalog& catalog, Scenario* s,
                                        QString* title)
{
    QByteArray text;
    if (auto e = CatalogLoader::readFile(path, &text, 4 << 20))
        return QStringLiteral("--%1: %2").arg(option, *e);
    auto doc = parseScenario(std::string_view(text.constData(), std::size_t(text.size())), path.toStdString());
    if (!doc)
        return QStringLiteral("--%1: %2").arg(option, QString::fromStdString(doc.error().toString()));
    if (doc->embeddedModel)
        catalog.addModel(*doc->embeddedModel);
    *s = doc->scenario;
    *title = QString::fromStdString(doc->title);
    return std::nullopt;
}

std::optional<QString> resolveScenario(const QCommandLineParser& p, Catalog& catalog, ResolvedScenario* out)
{
    Scenario s = defaultScenario();
    if (p.isSet(kScenario)) {
        if (auto e = readScenarioFile(QStringLiteral("scenario"), p.value(kScenario), catalog, &s, &out->title))
            return e;
    }
    const QString gpu = p.isSet(kGpu) ? p.value(kGpu) : QString();
    const QString model = p.isSet(kModel) ? p.value(kModel) : QString();
    const bool defaultGpu = gpu.isEmpty() || gpu.toStdString() == s.gpuId;
    if (auto e = applyGpuAndModel(gpu, model, catalog, s, &out->model,
                                  p.isSet(kScenario) ? p.value(kScenario) : QString()))
        return e;
    out->gpu = catalog.gpu(s.gpuId);
    if (p.isSet(kDatasheet))
        s.overrides = {};

    TrainingConfig& c = s.config;
    double d = 0.0;
    std::optional<QString> e;
    if ((e = readTrainingOptions(p, c)))
        return e;
    if (p.isSet(kMemory)) {
        if ((e = number(p, kMemory, 0.001, 1 << 20, &d)))
            return e;
        s.overrides.memoryBytes = units::fromGiB(d);
        s.overrides.note = "what-if capacity from the command line";
    }
    if (p.isSet(kBandwidth)) {
        if ((e = number(p, kBandwidth, 0.001, 1e7, &d)))
            return e;
        s.overrides.bandwidthBytesPerSecond = d * 1e9;
        if (s.overrides.note.empty() || !defaultGpu)
            s.overrides.note = "what-if bandwidth from the command line";
    }
    if (p.isSet(kPeak)) {
        if ((e = number(p, kPeak, 1e-6, 1e7, &d)))
            return e;
        s.overrides.peakFlopsPerSecond = d * 1e12;
        s.overrides.note = "what-if peak from the command line";
    }
    if ((e = readFinetuneOptions(p, &c)))
        return e;
    if ((e = readParallelismOptions(p, &c)))
        return e;
    if (auto invalid = validateConfig(c, "command line"))
        return QString::fromStdString(invalid->toString());
    if ((e = checkFinetuneForModel(out->model, c)))
        return e;
    out->scenario = s;
    return std::nullopt;
}

QStringList scenarioToArguments(const Scenario& s)
{
    auto str = [](std::string_view v) { return QString::fromLatin1(v.data(), qsizetype(v.size())); };
    auto num = [](double v) { return QString::number(v, 'g', 12); };
    const TrainingConfig& c = s.config;
    QStringList a { QStringLiteral("--gpu"),           QString::fromStdString(s.gpuId),   QStringLiteral("--model"),
                    QString::fromStdString(s.modelId), QStringLiteral("--batch"),         QString::number(c.microBatch),
                    QStringLiteral("--seq"),           QString::number(c.sequenceLength), QStringLiteral("--precision"),
                    str(toString(c.precision)) };
    if (isMixed(c.precision) && c.mixedStyle != MixedPrecisionStyle::Autocast)
        a << QStringLiteral("--mixed-style") << str(toString(c.mixedStyle)) << QStringLiteral("--master-grads")
          << str(toString(c.masterGradients));
    a << QStringLiteral("--zero") << QString::number(c.zeroStage) << QStringLiteral("--dp")
      << QString::number(c.dataParallel);
    if (c.tensorParallel != 1)
        a << QStringLiteral("--tp") << QString::number(c.tensorParallel);
    if (c.sequenceParallel)
        a << QStringLiteral("--sp");
    appendParallelismArguments(c, a);
    if (c.offloadOptimizer)
        a << QStringLiteral("--offload");
    if (c.channelsLast)
        a << QStringLiteral("--channels-last");
    a << QStringLiteral("--checkpointing") << str(toString(c.checkpointing)) << QStringLiteral("--attention")
      << str(toString(c.attention)) << QStringLiteral("--optimizer") << str(toString(c.optimizer));
    if (c.loop != TrainingLoop::KeepOutputs)
        a << QStringLiteral("--loop") << str(toString(c.loop));
    if (c.adamImpl != AdamImpl::Foreach)
        a << QStringLiteral("--adamw-impl") << str(toString(c.adamImpl));
    if (c.gradientAccumulation != 1)
        a << QStringLiteral("--grad-accum") << QString::number(c.gradientAccumulation);
    if (c.host.speed != 1.0)
        a << QStringLiteral("--host-speed") << num(c.host.speed);
    if (c.host.execution != Execution::Eager)
        a << QStringLiteral("--execution") << str(toString(c.host.execution));
    appendFinetuneArguments(c, a);
    appendAllocatorArguments(c, a);
    // Start from the datasheet, then state each what-if figure.
    a << QStringLiteral("--datasheet");
    if (s.overrides.memoryBytes)
        a << QStringLiteral("--memory-gib") << num(units::toGiB(*s.overrides.memoryBytes));
    if (s.overrides.bandwidthBytesPerSecond)
        a << QStringLiteral("--bandwidth-gbps") << num(*s.overrides.bandwidthBytesPerSecond / 1e9);
    if (s.overrides.peakFlopsPerSecond)
        a << QStringLiteral("--peak-tflops") << num(*s.overrides.peakFlopsPerSecond / 1e12);
    return a;
}

std::optional<QString> readMeasuredOption(const QCommandLineParser& p, const QString& path,
                                          const QStringList& ownOptions, Catalog& catalog, ResolvedScenario* r,
                                          Measured* out)
{
    // Options that say where and how the measured scenario is predicted, not which scenario it is: with only those,
    // the file still gives the scenario.
    QStringList given = p.optionNames();
    for (const QString& own : ownOptions + allocatorOptionNames()
             + QStringList { QStringLiteral("measured"), kGpu.names().first(), kDatasheet.names().first(),
                             kMemory.names().first(), kBandwidth.names().first(), kPeak.names().first() })
        given.removeAll(own);
    const bool gpuChosen = p.isSet(kGpu) || p.isSet(kScenario);
    const bool whatIfGiven = p.isSet(kMemory) || p.isSet(kBandwidth) || p.isSet(kPeak);
    return readMeasured(path, given.isEmpty(), gpuChosen, whatIfGiven, p.isSet(kLoop), catalog, r, out);
}

namespace {

    // --baseline FILE: its scenario simulated as the estimate is.
    std::optional<QString> simulateBaseline(const QString& path, Catalog& catalog, const SimulateOptions& options,
                                            std::optional<SimulationResult>* out, QString* title)
    {
        Scenario b;
        if (auto e = readScenarioFile(QStringLiteral("baseline"), path, catalog, &b, title))
            return e;
        auto simulated = simulate(catalog, b, options);
        if (!simulated)
            return QStringLiteral("--baseline: %1: %2").arg(path, QString::fromStdString(simulated.error().toString()));
        *out = std::move(*simulated);
        return std::nullopt;
    }

    // The estimate's table or JSON with the comparison against the baseline: a table after it, or the JSON's
    // "against_baseline" object (the file, its title and the rows).
    std::string withBaseline(const std::string& text, bool json, const std::vector<BaselineRow>& rows,
                             const QString& path, const QString& title)
    {
        if (!json)
            return text
                + baselineToTable(
                       rows,
                       (title.isEmpty() ? path : title + QStringLiteral(" (") + path + QLatin1Char(')')).toStdString());
        nlohmann::json j = nlohmann::json::parse(text);
        j["against_baseline"] = { { "scenario", path.toStdString() },
                                  { "title", title.toStdString() },
                                  { "rows", baselineRowsJson(rows) } };
        return j.dump(2) + "\n";
    }

} // namespace

int runEstimate(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Estimate the memory and step time of one training step.\n"
        "With no options: the default scenario, BERT-base on an RTX A3000 12 GB laptop GPU with a what-if\n"
        "392 GB/s memory bandwidth (its datasheet says 336 GB/s)."));
    p.addHelpOption();
    addScenarioOptions(p);
    const QCommandLineOption json({ QStringLiteral("json") }, QStringLiteral("Print the result as JSON."));
    const QCommandLineOption timeline({ QStringLiteral("timeline") },
                                      QStringLiteral("With --json: include the per-operator memory timeline."));
    const QCommandLineOption failIfOom({ QStringLiteral("fail-if-oom") },
                                       QStringLiteral("Exit with status 3 when the step does not fit."));
    const QCommandLineOption measured({ QStringLiteral("measured") },
                                      QStringLiteral("Compare with what headroom-probe measured (.headroom-measured."
                                                     "json); with no scenario option, estimate its scenario."),
                                      QStringLiteral("file"));
    const QCommandLineOption baseline({ QStringLiteral("baseline") },
                                      QStringLiteral("Compare with a baseline scenario (.headroom.json), as the "
                                                     "window's Baseline dock: each figure before and now, the "
                                                     "change and whether it is better."),
                                      QStringLiteral("file"));
    p.addOptions({ json, timeline, failIfOom, measured, baseline });
    p.addPositionalArgument(QStringLiteral("estimate"), QStringLiteral("The command."));
    if (!p.parse(arguments)) {
        err() << "headroom estimate: " << p.errorText() << "\n";
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        out() << p.helpText();
        return 0;
    }
    if (p.positionalArguments().size() > 1) {
        err() << "headroom estimate: unexpected argument \"" << p.positionalArguments().at(1) << "\"\n";
        return 2;
    }
    LoadReport report;
    Catalog catalog = CatalogLoader::withUserData(&report);
    for (const QString& e : report.errors)
        err() << "warning: " << e << "\n";
    ResolvedScenario r;
    if (auto e = resolveScenario(p, catalog, &r)) {
        err() << "headroom estimate: " << *e << "\n";
        return 2;
    }
    std::optional<Measured> m;
    if (p.isSet(measured)) {
        m.emplace();
        if (auto e = readMeasuredOption(p, p.value(measured),
                                        { QStringLiteral("json"), QStringLiteral("timeline"),
                                          QStringLiteral("fail-if-oom") },
                                        catalog, &r, &*m)) {
            err() << "headroom estimate: " << *e << "\n";
            return 2;
        }
    }
    SimulateOptions so;
    so.sweep = false;
    const auto result = simulate(catalog, r.scenario, so);
    if (!result) {
        err() << "headroom estimate: " << QString::fromStdString(result.error().toString()) << "\n";
        return 2;
    }
    std::optional<SimulationResult> base;
    QString baseTitle;
    if (p.isSet(baseline)) {
        if (auto e = simulateBaseline(p.value(baseline), catalog, so, &base, &baseTitle)) {
            err() << "headroom estimate: " << *e << "\n";
            return 2;
        }
    }
    std::string text;
    if (p.isSet(json) && m) {
        text = resultWithMeasuredToJson(*result, *m, p.isSet(timeline));
    } else if (p.isSet(json)) {
        ReportOptions ro;
        ro.timeline = p.isSet(timeline);
        text = resultToJson(*result, ro);
    } else {
        text = resultToTable(*result);
        if (m)
            text += measuredToTable(result->estimate, *m, result->allocator);
    }
    if (base)
        text = withBaseline(text, p.isSet(json), compareToBaseline(*base, *result), p.value(baseline), baseTitle);
    out() << QString::fromStdString(text);
    out().flush();
    return (p.isSet(failIfOom) && !result->estimate.fits) ? 3 : 0;
}

int runList(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("List the GPUs or the model presets Headroom knows."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("what"), QStringLiteral("gpus or models"));
    if (!p.parse(arguments)) {
        err() << "headroom list: " << p.errorText() << "\n";
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        out() << p.helpText();
        return 0;
    }
    const QStringList pos = p.positionalArguments();
    const QString what = pos.size() >= 2 ? pos.at(1) : QString();
    LoadReport report;
    const Catalog catalog = CatalogLoader::withUserData(&report);
    for (const QString& e : report.errors)
        err() << "warning: " << e << "\n";
    if (what == QLatin1String("gpus")) {
        for (const GpuSpec& g : catalog.gpus()) {
            out() << QStringLiteral("%1  %2  %3  %4 GB/s\n")
                         .arg(QString::fromStdString(g.id), -26)
                         .arg(QString::fromStdString(formatBytes(g.memoryBytes())), 10)
                         .arg(QString::fromStdString(g.name), -58)
                         .arg(g.bandwidthGBps.value);
        }
        return 0;
    }
    if (what == QLatin1String("models")) {
        for (const ModelSpec& m : catalog.models()) {
            out() << QStringLiteral("%1  %2  %3\n")
                         .arg(QString::fromStdString(m.id), -16)
                         .arg(QString::fromStdString(formatCount(double(m.reference.parameters))), 8)
                         .arg(QString::fromStdString(m.name));
        }
        return 0;
    }
    err() << "headroom list: say what to list: gpus or models\n";
    return 2;
}

} // namespace headroom
