#include "allocatoroptions.h"

#include "allocator.h"
#include "optionparse.h"
#include "units.h"

#include <cmath>

namespace headroom {

namespace {

    const QCommandLineOption kOverhead({ QStringLiteral("overhead-mib") },
                                       QStringLiteral("Framework overhead in MiB (default: the GPU file's)."),
                                       QStringLiteral("MiB"));
    const QCommandLineOption
        kReserve({ QStringLiteral("allocator-reserve") },
                 QStringLiteral("Caching-allocator slack as a fraction of allocated bytes (default 0)."),
                 QStringLiteral("fraction"));
    const QCommandLineOption kNcclChannels(
        { QStringLiteral("nccl-channels") },
        QStringLiteral("Ring channels per NCCL communicator, as NCCL_MIN/MAX_NCHANNELS set them (default: "
                       "the link's: 2 over PCIe, 4 over an NVLink bridge, 24 over NVSwitch); each "
                       "holds 10 MiB of buffers on every rank."),
        QStringLiteral("N"));
    const QCommandLineOption kExpandable(
        { QStringLiteral("expandable-segments") },
        QStringLiteral("Replay the caching allocator with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True."));
    const QCommandLineOption kCublas({ QStringLiteral("cublas-workspace-config") },
                                     QStringLiteral("The cuBLAS workspace as CUBLAS_WORKSPACE_CONFIG sets it: "
                                                    ":SIZE:COUNT pairs in KiB (default :4096:8 on compute "
                                                    "capability 9.0 and newer, :4096:2:16:8 before)."),
                                     QStringLiteral("config"));
    const QCommandLineOption kCudnn({ QStringLiteral("cudnn-workspace-mib") },
                                    QStringLiteral("Workspace each cuDNN convolution call takes from the caching "
                                                   "allocator while it runs (default 0: implicit-GEMM engines)."),
                                    QStringLiteral("MiB"));

    QString num(double v) { return QString::number(v, 'g', 12); }

} // namespace

void addAllocatorOptions(QCommandLineParser& parser)
{
    parser.addOptions({ kOverhead, kReserve, kExpandable, kNcclChannels, kCublas, kCudnn });
}

QStringList allocatorOptionNames()
{
    QStringList names;
    for (const QCommandLineOption* o : { &kOverhead, &kReserve, &kExpandable, &kNcclChannels, &kCublas, &kCudnn })
        names << o->names().first();
    return names;
}

std::optional<QString> readAllocatorOptions(const QCommandLineParser& p, TrainingConfig* c)
{
    std::optional<QString> e;
    double d = 0.0;
    if (p.isSet(kExpandable))
        c->expandableSegments = true;
    if ((e = integer(p, kNcclChannels, 1, 64, &c->ncclChannels)))
        return e;
    if (p.isSet(kOverhead)) {
        if ((e = number(p, kOverhead, 0, 1 << 20, &d)))
            return e;
        c->overheadBytes = units::fromMiB(d);
    }
    if ((e = number(p, kReserve, 0, 10, &c->allocatorReserveFraction)))
        return e;
    if (p.isSet(kCublas)) {
        const auto bytes = cublasWorkspaceConfigBytes(p.value(kCublas).toStdString());
        if (!bytes)
            return QStringLiteral("--cublas-workspace-config: \"%1\" has no :SIZE:COUNT pair (sizes in KiB, as in "
                                  ":4096:8)")
                .arg(p.value(kCublas));
        if (*bytes > units::fromMiB(1 << 20))
            return QStringLiteral("--cublas-workspace-config: \"%1\" is more than 1048576 MiB").arg(p.value(kCublas));
        c->cublasWorkspaceBytes = *bytes;
    }
    if (p.isSet(kCudnn)) {
        if ((e = number(p, kCudnn, 0, 1 << 20, &d)))
            return e;
        c->cudnnWorkspaceBytes = units::fromMiB(d);
    }
    return std::nullopt;
}

void appendAllocatorArguments(const TrainingConfig& c, QStringList& a)
{
    if (c.expandableSegments)
        a << QStringLiteral("--expandable-segments");
    if (c.ncclChannels > 0)
        a << QStringLiteral("--nccl-channels") << QString::number(c.ncclChannels);
    if (c.overheadBytes)
        a << QStringLiteral("--overhead-mib") << num(units::toMiB(*c.overheadBytes));
    if (c.allocatorReserveFraction != 0.0)
        a << QStringLiteral("--allocator-reserve") << num(c.allocatorReserveFraction);
    if (c.cublasWorkspaceBytes)
        a << QStringLiteral("--cublas-workspace-config")
          << QStringLiteral(":%1:1").arg(std::llround(*c.cublasWorkspaceBytes / 1024.0)); // whole KiB, as parsed
    if (c.cudnnWorkspaceBytes > 0.0)
        a << QStringLiteral("--cudnn-workspace-mib") << num(units::toMiB(c.cudnnWorkspaceBytes));
}

} // namespace headroom
