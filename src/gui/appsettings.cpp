#include "appsettings.h"

#include <QFileInfo>

namespace headroom::gui {

namespace {
    const QString kGeometry = QStringLiteral("window/geometry");
    const QString kState = QStringLiteral("window/state");
    const QString kScenario = QStringLiteral("scenario/last");
    const QString kLanguage = QStringLiteral("view/language");
    const QString kRecent = QStringLiteral("files/recent");
    const QString kPresentation = QStringLiteral("view/presentation");
    constexpr int kMaxRecent = 8;
}

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
    auto parsed = parseScenario(std::string_view(text.constData(), std::size_t(text.size())), "settings (scenario/last)");
    if (!parsed) {
        if (error)
            *error = QString::fromStdString(parsed.error().toString());
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
    if (code == language())
        return;
    m_settings.setValue(kLanguage, code);
    emit languageChanged(code);
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

} // namespace headroom::gui
