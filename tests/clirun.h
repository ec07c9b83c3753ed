#pragma once

// Runs the headroom binary for the command-line tests and keeps what it printed.

#include <QByteArray>
#include <QProcess>
#include <QStringList>

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
