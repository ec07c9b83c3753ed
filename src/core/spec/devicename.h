#pragma once

// Which GPU file a CUDA device is: the name torch.cuda.get_device_name() reports ("NVIDIA A100-SXM4-80GB",
// "NVIDIA H100 80GB HBM3", "NVIDIA GeForce RTX 4090", "Tesla V100-SXM2-16GB") and, where known, its total memory.
// A measurement names its device this way (measured.h); the estimate it is compared with is for that GPU's file.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

class Catalog;

struct DeviceMatch {
    std::vector<std::string> ids; // the GPU files it may be: one is a match, several are ambiguous, none unknown
    bool unique() const { return ids.size() == 1; }
};

// Every word of the device name that is not a vendor or a memory word must be in the file's id or name; a file
// with a variant word the device name lacks ("Laptop", "Ti", "D", "NVL", "PCIe", "SUPER") is dropped while others
// remain; the memory, where given, keeps the files within 10 % of it.
DeviceMatch matchCudaDevice(const Catalog& catalog, std::string_view deviceName,
                            std::optional<double> memoryBytes = std::nullopt);

} // namespace headroom
