#pragma once

// One legend for the memory categories, shared by the three memory charts so that each chart keeps its width
// for data. Colours are the fixed category colours of chartstyle.h.

#include <QList>
#include <QRect>
#include <QWidget>

namespace headroom::gui {

class CategoryLegend : public QWidget {
    Q_OBJECT

public:
    explicit CategoryLegend(QWidget* parent = nullptr);
    void setPresentationMode(bool on);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Where each category's swatch and name go at a width (for tests: all inside the legend).
    QList<QRect> itemRects(int width) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    int rowHeight() const;
    void fitHeight();
    qreal m_scale = 1.0;
};

} // namespace headroom::gui
