// libFuzzer target for parseModelSpec (resources/models/*.json, the user's model files). An accepted model must save
// and load back unchanged, and the simulator must build its graph and give finite estimates for it.

#include "fuzzsupport.h"

#include "modelspec.h"

using namespace headroom;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > fuzz::kMaxInputBytes)
        return -1;
    constexpr std::string_view origin = "fuzz/model.json";
    const auto model = parseModelSpec(fuzz::text(data, size), origin);
    if (!model) {
        fuzz::checkError(model.error(), origin);
        return 0;
    }
    fuzz::checkModelRoundTrip(*model);
    const std::uint64_t h = fuzz::hashBytes(data, size);
    fuzz::simulate(*model, fuzz::referenceGpu(), fuzz::configFrom(h, *model), {}, h >> 40);
    return 0;
}
