// The step-time model against measured training throughput (issue 9's goal: median error under 10 %, no row over
// 30 %). The rows, each with its source, are tests/data/throughput/rows.json: NVIDIA DeepLearningExamples'
// ResNet-50 v1.5 tables (PyTorch and TensorFlow, DGX-1 V100 and DGX A100) and Narayanan et al. 2021's first Table 1
// row, all as docs/references/roofline.md sec. 6.1-6.2 gives them; the BERT rows are held out there and not here.
// A row "held_to_goal": false is shown but not counted, with the reason in its note.

#include "testsupport.h"

#include "scenario.h"
#include "simulate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace headroom;
using nlohmann::json;

class TestTimeCalibration : public QObject {
    Q_OBJECT

private slots:
    void measuredThroughput();
    void channelsLastSpeedsUpResNet();
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

QTEST_GUILESS_MAIN(TestTimeCalibration)
#include "tst_timecalibration.moc"
