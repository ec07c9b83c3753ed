// libFuzzer target for parseGgufHeader and what `headroom infer --model file.gguf` does with an accepted header:
// ggufModel, ggufWeights and the inference estimate. An accepted header's tensors lie inside the file; a model it
// describes gives finite, non-negative memory and time.

#include "fuzzsupport.h"

#include "gguf.h"
#include "inference.h"

using namespace headroom;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > fuzz::kMaxInputBytes)
        return -1;
    constexpr std::string_view origin = "fuzz/model.gguf";
    const auto f = parseGgufHeader(fuzz::text(data, size), size, origin);
    if (!f) {
        fuzz::checkError(f.error(), origin);
        return 0;
    }
    for (const GgufTensor& t : f->tensors)
        if (f->dataOffset + t.offset + t.bytes > size)
            fuzz::fail("gguf tensor", t.name + " lies past the end of the file");
    const auto m = ggufModel(*f, "fuzz", origin);
    if (!m) {
        fuzz::checkError(m.error(), origin);
        return 0;
    }
    if (m->transformer.layers > fuzz::kMaxSimulatedTransformerLayers)
        return 0;
    InferenceConfig c;
    c.prompt = 64;
    c.generate = 8;
    GpuSpec gpu;
    gpu.capacityGB.value = 12;
    gpu.bandwidthGBps.value = 336;
    gpu.peakTflops[int(MathUnit::Fp16Tensor)].value = 32;
    const auto e = estimateInference(*m, ggufWeights(*f, 1), gpu, {}, c);
    if (!e) {
        fuzz::checkError(e.error(), "inference");
        return 0;
    }
    for (double v : { e->memory.peak, e->prefillSeconds, e->decodeSecondsPerToken })
        if (!std::isfinite(v) || v < 0)
            fuzz::fail("gguf inference", "a peak or a time is not a finite, non-negative number");
    return 0;
}
