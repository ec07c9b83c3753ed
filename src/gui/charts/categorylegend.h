#pragma once

// One legend for the memory categories, shared by the three memory charts so that each chart keeps its width
// for data. Colours are the fixed category colours of chartstyle.h.

#include <QWidget>

namespace headroom::gui {

class CategoryLegend : public QWidget {
    Q_OBJECT

public:
    explicit CategoryLegend(QWidget* parent = nullptr);
    void setPresentationMode(bool on);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    qreal m_scale = 1.0;
};

} // namespace headroom::gui
