// The caching allocator replay (src/core/allocator.h) against the rules of PyTorch's CUDA caching allocator, each
// stated in c10/cuda/CUDACachingAllocator.cpp and c10/core/AllocatorConfig.h (docs/formulas.md section 3.2a):
// 512-byte rounding, 2 MiB segments for requests up to 1 MiB, 20 MiB segments below 10 MiB, the request rounded to
// 2 MiB from there, best fit, splitting only when more than 1 MiB (large pool) or 512 bytes (small pool) is left,
// merging of freed neighbours, expandable segments mapped in 20 MiB pages. The expected figures are worked out
// from those rules by hand in each case; then whole models, whose replay must agree with the simulator's own peak.

#include "testsupport.h"

#include "allocator.h"
#include "lowering.h"
#include "ncclmemory.h"
#include "simulate.h"

#include <cmath>
#include <utility>
#include <vector>

using namespace headroom;

namespace {

constexpr double MiB = 1024.0 * 1024.0;

// A schedule of one allocation or free per step: +bytes allocates a new tensor, -k frees the k-th allocated (1-based).
Schedule scheduleOf(const std::vector<double>& ops)
{
    Schedule s;
    std::vector<std::int32_t> blockOf;
    for (double op : ops) {
        Step st;
        st.eventsBegin = std::int32_t(s.events.size());
        if (op > 0) {
            MemoryBlock b;
            b.bytes.fixed = op;
            b.alloc = std::int32_t(s.steps.size());
            s.blocks.push_back(b);
            blockOf.push_back(std::int32_t(s.blocks.size() - 1));
            s.events.push_back(blockOf.back());
            st.allocCount = 1;
        } else {
            s.events.push_back(blockOf[std::size_t(-op) - 1]);
            st.freeCount = 1;
        }
        s.steps.push_back(st);
    }
    return s;
}

AllocatorEstimate replay(const std::vector<double>& ops, bool expandable = false)
{
    AllocatorSettings settings;
    settings.expandableSegments = expandable;
    settings.cublasLtWorkspaceBytes = 0.0;
    // Each step's tensors are freed at its end, so that the three replayed steps start alike.
    std::vector<double> all = ops;
    int allocated = 0;
    for (double op : ops)
        allocated += op > 0;
    std::vector<bool> freed(std::size_t(allocated) + 1, false);
    for (double op : ops) {
        if (op < 0)
            freed[std::size_t(-op)] = true;
    }
    for (int k = 1; k <= allocated; ++k) {
        if (!freed[std::size_t(k)])
            all.push_back(-k);
    }
    return replayCachingAllocator(scheduleOf(all), {}, 1.0, settings, 0.0);
}

} // namespace

class TestAllocator : public QObject {
    Q_OBJECT

private slots:
    void roundsAndSizesSegments();
    void smallRequestsShareTwoMiBSegments();
    void largePoolSplitsOnlyPastOneMiB();
    void bestFitAndMerging();
    void expandableSegmentsGrowOnePool();
    void modelsAgreeWithTheSimulator_data();
    void modelsAgreeWithTheSimulator();
    void ncclBuffersPerCommunicator();
    void cublasWorkspaceConfig();
    void cudnnWorkspaceAroundEachConvolution();
};

// round_size and get_allocation_size.
void TestAllocator::roundsAndSizesSegments()
{
    QCOMPARE(allocatorRoundedSize(1), 512.0);
    QCOMPARE(allocatorRoundedSize(512), 512.0);
    QCOMPARE(allocatorRoundedSize(513), 1024.0);
    QCOMPARE(allocatorSegmentSize(1), 2 * MiB);
    QCOMPARE(allocatorSegmentSize(1 * MiB), 2 * MiB);      // kSmallSize is in the small pool
    QCOMPARE(allocatorSegmentSize(1 * MiB + 1), 20 * MiB); // 1 MiB + 512 B: a large-pool request
    QCOMPARE(allocatorSegmentSize(10 * MiB - 512), 20 * MiB);
    QCOMPARE(allocatorSegmentSize(10 * MiB), 10 * MiB);
    QCOMPARE(allocatorSegmentSize(12 * MiB + 1), 14 * MiB);
    QVERIFY(allocatorSmallPool(1 * MiB));
    QVERIFY(!allocatorSmallPool(1 * MiB + 512));
}

// A one-byte tensor takes 512 bytes of a 2 MiB segment; 4096 of them fill exactly one.
void TestAllocator::smallRequestsShareTwoMiBSegments()
{
    AllocatorEstimate one = replay({ 1 });
    QCOMPARE(one.peakAllocatedBytes, 512.0);
    QCOMPARE(one.peakReservedBytes, 2 * MiB);
    QCOMPARE(one.requestedPeakBytes, 1.0);
    std::vector<double> many(4096, 512.0);
    QCOMPARE(replay(many).peakReservedBytes, 2 * MiB);
    many.push_back(1.0);
    QCOMPARE(replay(many).peakReservedBytes, 4 * MiB);
}

// 3 MiB and then 16.5 MiB in one 20 MiB segment: the first split leaves 17 MiB, the second 0.5 MiB, too little to
// split off, so that it stays allocated with the tensor: 20 MiB allocated for 19.5 MiB asked.
void TestAllocator::largePoolSplitsOnlyPastOneMiB()
{
    const AllocatorEstimate a = replay({ 3 * MiB, 16.5 * MiB });
    QCOMPARE(a.peakReservedBytes, 20 * MiB);
    QCOMPARE(a.peakAllocatedBytes, 20 * MiB);
    QCOMPARE(a.requestedPeakBytes, 19.5 * MiB);
    // 3 MiB then 15 MiB: 2 MiB is left, more than 1 MiB, and split off.
    QCOMPARE(replay({ 3 * MiB, 15 * MiB }).peakAllocatedBytes, 18 * MiB);
}

// Two 8 MiB tensors share a 20 MiB segment (4 MiB left free). Freeing the first leaves 8 MiB and 4 MiB free but not
// adjacent: a 9 MiB request needs a new segment. Freeing both merges the segment back into one 20 MiB block, which a
// 19 MiB request then reuses.
void TestAllocator::bestFitAndMerging()
{
    QCOMPARE(replay({ 8 * MiB, 8 * MiB, -1, 9 * MiB }).peakReservedBytes, 40 * MiB);
    QCOMPARE(replay({ 8 * MiB, 8 * MiB, -1, -2, 19 * MiB }).peakReservedBytes, 20 * MiB);
    // Best fit: after freeing the 4 MiB tensor (between two others), a 4 MiB request takes that hole rather than
    // the larger free end of the segment, and a 9 MiB one still fits at the end (worst fit would need a second).
    QCOMPARE(replay({ 2 * MiB, 4 * MiB, 2 * MiB, -2, 4 * MiB, 9 * MiB }).peakReservedBytes, 20 * MiB);
}

// With expandable segments the large pool is one segment mapped in 20 MiB pages: the case that needed a second
// segment extends the first to 40 MiB; 25 MiB of tensors take 40 MiB, not a 20 MiB and a 26 MiB segment.
void TestAllocator::expandableSegmentsGrowOnePool()
{
    const AllocatorEstimate a = replay({ 8 * MiB, 8 * MiB, -1, 9 * MiB }, true);
    QCOMPARE(a.peakReservedBytes, 40 * MiB);
    QCOMPARE(a.segments, 1);
    QCOMPARE(replay({ 5 * MiB, 20 * MiB }, false).peakReservedBytes, 40 * MiB);
    QCOMPARE(replay({ 5 * MiB, 20 * MiB }, true).peakReservedBytes, 40 * MiB);
    QCOMPARE(replay({ 5 * MiB, 16 * MiB }, false).peakReservedBytes, 36 * MiB); // a 16 MiB segment of its own
    QCOMPARE(replay({ 5 * MiB, 16 * MiB }, true).peakReservedBytes, 40 * MiB);
    QCOMPARE(replay({ 5 * MiB, 30 * MiB }, false).peakReservedBytes, 50 * MiB);
    QCOMPARE(replay({ 5 * MiB, 30 * MiB }, true).peakReservedBytes, 40 * MiB);
}

void TestAllocator::modelsAgreeWithTheSimulator_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("precision");
    QTest::addColumn<bool>("checkpointing");
    QTest::newRow("bert-base fp16") << "bert-base"
                                    << "fp16" << false;
    QTest::newRow("gpt2 bf16 full") << "gpt2"
                                    << "bf16" << true;
    QTest::newRow("resnet50 fp32") << "resnet50"
                                   << "fp32" << false;
}

// The replay walks the step lowered without repeated blocks; the tensors it holds at its highest point, as
// requested, are the simulator's peak less the framework overhead. The allocator only ever adds: rounding, unsplit
// remainders and the workspaces to what is allocated, free cached blocks to what is reserved.
void TestAllocator::modelsAgreeWithTheSimulator()
{
    QFETCH(QString, model);
    QFETCH(QString, precision);
    QFETCH(bool, checkpointing);
    Scenario s = defaultScenario();
    s.modelId = model.toStdString();
    s.config.precision = *precisionFromString(precision.toStdString());
    s.config.checkpointing = checkpointing ? Checkpointing::Full : Checkpointing::None;
    s.config.microBatch = 4;
    if (model == QLatin1String("resnet50"))
        s.config.sequenceLength = 224;
    const auto r = simulate(test::catalog(), s, SimulateOptions {});
    QVERIFY(r);
    const AllocatorEstimate& a = r->allocator;
    QVERIFY(a.computed);
    QCOMPARE(a.requestedPeakBytes, r->estimate.peakBytes - r->estimate.overheadBytes);
    QVERIFY(a.peakAllocatedBytes >= a.requestedPeakBytes + a.cublasWorkspaceBytes);
    QVERIFY(a.peakAllocatedBytes < a.requestedPeakBytes * 1.02 + a.cublasWorkspaceBytes + 64 * MiB);
    QVERIFY(a.peakReservedBytes >= a.peakAllocatedBytes);
    QCOMPARE(a.deviceBytes, a.peakReservedBytes + a.contextBytes);
    QCOMPARE(a.contextBytes + a.cublasWorkspaceBytes, r->estimate.overheadBytes);
}

// NCCL's buffers: per connection its three FIFOs, Simple 4 MiB (DEFAULT_BUFFSIZE), LL 8 x 512 x 8 x 16 B and LL128
// 120 x 640 x 8 x 8 B (src/init.cc), rounded to cuMem's 2 MiB: the 10,485,760-byte allocations NVIDIA/nccl#1685
// shows. One connection per ring channel per communicator (NVIDIA/nccl#986); 24 ring channels over NVSwitch, 2 over
// PCIe (nccl#1781, nccl-tests#228).
void TestAllocator::ncclBuffersPerCommunicator()
{
    const double fifos = 4194304.0 + 8 * 512 * 8 * 16 + 120 * 640 * 8 * 8;
    QCOMPARE(fifos, 9633792.0);
    QCOMPARE(kNcclConnectionBytes, std::ceil(fifos / (2 * MiB)) * 2 * MiB);
    TrainingConfig c;
    const GpuSpec& a100 = test::gpu("a100-sxm4-80gb");
    QCOMPARE(ncclMemory(a100, c).bytes, 0.0); // one GPU: no communicator
    c.dataParallel = 8;
    QCOMPARE(ncclMemory(a100, c).bytes, 24 * 10 * MiB); // DDP over eight: one ring of 24 channels
    c.tensorParallel = 2;
    c.dataParallel = 4;
    QCOMPARE(ncclMemory(a100, c).communicators, 2);
    QCOMPARE(ncclMemory(a100, c).bytes, 2 * 24 * 10 * MiB);
    c.ncclChannels = 4; // NCCL_MAX_NCHANNELS=4
    QCOMPARE(ncclMemory(a100, c).bytes, 2 * 4 * 10 * MiB);
    TrainingConfig pcie;
    pcie.dataParallel = 2;
    QCOMPARE(ncclMemory(test::gpu("rtx-3090"), pcie).bytes, 4 * 10 * MiB); // a pair on its NVLink bridge
    pcie.dataParallel = 4;
    QCOMPARE(ncclMemory(test::gpu("rtx-3090"), pcie).bytes, 2 * 10 * MiB); // four: PCIe, two ring channels

    // In the result: outside what the allocator reserves, inside what an OOM is decided by.
    Scenario s = defaultScenario();
    s.gpuId = "a100-sxm4-80gb";
    s.modelId = "gpt2";
    s.config.dataParallel = 8;
    const auto r = simulate(test::catalog(), s, SimulateOptions {});
    QVERIFY(r);
    const AllocatorEstimate& a = r->allocator;
    QCOMPARE(a.ncclCommunicators, 1);
    QCOMPARE(a.ncclBytes, 240 * MiB);
    QCOMPARE(a.deviceBytes, a.peakReservedBytes + a.contextBytes + a.ncclBytes);
}

// CUBLAS_WORKSPACE_CONFIG as PyTorch's parseChosenWorkspaceSize (aten/src/ATen/cuda/CublasHandlePool.cpp) reads it:
// ":SIZE:COUNT" pairs of KiB. PyTorch's reproducibility notes (docs/source/notes/randomness.rst) say :4096:8 "will
// increase library footprint in GPU memory by approximately 24MiB" over the default of :4096:2:16:8.
void TestAllocator::cublasWorkspaceConfig()
{
    QCOMPARE(cublasWorkspaceConfigBytes(":4096:8").value_or(-1), 32 * MiB);
    QCOMPARE(cublasWorkspaceConfigBytes(":16:8").value_or(-1), 128 * 1024.0);
    const double fallback = *cublasWorkspaceConfigBytes(":4096:2:16:8");
    QCOMPARE(fallback, 4096.0 * 1024 * 2 + 16.0 * 1024 * 8);
    QCOMPARE(std::round((32 * MiB - fallback) / MiB), 24.0); // "approximately 24MiB"
    QCOMPARE(fallback, defaultCublasWorkspaceBytes(test::gpu("a100-sxm4-80gb")));
    QCOMPARE(32 * MiB, defaultCublasWorkspaceBytes(test::gpu("h100-sxm5-80gb"))); // :4096:8 from compute 9.0
    QVERIFY(!cublasWorkspaceConfigBytes("4096,8"));
    QVERIFY(!cublasWorkspaceConfigBytes(""));
    QVERIFY(!cublasWorkspaceConfigBytes(":4096"));

    // Chosen in the scenario: the workspace changes, the CUDA context does not.
    Scenario s = defaultScenario();
    s.modelId = "gpt2";
    const auto base = simulate(test::catalog(), s, SimulateOptions {});
    s.config.cublasWorkspaceBytes = 32 * MiB;
    const auto more = simulate(test::catalog(), s, SimulateOptions {});
    QVERIFY(base && more);
    QCOMPARE(more->allocator.cublasWorkspaceBytes - base->allocator.cublasWorkspaceBytes, 32 * MiB - fallback);
    QCOMPARE(more->allocator.contextBytes, base->allocator.contextBytes);
    QCOMPARE(more->estimate.overheadBytes - base->estimate.overheadBytes, 32 * MiB - fallback); // in the peak too
    QVERIFY(more->allocator.peakAllocatedBytes > base->allocator.peakAllocatedBytes);
}

// cuDNN takes the workspace of the plan it runs from the caching allocator just before each convolution call and
// gives it back after (aten/src/ATen/native/cudnn/Conv_v8.cpp, run_conv_plan): the lowering gives every convolution
// step a block of it, allocated and freed in that step. By hand: a 30 MiB output (its own 30 MiB segment: large
// requests are rounded to 2 MiB) and an 8 MiB workspace (below 10 MiB: a 20 MiB segment) are 38 MiB allocated and
// 50 MiB reserved at once; the freed workspace's segment is reused by the next call.
void TestAllocator::cudnnWorkspaceAroundEachConvolution()
{
    Schedule s;
    MemoryBlock out, workspace;
    out.bytes.fixed = 30 * MiB;
    workspace.bytes.fixed = 8 * MiB;
    s.blocks = { out, workspace };
    Step conv;
    conv.convolution = true;
    conv.eventsBegin = 0;
    conv.allocCount = 2; // the output and the workspace, then the workspace is freed
    conv.freeCount = 1;
    Step free;
    free.eventsBegin = 3;
    free.freeCount = 1;
    s.events = { 0, 1, 1, 0 };
    s.steps = { conv, free };
    AllocatorSettings settings;
    settings.cublasLtWorkspaceBytes = 0.0;
    const AllocatorEstimate with = replayCachingAllocator(s, {}, 1.0, settings, 0.0);
    QCOMPARE(with.peakAllocatedBytes, 38 * MiB);
    QCOMPARE(with.peakReservedBytes, 50 * MiB);
    QCOMPARE(with.convolutionSteps, 1);
    QCOMPARE(with.requestedPeakBytes, 38 * MiB);

    // A CNN: every forward and backward convolution step takes it, in the estimate's peak (as a temporary) and in
    // the replay; without a workspace nothing changes.
    Scenario r = defaultScenario();
    r.modelId = "resnet50";
    r.config.microBatch = 16;
    r.config.sequenceLength = 224;
    const auto cnn = simulate(test::catalog(), r, SimulateOptions {});
    QVERIFY(cnn);
    QCOMPARE(cnn->allocator.convolutionSteps, 2 * 53); // ResNet-50's 53 convolutions (torchvision), both passes
    const std::size_t blocks = cnn->estimate.schedule->blocks.size();
    r.config.cudnnWorkspaceBytes = 256 * MiB;
    const auto big = simulate(test::catalog(), r, SimulateOptions {});
    QVERIFY(big);
    QCOMPARE(big->estimate.schedule->blocks.size(), blocks + 2 * 53);
    const double grown = big->estimate.peakBytes - cnn->estimate.peakBytes;
    QVERIFY2(grown > 0 && grown <= 256 * MiB, qPrintable(QString::number(grown / MiB)));
    QVERIFY(big->allocator.peakAllocatedBytes > cnn->allocator.peakAllocatedBytes);
    QVERIFY(big->allocator.peakAllocatedBytes <= cnn->allocator.peakAllocatedBytes + 256 * MiB);
}

QTEST_APPLESS_MAIN(TestAllocator)
#include "tst_allocator.moc"
