#include "appsettings.h"
#include "labels.h"

#include <QFileInfo>

namespace headroom::gui {

namespace {
    const QString kGeometry = QStringLiteral("window/geometry");
    const QString kState = QStringLiteral("window/state");
    const QString kScenario = QStringLiteral("scenario/last");
    const QString kLanguage = QStringLiteral("view/language");
    const QString kColours = QStringLiteral("view/colours");
    const QString kRecent = QStringLiteral("files/recent");
    const QString kPresentation = QStringLiteral("view/presentation");
    const QString kExport = QStringLiteral("export/");
    const QString kExportDir = QStringLiteral("export/directory");
    constexpr int kMaxRecent = 8;
} // namespace

AppSettings::AppSettings(QObject* parent)
    : QObject(parent)
{
}

AppSettings::AppSettings(const QString& iniPath, QObject* parent)
    : QObject(parent)
    , m_settings(iniPath, QSettings::IniFormat)
{
}

QByteArray AppSettings::windowGeometry() const { return m_settings.value(kGeometry).toByteArray(); }
void AppSettings::setWindowGeometry(const QByteArray& g) { m_settings.setValue(kGeometry, g); }
QByteArray AppSettings::windowState() const { return m_settings.value(kState).toByteArray(); }
void AppSettings::setWindowState(const QByteArray& s) { m_settings.setValue(kState, s); }

std::optional<ScenarioDocument> AppSettings::lastScenario(QString* error) const
{
    const QByteArray text = m_settings.value(kScenario).toString().toUtf8();
    if (text.isEmpty())
        return std::nullopt;
    auto parsed = parseScenario(std::string_view(text.constData(), std::size_t(text.size())),
                                "settings (scenario/last)");
    if (!parsed) {
        if (error)
            *error = Labels::error(parsed.error());
        return std::nullopt;
    }
    return std::move(parsed.value());
}

void AppSettings::setLastScenario(const ScenarioDocument& doc)
{
    m_settings.setValue(kScenario, QString::fromStdString(serializeScenario(doc)));
}

QString AppSettings::language() const
{
    const QString code = m_settings.value(kLanguage).toString();
    return (code == QLatin1String("en") || code == QLatin1String("zh_CN")) ? code : QString();
}

void AppSettings::setLanguage(const QString& code)
{
    // Announced even when it is the stored one: `--language` may have put another in force for this run.
    m_settings.setValue(kLanguage, code);
    emit languageChanged(code);
}

QString AppSettings::colourScheme() const
{
    const QString s = m_settings.value(kColours).toString();
    return (s == QLatin1String("light") || s == QLatin1String("dark")) ? s : QString();
}

void AppSettings::setColourScheme(const QString& scheme)
{
    if (scheme == colourScheme())
        return;
    m_settings.setValue(kColours, scheme);
    emit colourSchemeChanged(scheme);
}

QStringList AppSettings::recentFiles() const
{
    QStringList files = m_settings.value(kRecent).toStringList();
    files.erase(std::remove_if(files.begin(), files.end(), [](const QString& f) { return f.isEmpty(); }), files.end());
    return files.mid(0, kMaxRecent);
}

void AppSettings::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    m_settings.setValue(kRecent, files.mid(0, kMaxRecent));
}

bool AppSettings::presentationMode() const { return m_settings.value(kPresentation, false).toBool(); }
void AppSettings::setPresentationMode(bool on) { m_settings.setValue(kPresentation, on); }

FigureOptions AppSettings::exportOptions() const
{
    FigureOptions o;
    if (const auto c = figureChartFromString(m_settings.value(kExport + QStringLiteral("chart")).toString()))
        o.chart = *c;
    o.size = m_settings.value(kExport + QStringLiteral("size"), o.size).toSize();
    o.scale = m_settings.value(kExport + QStringLiteral("scale"), o.scale).toDouble();
    o.caption = m_settings.value(kExport + QStringLiteral("caption"), o.caption).toBool();
    o.dark = m_settings.value(kExport + QStringLiteral("dark"), o.dark).toBool();
    o.presentation = m_settings.value(kExport + QStringLiteral("presentation"), o.presentation).toBool();
    // A hand-edited or corrupt value falls back to the defaults rather than reaching the renderer.
    return o.validate() ? FigureOptions() : o;
}

void AppSettings::setExportOptions(const FigureOptions& o)
{
    m_settings.setValue(kExport + QStringLiteral("chart"), toString(o.chart));
    m_settings.setValue(kExport + QStringLiteral("size"), o.size);
    m_settings.setValue(kExport + QStringLiteral("scale"), o.scale);
    m_settings.setValue(kExport + QStringLiteral("caption"), o.caption);
    m_settings.setValue(kExport + QStringLiteral("dark"), o.dark);
    m_settings.setValue(kExport + QStringLiteral("presentation"), o.presentation);
}

QString AppSettings::exportDirectory() const { return m_settings.value(kExportDir).toString(); }
void AppSettings::setExportDirectory(const QString& dir) { m_settings.setValue(kExportDir, dir); }

} // namespace headroom::gui
