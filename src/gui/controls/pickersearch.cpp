#include "pickersearch.h"

#include <QRegularExpression>

#include <limits>

namespace headroom::gui {

QString normalizedPickerName(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c.isLetterOrNumber())
            out += c.toLower();
    }
    return out;
}

namespace {

    // 0 for no match; higher is better.
    int score(const QString& candidate, const QString& query, const QStringList& words)
    {
        if (candidate.isEmpty())
            return 0;
        if (candidate == query)
            return 4;
        if (candidate.startsWith(query))
            return 3;
        if (candidate.contains(query))
            return 2;
        for (const QString& w : words) {
            if (!candidate.contains(w))
                return 0;
        }
        return words.isEmpty() ? 0 : 1;
    }

} // namespace

int bestPickerMatch(const QList<PickerCandidate>& candidates, const QString& typed)
{
    const QString query = normalizedPickerName(typed);
    if (query.isEmpty())
        return -1;
    QStringList words;
    for (const QString& w : typed.split(QRegularExpression(QStringLiteral("[\\s\\-_/.,()]+")), Qt::SkipEmptyParts)) {
        const QString n = normalizedPickerName(w);
        if (!n.isEmpty())
            words << n;
    }
    int best = -1;
    int bestScore = 0;
    qsizetype bestLength = std::numeric_limits<qsizetype>::max();
    for (int i = 0; i < candidates.size(); ++i) {
        for (const QString& text : { candidates[i].id, candidates[i].name }) {
            const QString c = normalizedPickerName(text);
            const int s = score(c, query, words);
            if (s > bestScore || (s == bestScore && s > 0 && c.size() < bestLength)) {
                best = i;
                bestScore = s;
                bestLength = c.size();
            }
        }
    }
    return best;
}

} // namespace headroom::gui
