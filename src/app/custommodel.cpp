#include "custommodel.h"

#include "modelgraph.h"

#include <cmath>

namespace headroom {

bool isEditableTransformer(const ModelSpec& m)
{
    return m.family == ModelFamily::Transformer && m.transformer.input == InputKind::Tokens;
}

bool sameStructure(const ModelSpec& a, const ModelSpec& b)
{
    auto structure = [](ModelSpec m) {
        m.id = m.name = m.description = {};
        m.reference = {};
        return serializeModelSpec(m);
    };
    return structure(a) == structure(b);
}

std::int64_t configParameterCount(const ModelSpec& model)
{
    TrainingConfig config;
    config.sequenceLength = model.defaultSequence; // shapes activations only; the parameters do not depend on it
    return std::llround(buildGraph(model, config).parameterCount());
}

ModelSpec withCustomProvenance(ModelSpec m, const ModelSpec& base)
{
    if (sameStructure(m, base))
        return m;
    m.description = "Custom transformer made in Headroom's model editor from " + base.name + ".";
    m.reference.checkpoint.clear();
    m.reference.url.clear();
    m.reference.parameters = configParameterCount(m);
    m.reference.parametersSource = "config-based count of the parameters Headroom builds for this user-made "
                                   "configuration (not a published figure)";
    return m;
}

} // namespace headroom
