#pragma once

// Colours, fonts and line widths of every chart, in one place: fixed, colour-blind safe colours per memory
// category and operator kind (Okabe & Ito's palette), chart backgrounds that follow the light or dark system
// palette, and a presentation variant with large fonts and thick lines for projectors.

#include "types.h"

#include <QColor>
#include <QFont>
#include <QPalette>

QT_BEGIN_NAMESPACE
class QChart;
class QAbstractAxis;
class QValueAxis;
class QXYSeries;
class QGraphicsSimpleTextItem;
QT_END_NAMESPACE

namespace headroom::gui {

QColor categoryColor(MemoryCategory c);
QColor kindColor(OpKind k);
QColor unitColor(MathUnit u);
// `colour` composited over the opaque `below`: what a translucent colour shows there, as an opaque colour. The raster
// engine fills an opaque colour by memset; a translucent one it blends span by span, and for more than ~96 spans (a
// vertical line, a tall bar) it hands them to Qt's GUI thread pool and waits (qdrawhelper.cpp, blend_color_argb).
QColor over(const QColor& colour, const QColor& below);

struct ChartStyle {
    QColor background;
    QColor plotBackground;
    QColor foreground;
    QColor grid;
    QColor capacity;  // the GPU's memory line
    QColor overflow;  // what does not fit
    QColor bandwidth; // the roofline's memory slope
    QFont labelFont;
    QFont titleFont;
    QFont annotationFont;
    qreal lineWidth = 2.0;
    qreal markerScale = 1.0;
    qreal hairline = 0.0; // grid and axis lines: cosmetic on screen, a real width in exported vector files
    bool dark = false;
    bool presentation = false;
};

// `presentationScale` enlarges fonts, lines and markers in presentation mode (the window picks it from the screen).
ChartStyle chartStyle(const QPalette& palette, bool presentation, qreal presentationScale = 1.8);
// The style of exported figures: fixed colours (not the desktop's palette) and fonts sized in pixels (not points),
// so that a figure is the same whichever screen, DPI or display-less machine renders it.
ChartStyle exportChartStyle(bool dark, bool presentation);

// The smallest "nice" number (1, 2, 2.5 or 5 times a power of ten) not below v.
double niceCeiling(double v);
// Sets [0, niceCeiling(top)] on a value axis only when that changes: a changed range re-lays out the chart, which
// costs more than the rest of a slider tick.
void setStableTop(QValueAxis* axis, double top);
// `font` at `k` times its size, in points or pixels as it is given.
QFont scaledFont(QFont font, qreal k);
// Replaces a series' points only when they differ: a replaced series re-strokes its outline even with the same
// points. Returns whether it changed.
bool replaceIfChanged(QXYSeries* series, const QList<QPointF>& points);
// The same for a text item.
void setTextIfChanged(QGraphicsSimpleTextItem* item, const QString& text);
void applyStyle(QChart* chart, const ChartStyle& style);
void applyAxisStyle(QAbstractAxis* axis, const ChartStyle& style);

} // namespace headroom::gui
