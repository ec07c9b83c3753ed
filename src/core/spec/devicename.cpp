#include "devicename.h"

#include "catalog.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace headroom {

namespace {

    // Lower-case words of letters and digits: "NVIDIA A100-SXM4-80GB" -> nvidia, a100, sxm4, 80gb.
    std::set<std::string> words(std::string_view text)
    {
        std::set<std::string> out;
        std::string w;
        for (char ch : text) {
            const auto c = static_cast<unsigned char>(ch);
            if (std::isalnum(c)) {
                w += char(std::tolower(c));
            } else if (!w.empty()) {
                out.insert(w);
                w.clear();
            }
        }
        if (!w.empty())
            out.insert(w);
        return out;
    }

    // "80gb" -> 80, "16g" -> 16; else 0.
    double sizeWord(const std::string& w)
    {
        const std::size_t digits = std::size_t(
            std::find_if(w.begin(), w.end(), [](char c) { return !std::isdigit(static_cast<unsigned char>(c)); })
            - w.begin());
        if (digits == 0 || digits > 4 || (w.substr(digits) != "gb" && w.substr(digits) != "g"))
            return 0.0;
        return std::stod(w.substr(0, digits));
    }

    bool ignored(const std::string& w)
    {
        static const std::set<std::string> vendor { "nvidia", "geforce", "tesla", "quadro", "gpu", "generation" };
        static const std::set<std::string> memory { "hbm",   "hbm2",   "hbm2e", "hbm3", "hbm3e",
                                                    "gddr6", "gddr6x", "gddr7", "gb" };
        return vendor.count(w) || memory.count(w) || sizeWord(w) > 0.0;
    }

    const std::set<std::string>& variants()
    {
        static const std::set<std::string> v { "laptop", "ti", "d", "nvl", "pcie", "super", "max", "q" };
        return v;
    }

} // namespace

DeviceMatch matchCudaDevice(const Catalog& catalog, std::string_view deviceName, std::optional<double> memoryBytes)
{
    // ROCm names a board and its family: "AMD Instinct MI250X/MI250" is the MI250X.
    const std::set<std::string> device = words(deviceName.substr(0, deviceName.find('/')));
    // The memory it reports, else the size its name gives (read as GiB, as the files' vendor GB are).
    double memory = memoryBytes && *memoryBytes > 0.0 ? *memoryBytes : 0.0; // 0: not known
    for (const std::string& w : device) {
        if (memory <= 0.0 && sizeWord(w) > 0.0)
            memory = sizeWord(w) * 1024.0 * 1024 * 1024;
    }
    struct Candidate {
        std::string id;
        bool extraVariant = false;
        double capacityBytes = 0.0;
    };
    std::vector<Candidate> candidates;
    bool anyWord = false;
    for (const GpuSpec& g : catalog.gpus()) {
        std::set<std::string> own = words(g.id);
        const std::set<std::string> name = words(g.name);
        own.insert(name.begin(), name.end());
        bool all = true;
        for (const std::string& w : device) {
            if (ignored(w))
                continue;
            anyWord = true;
            all = all && own.count(w) > 0;
        }
        if (!all)
            continue;
        const bool extra = std::any_of(own.begin(), own.end(),
                                       [&](const std::string& w) { return variants().count(w) && !device.count(w); });
        candidates.push_back({ g.id, extra, g.memoryBytes() });
    }
    if (!anyWord)
        return {};
    if (std::any_of(candidates.begin(), candidates.end(), [](const Candidate& c) { return !c.extraVariant; }))
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                        [](const Candidate& c) { return c.extraVariant; }),
                         candidates.end());
    if (memory > 0.0) {
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                        [&](const Candidate& c) {
                                            return std::abs(c.capacityBytes - memory) > 0.1 * memory;
                                        }),
                         candidates.end());
    }
    DeviceMatch m;
    for (const Candidate& c : candidates)
        m.ids.push_back(c.id);
    return m;
}

} // namespace headroom
