#include "lazytoolview.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace headroom::gui {

LazyToolView::LazyToolView(int debounceMs, QWidget* parent)
    : QWidget(parent)
    , m_debounce(new QTimer(this))
    , m_watcher(new QFutureWatcher<Show>(this))
{
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(debounceMs);
    connect(m_debounce, &QTimer::timeout, this, &LazyToolView::start);
    connect(m_watcher, &QFutureWatcher<Show>::finished, this, [this] {
        if (!m_shown) {
            m_shown = true;
            m_watcher->result()();
        }
        if (m_stale && isVisible())
            start(); // a change came in while it ran
    });
}

// The work captures no `this`; its result, shown on this thread, does: wait for it before the view goes.
LazyToolView::~LazyToolView() { m_watcher->waitForFinished(); }

std::shared_ptr<const Catalog> LazyToolView::snapshot(const Catalog& catalog, const std::string& modelId,
                                                      const std::vector<std::string>& gpuIds)
{
    auto copy = std::make_shared<Catalog>();
    if (const ModelSpec* m = catalog.model(modelId))
        copy->addModel(*m);
    for (const std::string& id : gpuIds) {
        if (const GpuSpec* g = catalog.gpu(id))
            copy->addGpu(*g);
    }
    return copy;
}

bool LazyToolView::busy() const { return m_stale || !m_shown; }

void LazyToolView::markStale()
{
    m_stale = true;
    if (isVisible())
        m_debounce->start();
}

void LazyToolView::start()
{
    m_debounce->stop();
    if (m_watcher->isRunning() || !m_stale)
        return; // finished() starts the newest
    m_stale = false;
    m_shown = false;
    m_watcher->setFuture(QtConcurrent::run(job()));
}

void LazyToolView::refresh()
{
    m_debounce->stop();
    if (m_watcher->isRunning() || !m_shown) {
        m_watcher->waitForFinished();
        m_shown = true;
        m_watcher->result()();
    }
    if (m_stale) {
        m_stale = false;
        job()()();
    }
}

void LazyToolView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        start();
}

} // namespace headroom::gui
