#pragma once

// What a name typed into the GPU or model picker and confirmed with Enter means: the entry whose id or name matches
// best, ignoring case, spaces, dashes and dots ("Llama 2 7B", "llama-2-7b" and "LLAMA27B" are one name).

#include <QString>
#include <QStringList>

namespace headroom::gui {

struct PickerCandidate {
    QString id;   // "llama-2-7b"
    QString name; // "Llama 2 7B", without the parameter count the picker adds
};

// Lower case, letters and digits only.
QString normalizedPickerName(const QString& text);

// The index in `candidates` of the best match for `typed`, or -1 when none matches. Best first: an id or name equal
// to it, one that starts with it, one that contains it, one that contains each of its words; among equals, the
// shortest (the closest) and then the first.
int bestPickerMatch(const QList<PickerCandidate>& candidates, const QString& typed);

} // namespace headroom::gui
