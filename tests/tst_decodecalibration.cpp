// Decode speed as llama.cpp and transformers run it (issue 27 item 5): the kernel floors, the bandwidth of the
// mat-vec kernels and the host time of src/core/inference/inferenceengine.cpp against published token rates. The
// llama.cpp constants were fitted to the LLaMA-2 7B rows of tests/data/decode/llamacpp.json (fit: true) only; the Llama
// 3 8B rows, another model, another llama.cpp build (CUDA graphs) and four GPUs the fit never saw, are held out.
// Sources: docs/references/decode-speed.md.

#include "inference.h"
#include "inferenceengine.h"
#include "simulate.h"
#include "testsupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <vector>

using namespace headroom;
using nlohmann::json;

class TestDecodeCalibration : public QObject {
    Q_OBJECT

private slots:
    void boostClockFromTheGpuFile_data();
    void boostClockFromTheGpuFile();
    void fittedRowsAreReproduced();
    void heldOutLlama3_data();
    void heldOutLlama3();
    void cudaGraphsShortenTheKernelFloors();
    void kernelsPerTokenAsTheBuildsLaunchThem_data();
    void kernelsPerTokenAsTheBuildsLaunchThem();
    void eagerTransformersIsHostBound();
    void rooflineEngineAddsNothing();
    void fp16AccumulateRateFromTheWhitepapers_data();
    void fp16AccumulateRateFromTheWhitepapers();
    void prefillAgainstLlamaBench_data();
    void prefillAgainstLlamaBench();
    void prefillKernelsOnTheCublasPath();
};

namespace {

json readRows(const char* file)
{
    const std::string path = std::string(HEADROOM_SOURCE_DIR) + "/tests/data/decode/" + file;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        qFatal("cannot open %s", path.c_str());
    return json::parse(in);
}

const json& rowsFile()
{
    static const json doc = readRows("llamacpp.json");
    return doc;
}

InferenceEstimate run(const std::string& gpu, const std::string& model, const InferenceConfig& c)
{
    auto r = simulateInference(test::catalog(), InferenceScenario { gpu, model, c, {}, std::nullopt });
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return *r;
}

// The row's setting: batch 1, the published prompt and generation, a contiguous cache, and llama.cpp's attention of
// those builds (no -fa: KQ, softmax, KQV).
double predictedTokensPerSecond(const json& row, std::optional<InferenceEngine> engine = std::nullopt)
{
    InferenceConfig c;
    c.weights = *weightFormatFromString(row["weights"].get<std::string>());
    c.engine = engine ? *engine : *inferenceEngineFromString(row["engine"].get<std::string>());
    c.prompt = row["prompt"].get<std::int64_t>();
    c.generate = row["generate"].get<std::int64_t>();
    c.attention = AttentionImpl::Eager;
    c.kvBlockTokens = 1;
    return run(row["gpu"].get<std::string>(), row["model"].get<std::string>(), c).tokensPerSecond;
}

struct Errors {
    double median = 0.0;
    double worst = 0.0;
};

Errors summary(std::vector<double> e)
{
    if (e.empty())
        qFatal("no rows");
    std::sort(e.begin(), e.end());
    const std::size_t n = e.size();
    return { n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2, e.back() };
}

Errors errorsOf(bool fit, const std::string& weights = {})
{
    std::vector<double> e;
    for (const json& row : rowsFile()["rows"]) {
        if (row["fit"].get<bool>() != fit || (!weights.empty() && row["weights"] != weights))
            continue;
        const double published = row["tokens_per_second"].get<double>();
        const double predicted = predictedTokensPerSecond(row);
        e.push_back(std::abs(predicted / published - 1));
        // The roofline engine alone, as Headroom predicted before the engines were modelled.
        const double roofline = predictedTokensPerSecond(row, InferenceEngine::Roofline);
        qInfo("%-16s %-12s %-12s predicted %6.1f  published %6.1f  %+5.1f %%  (roofline %6.1f)",
              row["gpu"].get<std::string>().c_str(), row["model"].get<std::string>().c_str(),
              row["weights"].get<std::string>().c_str(), predicted, published, 100 * (predicted / published - 1),
              roofline);
    }
    return summary(e);
}

// llama-bench's pp rows: a prompt of `prompt` tokens in passes of 512 (n_ubatch), no generation, without -fa.
InferenceEstimate prompted(const json& row)
{
    InferenceConfig c;
    c.weights = *weightFormatFromString(row["weights"].get<std::string>());
    c.engine = InferenceEngine::LlamaCpp;
    c.prompt = row["prompt"].get<std::int64_t>();
    c.generate = 1;
    c.attention = AttentionImpl::Eager;
    c.kvBlockTokens = 1;
    return run(row["gpu"].get<std::string>(), row["model"].get<std::string>(), c);
}

} // namespace

void TestDecodeCalibration::boostClockFromTheGpuFile_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("megahertz");
    // NVIDIA's boost clocks: A100 1410 MHz (A100 datasheet/whitepaper), H100 PCIe 1755 MHz (H100 datasheet), RTX 3090
    // 1695 MHz and RTX 4090 2520 MHz (GeForce specifications). The files give FP32 rates and CUDA cores only.
    QTest::newRow("A100 SXM4") << QStringLiteral("a100-sxm4-80gb") << 1410.0;
    QTest::newRow("H100 PCIe") << QStringLiteral("h100-pcie-80gb") << 1755.0;
    QTest::newRow("RTX 3090") << QStringLiteral("rtx-3090") << 1695.0;
    QTest::newRow("RTX 4090") << QStringLiteral("rtx-4090") << 2520.0;
}

void TestDecodeCalibration::boostClockFromTheGpuFile()
{
    QFETCH(QString, gpu);
    QFETCH(double, megahertz);
    InferenceConfig c;
    c.weights = WeightFormat::GgufQ4_K_M;
    const InferenceEstimate e = run(gpu.toStdString(), "llama-2-7b", c);
    QVERIFY(e.clockFromFile);
    // The files' FP32 rates are rounded to 0.1-0.5 TFLOPS: within 1 %.
    QVERIFY2(std::abs(e.clockHz / (megahertz * 1e6) - 1) < 0.01, qPrintable(QString::number(e.clockHz)));
}

void TestDecodeCalibration::fittedRowsAreReproduced()
{
    // What the fit leaves: the 14 LLaMA-2 7B rows (7 GPUs, Q4_0 and F16) share four constants.
    const Errors e = errorsOf(true);
    qInfo("fitted rows: median %.1f %%, worst %.1f %%", 100 * e.median, 100 * e.worst);
    QCOMPARE_LT(e.median, 0.10);
    QCOMPARE_LT(e.worst, 0.20);
}

void TestDecodeCalibration::heldOutLlama3_data()
{
    QTest::addColumn<QString>("weights");
    QTest::addColumn<double>("worst");
    // Issue 27's bar for decode against llama.cpp's published results: median within 15 %, worst within 35 %. Before
    // the engine model the roofline gave A100 SXM 363 t/s for Q4_K_M (published 133) and H100 PCIe 364 (144).
    QTest::newRow("Q4_K_M, 11 GPUs") << QStringLiteral("gguf-q4_k_m") << 0.35;
    // F16 runs another kernel than the fitted F16 rows did: build 2837's dequantize_mul_mat_vec, not build 1680's
    // cuBLAS (inferenceengine.cpp); before that was modelled the A100s were +31 and +40 %.
    QTest::newRow("F16, 10 GPUs") << QStringLiteral("fp16") << 0.35;
}

void TestDecodeCalibration::heldOutLlama3()
{
    QFETCH(QString, weights);
    QFETCH(double, worst);
    const Errors e = errorsOf(false, weights.toStdString());
    qInfo("held out (%s): median %.1f %%, worst %.1f %%", qPrintable(weights), 100 * e.median, 100 * e.worst);
    QCOMPARE_LT(e.median, 0.15);
    QCOMPARE_LT(e.worst, worst);
}

void TestDecodeCalibration::cudaGraphsShortenTheKernelFloors()
{
    // llama.cpp #6763 (NVIDIA): Llama-2 7B Q4_K_M on an H100 PCIe, 143.35 t/s launching each kernel, 163.83 with
    // CUDA graphs (+14 %). One of the three pairs the graphs' saving per kernel is the mean of, so a consistency
    // check: the saving is in the floors, the host's part is unchanged.
    InferenceConfig c;
    c.weights = WeightFormat::GgufQ4_K_M;
    c.attention = AttentionImpl::Eager;
    c.engine = InferenceEngine::LlamaCppNoGraphs;
    c.prompt = 1;
    c.generate = 128;
    const InferenceEstimate launched = run("h100-pcie-80gb", "llama-2-7b", c);
    c.engine = InferenceEngine::LlamaCpp;
    const InferenceEstimate graphs = run("h100-pcie-80gb", "llama-2-7b", c);
    QCOMPARE(graphs.decode.kernels, launched.decode.kernels);
    QCOMPARE(graphs.decode.hostSeconds, launched.decode.hostSeconds);
    QCOMPARE_LT(graphs.decode.kernelFloorSeconds, launched.decode.kernelFloorSeconds);
    const double speedup = graphs.tokensPerSecond / launched.tokensPerSecond;
    qInfo("H100 PCIe Q4_K_M: %.1f -> %.1f t/s (published 143.35 -> 163.83)", launched.tokensPerSecond,
          graphs.tokensPerSecond);
    QVERIFY2(std::abs(speedup / (163.83 / 143.35) - 1) < 0.05, qPrintable(QString::number(speedup)));
    QCOMPARE(graphs.decode.kernels, 1093.0); // kernelsPerTokenAsTheBuildsLaunchThem's first row
    QVERIFY(!graphs.decode.hostBound);
}

void TestDecodeCalibration::kernelsPerTokenAsTheBuildsLaunchThem_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("weights");
    QTest::addColumn<double>("kernels");
    auto row = [](const char* name, const char* engine, const char* model, const char* weights, double kernels) {
        QTest::newRow(name) << QString::fromLatin1(engine) << QString::fromLatin1(model) << QString::fromLatin1(weights)
                            << kernels;
    };
    // Counted by hand from llm_build_llama and ggml_cuda_mul_mat of each build, 32 layers. A layer: RMS norm and its
    // weight's mul (2) twice; seven weight mat-vecs; RoPE on Q and K (2); K and V into the cache (2); KQ and KQV each
    // through ggml_cuda_mul_mat_batched_cublas: F32 -> F16, the GEMM, F16 -> F32 (3; under GQA's broadcast also
    // k_compute_batched_ptrs: 4); soft_max_ext (1); the cont of the merged heads (1); two residual adds (2); SiLU
    // and its mul (2). Outside: get_rows, the final norm (2) and lm_head.
    // A quantized mat-vec is quantize_q8_1 + mul_mat_vec_q (2): 14 + 20 = 34 a layer, 34 x 32 + 1 + 2 + 2 = 1093.
    row("LLaMA-2 7B Q4_0, build 1680", "llama.cpp-no-graphs", "llama-2-7b", "gguf-q4_0", 1093.0);
    // An F16 one in build 1680 is ggml_cuda_mul_mat_mat_batched_cublas, conversions included (3): 21 + 20 = 41 a
    // layer, 41 x 32 + 1 + 2 + 3 = 1318.
    row("LLaMA-2 7B F16, build 1680", "llama.cpp-no-graphs", "llama-2-7b", "fp16", 1318.0);
    // Llama 3 8B has grouped-query attention: KQ and KQV 4 each, 14 + 22 = 36 a layer, 36 x 32 + 5 = 1157.
    row("Llama 3 8B Q4_K_M, build 2837", "llama.cpp", "llama-3-8b", "gguf-q4_k_m", 1157.0);
    // An F16 mat-vec in build 2837 is dequantize_mul_mat_vec (1): 7 + 22 = 29 a layer, 29 x 32 + 1 + 2 + 1 = 932.
    row("Llama 3 8B F16, build 2837", "llama.cpp", "llama-3-8b", "fp16", 932.0);
}

void TestDecodeCalibration::kernelsPerTokenAsTheBuildsLaunchThem()
{
    QFETCH(QString, engine);
    QFETCH(QString, model);
    QFETCH(QString, weights);
    QFETCH(double, kernels);
    InferenceConfig c;
    c.weights = *weightFormatFromString(weights.toStdString());
    c.engine = *inferenceEngineFromString(engine.toStdString());
    c.attention = AttentionImpl::Eager;
    c.prompt = 1;
    c.generate = 16;
    QCOMPARE(run("a100-sxm4-80gb", model.toStdString(), c).decode.kernels, kernels);
}

void TestDecodeCalibration::eagerTransformersIsHostBound()
{
    // PyTorch's "Accelerating Generative AI with PyTorch II: GPT, Fast": Llama-7B in eager mode decodes 25.5 t/s on
    // an A100, "heavily CPU overhead bound". Not fitted to: the host cost per operator (25 us) comes from
    // time-anchors' per-op figures (docs/references/decode-speed.md sec. 3).
    InferenceConfig c;
    c.weights = WeightFormat::Bf16;
    c.engine = InferenceEngine::Transformers;
    c.prompt = 1;
    c.generate = 200;
    const InferenceEstimate e = run("a100-sxm4-80gb", "llama-2-7b", c);
    qInfo("transformers eager, A100: %.1f t/s, host %.1f ms, GPU %.1f ms", e.tokensPerSecond,
          e.decode.hostSeconds * 1e3, e.decode.gpuSeconds * 1e3);
    QVERIFY(e.decode.hostBound);
    QVERIFY2(std::abs(e.tokensPerSecond / 25.5 - 1) < 0.35, qPrintable(QString::number(e.tokensPerSecond)));
    // Host-bound: a faster GPU does not help.
    const InferenceEstimate h100 = run("h100-sxm5-80gb", "llama-2-7b", c);
    QCOMPARE(h100.tokensPerSecond, e.tokensPerSecond);
}

void TestDecodeCalibration::rooflineEngineAddsNothing()
{
    // HF formats default to the roofline (an ideal engine replaying CUDA graphs): no floors and no host time.
    InferenceConfig c;
    c.weights = WeightFormat::Awq4;
    const InferenceEstimate e = run("a100-sxm4-80gb", "llama-2-7b", c);
    QVERIFY(e.engine == InferenceEngine::Roofline);
    QCOMPARE(e.decode.kernelFloorSeconds, 0.0);
    QCOMPARE(e.decode.hostSeconds, 0.0);
    QCOMPARE(e.decode.gpuSeconds + e.communicationSecondsPerToken, e.decodeSecondsPerToken);
    c.weights = WeightFormat::GgufQ4_K_M;
    QVERIFY(run("a100-sxm4-80gb", "llama-2-7b", c).engine == InferenceEngine::LlamaCpp);
}

void TestDecodeCalibration::fp16AccumulateRateFromTheWhitepapers_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("teraflops"); // 0: not known
    // NVIDIA's dense FP16 tensor rates with FP16 accumulation: RTX 3090 142 (Ampere GA102 whitepaper, "Peak FP16
    // Tensor TFLOPS with FP16 Accumulate"; 71 with FP32), RTX 4090 330.3 (Ada whitepaper; 165.2 with FP32), RTX A6000
    // 154.8 (its datasheet; a professional part does not halve FP32 accumulation), A100 312 (A100 datasheet).
    QTest::newRow("RTX 3090") << QStringLiteral("rtx-3090") << 142.0;
    QTest::newRow("RTX 4090") << QStringLiteral("rtx-4090") << 330.3;
    QTest::newRow("RTX A6000") << QStringLiteral("rtx-a6000") << 154.8;
    QTest::newRow("A100 SXM4") << QStringLiteral("a100-sxm4-80gb") << 312.0;
    // Blackwell's rate for these kernels is not known: the time model's GEMM rate stands.
    QTest::newRow("RTX 5090") << QStringLiteral("rtx-5090") << 0.0;
}

void TestDecodeCalibration::fp16AccumulateRateFromTheWhitepapers()
{
    QFETCH(QString, gpu);
    QFETCH(double, teraflops);
    const auto spec = test::catalog().gpu(gpu.toStdString());
    QVERIFY(spec);
    const auto rate = detail::fp16AccumulateFlopsPerSecond(*spec);
    if (teraflops == 0) {
        QVERIFY(!rate);
        return;
    }
    QVERIFY(rate);
    // From the file's FP32 rate and cores (rounded to 0.1-0.5 TFLOPS) and SMs: within 1 %.
    QVERIFY2(std::abs(*rate / (teraflops * 1e12) - 1) < 0.01, qPrintable(QString::number(*rate / 1e12)));
}

void TestDecodeCalibration::prefillAgainstLlamaBench_data()
{
    QTest::addColumn<bool>("fit");
    QTest::addColumn<QString>("weights");
    QTest::addColumn<int>("prompt");
    // tests/data/decode/llamacpp-prefill.json: Llama 3 8B, llama-bench, build 2837. The GEMM efficiency was fitted
    // to the first group only. Before the cuBLAS path was modelled (one rate for every GEMM, no conversions): pp512
    // median 76 %, worst 215 % (H100 PCIe Q4_K_M predicted 25,583 t/s, published 8,125).
    QTest::newRow("pp512 Q4_K_M, 11 GPUs (fitted)") << true << QStringLiteral("gguf-q4_k_m") << 512;
    QTest::newRow("pp512 F16, 8 GPUs (held out)") << false << QStringLiteral("fp16") << 512;
    QTest::newRow("pp4096 Q4_K_M, 11 GPUs (held out)") << false << QStringLiteral("gguf-q4_k_m") << 4096;
    QTest::newRow("pp4096 F16, 8 GPUs (held out)") << false << QStringLiteral("fp16") << 4096;
}

void TestDecodeCalibration::prefillAgainstLlamaBench()
{
    QFETCH(bool, fit);
    QFETCH(QString, weights);
    QFETCH(int, prompt);
    static const json doc = readRows("llamacpp-prefill.json");
    std::vector<double> e;
    for (const json& row : doc["rows"]) {
        if (row["fit"].get<bool>() != fit || row["weights"] != weights.toStdString() || row["prompt"] != prompt)
            continue;
        const InferenceEstimate r = prompted(row);
        const double predicted = double(prompt) / r.prefillSeconds;
        const double published = row["tokens_per_second"].get<double>();
        e.push_back(std::abs(predicted / published - 1));
        qInfo("%-16s pp%-5d predicted %7.0f  published %7.0f  %+5.1f %%", row["gpu"].get<std::string>().c_str(), prompt,
              predicted, published, 100 * (predicted / published - 1));
    }
    const Errors s = summary(e);
    qInfo("median %.1f %%, worst %.1f %%", 100 * s.median, 100 * s.worst);
    // Issue 27's bar for llama.cpp's published rates (set for decode): median within 15 %, worst within 35 %.
    QCOMPARE_LT(s.median, 0.15);
    QCOMPARE_LT(s.worst, 0.35);
}

void TestDecodeCalibration::prefillKernelsOnTheCublasPath()
{
    // ggml_cuda_op_mul_mat_cublas (build 2837), per weight and pass of more than 32 rows: for Q4_K_M to_fp16_cuda of
    // the weight, of the activations, cublasGemmEx, to_fp32_cuda of the result (4 kernels); for F16 3. Seven weights
    // in each of Llama 3 8B's 32 layers: a 512-token prompt launches 32 x 7 = 224 more kernels in Q4_K_M than in F16,
    // and one more for the head, whose one row (the last token's) is a mat-vec: quantize_q8_1 + mul_mat_vec_q against
    // F16's dequantize_mul_mat_vec. A one-token decode step has no conversions.
    const json q4 = {
        { "gpu", "rtx-4090" }, { "model", "llama-3-8b" }, { "weights", "gguf-q4_k_m" }, { "prompt", 512 }
    };
    json f16 = q4;
    f16["weights"] = "fp16";
    const InferenceEstimate a = prompted(q4);
    const InferenceEstimate b = prompted(f16);
    QCOMPARE(a.prefill.kernels - b.prefill.kernels, 32.0 * 7 + 1);
    const auto dequantize = std::find_if(a.prefillOps.begin(), a.prefillOps.end(),
                                         [](const InferenceOp& o) { return o.name == "dequantize"; });
    QVERIFY(dequantize != a.prefillOps.end());
    // Read Q4_K_M, write F16: at least the 2 bytes per weight of the F16 copy, 32 x 218.1 M weights.
    QVERIFY(dequantize->bytes > 2.0 * 32 * 218.1e6);
    QVERIFY(std::none_of(a.decodeOps.begin(), a.decodeOps.end(),
                         [](const InferenceOp& o) { return o.name == "dequantize" || o.name == "convert_f16"; }));
}

QTEST_GUILESS_MAIN(TestDecodeCalibration)
#include "tst_decodecalibration.moc"
