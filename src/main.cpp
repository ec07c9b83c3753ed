// headroom: the explorer window, or a headless command (estimate, list, export) on the same core.

#include "cli.h"

#ifdef HEADROOM_WITH_GUI
#include "exportcommand.h"
#include "guiapp.h"
#endif

#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
#ifdef HEADROOM_WITH_GUI
    // Figures need Qt Widgets and Qt Charts, so `export` runs in the GUI library (on the offscreen platform).
    if (argc >= 2 && std::strcmp(argv[1], "export") == 0)
        return headroom::runExport(argc, argv);
#endif
    if (headroom::isHeadlessInvocation(argc, argv))
        return headroom::runHeadless(argc, argv);
#ifdef HEADROOM_WITH_GUI
    return headroom::runGui(argc, argv);
#else
    std::fputs("headroom: built without the window; run `headroom --help` for the commands\n", stderr);
    return 2;
#endif
}
