#pragma once

// Runs the headroom binary for the command-line tests and keeps what it printed.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace test {

struct CliRun {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

// The binary the build made, or where a sanitized twin runs (tests/CMakeLists.txt), the command line built with
// the sanitizers.
inline QString headroomBinary()
{
    return qEnvironmentVariable("HEADROOM_TEST_BINARY", QStringLiteral(HEADROOM_BINARY));
}

inline CliRun runHeadroom(const QStringList& args)
{
    QProcess p;
    p.start(headroomBinary(), args);
    p.waitForFinished(60000);
    return { p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError() };
}

} // namespace test
