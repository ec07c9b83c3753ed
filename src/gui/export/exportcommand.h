#pragma once

// `headroom export`: the same scenario options as `estimate` (or --scenario file), then a chart, a size and an
// output path. Writes a figure (.png, .svg, .pdf), the one-page report (--chart report, .pdf), the breakdown
// (.csv) or the whole result (.json). Needs no display: it runs on Qt's offscreen platform.

#include <QStringList>

namespace headroom {

// Runs in an existing QApplication (the tests call this); returns the process exit status.
int exportFromArguments(const QStringList& arguments);
// Creates the application on the offscreen platform, then runs the command.
int runExport(int argc, char** argv);

} // namespace headroom
