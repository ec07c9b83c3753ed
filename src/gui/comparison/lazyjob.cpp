#include "lazyjob.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace headroom::gui {

LazyJob::LazyJob(int debounceMs, std::function<Work()> job, std::function<bool()> visible, QObject* parent)
    : QObject(parent)
    , m_job(std::move(job))
    , m_visible(std::move(visible))
    , m_debounce(new QTimer(this))
    , m_watcher(new QFutureWatcher<Show>(this))
{
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(debounceMs);
    connect(m_debounce, &QTimer::timeout, this, &LazyJob::start);
    connect(m_watcher, &QFutureWatcher<Show>::finished, this, [this] {
        if (!m_shown) {
            m_shown = true;
            m_watcher->result()();
        }
        if (m_stale && m_visible())
            start(); // a change came in while it ran
    });
}

LazyJob::~LazyJob() { m_watcher->waitForFinished(); }

std::shared_ptr<const Catalog> LazyJob::snapshot(const Catalog& catalog, const std::string& modelId,
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

bool LazyJob::busy() const { return m_stale || !m_shown; }

bool LazyJob::running() const { return m_watcher->isRunning(); }

void LazyJob::markStale()
{
    m_stale = true;
    if (m_visible())
        m_debounce->start();
}

void LazyJob::start()
{
    m_debounce->stop();
    if (m_watcher->isRunning() || !m_stale)
        return; // finished() starts the newest
    m_stale = false;
    m_shown = false;
    m_watcher->setFuture(QtConcurrent::run(m_job()));
}

void LazyJob::refresh()
{
    m_debounce->stop();
    if (m_watcher->isRunning() || !m_shown) {
        m_watcher->waitForFinished();
        m_shown = true;
        m_watcher->result()();
    }
    if (m_stale) {
        m_stale = false;
        m_job()()();
    }
}

} // namespace headroom::gui
