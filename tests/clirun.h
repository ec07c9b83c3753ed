#pragma once

// Runs the headroom binary for the command-line tests and keeps what it printed.

#include <QByteArray>
#include <QProcess>
#include <QStringList>

// The planner simulates thousands of layouts: unoptimised under AddressSanitizer (scripts/sanitize.sh, GCC defines
// __SANITIZE_ADDRESS__) one `headroom plan` outlasts runHeadroom's minute. Its checks run in the release pass, as
// tst_planner's do; the sanitizer pass skips them.
#if defined(__SANITIZE_ADDRESS__)
#define HEADROOM_SKIP_PLANNER_UNDER_SANITIZER()                                                                        \
    QSKIP("headroom plan under AddressSanitizer outlasts the minute a command may take: the release pass runs this")
#else
#define HEADROOM_SKIP_PLANNER_UNDER_SANITIZER() (void)0
#endif

namespace test {

struct CliRun {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

inline CliRun runHeadroom(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(HEADROOM_BINARY), args);
    p.waitForFinished(60000);
    return { p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError() };
}

} // namespace test
