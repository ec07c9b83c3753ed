#pragma once

// The Explain panel's HTML pieces, shared by the explainer's files.

#include <QString>

namespace headroom::gui::explainhtml {

inline QString section(const QString& title, const QString& body)
{
    return QStringLiteral("<h3>%1</h3>%2").arg(title, body);
}

inline QString source(const QString& text) { return QStringLiteral("<p><small>%1</small></p>").arg(text); }

} // namespace headroom::gui::explainhtml
