#include "plancommand.h"

#include "catalogloader.h"
#include "estimatecommand.h"
#include "optionparse.h"
#include "parallelismoptions.h"
#include "planner.h"
#include "report.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <QCommandLineParser>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <map>

namespace headroom {

namespace {

    using nlohmann::json;

    std::string str(std::string_view s) { return std::string(s); }

    // The `headroom estimate` options that, added to `--gpu ID --model ... --seq N`, give this layout.
    std::vector<std::pair<std::string, std::string>> layoutOptions(const TrainingConfig& c)
    {
        std::vector<std::pair<std::string, std::string>> o {
            { "--precision", str(toString(c.precision)) },
            { "--tp", std::to_string(c.tensorParallel) },
            { "--pp", std::to_string(c.pipelineParallel) },
            { "--dp", std::to_string(c.dataParallel) },
            { "--batch", std::to_string(c.microBatch) },
            { "--grad-accum", std::to_string(c.gradientAccumulation) },
            { "--zero", std::to_string(c.zeroStage) },
            { "--checkpointing", str(toString(c.checkpointing)) },
            { "--gpus-per-node", std::to_string(c.cluster.gpusPerNode) },
            { "--optimizer", str(toString(c.optimizer)) },
        };
        if (c.adamImpl != AdamImpl::Foreach)
            o.emplace_back("--adamw-impl", str(toString(c.adamImpl)));
        if (c.offloadOptimizer)
            o.emplace_back("--offload", "");
        if (c.finetune.method != FinetuneMethod::Full)
            o.emplace_back("--finetune", str(toString(c.finetune.method)));
        if (c.cluster.intraLink != LinkKind::Auto)
            o.emplace_back("--intra-link", str(toString(c.cluster.intraLink)));
        if (c.cluster.interLink != LinkKind::Auto)
            o.emplace_back("--inter-link", str(toString(c.cluster.interLink)));
        if (c.sequenceParallel)
            o.emplace_back("--sp", "");
        if (c.expertParallel > 1)
            o.emplace_back("--ep", std::to_string(c.expertParallel));
        if (c.contextParallel > 1)
            o.emplace_back("--cp", std::to_string(c.contextParallel));
        if (c.pipelineParallel > 1)
            o.emplace_back("--pipeline-schedule", str(toString(c.pipelineSchedule)));
        if (c.pipelineSchedule == PipelineSchedule::Interleaved)
            o.emplace_back("--vpp", std::to_string(c.virtualStages));
        if (c.firstStageLayers > 0)
            o.emplace_back("--pp-first-layers", std::to_string(c.firstStageLayers));
        if (c.lastStageLayers > 0)
            o.emplace_back("--pp-last-layers", std::to_string(c.lastStageLayers));
        return o;
    }

    // "t:nvlink-bridge d:pcie-shm", the inter-node hop marked with a ">".
    std::string linksText(const PlanLayout& l)
    {
        std::string s;
        for (const PlanLink& k : l.links) {
            if (!s.empty())
                s += ' ';
            s += k.group.substr(0, 1) == "c" ? "cp" : k.group.substr(0, 1);
            s += k.interNode ? ">" : ":";
            s += toString(k.kind);
        }
        return s.empty() ? "-" : s;
    }

    json layoutJson(const PlanLayout& l)
    {
        json options = json::object();
        for (const auto& [k, v] : layoutOptions(l.config))
            options[k] = v;
        json links = json::array();
        for (const PlanLink& k : l.links)
            links.push_back({ { "group", k.group },
                              { "ranks", k.ranks },
                              { "span_gpus", k.span },
                              { "kind", str(toString(k.kind)) },
                              { "between_nodes", k.interNode },
                              { "assumed", k.automatic },
                              { "gb_per_second", k.bytesPerSecond / 1e9 } });
        const int perNode = l.config.cluster.gpusPerNode;
        return { { "options", options },
                 { "levers", l.levers },
                 { "fits", l.fits },
                 { "peak_bytes", std::llround(l.peakBytes) },
                 { "capacity_bytes", std::llround(l.capacityBytes) },
                 { "step_time_seconds", l.stepSeconds },
                 { "throughput_per_second", l.throughputPerSecond },
                 { "mfu", l.mfu },
                 { "pareto_front", l.pareto },
                 { "nodes", l.nodes },
                 { "gpus_per_node", perNode },
                 { "links", links } };
    }

    // The option that allows a suggested lever.
    std::string allowOption(const std::string& lever)
    {
        return lever == "lora" || lever == "qlora" ? "--allow-finetune " + lever : "--levers " + lever;
    }

    json planJson(const PlanResult& r)
    {
        json layouts = json::array();
        for (const PlanLayout& l : r.layouts)
            layouts.push_back(layoutJson(l));
        json rejected = json::array();
        for (const PlanRejection& x : r.rejected)
            rejected.push_back({ { "reason", x.reason }, { "count", x.count } });
        json j = { { "considered", r.considered },
                   { "evaluated", r.evaluated },
                   { "assumptions", r.assumptions },
                   { "layouts", layouts },
                   { "rejected", rejected } };
        if (!r.layouts.empty() && !r.layouts.front().fits) {
            json s = json::array();
            for (const PlanSuggestion& x : r.suggestions)
                s.push_back(
                    { { "lever", x.lever }, { "allow", allowOption(x.lever) }, { "layout", layoutJson(x.layout) } });
            j["nearest"] = { { "short_bytes", std::llround(r.shortBytes) },
                             { "levers_that_fit", s },
                             { "gpus_with_room", r.largerGpus } };
        }
        return j;
    }

    std::string layoutLine(const PlanLayout& l)
    {
        const TrainingConfig& c = l.config;
        std::string sched = c.pipelineParallel == 1               ? "-"
            : c.pipelineSchedule == PipelineSchedule::Interleaved ? "interleaved" + std::to_string(c.virtualStages)
                                                                  : str(toString(c.pipelineSchedule));
        if (c.pipelineParallel > 1 && c.firstStageLayers > 0) // uneven stages: "1f1b f10 l10"
            sched += " f" + std::to_string(c.firstStageLayers);
        if (c.pipelineParallel > 1 && c.lastStageLayers > 0)
            sched += " l" + std::to_string(c.lastStageLayers);
        std::string levers;
        for (const std::string& x : l.levers)
            levers += (levers.empty() ? "" : "+") + x;
        char line[512];
        std::snprintf(line, sizeof line,
                      "%4d %3d %3d %3d %3d  %-12s %-3s %4d  %-9s %6lld %6d %10s %9s %11.0f %5.1f%%%s  %-16s %5d  %s\n",
                      c.tensorParallel, c.pipelineParallel, c.contextParallel, c.dataParallel, c.expertParallel,
                      sched.c_str(), c.sequenceParallel ? "on" : "-", c.zeroStage,
                      str(toString(c.checkpointing)).c_str(), static_cast<long long>(c.microBatch),
                      c.gradientAccumulation, formatBytes(l.peakBytes).c_str(), formatSeconds(l.stepSeconds).c_str(),
                      l.throughputPerSecond, l.mfu * 100.0, l.pareto ? " *" : "  ",
                      levers.empty() ? "-" : levers.c_str(), l.nodes, linksText(l).c_str());
        return line;
    }

    std::string nearestText(const PlanResult& r)
    {
        std::string out = "\nThe nearest layout needs " + formatBytes(r.shortBytes)
            + " more per GPU. What would fit:\n";
        for (const PlanSuggestion& s : r.suggestions) {
            out += "  " + allowOption(s.lever) + ": " + formatBytes(s.layout.peakBytes) + " per GPU, "
                + std::to_string(std::llround(s.layout.throughputPerSecond)) + " tokens/s, with";
            for (const auto& [k, v] : layoutOptions(s.layout.config))
                out += " " + k + (v.empty() ? "" : " " + v);
            out += "\n";
        }
        if (r.suggestions.empty())
            out += "  no lever the planner knows, on these GPUs\n";
        if (!r.largerGpus.empty()) {
            out += "  GPUs with room for the nearest layout's peak:";
            for (std::size_t i = 0; i < r.largerGpus.size() && i < 6; ++i)
                out += " " + r.largerGpus[i];
            out += r.largerGpus.size() > 6 ? " ...\n" : "\n";
        }
        return out;
    }

    std::string planTable(const PlanResult& r, int top)
    {
        const bool fits = !r.layouts.empty() && r.layouts.front().fits;
        std::string out = "Assumed:\n";
        for (const std::string& a : r.assumptions)
            out += "  " + a + "\n";
        out += "\n" + std::to_string(r.considered) + " layouts considered, " + std::to_string(r.evaluated)
            + " simulated; " + (fits ? "the fastest that fit:\n\n" : "none fits (the lowest peaks below)\n\n");
        out += "  tp  pp  cp  dp  ep  sched        sp  zero  ckpt       batch  accum   peak/GPU      step    "
               "tokens/s    MFU    levers           nodes  links\n";
        int shown = 0;
        for (const PlanLayout& l : r.layouts) {
            if (shown++ == top)
                break;
            out += layoutLine(l);
        }
        out += "\n(* on the front of memory per GPU against step time; sched f/l: blocks on the first/last stage where "
               "p does not divide them (Megatron's uneven stages); links: t tensor, cp context, e expert, d data, p "
               "pipeline parallel; > between nodes)\n";
        if (!fits)
            out += nearestText(r);
        std::int64_t total = 0;
        for (const PlanRejection& x : r.rejected)
            total += x.count;
        char line[512];
        std::snprintf(line, sizeof line, "\nRejected: %lld of %lld layouts, each under its first reason\n",
                      static_cast<long long>(total), static_cast<long long>(r.considered));
        out += line;
        for (const PlanRejection& x : r.rejected) {
            std::snprintf(line, sizeof line, "  %8lld  %s\n", static_cast<long long>(x.count), x.reason.c_str());
            out += line;
        }
        return out;
    }

    std::string humanSeconds(double s)
    {
        char buf[64];
        if (s >= 86400.0)
            std::snprintf(buf, sizeof buf, "%.1f days", s / 86400.0);
        else if (s >= 3600.0)
            std::snprintf(buf, sizeof buf, "%.1f h", s / 3600.0);
        else
            std::snprintf(buf, sizeof buf, "%.0f min", s / 60.0);
        return buf;
    }

    json acrossJson(const std::vector<GpuTypePlan>& types, double tokens, int gpus, const GpuPrices& prices)
    {
        json list = json::array();
        const GpuTypeFront front = gpuTypeFront(types, prices);
        for (std::size_t i = 0; i < types.size(); ++i) {
            const GpuTypePlan& g = types[i];
            json j = { { "gpu", g.gpuId },
                       { "fits", g.fits },
                       { "considered", g.plan.considered },
                       { "evaluated", g.plan.evaluated } };
            if (g.fits) {
                j["time_seconds"] = g.seconds;
                j["gpu_hours"] = g.gpuHours;
                j["pareto_front"] = bool(front.onFront[i]);
                j["best"] = layoutJson(g.plan.layouts.front());
                if (const auto cost = gpuTypeCost(g, prices)) {
                    j["price_per_gpu_hour"] = prices.at(g.gpuId);
                    j["cost"] = *cost;
                }
            } else {
                j["nearest"] = planJson(g.plan).value("nearest", json::object());
            }
            list.push_back(std::move(j));
        }
        return { { "tokens", tokens },
                 { "gpus", gpus },
                 { "front_against", front.byCost ? "cost" : "gpu_hours" },
                 { "gpu_types", list } };
    }

    std::string acrossTable(const std::vector<GpuTypePlan>& types, double tokens, int gpus, const GpuPrices& prices)
    {
        char line[512];
        std::snprintf(line, sizeof line,
                      "Time to train %s tokens on %d GPUs of each type (the fastest layout that fits), fastest "
                      "first:\n\n",
                      formatCount(tokens).c_str(), gpus);
        std::string out = line;
        out += "  gpu                        time        GPU-hours       cost    tokens/s   peak/GPU  levers            "
               "layout\n";
        for (const GpuTypePlan& g : types) {
            if (!g.fits) {
                std::snprintf(line, sizeof line, "  %-26s none fits (the nearest needs %s more per GPU)\n",
                              g.gpuId.c_str(), formatBytes(g.plan.shortBytes).c_str());
                out += line;
                continue;
            }
            const PlanLayout& l = g.plan.layouts.front();
            std::string levers, layout;
            for (const std::string& x : l.levers)
                levers += (levers.empty() ? "" : "+") + x;
            for (const auto& [k, v] : layoutOptions(l.config))
                layout += (layout.empty() ? "" : " ") + k + (v.empty() ? "" : " " + v);
            std::string cost = "-";
            if (const auto usd = gpuTypeCost(g, prices)) {
                std::snprintf(line, sizeof line, "$%.0f", *usd);
                cost = line;
            }
            std::snprintf(line, sizeof line, "  %-26s %-11s %9.0f %10s %11.0f %10s  %-16s  %s\n", g.gpuId.c_str(),
                          humanSeconds(g.seconds).c_str(), g.gpuHours, cost.c_str(), l.throughputPerSecond,
                          formatBytes(l.peakBytes).c_str(), levers.empty() ? "-" : levers.c_str(), layout.c_str());
            out += line;
        }
        const GpuTypeFront front = gpuTypeFront(types, prices);
        std::string names;
        for (std::size_t i = 0; i < types.size(); ++i)
            names += front.onFront[i] ? (names.empty() ? "" : ", ") + types[i].gpuId : std::string();
        if (!names.empty())
            out += "\nOn the front of time against "
                + std::string(front.byCost ? "cost" : "GPU-hours (--price for cost)")
                + " (none both faster and cheaper): " + names + "\n";
        return out;
    }

    // --price id=USD (repeatable): the price of a GPU-hour of each listed type.
    std::optional<QString> readPrices(const QStringList& values, const std::vector<std::string>& ids, GpuPrices* out)
    {
        for (const QString& v : values) {
            const qsizetype eq = v.indexOf(QLatin1Char('='));
            bool ok = false;
            const double usd = eq > 0 ? v.mid(eq + 1).toDouble(&ok) : 0.0;
            const std::string id = v.left(eq).toStdString();
            if (eq <= 0 || !ok || !(usd >= 0.0) || usd > 1e6)
                return QStringLiteral("--price: \"%1\" is not id=USD per GPU-hour (e.g. h100-sxm5-80gb=2.5)").arg(v);
            if (std::find(ids.begin(), ids.end(), id) == ids.end())
                return QStringLiteral("--price: %1 is not one of --gpu's").arg(QString::fromStdString(id));
            (*out)[id] = usd;
        }
        return std::nullopt;
    }

    // --levers: a comma-separated list of precision, optimizer and offload, or none; auto: all three, pulled only when
    // no layout fits without them.
    std::optional<QString> readLevers(const QString& text, PlanLevers* l)
    {
        l->precision = l->optimizer = l->offload = false;
        l->onlyIfNeeded = text.trimmed() == QLatin1String("auto");
        if (l->onlyIfNeeded) {
            l->precision = l->optimizer = l->offload = true;
            return std::nullopt;
        }
        for (const QString& x : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString v = x.trimmed();
            if (v == QLatin1String("precision"))
                l->precision = true;
            else if (v == QLatin1String("optimizer"))
                l->optimizer = true;
            else if (v == QLatin1String("offload"))
                l->offload = true;
            else if (v != QLatin1String("none"))
                return QStringLiteral(
                           "--levers: unknown lever \"%1\"; valid: precision, optimizer, offload, none, auto")
                    .arg(v);
        }
        return std::nullopt;
    }

    // --allow-finetune: a comma-separated list of lora and qlora.
    std::optional<QString> readFinetunes(const QString& text, PlanLevers* l)
    {
        for (const QString& x : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto m = finetuneFromString(x.trimmed().toStdString());
            if (!m || !(*m == FinetuneMethod::LoRA || *m == FinetuneMethod::QLoRA))
                return QStringLiteral("--allow-finetune: unknown method \"%1\"; valid: lora, qlora").arg(x.trimmed());
            l->finetune.push_back(*m);
        }
        return std::nullopt;
    }

} // namespace

namespace {

    int failPlan(const QString& message)
    {
        QTextStream(stderr) << "headroom plan: " << message << "\n";
        return 2;
    }

    QString planError(const Error& e)
    {
        const std::string& f = e.field;
        const QString option = f == "sequence_length"
            ? QStringLiteral("seq")
            : QString::fromStdString(f).replace(QLatin1Char('_'), QLatin1Char('-'));
        return QStringLiteral("--%1: %2").arg(option, QString::fromStdString(e.message));
    }

    // Several GPU types, or --tokens: the fastest layout of each type with the time, GPU-hours and cost.
    int runAcross(const QCommandLineParser& p, const Catalog& catalog, const PlanRequest& request,
                  const std::vector<std::string>& ids, const QCommandLineOption& tokensOption,
                  const QCommandLineOption& priceOption, const QCommandLineOption& jsonOption)
    {
        double tokens = 1e9;
        if (auto e = number(p, tokensOption, 1.0, 1e18, &tokens))
            return failPlan(*e);
        GpuPrices prices;
        if (auto e = readPrices(p.values(priceOption), ids, &prices))
            return failPlan(*e);
        const auto types = planGpuTypes(catalog, request, ids, tokens);
        if (!types)
            return failPlan(planError(types.error()));
        QTextStream out(stdout);
        if (p.isSet(jsonOption))
            out << QString::fromStdString(acrossJson(*types, tokens, request.gpus, prices).dump(2)) << "\n";
        else
            out << QString::fromStdString(acrossTable(*types, tokens, request.gpus, prices));
        return 0;
    }

} // namespace

namespace {

    struct PlanOptions {
        QCommandLineOption gpu, gpus, model, global, seq, precision, levers, finetune, tokens, price, top, json;
    };

    // The options of `headroom plan`, in the order --help lists them.
    PlanOptions planOptions()
    {
        const QCommandLineOption gpu({ QStringLiteral("gpu") },
                                     QStringLiteral(
                                         "GPU id (see `headroom list gpus`), or several comma-separated: the "
                                         "fastest layout on each type, ranked by time to train --tokens."),
                                     QStringLiteral("id[,id...]"));
        const QCommandLineOption tokens({ QStringLiteral("tokens") },
                                        QStringLiteral("Tokens to train (images for vision models): time and GPU-hours "
                                                       "per GPU type (default 1e9 with several --gpu)."),
                                        QStringLiteral("N"));
        const QCommandLineOption price({ QStringLiteral("price") },
                                       QStringLiteral("Price of a GPU-hour of one --gpu type, in USD (repeatable): the "
                                                      "cost of --tokens."),
                                       QStringLiteral("id=USD"));
        const QCommandLineOption gpus({ QStringLiteral("gpus") }, QStringLiteral("GPUs in the job (default 8)."),
                                      QStringLiteral("N"));
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
        const QCommandLineOption levers(
            { QStringLiteral("levers") },
            QStringLiteral(
                "What the planner may change besides the layout, comma-separated: precision (pure BF16; FP8 "
                "on GPUs with FP8 tensor cores), optimizer (fused AdamW, 8-bit, paged, Adafactor), offload "
                "(ZeRO-Offload of the optimizer states), none, or auto (the default: all three, pulled only when no "
                "layout fits without them)."),
            QStringLiteral("list"));
        const QCommandLineOption finetune({ QStringLiteral("allow-finetune") },
                                          QStringLiteral("Also try fine-tuning instead of full training: lora, qlora "
                                                         "(comma-separated; PEFT's defaults, rank 8 on q and v)."),
                                          QStringLiteral("list"));
        const QCommandLineOption top({ QStringLiteral("top") },
                                     QStringLiteral("Layouts the table shows (default 15; JSON lists every one)."),
                                     QStringLiteral("N"));
        const QCommandLineOption json({ QStringLiteral("json") }, QStringLiteral("Print the result as JSON."));
        return { gpu, gpus, model, global, seq, precision, levers, finetune, tokens, price, top, json };
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
        "micro-batch, and the levers allowed: precision, optimizer, ZeRO-Offload, LoRA/QLoRA) by predicted\n"
        "throughput among those that fit.\n"
        "Each layout's options, added to `headroom estimate --gpu ID --model ... --seq N`, reproduce its result."));
    p.addHelpOption();
    const auto [gpu, gpus, model, global, seq, precision, levers, finetune, tokens, price, top, json] = planOptions();
    p.addOptions({ gpu, gpus, model, global, seq, precision, levers, finetune, tokens, price, top, json });
    addClusterOptions(p);
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
    const QStringList gpuList = p.isSet(gpu) ? p.value(gpu).split(QLatin1Char(','), Qt::SkipEmptyParts) : QStringList();
    std::vector<std::string> gpuIds;
    for (const QString& id : gpuList) {
        if (!catalog.gpu(id.trimmed().toStdString()))
            return fail(QStringLiteral("--gpu: unknown GPU id \"%1\"; valid: %2")
                            .arg(id.trimmed(), QString::fromStdString(catalog.gpuIds())));
        gpuIds.push_back(id.trimmed().toStdString());
    }
    if (auto e = applyGpuAndModel(gpuList.isEmpty() ? QString() : gpuList.first().trimmed(),
                                  p.isSet(model) ? p.value(model) : QString(), catalog, s, &picked))
        return fail(*e);
    s.config.precision = Precision::MixedBF16;
    s.config.cluster.gpusPerNode = 8;
    std::optional<QString> e;
    if ((e = integer(p, seq, 1, qint64(1) << 30, &s.config.sequenceLength)))
        return fail(*e);
    if ((e = choice(p, precision, &precisionFromString, "fp32, tf32, fp16, bf16, bf16-pure, fp8", &s.config.precision)))
        return fail(*e);
    if ((e = integer(p, gpus, 1, 65536, &request.gpus)))
        return fail(*e);
    if ((e = readClusterOptions(p, &s.config.cluster)))
        return fail(*e);
    request.gpusPerNode = s.config.cluster.gpusPerNode;
    if ((e = integer(p, global, 1, qint64(1) << 30, &request.globalBatch)))
        return fail(*e);
    if ((e = readLevers(p.isSet(levers) ? p.value(levers) : QStringLiteral("auto"), &request.levers)))
        return fail(*e);
    if (p.isSet(finetune) && (e = readFinetunes(p.value(finetune), &request.levers)))
        return fail(*e);
    int shown = 15;
    if ((e = integer(p, top, 1, 1 << 20, &shown)))
        return fail(*e);
    if (gpuIds.size() > 1 || p.isSet(tokens))
        return runAcross(p, catalog, request, gpuIds.empty() ? std::vector { s.gpuId } : gpuIds, tokens, price, json);
    const auto result = plan(catalog, request);
    if (!result)
        return fail(planError(result.error()));
    if (p.isSet(json))
        out << QString::fromStdString(planJson(*result).dump(2)) << "\n";
    else
        out << QString::fromStdString(planTable(*result, shown));
    return 0;
}

} // namespace headroom
