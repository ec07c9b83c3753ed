#pragma once

// The one owner of every QSettings key. Typed getters and setters; a bad or corrupt stored value is ignored (the
// default is used) rather than trusted.

#include "figure.h"
#include "scenario.h"

#include <QByteArray>
#include <QObject>
#include <QSettings>
#include <QStringList>

#include <optional>

namespace headroom::gui {

class AppSettings : public QObject {
    Q_OBJECT

public:
    explicit AppSettings(QObject* parent = nullptr);
    // For tests: settings in a given file.
    AppSettings(const QString& iniPath, QObject* parent);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& g);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& s);

    std::optional<ScenarioDocument> lastScenario(QString* error = nullptr) const;
    void setLastScenario(const ScenarioDocument& doc);

    QString language() const; // "" = follow the system locale
    void setLanguage(const QString& code);

    QString colourScheme() const; // "" = the system's, "light", "dark"
    void setColourScheme(const QString& scheme);

    QStringList recentFiles() const;
    void addRecentFile(const QString& path);

    bool presentationMode() const;
    void setPresentationMode(bool on);

    // The export dialog's last choices (chart, size, scale, colours, caption) and folder.
    FigureOptions exportOptions() const;
    void setExportOptions(const FigureOptions& options);
    QString exportDirectory() const;
    void setExportDirectory(const QString& dir);

    QSettings& raw() { return m_settings; }

signals:
    void languageChanged(const QString& code);
    void colourSchemeChanged(const QString& scheme);

private:
    QSettings m_settings;
};

} // namespace headroom::gui
