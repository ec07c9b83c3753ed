#pragma once

// A dock's view that computes only while it is shown (the GPU comparison, the scaling curves), by the protocol of
// LazyJob: a change marks it stale and, while it is visible, starts its work a moment after the last change;
// showing a stale view starts it at once; refresh() brings it up to date now, visible or not (tests, exports).

#include "lazyjob.h"

#include <QWidget>

namespace headroom::gui {

class LazyToolView : public QWidget {
    Q_OBJECT

public:
    // Stale, or its work not on screen yet.
    bool busy() const { return m_job->busy(); }

public slots:
    // Up to date now: waits for running work and shows it, then computes on this thread if still stale.
    void refresh() { m_job->refresh(); }

protected:
    using Show = LazyJob::Show;
    using Work = LazyJob::Work;
    LazyToolView(int debounceMs, QWidget* parent);
    void markStale() { m_job->markStale(); } // what the view shows changed: recompute (now if visible, after the pause)
    virtual Work job() = 0; // on the GUI thread: copies of what the work reads (LazyJob::snapshot for the catalog)
    void showEvent(QShowEvent* event) override;

private:
    LazyJob* m_job = nullptr;
};

} // namespace headroom::gui
