#include "parallelismoptions.h"

#include "links.h"
#include "modelspec.h"
#include "optionparse.h"
#include "pipeline.h"

namespace headroom {

namespace {

    const QCommandLineOption kPp({ QStringLiteral("pp") },
                                 QStringLiteral("Pipeline stages (default 1); each holds an equal share of the "
                                                "blocks, the first also the embeddings, the last the head."),
                                 QStringLiteral("N"));
    const QCommandLineOption kVpp({ QStringLiteral("vpp") },
                                  QStringLiteral("Model chunks per pipeline stage: the interleaved schedule "
                                                 "(Megatron's virtual pipeline; default 1)."),
                                  QStringLiteral("N"));
    const QCommandLineOption kFirstLayers({ QStringLiteral("pp-first-layers") },
                                          QStringLiteral("Blocks on the first pipeline stage (uneven stages, "
                                                         "Megatron's --decoder-first-pipeline-num-layers); the "
                                                         "stages between share the rest equally."),
                                          QStringLiteral("N"));
    const QCommandLineOption kLastLayers({ QStringLiteral("pp-last-layers") },
                                         QStringLiteral("Blocks on the last pipeline stage (Megatron's "
                                                        "--decoder-last-pipeline-num-layers)."),
                                         QStringLiteral("N"));
    const QCommandLineOption kSchedule({ QStringLiteral("pipeline-schedule") },
                                       QStringLiteral("gpipe, 1f1b (default) or interleaved."), QStringLiteral("kind"));
    const QCommandLineOption kEp({ QStringLiteral("ep") },
                                 QStringLiteral("Expert-parallel ranks (MoE models; default 1): each holds 1/N of the "
                                                "routed experts; a split of --dp, which N must divide."),
                                 QStringLiteral("N"));
    const QCommandLineOption kCp({ QStringLiteral("cp") },
                                 QStringLiteral("Context-parallel ranks (default 1): each holds 1/N of every sequence "
                                                "(ring attention; needs --attention fused). The job uses tp x pp x "
                                                "cp x dp GPUs."),
                                 QStringLiteral("N"));
    const QCommandLineOption kGlobalBatch({ QStringLiteral("global-batch") },
                                          QStringLiteral("Samples per optimizer step over the whole job: sets the "
                                                         "micro-batches per step to N / (batch x dp)."),
                                          QStringLiteral("N"));

    const QCommandLineOption
        kPerNode({ QStringLiteral("gpus-per-node") },
                 QStringLiteral("GPUs per node (estimate's default: every GPU of the job on one "
                                "node; plan's: 8); collectives that span more cross --inter-link."),
                 QStringLiteral("N"));
    const QCommandLineOption kNodes({ QStringLiteral("nodes") },
                                    QStringLiteral("Nodes; with --gpus-per-node, their product must be tp x pp x dp."),
                                    QStringLiteral("N"));
    const QCommandLineOption kIntra({ QStringLiteral("intra-link") },
                                    QStringLiteral("Link inside a node: auto (the GPU file's NVLink or PCIe), pcie-shm "
                                                   "(no peer-to-peer), pcie4, pcie5, nvlink-bridge, nvlink3, nvlink4 "
                                                   "(measured all-reduce bus bandwidths)."),
                                    QStringLiteral("kind"));
    const QCommandLineOption kInter({ QStringLiteral("inter-link") },
                                    QStringLiteral("Link between nodes, per GPU: auto (ib-hdr), eth-100g, ib-hdr, "
                                                   "ib-ndr (line rates)."),
                                    QStringLiteral("kind"));

} // namespace

void addClusterOptions(QCommandLineParser& parser) { parser.addOptions({ kPerNode, kIntra, kInter }); }

std::optional<QString> readClusterOptions(const QCommandLineParser& p, ClusterConfig* cl)
{
    std::optional<QString> e;
    if ((e = integer(p, kPerNode, 1, 1024, &cl->gpusPerNode)))
        return e;
    if ((e = choice(p, kIntra, &linkKindFromString, "auto, pcie-shm, pcie4, pcie5, nvlink-bridge, nvlink3, nvlink4",
                    &cl->intraLink)))
        return e;
    if (linkFigure(cl->intraLink).interNode)
        return QStringLiteral("--intra-link: %1 joins nodes; inside a node: auto, pcie-shm, pcie4, pcie5, "
                              "nvlink-bridge, nvlink3, nvlink4")
            .arg(p.value(kIntra));
    if ((e = choice(p, kInter, &linkKindFromString, "auto, eth-100g, ib-hdr, ib-ndr", &cl->interLink)))
        return e;
    if (cl->interLink != LinkKind::Auto && !linkFigure(cl->interLink).interNode)
        return QStringLiteral("--inter-link: %1 is a link inside a node; between nodes: auto, eth-100g, ib-hdr, ib-ndr")
            .arg(p.value(kInter));
    return std::nullopt;
}

void addParallelismOptions(QCommandLineParser& parser)
{
    parser.addOptions({ kPp, kVpp, kFirstLayers, kLastLayers, kEp, kCp, kSchedule, kGlobalBatch, kNodes });
    addClusterOptions(parser);
}

std::optional<QString> readParallelismOptions(const QCommandLineParser& p, TrainingConfig* c)
{
    std::optional<QString> e;
    if ((e = integer(p, kPp, 1, 1024, &c->pipelineParallel)))
        return e;
    if ((e = integer(p, kVpp, 1, 128, &c->virtualStages)))
        return e;
    if ((e = integer(p, kFirstLayers, 1, kMaxModelLayers, &c->firstStageLayers)))
        return e;
    if ((e = integer(p, kLastLayers, 1, kMaxModelLayers, &c->lastStageLayers)))
        return e;
    if ((p.isSet(kFirstLayers) || p.isSet(kLastLayers)) && c->pipelineParallel < 2)
        return QStringLiteral("--%1: blocks per stage need --pp 2 or more")
            .arg(p.isSet(kFirstLayers) ? kFirstLayers.names().first() : kLastLayers.names().first());
    if ((e = integer(p, kEp, 1, 1024, &c->expertParallel)))
        return e;
    if ((e = integer(p, kCp, 1, 1024, &c->contextParallel)))
        return e;
    if (p.isSet(kVpp) && c->virtualStages > 1)
        c->pipelineSchedule = PipelineSchedule::Interleaved;
    if ((e = choice(p, kSchedule, &pipelineScheduleFromString, "gpipe, 1f1b, interleaved", &c->pipelineSchedule)))
        return e;
    if (c->pipelineSchedule != PipelineSchedule::Interleaved && c->virtualStages > 1)
        return QStringLiteral("--vpp: %1 model chunks per stage need --pipeline-schedule interleaved")
            .arg(c->virtualStages);
    if (c->pipelineSchedule == PipelineSchedule::Interleaved && c->pipelineParallel < 2)
        return QStringLiteral("--pipeline-schedule interleaved needs --pp 2 or more");
    if (p.isSet(kGlobalBatch)) {
        std::int64_t global = 0;
        if ((e = integer(p, kGlobalBatch, 1, qint64(1) << 40, &global)))
            return e;
        const std::int64_t perStep = c->microBatch * std::max(1, c->dataParallel);
        if (global % perStep != 0)
            return QStringLiteral("--global-batch: %1 is not a multiple of --batch x --dp = %2 x %3")
                .arg(global)
                .arg(c->microBatch)
                .arg(c->dataParallel);
        const std::int64_t m = global / perStep;
        if (m > (1 << 20))
            return QStringLiteral("--global-batch: %1 gives %2 micro-batches per step; at most 1048576")
                .arg(global)
                .arg(m);
        if (p.isSet(QStringLiteral("grad-accum")) && m != c->gradientAccumulation)
            return QStringLiteral("--global-batch: %1 means %2 micro-batches per step, but --grad-accum says %3")
                .arg(global)
                .arg(m)
                .arg(c->gradientAccumulation);
        c->gradientAccumulation = int(m);
    }
    ClusterConfig& cl = c->cluster;
    if ((e = readClusterOptions(p, &cl)))
        return e;
    const std::int64_t gpus = jobGpus(*c);
    if (p.isSet(kNodes)) {
        int nodes = 1;
        if ((e = integer(p, kNodes, 1, 1 << 16, &nodes)))
            return e;
        if (cl.gpusPerNode == 0)
            cl.gpusPerNode = (gpus + nodes - 1) / nodes;
        if (std::int64_t(nodes) * cl.gpusPerNode != gpus)
            return QStringLiteral("--nodes: %1 nodes x %2 GPUs = %3, but --tp x --pp x --cp x --dp = %4")
                .arg(nodes)
                .arg(cl.gpusPerNode)
                .arg(std::int64_t(nodes) * cl.gpusPerNode)
                .arg(gpus);
    }
    return std::nullopt;
}

void appendParallelismArguments(const TrainingConfig& c, QStringList& a)
{
    if (c.cluster.gpusPerNode > 0)
        a << QStringLiteral("--gpus-per-node") << QString::number(c.cluster.gpusPerNode);
    for (const auto& [option, kind] :
         { std::pair { "--intra-link", c.cluster.intraLink }, std::pair { "--inter-link", c.cluster.interLink } }) {
        if (kind != LinkKind::Auto)
            a << QLatin1String(option) << QString::fromLatin1(toString(kind).data(), qsizetype(toString(kind).size()));
    }
    if (c.expertParallel != 1)
        a << QStringLiteral("--ep") << QString::number(c.expertParallel);
    if (c.contextParallel != 1)
        a << QStringLiteral("--cp") << QString::number(c.contextParallel);
    if (c.pipelineParallel == 1)
        return;
    const std::string_view kind = toString(c.pipelineSchedule);
    a << QStringLiteral("--pp") << QString::number(c.pipelineParallel) << QStringLiteral("--pipeline-schedule")
      << QString::fromLatin1(kind.data(), qsizetype(kind.size()));
    if (c.virtualStages != 1)
        a << QStringLiteral("--vpp") << QString::number(c.virtualStages);
    if (c.firstStageLayers > 0)
        a << QStringLiteral("--pp-first-layers") << QString::number(c.firstStageLayers);
    if (c.lastStageLayers > 0)
        a << QStringLiteral("--pp-last-layers") << QString::number(c.lastStageLayers);
}

} // namespace headroom
