#pragma once

// What a click on a chart element, the verdict or a menu asks the Explain panel to show (explainer.h writes it).

#include "types.h"

namespace headroom::gui {

struct ExplainRequest {
    enum class Topic { Category, Operator, Roof, Timeline, Capacity, StepTime, Allocator } topic = Topic::Category;
    MemoryCategory category = MemoryCategory::Weights;
    int operatorIndex = -1; // into Estimate::operatorPoints
    MathUnit unit = MathUnit::Fp32Vector;
    int step = -1; // timeline step
};

} // namespace headroom::gui
