#pragma once

// The lowering's side of a repeated block (Graph::repeat, Schedule::repeats): which steps repeat, how many times
// a block allocated in them is freed, and what one run leaves allocated. Internal to the core.

#include "lowering.h"

namespace headroom::detail {

// Finds the forward and the backward steps of the repeated block and sets Schedule::repeats (without deltas) and
// Schedule::realSteps.
void markRepeats(const Graph& g, Schedule& s);

// Times the walk frees `block`: its repeat's count when it is allocated in a repeat and freed outside every repeat
// by a step that is not the carry block's (what each real block leaves until the forward pass ends or the
// optimizer step runs: autocast casts, gradients), else 1.
int freeCopies(const Schedule& s, const MemoryBlock& block);

// Schedule::repeats' deltas, from the events.
void repeatDeltas(Schedule& s);

} // namespace headroom::detail
