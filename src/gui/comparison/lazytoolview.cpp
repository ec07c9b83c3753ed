#include "lazytoolview.h"

namespace headroom::gui {

LazyToolView::LazyToolView(int debounceMs, QWidget* parent)
    : QWidget(parent)
    , m_job(new LazyJob(
          debounceMs, [this] { return job(); }, [this] { return isVisible(); }, this))
{
}

void LazyToolView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_job->start();
}

} // namespace headroom::gui
