#include "plancommand.h"

#include "catalogloader.h"
#include "estimatecommand.h"
#include "optionparse.h"
#include "planner.h"
#include "report.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <QCommandLineParser>
#include <QTextStream>

#include <cstdio>

namespace headroom {

namespace {

    using nlohmann::json;

    // The `headroom estimate` options that, added to `--gpu ID --model ... --seq N`, give this layout.
    std::vector<std::pair<std::string, std::string>> layoutOptions(const TrainingConfig& c)
    {
        std::vector<std::pair<std::string, std::string>> o {
            { "--precision", std::string(toString(c.precision)) },
            { "--tp", std::to_string(c.tensorParallel) },
            { "--pp", std::to_string(c.pipelineParallel) },
            { "--dp", std::to_string(c.dataParallel) },
            { "--batch", std::to_string(c.microBatch) },
            { "--grad-accum", std::to_string(c.gradientAccumulation) },
            { "--zero", std::to_string(c.zeroStage) },
            { "--checkpointing", std::string(toString(c.checkpointing)) },
            { "--gpus-per-node", std::to_string(c.cluster.gpusPerNode) },
        };
        if (c.sequenceParallel)
            o.emplace_back("--sp", "");
        if (c.expertParallel > 1)
            o.emplace_back("--ep", std::to_string(c.expertParallel));
        if (c.contextParallel > 1)
            o.emplace_back("--cp", std::to_string(c.contextParallel));
        if (c.pipelineParallel > 1)
            o.emplace_back("--pipeline-schedule", std::string(toString(c.pipelineSchedule)));
        if (c.pipelineSchedule == PipelineSchedule::Interleaved)
            o.emplace_back("--vpp", std::to_string(c.virtualStages));
        return o;
    }

    json planJson(const PlanResult& r)
    {
        json layouts = json::array();
        for (const PlanLayout& l : r.layouts) {
            json options = json::object();
            for (const auto& [k, v] : layoutOptions(l.config))
                options[k] = v;
            layouts.push_back({ { "options", options },
                                { "fits", l.fits },
                                { "peak_bytes", std::llround(l.peakBytes) },
                                { "step_time_seconds", l.stepSeconds },
                                { "throughput_per_second", l.throughputPerSecond },
                                { "mfu", l.mfu },
                                { "pareto_front", l.pareto } });
        }
        json rejected = json::array();
        for (const PlanRejection& x : r.rejected)
            rejected.push_back({ { "reason", x.reason }, { "count", x.count } });
        return { { "evaluated", r.evaluated }, { "layouts", layouts }, { "rejected", rejected } };
    }

    std::string planTable(const PlanResult& r, int top)
    {
        std::string out;
        char line[512];
        std::snprintf(line, sizeof line, "%lld layouts simulated; %s\n\n", static_cast<long long>(r.evaluated),
                      r.layouts.empty() || !r.layouts.front().fits ? "none fits (the lowest peaks below)"
                                                                   : "the fastest that fit:");
        out += line;
        out += "  tp  pp  cp  dp  ep  sched        sp  zero  ckpt       batch  accum   peak/GPU      step    tokens/s    MFU\n";
        int shown = 0;
        for (const PlanLayout& l : r.layouts) {
            if (shown++ == top)
                break;
            const TrainingConfig& c = l.config;
            const std::string sched = c.pipelineParallel == 1         ? "-"
                : c.pipelineSchedule == PipelineSchedule::Interleaved ? "interleaved" + std::to_string(c.virtualStages)
                                                                      : std::string(toString(c.pipelineSchedule));
            std::snprintf(line, sizeof line,
                          "%4d %3d %3d %3d %3d  %-12s %-3s %4d  %-9s %6lld %6d %10s %9s %11.0f %5.1f%%%s\n",
                          c.tensorParallel, c.pipelineParallel, c.contextParallel, c.dataParallel, c.expertParallel,
                          sched.c_str(), c.sequenceParallel ? "on" : "-", c.zeroStage,
                          std::string(toString(c.checkpointing)).c_str(), static_cast<long long>(c.microBatch),
                          c.gradientAccumulation, formatBytes(l.peakBytes).c_str(),
                          formatSeconds(l.stepSeconds).c_str(), l.throughputPerSecond, l.mfu * 100.0,
                          l.pareto ? "  *" : "");
            out += line;
        }
        out += "\n(* on the front of memory per GPU against step time)\nRejected:\n";
        for (const PlanRejection& x : r.rejected) {
            std::snprintf(line, sizeof line, "  %8lld  %s\n", static_cast<long long>(x.count), x.reason.c_str());
            out += line;
        }
        return out;
    }

} // namespace

int runPlan(const QStringList& arguments)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Rank every layout of a job on N GPUs (tensor, pipeline and data parallelism, the pipeline schedule,\n"
        "sequence parallelism, context parallelism, expert parallelism for MoE models, ZeRO, checkpointing, the\n"
        "micro-batch) by predicted throughput among those that fit.\n"
        "Each layout's options, added to `headroom estimate --gpu ID --model ... --seq N`, reproduce its result."));
    p.addHelpOption();
    const QCommandLineOption gpu({ QStringLiteral("gpu") }, QStringLiteral("GPU id (see `headroom list gpus`)."),
                                 QStringLiteral("id"));
    const QCommandLineOption gpus({ QStringLiteral("gpus") }, QStringLiteral("GPUs in the job (default 8)."),
                                  QStringLiteral("N"));
    const QCommandLineOption perNode({ QStringLiteral("gpus-per-node") },
                                     QStringLiteral("GPUs per node; tensor parallelism stays inside one (default 8)."),
                                     QStringLiteral("K"));
    const QCommandLineOption model({ QStringLiteral("model") },
                                   QStringLiteral("Model preset id, a Headroom model JSON file, a Hugging Face "
                                                  "config.json, or a checkpoint directory holding one."),
                                   QStringLiteral("id|path"));
    const QCommandLineOption global({ QStringLiteral("global-batch") },
                                    QStringLiteral("Samples per optimizer step over the whole job (default 64)."),
                                    QStringLiteral("N"));
    const QCommandLineOption seq({ QStringLiteral("seq") },
                                 QStringLiteral("Sequence length in tokens (default: the model's)."),
                                 QStringLiteral("N"));
    const QCommandLineOption precision({ QStringLiteral("precision") },
                                       QStringLiteral("fp32, tf32, fp16, bf16, bf16-pure or fp8 (default bf16)."),
                                       QStringLiteral("p"));
    const QCommandLineOption top({ QStringLiteral("top") },
                                 QStringLiteral("Layouts the table shows (default 15; JSON lists every one)."),
                                 QStringLiteral("N"));
    const QCommandLineOption json({ QStringLiteral("json") }, QStringLiteral("Print the result as JSON."));
    p.addOptions({ gpu, gpus, perNode, model, global, seq, precision, top, json });
    p.addPositionalArgument(QStringLiteral("plan"), QStringLiteral("The command."));
    auto fail = [&](const QString& message) {
        err << "headroom plan: " << message << "\n";
        return 2;
    };
    if (!p.parse(arguments))
        return fail(p.errorText());
    if (p.isSet(QStringLiteral("help"))) {
        out << p.helpText();
        return 0;
    }
    if (p.positionalArguments().size() > 1)
        return fail(QStringLiteral("unexpected argument \"%1\"").arg(p.positionalArguments().at(1)));
    LoadReport report;
    Catalog catalog = CatalogLoader::withUserData(&report);
    for (const QString& e : report.errors)
        err << "warning: " << e << "\n";

    // The base as `headroom estimate --gpu ID --model ...` builds it, so that the options reproduce each layout.
    PlanRequest request;
    Scenario& s = request.base;
    s = defaultScenario();
    ModelSpec picked;
    if (auto e = applyGpuAndModel(p.isSet(gpu) ? p.value(gpu) : QString(), p.isSet(model) ? p.value(model) : QString(),
                                  catalog, s, &picked))
        return fail(*e);
    s.config.precision = Precision::MixedBF16;
    std::optional<QString> e;
    if ((e = integer(p, seq, 1, qint64(1) << 30, &s.config.sequenceLength)))
        return fail(*e);
    if ((e = choice(p, precision, &precisionFromString, "fp32, tf32, fp16, bf16, bf16-pure, fp8", &s.config.precision)))
        return fail(*e);
    if ((e = integer(p, gpus, 1, 65536, &request.gpus)))
        return fail(*e);
    if ((e = integer(p, perNode, 1, 1024, &request.gpusPerNode)))
        return fail(*e);
    if ((e = integer(p, global, 1, qint64(1) << 30, &request.globalBatch)))
        return fail(*e);
    int shown = 15;
    if ((e = integer(p, top, 1, 1 << 20, &shown)))
        return fail(*e);
    const auto result = plan(catalog, request);
    if (!result) {
        const std::string& f = result.error().field;
        QString option = f == "sequence_length" ? QStringLiteral("seq")
                                                : QString::fromStdString(f).replace(QLatin1Char('_'), QLatin1Char('-'));
        return fail(QStringLiteral("--%1: %2").arg(option, QString::fromStdString(result.error().message)));
    }
    if (p.isSet(json))
        out << QString::fromStdString(planJson(*result).dump(2)) << "\n";
    else
        out << QString::fromStdString(planTable(*result, shown));
    return 0;
}

} // namespace headroom
