// The whole UI in English and Simplified Chinese. The .ts must be complete (no unfinished or empty entry, the same
// placeholders and markup as the source) and current (lupdate over the sources finds nothing it lacks); switching
// to Chinese at run time must leave no English behind in the window; exported figures must draw real Chinese glyphs.

#include "appsettings.h"
#include "catalogloader.h"
#include "chartstyle.h"
#include "controlpanel.h"
#include "figure.h"
#include "formatting.h"
#include "labels.h"
#include "language.h"
#include "mainwindow.h"
#include "memorychartview.h"
#include "simulationcontroller.h"
#include "timelineview.h"

#include <QAbstractAxis>
#include <QAbstractButton>
#include <QChart>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QProcess>
#include <QRawFont>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace headroom;
using namespace headroom::gui;

namespace {

struct Entry {
    QString context, source, translation;
    bool unfinished = false;
};

QList<Entry> readTs(const QString& path)
{
    QList<Entry> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&f);
    QString context;
    Entry e;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name"))
            context = xml.readElementText();
        else if (xml.name() == QLatin1String("message"))
            e = Entry { context, {}, {}, false };
        else if (xml.name() == QLatin1String("source"))
            e.source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation")) {
            e.unfinished = xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished")
                || xml.attributes().value(QLatin1String("type")) == QLatin1String("vanished");
            e.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            out << e;
        }
    }
    return out;
}

QStringList sorted(QStringList l)
{
    l.sort();
    return l;
}

const QString kTs = QStringLiteral(HEADROOM_SOURCE_DIR "/resources/translations/headroom_zh_CN.ts");

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT

private slots:
    void everyEntryIsFinished();
    void tsIsCurrentWithTheSources();
    void windowIsAllChineseAfterSwitching();
    void exportedFiguresDrawChineseGlyphs();
    void gpuSearchMatchesBothLanguages();
    void systemLocaleChoosesTheLanguage();
};

void TestTranslations::everyEntryIsFinished()
{
    const QList<Entry> entries = readTs(kTs);
    QVERIFY(entries.size() > 600);
    static const QRegularExpression placeholder(QStringLiteral("%(\\d+|n)"));
    static const QRegularExpression tag(QStringLiteral("</?([a-zA-Z]+)"));
    auto all = [](const QRegularExpression& re, const QString& s) {
        QStringList found;
        for (auto it = re.globalMatch(s); it.hasNext();)
            found << it.next().captured(1);
        return sorted(found);
    };
    QStringList problems;
    for (const Entry& e : entries) {
        const QString where = e.context + QStringLiteral(": ") + e.source.left(60);
        if (e.unfinished || e.translation.trimmed().isEmpty())
            problems << QStringLiteral("unfinished: ") + where;
        else if (all(placeholder, e.source) != all(placeholder, e.translation))
            problems << QStringLiteral("placeholders differ: ") + where;
        else if (all(tag, e.source) != all(tag, e.translation))
            problems << QStringLiteral("markup differs: ") + where;
        else if (e.source.contains(QLatin1Char('&')) != e.translation.contains(QLatin1Char('&')))
            problems << QStringLiteral("accelerator lost or added: ") + where;
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestTranslations::tsIsCurrentWithTheSources()
{
    // lupdate over the same sources as the build (src/gui/CMakeLists.txt): every string it finds must be in the .ts.
    QTemporaryDir dir;
    const QString fresh = dir.filePath(QStringLiteral("fresh_zh_CN.ts"));
    QProcess lupdate;
    lupdate.setWorkingDirectory(QStringLiteral(HEADROOM_SOURCE_DIR));
    lupdate.start(QStringLiteral(HEADROOM_LUPDATE),
                  { QStringLiteral("src/gui"), QStringLiteral("src/app"), QStringLiteral("ui"), QStringLiteral("-ts"),
                    fresh, QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-silent") });
    QVERIFY(lupdate.waitForFinished(120000));
    QCOMPARE(lupdate.exitCode(), 0);
    QSet<QString> committed;
    for (const Entry& e : readTs(kTs))
        committed.insert(e.context + QLatin1Char('\x1f') + e.source);
    QStringList missing;
    for (const Entry& e : readTs(fresh)) {
        if (!committed.contains(e.context + QLatin1Char('\x1f') + e.source))
            missing << e.context + QStringLiteral(": ") + e.source;
    }
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("not in the .ts (run the update_translations target and translate):\n")
                        + missing.join(QLatin1Char('\n'))));
}

void TestTranslations::windowIsAllChineseAfterSwitching()
{
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("s.ini")), nullptr);
    SimulationController controller(CatalogLoader::bundled());
    Language language;
    QVERIFY(language.apply(QStringLiteral("en")));
    MainWindow window(&controller, &settings);
    window.applyScenario(defaultScenario());
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("&File"));

    // Switch at run time, as View > Language does.
    QVERIFY(language.apply(QStringLiteral("zh_CN")));
    QCoreApplication::processEvents();
    QCOMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
    QCOMPARE(window.memoryChart()->title(),
             QCoreApplication::translate("headroom::gui::MemoryChartView", "Memory at the peak of each phase"));
    QVERIFY(window.memoryChart()->title().contains(QStringLiteral("显存")));
    // The timeline's time axis keeps the step's length through the switch ("（%，共 259.3 ms）"); it lost it.
    const auto* timeAxis = window.timelineChart()->chart()->axes(Qt::Horizontal).first();
    const QString step = formatSeconds(controller.result().estimate.microBatchSeconds
                                       + controller.result().estimate.optimizerSeconds)
                             .section(QLatin1Char(' '), 0, 0);
    QVERIFY2(timeAxis->titleText().contains(QStringLiteral("共")) && timeAxis->titleText().contains(step),
             qPrintable(timeAxis->titleText()));

    // No visible text may still be an English source string that has a Chinese translation.
    QSet<QString> english;
    for (const Entry& e : readTs(kTs)) {
        if (e.source != e.translation && e.source.size() > 3 && !e.source.contains(QLatin1Char('%')))
            english.insert(e.source);
    }
    QStringList leftovers;
    auto check = [&](const QString& text, const QString& what) {
        if (english.contains(text))
            leftovers << what + QStringLiteral(": ") + text;
    };
    for (QLabel* l : window.findChildren<QLabel*>())
        if (l->isVisible())
            check(l->text(), QStringLiteral("label"));
    for (QAbstractButton* b : window.findChildren<QAbstractButton*>())
        if (b->isVisible())
            check(b->text(), QStringLiteral("button"));
    for (QGroupBox* g : window.findChildren<QGroupBox*>())
        check(g->title(), QStringLiteral("group"));
    for (QMenu* m : window.findChildren<QMenu*>()) {
        check(m->title(), QStringLiteral("menu"));
        for (QAction* a : m->actions())
            check(a->text(), QStringLiteral("menu item"));
    }
    QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(QLatin1Char('\n'))));
    QVERIFY(language.apply(QStringLiteral("en")));
    QCoreApplication::processEvents();
    QCOMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("&File"));
}

void TestTranslations::exportedFiguresDrawChineseGlyphs()
{
    Language language;
    QVERIFY(language.apply(QStringLiteral("zh_CN")));
    SimulationController controller(CatalogLoader::bundled());
    QVERIFY(controller.setScenario(defaultScenario()));
    Figure figure(FigureOptions {});
    figure.setResult(controller.sharedResult());
    QVERIFY(figure.captionLines().join(QString()).contains(QStringLiteral("放得下")));
    // The export font must reach a font with Han glyphs (fonts-noto-cjk on Debian): two different characters must
    // draw two different, non-empty shapes; missing glyphs would draw the same empty box twice.
    const QFont font = exportChartStyle(false, false).titleFont;
    auto draw = [&](const QString& text) {
        QImage image(64, 64, QImage::Format_Grayscale8);
        image.fill(Qt::white);
        QPainter p(&image);
        p.setFont(font);
        p.setPen(Qt::black);
        p.drawText(image.rect(), Qt::AlignCenter, text);
        return image;
    };
    const QImage a = draw(QStringLiteral("显")), b = draw(QStringLiteral("存"));
    auto ink = [](const QImage& img) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                n += qGray(img.pixel(x, y)) < 128;
        return n;
    };
    QVERIFY(ink(a) > 20 && ink(b) > 20);
    QVERIFY(a != b);
    QVERIFY(QRawFont::fromFont(font, QFontDatabase::SimplifiedChinese).supportsCharacter(QChar(0x663E)));
    QVERIFY(language.apply(QStringLiteral("en")));
}

void TestTranslations::gpuSearchMatchesBothLanguages()
{
    // Issue 10: the GPU picker groups by vendor and translated segment, and its search matches the Chinese segment
    // names. The Chinese names an English window's search knows are the .ts translations of the segment labels.
    Language language;
    const GpuSegment segments[] = { GpuSegment::Laptop, GpuSegment::Desktop, GpuSegment::Workstation,
                                    GpuSegment::Datacenter };
    for (GpuSegment s : segments) {
        QVERIFY(language.apply(QStringLiteral("zh_CN")));
        const QString chinese = Labels::segment(s);
        QVERIFY(language.apply(QStringLiteral("en")));
        const QString english = Labels::segment(s);
        QVERIFY2(chinese != english, qPrintable(english));
        QVERIFY2(Labels::segmentSearchTerms(s).contains(chinese), qPrintable(chinese));
    }
    QCOMPARE(Labels::segment(GpuSegment::Laptop), QStringLiteral("laptop"));

    // A Chinese window: the headers read 笔记本 and 数据中心, and both languages' names find the same GPUs.
    QVERIFY(language.apply(QStringLiteral("zh_CN")));
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("s.ini")), nullptr);
    SimulationController controller(CatalogLoader::bundled());
    MainWindow window(&controller, &settings);
    QComboBox* combo = window.controls()->gpuCombo();
    QVERIFY(combo->findText(QStringLiteral("NVIDIA · 笔记本")) >= 0);
    QVERIFY(combo->findText(QStringLiteral("NVIDIA · 数据中心")) >= 0);
    QVERIFY(combo->findText(QStringLiteral("NVIDIA · laptop")) < 0);
    QCompleter* completer = combo->completer();
    auto count = [&](const QString& text) {
        completer->setCompletionPrefix(text);
        return completer->completionCount();
    };
    int laptops = 0, datacenter = 0;
    for (const GpuSpec& g : controller.catalog().gpus()) {
        laptops += g.segmentKind() == GpuSegment::Laptop;
        datacenter += g.segmentKind() == GpuSegment::Datacenter;
    }
    QCOMPARE_GE(laptops, 20);
    QCOMPARE(count(QStringLiteral("笔记本")), laptops);
    QCOMPARE(count(QStringLiteral("laptop")), laptops);
    QCOMPARE(count(QStringLiteral("数据中心")), datacenter);
    QCOMPARE(count(QStringLiteral("data center")), datacenter);
    QVERIFY(language.apply(QStringLiteral("en")));
}

void TestTranslations::systemLocaleChoosesTheLanguage()
{
    QCOMPARE(Language::resolve(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    QCOMPARE(Language::resolve(QStringLiteral("en")), QStringLiteral("en"));
    // "" follows the system: Chinese for a Chinese system locale, English otherwise.
    const QString expected = QLocale::system().language() == QLocale::Chinese ? QStringLiteral("zh_CN")
                                                                              : QStringLiteral("en");
    QCOMPARE(Language::resolve(QString()), expected);
    QCOMPARE(Language::resolve(QStringLiteral("klingon")), expected);
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
