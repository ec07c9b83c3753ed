// The step-time model against measured training throughput (issue 9's goal: median error under 10 %, no row over
// 30 %). The rows, each with its source, are tests/data/throughput/rows.json: NVIDIA DeepLearningExamples'
// ResNet-50 v1.5 tables (PyTorch and TensorFlow, DGX-1 V100 and DGX A100) and Narayanan et al. 2021's first Table 1
// row, all as docs/references/roofline.md sec. 6.1-6.2 gives them; the BERT rows are held out there and not here.
// A row "held_to_goal": false is shown but not counted, with the reason in its note.

#include "testsupport.h"

#include "measured.h"
#include "scenario.h"
#include "simulate.h"
#include "timemodel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>

using namespace headroom;
using nlohmann::json;

class TestTimeCalibration : public QObject {
    Q_OBJECT

private slots:
    void measuredThroughput();
    void channelsLastSpeedsUpResNet();
    void gemmsAgainstTheKernelProfile_data();
    void gemmsAgainstTheKernelProfile();
    void nchwBatchNormRunsAtTheNativeRate();
    void unalignedGemmsSlowOnlyFromHopper();
    void vocabularyRowsAreReadThreeTimes_data();
    void vocabularyRowsAreReadThreeTimes();
    void biasGradientsAreKernelsOfTheirOwn_data();
    void biasGradientsAreKernelsOfTheirOwn();
    void layerNormWeightGradientsAreAKernelOfTheirOwn_data();
    void layerNormWeightGradientsAreAKernelOfTheirOwn();
    void mixedDtypesRunTheCastingKernel();
    void multiheadAttentionCopiesItsLayouts();
    void kernelsPerStepAgainstTheProfiles_data();
    void kernelsPerStepAgainstTheProfiles();
};

namespace {

const json& rowsFile()
{
    static const json doc = [] {
        const std::string path = std::string(HEADROOM_SOURCE_DIR) + "/tests/data/throughput/rows.json";
        std::ifstream in(path, std::ios::binary);
        if (!in)
            qFatal("cannot open %s", path.c_str());
        return json::parse(in);
    }();
    return doc;
}

// The predicted throughput (samples or tokens per second, the whole job) of one row's scenario.
double predicted(const json& scenario)
{
    json doc = scenario;
    doc["format"] = "headroom-scenario";
    doc["version"] = 1;
    Catalog catalog = test::catalog();
    for (const json& m : rowsFile()["models"]) {
        if (m["id"] == scenario["model"]) {
            if (auto e = catalog.addModelJson(m.dump(), "rows.json (models)"))
                qFatal("%s", e->message.c_str());
        }
    }
    const auto parsed = parseScenario(doc.dump(), "rows.json");
    if (!parsed)
        qFatal("%s: %s", parsed.error().field.c_str(), parsed.error().message.c_str());
    const auto r = simulate(catalog, parsed->scenario);
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return r->estimate.throughputPerSecond;
}

} // namespace

void TestTimeCalibration::measuredThroughput()
{
    std::vector<double> errors;
    for (const json& row : rowsFile()["rows"]) {
        const double measured = row["measured_per_second"].get<double>();
        const double error = predicted(row["scenario"]) / measured - 1.0;
        const bool held = row["held_to_goal"].get<bool>();
        qInfo("%-4s %+6.1f %%%s  %s", row["id"].get<std::string>().c_str(), error * 100.0, held ? "" : " (not held)",
              row["what"].get<std::string>().c_str());
        if (!held)
            continue;
        errors.push_back(std::abs(error));
        QVERIFY2(std::abs(error) <= 0.30, qPrintable(QString::fromStdString(row["id"].get<std::string>())));
    }
    QVERIFY(errors.size() >= 10);
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    const double median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2.0;
    qInfo("median |error| %.1f %% over %zu rows", median * 100.0, n);
    QVERIFY(median < 0.10);
}

void TestTimeCalibration::channelsLastSpeedsUpResNet()
{
    // MosaicML's Channels Last method card: channels_last "accelerates ResNet-50 on ImageNet by about 30% on NVIDIA
    // V100 and A100 accelerators" (AMP): the NCHW <-> NHWC transposes around every tensor-core convolution go.
    for (const char* gpu : { "v100-sxm2-16gb", "a100-sxm4-80gb" }) {
        json s = { { "gpu", gpu },
                   { "model", "resnet50" },
                   { "micro_batch", 256 },
                   { "sequence_length", 224 },
                   { "precision", "fp16" } };
        const double nchw = predicted(s);
        s["channels_last"] = true;
        const double nhwc = predicted(s);
        qInfo("%s: channels_last x%.2f", gpu, nhwc / nchw);
        QVERIFY(nhwc / nchw > 1.15);
        QVERIFY(nhwc / nchw < 1.45);
    }
    // On the vector units (FP32 on a V100, no tensor cores) cuDNN's NCHW kernels need no transposes.
    json s = { { "gpu", "v100-sxm2-16gb" },
               { "model", "resnet50" },
               { "micro_batch", 112 },
               { "sequence_length", 224 },
               { "precision", "fp32" } };
    const double nchw = predicted(s);
    s["channels_last"] = true;
    QCOMPARE(predicted(s), nchw);
}

namespace {

// A kernel profile of tests/data/measured-heldout (probe 0.2.1: torch.profiler's GPU time per kernel name over one
// step on the H200) and the model's estimate of the same run.
struct KernelProfile {
    json doc;
    TrainingConfig config;
    std::optional<Estimate> estimate;

    // The measured seconds and calls of the kernels whose names match.
    std::pair<double, int> measured(const std::regex& name) const
    {
        double seconds = 0.0;
        int calls = 0;
        for (const json& k : doc["timing"]["kernel_names"]) {
            if (!std::regex_search(k["name"].get<std::string>(), name))
                continue;
            seconds += k["seconds"].get<double>();
            calls += k["count"].get<int>();
        }
        return { seconds, calls };
    }
    // The model's GPU seconds over the steps, each weighted by `share` (the part of its time that counts, 0 for
    // none), a repeated block's steps once per run; and the steps that count, and their kernels.
    struct Modelled {
        double seconds = 0.0;
        int steps = 0;
        int kernels = 0;
    };
    template <typename Share>
    Modelled model(Share share) const
    {
        const Schedule& s = *estimate->schedule;
        const TimeModel tm(estimate->gpu, Efficiency {});
        std::vector<int> runs(s.steps.size(), 1);
        for (const StepRepeat& r : s.repeats)
            for (std::int32_t k = r.first; k <= r.last; ++k)
                runs[std::size_t(k)] = r.count;
        Modelled m;
        for (std::size_t k = 0; k < s.steps.size(); ++k) {
            const double w = share(tm, s.steps[k]);
            if (w <= 0.0)
                continue;
            m.seconds += tm.seconds(s.steps[k], double(config.microBatch)) * w * runs[k];
            m.steps += runs[k];
            m.kernels += (s.steps[k].kernels - s.steps[k].accumulations) * runs[k]; // the operator's own
        }
        return m;
    }
    // The sums over rows (Step::columnReduceBytes) of the steps of one kind: their time alone, and their steps and
    // those steps' kernels.
    Modelled columnReduces(OpKind kind) const
    {
        const double batch = double(config.microBatch);
        return model([&](const TimeModel& tm, const Step& st) {
            const double reduce = st.columnReduceBytes.at(batch) * tm.columnReduceSecondsPerByte;
            return st.kind == kind && reduce > 0.0 ? reduce / tm.seconds(st, batch) : 0.0;
        });
    }
};

// A probe file of tests/data (its path below that folder): the document, the scenario it ran and its step time.
struct MeasuredRun {
    json doc;
    TrainingConfig config;
    std::string modelId;
    double stepSeconds = 0.0;
};

MeasuredRun measuredRun(const std::string& relativePath)
{
    const std::string path = std::string(HEADROOM_SOURCE_DIR) + "/tests/data/" + relativePath;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        qFatal("cannot open %s", path.c_str());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto m = parseMeasured(text, path);
    if (!m)
        qFatal("%s: not a measured file", path.c_str());
    MeasuredRun r { json::parse(text), {}, m->modelId, m->stepSeconds };
    applyMeasuredScenario(*m, r.config);
    return r;
}

KernelProfile kernelProfile(const QString& run)
{
    MeasuredRun m = measuredRun("measured-heldout/" + run.toStdString() + "-bf16-kernels.headroom-measured.json");
    KernelProfile p;
    p.doc = std::move(m.doc);
    p.config = m.config;
    p.estimate = estimate(test::preset(m.modelId.c_str()), test::gpu("h200-sxm-141gb"), p.config, {},
                          test::fastOptions());
    return p;
}

} // namespace

void TestTimeCalibration::gemmsAgainstTheKernelProfile_data()
{
    QTest::addColumn<QString>("file");
    for (const char* f :
         { "gpt2-cuda-b8-s512", "gpt2-cuda-b32-s512", "bert-base-cuda-b32-s512", "vit-b-16-cuda-b128-s224" })
        QTest::newRow(f) << QString::fromLatin1(f);
}

// The GPU's time in GEMMs against what torch.profiler measured on an H200 (torch 2.11, BF16 autocast; probe 0.2.1,
// tests/data/measured-heldout/*-kernels.*, not fitted to): cuBLAS's and CUTLASS's kernels (nvjet, cutlass, *gemm*;
// not cuDNN's attention or convolutions) in all, and of them the "alignN" kernels PyTorch ran for a head whose
// vocabulary is not a multiple of 8 (GPT-2's 50,257, BERT's 30,522) against the steps the model marks unaligned.
// ResNet-50 is left out: cuDNN runs its convolutions partly as GEMMs under the same names.
void TestTimeCalibration::gemmsAgainstTheKernelProfile()
{
    QFETCH(QString, file);
    const KernelProfile p = kernelProfile(file);
    // cuBLAS's and CUTLASS's kernels, not cuDNN's attention or convolutions, nor the bias gradients' reductions.
    const std::regex gemm("^(?!.*(sdpa|flash|fmha|conv|implicit|fprop|dgrad|wgrad)).*(gemm|nvjet|cutlass)",
                          std::regex::icase);
    const std::regex unaligned("^(?!.*(sdpa|flash|fmha|conv|implicit|fprop|dgrad|wgrad))"
                               ".*(gemm|nvjet|cutlass).*_align[124][^0-9]",
                               std::regex::icase);
    const double measuredGemm = p.measured(gemm).first;
    const double measuredUnaligned = p.measured(unaligned).first;
    const double batch = double(p.config.microBatch);
    // The GEMMs' own time: a step's bias gradient is a reduction kernel of its own (biasGradientsAreKernelsOfTheirOwn).
    auto gemmShare = [&](const TimeModel& tm, const Step& st) {
        if (st.kind != OpKind::Gemm)
            return 0.0;
        return 1.0 - st.columnReduceBytes.at(batch) * tm.columnReduceSecondsPerByte / tm.seconds(st, batch);
    };
    const double gemmSeconds = p.model(gemmShare).seconds;
    const double unalignedSeconds = p.model([&](const TimeModel& tm, const Step& st) {
                                         return st.alignBytes < 16 ? gemmShare(tm, st) : 0.0;
                                     }).seconds;
    qInfo("%s: GEMMs %.2f ms predicted, %.2f ms measured; unaligned %.2f ms, %.2f ms", qPrintable(file),
          gemmSeconds * 1e3, measuredGemm * 1e3, unalignedSeconds * 1e3, measuredUnaligned * 1e3);
    QVERIFY(measuredGemm > 0.0);
    QVERIFY2(std::abs(gemmSeconds / measuredGemm - 1.0) < 0.15, "GEMMs within 15 % of the profile");
    QCOMPARE(unalignedSeconds > 0.0, measuredUnaligned > 0.0);
    if (measuredUnaligned > 0.0)
        QVERIFY2(std::abs(unalignedSeconds / measuredUnaligned - 1.0) < 0.20, "alignN GEMMs within 20 %");
}

// A 16-bit batch norm on NCHW tensors is slow whichever library runs it. PyTorch gives cuDNN no BF16 batch norm
// (aten/src/ATen/native/Normalization.cpp, _select_batch_norm_backend) and its native NCHW kernels are slow:
// Efficiency::nchwBatchNormBandwidth was read off the ResNet-50 BF16 b256 profile. Checked here on the other ResNet-50
// BF16 run, b64, whose GPU-busy time torch.profiler measured at 27.67 ms
// (tests/data/measured-heldout/resnet50-cuda-b64-s224-bf16-timing.*; 14.09 ms predicted before the rule). FP16 input
// with FP32 parameters goes to cuDNN, which on NCHW transposes to NHWC and back (cudnn-frontend issue 134) and was no
// faster: the H200 ran the FP16 step in 28.6 ms and the BF16 one in 28.8 ms
// (tests/data/measured/resnet50-cuda-b64-s224-{fp16,bf16}-nockpt-eager-fused.*), where the model that gave cuDNN's
// FP16 batch norm the sustained bandwidth said 22.7 and 28.3 ms. Before Hopper cuDNN's keeps the sustained bandwidth
// (channelsLastSpeedsUpResNet holds the V100 and A100 to MosaicML's figure), FP32 everywhere (NVIDIA's FP32 NCHW rows
// in measuredThroughput); channels_last runs NHWC kernels, which are fast.
void TestTimeCalibration::nchwBatchNormRunsAtTheNativeRate()
{
    const ModelSpec& resnet = test::preset("resnet50");
    const GpuSpec& h200 = test::gpu("h200-sxm-141gb");
    auto run = [&](const TrainingConfig& config) { return estimate(resnet, h200, config, {}, test::fastOptions()); };
    auto slowSteps = [](const Estimate& e) {
        const auto& steps = e.schedule->steps;
        return std::count_if(steps.begin(), steps.end(),
                             [](const Step& st) { return st.slowBatchNorm != SlowBatchNorm::None; });
    };

    const MeasuredRun timing = measuredRun(
        "measured-heldout/resnet50-cuda-b64-s224-bf16-timing.headroom-measured.json");
    const double measuredBusy = timing.doc["timing"]["gpu_busy_seconds"].get<double>();
    QCOMPARE_GT(measuredBusy, 0.02);
    const Estimate e = run(timing.config);
    qInfo("ResNet-50 BF16 b64: GPU busy %.2f ms predicted, %.2f ms measured", e.gpuBusySeconds * 1e3,
          measuredBusy * 1e3);
    QVERIFY2(std::abs(e.gpuBusySeconds / measuredBusy - 1.0) < 0.15, "GPU busy within 15 % of the profile");
    QCOMPARE_GT(slowSteps(e), 0);

    // FP16 against BF16, each against its own H200 run: as slow as each other, as measured.
    const MeasuredRun fp16 = measuredRun(
        "measured/resnet50-cuda-b64-s224-fp16-nockpt-eager-fused.headroom-measured.json");
    const MeasuredRun bf16 = measuredRun(
        "measured/resnet50-cuda-b64-s224-bf16-nockpt-eager-fused.headroom-measured.json");
    const Estimate fp16Estimate = run(fp16.config), bf16Estimate = run(bf16.config);
    QCOMPARE(slowSteps(fp16Estimate), slowSteps(bf16Estimate));
    const double fp16Step = fp16Estimate.stepSeconds, bf16Step = bf16Estimate.stepSeconds;
    qInfo("ResNet-50 b64 step: FP16 %.1f ms (measured %.1f), BF16 %.1f ms (measured %.1f)", fp16Step * 1e3,
          fp16.stepSeconds * 1e3, bf16Step * 1e3, bf16.stepSeconds * 1e3);
    QVERIFY2(std::abs(fp16Step / fp16.stepSeconds - 1.0) < 0.10, "FP16 step within 10 % of the H200's");
    QVERIFY2(std::abs(fp16Step / bf16Step - fp16.stepSeconds / bf16.stepSeconds) < 0.05,
             "FP16 and BF16 as far apart as measured");

    TrainingConfig other = timing.config;
    other.precision = Precision::FP32;
    QCOMPARE(slowSteps(run(other)), 0);
    other = timing.config;
    other.channelsLast = true;
    QCOMPARE(slowSteps(run(other)), 0);
}

// The alignN rule was measured on Hopper, whose aligned GEMMs run TMA/wgmma kernels the unaligned ones cannot; on an
// A100 or an RTX 3090 the aligned kernels are mma.sync kernels too, and no penalty is applied (timemodel.cpp).
void TestTimeCalibration::unalignedGemmsSlowOnlyFromHopper()
{
    TrainingConfig c;
    c.microBatch = 8;
    c.sequenceLength = 512;
    for (const char* id : { "h200-sxm-141gb", "a100-sxm4-80gb", "rtx-3090" }) {
        const Estimate e = estimate(test::preset("gpt2"), test::gpu(id), c, {}, test::fastOptions());
        const TimeModel tm(e.gpu, Efficiency {});
        int unaligned = 0;
        for (const Step& st : e.schedule->steps) {
            if (st.kind != OpKind::Gemm || st.alignBytes >= 16)
                continue;
            ++unaligned;
            QCOMPARE(int(st.alignBytes), 2); // 50,257 columns in BF16
            const double aligned = tm.secondsPerFlop[int(st.kind)][int(st.unit)];
            if (std::string_view(id) == "h200-sxm-141gb")
                QCOMPARE_GT(tm.gemmSecondsPerFlop(st), 5.0 * aligned); // 12.5 % of peak against 80 %
            else
                QCOMPARE(tm.gemmSecondsPerFlop(st), aligned);
        }
        QCOMPARE_GT(unaligned, 0); // the head, forward and backward
    }
}

void TestTimeCalibration::vocabularyRowsAreReadThreeTimes_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("GPT-2 b32, 50,257 FP32 logits a row") << QStringLiteral("gpt2-cuda-b32-s512");
    QTest::newRow("GPT-2 b8") << QStringLiteral("gpt2-cuda-b8-s512");
    QTest::newRow("BERT b32, 30,522 BF16 logits a row") << QStringLiteral("bert-base-cuda-b32-s512");
}

// The loss's log-softmax over a vocabulary: a row wider than a block's 48 KiB of shared memory is read once for its
// maximum, once for the sum of exponentials and once for the write (SoftMax.cu cunn_SoftMaxForward; the backward
// likewise), graphbuilderops.cpp softmaxFamily. Against the H200's cunn_SoftMaxForward and cunn_SoftMaxBackward
// (torch.profiler, tests/data/measured-heldout/*-kernels.*; no figure of the rule was read off them): within 15 %.
// A single read would be 44 % (GPT-2) and 50 % (BERT, BF16 logits, FP32 accumulators) under. The ViT-B/16 head's
// 1,000 classes fit a warp (softmax_warp_forward in its profile) and are read once (CUDA autocast keeps the
// logits' BF16 for log_softmax, GraphBuilder::crossEntropy).
void TestTimeCalibration::vocabularyRowsAreReadThreeTimes()
{
    QFETCH(QString, file);
    const KernelProfile p = kernelProfile(file);
    const auto [measured, calls] = p.measured(std::regex("cunn_SoftMax(Forward|Backward)<"));
    QCOMPARE(calls, 2);
    const auto m = p.model([](const TimeModel&, const Step& st) { return st.label == "loss.log_softmax" ? 1.0 : 0.0; });
    qInfo("%s: log-softmax %.3f ms predicted, %.3f ms measured", qPrintable(file), m.seconds * 1e3, measured * 1e3);
    QCOMPARE(m.kernels, 2);
    QVERIFY2(std::abs(m.seconds / measured - 1.0) < 0.15, "within 15 % of the profile");
    const KernelProfile vit = kernelProfile(QStringLiteral("vit-b-16-cuda-b128-s224"));
    for (const Step& st : vit.estimate->schedule->steps)
        if (st.label == "loss.log_softmax" && st.phase == Phase::Forward)
            QCOMPARE(st.cost.bytes.perSample, 1000.0 * (2.0 + 2.0)); // a read of the BF16 logits, a BF16 write
}

void TestTimeCalibration::biasGradientsAreKernelsOfTheirOwn_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("biases"); // of the model, counted in its modules
    QTest::newRow("GPT-2: c_attn, c_proj, c_fc, c_proj per block") << QStringLiteral("gpt2-cuda-b32-s512") << 12 * 4;
    // query, key, value, attention output, intermediate, output per layer; the MLM head's transform and decoder
    QTest::newRow("BERT") << QStringLiteral("bert-base-cuda-b32-s512") << 12 * 6 + 2;
    // in_proj, out_proj, mlp.0, mlp.3 per block; the patch convolution and the head
    QTest::newRow("ViT-B/16") << QStringLiteral("vit-b-16-cuda-b128-s224") << 12 * 4 + 2;
}

// A Linear's or a convolution's bias gradient is the output's gradient summed over its rows, a reduce_kernel of its
// own after the GEMMs (graph.h GraphOp::columnReduceBytes). Every bias is one BF16 sum kernel in the H200 profiles, and
// their time is within 25 % of the model's at Efficiency::columnReduceBandwidth, which was read off GPT-2 at b32 and
// ViT-B/16 (BERT is the check). Not modelled: at b8 GPT-2's 48 sums took 0.69 ms, 14 us each for 14 MB, where the
// model says 0.40 ms: a small reduction has a fixed cost of about 9 us beside the launch.
void TestTimeCalibration::biasGradientsAreKernelsOfTheirOwn()
{
    QFETCH(QString, file);
    QFETCH(int, biases);
    const KernelProfile p = kernelProfile(file);
    const auto [measured, calls] = p.measured(std::regex("reduce_kernel<.*ReduceOp<c10::BFloat16.*sum_functor"));
    QCOMPARE(calls, biases);
    const auto m = p.columnReduces(OpKind::Gemm);
    qInfo("%s: %d bias sums, %.3f ms predicted, %.3f ms measured", qPrintable(file), calls, m.seconds * 1e3,
          measured * 1e3);
    QCOMPARE(m.steps, biases);
    QVERIFY2(std::abs(m.seconds / measured - 1.0) < 0.25, "within 25 % of the profile");
}

void TestTimeCalibration::layerNormWeightGradientsAreAKernelOfTheirOwn_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("norms");  // LayerNorms with a weight and a bias, counted in the model's modules
    QTest::addColumn<int>("copies"); // ln_1's transposed gradient made contiguous (packedInProjection)
    QTest::newRow("GPT-2: ln_1, ln_2 per block, ln_f") << QStringLiteral("gpt2-cuda-b32-s512") << 12 * 2 + 1 << 0;
    QTest::newRow("BERT: embeddings, two per layer, the MLM transform")
        << QStringLiteral("bert-base-cuda-b32-s512") << 1 + 12 * 2 + 1 << 0;
    QTest::newRow("ViT-B/16: ln_1, ln_2 per block, the encoder's ln")
        << QStringLiteral("vit-b-16-cuda-b128-s224") << 12 * 2 + 1 << 12;
}

// A LayerNorm's backward is two kernels: the input's gradient, then the weight's and bias's, sums over the rows that
// read the output's gradient and the input again (layer_norm_kernel.cu, GammaBetaBackwardCUDAKernel;
// GraphOp::columnReduceBytes). One each per LayerNorm in the H200 profiles; their time within 25 % of the model's
// at Efficiency::columnReduceBandwidth, which was read off the bias sums, not these (GPT-2 -22 %, BERT -22 %, ViT-B/16
// within 1 %).
void TestTimeCalibration::layerNormWeightGradientsAreAKernelOfTheirOwn()
{
    QFETCH(QString, file);
    QFETCH(int, norms);
    QFETCH(int, copies);
    const KernelProfile p = kernelProfile(file);
    const auto [measured, calls] = p.measured(std::regex("GammaBetaBackward"));
    QCOMPARE(calls, norms);
    QCOMPARE(p.measured(std::regex("layer_norm_grad_input_kernel")).second, norms);
    const auto m = p.columnReduces(OpKind::Normalization);
    qInfo("%s: %d weight-gradient sums, %.3f ms predicted, %.3f ms measured", qPrintable(file), calls, m.seconds * 1e3,
          measured * 1e3);
    QCOMPARE(m.steps, norms);
    QCOMPARE(m.kernels, 2 * norms + copies);
    QVERIFY2(std::abs(m.seconds / measured - 1.0) < 0.25, "within 25 % of the profile");
}

// TensorIterator's kernels by dtype (graph.h LoopKind, lowering.cpp loopKind): under BF16 autocast GPT-2's
// gelu_new multiplies its BF16 half-input by the FP32 tanh term (the unrolled kernel in the H200 profile), while
// its FP32 tanh runs vectorized; a weight's cast to BF16 has a vectorized kernel of its own and its gradient's cast
// back up is a casting copy. In FP32 nothing casts.
void TestTimeCalibration::mixedDtypesRunTheCastingKernel()
{
    TrainingConfig c;
    c.microBatch = 8;
    c.sequenceLength = 512;
    c.precision = Precision::MixedBF16;
    auto loops = [&](const TrainingConfig& config, std::string_view label, Phase phase) {
        const Estimate e = estimate(test::preset("gpt2"), test::gpu("h200-sxm-141gb"), config, {}, test::fastOptions());
        std::array<int, 2> n {};
        for (const Step& st : e.schedule->steps)
            if (st.label == label && st.phase == phase && !st.recompute)
                ++n[int(st.loop)];
        return n;
    };
    const auto act = loops(c, "mlp.act", Phase::Forward);
    QCOMPARE_GT(act[int(LoopKind::Casting)], 0);    // (0.5 x) * (1 + tanh(...)): BF16 x FP32
    QCOMPARE_GT(act[int(LoopKind::Vectorized)], 0); // the FP32 tanh and scalar products
    const auto castForward = loops(c, "autocast weight cast", Phase::Forward);
    const auto castBackward = loops(c, "autocast weight cast", Phase::Backward);
    QCOMPARE_GT(castForward[int(LoopKind::Vectorized)], 0);
    QCOMPARE(castForward[int(LoopKind::Casting)], 0);
    QCOMPARE_GT(castBackward[int(LoopKind::Casting)], 0);
    // Transformer Engine's FP8 casts are its own kernels, not TensorIterator's.
    c.precision = Precision::MixedFP8;
    const auto fp8 = loops(c, "fp8 input cast", Phase::Forward);
    QCOMPARE_GT(fp8[int(LoopKind::Vectorized)], 0);
    QCOMPARE(fp8[int(LoopKind::Casting)], 0);
    c.precision = Precision::FP32;
    QCOMPARE(loops(c, "mlp.act", Phase::Forward)[int(LoopKind::Casting)], 0);
    QCOMPARE(loops(c, "mlp.act", Phase::Backward)[int(LoopKind::Casting)], 0);
}

// torchvision's ViT under torch 2 (TransformerBuilder::packedInProjection): nn.MultiheadAttention's packed
// in-projection under batch_first. In the H200 profile of ViT-B/16 at b128 every layer zero-fills three (3, L, N, E)
// BF16 tensors and adds them (select_backward and autograd's accumulation), which the split's backward now is: nine
// kernels a layer with its copies. Efficiency::stridedCopyBandwidth was read off this profile's strided copies, so
// their time is not a check here; the step's GPU-busy time is: 57.3 ms measured, 29.5 ms predicted at stop 46, now
// within 25 %. GPT-2 (batch first throughout) and torch 1.13 (chunk: views, no copy) have no such copies.
void TestTimeCalibration::multiheadAttentionCopiesItsLayouts()
{
    const KernelProfile p = kernelProfile(QStringLiteral("vit-b-16-cuda-b128-s224"));
    const int layers = 12;
    QCOMPARE(p.measured(std::regex("FillFunctor<c10::BFloat16>")).second, 3 * layers);
    QCOMPARE(
        p.measured(std::regex("vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>")).second,
        2 * layers);
    const auto split = p.model([](const TimeModel&, const Step& st) {
        return st.label == "attn.split" && st.phase == Phase::Backward ? 1.0 : 0.0;
    });
    QCOMPARE(split.steps, layers);
    QCOMPARE(split.kernels, 9 * layers);
    const double busy = p.doc["timing"]["gpu_busy_seconds"].get<double>();
    qInfo("ViT-B/16 BF16 b128: GPU busy %.2f ms predicted, %.2f ms measured", p.estimate->gpuBusySeconds * 1e3,
          busy * 1e3);
    QVERIFY2(std::abs(p.estimate->gpuBusySeconds / busy - 1.0) < 0.25, "GPU busy within 25 % of the profile");

    auto stridedSteps = [](const char* model, const TrainingConfig& c) {
        const Estimate e = estimate(test::preset(model), test::gpu("h200-sxm-141gb"), c, {}, test::fastOptions());
        return std::count_if(e.schedule->steps.begin(), e.schedule->steps.end(),
                             [](const Step& st) { return st.stridedBytes.perSample > 0.0; });
    };
    TrainingConfig c = p.config;
    QCOMPARE_GT(stridedSteps("vit-b-16", c), 0);
    c.torch = Release { 1, 13 };
    QCOMPARE(stridedSteps("vit-b-16", c), 0);
    c = p.config;
    c.sequenceLength = 512;
    QCOMPARE(stridedSteps("gpt2", c), 0);
}

void TestTimeCalibration::kernelsPerStepAgainstTheProfiles_data()
{
    QTest::addColumn<QString>("file");
    // The kernels one step launched, torch.profiler's count in the probe's timing (memcpy and memset apart).
    QTest::newRow("GPT-2 b8") << QStringLiteral("gpt2-cuda-b8-s512-bf16-timing");
    QTest::newRow("BERT-base b32") << QStringLiteral("bert-base-cuda-b32-s512-bf16-kernels");
    QTest::newRow("ViT-B/16 b128") << QStringLiteral("vit-b-16-cuda-b128-s224-bf16-kernels");
    QTest::newRow("Llama 3.2 1B b8") << QStringLiteral("llama-3.2-1b-cuda-b8-s1024-bf16-nockpt-fused-foreach");
}

// The roofline's points count kernels (JSON kernel_count, Explain's "summed over N kernels"), not operators: a
// Linear's backward is two or three kernels, RMSNorm's power three. The model launches a subset of what PyTorch does
// (autograd's gradient accumulations and some casts are not counted), so at most the measured count and within a
// quarter of it. Counting operator steps instead, Llama's was 1,694 of 2,908. ResNet-50 is outside: cuDNN's
// convolutions launch several kernels each (574 of 953 at b64).
void TestTimeCalibration::kernelsPerStepAgainstTheProfiles()
{
    QFETCH(QString, file);
    const MeasuredRun m = measuredRun("measured-heldout/" + file.toStdString() + ".headroom-measured.json");
    const double measured = m.doc["timing"]["kernels"].get<double>();
    const Estimate e = estimate(test::preset(m.modelId.c_str()), test::gpu("h200-sxm-141gb"), m.config, {},
                                test::fastOptions());
    double kernels = 0.0;
    for (const RooflinePoint& p : e.kindPoints)
        kernels += p.count;
    qInfo("%s: %.0f kernels in the model, %.0f measured", qPrintable(file), kernels, measured);
    QCOMPARE_LE(kernels, measured);
    QCOMPARE_GE(kernels, 0.75 * measured);
}

QTEST_GUILESS_MAIN(TestTimeCalibration)
#include "tst_timecalibration.moc"
