#pragma once

// A GPU as the simulator sees it: capacity, bandwidth, one dense peak per arithmetic unit, links, and where
// each figure comes from. Parsed from the `headroom-gpu` JSON format (docs/formats.md); the caller reads the
// file and passes its text, so the core never touches the file system.

#include "error.h"
#include "trainingconfig.h"
#include "types.h"
#include "units.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace headroom {

// One published figure with the ids of its sources (keys of GpuSpec::sources) and how it was obtained.
struct SourcedFigure {
    double value = 0.0;
    std::vector<std::string> sources;
    std::string note;
    std::string confidence; // datasheet, secondary, derived, estimate, user (typed into the GPU editor)
    bool present() const { return value > 0.0; }
};

// A yes-or-no property with its sources, such as PCIe peer-to-peer; no value: the file does not say.
struct SourcedFlag {
    std::optional<bool> value;
    std::vector<std::string> sources;
    std::string note;
    std::string confidence;
};

struct SourceRef {
    std::string title;
    std::string url;
};

// Where a GPU is used, from its file's free-text segment ("consumer laptop", "mobile workstation", "data center
// (OAM)", ...): the picker groups by vendor and this.
enum class GpuSegment : std::uint8_t { Laptop, Desktop, Workstation, Datacenter };

struct GpuSpec {
    std::string id;
    std::string name;
    std::string vendor;
    std::string segment;
    std::string architecture;
    std::string chip;
    std::string computeCapability;
    int launchYear = 0;

    SourcedFigure capacityGB;  // the vendor's "GB" (physically GiB of DRAM)
    SourcedFigure reportedMiB; // what the driver reports, where known
    std::string memoryType;
    SourcedFigure busWidthBits;
    SourcedFigure bandwidthGBps;         // decimal GB/s
    SourcedFigure measuredBandwidthGBps; // what a STREAM-like copy kernel reaches (the time model's memory roof)
    std::array<SourcedFigure, kMathUnitCount> peakTflops; // dense; absent = unsupported
    SourcedFigure pcieGBps;                               // host link, bidirectional
    SourcedFigure gpuLinkGBps;                            // NVLink / Infinity Fabric, bidirectional, 0 if none
    int gpuLinkMaxGpus = 2;             // GPUs the link joins (a bridge pairs 2, an SXM board 8); beyond: host link
    SourcedFigure nvlinkGeneration;     // NVIDIA's NVLink generation of gpuLinkGBps (2 Volta ... 5 Blackwell)
    SourcedFlag peerToPeer;             // PCIe peer-to-peer between two of these cards; unknown: assumed (links.h)
    SourcedFigure frameworkOverheadMiB; // CUDA context + library workspaces (an estimate, editable)
    std::string interconnectNotes;
    std::string notes;
    std::map<std::string, SourceRef> sources;

    // Device memory the framework can use: the driver-reported total where known, else the vendor figure read
    // as GiB (GDDR and HBM capacities are powers of two; the driver exposes up to ~3% less on HBM parts).
    double memoryBytes() const;
    double bandwidthBytesPerSecond() const { return bandwidthGBps.value * 1e9; }
    double peakFlopsPerSecond(MathUnit u) const { return peakTflops[static_cast<int>(u)].value * 1e12; }
    bool supports(MathUnit u) const { return peakTflops[static_cast<int>(u)].present(); }
    double overheadBytes() const { return frameworkOverheadMiB.value * units::kMiB; }
    bool isGddr() const;
    GpuSegment segmentKind() const;
};

// The figures a simulation actually uses after what-if overrides, with what was overridden.
struct EffectiveGpu {
    const GpuSpec* spec = nullptr;
    double memoryBytes = 0.0;
    double bandwidthBytesPerSecond = 0.0;
    std::array<double, kMathUnitCount> peakFlopsPerSecond {};
    bool memoryOverridden = false;
    bool bandwidthOverridden = false;
    bool peakOverridden = false;
    MathUnit overriddenUnit = MathUnit::Fp32Vector;
    std::string overrideNote;
};

EffectiveGpu applyOverrides(const GpuSpec& gpu, const GpuOverrides& overrides, MathUnit activeUnit);

// Parses and validates one GPU file. `origin` names the file in messages ("gpus/t4.json").
Expected<GpuSpec> parseGpuSpec(std::string_view jsonText, std::string_view origin);
std::string serializeGpuSpec(const GpuSpec& gpu);

} // namespace headroom
