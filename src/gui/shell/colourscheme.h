#pragma once

// The window's colours: the system's (the style and palette the application started with), light or dark (Fusion
// with its standard palette, or Headroom's dark one). Chosen with --palette or View > Colours, kept in the
// settings; every chart restyles on QEvent::ApplicationPaletteChange.

#include <QPalette>
#include <QString>
#include <QStringList>

namespace headroom::gui {

class AppSettings;

class ColourScheme {
public:
    // Captures the system style and palette, to return to them.
    ColourScheme();

    // "", "light" and "dark" ("" = the system's).
    static QStringList available();
    static bool isValid(const QString& scheme) { return available().contains(scheme); }
    static QPalette dark();

    void apply(const QString& scheme);
    QString current() const { return m_current; }
    // Applies the settings' scheme whenever it changes (View > Colours); the settings must outlive this object.
    void follow(AppSettings& settings);

private:
    QString m_systemStyle;
    QPalette m_systemPalette;
    QString m_current;
};

} // namespace headroom::gui
