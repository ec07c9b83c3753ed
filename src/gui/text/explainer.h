#pragma once

// Every number on screen is traceable: for a memory category, an operator dot, a roof or the capacity, the
// explanation gives what it is, the formula with the current values plugged in, the largest contributors from
// the simulated step, and the source (paper, datasheet, framework code). The values come from the core
// (explainCategory, explain.h); this class writes them in the user's language.

#include "explain.h"
#include "explainrequest.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace headroom::gui {

class Explainer {
    Q_DECLARE_TR_FUNCTIONS(Explainer)

public:
    static QString html(const ExplainRequest& request, const SimulationResult& result);
    // The step time's assumptions, and its range where the background search has computed it.
    static QString stepTime(const SimulationResult& r, const StepTimeRange& timeRange);
    // What torch.cuda would report, term by term, from the caching allocator the background search replayed
    // (explainerallocator.cpp).
    static QString allocator(const SimulationResult& r, const AllocatorEstimate& a);
    // A memory category's figure as the products it is the sum of, one line each, then the sum when there are
    // several (explainerterms.cpp): every line multiplies out to the figure it ends with.
    static QStringList formulaLines(MemoryCategory c, const SimulationResult& r);
    static QString dtypeName(DType t);

private:
    static QString category(MemoryCategory c, const SimulationResult& r);
    static QString operatorPoint(int index, const SimulationResult& r);
    static QString capacity(const SimulationResult& r);
    static QString linkNote(const SimulationResult& r);
    static QString hostBound(const SimulationResult& r, const StepTimeRange& timeRange);
    static QStringList formulaLines(const CategoryExplanation& x);
    static QString termName(const MemoryTerm& t);
    static QString termLine(const MemoryTerm& t);
};

} // namespace headroom::gui
