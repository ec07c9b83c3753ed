#pragma once

// Issue 11's contract for `headroom plan`: a row's options added to `estimate --json` and the plan's own options
// (`base`: --gpu, --model, --seq) give exactly the row's peak, step time, throughput and MFU, and a fit.

#include "clirun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace test {

// Runs the estimate for `layout` (a row of `plan --json`) and compares; the estimate's JSON goes to `estimate` for
// the caller's own checks. A failed comparison returns at once (QTest::currentTestFailed() says so).
inline void reproducePlanRow(const QStringList& base, const QJsonObject& layout, QJsonObject* estimate = nullptr)
{
    QStringList args = QStringList { QStringLiteral("estimate"), QStringLiteral("--json") } + base;
    const QJsonObject options = layout.value(QStringLiteral("options")).toObject();
    for (auto it = options.begin(); it != options.end(); ++it) {
        args << it.key();
        if (!it.value().toString().isEmpty())
            args << it.value().toString();
    }
    const CliRun e = runHeadroom(args);
    QCOMPARE(e.code, 0);
    const QJsonObject est = QJsonDocument::fromJson(e.out).object();
    QCOMPARE(est.value(QStringLiteral("memory")).toObject().value(QStringLiteral("peak")).toInteger(),
             layout.value(QStringLiteral("peak_bytes")).toInteger());
    QCOMPARE(est.value(QStringLiteral("step_time_seconds")).toDouble(),
             layout.value(QStringLiteral("step_time_seconds")).toDouble());
    QCOMPARE(est.value(QStringLiteral("throughput_per_second")).toDouble(),
             layout.value(QStringLiteral("throughput_per_second")).toDouble());
    QCOMPARE(est.value(QStringLiteral("mfu")).toDouble(), layout.value(QStringLiteral("mfu")).toDouble());
    QVERIFY(est.value(QStringLiteral("fits")).toBool());
    if (estimate)
        *estimate = est;
}

} // namespace test
