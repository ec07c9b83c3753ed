#include "pdftext.h"

#include <QFont>
#include <QFontDatabase>
#include <QHash>
#include <QRawFont>

namespace headroom::gui {

namespace {

    constexpr char16_t kRadicalsFirst = 0x2E80, kRadicalsLast = 0x2FDF;     // CJK Radicals Supplement, Kangxi Radicals
    constexpr char16_t kIdeographsFirst = 0x4E00, kIdeographsLast = 0x9FFF; // CJK Unified Ideographs

    QString range(char16_t first, char16_t last)
    {
        QString s;
        s.reserve(last - first + 1);
        for (char32_t c = first; c <= last; ++c)
            s += QChar(char16_t(c));
        return s;
    }

    // Each radical `raw` draws with the glyph of an ideograph, to that ideograph (the lowest, as one glyph may serve
    // several).
    QHash<char16_t, char16_t> ideographsOfRadicals(const QRawFont& raw)
    {
        QHash<char16_t, char16_t> out;
        if (!raw.isValid())
            return out;
        const QList<quint32> ideographs = raw.glyphIndexesForString(range(kIdeographsFirst, kIdeographsLast));
        QHash<quint32, char16_t> byGlyph;
        for (qsizetype i = 0; i < ideographs.size(); ++i) {
            if (ideographs[i] != 0 && !byGlyph.contains(ideographs[i]))
                byGlyph.insert(ideographs[i], char16_t(kIdeographsFirst + i));
        }
        const QList<quint32> radicals = raw.glyphIndexesForString(range(kRadicalsFirst, kRadicalsLast));
        for (qsizetype i = 0; i < radicals.size(); ++i) {
            if (const auto it = byGlyph.constFind(radicals[i]); radicals[i] != 0 && it != byGlyph.constEnd())
                out.insert(char16_t(kRadicalsFirst + i), *it);
        }
        return out;
    }

    int hexDigit(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        return -1;
    }

    // The line's <XXXX> tokens after the first `sources` (the glyphs' codes) are code points: replaced in place. A
    // bfrange's "<first> <last> <code point>" over several glyphs maps them to consecutive code points from that one,
    // which a replaced start would shift: such a line is left as it is.
    void restoreLine(char* line, qsizetype length, int sources, const QHash<char16_t, char16_t>& map)
    {
        static constexpr char kHex[] = "0123456789ABCDEF";
        const bool consecutive = sources == 2 && !QByteArrayView(line, length).contains('[');
        int token = 0, first = -1;
        for (qsizetype i = 0; i + 5 < length; ++i) {
            if (line[i] != '<' || line[i + 5] != '>')
                continue;
            int value = 0;
            for (int d = 1; d <= 4 && value >= 0; ++d) {
                const int h = hexDigit(line[i + d]);
                value = h < 0 ? -1 : value * 16 + h;
            }
            if (value < 0)
                continue;
            if (token == 0)
                first = value;
            else if (token == 1 && consecutive && value != first)
                return;
            if (token++ >= sources) {
                if (const auto it = map.constFind(char16_t(value)); it != map.constEnd()) {
                    for (int d = 0; d < 4; ++d)
                        line[i + 1 + d] = kHex[(*it >> (12 - 4 * d)) & 0xF];
                }
            }
            i += 5;
        }
    }

} // namespace

void restoreIdeographs(QByteArray& pdf, const QFont& font)
{
    const QHash<char16_t, char16_t> map = ideographsOfRadicals(
        QRawFont::fromFont(font, QFontDatabase::SimplifiedChinese));
    if (map.isEmpty())
        return;
    char* data = pdf.data();
    for (qsizetype at = pdf.indexOf("begincmap"); at >= 0; at = pdf.indexOf("begincmap", at)) {
        const qsizetype end = pdf.indexOf("endcmap", at);
        if (end < 0)
            return;
        // bfrange lines are "<first> <last> <code point>" or "<first> <last> [<code point> ...]"; bfchar lines
        // "<glyph> <code point>".
        int sources = 0;
        for (qsizetype line = at; line < end;) {
            qsizetype next = pdf.indexOf('\n', line);
            if (next < 0 || next > end)
                next = end;
            const QByteArrayView text(data + line, next - line);
            if (text.endsWith("beginbfrange"))
                sources = 2;
            else if (text.endsWith("beginbfchar"))
                sources = 1;
            else if (text.startsWith("endbf"))
                sources = 0;
            else if (sources > 0)
                restoreLine(data + line, next - line, sources, map);
            line = next + 1;
        }
        at = end;
    }
}

} // namespace headroom::gui
