#pragma once

// `headroom plan`: every layout of a job on N GPUs ranked by predicted throughput (issue 11's contract).

#include <QStringList>

namespace headroom {

int runPlan(const QStringList& arguments);

} // namespace headroom
