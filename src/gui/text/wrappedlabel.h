#pragma once

// A word-wrapped QLabel's minimum height at the width it has: its own minimum is for another width, so a scroll
// area (a dock's panel) gave it fewer lines than it wraps to, or scrolled by the difference.

#include <QLabel>

namespace headroom::gui {

// Sets the label's minimum height to the height its lines wrap to at its width; true if that changed it. Call it
// when the label is resized (an event filter) and when its text changes.
inline bool fitWrappedLabelHeight(QLabel* label)
{
    const int height = label->heightForWidth(label->width());
    if (height <= 0 || label->minimumHeight() == height)
        return false;
    label->setMinimumHeight(height);
    return true;
}

} // namespace headroom::gui
