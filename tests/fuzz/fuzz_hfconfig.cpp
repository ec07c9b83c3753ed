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
        // importHuggingFaceConfig's own check that what it built reads back is ErrorKind::Internal: failing it is an
        // importer bug, which checkError reports.
        fuzz::checkError(model.error(), origin);
        return;
    }
    fuzz::checkModelRoundTrip(*model);
    fuzz::simulate(*model, fuzz::referenceGpu(), fuzz::configFrom(h, *model), {}, h >> 40);
}

// Whether the text can be a JSON object with a "format" key, the one thing that sends importModelJson to
// parseModelSpec: a key spelled with \u escapes could read "format" without the text containing it.
bool mayNameAModelFile(std::string_view text)
{
    return text.find("format") != std::string_view::npos || text.find("\\u") != std::string_view::npos;
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
    // The dispatcher reads model files too. On a text without a "format" key it only repeats the direct import (or
    // refuses what that refused too): there it runs on one input in 8, and must agree with the direct import.
    const bool repeatsTheImport = !mayNameAModelFile(text);
    if (repeatsTheImport && (h >> 32) % 8 != 0)
        return 0;
    const auto any = importModelJson(text, origin, "Fuzz-Checkpoint");
    if (!any) {
        fuzz::checkError(any.error(), origin);
        if (hf && repeatsTheImport)
            fuzz::fail("importModelJson refuses a config importHuggingFaceConfig reads", any.error().toString());
    } else if (!hf) {
        if (repeatsTheImport)
            fuzz::fail("importModelJson reads a config importHuggingFaceConfig refuses", hf.error().toString());
        check(any, origin, h);
    } else if (repeatsTheImport && serializeModelSpec(*any) != serializeModelSpec(*hf)) {
        fuzz::fail("importModelJson and importHuggingFaceConfig disagree", serializeModelSpec(*any));
    }
    return 0;
}
