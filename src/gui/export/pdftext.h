#pragma once

// Text that can be copied out of the PDFs Headroom writes.

#include <QByteArray>

class QFont;

namespace headroom::gui {

// Qt's PDF engine writes each embedded font's ToUnicode map from the lowest code point that maps to a glyph
// (qtbase src/gui/text/qfontsubset.cpp, QFontSubset::getReverseMap), and CJK fonts draw a radical (U+2E80 to U+2FDF)
// and its ideograph with one glyph: the Chinese report drew 序列长度 and a reader copying it, searching it or
// running pdftotext got 序列⻓度, with CJK RADICAL C-SIMPLIFIED LONG (U+2EBB). Headroom draws no radicals, so each
// such entry is the ideograph that shares the glyph in the font `font` falls back to for Chinese. Each entry keeps
// its four hex digits, so the file's byte offsets (its xref table) hold.
void restoreIdeographs(QByteArray& pdf, const QFont& font);

} // namespace headroom::gui
