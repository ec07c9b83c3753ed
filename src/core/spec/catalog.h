#pragma once

// GPUs and models by id. The caller reads files (bundled resources, the user's data directory) and hands their
// text here; a later entry with the same id replaces an earlier one, so user files can shadow bundled ones.
//
// Entries never move and are never freed while the catalog lives: results and background searches keep plain
// pointers to the GPU and model they were computed for, and adding or replacing an entry (a model imported while a
// search runs) must not pull them from under them. A replaced entry stays in storage; lookups see the new one.

#include "error.h"
#include "gpuspec.h"
#include "modelspec.h"

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

// The current entries, iterated as references.
template <typename T>
class CatalogList {
public:
    class iterator {
    public:
        using difference_type = std::ptrdiff_t;
        using value_type = T;
        explicit iterator(typename std::vector<const T*>::const_iterator it = {})
            : m_it(it)
        {
        }
        const T& operator*() const { return **m_it; }
        const T* operator->() const { return *m_it; }
        iterator& operator++()
        {
            ++m_it;
            return *this;
        }
        iterator operator++(int)
        {
            iterator old = *this;
            ++m_it;
            return old;
        }
        bool operator==(const iterator& o) const { return m_it == o.m_it; }

    private:
        typename std::vector<const T*>::const_iterator m_it;
    };

    explicit CatalogList(const std::vector<const T*>& items)
        : m_items(&items)
    {
    }
    iterator begin() const { return iterator(m_items->begin()); }
    iterator end() const { return iterator(m_items->end()); }
    std::size_t size() const { return m_items->size(); }
    bool empty() const { return m_items->empty(); }
    const T& front() const { return *m_items->front(); }
    const T& operator[](std::size_t i) const { return *(*m_items)[i]; }

private:
    const std::vector<const T*>* m_items;
};

class Catalog {
public:
    Catalog() = default;
    Catalog(const Catalog& other);
    Catalog& operator=(const Catalog& other);
    Catalog(Catalog&&) noexcept = default;
    Catalog& operator=(Catalog&&) noexcept = default;

    // Returns the error (naming `origin` and the field) and leaves the catalog unchanged on failure.
    std::optional<Error> addGpuJson(std::string_view text, std::string_view origin);
    std::optional<Error> addModelJson(std::string_view text, std::string_view origin);
    void addGpu(GpuSpec gpu);
    void addModel(ModelSpec model);
    // Takes the entry out of the lists and lookups; pointers to it stay valid.
    void removeGpu(std::string_view id);
    void removeModel(std::string_view id);

    const GpuSpec* gpu(std::string_view id) const;
    const ModelSpec* model(std::string_view id) const;
    CatalogList<GpuSpec> gpus() const { return CatalogList<GpuSpec>(m_gpus); }
    CatalogList<ModelSpec> models() const { return CatalogList<ModelSpec>(m_models); }

    std::string gpuIds() const; // comma-separated, for messages listing the valid choices
    std::string modelIds() const;

private:
    std::deque<GpuSpec> m_gpuStore; // every entry ever added; addresses are stable
    std::deque<ModelSpec> m_modelStore;
    std::vector<const GpuSpec*> m_gpus; // the current entry per id, in order of first appearance
    std::vector<const ModelSpec*> m_models;
};

} // namespace headroom
