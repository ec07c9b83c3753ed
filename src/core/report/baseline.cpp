#include "baseline.h"

#include "report.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace headroom {

namespace {

    // Bytes: better when the difference goes the right way by more than a byte.
    BaselineRow bytesRow(BaselineQuantity q, double base, double now, bool lowerIsBetter)
    {
        BaselineRow r;
        r.quantity = q;
        r.kind = BaselineChange::Bytes;
        r.baseline = base;
        r.current = now;
        r.change = now - base;
        r.better = std::abs(r.change) < 1.0 ? 0 : ((r.change < 0.0) == lowerIsBetter ? 1 : -1);
        return r;
    }

    // A ratio: better when it moves the right way by more than 0.1 %; none where either side is 0.
    BaselineRow ratioRow(BaselineQuantity q, double base, double now, bool lowerIsBetter)
    {
        BaselineRow r;
        r.quantity = q;
        r.kind = BaselineChange::Ratio;
        r.baseline = base;
        r.current = now;
        if (base > 0.0 && now > 0.0) {
            r.change = now / base;
            r.better = std::abs(r.change - 1.0) < 1e-3 ? 0 : ((r.change < 1.0) == lowerIsBetter ? 1 : -1);
        }
        return r;
    }

    // A side's answer to "does it fit?": its search's where given, else its result's (with the CLI's searches the
    // estimate's free bytes and largest micro-batch follow the verdict already; simulate.h).
    struct FitSide {
        bool fits = false;
        double needs = 0.0;
        double free = 0.0;
        double maxMicroBatch = 0.0;
    };

    FitSide fitSide(const SimulationResult& r, const SearchResult* fit)
    {
        if (fit)
            return { fit->verdict.fits, fit->verdict.neededBytes, fit->verdict.freeBytes(),
                     double(fit->maxMicroBatch) };
        return { r.verdict.fits, r.verdict.neededBytes, r.estimate.headroomBytes, double(r.estimate.maxMicroBatch) };
    }

} // namespace

std::vector<BaselineRow> compareToBaseline(const SimulationResult& baseline, const SimulationResult& current,
                                           const SearchResult* baselineFit, const SearchResult* currentFit)
{
    const Estimate& b = baseline.estimate;
    const Estimate& c = current.estimate;
    const FitSide bf = fitSide(baseline, baselineFit);
    const FitSide cf = fitSide(current, currentFit);
    std::vector<BaselineRow> rows;
    for (int i = 0; i < kMemoryCategoryCount; ++i) {
        rows.push_back(bytesRow(BaselineQuantity::Category, b.atPeak[std::size_t(i)], c.atPeak[std::size_t(i)], true));
        rows.back().category = MemoryCategory(i);
    }
    rows.push_back(bytesRow(BaselineQuantity::Peak, b.peakBytes, c.peakBytes, true));
    rows.push_back(bytesRow(BaselineQuantity::Needs, bf.needs, cf.needs, true));
    rows.push_back(bytesRow(BaselineQuantity::Free, bf.free, cf.free, false));
    rows.push_back(ratioRow(BaselineQuantity::MaxMicroBatch, bf.maxMicroBatch, cf.maxMicroBatch, false));
    rows.push_back(ratioRow(BaselineQuantity::StepTime, b.stepSeconds, c.stepSeconds, true));
    rows.push_back(ratioRow(BaselineQuantity::Throughput, b.throughputPerSecond, c.throughputPerSecond, false));
    rows.push_back(ratioRow(BaselineQuantity::Mfu, b.mfu, c.mfu, false));
    BaselineRow fits;
    fits.quantity = BaselineQuantity::Fits;
    fits.kind = BaselineChange::Verdict;
    fits.baseline = bf.fits ? 1.0 : 0.0;
    fits.current = cf.fits ? 1.0 : 0.0;
    fits.better = bf.fits == cf.fits ? 0 : (cf.fits ? 1 : -1);
    rows.push_back(fits);
    return rows;
}

std::string baselineKey(const BaselineRow& row)
{
    switch (row.quantity) {
    case BaselineQuantity::Category:
        return std::string(toString(row.category));
    case BaselineQuantity::Peak:
        return "peak";
    case BaselineQuantity::Needs:
        return "needs";
    case BaselineQuantity::Free:
        return "free";
    case BaselineQuantity::MaxMicroBatch:
        return "max_micro_batch";
    case BaselineQuantity::StepTime:
        return "step_seconds";
    case BaselineQuantity::Throughput:
        return "throughput_per_second";
    case BaselineQuantity::Mfu:
        return "mfu";
    case BaselineQuantity::Fits:
        return "fits";
    }
    return "fits";
}

namespace {

    std::string valueText(const BaselineRow& row, double v)
    {
        char s[64];
        switch (row.quantity) {
        case BaselineQuantity::Category:
        case BaselineQuantity::Peak:
        case BaselineQuantity::Needs:
        case BaselineQuantity::Free:
            return v < 0.0 ? "-" + formatBytes(-v) : formatBytes(v);
        case BaselineQuantity::StepTime:
            return formatSeconds(v);
        case BaselineQuantity::Mfu:
            std::snprintf(s, sizeof s, "%.1f%%", v * 100.0);
            return s;
        case BaselineQuantity::Fits:
            return v > 0.0 ? "yes" : "no";
        case BaselineQuantity::MaxMicroBatch:
        case BaselineQuantity::Throughput:
            break;
        }
        std::snprintf(s, sizeof s, "%.0f", v);
        return s;
    }

    std::string changeText(const BaselineRow& row)
    {
        char s[64];
        if (row.kind == BaselineChange::Bytes)
            return (row.change < 0.0 ? "-" : "+") + formatBytes(std::abs(row.change));
        if (row.kind == BaselineChange::Ratio && row.change > 0.0) {
            std::snprintf(s, sizeof s, "x%.2f", row.change);
            return s;
        }
        return "";
    }

} // namespace

std::string baselineToTable(const std::vector<BaselineRow>& rows, const std::string& baselineName)
{
    std::string out = "\nAgainst the baseline " + baselineName + "\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-24s %14s %14s %14s\n", "", "baseline", "now", "change");
    out += line;
    for (const BaselineRow& r : rows) {
        const char* judged = r.better > 0 ? "  better" : r.better < 0 ? "  worse" : "";
        std::snprintf(line, sizeof line, "  %-24s %14s %14s %14s%s\n", baselineKey(r).c_str(),
                      valueText(r, r.baseline).c_str(), valueText(r, r.current).c_str(), changeText(r).c_str(), judged);
        out += line;
    }
    return out;
}

nlohmann::json baselineRowsJson(const std::vector<BaselineRow>& rows)
{
    nlohmann::json list = nlohmann::json::array();
    for (const BaselineRow& r : rows) {
        const char* kind = r.kind == BaselineChange::Bytes ? "bytes"
            : r.kind == BaselineChange::Ratio              ? "ratio"
                                                           : "verdict";
        list.push_back({ { "quantity", baselineKey(r) },
                         { "baseline", r.baseline },
                         { "current", r.current },
                         { "change", r.change },
                         { "change_kind", kind },
                         { "better", r.better } });
    }
    return list;
}

} // namespace headroom
