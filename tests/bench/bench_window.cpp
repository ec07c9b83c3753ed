// The window as an instrument: time from a slider value change to every chart repainted, driving the real window
// offscreen (median and 99th percentile reported as counters), and cold start to a painted window. A tick is the
// whole frame: the simulation and the series (update), the layouts it invalidated (layout), and every chart and the
// verdict repainted in full (paint; the event loop repaints only what changed).
// Goals on a 2-core machine: < 4 ms median, < 8 ms p99 per tick; < 500 ms cold start.

#include "appsettings.h"
#include "catalogloader.h"
#include "controlpanel.h"
#include "mainwindow.h"
#include "simulationcontroller.h"
#include "verdictwidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QGraphicsView>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>

using namespace headroom;
using namespace headroom::gui;

namespace {

QApplication* app()
{
    static int argc = 1;
    static char name[] = "bench_window";
    static char* argv[] = { name, nullptr };
    static QApplication* a = [] {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        return new QApplication(argc, argv);
    }();
    return a;
}

struct Window {
    QTemporaryDir dir;
    AppSettings settings { dir.filePath(QStringLiteral("s.ini")), nullptr };
    SimulationController controller { CatalogLoader::bundled() };
    MainWindow window { &controller, &settings };

    explicit Window(const Scenario& s)
    {
        window.applyScenario(s);
        window.resize(1600, 900);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            qFatal("the benchmark window was never exposed");
        repaint();
    }
    void repaint(std::array<double, 5>* perView = nullptr)
    {
        int k = 0;
        for (ChartPanel* c : window.charts()) {
            QElapsedTimer t;
            t.start();
            c->viewport()->repaint();
            if (perView)
                (*perView)[k++] += double(t.nsecsElapsed()) / 1e6;
        }
        window.verdict()->repaint();
    }
};

// Counts the paint events of the chart viewports it filters while `counting`.
struct PaintCounter : QObject {
    int frames = 0;
    bool counting = false;
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && counting)
            ++frames;
        return false;
    }
};

void report(benchmark::State& state, std::vector<double>& ms)
{
    std::sort(ms.begin(), ms.end());
    if (ms.empty())
        return;
    state.counters["median_ms"] = ms[ms.size() / 2];
    state.counters["p99_ms"] = ms[std::min(ms.size() - 1, std::size_t(double(ms.size()) * 0.99))];
    state.counters["max_ms"] = ms.back();
}

void sliderToRepaint(benchmark::State& state, const char* gpu, const char* model, const char* slider)
{
    app();
    Scenario s = defaultScenario();
    if (std::string(model) != s.modelId) {
        s.gpuId = gpu;
        s.modelId = model;
        s.overrides = {};
        s.config.microBatch = 4;
        s.config.sequenceLength = 1024;
    }
    Window w(s);
    QSlider* control = std::string(slider) == "batch" ? w.window.controls()->batchSlider()
                                                      : w.window.controls()->sequenceSlider();
    // The sweep's centre 10 positions inside the slider's ends, so that every tick changes the value (BERT's
    // sequence starts at its 512-token end, where half the ticks changed nothing and painted nothing).
    const int base = std::clamp(control->value(), control->minimum() + 10, control->maximum() - 10);
    std::vector<double> ms, update, layout, paint, fullPaint;
    std::array<double, 5> perView {};
    PaintCounter painted;
    for (ChartPanel* c : w.window.charts())
        c->viewport()->installEventFilter(&painted);
    int i = 0;
    for (auto _ : state) {
        QElapsedTimer t;
        t.start();
        control->setValue(base - 10 + (i++ % 21));             // sweep around the start value, like a drag
        const double updated = double(t.nsecsElapsed()) / 1e6; // simulation + series replaced
        // The layouts the tick invalidated (a chart's axes), which the event loop runs before it paints.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        const double laidOut = double(t.nsecsElapsed()) / 1e6;
        // The frame the event loop paints: each scene's pass over its changed items, then the window repaints what
        // they and the verdict dirtied.
        painted.counting = true;
        for (ChartPanel* c : w.window.charts())
            QCoreApplication::sendPostedEvents(c->scene(), QEvent::MetaCall);
        QCoreApplication::sendPostedEvents(&w.window, QEvent::UpdateRequest);
        painted.counting = false;
        const double elapsed = double(t.nsecsElapsed()) / 1e6;
        ms.push_back(elapsed);
        update.push_back(updated);
        layout.push_back(laidOut - updated);
        paint.push_back(elapsed - laidOut);
        state.SetIterationTime(elapsed / 1e3);
        // Not in the frame: every chart and the verdict repainted in full (the worst case: a resize, a new style).
        t.restart();
        w.repaint(&perView);
        fullPaint.push_back(double(t.nsecsElapsed()) / 1e6);
        QCoreApplication::processEvents(); // deliver background results between ticks, as the event loop would
    }
    auto median = [](std::vector<double>& v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    state.counters["update_median_ms"] = median(update);
    state.counters["layout_median_ms"] = median(layout);
    state.counters["paint_median_ms"] = median(paint);
    state.counters["full_paint_median_ms"] = median(fullPaint);
    // Charts painted in a frame, on average (of four): the frame above is measured only where the tick shows.
    state.counters["charts_painted"] = double(painted.frames) / double(ms.size());
    const char* names[] = { "full_paint_memory_ms", "full_paint_sweep_ms", "full_paint_timeline_ms",
                            "full_paint_roofline_ms" };
    for (int k = 0; k < 4; ++k)
        state.counters[names[k]] = perView[k] / double(ms.size());
    report(state, ms);
}

// Repaint without any change: the floor that Qt Charts' painting sets for each chart.
void repaintOnly(benchmark::State& state)
{
    app();
    Window w(defaultScenario());
    std::array<double, 5> perView {};
    std::size_t n = 0;
    for (auto _ : state) {
        QElapsedTimer t;
        t.start();
        w.repaint(&perView);
        state.SetIterationTime(double(t.nsecsElapsed()) / 1e9);
        ++n;
    }
    const char* names[] = { "paint_memory_ms", "paint_sweep_ms", "paint_timeline_ms", "paint_roofline_ms" };
    for (int k = 0; k < 4; ++k)
        state.counters[names[k]] = perView[k] / double(n);
}

// One chart: a new result, then its repaint (to attribute the cost of a tick to a view).
void oneChart(benchmark::State& state)
{
    app();
    Window w(defaultScenario());
    ChartPanel* chart = w.window.charts().at(int(state.range(0)));
    Scenario s = w.controller.scenario();
    std::int64_t b = 8;
    for (auto _ : state) {
        s.config.microBatch = b = b % 32 + 8;
        w.controller.setScenario(s);
        QElapsedTimer t;
        t.start();
        chart->setResult(w.controller.sharedResult());
        chart->viewport()->repaint();
        state.SetIterationTime(double(t.nsecsElapsed()) / 1e9);
    }
}

void coldStart(benchmark::State& state)
{
    app();
    std::vector<double> ms;
    for (auto _ : state) {
        QElapsedTimer t;
        t.start();
        {
            Window w(defaultScenario());
            const double elapsed = double(t.nsecsElapsed()) / 1e6;
            ms.push_back(elapsed);
            state.SetIterationTime(elapsed / 1e3);
        }
    }
    report(state, ms);
}

} // namespace

BENCHMARK_CAPTURE(sliderToRepaint, default_batch, "rtx-a3000-12gb-laptop", "bert-base", "batch")
    ->UseManualTime()
    ->Iterations(400)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(sliderToRepaint, default_sequence, "rtx-a3000-12gb-laptop", "bert-base", "sequence")
    ->UseManualTime()
    ->Iterations(200)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(sliderToRepaint, llama_batch, "h100-sxm5-80gb", "llama-2-7b", "batch")
    ->UseManualTime()
    ->Iterations(200)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(sliderToRepaint, llama_sequence, "h100-sxm5-80gb", "llama-2-7b", "sequence")
    ->UseManualTime()
    ->Iterations(100)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(repaintOnly)->UseManualTime()->Iterations(200)->Unit(benchmark::kMillisecond);
BENCHMARK(oneChart)->DenseRange(0, 3)->UseManualTime()->Iterations(200)->Unit(benchmark::kMillisecond);
BENCHMARK(coldStart)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
