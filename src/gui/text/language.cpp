#include "language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace headroom::gui {

namespace {
    QString g_activeSetting;
}

QString Language::activeSetting() { return g_activeSetting; }

Language::Language(QObject* parent)
    : QObject(parent)
{
}

Language::~Language()
{
    if (m_app)
        QCoreApplication::removeTranslator(m_app.get());
    if (m_qt)
        QCoreApplication::removeTranslator(m_qt.get());
}

QStringList Language::available() { return { QStringLiteral("en"), QStringLiteral("zh_CN") }; }

QString Language::nativeName(const QString& code)
{
    if (code == QLatin1String("zh_CN"))
        return QStringLiteral("简体中文");
    return QStringLiteral("English");
}

QString Language::resolve(const QString& setting)
{
    if (available().contains(setting))
        return setting;
    // Any Chinese locale reads Simplified Chinese better than English; others get the English source.
    const QLocale system = QLocale::system();
    return system.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

bool Language::apply(const QString& setting)
{
    const QString code = resolve(setting);
    std::unique_ptr<QTranslator> app, qt;
    // English is the source; its .qm holds only the plural forms of the %n strings ("1 GPU", "2 GPUs").
    app = std::make_unique<QTranslator>();
    if (!app->load(QStringLiteral(":/i18n/headroom_%1.qm").arg(code)))
        return false;
    if (code != QLatin1String("en")) {
        // Qt's own strings (file dialogs, standard buttons); optional: without them those stay in English.
        qt = std::make_unique<QTranslator>();
        if (!qt->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            qt.reset();
    }
    if (m_app)
        QCoreApplication::removeTranslator(m_app.get());
    if (m_qt)
        QCoreApplication::removeTranslator(m_qt.get());
    m_app = std::move(app);
    m_qt = std::move(qt);
    if (m_qt)
        QCoreApplication::installTranslator(m_qt.get());
    if (m_app)
        QCoreApplication::installTranslator(m_app.get());
    m_current = code;
    g_activeSetting = available().contains(setting) ? setting : QString();
    // Numbers follow a chosen language (separators, decimal point); "system" keeps the system's number format.
    QLocale::setDefault(available().contains(setting) ? QLocale(code) : QLocale::system());
    return true;
}

} // namespace headroom::gui
