#pragma once

// The words that make a figure or a report self-explaining: which GPU and model, every setting that changes the
// result, and the verdict in one line. Shared by the exported figures, the PDF report and the clipboard, so all
// of them describe a scenario the same way.

#include "measured.h"
#include "simulate.h"

#include <QString>
#include <QStringList>

namespace headroom::gui {

namespace ScenarioText {

    // "BERT-base (bert-base-uncased) on NVIDIA RTX A3000 12 GB Laptop GPU"
    QString title(const SimulationResult& r);
    // "micro-batch 16 · sequence 512 · FP16 mixed · AdamW · ZeRO 0 · 1 GPU · no checkpointing · …"
    QString settings(const SimulationResult& r);
    // What-if overrides in force, empty when the GPU's datasheet figures are used.
    QString overrides(const SimulationResult& r);
    // "Fits: peak 7.19 GiB of 12.0 GiB · largest micro-batch 30 · step 259 ms · 31.6K tokens/s · MFU 47.6 %"
    // With the worker's searches (`searched`), their verdict and largest micro-batch: the allocator replay's.
    QString verdict(const SimulationResult& r, const SearchResult* searched = nullptr);
    // The longest sequence (or image side) that fits at this micro-batch, as the verdict and the report say it: the
    // figure, "(the model's limit)" where the model's own context stops it first, or "none, not even the shortest"
    // where nothing does (the search's 0; "longest sequence that fits: 0" read as a figure).
    QString longest(const SearchResult& searched);
    // All of the above, one item per line.
    QStringList caption(const SimulationResult& r, const SearchResult* searched = nullptr);

    // What torch.cuda would report, from the caching allocator replay: "PyTorch: max_memory_allocated 6.86 GiB ·
    // max_memory_reserved 7.44 GiB · reserved + CUDA context 7.82 GiB of 12.00 GiB". Empty until it is computed.
    QString pytorch(const AllocatorEstimate& a, double capacityBytes);
    // A measurement beside the prediction ("predicted +2.1 %" is the prediction over the measurement, less one), or
    // that it is of another scenario.
    QString measured(const Estimate& e, const Measured& m, const AllocatorEstimate& a);

    // What a suggested change does, for one line of its own: "saves 3.20 GiB, fits · 18 % slower (24.1K tokens/s)".
    // The cost is the throughput against the current scenario's (which runs, if slower, where it does not fit).
    QString fixEffect(const Fix& fix, const Estimate& current);

    // The breakdown by category: steady size and size at the peak, in bytes and GiB, with each category's share.
    // `searched`: the searches' answer, whose verdict is the window's; computed here when absent.
    QString breakdownCsv(const SimulationResult& r, const SearchResult* searched = nullptr);

} // namespace ScenarioText

} // namespace headroom::gui
