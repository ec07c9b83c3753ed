#pragma once

// The protocol of a computation a view shows only while it is on screen (the GPU comparison, the scaling curves, each
// of the Plan view's tabs): a change marks it stale and, while it is visible, starts its work a moment after the last
// change (a slider drag folds into one); start() runs stale work at once (a view shown, a tab raised); refresh()
// brings it up to date now, visible or not (tests, exports).
//
// The work runs on a worker thread: the job factory, called on the GUI thread, takes copies of what the work reads
// (the scenario, the catalog's entries it needs: snapshot()) and returns the work, which returns what to put on
// screen, run back on the GUI thread. A result that arrives after a newer change is still shown (it is the nearest
// there is) and the newer change computes next.

#include "catalog.h"

#include <QObject>

#include <functional>
#include <memory>
#include <string>
#include <vector>

QT_BEGIN_NAMESPACE
class QTimer;
template <typename T>
class QFutureWatcher;
QT_END_NAMESPACE

namespace headroom::gui {

class LazyJob : public QObject {
    Q_OBJECT

public:
    using Show = std::function<void()>; // on the GUI thread: puts a result on screen
    using Work = std::function<Show()>; // on a worker: computes from copies only, never from the view

    // `job`: the work for what the view shows now; `visible`: whether its result is on screen (worth computing).
    LazyJob(int debounceMs, std::function<Work()> job, std::function<bool()> visible, QObject* parent);
    ~LazyJob() override; // waits for running work (its result, shown on the GUI thread, reads the view)

    // Stale, or its work not on screen yet.
    bool busy() const;
    bool running() const; // its work is computing on a worker

    // What the view shows changed: recompute, after the pause if visible, else when next started.
    void markStale();
    // Stale work now, on a worker (after the running work, whose end starts it).
    void start();
    // Up to date now: waits for running work and shows it, then computes on this thread if still stale.
    void refresh();

    // A worker's own catalog: the model and GPUs it reads, copied (importing a model or editing a GPU while it runs
    // changes the window's catalog, which a worker must not be reading).
    static std::shared_ptr<const Catalog> snapshot(const Catalog& catalog, const std::string& modelId,
                                                   const std::vector<std::string>& gpuIds);

private:
    std::function<Work()> m_job;
    std::function<bool()> m_visible;
    bool m_stale = false;
    QTimer* m_debounce = nullptr;
    QFutureWatcher<Show>* m_watcher = nullptr;
    bool m_shown = true; // the running work's result is on screen already (refresh() showed it)
};

} // namespace headroom::gui
