// Prints predicted and measured step times of measured files for given host costs (the calibration of
// timemodel.h's host constants, docs/accuracy.md 3.2). Usage:
//   g++ -std=c++20 -O2 $(for d in src/core/*/; do printf ' -I%s' "$d"; done) tools/calibration/fit_host.cpp \
//       build/release/src/core/libheadroom_core.a -o fit_host
//   ./fit_host . 60 15 15 2 200 3 100 1 tests/data/measured/*-cuda-*.json
// (fwd bwd optimizer param step kernel-latency recompute: microseconds; the ninth argument is unused: the GPU side is
// TimeModel::seconds itself;
// BN: host operators per BatchNorm forward step, for trying the rule lowering.cpp now applies itself)
#include "estimate.h"
#include "gpuspec.h"
#include "measured.h"
#include "modelspec.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using namespace headroom;

static std::string slurp(const std::string& path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

int main(int argc, char** argv)
{
    if (argc < 11)
        return 2;
    const std::string repo = argv[1];
    EstimateOptions o;
    o.efficiency.hostForwardOpSeconds = std::atof(argv[2]) * 1e-6;
    o.efficiency.hostBackwardOpSeconds = std::atof(argv[3]) * 1e-6;
    o.efficiency.hostOptimizerOpSeconds = std::atof(argv[4]) * 1e-6;
    o.efficiency.hostParameterSeconds = std::atof(argv[5]) * 1e-6;
    o.efficiency.hostStepSeconds = std::atof(argv[6]) * 1e-6;
    o.efficiency.launchSeconds = std::atof(argv[7]) * 1e-6;
    const double recompute = std::atof(argv[8]) * 1e-6;
    const double bnOps = std::getenv("BN") ? std::atof(std::getenv("BN")) : 1.0;
    const double gemmEff = std::getenv("GEMM") ? std::atof(std::getenv("GEMM")) : 0.0;
    o.searchMaxSequence = false;
    if (gemmEff > 0)
        o.efficiency.gemmTensor = gemmEff;
    if (std::getenv("MEM"))
        o.efficiency.memoryHbm = std::atof(std::getenv("MEM"));
    if (std::getenv("CONV"))
        o.efficiency.convTensor = std::atof(std::getenv("CONV"));
    auto gpu = parseGpuSpec(slurp(repo + "/gpus/h200-sxm-141gb.json"), "gpu");
    if (!gpu)
        return 3;
    std::vector<double> rels;
    for (int i = 10; i < argc; ++i) {
        auto m = parseMeasured(slurp(argv[i]), argv[i]);
        auto model = parseModelSpec(slurp(repo + "/resources/models/" + m->modelId + ".json"), "model");
        TrainingConfig c;
        applyMeasuredScenario(*m, c);
        const Estimate e = estimate(*model, *gpu, c, {}, o);
        const Schedule& s = *e.schedule;
        const TimeModel tm(e.gpu, o.efficiency);
        const HostModel hm(c, o.efficiency);
        std::vector<double> g(s.steps.size()), h(s.steps.size()), wall;
        const double batch = double(c.microBatch);
        for (std::size_t k = 0; k < s.steps.size(); ++k) {
            const Step& st = s.steps[k];
            g[k] = tm.seconds(st, batch); // the GPU side exactly as the model prices it
            double ops = st.hostOps;
            if (st.op >= 0 && st.phase == Phase::Forward && st.label.find("bn") != std::string_view::npos)
                ops *= bnOps;
            h[k] = st.phase == Phase::Optimizer ? hm.seconds(st) + s.optimizer.tensors * hm.parameter
                : st.recompute                  ? ops * recompute
                               : (st.phase == Phase::Backward ? ops * hm.backwardOp : ops * hm.forwardOp);
        }
        if (std::getenv("KINDS")) { // the GPU's time per operator kind, to hold against a kernel profile
            std::array<double, kOpKindCount> byKind {};
            std::vector<double> runs(s.steps.size(), 1.0);
            for (const StepRepeat& r : s.repeats)
                for (std::int32_t k = r.first; k <= r.last; ++k)
                    runs[std::size_t(k)] = r.count;
            for (std::size_t k = 0; k < s.steps.size(); ++k)
                byKind[int(s.steps[k].kind)] += g[k] * runs[k] * c.gradientAccumulation;
            for (int k = 0; k < kOpKindCount; ++k)
                if (byKind[k] > 0)
                    std::printf("  %-14s %8.2f ms\n", std::string(toString(OpKind(k))).c_str(), byKind[k] * 1e3);
        }
        const StepClocks k = playClocks(s, g, h, c.gradientAccumulation, hm, wall);
        const double step = k.seconds();
        rels.push_back(step / m->stepSeconds - 1);
        std::printf("%-58s pred %8.2f meas %8.2f rel %+6.1f %% host %7.2f busy %7.2f\n",
                    argv[i] + std::string(argv[i]).rfind('/') + 1, step * 1e3, m->stepSeconds * 1e3,
                    (step / m->stepSeconds - 1) * 100, k.hostSeconds * 1e3, k.gpuBusySeconds * 1e3);
    }
    std::vector<double> a;
    for (double r : rels)
        a.push_back(std::abs(r));
    std::sort(a.begin(), a.end());
    std::printf("SUMMARY median %.1f max %.1f\n", a[a.size() / 2] * 100, a.back() * 100);
}
