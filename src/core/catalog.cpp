#include "catalog.h"

#include <algorithm>

namespace headroom {

namespace {

    template <typename T>
    void upsert(std::vector<T>& list, T item)
    {
        auto it = std::find_if(list.begin(), list.end(), [&](const T& x) { return x.id == item.id; });
        if (it != list.end())
            *it = std::move(item);
        else
            list.push_back(std::move(item));
    }

    template <typename T>
    const T* findById(const std::vector<T>& list, std::string_view id)
    {
        auto it = std::find_if(list.begin(), list.end(), [&](const T& x) { return x.id == id; });
        return it == list.end() ? nullptr : &*it;
    }

    template <typename T>
    std::string joinIds(const std::vector<T>& list)
    {
        std::string s;
        for (const auto& x : list)
            s += (s.empty() ? "" : ", ") + x.id;
        return s;
    }

} // namespace

std::optional<Error> Catalog::addGpuJson(std::string_view text, std::string_view origin)
{
    auto parsed = parseGpuSpec(text, origin);
    if (!parsed)
        return parsed.error();
    addGpu(std::move(parsed.value()));
    return std::nullopt;
}

std::optional<Error> Catalog::addModelJson(std::string_view text, std::string_view origin)
{
    auto parsed = parseModelSpec(text, origin);
    if (!parsed)
        return parsed.error();
    addModel(std::move(parsed.value()));
    return std::nullopt;
}

void Catalog::addGpu(GpuSpec gpu) { upsert(m_gpus, std::move(gpu)); }
void Catalog::addModel(ModelSpec model) { upsert(m_models, std::move(model)); }
const GpuSpec* Catalog::gpu(std::string_view id) const { return findById(m_gpus, id); }
const ModelSpec* Catalog::model(std::string_view id) const { return findById(m_models, id); }
std::string Catalog::gpuIds() const { return joinIds(m_gpus); }
std::string Catalog::modelIds() const { return joinIds(m_models); }

} // namespace headroom
