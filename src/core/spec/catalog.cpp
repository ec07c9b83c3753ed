#include "catalog.h"

#include <algorithm>

namespace headroom {

namespace {

    template <typename T>
    void upsert(std::deque<T>& store, std::vector<const T*>& list, T item)
    {
        store.push_back(std::move(item));
        const T* added = &store.back();
        auto it = std::find_if(list.begin(), list.end(), [&](const T* x) { return x->id == added->id; });
        if (it != list.end())
            *it = added;
        else
            list.push_back(added);
    }

    template <typename T>
    const T* findById(const std::vector<const T*>& list, std::string_view id)
    {
        auto it = std::find_if(list.begin(), list.end(), [&](const T* x) { return x->id == id; });
        return it == list.end() ? nullptr : *it;
    }

    template <typename T>
    std::string joinIds(const std::vector<const T*>& list)
    {
        std::string s;
        for (const T* x : list)
            s += (s.empty() ? "" : ", ") + x->id;
        return s;
    }

    template <typename T>
    void copyCurrent(const std::vector<const T*>& from, std::deque<T>& store, std::vector<const T*>& list)
    {
        store.clear();
        list.clear();
        for (const T* x : from) {
            store.push_back(*x);
            list.push_back(&store.back());
        }
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

Catalog::Catalog(const Catalog& other) { *this = other; }

Catalog& Catalog::operator=(const Catalog& other)
{
    if (this != &other) {
        // A copy holds only the current entries, in its own storage.
        copyCurrent(other.m_gpus, m_gpuStore, m_gpus);
        copyCurrent(other.m_models, m_modelStore, m_models);
    }
    return *this;
}

void Catalog::addGpu(GpuSpec gpu) { upsert(m_gpuStore, m_gpus, std::move(gpu)); }
void Catalog::addModel(ModelSpec model) { upsert(m_modelStore, m_models, std::move(model)); }
void Catalog::removeGpu(std::string_view id)
{
    std::erase_if(m_gpus, [&](const GpuSpec* g) { return g->id == id; });
}

void Catalog::removeModel(std::string_view id)
{
    std::erase_if(m_models, [&](const ModelSpec* m) { return m->id == id; });
}

const GpuSpec* Catalog::gpu(std::string_view id) const { return findById(m_gpus, id); }
const ModelSpec* Catalog::model(std::string_view id) const { return findById(m_models, id); }
std::string Catalog::gpuIds() const { return joinIds(m_gpus); }
std::string Catalog::modelIds() const { return joinIds(m_models); }

} // namespace headroom
