#pragma once

// The UI language: English (the source strings) or Simplified Chinese, chosen from the system locale unless the
// user picked one, and switchable at run time (View > Language). Installs Headroom's translation and Qt's own
// (standard dialogs and buttons); every widget then retranslates on QEvent::LanguageChange.

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

QT_BEGIN_NAMESPACE
class QTranslator;
QT_END_NAMESPACE

namespace headroom::gui {

class Language : public QObject {
    Q_OBJECT

public:
    explicit Language(QObject* parent = nullptr);
    ~Language() override;

    // "en" and "zh_CN".
    static QStringList available();
    // The native name for a menu: "English", "简体中文".
    static QString nativeName(const QString& code);
    // The language for a setting: "" follows the system locale.
    static QString resolve(const QString& setting);

    // Installs the translators for `setting`, a language code ("" = system); returns false (and keeps the current
    // language) when the translation cannot be loaded.
    bool apply(const QString& setting);
    QString current() const { return m_current; }
    // The setting the last apply() anywhere in the application installed ("" = the system's): what
    // `headroom export --language` needs to draw the same text and numbers.
    static QString activeSetting();

private:
    std::unique_ptr<QTranslator> m_app;
    std::unique_ptr<QTranslator> m_qt;
    QString m_current = QStringLiteral("en");
};

} // namespace headroom::gui
