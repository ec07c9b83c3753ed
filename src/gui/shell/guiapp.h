#pragma once

namespace headroom {

// Runs the explorer window (QApplication event loop).
int runGui(int argc, char** argv);

} // namespace headroom
