#pragma once

// Models a user makes from another one in the model editor: which models the editor can start from, the count of
// parameters Headroom builds for a configuration, and the provenance an edited model carries (the base's published
// count and checkpoint stop describing it once its structure changes).

#include "modelspec.h"

#include <cstdint>

namespace headroom {

// Token-input transformers: what the editor's fields describe completely.
bool isEditableTransformer(const ModelSpec& model);

// Whether two models build the same network (names, description and reference aside).
bool sameStructure(const ModelSpec& a, const ModelSpec& b);

// The simulator's own count: sum of the parameters buildGraph() creates (shared weights once). The model must be
// valid (parseModelSpec accepts its serialisation).
std::int64_t configParameterCount(const ModelSpec& model);

// `m`, edited, as a user model made from `base`: if its structure differs, the base's checkpoint, URL and published
// count are replaced by the config-based count and a description saying where it came from.
ModelSpec withCustomProvenance(ModelSpec m, const ModelSpec& base);

} // namespace headroom
