#include "pdfreport.h"

#include "catalogloader.h"
#include "chartstyle.h"
#include "figure.h"
#include "formatting.h"
#include "labels.h"
#include "pdftext.h"
#include "scenariotext.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBuffer>
#include <QDateTime>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

namespace headroom::gui {

namespace {

    struct Tr {
        Q_DECLARE_TR_FUNCTIONS(PdfReport)
    };
    QString esc(const QString& s) { return s.toHtmlEscaped(); }
    QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

    constexpr double kMargin = 40.0;

    QString headerHtml(const SimulationResult& r, const SearchResult& bg, const Measured* measured)
    {
        const Estimate& e = r.estimate;
        QString html = QStringLiteral("<h2 style='margin:0'>%1</h2>").arg(esc(ScenarioText::title(r)));
        html += QStringLiteral("<p style='margin:2px 0'>%1</p>").arg(esc(ScenarioText::settings(r)));
        if (const QString o = ScenarioText::overrides(r); !o.isEmpty())
            html += QStringLiteral("<p style='margin:2px 0'><i>%1</i></p>").arg(esc(o));
        const QString color = bg.verdict.fits ? QStringLiteral("#007A5A") : QStringLiteral("#B04A00");
        html += QStringLiteral("<p style='margin:4px 0; color:%1'><b>%2</b></p>")
                    .arg(color, esc(ScenarioText::verdict(r, &bg)));
        const int layers = e.schedule ? e.schedule->layers : 0;
        html += QStringLiteral("<p style='margin:2px 0'>%1</p>")
                    .arg(
                        esc(Tr::tr("Peak in the %1 of %2 (%3). Longest %4 that fits at this micro-batch: %5.")
                                .arg(e.peakInRecompute ? Tr::tr("recomputation") : Labels::phase(e.peakPhase),
                                     Labels::layer(e.peakLayer, layers), QString::fromStdString(e.peakOperator),
                                     e.vision ? Tr::tr("image side") : Tr::tr("sequence"), ScenarioText::longest(bg))));
        // What torch.cuda would report, and what a probe measured, as the verdict says them.
        if (const QString pytorch = ScenarioText::pytorch(bg.allocator, e.capacityBytes); !pytorch.isEmpty())
            html += QStringLiteral("<p style='margin:2px 0'>%1</p>").arg(esc(pytorch));
        if (measured)
            html += QStringLiteral("<p style='margin:2px 0'>%1</p>")
                        .arg(esc(ScenarioText::measured(e, *measured, bg.allocator)));
        if (!bg.verdict.fits && !bg.fixes.empty()) {
            // One suggestion per line: what it changes, what it saves, what it costs (ScenarioText::fixEffect).
            QString items;
            for (std::size_t i = 0; i < bg.fixes.size() && i < 4; ++i)
                items += QStringLiteral("<li>%1 — %2</li>")
                             .arg(esc(Labels::fix(bg.fixes[i])), esc(ScenarioText::fixEffect(bg.fixes[i], e)));
            html += QStringLiteral("<p style='margin:2px 0'>%1</p><ul style='margin:0'>%2</ul>")
                        .arg(esc(Tr::tr("What would help:")), items);
        }
        for (const QString& w : Labels::warnings(e))
            html += QStringLiteral("<p style='margin:2px 0'>⚠ %1</p>").arg(esc(w));
        return html;
    }

    // `verdict`: the window's, from the replay (the result's own is the peak's where the searches have not run).
    QString tablesHtml(const SimulationResult& r, const FitVerdict& verdict)
    {
        const Estimate& e = r.estimate;
        const QString th = QStringLiteral(
            "style='text-align:left; padding:1px 8px 1px 0; border-bottom:1px solid #888'");
        const QString td = QStringLiteral("style='padding:1px 8px 1px 0'");
        const QString tdr = QStringLiteral("style='padding:1px 8px 1px 0' align='right'");
        QString memory = QStringLiteral(
                             "<table cellspacing='0'><tr><th %1>%2</th><th %1>%3</th><th %1>%4</th><th %1>%5</th></tr>")
                             .arg(th, esc(Tr::tr("Memory")), esc(Tr::tr("Largest")), esc(Tr::tr("At the peak")),
                                  esc(Tr::tr("Share")));
        for (int i = 0; i < kMemoryCategoryCount; ++i) {
            const auto c = MemoryCategory(i);
            memory
                += QStringLiteral(
                       "<tr><td %1><span style='color:%2'>■</span> %3</td><td %4>%5</td><td %4>%6</td><td %4>%7</td></tr>")
                       .arg(td, categoryColor(c).name(), esc(Labels::category(c)), tdr,
                            formatBytes(e.components[std::size_t(i)]), formatBytes(e.atPeak[std::size_t(i)]),
                            formatPercent(e.peakBytes > 0 ? e.atPeak[std::size_t(i)] / e.peakBytes : 0.0));
        }
        // Each category's largest size comes at its own moment (gradients at the optimizer step, activations at the
        // end of forward): their sum is not a memory the GPU ever holds, so the total is the peak's alone.
        memory += QStringLiteral("<tr><td %1><b>%2</b></td><td %3></td><td %3><b>%4</b></td><td %3></td></tr>")
                      .arg(td, esc(Tr::tr("Total")), tdr, formatBytes(e.peakBytes));
        // The verdict's figure: with PyTorch's caching allocator and the CUDA context where it was replayed. Without
        // it a table totalling 11.31 GiB of 12.00 stood under "Does not fit: ... 12.16 GiB".
        memory += QStringLiteral("<tr><td %1>%2</td><td %3></td><td %3>%4</td><td %3></td></tr>")
                      .arg(td, esc(Tr::tr("Needed (the verdict's figure)")), tdr, formatBytes(verdict.neededBytes));
        memory += QStringLiteral("<tr><td %1>%2</td><td %3></td><td %3>%4</td><td %3></td></tr></table>")
                      .arg(td, esc(Tr::tr("GPU capacity")), tdr, formatBytes(e.capacityBytes));
        memory += QStringLiteral("<p style='font-size:small'>%1</p>")
                      .arg(esc(Tr::tr("Largest: each category at its own largest during the step. These do not "
                                      "happen at the same time, so they add up to more than the peak.")));

        const int accum = std::max(1, r.scenario.config.gradientAccumulation);
        QString time = QStringLiteral("<table cellspacing='0'><tr><th %1>%2</th><th %1>%3</th></tr>")
                           .arg(th, esc(Tr::tr("Time per step")), esc(Tr::tr("Seconds")));
        auto row = [&](const QString& name, const QString& value) {
            time += QStringLiteral("<tr><td %1>%2</td><td %3>%4</td></tr>").arg(td, esc(name), tdr, esc(value));
        };
        row(Tr::tr("Forward and backward × %1").arg(accum), formatSeconds(e.microBatchSeconds * accum));
        row(Tr::tr("Optimizer step"), formatSeconds(e.optimizerSeconds));
        row(Tr::tr("Exposed communication"), formatSeconds(e.exposedCommunicationSeconds));
        if (e.offloadSeconds > 0)
            row(Tr::tr("Host offload"), formatSeconds(e.offloadSeconds));
        row(Tr::tr("Step"), formatSeconds(e.stepSeconds));
        row(e.hostBound() ? Tr::tr("Host-bound: GPU busy") : Tr::tr("GPU-bound: GPU busy"),
            formatSeconds(e.gpuBusySeconds));
        row(Tr::tr("Host issuing the operators"), formatSeconds(e.hostSeconds));
        row(Tr::tr("Throughput"), formatRate(e.throughputPerSecond, e.vision ? Tr::tr("images") : Tr::tr("tokens")));
        row(Tr::tr("Model FLOPs per step and GPU"), formatCount(e.modelFlopsPerStep));
        row(Tr::tr("MFU (%1)").arg(Labels::unit(e.mfuUnit)), formatPercent(e.mfu));
        row(Tr::tr("Memory bandwidth"), formatBandwidth(e.gpu.bandwidthBytesPerSecond));
        time += QStringLiteral("</table>");
        return QStringLiteral(
                   "<table width='100%'><tr><td valign='top' width='55%'>%1</td><td valign='top'>%2</td></tr></table>")
            .arg(memory, time);
    }

    QString sourcesHtml(const SimulationResult& r)
    {
        QStringList items;
        if (r.gpu) {
            // The sources behind the figures this result uses: capacity, bandwidth, the roof of the unit in use.
            std::vector<std::string> ids;
            for (const SourcedFigure* f :
                 { &r.gpu->capacityGB, &r.gpu->bandwidthGBps, &r.gpu->peakTflops[std::size_t(r.estimate.mfuUnit)] }) {
                for (const std::string& id : f->sources) {
                    if (std::find(ids.begin(), ids.end(), id) == ids.end())
                        ids.push_back(id);
                }
            }
            for (const std::string& id : ids) {
                const auto it = r.gpu->sources.find(id);
                if (it == r.gpu->sources.end())
                    continue;
                // A source without an address (a user's notes) has no "<>" after its title.
                items << (it->second.url.empty()
                              ? QStringLiteral("%1: %2").arg(esc(r.gpu->name), esc(it->second.title))
                              : QStringLiteral("%1: %2 &lt;%3&gt;")
                                    .arg(esc(r.gpu->name), esc(it->second.title), esc(it->second.url)));
            }
        }
        if (r.model) {
            const ModelReference& m = r.model->reference;
            if (!m.implementation.empty())
                items << QStringLiteral("%1: %2 %3%4")
                             .arg(esc(r.model->name), esc(m.implementation), esc(m.checkpoint),
                                  m.url.empty() ? QString() : QStringLiteral(" &lt;%1&gt;").arg(esc(m.url)));
        }
        items << esc(
            Tr::tr("Memory model: a simulation of the PyTorch eager training step (saved tensors, autocast casts, "
                   "allocator lifetimes); its saved activations match PyTorch measurements byte for byte for "
                   "BERT, GPT-2, Llama and torchvision models (docs/accuracy.md), its model states the ZeRO "
                   "paper's tables (docs/formulas.md)."));
        items << esc(
            QStringLiteral("S. Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter "
                           "Models, SC 2020 (optimizer, gradient and weight partitioning)."));
        items << esc(
            QStringLiteral("V. Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, "
                           "MLSys 2023 (activation memory, selective recomputation)."));
        items << esc(
            QStringLiteral("D. Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters "
                           "Using Megatron-LM, SC 2021 (FLOPs per step)."));
        items << esc(
            QStringLiteral("S. Williams, A. Waterman, D. Patterson, Roofline: An Insightful Visual Performance "
                           "Model for Multicore Architectures, CACM 2009."));
        return QStringLiteral("<p style='margin:0'><b>%1</b></p><ol style='margin-top:0'><li>%2</li></ol>")
            .arg(esc(Tr::tr("Sources")), items.join(QStringLiteral("</li><li>")));
    }

    QFont reportFont(double px)
    {
        QFont f(QGuiApplication::font().family());
        f.setPixelSize(qRound(px));
        f.setStyleStrategy(QFont::PreferNoShaping); // no ligatures, whose glyphs copy out of a PDF as U+FB01, U+FB02
        return f;
    }

    double layoutDocument(QTextDocument& doc, const QString& html, double width, double px)
    {
        doc.setDefaultFont(reportFont(px));
        doc.setDocumentMargin(0);
        doc.setHtml(html);
        doc.setTextWidth(width);
        return doc.size().height();
    }

    void drawDocument(QPainter* p, QTextDocument& doc, QPointF at, const QColor& text)
    {
        p->save();
        p->translate(at);
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.palette.setColor(QPalette::Text, text);
        doc.documentLayout()->draw(p, ctx);
        p->restore();
    }

} // namespace

QByteArray pdfReport(const ReportInputs& in)
{
    const SimulationResult& r = *in.result;
    const SearchResult bg = in.background ? *in.background : searchFits(r);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setResolution(kVectorResolution);
    pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF()));
    pdf.setTitle(ScenarioText::title(r));
    pdf.setCreator(QStringLiteral("Headroom " HEADROOM_VERSION));
    QPainter p(&pdf);
    const QRectF page = p.viewport();
    const double width = page.width() - 2 * kMargin;
    // The figures' colours, so that text and charts match on the page.
    const ChartStyle style = exportChartStyle(in.dark, false);
    const QColor text = style.foreground;
    if (in.dark)
        p.fillRect(page, style.background);

    QTextDocument header, tables, sources;
    const QString stamp = Tr::tr("Headroom %1 report, %2")
                              .arg(QStringLiteral(HEADROOM_VERSION), QDate::currentDate().toString(Qt::ISODate));
    const double hHeader = layoutDocument(header,
                                          QStringLiteral("<p style='margin:0; color:#808080'>%1</p>").arg(esc(stamp))
                                              + headerHtml(r, bg, in.measured.get()),
                                          width, 11.0);
    const double hTables = layoutDocument(tables, tablesHtml(r, bg.verdict), width, 10.0);
    const double hSources = layoutDocument(sources, sourcesHtml(r), width, 8.0);
    const double gap = 10.0;
    double figureHeight = page.height() - 2 * kMargin - hHeader - hTables - hSources - 3 * gap;
    figureHeight = std::clamp(figureHeight, 420.0, 640.0);

    double y = kMargin;
    drawDocument(&p, header, { kMargin, y }, text);
    y += hHeader + gap;
    // Laid out at a screen-like width and scaled down onto the page, so that each chart keeps room for its axes.
    const double zoom = 0.68;
    FigureOptions fo;
    fo.chart = FigureChart::All;
    fo.caption = false;
    fo.dark = in.dark;
    fo.size = QSize(int(width / zoom), int(figureHeight / zoom));
    Figure figure(fo);
    figure.setResult(in.result, &bg);
    p.save();
    p.translate(kMargin, y);
    p.scale(zoom, zoom);
    figure.paint(&p);
    p.restore();
    y += figureHeight + gap;
    drawDocument(&p, tables, { kMargin, y }, text);
    y += hTables + gap;
    // Long source lists shrink rather than run off the page.
    const double room = page.height() - kMargin / 2 - y;
    if (hSources > room && room > 0) {
        p.save();
        p.translate(kMargin, y);
        p.scale(room / hSources, room / hSources);
        drawDocument(&p, sources, { 0, 0 }, text);
        p.restore();
    } else {
        drawDocument(&p, sources, { kMargin, y }, text);
    }
    p.end();
    restoreIdeographs(bytes, reportFont(11.0));
    return bytes;
}

std::optional<QString> writePdfReport(const QString& path, const ReportInputs& inputs)
{
    return CatalogLoader::writeFile(path, pdfReport(inputs));
}

} // namespace headroom::gui
