// headroom: the explorer window, or a headless command (estimate, list, export) on the same core.

#include "cli.h"

#ifdef HEADROOM_WITH_GUI
#include "guiapp.h"
#endif

#include <cstdio>

int main(int argc, char** argv)
{
    if (headroom::isHeadlessInvocation(argc, argv))
        return headroom::runHeadless(argc, argv);
#ifdef HEADROOM_WITH_GUI
    return headroom::runGui(argc, argv);
#else
    std::fputs("headroom: built without the window; run `headroom --help` for the commands\n", stderr);
    return 2;
#endif
}
