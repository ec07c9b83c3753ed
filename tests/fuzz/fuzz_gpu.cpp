// libFuzzer target for parseGpuSpec (gpus/*.json, the user's GPU files). An accepted GPU must save and load back
// unchanged and give finite estimates with every training configuration.

#include "fuzzsupport.h"

#include "gpuspec.h"

using namespace headroom;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > fuzz::kMaxInputBytes)
        return -1;
    constexpr std::string_view origin = "fuzz/gpu.json";
    const auto gpu = parseGpuSpec(fuzz::text(data, size), origin);
    if (!gpu) {
        fuzz::checkError(gpu.error(), origin);
        return 0;
    }
    const std::string saved = serializeGpuSpec(*gpu);
    const auto again = parseGpuSpec(saved, "round trip");
    if (!again)
        fuzz::fail("GPU round trip", again.error().toString() + "\n" + saved);
    if (serializeGpuSpec(*again) != saved)
        fuzz::fail("GPU round trip", "changed:\n" + saved);

    const std::uint64_t h = fuzz::hashBytes(data, size);
    const ModelSpec& model = fuzz::tinyModel();
    fuzz::simulate(model, *gpu, fuzz::configFrom(h, model), {}, h >> 40);
    return 0;
}
