#pragma once

// What the guided tour needs from the window, and nothing more: the scenario and result on screen, a way to set a
// scenario (one undo step), the widget that shows each lesson, and the GPU comparison's visibility. The window
// implements it; a test can implement it with a few widgets.

#include "simulate.h"

#include <QString>

class QWidget;

namespace headroom::gui {

class TourHost {
public:
    enum class Target { MemoryChart, SweepChart, TimelineChart, RooflineChart, GpuComparison };

    virtual ~TourHost() = default;

    virtual QWidget* tourParent() = 0; // the tour's highlight frame is drawn over this widget's children
    virtual const Scenario& tourScenario() const = 0;
    virtual const SimulationResult& tourResult() const = 0;
    virtual void applyTourScenario(const Scenario& scenario) = 0;
    virtual QWidget* tourTarget(Target target) = 0;
    virtual bool gpuComparisonShown() const = 0;
    virtual void setGpuComparisonShown(bool shown) = 0;
};

} // namespace headroom::gui
