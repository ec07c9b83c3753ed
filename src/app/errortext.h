#pragma once

// A core error (file, field, message) as the text the app shows.

#include "error.h"

#include <QString>

namespace headroom {

inline QString errorText(const Error& e) { return QString::fromStdString(e.toString()); }

} // namespace headroom
