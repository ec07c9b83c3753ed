// The chart items Headroom paints itself (plotitems.h) stay inside the plot area in every output. A raster
// painter honours the item's clip rectangle, but QSvgGenerator writes no clip, so an item that relied on the clip
// drew a roofline dot below the x axis in SVG exports while the PNG was clean (issue 8).

#include "plotitems.h"

#include <QBuffer>
#include <QChart>
#include <QGraphicsScene>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QSvgGenerator>
#include <QTest>

using namespace headroom::gui;

class TestPlotItems : public QObject {
    Q_OBJECT

private slots:
    void dotsOutsideThePlotAreNotDrawnInSvg();
};

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
