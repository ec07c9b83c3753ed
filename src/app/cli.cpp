#include "cli.h"

#include "estimatecommand.h"
#include "infercommand.h"
#include "plancommand.h"

#include <QCoreApplication>
#include <QStringList>
#include <QTextStream>

#include <cstring>

namespace headroom {

namespace {

    const char* const kCommands[] = { "estimate", "plan", "infer", "list", "export" };

    QString overview()
    {
        return QStringLiteral(
            "Usage: headroom [options] [command]\n"
            "\n"
            "Headroom explores the GPU memory and bandwidth of one neural-network training step.\n"
            "Without a command it opens the explorer window.\n"
            "\n"
            "Commands:\n"
            "  estimate   Memory timeline, peak, verdict, step time and roofline of one training step\n"
            "             (table, or JSON with --json). With no options: the default scenario.\n"
            "  plan       Every layout of a job on N GPUs (tensor, pipeline, data parallelism, ZeRO,\n"
            "             checkpointing, micro-batch) ranked by predicted throughput among those that fit.\n"
            "  infer      Memory, fit, prefill time and decode speed of serving a decoder-only language model\n"
            "             (weights in fp16 to 4-bit GPTQ/AWQ/NF4 and GGUF, the KV cache, --tp ranks).\n"
            "  list       List the GPUs (`list gpus`) or the model presets (`list models`).\n"
            "  export     Render the charts to SVG, PNG or PDF without a display.\n"
            "\n"
            "Options:\n"
            "  -h, --help     Displays help on commandline options.\n"
            "  -v, --version  Displays version information.\n"
            "\n"
            "Window options (without a command):\n"
            "  --scenario <file>       Open a scenario file (.headroom.json).\n"
            "  --palette <scheme>      Colour scheme: system, light or dark (default: View > Colours).\n"
            "  --presentation          Start in presentation mode (F11 toggles it, F10 shows the next charts).\n"
            "  --size <WxH>            Window size, e.g. 1280x720.\n"
            "  --language <code>       User interface language: en or zh_CN (default: the system's).\n"
            "  --tour <step>           Start the guided tour at this step (1 is the first).\n"
            "  --screenshot <file>     Render the window to a PNG file and quit.\n"
            "\n"
            "Run `headroom <command> --help` for the options of a command.\n");
    }

} // namespace

bool isHeadlessInvocation(int argc, char** argv)
{
    if (argc < 2)
        return false;
    const char* a = argv[1];
    // A first argument that is not an option is a command: the known ones, or an unknown one that gets the list of
    // commands and exit status 2 (it must not try to open a window, which fails without a display).
    if (a[0] != '-')
        return true;
    return std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0 || std::strcmp(a, "--version") == 0
        || std::strcmp(a, "-v") == 0 || std::strcmp(a, "--help-all") == 0;
}

int runHeadless(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("headroom"));
    QCoreApplication::setOrganizationName(QStringLiteral("headroom"));
    QCoreApplication::setApplicationVersion(QStringLiteral(HEADROOM_VERSION));
    const QStringList args = QCoreApplication::arguments();
    QTextStream out(stdout);
    const QString command = args.value(1);
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        out << "headroom " << QCoreApplication::applicationVersion() << "\n";
        return 0;
    }
    if (command == QLatin1String("--help") || command == QLatin1String("-h")
        || command == QLatin1String("--help-all")) {
        out << overview();
        return 0;
    }
    // The command stays in the list as the first positional argument of its parser.
    if (command == QLatin1String("estimate"))
        return runEstimate(args);
    if (command == QLatin1String("plan"))
        return runPlan(args);
    if (command == QLatin1String("infer"))
        return runInfer(args);
    if (command == QLatin1String("list"))
        return runList(args);
    QTextStream err(stderr);
    err << "headroom: unknown command \"" << command << "\"; the commands are:";
    for (const char* c : kCommands)
        err << " " << c;
    err << " (run `headroom --help`)\n";
    return 2;
}

} // namespace headroom
