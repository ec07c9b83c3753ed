#pragma once

// `headroom infer`: memory, fit and speed of serving a decoder-only language model (prefill and decode).

#include <QStringList>

namespace headroom {

int runInfer(const QStringList& arguments);

} // namespace headroom
