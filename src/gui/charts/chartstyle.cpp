#include "chartstyle.h"

#include <QAbstractAxis>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QGuiApplication>
#include <QLegend>
#include <QValueAxis>
#include <QXYSeries>

#include <cmath>

namespace headroom::gui {

// Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour-vision deficiency.
QColor categoryColor(MemoryCategory c)
{
    switch (c) {
    case MemoryCategory::Weights:
        return QColor(0x00, 0x72, 0xB2); // blue
    case MemoryCategory::WeightCopies:
        return QColor(0x56, 0xB4, 0xE9); // sky blue
    case MemoryCategory::Gradients:
        return QColor(0x00, 0x9E, 0x73); // bluish green
    case MemoryCategory::OptimizerStates:
        return QColor(0xE6, 0x9F, 0x00); // orange
    case MemoryCategory::Activations:
        return QColor(0xD5, 0x5E, 0x00); // vermillion
    case MemoryCategory::Transient:
        return QColor(0xCC, 0x79, 0xA7); // reddish purple
    case MemoryCategory::Overhead:
        return QColor(0x99, 0x99, 0x99); // grey
    }
    return Qt::gray;
}

QColor kindColor(OpKind k)
{
    switch (k) {
    case OpKind::Gemm:
        return QColor(0x00, 0x72, 0xB2);
    case OpKind::Attention:
        return QColor(0xD5, 0x5E, 0x00);
    case OpKind::Normalization:
        return QColor(0x00, 0x9E, 0x73);
    case OpKind::Elementwise:
        return QColor(0xCC, 0x79, 0xA7);
    case OpKind::Embedding:
        return QColor(0xE6, 0x9F, 0x00);
    case OpKind::Loss:
        return QColor(0x56, 0xB4, 0xE9);
    case OpKind::Optimizer:
        return QColor(0x77, 0x77, 0x77);
    }
    return Qt::gray;
}

QColor unitColor(MathUnit u)
{
    switch (u) {
    case MathUnit::Fp32Vector:
        return QColor(0x77, 0x77, 0x77);
    case MathUnit::Tf32Tensor:
        return QColor(0x00, 0x9E, 0x73);
    case MathUnit::Fp16Tensor:
        return QColor(0x56, 0xB4, 0xE9);
    case MathUnit::Bf16Tensor:
        return QColor(0x00, 0x72, 0xB2);
    case MathUnit::Fp8Tensor:
        return QColor(0xCC, 0x79, 0xA7);
    }
    return Qt::gray;
}

QColor over(const QColor& colour, const QColor& below)
{
    const double a = colour.alphaF();
    auto mix = [a](double top, double under) { return top * a + under * (1.0 - a); };
    return QColor::fromRgbF(float(mix(colour.redF(), below.redF())), float(mix(colour.greenF(), below.greenF())),
                            float(mix(colour.blueF(), below.blueF())));
}

double niceCeiling(double v)
{
    if (!(v > 0.0) || !std::isfinite(v))
        return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : { 1.0, 2.0, 2.5, 5.0, 10.0 }) {
        if (m * p >= v * (1.0 - 1e-12))
            return m * p;
    }
    return 10.0 * p;
}

void setStableTop(QValueAxis* axis, double top)
{
    const double nice = niceCeiling(top);
    if (axis->min() != 0.0 || axis->max() != nice) {
        axis->setRange(0.0, nice);
        // A constant tick count: changing it makes Qt Charts create new grid items.
        if (axis->tickCount() != 6)
            axis->setTickCount(6);
    }
}

QFont scaledFont(QFont font, qreal k)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * k);
    else
        font.setPixelSize(std::max(1, int(font.pixelSize() * k)));
    return font;
}

bool replaceIfChanged(QXYSeries* series, const QList<QPointF>& points)
{
    if (series->points() == points)
        return false;
    series->replace(points);
    return true;
}

void setTextIfChanged(QGraphicsSimpleTextItem* item, const QString& text)
{
    if (item->text() != text)
        item->setText(text);
}

ChartStyle chartStyle(const QPalette& palette, bool presentation, qreal presentationScale)
{
    ChartStyle s;
    s.background = palette.color(QPalette::Base);
    s.plotBackground = palette.color(QPalette::Base);
    s.foreground = palette.color(QPalette::Text);
    s.dark = s.background.lightnessF() < 0.5;
    s.grid = over(s.dark ? QColor(255, 255, 255, 40) : QColor(0, 0, 0, 30), s.plotBackground);
    s.capacity = s.dark ? QColor(0xF0, 0xF0, 0xF0) : QColor(0x10, 0x10, 0x10);
    s.overflow = QColor(0xD5, 0x5E, 0x00);
    s.bandwidth = s.dark ? QColor(0xF0, 0xE4, 0x42) : QColor(0x80, 0x60, 0x00);
    s.presentation = presentation;
    QFont base = QGuiApplication::font();
    const qreal scale = presentation ? presentationScale : 1.0;
    s.labelFont = base;
    s.labelFont.setPointSizeF(base.pointSizeF() * scale);
    s.titleFont = base;
    s.titleFont.setPointSizeF(base.pointSizeF() * 1.15 * scale);
    s.titleFont.setBold(true);
    s.annotationFont = base;
    s.annotationFont.setPointSizeF(base.pointSizeF() * 0.95 * scale);
    s.lineWidth = presentation ? 2.0 * std::max<qreal>(1.5, scale * 1.1) : 2.0;
    s.markerScale = presentation ? std::max<qreal>(1.2, scale * 0.9) : 1.0;
    if (presentation) {
        // High contrast: pure black on white or white on black.
        s.background = s.plotBackground = s.dark ? Qt::black : Qt::white;
        s.foreground = s.dark ? Qt::white : Qt::black;
        s.grid = over(s.dark ? QColor(255, 255, 255, 70) : QColor(0, 0, 0, 60), s.plotBackground);
    }
    return s;
}

ChartStyle exportChartStyle(bool dark, bool presentation)
{
    QPalette palette;
    palette.setColor(QPalette::Base, dark ? QColor(0x1E, 0x1E, 0x20) : QColor(Qt::white));
    palette.setColor(QPalette::Text, dark ? QColor(0xE8, 0xE8, 0xE8) : QColor(0x20, 0x20, 0x20));
    ChartStyle s = chartStyle(palette, presentation);
    const qreal scale = presentation ? 1.8 : 1.0;
    const QString family = QGuiApplication::font().family();
    auto font = [&](qreal px, bool bold) {
        QFont f(family);
        f.setPixelSize(qRound(px * scale));
        f.setBold(bold);
        // No ligatures: a PDF maps a ligature's glyph back to U+FB01 and U+FB02, and "bfloat16" copied or searched
        // out of an exported figure read "bﬂoat16".
        f.setStyleStrategy(QFont::PreferNoShaping);
        return f;
    };
    s.labelFont = font(13, false);
    s.titleFont = font(15, true);
    s.annotationFont = font(12.5, false);
    s.hairline = 0.75;
    return s;
}

void applyAxisStyle(QAbstractAxis* axis, const ChartStyle& s)
{
    axis->setLabelsColor(s.foreground);
    axis->setLabelsFont(s.labelFont);
    axis->setTitleBrush(s.foreground);
    axis->setTitleFont(s.labelFont);
    // Solid cosmetic (width 0) grid pens in opaque colours (see over()): the raster engine draws them directly, where
    // a dashed or width-1 pen is stroked into a path on every repaint.
    axis->setGridLinePen(QPen(s.grid, s.hairline, Qt::SolidLine));
    QColor minor = s.grid;
    minor.setAlphaF(0.5);
    minor = over(minor, s.plotBackground);
    axis->setMinorGridLinePen(QPen(minor, s.hairline, Qt::SolidLine));
    axis->setLinePen(QPen(s.foreground, s.hairline));
}

void applyStyle(QChart* chart, const ChartStyle& s)
{
    chart->setBackgroundBrush(s.background);
    chart->setPlotAreaBackgroundBrush(s.plotBackground);
    chart->setPlotAreaBackgroundVisible(true);
    chart->setTitleBrush(s.foreground);
    chart->setTitleFont(s.titleFont);
    chart->legend()->setLabelColor(s.foreground);
    chart->legend()->setFont(s.labelFont);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    for (QAbstractAxis* a : chart->axes())
        applyAxisStyle(a, s);
}

} // namespace headroom::gui
