#pragma once

// A dock's view that computes only while it is shown (the GPU comparison, the scaling curves): a change marks it
// stale and, while it is visible, starts its work a moment after the last change (a slider drag folds into one);
// showing a stale view starts it at once; refresh() brings it up to date now, visible or not (tests, exports).
//
// The work runs on a worker thread: job() takes copies of what it reads (the scenario, the catalog's entries it
// needs) and returns the computation, which returns what to put on screen, run back on the GUI thread. A result that
// arrives after a newer change is still shown (it is the nearest there is) and the newer change computes next.

#include "catalog.h"

#include <QWidget>

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

class LazyToolView : public QWidget {
    Q_OBJECT

public:
    ~LazyToolView() override;

    // Stale, or its work not on screen yet.
    bool busy() const;

    // A worker's own catalog: the model and GPUs it reads, copied (importing a model or editing a GPU while it runs
    // changes the window's catalog, which a worker must not be reading).
    static std::shared_ptr<const Catalog> snapshot(const Catalog& catalog, const std::string& modelId,
                                                   const std::vector<std::string>& gpuIds);

public slots:
    // Up to date now: waits for running work and shows it, then computes on this thread if still stale.
    void refresh();

protected:
    using Show = std::function<void()>; // on the GUI thread: puts a result on screen
    using Work = std::function<Show()>; // on a worker: computes from copies only, never from `this`
    LazyToolView(int debounceMs, QWidget* parent);
    void markStale(); // what the view shows changed: recompute (now if visible, after the pause)
    virtual Work job() = 0;
    void showEvent(QShowEvent* event) override;

private:
    void start();

    bool m_stale = false;
    QTimer* m_debounce = nullptr;
    QFutureWatcher<Show>* m_watcher = nullptr;
    bool m_shown = true; // the running work's result is on screen already (refresh() showed it)
};

} // namespace headroom::gui
