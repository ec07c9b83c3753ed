#pragma once

// Headless entry points: `headroom estimate`, `headroom list`, `headroom export`, `--help`, `--version`. They run
// on QCoreApplication, so no display is needed.

namespace headroom {

bool isHeadlessInvocation(int argc, char** argv);
int runHeadless(int argc, char** argv);

} // namespace headroom
