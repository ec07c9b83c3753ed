// libFuzzer target for parseScenario (.headroom.json files and the scenario the window keeps in its settings). An
// accepted scenario must pass validateConfig, save and load back unchanged, and give finite estimates with its own
// configuration and what-if overrides, on its embedded model or a small one.

#include "fuzzsupport.h"

#include "scenario.h"

using namespace headroom;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > fuzz::kMaxInputBytes)
        return -1;
    constexpr std::string_view origin = "fuzz/scenario.headroom.json";
    const auto doc = parseScenario(fuzz::text(data, size), origin);
    if (!doc) {
        fuzz::checkError(doc.error(), origin);
        return 0;
    }
    if (auto invalid = validateConfig(doc->scenario.config, origin))
        fuzz::fail("validateConfig refuses a parsed scenario", invalid->toString());
    const std::string saved = serializeScenario(*doc);
    const auto again = parseScenario(saved, "round trip");
    if (!again)
        fuzz::fail("scenario round trip", again.error().toString() + "\n" + saved);
    if (serializeScenario(*again) != saved)
        fuzz::fail("scenario round trip", "changed:\n" + saved + "\n" + serializeScenario(*again));

    const ModelSpec& model = doc->embeddedModel ? *doc->embeddedModel : fuzz::tinyModel();
    if (doc->embeddedModel)
        fuzz::checkModelRoundTrip(model);
    fuzz::simulate(model, fuzz::referenceGpu(), doc->scenario.config, doc->scenario.overrides,
                   fuzz::hashBytes(data, size));
    return 0;
}
