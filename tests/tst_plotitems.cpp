// The chart items Headroom paints itself (plotitems.h) stay inside the plot area in every output. A raster
// painter honours the item's clip rectangle, but QSvgGenerator writes no clip, so an item that relied on the clip
// drew a roofline dot below the x axis in SVG exports while the PNG was clean (issue 8).

#include "chartstyle.h"
#include "plotitems.h"

#include <QBuffer>
#include <QChart>
#include <QGraphicsScene>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QSvgGenerator>
#include <QTest>
#include <QValueAxis>

#include <cmath>

using namespace headroom::gui;

class TestPlotItems : public QObject {
    Q_OBJECT

private slots:
    void dotsOutsideThePlotAreNotDrawnInSvg();
    void dotsOnScreenAreWhereTheAxesPutThem();
    void opaqueGridColourIsTheTranslucentOneOverTheBackground();
};

namespace {

// A chart with a log or linear x axis and a linear y axis, an anchor series on them, in a 400 x 300 scene.
struct Plot {
    QGraphicsScene scene;
    QChart* chart = new QChart;
    QLineSeries* anchor = new QLineSeries;
    explicit Plot(bool logX)
    {
        chart->addSeries(anchor);
        QAbstractAxis* x = logX ? static_cast<QAbstractAxis*>(new QLogValueAxis) : new QValueAxis;
        auto* y = new QValueAxis;
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        anchor->attachAxis(x);
        anchor->attachAxis(y);
        x->setRange(logX ? 1.0 : -50.0, logX ? 4096.0 : 150.0);
        y->setRange(-2.0, 30.0);
        scene.addItem(chart);
        chart->resize(400, 300);
    }
};

// The centre of the pixels of `image` that are mostly red.
QPointF redCentre(const QImage& image)
{
    double sx = 0, sy = 0, n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 200 && c.green() < 80 && c.blue() < 80) {
                sx += x + 0.5;
                sy += y + 0.5;
                ++n;
            }
        }
    return n > 0 ? QPointF(sx / n, sy / n) : QPointF(-1, -1);
}

} // namespace

// On screen a dot is a cached pixmap placed through an affine map of the axes (of log x on a log axis), not through
// QChart::mapToPosition(); it must land where that puts it, on either kind of axis, anywhere in the plot.
void TestPlotItems::dotsOnScreenAreWhereTheAxesPutThem()
{
    for (const bool logX : { true, false }) {
        for (const QPointF at : { QPointF(3.0, 1.0), QPointF(100.0, 12.5), QPointF(2900.0, 27.0) }) {
            Plot plot(logX);
            auto* dots = new DotsItem(plot.chart, plot.anchor);
            dots->setDots({ { at, 10.0, Qt::red, 0 } });
            dots->relayout();
            QImage image(400, 300, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            {
                QPainter p(&image);
                plot.scene.render(&p, QRectF(0, 0, 400, 300), QRectF(0, 0, 400, 300));
            }
            const QPointF expected = plot.chart->mapToPosition(at, plot.anchor);
            if (!plot.chart->plotArea().contains(expected))
                continue; // a linear axis from -50 to 150 does not show x = 2900
            const QPointF found = redCentre(image);
            QVERIFY2(QLineF(found, expected).length() <= 1.0,
                     qPrintable(QStringLiteral("log x %1, dot at (%2, %3): drawn at (%4, %5), axes put it at (%6, %7)")
                                    .arg(logX)
                                    .arg(at.x())
                                    .arg(at.y())
                                    .arg(found.x())
                                    .arg(found.y())
                                    .arg(expected.x())
                                    .arg(expected.y())));
        }
    }
}

// Porter and Duff's "over" (1984) by hand: 30/255 of black over white leaves 255 - 30 = 225 in each channel; 40/255
// of white over (30, 30, 30) gives 30 + (255 - 30) * 40 / 255 = 65.29.
void TestPlotItems::opaqueGridColourIsTheTranslucentOneOverTheBackground()
{
    const QColor light = over(QColor(0, 0, 0, 30), Qt::white);
    QCOMPARE(light.alpha(), 255);
    QCOMPARE(light.red(), 225);
    QCOMPARE(light.green(), 225);
    QCOMPARE(light.blue(), 225);
    const QColor dark = over(QColor(255, 255, 255, 40), QColor(30, 30, 30));
    QCOMPARE(dark.alpha(), 255);
    QVERIFY(std::abs(dark.redF() * 255.0 - 65.29) < 0.6);
}

void TestPlotItems::dotsOutsideThePlotAreNotDrawnInSvg()
{
    QGraphicsScene scene;
    auto* chart = new QChart;
    auto* anchor = new QLineSeries;
    chart->addSeries(anchor);
    auto* x = new QLogValueAxis;
    auto* y = new QLogValueAxis;
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    anchor->attachAxis(x);
    anchor->attachAxis(y);
    x->setRange(1.0, 1000.0);
    y->setRange(1.0, 1000.0);
    scene.addItem(chart);
    chart->resize(400, 300);
    auto* dots = new DotsItem(chart, anchor);
    dots->setDots({ { QPointF(10.0, 10.0), 12.0, Qt::red, 0 },     // inside
                    { QPointF(10.0, 0.01), 12.0, Qt::blue, 1 },    // below the x axis
                    { QPointF(1e5, 10.0), 12.0, Qt::green, 2 } }); // right of the plot
    dots->relayout();

    QBuffer svg;
    svg.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&svg);
    generator.setSize(QSize(400, 300));
    generator.setViewBox(QRect(0, 0, 400, 300));
    {
        QPainter p(&generator);
        scene.render(&p, QRectF(0, 0, 400, 300), QRectF(0, 0, 400, 300));
    }
    const QByteArray text = svg.data();
    // One ellipse, the red one; the blue and green dots lie outside the axes' ranges.
    QCOMPARE(text.count("<ellipse") + text.count("<circle"), qsizetype(1));
    QVERIFY(text.contains("#ff0000"));
    QVERIFY(!text.contains("#0000ff"));
    QVERIFY(!text.contains("#00ff00"));
}

QTEST_MAIN(TestPlotItems)
#include "tst_plotitems.moc"
