#include "gpuspec.h"
#include "units.h"

#include "jsonreader.h"

#include <algorithm>
#include <cctype>

namespace headroom {

using detail::ObjectReader;
using detail::ParseFailure;
using nlohmann::json;

namespace {

    constexpr const char* kUnitKeys[kMathUnitCount] = { "fp32", "tf32", "fp16", "bf16", "fp8" };

    bool validGpuId(const std::string& id)
    {
        if (id.empty() || id.size() > 64)
            return false;
        return std::all_of(id.begin(), id.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
        });
    }

    // The sources, note and confidence every figure and flag carries.
    template <class Sourced>
    void readProvenance(const ObjectReader& o, const std::map<std::string, SourceRef>& sources, Sourced& f)
    {
        f.note = o.stringOr("note", "");
        f.confidence = o.stringOr("confidence", "");
        // "user": a figure someone typed into the GPU editor (files in the user's data directory).
        if (!f.confidence.empty() && f.confidence != "datasheet" && f.confidence != "secondary"
            && f.confidence != "derived" && f.confidence != "estimate" && f.confidence != "user")
            o.fail("confidence",
                   "unknown value \"" + f.confidence + "\"; valid: datasheet, secondary, derived, estimate, user");
        const json& list = o.array("sources", 32);
        if (list.empty())
            o.fail("sources", "must name at least one source");
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_string())
                throw ParseFailure { o.path("sources") + "[" + std::to_string(i) + "]",
                                     "must be a string, got " + detail::describe(list[i]) };
            const std::string id = list[i].get<std::string>();
            if (!sources.count(id))
                throw ParseFailure { o.path("sources") + "[" + std::to_string(i) + "]",
                                     "names source \"" + id
                                         + "\", which the file's \"sources\" table does not define" };
            f.sources.push_back(id);
        }
    }

    SourcedFigure readFigure(const ObjectReader& parent, std::string_view key, double min, double max,
                             const std::map<std::string, SourceRef>& sources, bool required)
    {
        SourcedFigure f;
        if (!parent.has(key)) {
            if (required)
                parent.fail(key, "is required");
            return f;
        }
        const ObjectReader o = parent.object(key);
        f.value = o.number("value", min, max);
        readProvenance(o, sources, f);
        return f;
    }

    SourcedFlag readFlag(const ObjectReader& parent, std::string_view key,
                         const std::map<std::string, SourceRef>& sources)
    {
        SourcedFlag f;
        if (!parent.has(key))
            return f;
        const ObjectReader o = parent.object(key);
        f.value = o.boolean("value");
        readProvenance(o, sources, f);
        return f;
    }

    template <class Sourced>
    void writeProvenance(const Sourced& f, json& j)
    {
        j["sources"] = f.sources;
        if (!f.note.empty())
            j["note"] = f.note;
        if (!f.confidence.empty())
            j["confidence"] = f.confidence;
    }

    json figureJson(const SourcedFigure& f)
    {
        json j;
        j["value"] = f.value;
        writeProvenance(f, j);
        return j;
    }

} // namespace

double GpuSpec::memoryBytes() const
{
    if (reportedMiB.present())
        return reportedMiB.value * units::kMiB;
    return capacityGB.value * units::kGiB;
}

GpuSegment GpuSpec::segmentKind() const
{
    std::string s = segment;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (s.find("laptop") != std::string::npos || s.find("mobile") != std::string::npos)
        return GpuSegment::Laptop;
    if (s.find("data center") != std::string::npos || s.find("datacenter") != std::string::npos)
        return GpuSegment::Datacenter;
    if (s.find("workstation") != std::string::npos)
        return GpuSegment::Workstation;
    return GpuSegment::Desktop;
}

bool GpuSpec::isGddr() const
{
    std::string t = memoryType;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return t.find("GDDR") != std::string::npos;
}

EffectiveGpu applyOverrides(const GpuSpec& gpu, const GpuOverrides& o, MathUnit activeUnit)
{
    EffectiveGpu e;
    e.spec = &gpu;
    e.memoryBytes = gpu.memoryBytes();
    e.bandwidthBytesPerSecond = gpu.bandwidthBytesPerSecond();
    for (int u = 0; u < kMathUnitCount; ++u)
        e.peakFlopsPerSecond[u] = gpu.peakFlopsPerSecond(MathUnit(u));
    if (o.memoryBytes && *o.memoryBytes > 0) {
        e.memoryBytes = *o.memoryBytes;
        e.memoryOverridden = true;
    }
    if (o.bandwidthBytesPerSecond && *o.bandwidthBytesPerSecond > 0) {
        e.bandwidthBytesPerSecond = *o.bandwidthBytesPerSecond;
        e.bandwidthOverridden = true;
    }
    if (o.peakFlopsPerSecond && *o.peakFlopsPerSecond > 0) {
        e.peakFlopsPerSecond[int(activeUnit)] = *o.peakFlopsPerSecond;
        e.peakOverridden = true;
        e.overriddenUnit = activeUnit;
    }
    e.overrideNote = o.note;
    return e;
}

Expected<GpuSpec> parseGpuSpec(std::string_view jsonText, std::string_view origin)
{
    try {
        const json doc = detail::parseDocument(jsonText);
        const ObjectReader r(doc, "");
        const std::string format = r.string("format", 64);
        if (format != "headroom-gpu")
            r.fail("format", "must be \"headroom-gpu\", got \"" + format + "\"");
        const std::int64_t version = r.integer("version", 1, 1000);
        if (version != 1)
            r.fail("version", "version " + std::to_string(version) + " is newer than this Headroom reads (1)");

        GpuSpec g;
        // Sources first: every figure must cite one of them.
        const ObjectReader src = r.object("sources");
        if (src.node().empty())
            r.fail("sources", "must define at least one source");
        if (src.node().size() > 256)
            r.fail("sources", "defines more than 256 sources");
        for (const auto& [key, value] : src.node().items()) {
            const ObjectReader s(value, src.path(key));
            SourceRef ref;
            ref.title = s.string("title", 1024);
            ref.url = s.stringOr("url", "", 2048);
            g.sources.emplace(key, std::move(ref));
        }

        g.id = r.string("id", 64);
        if (!validGpuId(g.id))
            r.fail("id", "must be lowercase letters, digits, '-' or '.', at most 64 characters, got \"" + g.id + "\"");
        g.name = r.string("name", 200);
        if (g.name.empty())
            r.fail("name", "must not be empty");
        g.vendor = r.string("vendor", 64);
        g.segment = r.stringOr("segment", "", 200);
        g.architecture = r.string("architecture", 100);
        g.chip = r.stringOr("chip", "", 200);
        g.computeCapability = r.stringOr("compute_capability", "", 32);
        g.launchYear = int(r.integerOr("launch_year", 0, 1990, 2100));
        g.notes = r.stringOr("notes", "", 8192);

        const ObjectReader mem = r.object("memory");
        g.capacityGB = readFigure(mem, "capacity_gb", 0.1, 65536, g.sources, true);
        g.reportedMiB = readFigure(mem, "reported_mib", 64, 67108864, g.sources, false);
        g.memoryType = mem.string("type", 64);
        g.busWidthBits = readFigure(mem, "bus_width_bits", 16, 65536, g.sources, false);
        g.bandwidthGBps = readFigure(mem, "bandwidth_gb_per_s", 1, 1e6, g.sources, true);
        g.measuredBandwidthGBps = readFigure(mem, "measured_bandwidth_gb_per_s", 1, 1e6, g.sources, false);
        if (g.measuredBandwidthGBps.value > g.bandwidthGBps.value)
            mem.fail("measured_bandwidth_gb_per_s", "cannot exceed the datasheet's bandwidth_gb_per_s");

        const ObjectReader compute = r.object("compute_tflops");
        for (int u = 0; u < kMathUnitCount; ++u)
            g.peakTflops[u] = readFigure(compute, kUnitKeys[u], 0.001, 1e6, g.sources, u == int(MathUnit::Fp32Vector));

        const ObjectReader links = r.object("links");
        g.pcieGBps = readFigure(links, "pcie_gb_per_s", 0.1, 1e5, g.sources, true);
        g.gpuLinkGBps = readFigure(links, "gpu_link_gb_per_s", 0.1, 1e5, g.sources, false);
        g.gpuLinkMaxGpus = int(links.integerOr("gpu_link_max_gpus", 2, 2, 1 << 16));
        g.nvlinkGeneration = readFigure(links, "nvlink_generation", 1, 9, g.sources, false);
        g.peerToPeer = readFlag(links, "peer_to_peer", g.sources);
        g.interconnectNotes = links.stringOr("notes", "", 2048);

        g.frameworkOverheadMiB = readFigure(r, "framework_overhead_mib", 0, 65536, g.sources, true);

        // Cross-field sanity: the overhead must leave room for the model.
        if (g.frameworkOverheadMiB.value * units::kMiB >= g.memoryBytes())
            r.fail("framework_overhead_mib", "is larger than the memory capacity");
        return g;
    } catch (const ParseFailure& f) {
        return Error { std::string(origin), f.field, f.message };
    } catch (const std::exception& e) {
        return Error { std::string(origin), "", e.what() };
    }
}

std::string serializeGpuSpec(const GpuSpec& g)
{
    json j;
    j["format"] = "headroom-gpu";
    j["version"] = 1;
    j["id"] = g.id;
    j["name"] = g.name;
    j["vendor"] = g.vendor;
    if (!g.segment.empty())
        j["segment"] = g.segment;
    j["architecture"] = g.architecture;
    if (!g.chip.empty())
        j["chip"] = g.chip;
    if (!g.computeCapability.empty())
        j["compute_capability"] = g.computeCapability;
    if (g.launchYear)
        j["launch_year"] = g.launchYear;
    json mem;
    mem["capacity_gb"] = figureJson(g.capacityGB);
    if (g.reportedMiB.present())
        mem["reported_mib"] = figureJson(g.reportedMiB);
    mem["type"] = g.memoryType;
    if (g.busWidthBits.present())
        mem["bus_width_bits"] = figureJson(g.busWidthBits);
    mem["bandwidth_gb_per_s"] = figureJson(g.bandwidthGBps);
    if (g.measuredBandwidthGBps.present())
        mem["measured_bandwidth_gb_per_s"] = figureJson(g.measuredBandwidthGBps);
    j["memory"] = mem;
    json compute = json::object();
    for (int u = 0; u < kMathUnitCount; ++u) {
        if (g.peakTflops[u].present())
            compute[kUnitKeys[u]] = figureJson(g.peakTflops[u]);
    }
    j["compute_tflops"] = compute;
    json links;
    links["pcie_gb_per_s"] = figureJson(g.pcieGBps);
    if (g.gpuLinkGBps.present()) {
        links["gpu_link_gb_per_s"] = figureJson(g.gpuLinkGBps);
        links["gpu_link_max_gpus"] = g.gpuLinkMaxGpus;
        if (g.nvlinkGeneration.present())
            links["nvlink_generation"] = figureJson(g.nvlinkGeneration);
    }
    if (g.peerToPeer.value) {
        json p2p;
        p2p["value"] = *g.peerToPeer.value;
        writeProvenance(g.peerToPeer, p2p);
        links["peer_to_peer"] = p2p;
    }
    if (!g.interconnectNotes.empty())
        links["notes"] = g.interconnectNotes;
    j["links"] = links;
    j["framework_overhead_mib"] = figureJson(g.frameworkOverheadMiB);
    if (!g.notes.empty())
        j["notes"] = g.notes;
    json sources = json::object();
    for (const auto& [id, ref] : g.sources) {
        json s;
        s["title"] = ref.title;
        if (!ref.url.empty())
            s["url"] = ref.url;
        sources[id] = s;
    }
    j["sources"] = sources;
    return j.dump(2) + "\n";
}

} // namespace headroom
