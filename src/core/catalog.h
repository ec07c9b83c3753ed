#pragma once

// GPUs and models by id. The caller reads files (bundled resources, the user's data directory) and hands their
// text here; a later entry with the same id replaces an earlier one, so user files can shadow bundled ones.

#include "error.h"
#include "gpuspec.h"
#include "modelspec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

class Catalog {
public:
    // Returns the error (naming `origin` and the field) and leaves the catalog unchanged on failure.
    std::optional<Error> addGpuJson(std::string_view text, std::string_view origin);
    std::optional<Error> addModelJson(std::string_view text, std::string_view origin);
    void addGpu(GpuSpec gpu);
    void addModel(ModelSpec model);

    const GpuSpec* gpu(std::string_view id) const;
    const ModelSpec* model(std::string_view id) const;
    const std::vector<GpuSpec>& gpus() const { return m_gpus; }
    const std::vector<ModelSpec>& models() const { return m_models; }

    std::string gpuIds() const;   // comma-separated, for messages listing the valid choices
    std::string modelIds() const;

private:
    std::vector<GpuSpec> m_gpus;
    std::vector<ModelSpec> m_models;
};

} // namespace headroom
