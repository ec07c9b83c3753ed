// libFuzzer target for importHuggingFaceConfig and importModelJson (a checkpoint's config.json, or a model file,
// given on the command line or opened in the window). An imported model must save and load back unchanged, and the
// simulator must give finite estimates for it.

#include "fuzzsupport.h"

#include "hfconfig.h"

using namespace headroom;

namespace {

void check(const Expected<ModelSpec>& model, std::string_view origin, std::uint64_t h)
{
    if (!model) {
        fuzz::checkError(model.error(), origin);
        // importHuggingFaceConfig's own check that what it built reads back: failing it is an importer bug.
        if (model.error().message.find("imported model is inconsistent") != std::string::npos)
            fuzz::fail("import", model.error().toString());
        return;
    }
    fuzz::checkModelRoundTrip(*model);
    fuzz::simulate(*model, fuzz::referenceGpu(), fuzz::configFrom(h, *model), {}, h >> 40);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > fuzz::kMaxInputBytes)
        return -1;
    constexpr std::string_view origin = "fuzz/config.json";
    const std::string_view text = fuzz::text(data, size);
    const std::uint64_t h = fuzz::hashBytes(data, size);
    const auto hf = importHuggingFaceConfig(text, origin, "Fuzz-Checkpoint");
    check(hf, origin, h);
    // The dispatcher reads model files too; it only needs to run the simulator on what the direct import did not.
    const auto any = importModelJson(text, origin, "Fuzz-Checkpoint");
    if (!any)
        fuzz::checkError(any.error(), origin);
    else if (!hf)
        check(any, origin, h);
    return 0;
}
